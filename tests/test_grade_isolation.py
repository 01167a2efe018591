"""The student's code runs in a child process: whatever it does, the test process (a notebook's
kernel) lives on with its variables, and the report names what happened.

Each test calls check or record here, in the test process itself.
"""

import collections
import os
import sys

import pytest

from msviz.grade import check, record
from msviz.grade.child import FORK, how_it_ended, start
from msviz.grade.remote import Stopped

pytestmark = pytest.mark.skipif(not FORK, reason="no fork on this platform: check runs in-process there")

#: What the test process holds before each check: it must hold the same after.
KEPT = {"board": [["E"]], "numbers": list(range(10))}


class Solution:
    """A right answer in LeetCode's own form: a queue, each cell marked as it goes in."""

    def updateBoard(self, board, click):
        r, c = click
        if board[r][c] == "M":
            board[r][c] = "X"
            return board
        rows, cols = len(board), len(board[0])
        queue = collections.deque([(r, c)])
        board[r][c] = "#"
        while queue:
            r, c = queue.popleft()
            around = [
                (r + i, c + j)
                for i in (1, 0, -1)
                for j in (-1, 1, 0)
                if (i or j) and 0 <= r + i < rows and 0 <= c + j < cols
            ]
            mines = sum(board[i][j] == "M" for i, j in around)
            board[r][c] = str(mines) if mines else "B"
            if not mines:
                for i, j in around:
                    if board[i][j] == "E":
                        board[i][j] = "#"
                        queue.append((i, j))
        return board


def exits(board, click):
    os._exit(7)


def segfaults(board, click):
    import ctypes

    ctypes.string_at(0)


def fills_the_memory(board, click):
    kept = []
    while True:
        kept.append(bytearray(10**7))


def sums_in_c(board, click):
    return sum(range(10**12))


def loops(board, click):
    while True:
        pass


CASES = [
    (exits, {}, "ended the process", "your function ended the process (exit code 7)"),
    (segfaults, {}, "crashed", "your function crashed Python: SIGSEGV"),
    (
        fills_the_memory,
        {"time_limit": 20},
        "memory",
        "MemoryError: your function used more than 1 GB of memory",
    ),
    (sums_in_c, {"time_limit": 1}, "C call too long", "one call into C ran past the time limit"),
    (loops, {"time_limit": 1}, "too slow", "stopped after 1 s of CPU time"),
]


@pytest.mark.parametrize("solution, options, bug, words", CASES, ids=[c[0].__name__ for c in CASES])
def test_the_test_process_lives_on_and_the_death_is_named(solution, options, bug, words, capfd):
    kept = {k: list(v) for k, v in KEPT.items()}
    report = check(solution, random_boards=5, **options)
    assert not report.ok and report.bug == bug, (report.error, report.cpu)
    assert report.error.startswith(words), report.error
    assert report.failure.hint and report.failure.case.name == "LeetCode example 1"
    assert report.results["examples"] == (0, 2) and report.total == 17
    assert str(report) and report.to_dict()["mistake"] == report.failure.name
    assert KEPT == kept and sys.getrecursionlimit() >= 1000
    out, err = capfd.readouterr()
    assert (out, err) == ("", ""), "nothing reaches the test's own output, not even a fork warning"


def test_a_right_answer_in_leetcodes_form_is_still_right_and_its_prints_are_kept(capfd):
    def printing(board, click):
        print("clicked", click)
        return Solution().updateBoard(board, click)

    assert check(Solution, order="bfs")
    report = check(printing, order="bfs", random_boards=3)
    assert report.ok and report.results["order"] == (15, 15) and report.cpu > 0
    assert report.stdout.startswith("clicked [3, 0]\nclicked [1, 2]\n")
    assert capfd.readouterr() == ("", "")


def test_record_runs_in_a_child_too():
    rec = record(Solution, ["EEE", "EEM"], (0, 0))
    assert rec.answer == [list("B1E"), list("B1M")] and rec.returned == rec.answer
    assert rec.cells[0] == (0, 0) and rec.order == "bfs"
    rec = record(exits, ["EEE", "EEM"], (0, 0))
    assert rec.problem == "your function ended the process (exit code 7)" and rec.answer is None
    rec = record(segfaults, ["EE"], (0, 1))
    assert rec.problem.startswith("your function crashed Python") and rec.writes == ()


def test_a_child_that_waits_is_stopped_by_the_wall_clock_backstop():
    import time

    runner = start(lambda board, click: time.sleep(30), cpu=5, wall=0.5)
    with pytest.raises(Stopped) as stopped:
        runner.attempt([["E"]], (0, 0), 2.0)
    death, words = how_it_ended(stopped.value.ended, cpu=5, wall=0.5)
    assert death == "waited" and stopped.value.ended.why == "clock"
    assert "waiting (time.sleep, input(), a lock)" in words


def test_ctrl_c_in_the_child_goes_on_up_in_the_parent():
    def interrupted(board, click):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        check(interrupted, random_boards=0)


class QueueWithoutMarks:
    """Right on small boards: cells go into the queue while still hidden, again and again."""

    def updateBoard(self, board, click):
        r, c = click
        if board[r][c] == "M":
            board[r][c] = "X"
            return board
        queue = collections.deque([(r, c)])
        while queue:
            r, c = queue.popleft()
            around = [
                (r + i, c + j)
                for i in (-1, 0, 1)
                for j in (-1, 0, 1)
                if (i or j) and 0 <= r + i < len(board) and 0 <= c + j < len(board[0])
            ]
            mines = sum(board[i][j] == "M" for i, j in around)
            board[r][c] = str(mines) if mines else "B"
            if not mines:
                queue.extend((i, j) for i, j in around if board[i][j] == "E")
        return board


def calls_itself(board, click):
    return calls_itself(board, click)


def test_a_queue_without_marks_is_caught_on_the_50x50_open_board(capfd):
    kept = {k: list(v) for k, v in KEPT.items()}
    report = check(QueueWithoutMarks)
    assert report.results["examples"] == (2, 2) and report.bug == "queued many times"
    assert report.case.size == "50x50" and "cells go into the queue many times" in report.error
    assert "mark a cell when it goes in" in report.error and "Mark a cell" in report.failure.hint
    assert KEPT == kept and capfd.readouterr() == ("", "")


def test_endless_self_recursion_is_named_and_the_recursion_limit_left_alone():
    limit = sys.getrecursionlimit()
    report = check(calls_itself)
    assert report.bug == "endless recursion" and report.error.startswith("RecursionError")
    assert "make progress" in report.failure.hint and sys.getrecursionlimit() == limit
