"""check(): grading a student's update_board."""

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from reference import recursive_dfs_order  # noqa: E402

import msviz  # noqa: E402
from msviz.check import cases  # noqa: E402


def textbook(board, click):
    """A right answer, written the way a student would: in place, recursive."""
    for r, c, value, _ in recursive_dfs_order(board, tuple(click), msviz.LEETCODE_ORDER):
        board[r][c] = value
    return board


def spreads_from_digits(board, click):
    """A classic mistake: a digit cell also reveals its neighbours."""
    rows, cols = len(board), len(board[0])
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board
    todo = [(r, c)]
    while todo:
        r, c = todo.pop()
        if board[r][c] != "E":
            continue
        k = sum(board[i][j] in "MX" for i in range(max(0, r - 1), min(rows, r + 2))
                for j in range(max(0, c - 1), min(cols, c + 2)))
        board[r][c] = str(k) if k else "B"
        todo += [(i, j) for i in range(max(0, r - 1), min(rows, r + 2))
                 for j in range(max(0, c - 1), min(cols, c + 2))]
    return board


def test_a_right_answer_passes_every_board():
    report = msviz.check(textbook, show=False)
    assert report.ok and report.passed == report.total > 150
    assert "Well done" in str(report)


def test_a_classic_mistake_is_caught_with_the_board_and_the_answer():
    report = msviz.check(spreads_from_digits, show=False)
    assert not report.ok
    assert report.case.name == "LeetCode example 1"
    assert report.expected == msviz.reveal(report.case.board, report.case.click)
    assert report.got != report.expected and report.got[0][2] == "1"  # (0, 2) should stay hidden
    text = str(report)
    assert "wrong on: LeetCode example 1, click (3, 0)" in text and "got:" in text
    fig = report.draw()
    assert len(fig.axes) == 3 and fig.axes[2].get_title() == "your answer"


def test_a_crash_is_reported_with_its_traceback():
    def crashes(board, click):
        raise IndexError("list index out of range")

    report = msviz.check(crashes, show=False)
    assert report.passed == 0 and "IndexError: list index out of range" in report.error


def test_forgetting_to_return_the_board_is_named():
    report = msviz.check(lambda board, click: None, show=False)
    assert "returned None" in report.error


def test_the_fixed_boards_come_first_and_are_the_same_each_time():
    first = cases(random_boards=5)
    assert [c.name for c in first[:2]] == ["LeetCode example 1", "LeetCode example 2"]
    assert cases(random_boards=5) == first


def test_check_needs_a_function():
    with pytest.raises(TypeError, match="check needs a function update_board"):
        msviz.check("update_board")
