"""The class-size arithmetic of benchmarks/lesson.py, and the hub configurations in docs/ it sizes."""

import importlib.util
import runpy
from pathlib import Path

import pytest
import yaml
from traitlets.config import Config

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("lesson", ROOT / "benchmarks" / "lesson.py")
lesson = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lesson)

SIZES = {name: 100.0 for name, _, _ in lesson.CORE}


def test_with_culling_a_student_never_holds_more_than_three_kernels_of_the_lesson():
    peak, minute, alive = lesson.lesson_peak(SIZES, 50.0)
    assert peak == 350.0 and len(alive) == 3 and minute == 15
    assert lesson.lesson_peak(SIZES, 50.0, cull_minutes=60)[0] == 550.0  # every kernel kept
    assert lesson.lesson_peak(SIZES, 50.0, cull_minutes=0)[0] == 150.0  # one at a time


def test_the_class_is_sized_by_the_tighter_of_memory_and_cpu():
    hub = lesson.HUB_MB  # the lesson benchmark sizes with classroom.py's own arithmetic
    assert lesson.class_size(2, 8, 500, hub, 0.05) == {"by_memory": 14, "by_cpu": 40, "students": 14}
    assert lesson.class_size(4, 16, 100, hub, 0.5)["students"] == 8  # CPU-bound
    # Memory: the system's 512 MB and the hub's own come off first.
    assert lesson.class_size(4, 1, 100, hub, 0.01)["by_memory"] == (1024 - 512 - lesson.HUB_MB) // 100


@pytest.mark.parametrize(
    "rows, cols, step, sprites, shown",
    [
        (1, 1, 0, [2], False),  # the empty one-cell default: no reveal was sent
        (3, 3, 0, [0] * 9, False),  # a step shown but no cell uncovered
        (3, 3, 0, [2] + [0] * 8, True),
        (3, 3, -1, [0] * 9, True),  # a game before its first click
    ],
)
def test_a_board_counts_as_drawn_only_when_it_shows_a_reveal(rows, cols, step, sprites, shown):
    assert lesson.shows_a_reveal(rows, cols, step, sprites) is shown


def hub_config() -> Config:
    config = Config()
    runpy.run_path(str(ROOT / "docs" / "jupyterhub_config.py"), init_globals={"get_config": lambda: config})
    return config


def test_the_hub_configuration_culls_kernels_and_servers_and_limits_memory():
    c = hub_config()
    culler = c.JupyterHub.services[0]
    assert "jupyterhub_idle_culler" in culler["command"] and "--timeout=3600" in culler["command"]
    assert c.JupyterHub.load_roles[0]["services"] == [culler["name"]]
    assert "delete:servers" in c.JupyterHub.load_roles[0]["scopes"]
    assert "--MappingKernelManager.cull_idle_timeout=900" in c.Spawner.args
    assert c.Spawner.mem_limit == "1G" and c.Spawner.default_url == "/lab"


def test_the_kubernetes_values_hold_the_same_limits():
    values = yaml.safe_load((ROOT / "docs" / "zero-to-jupyterhub.yaml").read_text())
    c = hub_config()
    assert values["singleuser"]["memory"]["limit"] == c.Spawner.mem_limit
    kernels = values["singleuser"]["extraFiles"]["kernel-culling"]["data"]["MappingKernelManager"]
    assert f"--MappingKernelManager.cull_idle_timeout={kernels['cull_idle_timeout']}" in c.Spawner.args
    assert (
        values["cull"]["enabled"]
        and f"--timeout={values['cull']['timeout']}" in c.JupyterHub.services[0]["command"]
    )


# ---- benchmarks/classroom.py: a class's figures come only from the students who got through

spec = importlib.util.spec_from_file_location("classroom", ROOT / "benchmarks" / "classroom.py")
classroom = importlib.util.module_from_spec(spec)
spec.loader.exec_module(classroom)


def student(name, ok, pss=None, rss=None, peak=None, reloads=0):
    return {
        "name": name,
        "ok": ok,
        "reloads": reloads,
        "server_pss_mb": pss,
        "server_rss_mb": rss,
        "server_peak_rss_mb": peak,
    }


def test_the_class_is_sized_only_from_students_who_got_through():
    result = {
        "students": [
            student("a", True, pss=500, rss=700, peak=720),
            student("b", True, pss=600, rss=800, peak=820, reloads=2),
            # Stuck on "server starting": its tiny server would make the class look cheap.
            student("c", False, pss=40, rss=60, peak=60, reloads=1),
        ],
        "hub": {"pss_mb": 188, "rss_mb": 200},
    }
    summary = classroom.summarize(result, None)
    assert (summary["students"], summary["ok"], summary["reloaded"], summary["reloads"]) == (3, 2, 2, 3)
    assert summary["server_pss_mb"]["mean"] == 550 and summary["all_servers_pss_mb"] == 1100
    each, peak = 550, 820
    assert summary["fits"]["16 GB"] == {
        "at_pss": int((16 * 1024 - 188 - 512) // each),
        "at_peak_rss": int((16 * 1024 - 188 - 512) // peak),
    }


def test_a_class_where_nobody_got_through_sizes_nothing():
    result = {"students": [student("c", False, pss=40, rss=60, peak=60)], "hub": {"pss_mb": 188}}
    summary = classroom.summarize(result, None)
    assert summary["ok"] == 0 and summary["server_pss_mb"] is None and "fits" not in summary
