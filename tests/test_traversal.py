"""dfs_reveal, bfs_reveal and reveal: the problem's examples, orders, properties."""

import sys

import pytest
from conftest import games, neighbour_orders, unchanged
from hypothesis import given, settings
from reference import (
    expected_revealed,
    mine_count,
    queue_bfs_events,
    queue_bfs_order,
    recursive_dfs_events,
    recursive_dfs_order,
)

import msviz
from msviz import Visit

EXAMPLE1 = ["EEEEE", "EEMEE", "EEEEE", "EEEEE"]
EXAMPLE1_AFTER = ["B1E1B", "B1M1B", "B111B", "BBBBB"]
EXAMPLE2_AFTER = ["B1E1B", "B1X1B", "B111B", "BBBBB"]
ORDERS = [msviz.READING_ORDER, msviz.LEETCODE_ORDER]


def rows(strings):
    return [list(s) for s in strings]


@pytest.mark.parametrize("order", ["dfs", "bfs"])
@pytest.mark.parametrize("neighbors", ORDERS)
def test_leetcode_example_1(order, neighbors):
    assert msviz.reveal(EXAMPLE1, (3, 0), order=order, neighbors=neighbors) == rows(EXAMPLE1_AFTER)


@pytest.mark.parametrize("order", ["dfs", "bfs"])
@pytest.mark.parametrize("neighbors", ORDERS)
def test_leetcode_example_2(order, neighbors):
    board = rows(EXAMPLE1_AFTER)
    assert msviz.reveal(board, (1, 2), order=order, neighbors=neighbors) == rows(EXAMPLE2_AFTER)


# The whole event list on a tiny board, worked out by hand.
#   E E E      (0,0) has no mine around it; (0,1) and (1,1) touch the mine (1,2);
#   E E M      (1,0) has none, and (0,2) is only reachable through digits.
def test_dfs_events_on_a_tiny_board():
    assert list(msviz.dfs_reveal(["EEE", "EEM"], (0, 0))) == [
        Visit(0, 0, 0, "B", 0, 1, None),
        Visit(1, 0, 1, "1", 1, 2, (0, 0)),  # (0,0)'s first hidden neighbour in reading order
        Visit(2, 1, 0, "B", 1, 2, (0, 0)),  # then (1,0), which recurses ...
        Visit(3, 1, 1, "1", 2, 3, (1, 0)),  # ... into (1,1): (0,0)'s call never reaches it
    ]


def test_bfs_events_on_a_tiny_board():
    assert list(msviz.bfs_reveal(["EEE", "EEM"], (0, 0))) == [
        Visit(0, 0, 0, "B", 0, 3, None),  # queues (0,1), (1,0), (1,1)
        Visit(1, 0, 1, "1", 1, 2, (0, 0)),
        Visit(2, 1, 0, "B", 1, 1, (0, 0)),  # its neighbours are all seen already
        Visit(3, 1, 1, "1", 1, 0, (0, 0)),
    ]


def test_neighbour_order_changes_dfs_order():
    board = ["EEE", "EEE", "EEE"]
    reading = [(v.row, v.col) for v in msviz.dfs_reveal(board, (1, 1))]
    leetcode = [(v.row, v.col) for v in msviz.dfs_reveal(board, (1, 1), neighbors=msviz.LEETCODE_ORDER)]
    assert reading[:3] == [(1, 1), (0, 0), (0, 1)]
    assert leetcode[:3] == [(1, 1), (1, 2), (2, 2)]
    assert sorted(reading) == sorted(leetcode)


@settings(max_examples=150, deadline=None)
@given(games(), neighbour_orders())
def test_dfs_order_is_the_recursive_solution(game, neighbors):
    board, click = game
    got = [(v.row, v.col, v.value, v.depth) for v in msviz.dfs_reveal(board, click, neighbors=neighbors)]
    assert got == recursive_dfs_order(board, click, neighbors)


@settings(max_examples=150, deadline=None)
@given(games(), neighbour_orders())
def test_bfs_order_is_the_queue_solution(game, neighbors):
    board, click = game
    got = [
        (v.row, v.col, v.value, v.depth, v.frontier)
        for v in msviz.bfs_reveal(board, click, neighbors=neighbors)
    ]
    assert got == queue_bfs_order(board, click, neighbors)


@settings(max_examples=200, deadline=None)
@given(games(), neighbour_orders())
def test_properties_of_a_reveal(game, neighbors):
    board, click = game
    before = unchanged(board)
    dfs = list(msviz.dfs_reveal(board, click, neighbors=neighbors))
    bfs = list(msviz.bfs_reveal(board, click, neighbors=neighbors))
    assert board == before
    final = msviz.reveal(board, click, order="dfs", neighbors=neighbors)
    assert final == msviz.reveal(board, click, order="bfs", neighbors=neighbors)
    expected = expected_revealed(board, click)
    for visits in (dfs, bfs):
        cells = [(v.row, v.col) for v in visits]
        assert len(set(cells)) == len(cells)  # each cell at most once
        assert [v.step for v in visits] == list(range(len(visits)))
        assert set(cells) == expected
        for v in visits:
            assert final[v.row][v.col] == v.value
            if v.value == "X":
                assert board[v.row][v.col] == "M" and v.step == 0
            else:
                k = mine_count(board, v.row, v.col)
                assert v.value == (str(k) if k else "B")
            if v.step == 0:
                assert v.parent is None and v.depth == 0
            else:  # led here by an adjacent blank revealed earlier
                pr, pc = v.parent
                assert max(abs(pr - v.row), abs(pc - v.col)) == 1
                assert (pr, pc) in cells[: v.step] and final[pr][pc] == "B"
    # The stack holds the calls under way: as deep as the textbook recursion goes, plus one.
    calls = recursive_dfs_order(board, click, neighbors)
    assert [v.frontier for v in dfs] == [depth + 1 for *_, depth in calls]
    # Cells not revealed are as they were.
    for r, row in enumerate(board):
        for c, symbol in enumerate(row):
            if (r, c) not in expected:
                assert final[r][c] == symbol


def test_click_on_a_mine_yields_one_x():
    for reveal in (msviz.dfs_reveal, msviz.bfs_reveal):
        assert [tuple(v)[:4] for v in reveal(EXAMPLE1, (1, 2))] == [(0, 1, 2, "X")]


@pytest.mark.parametrize("symbol", ["B", "3", "X"])
def test_click_on_a_revealed_cell_does_nothing(symbol):
    board = [["E", symbol], ["M", "E"]]
    assert list(msviz.dfs_reveal(board, (0, 1))) == []
    assert list(msviz.bfs_reveal(board, (0, 1))) == []
    after = msviz.reveal(board, (0, 1))
    assert after == board and after is not board


@pytest.mark.parametrize("reveal", [msviz.dfs_reveal, msviz.bfs_reveal])
def test_an_abandoned_generator_leaves_the_board_alone(reveal):
    board = rows(["EEEEE", "EEEEE", "EEMEE", "EEEEE"])
    before = unchanged(board)
    visits = reveal(board, (0, 0))
    for _ in range(3):
        next(visits)
    assert board == before
    visits.close()
    del visits
    assert board == before


def test_reveal_returns_a_new_board_in_every_form():
    import numpy as np

    forms = [EXAMPLE1, rows(EXAMPLE1), "\n".join(EXAMPLE1), np.array(rows(EXAMPLE1))]
    for form in forms:
        out = msviz.reveal(form, (3, 0))
        assert out == rows(EXAMPLE1_AFTER)
        assert out is not form and all(type(row) is list for row in out)
        out[0][0] = "Z"
        assert msviz.reveal(form, (3, 0)) == rows(EXAMPLE1_AFTER)


def test_a_large_open_board_needs_no_recursion_limit():
    side = 1000  # a million cells, and a DFS a million calls deep
    assert sys.getrecursionlimit() < side * side
    board = ["E" * side] * side
    n = 0
    depth = 0
    for v in msviz.dfs_reveal(board, (0, 0)):
        n += 1
        depth = max(depth, v.depth)
    assert n == side * side
    assert depth > sys.getrecursionlimit()


# --- The labelled event streams ------------------------------------------------------


@given(games(), neighbour_orders())
def test_dfs_events_are_the_instrumented_recursive_solution(game, neighbors):
    board, click = game
    before = unchanged(board)
    events = list(msviz.dfs_events(board, click, neighbors=neighbors))
    assert [(e.label, e.row, e.col, e.depth) for e in events] == recursive_dfs_events(board, click, neighbors)
    assert board == before
    calls = [e for e in events if e.label == "call"]
    visits = list(msviz.dfs_reveal(board, click, neighbors=neighbors))
    assert [(e.row, e.col, e.step, e.depth) for e in calls] == [
        (v.row, v.col, v.step, v.depth) for v in visits
    ]
    stack = []  # every return closes the call on top: after the last event the stack is empty
    for e in events:
        if e.label == "call":
            stack.append((e.row, e.col))
        else:
            assert stack.pop() == (e.row, e.col)
    assert stack == []


@given(games(), neighbour_orders())
def test_bfs_events_are_the_instrumented_queue_solution(game, neighbors):
    board, click = game
    events = list(msviz.bfs_events(board, click, neighbors=neighbors))
    assert [(e.label, e.row, e.col, e.depth) for e in events] == queue_bfs_events(board, click, neighbors)
    dequeues = [e for e in events if e.label == "dequeue"]
    visits = list(msviz.bfs_reveal(board, click, neighbors=neighbors))
    assert [(e.row, e.col, e.step) for e in dequeues] == [(v.row, v.col, v.step) for v in visits]
    enqueued = [(e.row, e.col, e.step) for e in events if e.label == "enqueue"]
    assert enqueued == [(e.row, e.col, e.step) for e in dequeues]  # first in, first out


def test_event_labels_are_a_closed_documented_set():
    board = msviz.random_board(8, 8, 6, seed=2, safe=(4, 4))
    seen = {e.label for e in msviz.dfs_events(board, (4, 4))} | {
        e.label for e in msviz.bfs_events(board, (4, 4))
    }
    assert seen | {"write"} == set(msviz.EVENT_LABELS) == {"call", "return", "enqueue", "dequeue", "write"}


def test_event_streams_check_their_arguments_at_the_call():
    with pytest.raises(ValueError, match=r"click \(9, 0\) is outside"):
        msviz.dfs_events(["EE"], (9, 0))
    with pytest.raises(ValueError, match="neighbors must list each of the eight offsets"):
        msviz.bfs_events(["EE"], (0, 0), neighbors=[(0, 1)])


@pytest.mark.parametrize("reveal", [msviz.dfs_reveal, msviz.bfs_reveal])
def test_visits_are_made_one_at_a_time(reveal):
    """A generator does the work of a visit when it is asked for it, not before."""
    board = [["E"] * 300 for _ in range(300)]  # one click reveals all 90,000 cells
    visits = reveal(board, (150, 150))
    taken = [next(visits) for _ in range(3)]
    working = visits.gi_frame.f_locals["flat"].cells  # the generator's own copy of the board
    assert sum(cell == "B" for cell in working) == len(taken) == 3
    assert next(visits).step == 3
