"""Trace: the arrays agree with the generators and with a replay, step by step."""

import numpy as np
import pytest
from conftest import games, neighbour_orders, unchanged
from hypothesis import given, settings
from hypothesis import strategies as st

import msviz

REVEAL = {"dfs": msviz.dfs_reveal, "bfs": msviz.bfs_reveal}


def replay(board, visits, k):
    """The board after visits 0..k, applied one by one."""
    out = [row[:] for row in board]
    for v in visits[: k + 1]:
        out[v.row][v.col] = v.value
    return out


def frontier_by_replay(order, visits, k):
    """The cells on the DFS call stack, or in the BFS queue, right after visit k."""
    if order == "dfs":  # the chain of calls from the click to step k's cell
        by_cell = {(v.row, v.col): v for v in visits}
        chain, v = set(), visits[k]
        while v is not None:
            chain.add((v.row, v.col))
            v = by_cell.get(v.parent)
        return chain
    # BFS: queued by a visit up to k (the click is queued from the start), not yet revealed
    revealed = {(v.row, v.col) for v in visits[: k + 1]}
    queued = {(v.row, v.col) for v in visits if v.parent is None or visits_step(visits, v.parent) <= k}
    return queued - revealed


def visits_step(visits, cell):
    return next(v.step for v in visits if (v.row, v.col) == cell)


@settings(max_examples=120, deadline=None)
@given(games(max_side=8), neighbour_orders(), st.sampled_from(["dfs", "bfs"]))
def test_a_trace_agrees_with_its_generator_at_every_step(game, neighbors, order):
    board, click = game
    before = unchanged(board)
    visits = list(REVEAL[order](board, click, neighbors=neighbors))
    t = msviz.trace(board, click, order=order, neighbors=neighbors)
    assert board == before
    assert len(t) == len(visits)
    assert list(t.visits()) == visits
    assert t.board_at(-1).tolist() == board
    assert not t.revealed_at(-1).any() and not t.frontier_at(-1).any()
    final = msviz.reveal(board, click, order=order, neighbors=neighbors)
    assert t.final.tolist() == final
    expected_steps = np.full(t.shape, -1)
    for v in visits:
        expected_steps[v.row, v.col] = v.step
    assert np.array_equal(t.step_map, expected_steps)
    depth_map = np.full(t.shape, -1)
    for v in visits:
        depth_map[v.row, v.col] = v.depth
    assert np.array_equal(t.depth_map, depth_map)
    assert t.value.tolist() == [v.value for v in visits]
    children = [sum(1 for w in visits if w.parent == (v.row, v.col)) for v in visits]
    assert t.children.tolist() == children
    for k in range(len(visits)):
        assert t.board_at(k).tolist() == replay(board, visits, k)
        frontier = {tuple(map(int, rc)) for rc in np.argwhere(t.frontier_at(k))}
        assert frontier == frontier_by_replay(order, visits, k)
        assert t.frontier_at(k).sum() == visits[k].frontier


def test_the_click_on_a_revealed_cell_gives_an_empty_trace():
    t = msviz.trace(["B1", "EM"], (0, 0))
    assert len(t) == 0
    assert t.board_at(-1).tolist() == [["B", "1"], ["E", "M"]]
    with pytest.raises(ValueError, match=r"step 0 is outside this trace's steps -1..-1"):
        t.board_at(0)


def test_dfs_stack_on_a_tiny_board():
    # E E E   click (0,0): B, then (0,1)=1, then (1,0)=B, whose call reveals (1,1)=1.
    # E E M
    t = msviz.trace(["EEE", "EEM"], (0, 0))
    assert t.frontier_at(3).tolist() == [[True, False, False], [True, True, False]]
    assert t.frontier.tolist() == [1, 2, 2, 3]
    assert t.leave_step_map.tolist() == [[4, 2, -1], [4, 4, -1]]


def test_a_big_trace_is_arrays_the_size_of_the_board():
    t = msviz.trace(msviz.random_board(300, 300, 900, seed=1, safe=(150, 150)), (150, 150))
    assert len(t) > 50_000
    for per_cell in (t.step_map, t.enter_step_map, t.leave_step_map, t.board, t.final):
        assert per_cell.shape == (300, 300)
    for per_step in (t.row, t.col, t.depth, t.frontier, t.parent_step):
        assert per_step.shape == (len(t),) and per_step.dtype == np.int32


# --- The finer timeline ----------------------------------------------------------------


@given(games(), neighbour_orders(), st.sampled_from(["dfs", "bfs"]))
def test_the_event_timeline_is_the_event_stream(game, neighbors, order):
    board, click = game
    t = msviz.trace(board, click, order=order, neighbors=neighbors)
    stream = msviz.dfs_events if order == "dfs" else msviz.bfs_events
    events = list(stream(board, click, neighbors=neighbors))
    assert t.events == len(events) == 2 * len(t)
    assert [t.event(e) for e in range(t.events)] == events
    # Replay the stream: the board, the stack or queue in order, at every event.
    shown = np.array(board)
    waiting = []
    for e, event in enumerate(events):
        cell = (event.row, event.col)
        if event.label in ("call", "dequeue"):
            shown[cell] = t.final[cell]
        if event.label in ("call", "enqueue"):
            waiting.append(cell)
        elif event.label == "return":
            assert waiting.pop() == cell  # the call on top returns
        else:
            assert waiting.pop(0) == cell  # the front of the queue is taken
        assert np.array_equal(t.board_at_event(e), shown)
        assert t.waiting_at_event(e) == waiting
    assert t.waiting_at_event(t.events - 1) == [] if len(t) else True  # nothing left at the end


@given(games(), st.sampled_from(["dfs", "bfs"]))
def test_a_step_looks_like_its_event(game, order):
    board, click = game
    t = msviz.trace(board, click, order=order)
    for k in range(len(t)):
        e = int(t.visit_event[k])
        assert np.array_equal(t.board_at(k), t.board_at_event(e))
        assert np.array_equal(t.frontier_at(k), t.frontier_at_event(e))


def test_the_field_names_of_before_the_first_release_are_gone():
    t = msviz.trace(["EEE", "EEM"], (0, 0))
    old = ["rows", "cols", "parent", "values", "visit_step", "enter_step", "leave_step"]
    for name in old + ["enter_event", "leave_event", "reveal_event"]:
        with pytest.raises(AttributeError, match=f"no attribute {name!r}"):
            getattr(t, name)


def test_distance_is_each_steps_ring_around_the_click():
    board = [list("EEEEE")] * 4
    t = msviz.trace(board, (1, 3), order="bfs")
    rings = {(r, c): max(abs(r - 1), abs(c - 3)) for r in range(4) for c in range(5)}
    assert t.distance.tolist() == [rings[r, c] for r, c in zip(t.row.tolist(), t.col.tolist())]
    assert t.distance.tolist() == t.depth.tolist()  # on an open board the layers are the rings
    assert not t.distance.flags.writeable
