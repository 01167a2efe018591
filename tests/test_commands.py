"""The commands the README and the guides give run as written, after the README's set-up.

Every `python3 dev.py msviz ...` command in README.md and docs/*.md is run as it is
written (from the repository's folder, as the README has it), its output files sent to
a temporary folder instead; none says bare `python -m msviz` (which a fresh terminal
does not find; `python -m msviz --version` after `pip install` excepted); the README's
install lines name extras msviz has; and
`python3 dev.py wheel` builds the wheel the guides tell a hub to install.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def commands() -> list[tuple[str, str]]:
    """(document, command) for every `python3 dev.py msviz` command, in code blocks and inline."""
    found = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        blocks = re.findall(r"```bash\n(.*?)```", text, re.S)
        lines = [line for block in blocks for line in block.splitlines()]
        lines += [
            c for c in re.findall(r"`(python3 dev\.py msviz [^`]*)`", text) if " -" in c
        ]  # not a bare name
        for line in lines:
            line = line.split("  #")[0].strip()
            if line.startswith("python3 dev.py msviz ") and "..." not in line:
                found.append((doc.name, line))
    return found


def test_no_document_gives_a_command_that_fails_in_a_fresh_terminal():
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        bare = re.search(r"(?<![\w/.])python -m msviz\b(?! --version)", text)
        assert not bare, f"{doc.name}: bare `python -m msviz`"


def test_the_readme_installs_msviz_by_name_with_extras_it_has():
    from importlib.metadata import metadata

    extras = metadata("msviz").get_all("Provides-Extra")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = re.search(r"```bash\n(.*?)```", readme, re.S).group(1)
    assert first_block.splitlines()[0].startswith('pip install "msviz[notebooks]"'), first_block
    named = re.findall(r'pip install "msviz\[(\w+)\]"', readme)
    assert {"notebooks", "widgets"} <= set(named), named
    assert [name for name in named if name not in extras] == []


STUDENT = """
def update_board(board, click):
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board
    def reveal(r, c):
        if not (0 <= r < len(board) and 0 <= c < len(board[0])) or board[r][c] != "E":
            return
        near = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
        near = [(i, j) for i, j in near if 0 <= i < len(board) and 0 <= j < len(board[0])]
        mines = sum(board[i][j] in "MX" for i, j in near)
        board[r][c] = str(mines) if mines else "B"
        if not mines:
            for i, j in near:
                reveal(i, j)
    reveal(r, c)
    return board
"""


@pytest.mark.parametrize("doc, command", commands(), ids=lambda x: x if len(x) < 40 else x[:40])
def test_each_msviz_command_runs_as_written(doc, command, tmp_path):
    words = shlex.split(command)
    for flag in ("-o", "--out"):  # outputs go to the temporary folder
        if flag in words:
            i = words.index(flag) + 1
            words[i] = str(tmp_path / Path(words[i]).name)
    if "grade" in words:  # the class's folder of submissions: one student's file
        (tmp_path / "submitted").mkdir()
        (tmp_path / "submitted" / "ada.py").write_text(STUDENT)
        words = [str(tmp_path / "submitted") if w == "submitted/" else w for w in words]
    run = subprocess.run([sys.executable, *words[1:]], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, f"{doc}: {command}\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}"
    for flag in ("-o", "--out"):
        if flag in words:
            assert Path(words[words.index(flag) + 1]).exists(), f"{doc}: {command} wrote nothing"


def test_the_wheel_for_a_hub_holds_the_whole_kit():
    run = subprocess.run(
        [sys.executable, "dev.py", "wheel"], cwd=ROOT, capture_output=True, text=True, timeout=900
    )
    assert run.returncode == 0, run.stdout + run.stderr
    wheel = max((ROOT / "dist").glob("msviz-*-py3-none-any.whl"), key=lambda p: p.stat().st_mtime)
    names = zipfile.ZipFile(wheel).namelist()
    # The install command it prints names the wheel where it is: pasted as printed, it installs.
    said = re.search(r'pip install "([^"\[]+)\[notebooks\]"', run.stdout + run.stderr)
    assert said and (ROOT / said.group(1)).resolve() == wheel.resolve(), run.stdout + run.stderr
    from msviz.frontend import BANK_PARTS, PAGE_PARTS

    for part in (
        *(f"msviz/js/{name}" for name in PAGE_PARTS + BANK_PARTS),
        "msviz/view.css",
        "msviz/grade/__init__.py",
        "msviz/__main__.py",
    ):
        assert part in names, f"{wheel.name} lacks {part}"
