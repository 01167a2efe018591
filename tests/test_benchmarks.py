"""The benchmark script runs (its figures are read by people, not asserted here: see README)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_engine_benchmark_runs_on_a_small_board_and_prints_every_figure():
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--size", "60", "--repeat", "1"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode in (0, 1), done.stderr  # 1: a target missed, which a small board may do
    for figure in (
        "trace bfs / bfs_reveal loop",
        "view_state dfs / trace dfs",
        "grader / bare, one 200x200 board",
    ):
        assert figure in done.stdout, done.stdout
    assert done.stdout.rstrip().endswith(("all targets met", "some targets MISSED"))


def test_the_browser_benchmark_of_big_boards_runs_on_a_small_board(browser):
    """The big-board parts of benchmarks/browser.py (exported page; a player in JupyterLab), at 40 x 40."""
    from conftest import chromium_path

    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "browser.py"),
            "--big-only",
            "--page-size",
            "40",
            "--chromium",
            chromium_path(),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    for figure in ("first picture", "longest task", "a full redraw of every cell", "two-board 300x300 page"):
        assert figure in done.stdout, done.stdout
    # The big player in JupyterLab, here 40 x 40: its first picture and the memory it holds.
    for figure in ("40x40 player: first picture", "40x40 player: browser memory <= 2x the bytes sent"):
        assert figure in done.stdout, done.stdout


def test_the_edit_benchmark_runs_and_prints_every_figure(browser):
    """benchmarks/edit.py with two edits (a mine put, then taken) and one run of the cell again."""
    from conftest import chromium_path

    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "edit.py"),
            "--samples",
            "2",
            "--chromium",
            chromium_path(),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode in (0, 1), done.stdout[-2000:] + done.stderr[-2000:]  # 1: a target missed
    for figure in (
        "an edit to its picture",
        "edit drawn within 1 s, slowest",
        "edit / running the cell again",
    ):
        assert figure in done.stdout, done.stdout


def test_the_fence_benchmark_runs_on_a_small_class():
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "fence.py"), "--quick"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode in (0, 1), done.stderr  # 1: a target missed on a busy machine
    for figure in ("fence layers on this machine:", "check of a right answer:", "class of 4 right answers"):
        assert figure in done.stdout, done.stdout
    assert done.stdout.rstrip().endswith(("all targets met", "some targets MISSED"))
