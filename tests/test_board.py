"""Boards: parse, format, random boards, mine counts."""

import json

import numpy as np
import pytest
from conftest import boards, unchanged
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import mine_count

import msviz

LISTS = [list("EEM"), list("B1X")]


@pytest.mark.parametrize(
    "form",
    [
        LISTS,
        ["EEM", "B1X"],
        ("EEM", "B1X"),
        [("E", "E", "M"), ("B", "1", "X")],
        "EEM\nB1X",
        "\n  E E M\n\n  B 1 X\n",
        '[["E","E","M"],["B","1","X"]]',
        np.array(LISTS),
    ],
)
def test_every_form_parses_to_the_same_new_board(form):
    before = form.copy() if isinstance(form, np.ndarray) else unchanged(form)
    board = msviz.parse_board(form)
    assert board == LISTS
    assert all(type(row) is list and all(type(c) is str for c in row) for row in board)
    board[0][0] = "X"
    if isinstance(form, np.ndarray):
        assert np.array_equal(form, before)
    else:
        assert form == before
    assert board is not form and board[0] is not LISTS[0]


@settings(max_examples=100, deadline=None)
@given(boards())
def test_format_round_trips(board):
    for style in ("text", "compact", "leetcode"):
        assert msviz.parse_board(msviz.format_board(board, style=style)) == board
    assert json.loads(msviz.format_board(board, style="leetcode")) == board
    text = msviz.format_board(board)
    assert text.splitlines()[0] == " ".join(board[0])


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.data())
def test_random_boards(rows, cols, data):
    mines = data.draw(st.integers(0, rows * cols))
    seed = data.draw(st.integers(0, 1000))
    board = msviz.random_board(rows, cols, mines, seed=seed)
    assert len(board) == rows and all(len(row) == cols for row in board)
    assert sum(row.count("M") for row in board) == mines
    assert {c for row in board for c in row} <= {"M", "E"}
    assert msviz.random_board(rows, cols, mines, seed=seed) == board


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.data())
def test_a_safe_first_click_has_no_mine_around_it(rows, cols, data):
    r, c = data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, cols - 1))
    room = sum(1 for i in range(rows) for j in range(cols) if max(abs(i - r), abs(j - c)) > 1)
    mines = data.draw(st.integers(0, room))
    board = msviz.random_board(rows, cols, mines, seed=data.draw(st.integers(0, 99)), safe=(r, c))
    assert sum(row.count("M") for row in board) == mines
    for i in range(max(0, r - 1), min(rows, r + 2)):
        for j in range(max(0, c - 1), min(cols, c + 2)):
            assert board[i][j] == "E"


def test_different_seeds_give_different_boards():
    boards_ = {str(msviz.random_board(8, 8, 10, seed=s)) for s in range(5)}
    assert len(boards_) == 5


@settings(max_examples=100, deadline=None)
@given(boards(), st.data())
def test_mine_counts_count_m_and_x(board, data):
    # Uncover a mine or two: X counts as a mine too.
    for r, row in enumerate(board):
        for c, s in enumerate(row):
            if s == "M" and data.draw(st.booleans()):
                board[r][c] = "X"
    counts = msviz.mine_counts(board)
    assert counts.shape == (len(board), len(board[0]))
    for (r, c), k in np.ndenumerate(counts):
        assert k == mine_count(board, r, c)
