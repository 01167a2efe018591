"""The code shown beside the board: the highlighted lines are the lines Python really runs."""

import sys

import pytest
from conftest import games, neighbour_orders
from hypothesis import given

import msviz
from msviz.solutions import LINES, ORDER_OF, SOURCES, line_of, run


def executed_event_lines(source, board, click, neighbors):
    """Run `source` under sys.settrace; return the lines it runs that are event lines, in order."""
    wanted = set(LINES[source].values())
    seen = []

    def tracer(frame, event, arg):
        if frame.f_code.co_filename == f"<msviz {source} solution>":
            if event == "line" and frame.f_lineno in wanted:
                seen.append(frame.f_lineno)
            return tracer
        return None

    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        after, _ = run(source, board, click, neighbors)
    finally:
        sys.settrace(old)
    return seen, after


@pytest.mark.parametrize("source", sorted(SOURCES))
@given(game=games(max_side=7), neighbors=neighbour_orders())
def test_the_highlighted_lines_are_the_lines_python_runs(source, game, neighbors):
    board, click = game
    if board[click[0]][click[1]] not in "ME":
        return  # nothing to run: the click reveals nothing
    t = msviz.trace(board, click, order=ORDER_OF[source], neighbors=neighbors)
    shown = [line_of(t, e, source) for e in range(t.events)]
    ran, after = executed_event_lines(source, board, click, neighbors)
    assert shown == ran
    assert after == t.final.tolist()  # and the shown code solves the problem


def test_every_source_has_a_line_for_every_kind_of_event():
    for source, lines in LINES.items():
        text = SOURCES[source].splitlines()
        assert all(1 <= n <= len(text) for n in lines.values())
        if ORDER_OF[source] == "dfs":
            assert {k.split("_")[0] for k in lines} == {"call", "return"}
        else:
            assert {k.split("_")[0] for k in lines} == {"enqueue", "dequeue"}
