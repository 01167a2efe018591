"""benchmarks/classroom.py's arithmetic and checks, and the hub configurations in docs/ it runs with.

No hub is started here: the sizing, the board check, the lesson's timeline and the two
configurations are pure data.
"""

import importlib.util
import runpy
from pathlib import Path

import pytest
import yaml
from traitlets.config import Config

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("classroom_benchmark", ROOT / "benchmarks" / "classroom.py")
classroom = importlib.util.module_from_spec(spec)
spec.loader.exec_module(classroom)


def student(name, ok, pss, rss, kernels=3, reloads=0):
    """A student's figures as the benchmark records them: PSS and RSS at their most in the lesson."""
    return {
        "name": name,
        "ok": ok,
        "reloads": reloads,
        "server_pss_mb": pss,
        "server_peak_rss_mb": rss,
        "server_rss_mb": rss,
        "most_kernels": kernels,
    }


def a_class(*students, player_cores=0.05):
    observer = {"cores_at_lesson_speed": player_cores} if player_cores else None
    return {"students": list(students), "hub": {"peak_pss_mb": 200, "peak_rss_mb": 230}, "observer": observer}


def test_a_class_is_sized_only_from_the_students_who_got_through():
    result = a_class(
        student("a", True, pss=440, rss=520),
        student("b", True, pss=460, rss=540, reloads=1),
        # Left on "server starting" (a tiny server) and one whose boards never drew: both cheap.
        student("c", False, pss=40, rss=60, kernels=0, reloads=2),
        student("d", False, pss=150, rss=200, kernels=1),
    )
    summary = classroom.summarize(result, None)
    assert (summary["students"], summary["ok"], summary["reloaded"], summary["reloads"]) == (4, 2, 2, 3)
    assert summary["server_pss_mb"]["mean"] == 450 and summary["server_peak_rss_mb"]["max"] == 540
    assert summary["all_servers_pss_mb"] == 900 and summary["server_side_mb"] == 1100
    # 8 GB less 512 MB for the system and the hub's 200 MB, over 450 MB a student; 2 cores over 0.05.
    assert summary["sizes"]["2 cores, 8 GB"] == {"by_memory": 16, "by_cpu": 40, "students": 16}
    assert summary["sizes"]["4 cores, 16 GB"]["by_memory"] == (16 * 1024 - 512 - 200) // 450 == 34


def test_a_class_where_nobody_got_through_sizes_nothing():
    summary = classroom.summarize(a_class(student("c", False, pss=40, rss=60)), None)
    assert summary["ok"] == 0 and summary["server_pss_mb"] is None and "sizes" not in summary


def test_the_class_is_sized_by_the_tighter_of_memory_and_cpu():
    assert classroom.class_size(2, 8, 450, 200, 0.05) == {"by_memory": 16, "by_cpu": 40, "students": 16}
    assert classroom.class_size(4, 16, 100, 200, 0.5) == {"by_memory": 156, "by_cpu": 8, "students": 8}
    assert classroom.class_size(2, 8, 450, 200, None)["students"] == 16  # no observer: memory alone


NOTHING = "the click on (0, 0) reveals nothing: that cell is already uncovered"
GOOD = {"rows": 8, "cols": 8, "step": 0, "revealed": 1, "caption": "step 1 of 20: (3, 0) gets B"}


@pytest.mark.parametrize(
    "board, problem",
    [
        (GOOD, None),
        ({**GOOD, "step": 12, "revealed": 13}, None),
        ({**GOOD, "step": -1, "revealed": 0, "caption": "click a cell"}, None),  # a game before its click
        # The empty default view: one grey cell, its click on (0, 0) revealing nothing.
        ({"rows": 1, "cols": 1, "step": 0, "revealed": 0, "caption": NOTHING}, "a lone cell"),
        ({**GOOD, "caption": NOTHING}, "caption"),
        ({**GOOD, "step": 3, "revealed": 0}, "no cell uncovered"),
        (None, "nothing drawn"),
    ],
)
def test_a_board_counts_as_drawn_only_when_it_shows_the_reveal_asked_for(board, problem):
    found = classroom.board_problem(board)
    assert found is None if problem is None else problem in found


def test_the_lesson_follows_the_guide_timeline():
    plan = classroom.lesson_plan((ROOT / "docs" / "teaching.md").read_text())
    assert [name[:2] for name, _, _ in plan] == ["01", "02", "03", "04", "05"]
    assert [start for _, start, _ in plan] == [0, 7, 15, 29, 41] and plan[-1][2] == 50


def test_the_run_culls_kernels_as_the_class_does_at_its_own_scale():
    culling = classroom.class_culling()
    assert culling == {"cull_idle_timeout": 900, "cull_interval": 60, "cull_connected": True}
    assert classroom.scaled_culling(culling, 8) == [
        "--MappingKernelManager.cull_idle_timeout=120",
        "--MappingKernelManager.cull_interval=8",
        "--MappingKernelManager.cull_connected=True",
    ]
    assert classroom.scaled_culling(culling, 60)[0].endswith("=900")  # a real lesson: the class's own


def hub_config() -> tuple[Config, dict]:
    """docs/jupyterhub_config.py run as JupyterHub runs it; its config and its names."""
    config = Config()
    names = runpy.run_path(
        str(ROOT / "docs" / "jupyterhub_config.py"), init_globals={"get_config": lambda: config}
    )
    return config, names


def test_the_hub_configuration_culls_servers_and_kernels_and_limits_memory():
    c, _ = hub_config()
    culler = c.JupyterHub.services[0]
    assert culler["command"][1:3] == ["-m", "jupyterhub_idle_culler"]
    assert "--timeout=3600" in culler["command"]
    role = c.JupyterHub.load_roles[0]
    assert role["services"] == [culler["name"]]
    assert {"list:users", "read:users:activity", "read:servers", "delete:servers"} <= set(role["scopes"])
    for option in ("cull_idle_timeout=900", "cull_interval=60", "cull_connected=True"):
        assert f"--MappingKernelManager.{option}" in c.Spawner.args
    assert c.Spawner.mem_limit == "1G" and c.JupyterHub.spawner_class == "systemdspawner.SystemdSpawner"
    assert c.JupyterHub.authenticator_class == "pam"


def test_the_hub_configuration_gives_the_nbgitpuller_link_to_the_first_notebook():
    _, names = hub_config()
    link = names["NBGITPULLER_LINK"]
    assert "/hub/user-redirect/git-pull?repo=" in link
    assert link.endswith("urlpath=lab/tree/msviz/notebooks/01-start-here.ipynb")
    assert (ROOT / "notebooks" / "01-start-here.ipynb").exists()


def test_the_kubernetes_values_hold_the_same_limits_and_culling():
    values = yaml.safe_load((ROOT / "docs" / "zero-to-jupyterhub.yaml").read_text())
    c, _ = hub_config()
    single = values["singleuser"]
    assert single["memory"]["limit"] == c.Spawner.mem_limit
    assert single["cpu"]["limit"] == c.Spawner.cpu_limit
    kernels = single["extraFiles"]["kernel-culling"]["data"]["MappingKernelManager"]
    for key, value in kernels.items():
        assert f"--MappingKernelManager.{key}={value}" in c.Spawner.args
    cull = values["cull"]
    command = c.JupyterHub.services[0]["command"]
    assert cull["enabled"] is True
    assert f"--timeout={cull['timeout']}" in command and f"--cull-every={cull['every']}" in command
