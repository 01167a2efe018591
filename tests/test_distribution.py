"""msviz as PyPI and GitHub get it: the sdist and the wheel, the workflows, the citation.

The sdist is built from the repository's files, and the wheel from the sdist, with `build`
(as .github/workflows/release.yml does); both pass `twine check --strict`, the wheel
`check-wheel-contents`. The sdist is installed with [notebooks] into a fresh virtual
environment (pip takes the rest from the package index), and a smoke check runs there from
a folder outside the repository: a trace, a player's display data, the catalogs, and
`python -m msviz grade` on one file. The workflows are checked against GitHub's schema and
by zizmor's audits, offline; CITATION.cff against the Citation File Format's schema.
"""

from __future__ import annotations

import email
import os
import re
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

import msviz

ROOT = Path(__file__).resolve().parent.parent
#: The test environment's own tools (the test extra): build, twine, check-wheel-contents, ...
TOOLS = Path(sys.executable).parent
WORKFLOWS = ROOT / ".github" / "workflows"
#: What is never part of a build's source, where there is no git to ask (an unpacked sdist).
NOT_SOURCE = {".git", ".venv", "build", "dist", "__pycache__", ".pytest_cache", ".hypothesis", ".cache"}


def run(*args, cwd=None, env=None, input=None, timeout=900) -> str:
    """Run a command; fail the test with its output unless it succeeds. Return its output."""
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, input=input, capture_output=True, text=True, timeout=timeout
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, (
        f"{' '.join(str(a) for a in args)} failed ({done.returncode}):\n{output[-4000:]}"
    )
    return output


def source_files() -> list[str]:
    """The repository's files as a build sees them: git's (tracked, or new and not ignored)."""
    if (ROOT / ".git").exists():
        listed = run("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT)
        return sorted(name for name in listed.split("\0") if name and (ROOT / name).is_file())
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in NOT_SOURCE and not d.endswith(".egg-info")]
        found += [str((Path(folder) / f).relative_to(ROOT)) for f in files if not f.endswith(".pyc")]
    return sorted(found)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(sdist, wheel, the source's file names): built from a copy of the source, so nothing lands here."""
    source = tmp_path_factory.mktemp("source")
    names = source_files()
    for name in names:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_bytes((ROOT / name).read_bytes())
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "--outdir", out, source)  # the sdist, then the wheel from it
    (sdist,), (wheel,) = sorted(out.glob("*.tar.gz")), sorted(out.glob("*.whl"))
    return sdist, wheel, names


def test_the_version_is_semantic_and_said_by_the_command_line():
    assert re.fullmatch(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?", msviz.__version__)
    out = run(sys.executable, "-m", "msviz", "--version", cwd=ROOT)
    assert out.strip() == f"msviz {msviz.__version__}"
    # Written once: pyproject.toml reads it, CITATION.cff leaves it to the user's --version.
    assert 'dynamic = ["version"]' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert msviz.__version__ not in (ROOT / "CITATION.cff").read_text(encoding="utf-8")


def test_twine_and_check_wheel_contents_find_nothing(built):
    sdist, wheel, _ = built
    checked = run(TOOLS / "twine", "check", "--strict", sdist, wheel)
    assert checked.count("PASSED") == 2, checked
    assert "OK" in run(TOOLS / "check-wheel-contents", wheel)


def test_the_wheel_holds_what_runs_and_says_its_licence(built):
    _, wheel, names = built
    assert wheel.name == f"msviz-{msviz.__version__}-py3-none-any.whl"
    inside = set(zipfile.ZipFile(wheel).namelist())
    info = f"msviz-{msviz.__version__}.dist-info"
    runs = [
        n
        for n in names
        if n.startswith("msviz/")
        and (n.endswith((".py", ".js", ".css", ".mo")) or n.startswith(("msviz/shown/", "msviz/templates/")))
    ]
    assert [n for n in runs if n not in inside] == []
    assert sorted(n for n in inside if not n.startswith(info + "/") and n not in runs) == []
    assert f"{info}/licenses/LICENSE" in inside
    meta = email.message_from_bytes(zipfile.ZipFile(wheel).read(f"{info}/METADATA"))
    assert meta["Version"] == msviz.__version__
    assert meta["License-Expression"] == "MIT" and meta.get_all("License-File") == ["LICENSE"]
    assert meta["Requires-Python"] == ">=3.10"
    assert {"notebooks", "widgets"} <= set(meta.get_all("Provides-Extra"))
    assert meta["Description-Content-Type"] == "text/markdown"


def test_the_sdist_holds_what_packagers_build_and_test_with(built):
    sdist, _, names = built
    top = f"msviz-{msviz.__version__}/"
    inside = {n.removeprefix(top) for n in tarfile.open(sdist).getnames()}
    for name in ("LICENSE", "README.md", "CHANGELOG.md", "CITATION.cff", "CONTRIBUTING.md", "pyproject.toml"):
        assert name in inside
    needed = [n for n in names if n.split("/")[0] in ("msviz", "tests", "notebooks", "docs", "benchmarks")]
    assert any(n.startswith("notebooks/") for n in needed) and any(n.startswith("tests/") for n in needed)
    assert [n for n in needed if n not in inside] == []
    assert not [n for n in inside if n.split("/")[0] in (".venv", ".git", "build", "dist", "test-artifacts")]


SMOKE = """
import gettext, json, subprocess, sys
from pathlib import Path

import msviz

env, languages = Path(sys.argv[1]).resolve(), sys.argv[2:]
assert Path(msviz.__file__).resolve().is_relative_to(env), msviz.__file__
print(msviz.__version__)

board = msviz.random_board(9, 9, 10, seed=1, safe=(4, 4))
t = msviz.trace(board, (4, 4), order="bfs")
assert msviz.format_board(t.board_at(len(t.row) - 1)) == msviz.format_board(msviz.reveal(board, (4, 4)))

data, _ = msviz.player(board, (4, 4))._repr_mimebundle_()
assert {"application/vnd.jupyter.widget-view+json", "image/png", "text/html"} <= set(data), list(data)
assert len(msviz.player(board, (4, 4))._esm) > 10_000  # the front end, joined from the wheel's msviz/js

locale = Path(msviz.__file__).parent / "locale"
for code in languages:
    assert gettext.find("msviz", localedir=locale, languages=[code]), f"no catalog for {code}"

Path("submitted").mkdir()
Path("submitted", "ada.py").write_text(sys.stdin.read())
subprocess.run([sys.executable, "-m", "msviz", "grade", "submitted", "--out", "grades"], check=True)
(ada,) = json.loads(Path("grades", "results.json").read_text())["students"]
assert (ada["name"], ada["verdict"], ada["points"]) == ("ada", "right", 1.0), ada
print("smoke check passed")
"""


def test_the_sdist_installs_with_its_notebook_extras_and_runs(built, tmp_path):
    from test_commands import STUDENT

    sdist, _, names = built
    fresh = tmp_path / "env"
    venv.EnvBuilder(with_pip=True).create(fresh)  # none of this environment's packages
    python = fresh / ("Scripts" if os.name == "nt" else "bin") / "python"
    run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", f"{sdist}[notebooks]")
    languages = sorted(
        {n.split("/")[2] for n in names if n.startswith("msviz/locale/") and n.endswith(".mo")}
    )
    outside = tmp_path / "class"
    outside.mkdir()
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    said = run(python, "-c", SMOKE, fresh, *languages, cwd=outside, env=clean, input=STUDENT)
    assert said.splitlines()[0] == msviz.__version__ and "smoke check passed" in said
    run(python, "-c", "import jupyterlab, ipywidgets, anywidget", cwd=outside)
    assert run(python, "-m", "msviz", "--version", cwd=outside).strip() == f"msviz {msviz.__version__}"


def load_yaml(path: Path):
    from ruamel.yaml import YAML  # check-jsonschema's YAML reader: YAML 1.2, so `on:` stays a string

    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def test_the_workflows_pass_githubs_schema_and_zizmors_audits():
    files = sorted(WORKFLOWS.glob("*.yml"))
    assert [f.name for f in files] == ["ci.yml", "release.yml"]
    run(TOOLS / "check-jsonschema", "--builtin-schema", "vendor.github-workflows", *files)
    run(TOOLS / "zizmor", "--offline", "--no-progress", "--color", "never", *files)
    for path in files:
        flow = load_yaml(path)
        assert flow["permissions"] == {}, f"{path.name}: no permission but those a job names"
        text = re.sub(r"(^|\s)#.*", "", path.read_text(encoding="utf-8"))  # the comments left out
        assert not re.search(r"secrets\.|(?<![\w-])(password|token|api-token)\s*:", text), path.name
        for uses in re.findall(r"uses:\s*(\S+)", text):
            assert uses.startswith("./") or re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", uses), uses
        for job in flow["jobs"].values():
            for step in job.get("steps", []):
                if step.get("uses", "").startswith("actions/checkout@"):
                    assert step["with"]["persist-credentials"] is False


def test_ci_runs_the_suite_on_the_oldest_and_newest_python_msviz_allows():
    from importlib.metadata import metadata

    ci = load_yaml(WORKFLOWS / "ci.yml")
    assert {"push", "pull_request"} <= set(ci["on"])
    (job,) = ci["jobs"].values()
    assert "ubuntu" in job["runs-on"]
    assert [step["run"] for step in job["steps"] if "run" in step] == ["bash .ci/run"]
    versions = [
        c.rsplit(" ", 1)[1] for c in metadata("msviz").get_all("Classifier") if re.search(r"3\.\d+$", c)
    ]
    oldest, newest = min(versions, key=lambda v: int(v[2:])), max(versions, key=lambda v: int(v[2:]))
    assert metadata("msviz")["Requires-Python"] == f">={oldest}"
    assert job["strategy"]["matrix"]["python"] == [oldest, newest]


def test_a_release_is_a_tag_published_by_trusted_publishing():
    release = load_yaml(WORKFLOWS / "release.yml")
    assert release["on"] == {"push": {"tags": ["v*"]}}
    jobs = release["jobs"]
    assert jobs["test"]["uses"] == "./.github/workflows/ci.yml"
    assert jobs["build"]["needs"] == "test" and jobs["publish"]["needs"] == "build"
    assert jobs["publish"]["permissions"] == {"id-token": "write"}
    assert jobs["publish"]["environment"]["name"] == "pypi"
    assert jobs["publish"]["steps"][-1]["uses"].startswith("pypa/gh-action-pypi-publish@")
    assert "with" not in jobs["publish"]["steps"][-1]  # no password, no repository: PyPI by its trust
    build = "\n".join(step.get("run", "") for step in jobs["build"]["steps"])
    for command in ("python -m build", "twine check --strict", "check-wheel-contents", "CHANGELOG.md"):
        assert command in build


def test_the_citation_is_valid_cff_and_names_the_repository(tmp_path):
    from importlib.metadata import metadata

    cff = ROOT / "CITATION.cff"
    run(TOOLS / "check-jsonschema", "--builtin-schema", "vendor.citation-file-format", cff)
    broken = tmp_path / "CITATION.cff"  # the schema has teeth: a citation without authors is refused
    broken.write_text(re.sub(r"authors:\n(  .*\n)+", "", cff.read_text(encoding="utf-8")), encoding="utf-8")
    refused = subprocess.run(
        [TOOLS / "check-jsonschema", "--builtin-schema", "vendor.citation-file-format", broken],
        capture_output=True,
        text=True,
    )
    assert refused.returncode == 1 and "authors" in refused.stdout + refused.stderr
    home = dict(u.split(", ", 1) for u in metadata("msviz").get_all("Project-URL"))["Homepage"]
    assert load_yaml(cff)["repository-code"] == home


def test_the_readme_renders_on_pypi_without_the_repository():
    """Every link and picture of the README (the project's page on PyPI) by an absolute URL."""
    from importlib.metadata import metadata

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", readme) + re.findall(r'src="([^"]+)"', readme)
    assert targets
    assert [t for t in targets if not re.match(r"https://|#", t)] == []
    home = dict(u.split(", ", 1) for u in metadata("msviz").get_all("Project-URL"))["Homepage"]
    own = [t for t in targets if "github" in t and "/msviz" in t]
    repo_path = home.removeprefix("https://github.com/")
    assert own and all(home in t or f"githubusercontent.com/{repo_path}/" in t for t in own), own


def test_the_changelog_keeps_a_changelogs_form():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n")
    sections = re.findall(r"^## (.*)$", text, re.M)
    assert sections[0] == "[Unreleased]"
    released = [re.fullmatch(r"\[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})", s) for s in sections[1:]]
    assert released and all(released), sections
    versions = [tuple(map(int, m[1].split("."))) for m in released]
    assert versions == sorted(versions, reverse=True) and [m[2] for m in released] == sorted(
        (m[2] for m in released), reverse=True
    )
    kinds = set(re.findall(r"^### (.*)$", text, re.M))
    assert kinds <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}, kinds
    assert msviz.__version__ == released[0][1]  # the newest section; a release renames Unreleased to the next
