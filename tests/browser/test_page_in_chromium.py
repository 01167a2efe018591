"""The board view in a real browser, without Jupyter: the exported page, opened from file://.

The page carries the same ES module as the notebook widget, so these tests
check what the view draws: at sampled steps of random boards, the cells it
drew equal `Trace.board_at(k)` with the current cell and the stack/queue
(read back from the view, and from the canvas pixels); its caption equals
`msviz.words.caption`; the keyboard, the buttons and Play move it; and the page
asks the network for nothing.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from chromium import CANVAS_PIXELS, DRAWN, PATIENCE, shoot

import msviz
from msviz.render import CODES
from msviz.solutions import line_of
from msviz.words import caption, event_caption

SYMBOLS = np.array(list(CODES))


def expected(t, k):
    """What the view should draw at step k: (tile of each cell, variant of each cell)."""
    board = t.board_at(k)
    tiles = np.vectorize(CODES.get)(board)
    tiles[board == "M"] = CODES["E"]  # a hidden mine looks like any hidden cell
    variants = np.zeros(t.shape, int)
    if k >= 0:
        variants[t.row[k], t.col[k]] += 1  # the current cell
    variants += 2 * t.frontier_at(k)  # on the stack or in the queue
    return tiles.ravel().tolist(), variants.ravel().tolist()


def walk(page, steps):
    """Show each step in turn (waiting for it to be drawn); return what was drawn at each."""
    return page.evaluate(
        """async steps => {
            const roots = [...document.querySelectorAll('.msviz-view')];
            const out = [];
            for (const k of steps) {
                window.msvizPage.show(k);
                await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
                out.push(roots.map(root => ({step: root.msviz.step(), sprites: root.msviz.sprites(),
                                             variants: root.msviz.variants(), caption: root.msviz.caption(),
                                             waiting: root.msviz.waiting(), line: root.msviz.line(),
                                             frames: root.msviz.frames()})));
            }
            return out;
        }""",
        steps,
    )


CASES = [(seed, order) for seed in range(4) for order in ("dfs", "bfs")]


@pytest.mark.parametrize("seed, order", CASES)
def test_each_drawn_step_is_the_trace_at_that_step(open_page, seed, order):
    rng = random.Random(seed)
    rows, cols = rng.randint(3, 14), rng.randint(3, 14)
    click = (rng.randrange(rows), rng.randrange(cols))
    board = msviz.random_board(rows, cols, rng.randint(0, rows * cols // 6), seed=seed, safe=click)
    neighbors = tuple(rng.sample(msviz.READING_ORDER, 8))
    t = msviz.trace(board, click, order=order, neighbors=neighbors)
    page = open_page(t)
    last = len(t) - 1
    # Single steps both ways (only the changed cells redrawn) and jumps (the whole board).
    steps = [0, 1, 2, 3, 2, 1, last, last - 1, 0, last // 2, last // 2 + 1, last // 2 - 1]
    steps += [rng.randint(0, last) for _ in range(8)]
    steps = [max(0, min(k, last)) for k in steps]
    for k, (drawn,) in zip(steps, walk(page, steps)):
        assert drawn["step"] == k
        tiles, variants = expected(t, k)
        assert drawn["sprites"] == tiles, f"step {k}: the cells drawn differ from board_at({k})"
        assert drawn["variants"] == variants, f"step {k}: current cell or stack/queue differ"
        assert drawn["caption"] == caption(t, k)
    assert not page.problems


def expected_at_event(t, e):
    """What the view should draw at event e: (tile of each cell, variant of each cell)."""
    board = t.board_at_event(e)
    tiles = np.vectorize(CODES.get)(board)
    tiles[board == "M"] = CODES["E"]
    variants = np.zeros(t.shape, int)
    event = t.event(e)
    variants[event.row, event.col] += 1
    variants += 2 * t.frontier_at_event(e)
    return tiles.ravel().tolist(), variants.ravel().tolist()


@pytest.mark.parametrize("seed, order", CASES)
def test_each_drawn_event_is_the_trace_at_that_event(open_page, seed, order):
    rng = random.Random(100 + seed)
    rows, cols = rng.randint(3, 12), rng.randint(3, 12)
    click = (rng.randrange(rows), rng.randrange(cols))
    board = msviz.random_board(rows, cols, rng.randint(0, rows * cols // 6), seed=seed, safe=click)
    t = msviz.trace(board, click, order=order, neighbors=tuple(rng.sample(msviz.READING_ORDER, 8)))
    page = open_page(t)
    page.evaluate("window.msvizPage.setMode('events')")
    last = t.events - 1
    events = [0, 1, 2, 3, 2, last, last - 1, last // 2, last // 2 + 1] + [
        rng.randint(0, last) for _ in range(8)
    ]
    events = [max(0, min(e, last)) for e in events]
    for e, (drawn,) in zip(events, walk(page, events)):
        tiles, variants = expected_at_event(t, e)
        assert drawn["sprites"] == tiles and drawn["variants"] == variants, f"event {e}"
        assert drawn["caption"] == event_caption(t, e)
        assert [tuple(c) for c in drawn["waiting"]] == t.waiting_at_event(e)  # the path or the queue drawn
        assert drawn["line"] == line_of(t, e)  # the code line highlighted is the one that runs
        if order == "dfs":  # the stack's calls, top first; breadth-first, the cell taken out and the queue
            assert drawn["frames"].startswith("stack, top first")
        else:
            assert "queue, front first" in drawn["frames"]
    (end,) = walk(page, [last])[0]
    assert end["waiting"] == []  # after the last event nothing waits: the stack or queue is empty


def marks_then_symbols(board, click):
    """A student's queue: '#' on each cell it queues, 'B' on taking it out, then its digit."""
    rows, cols = len(board), len(board[0])
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board
    todo = [(r, c)]
    board[r][c] = "#"
    while todo:
        r, c = todo.pop(0)
        around = [(r + i, c + j) for i in (-1, 0, 1) for j in (-1, 0, 1) if (i or j)]
        around = [(i, j) for i, j in around if 0 <= i < rows and 0 <= j < cols]
        mines = sum(board[i][j] == "M" for i, j in around)
        board[r][c] = "B"
        if mines:
            board[r][c] = str(mines)
            continue
        for i, j in around:
            if board[i][j] == "E":
                board[i][j] = "#"
                todo.append((i, j))
    return board


@pytest.mark.parametrize("mode", ["visits", "events"])
def test_a_student_run_is_drawn_write_by_write(open_page, mode):
    board = msviz.random_board(9, 11, 12, seed=3, safe=(4, 5))
    t = msviz.record(marks_then_symbols, board, (4, 5)).replay
    cells = list(zip(t.row.tolist(), t.col.tolist()))
    assert len(t) > len(set(cells))  # cells written two and three times
    page = open_page(t, name=f"replay-{mode}")
    page.evaluate(f"window.msvizPage.setMode('{mode}')")
    steps = list(range(len(t))) + [len(t) // 2, 3, 2, 1, 0]  # every write, then back
    for k, (drawn,) in zip(steps, walk(page, steps)):
        tiles, variants = expected(t, k)  # board_at(k): the last write to each cell by write k
        assert drawn["sprites"] == tiles, f"write {k}: the cells drawn differ from board_at({k})"
        assert drawn["variants"] == variants, f"write {k}: only the cell written is marked"
        assert drawn["caption"] == caption(t, k) == event_caption(t, k)
        assert drawn["waiting"] == []  # the recording sees no stack or queue
    assert not page.problems


def test_stepping_through_a_return_shortens_the_drawn_path(open_page):
    t = msviz.trace(msviz.random_board(10, 12, 12, seed=5, safe=(5, 6)), (5, 6))
    returns = [
        e for e in range(1, t.events) if t.event(e).label == "return" and t.parent_step[t.event(e).step] >= 0
    ]
    e = next(e for e in returns if len(t.waiting_at_event(e - 1)) >= 3)
    page = open_page(t)
    page.evaluate("window.msvizPage.setMode('events')")
    root = page.locator(".msviz-view").first
    (before,), (after,) = walk(page, [e - 1, e])
    assert len(after["waiting"]) == len(before["waiting"]) - 1
    assert after["caption"].startswith(f"event {e}: reveal(") and "returns to" in after["caption"]
    pictures = []
    for k in (e - 1, e):
        walk(page, [k])
        pictures.append(root.evaluate(CANVAS_PIXELS))
    assert pictures[0] != pictures[1]
    shoot(page, "page-events")


def test_the_canvas_pixels_change_with_the_step_and_only_there(open_page):
    t = msviz.trace(msviz.random_board(12, 16, 30, seed=7, safe=(6, 8)), (6, 8))
    page = open_page(t)
    root = page.locator(".msviz-view").first
    seen = []
    for k in (0, 1, 2, 1, 0):
        page.evaluate(f"window.msvizPage.show({k})")
        page.wait_for_function(f"document.querySelector('.msviz-view').dataset.step === '{k}'")
        seen.append(root.evaluate(CANVAS_PIXELS))
    assert len({s[2] for s in seen[:3]}) == 3  # three steps, three pictures
    assert seen[3] == seen[1] and seen[4] == seen[0]  # and back again, the same pictures
    shoot(page, "page-step")


@pytest.mark.parametrize("side", [12, 900])
def test_a_drawing_from_the_start_has_the_pixels_of_one_that_looks_at_every_cell(open_page, side):
    """With few events in (a page's first picture, a jump back), a full drawing fills the board with
    the hidden tile and draws only the cells that differ (tiles.js drawFromStart): its pixels are
    those of a drawing that looks at each cell, on a board some of which was revealed before the
    click, with big tiles and at one pixel a cell."""
    first = msviz.random_board(side, side, side * side // 7, seed=3, safe=(0, 0))
    board = msviz.reveal(first, (0, 0))  # revealed before the click: blanks and digits in its start
    hidden = [(r, c) for r in range(side) for c in range(side) if board[r][c] == "E"]
    t = msviz.trace(board, hidden[len(hidden) // 2])
    assert {"B", "1"} <= {cell for row in t.board_at(-1) for cell in row}
    page = open_page(t)
    root = page.locator(".msviz-view").first
    assert (root.evaluate("v => v.msviz.cellSize()") == 1) == (side == 900)
    for k in sorted({0, min(3, len(t) - 1)}):
        page.evaluate(f"window.msvizPage.show({k})")
        page.wait_for_function(f"document.querySelector('.msviz-view').dataset.step === '{k}'")
        drawn = [
            root.evaluate(f"v => {{ v.msviz.redrawAll({flag}); return ({CANVAS_PIXELS})(v); }}")
            for flag in ("false", "true")
        ]
        assert drawn[0] == drawn[1], f"step {k}: the drawing from the start differs"
        tiles, variants = expected(t, k)
        assert root.evaluate("v => v.msviz.sprites()") == tiles
    assert not page.problems


def test_a_page_plays_to_the_last_step_offline_with_every_control_drawn(open_page):
    board = msviz.random_board(30, 40, 60, seed=2, safe=(15, 20))
    dfs, bfs = (msviz.trace(board, (15, 20), order=o) for o in ("dfs", "bfs"))
    page = open_page([dfs, bfs], name="both")
    buttons = page.locator(".msviz-controls button:visible")
    assert buttons.count() == 5  # and no "Edit the board": a page has no Python to work out a new reveal
    assert page.locator("[data-control=edit]").is_hidden()
    assert "cannot be edited here" in page.inner_text("body")
    for i in range(5):  # each icon is drawn: an inline SVG path with a real size
        box = buttons.nth(i).locator("svg").bounding_box()
        assert box and box["width"] >= 12 and box["height"] >= 12
    assert page.locator(".msviz-controls input[type=range]").is_visible()
    page.fill(".msviz-controls input[type=number] >> nth=0", "60")
    page.fill(".msviz-controls input[type=number] >> nth=1", "40")
    page.locator(".msviz-controls button[data-control=play]").click()
    page.wait_for_function("!window.msvizPage.isPlaying()", timeout=PATIENCE)
    page.wait_for_function(  # the last picture is drawn in the next animation frame
        "lasts => [...document.querySelectorAll('.msviz-view')].every((r, i) => r.msviz.step() === lasts[i])",
        arg=[len(dfs) - 1, len(bfs) - 1],
        timeout=PATIENCE,
    )
    drawn = [page.locator(".msviz-view").nth(i).evaluate(DRAWN) for i in range(2)]
    for t, d in zip((dfs, bfs), drawn):
        assert d["step"] == len(t) - 1
        assert d["sprites"] == expected(t, len(t) - 1)[0]  # the picture is the final board
    assert page.asked == [] and page.problems == []  # the network was never needed
    shoot(page, "page-played")


def test_the_keyboard_and_buttons_move_the_step(open_page):
    t = msviz.trace(msviz.random_board(9, 9, 10, seed=1, safe=(4, 4)), (4, 4))
    page = open_page(t)
    root = page.locator(".msviz-view").first
    root.focus()

    def shows(k):
        """Wait until step k is drawn (a wrong step never is: the wait then fails as a hang)."""
        page.wait_for_function("([root, k]) => root.msviz.step() === k", arg=[root.element_handle(), k])
        return True

    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert shows(2)
    page.keyboard.press("ArrowLeft")
    assert shows(1)
    page.keyboard.press("End")
    assert shows(len(t) - 1)
    page.keyboard.press("Home")
    assert shows(0)
    page.locator("button[data-control=forward]").click()
    assert shows(1)
    page.locator("button[data-control=last]").click()
    assert shows(len(t) - 1)
    assert page.locator(".msviz-controls output").inner_text() == f"step {len(t) - 1} / {len(t) - 1}"


@pytest.mark.parametrize("viewport", [(1024, 768), (1400, 1000)])
def test_boards_fit_the_width_with_square_cells(open_page, viewport):
    board = msviz.random_board(16, 30, 99, seed=4, safe=(8, 15))
    t = [msviz.trace(board, (8, 15), order=o) for o in ("dfs", "bfs")]
    page = open_page(t, name=f"expert-{viewport[0]}", viewport=viewport)
    for i in range(2):
        canvas = page.locator(".msviz-view canvas.msviz-cells").nth(i)
        box = canvas.bounding_box()
        holder = page.locator(".msviz-board-holder").nth(i).bounding_box()
        assert (
            box["x"] >= holder["x"] - 0.5 and box["x"] + box["width"] <= holder["x"] + holder["width"] + 0.5
        )
        assert abs(box["width"] / 30 - box["height"] / 16) < 0.01  # square cells
        assert box["width"] / 30 >= 10  # still big enough to read
    shoot(page, f"page-expert-{viewport[0]}x{viewport[1]}")
