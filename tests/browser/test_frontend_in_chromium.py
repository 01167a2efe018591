"""The front end's pure logic, in a real browser: the joined module loaded as it is, its functions called.

The timeline the browser works out from the few arrays Python sends equals the trace's own
(which step each event is, each step's caller, depth or layer, children, the event that shows
it, and when each cell is revealed, enters and leaves), for both orders, many boards and
neighbour orders, and a student's run; the play clock's arithmetic keeps its pace and piles
no moves up; the layout's arithmetic keeps cells square within their limits.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from chromium import PATIENCE

import msviz
from msviz.frontend import ESM
from msviz.grade import record
from msviz.viewstate import view_state


def page_with_module(browser, source: str):
    """A new context's blank page with the module `source` imported as `window.m` (as anywidget
    imports it); return the context and the page."""
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(PATIENCE)
    page.set_content("<!DOCTYPE html><html><body></body></html>")
    page.evaluate(
        """async source => {
            const url = URL.createObjectURL(new Blob([source], {type: "text/javascript"}));
            window.m = await import(url);
        }""",
        source,
    )
    return context, page


@pytest.fixture(scope="module")
def module(browser):
    """A blank page with the joined module imported as `window.m`."""
    context, page = page_with_module(browser, ESM)
    yield page
    context.close()


TIMELINE = """state => {
    const bytes = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
    const get = (name) =>
        name in state.binary ? new DataView(bytes(state.binary[name]).buffer) : state.plain[name];
    const r = window.m.readReveal({ get });
    const out = {};
    for (const name of ["eventStep", "parent", "depth", "children", "visitEvent"]) {
        out[name] = Array.from(r[name]);
    }
    // Per cell, through what the drawing reads them with (-1 for never).
    const at = { reveal: window.m.revealedAt, enter: window.m.enteredAt, leave: window.m.leftAt };
    for (const [name, of] of Object.entries(at)) {
        out[name] = Array.from({ length: r.rows * r.cols }, (_, i) => of(r, i));
    }
    return out;
}"""


def timeline_in_browser(page, t) -> dict:
    import base64

    state = view_state(t)
    binary = {k: base64.b64encode(v).decode() for k, v in state.items() if isinstance(v, bytes)}
    plain = {k: v for k, v in state.items() if not isinstance(v, bytes)}
    return page.evaluate(TIMELINE, {"binary": binary, "plain": plain})


CASES = [(seed, order) for seed in range(6) for order in ("dfs", "bfs")]


@pytest.mark.parametrize("seed, order", CASES)
def test_the_browser_works_out_the_traces_timeline_from_the_events(module, seed, order):
    rng = random.Random(seed)
    rows, cols = rng.randint(1, 14), rng.randint(1, 14)
    click = (rng.randrange(rows), rng.randrange(cols))
    board = msviz.random_board(rows, cols, rng.randint(0, rows * cols // 5), seed=seed, safe=click)
    t = msviz.trace(board, click, order=order, neighbors=tuple(rng.sample(msviz.READING_ORDER, 8)))
    got = timeline_in_browser(module, t)
    assert got["eventStep"] == t.event_step.tolist()
    assert got["parent"] == t.parent_step.tolist()
    assert got["depth"] == t.depth.tolist()  # the call depth, or the layer
    assert got["children"] == np.minimum(t.children, 255).tolist()
    assert got["visitEvent"] == t.visit_event.tolist()
    assert got["reveal"] == t.reveal_event_map.ravel().tolist()
    assert got["enter"] == t.enter_event_map.ravel().tolist()
    assert got["leave"] == t.leave_event_map.ravel().tolist()


def test_a_click_that_reveals_nothing_and_a_whole_open_board(module):
    for t in (
        msviz.trace(["B1", "EM"], (0, 0)),
        msviz.trace(msviz.random_board(30, 30, 0), (15, 15), order="bfs"),
    ):
        got = timeline_in_browser(module, t)
        assert (
            got["visitEvent"] == t.visit_event.tolist()
            and got["reveal"] == t.reveal_event_map.ravel().tolist()
        )


def test_a_students_run_is_one_event_a_write_revealed_at_its_first(module):
    def marks_first(board, click):  # a mark, then the answer: a cell written twice
        r, c = click
        board[r][c] = "?"
        board[r][c] = "B"
        board[r][c + 1] = "1"
        return board

    t = record(marks_first, ["EEE", "EEM"], (0, 0)).replay
    got = timeline_in_browser(module, t)
    assert got["eventStep"] == t.event_step.tolist() and got["visitEvent"] == t.visit_event.tolist()
    assert got["reveal"] == t.reveal_event_map.ravel().tolist()
    assert got["depth"] == t.depth.tolist() and set(got["enter"]) == {-1}


def test_the_play_clock_keeps_its_pace_and_piles_no_moves_up(module):
    moves = module.evaluate(
        """() => {
            const { movesAfter } = window.m;
            const period = 1000 / 60, frame = 1000 / 60;
            // Frames on time: one move a frame.
            let made = 0;
            for (let f = 1; f <= 120; f++) made = movesAfter(0, f * frame, period, made);
            const onTime = made;
            // Asked for 10 a second on 60 frames a second: one move every sixth frame.
            made = 0;
            for (let f = 1; f <= 60; f++) made = movesAfter(0, f * frame, 100, made);
            const slow = made;
            // A frame 500 ms late makes one move, not thirty: the clock catches up its count.
            made = movesAfter(0, 1000 / 60, period, 0);
            const late = movesAfter(0, 500, period, made);
            return { onTime, slow, lateMoves: late - made, caughtUp: late };
        }"""
    )
    assert moves["onTime"] == 120 and moves["slow"] == 10
    assert moves["lateMoves"] == 1 or moves["caughtUp"] >= 28  # one more step shown; the count caught up
    ends = module.evaluate("() => [m.nextStep(95, 10, 100), m.nextStep(99, 10, 100), m.nextStep(-1, 1, 5)]")
    assert ends == [100, 100, 1]  # several steps a frame still end on the last; before the click: step 0 + 1


def test_the_layout_keeps_cells_square_within_their_limits(module):
    fits = module.evaluate(
        """() => [m.cellFit(10, 10, 600, 600, 32), m.cellFit(10, 20, 400, 2000, 32),
                 m.cellFit(100, 10, 300, 200, 32),
                 m.captionLines(200), m.captionLines(1500), m.captionLines(100)]"""
    )
    assert fits == [32, 20, 12, 5, 2, 5]


FRAMES = """([state, e]) => {
    const bytes = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
    const get = (name) =>
        name in state.binary ? new DataView(bytes(state.binary[name]).buffer) : state.plain[name];
    const r = window.m.readReveal({ get });
    return window.m.frameRows(r, e, state.plain.words, 8);
}"""

EXAMPLE_1 = ["EEEEE", "EEMEE", "EEEEE", "EEEEE"]  # the problem's first example, clicked at (3, 0)

# Worked out by hand from the rules and the reading order of the neighbours,
# (-1,-1) (-1,0) (-1,1) (0,-1) (0,1) (1,-1) (1,0) (1,1): each row [text, whether it runs now].
HAND_FRAMES = {
    # Depth-first, event 1: reveal(3, 0) has called reveal(2, 0), its 2nd neighbour (-1, 0).
    ("dfs", 1): [
        ["stack, top first (2 calls):", False],
        ["reveal(2, 0)  mines around: 0  writes B; its loop starts at neighbour 1 of 8", True],
        ["reveal(3, 0)  mines around: 0  its loop: neighbour 2 of 8, calling reveal(2, 0)", False],
    ],
    # Depth-first, event 5: reveal(0, 1), a digit, returns to reveal(0, 0), whose loop goes on.
    ("dfs", 5): [
        ["stack, top first (4 calls):", False],
        ["reveal(0, 1) returned: back to its caller", False],
        ["reveal(0, 0)  mines around: 0  back from neighbour 5 of 8: its loop goes on", True],
        ["reveal(1, 0)  mines around: 0  its loop: neighbour 2 of 8, calling reveal(0, 0)", False],
        ["reveal(2, 0)  mines around: 0  its loop: neighbour 2 of 8, calling reveal(1, 0)", False],
        ["reveal(3, 0)  mines around: 0  its loop: neighbour 2 of 8, calling reveal(2, 0)", False],
    ],
    # Breadth-first, event 3: (3, 0) was taken out; its loop queues (2, 1), its 3rd neighbour (-1, 1).
    ("bfs", 3): [
        ["taken from the queue: (3, 0)  mines around: 0  writes B", True],
        ["its loop: neighbour 3 of 8 is (2, 1), hidden: queued", False],
        ["queue, front first (2):", False],
        ["(2,\u00a00) (2,\u00a01)", False],
    ],
}


@pytest.mark.parametrize("order, e", sorted(HAND_FRAMES))
def test_each_calls_variables_on_the_first_official_example_are_the_hand_worked_ones(module, order, e):
    import base64

    from msviz.words import view_words

    state = view_state(msviz.trace(EXAMPLE_1, (3, 0), order=order))
    binary = {k: base64.b64encode(v).decode() for k, v in state.items() if isinstance(v, bytes)}
    plain = {**{k: v for k, v in state.items() if not isinstance(v, bytes)}, "words": view_words("en")}
    assert module.evaluate(FRAMES, [{"binary": binary, "plain": plain}, e]) == HAND_FRAMES[(order, e)]


def test_an_order_is_typed_d_or_b_in_any_language(browser):
    """The bank's order question: D and B type the two orders whatever words show them (Python sends
    the keys); without them, only a choice's first letter would, which no Chinese choice has."""
    from msviz.frontend import BANK_ESM
    from msviz.i18n import speaking
    from msviz.words import ORDER_WORDS

    context, page = page_with_module(browser, BANK_ESM)
    for language in ("zh_CN", "es", "en"):
        with speaking(language):
            offered = [ORDER_WORDS["dfs"], ORDER_WORDS["bfs"]]
        keys = dict(zip(offered, "db"))
        typed = page.evaluate(
            "([offered, keys]) => ['d', 'B', 'x'].map(k => window.m.typedChoice(offered, '', k, keys))",
            [offered, keys],
        )
        assert typed == [offered[0], offered[1], ""], language
    unkeyed = page.evaluate("() => window.m.typedChoice(['深度优先', '广度优先'], '', 'd')")
    assert unkeyed == ""  # what the keys mend
    context.close()
