"""Widgets, headless: the view's traits, its click callback, the controls' traits, the game.

What the browser draws from these traits is tested in tests/browser/; here the
Python side: the arrays sent are the trace's, each widget is one anywidget
whose controls are traits Python reads and sets, clicks reach Python, and the
game's screen state is derived from its rules.
"""

import base64
import io

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

import msviz  # noqa: E402
from msviz import render  # noqa: E402
from msviz.view import BoardView, view_state  # noqa: E402
from msviz.viewstate import TRAITS  # noqa: E402

BOARD = msviz.random_board(8, 10, 9, seed=7, safe=(4, 5))
CLICK = (4, 5)
SYMBOLS = "EMB12345678X"


def int32(data: bytes) -> np.ndarray:
    return np.frombuffer(data, "<i4")


def symbols(data: bytes, shape) -> np.ndarray:
    return np.array(list(SYMBOLS))[np.frombuffer(data, np.uint8)].reshape(shape)


def png_of(bundle) -> np.ndarray:
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(data["image/png"]))).convert("RGB"))


def click(view, row, col, event="click"):
    """Do what the browser does when a cell is clicked: send the cell to Python."""
    view._handle_message(view, {"event": event, "row": row, "col": col}, [])


@pytest.mark.parametrize("order", ["dfs", "bfs"])
def test_the_view_is_sent_the_trace_arrays(order):
    t = msviz.trace(BOARD, CLICK, order=order)
    state = view_state(t)
    assert (state["rows"], state["cols"], state["order"], state["click_cell"]) == (8, 10, order, [4, 5])
    assert np.array_equal(symbols(state["start"], t.shape), np.array(BOARD))
    assert np.array_equal(symbols(state["final"], t.shape), t.final)
    cells = int32(state["step_cell"])
    assert np.array_equal(np.divmod(cells, 10), (t.row, t.col))
    assert np.array_equal(np.frombuffer(state["event_label"], np.uint8), t.event_label)
    assert np.array_equal(np.frombuffer(state["step_hidden"], np.uint8), t.hidden_around)
    # The rest of the timeline the browser works out (tests/browser/test_frontend_in_chromium.py).
    assert state["step_depth"] == state["step_code"] == b"" and not state["replay"]


def test_the_arrays_are_at_most_20_bytes_a_cell():
    t = msviz.trace(msviz.random_board(200, 200, 0, seed=1), (100, 100))
    sent = sum(len(v) for v in view_state(t).values() if isinstance(v, bytes))
    assert len(t) == 40_000  # every cell revealed: the most a reveal sends
    cells = 40_000 * (1 + 1)  # start, final
    steps = 40_000 * (4 + 1 + 1)  # cell; hidden neighbours; the neighbour of its caller's loop
    events = 2 * 40_000 * 1  # label
    assert sent == cells + steps + events == 10 * 40_000


def test_a_click_in_the_browser_calls_back_with_the_cell():
    view = BoardView(msviz.trace(BOARD, CLICK))
    clicks, flags = [], []
    view.on_click(lambda r, c: clicks.append((r, c)))
    view.on_flag(lambda r, c: flags.append((r, c)))
    click(view, 2, 3)
    click(view, 7, 9, event="flag")
    click(view, 8, 0)  # outside the board: ignored
    click(view, "1", 0)  # not a cell: ignored
    view._handle_message(view, "nonsense", [])
    assert clicks == [(2, 3)] and flags == [(7, 9)]


def test_show_sends_new_arrays_and_says_so():
    view = BoardView()
    g0 = view.generation
    t = msviz.trace(BOARD, CLICK)
    view.show(t)
    assert view.generation == g0 + 1 and view.step == len(t) - 1 and view.steps == len(t)
    view.show(t, step=3)
    assert view.generation == g0 + 2 and view.step == 3
    with pytest.raises(TypeError, match="trace must be a msviz.Trace .* not list"):
        view.show(BOARD)


@pytest.mark.parametrize("order", ["dfs", "bfs"])
def test_the_fallback_picture_is_the_step_shown(order):
    p = msviz.player(BOARD, CLICK, order=order)
    t = p.trace
    for k in (0, 5, len(t) - 1):
        p.step = k
        assert p.view.step == k  # linked in Python too, when the kernel sets it
        px = render.tile_size(t.shape, width_px=480)
        assert np.array_equal(png_of(p._repr_mimebundle_()), render.step_image(t, k, px=px))


@pytest.mark.parametrize("make", ["player", "compare", "game", "quiz"])
def test_every_widget_shows_its_view_and_for_pages_without_widgets_a_png_and_a_note(make):
    w = getattr(msviz, make)(board=BOARD) if make == "game" else getattr(msviz, make)(BOARD, CLICK)
    data, _ = w._repr_mimebundle_()
    assert set(data) == {"text/plain", "text/html", "application/vnd.jupyter.widget-view+json", "image/png"}
    assert data["application/vnd.jupyter.widget-view+json"]["model_id"] == w.model_id
    note = msviz.words.fill("static_note", step=w.step)
    assert data["text/plain"] == note and "interactive" in note and "marimo" in note
    assert f"<figcaption><em>{note}</em></figcaption>" in data["text/html"]  # nothing in it to escape
    assert f'src="data:image/png;base64,{data["image/png"]}"' in data["text/html"]  # the same picture
    assert np.array_equal(png_of(data), w.picture())


def test_each_widget_is_one_anywidget_with_its_own_controls():
    import anywidget
    import ipywidgets

    shown = [
        msviz.player(BOARD, CLICK),
        msviz.compare(BOARD, CLICK),
        msviz.game(board=BOARD),
        msviz.quiz(BOARD, CLICK),
    ]
    for w in shown:
        assert isinstance(w, anywidget.AnyWidget) and not isinstance(w, ipywidgets.Box)
        # No other widget drives it: none of its own traits refers to another widget's model.
        state = w.get_state()
        assert not any("IPY_MODEL_" in repr(state[name]) for name in TRAITS)
    player, comparison, game, quiz = shown
    assert player.controls and comparison.controls and not game.controls and not quiz.controls
    assert game.restart == "New game" and quiz.restart == "Start again" and player.restart == ""
    assert player.view is player and game.view is game  # code written for the widgets of before
    # The bar's state is traits the browser and Python share.
    assert {"step", "playing", "fps", "per_frame", "mode"} <= set(player.keys)


def test_python_sets_the_step_the_speed_and_play():
    p = msviz.player(BOARD, CLICK)
    assert p.last_step == len(p.trace) - 1 and p.step == 0
    p.step, p.fps, p.per_frame, p.playing = 12, 30, 3, True
    assert (p.step, p.fps, p.per_frame, p.playing) == (12, 30, 3, True)
    for name, bad in (("fps", 61), ("fps", 0), ("per_frame", 0), ("step", -2)):
        with pytest.raises(Exception, match=name):
            setattr(p, name, bad)
    assert (p.step, p.fps, p.per_frame) == (12, 30, 3)  # a bad value leaves the good one


def test_long_reveals_play_several_steps_a_frame():
    long = msviz.player(msviz.random_board(200, 200, 0), (100, 100))
    assert len(long.trace) == 40_000
    seconds = len(long.trace) / (long.per_frame * long.fps)
    assert 10 <= seconds <= 30  # about 20 s at the default speed
    assert len(long.trace) / (long.per_frame * 60) < 60  # and under a minute at the fastest
    assert msviz.player(BOARD, CLICK).per_frame == 1


def test_the_caption_follows_the_step():
    p = msviz.player(["EEE", "EEM"], (0, 0))
    p.step = 3
    assert (
        p.caption
        == "step 3: (1, 1), reached from (1, 0), has 1 adjacent mine, so it becomes 1; 3 calls on the stack"
    )


def test_an_empty_reveal_has_no_step_to_show():
    p = msviz.player(["B1", "EM"], (0, 0))
    assert p.view.step == -1 and p.steps == 0 and p.last_step == 0  # the bar is disabled in the browser
    assert "reveals nothing" in p.caption


def test_an_error_in_a_callback_is_shown_in_the_widget(monkeypatch):
    g = msviz.game(board=BOARD)

    def broken(*args, **kwargs):
        raise RuntimeError("the rules broke")

    monkeypatch.setattr(g.rules, "click", broken)
    click(g.view, 0, 0)
    assert "RuntimeError: the rules broke" in g.error  # shown under the board


def test_compare_drives_both_boards_with_one_bar():
    c = msviz.compare(BOARD, (0, 0))
    (second,) = c.others
    lengths = sorted((c.steps, len(second["step_cell"]) // 4))
    assert c.last_step == lengths[1] - 1  # the keyboard and the bar reach the longer side's end
    assert (c.order, second["order"]) == ("dfs", "bfs")
    assert (c.title, second["title"]) == (msviz.words.TITLES["dfs"], msviz.words.TITLES["bfs"])
    assert "step" not in second and "mode" not in second  # one step, one mode for both
    assert "on the stack" in c.captions[0] and "queue holds" in c.captions[1]
    c.mode = "events"  # the longer side's events
    assert c.last_step == max(c.dfs.events, c.bfs.events) - 1


def test_the_comparison_picture_is_both_boards_at_the_step():
    c = msviz.compare(BOARD, CLICK)
    c.step = 4
    both = png_of(c._repr_mimebundle_())
    px = render.tile_size(c.dfs.shape, width_px=480)
    left, right = render.step_image(c.dfs, 4, px=px), render.step_image(c.bfs, 4, px=px)
    assert np.array_equal(both[: left.shape[0], : left.shape[1]], left)
    at = left.shape[1] + 12  # each side padded by 12 white columns
    assert np.array_equal(both[: right.shape[0], at : at + right.shape[1]], right)


# --- The game ------------------------------------------------------------------------


def shown(g) -> np.ndarray:
    """The board the view is told to show once its animation ends (what a screen shows): the cells
    of its steps up to the one shown get their final symbol, the rest keep the one they had."""
    view = g.view
    shape = (view.rows, view.cols)
    start, final = symbols(view.start, shape), symbols(view.final, shape)
    revealed = int32(view.step_cell)[: view.step + 1]
    board = start.copy()
    board.flat[revealed] = final.flat[revealed]
    return board


def test_a_click_on_a_zero_cell_reveals_its_region():
    g = msviz.game(board=BOARD, animate=False)
    click(g.view, *CLICK)
    assert g.board == msviz.reveal(BOARD, CLICK)
    assert not g.lost
    assert g.board is not g.board  # a new list each time
    assert sum(row.count("M") for row in g.board) == 9  # hidden mines stay M
    assert np.array_equal(shown(g), np.array(g.board))


def test_the_game_animates_each_click_in_the_browser():
    g = msviz.game(9, 9, 10, seed=3)
    assert g.view.flood and not g.view.keyboard and not g.view.show_frontier
    assert np.array_equal(shown(g), np.full((9, 9), "E"))
    g.click(4, 4)
    assert not g.lost and sum(row.count("M") for row in g.board) == 10  # the first click is safe
    assert g.view.steps == len(g.rules.last) > 1 and g.view.step == g.view.steps - 1
    assert np.array_equal(shown(g), np.array(g.board))


def test_every_state_of_the_screen_agrees_with_the_board():
    g = msviz.game(9, 9, 10, seed=5)
    rng = np.random.default_rng(0)
    for _ in range(40):
        r, c = (int(x) for x in rng.integers(0, 9, 2))
        if rng.random() < 0.2:
            g.flag(r, c)
        elif rng.random() < 0.05:
            g.new_game()
        else:
            g.click(r, c)
        assert np.array_equal(shown(g), np.array(g.board))
        flags = np.frombuffer(g.view.flags, np.uint8).reshape(9, 9).astype(bool)
        assert np.array_equal(flags, g.rules.flags)
        assert g.view.show_mines == g.lost


def test_a_mine_loses_the_game():
    g = msviz.game(board=BOARD, animate=False)
    r, c = next((r, c) for r in range(8) for c in range(10) if BOARD[r][c] == "M")
    g.click(r, c)
    assert g.lost and g.board[r][c] == "X" and g.view.show_mines
    assert "Boom" in g.status and f"({r}, {c})" in g.status
    before = g.board
    g.click(0, 0)  # the game is over
    assert g.board == before and "over" in g.status


def test_a_won_game_says_so():
    g = msviz.game(board=["EEE", "EEE", "EEM"], animate=False)
    g.click(0, 0)
    assert g.won and not g.lost
    assert "You won" in g.status and "All 8 safe cells" in g.status


def test_flags_block_clicks_and_are_counted():
    g = msviz.game(board=BOARD)
    click(g.view, 0, 0, event="flag")
    assert g.rules.flags[0, 0] and np.frombuffer(g.view.flags, np.uint8)[0] == 1
    assert "Flags: 1 of 9 mines" in g.status
    g.click(0, 0)
    assert g.board == BOARD  # a flagged cell cannot be clicked
    g.flag(0, 0)
    assert not g.rules.flags.any()


def test_new_game_clears_the_board_and_the_animation():
    g = msviz.game(9, 9, 10, seed=3)
    g.click(4, 4)
    generation = g.view.generation
    g.new_game()
    assert g.view.generation > generation and g.view.steps == 0 and g.view.step == -1
    assert np.array_equal(shown(g), np.full((9, 9), "E")) and not g.rules.flags.any()


def test_an_expert_board_and_a_100_by_100_board_are_one_view():
    expert = msviz.game(16, 30, 99, seed=1)
    assert (expert.view.rows, expert.view.cols) == (16, 30)
    big = msviz.game(100, 100, 1000, seed=1)
    big.click(50, 50)
    assert np.array_equal(shown(big), np.array(big.board))


def test_bad_game_arguments_fail_at_the_call():
    with pytest.raises(ValueError, match="100 mines do not fit on a 9x9 board"):
        msviz.game(9, 9, 100)
    with pytest.raises(ValueError, match="1 mine does not fit on a 3x3 board"):
        msviz.game(3, 3, 1)  # a first click keeps all nine cells safe
    g = msviz.game(board=BOARD)
    with pytest.raises(ValueError, match=r"click \(8, 0\) is outside the 8x10 board"):
        g.click(8, 0)


@pytest.mark.parametrize("order", ["dfs", "bfs"])
def test_the_mode_switch_shows_every_event_and_keeps_the_moment(order):
    p = msviz.player(BOARD, CLICK, order=order)
    t = p.trace
    p.step = 5
    p.mode = "events"
    assert p.view.mode == "events" and p.last_step == t.events - 1 == 2 * len(t) - 1
    assert p.step == t.visit_event[5] and p.view.step == p.step
    assert p.caption.startswith(f"event {p.step}: ")
    px = render.tile_size(t.shape, width_px=480)
    e = p.step + 1
    p.step = e  # the fallback picture is the event's
    want = render.state_image(
        t.board_at_event(e),
        current=(t.event(e).row, t.event(e).col),
        frontier=t.frontier_at_event(e),
        px=px,
        order=order,
    )
    assert np.array_equal(png_of(p._repr_mimebundle_()), want)
    p.mode = "visits"
    assert p.last_step == len(t) - 1 and p.step == t.event(e).step


# --- Editing a player's board ----------------------------------------------------------


def test_setting_a_players_board_and_click_shows_their_reveal_at_the_same_step():
    mine = [row[:] for row in BOARD]
    p = msviz.player(mine, CLICK)
    p.step = 3
    changed = [row[:] for row in BOARD]
    changed[0][0] = "M" if changed[0][0] == "E" else "E"
    p.board = changed
    want = msviz.trace(changed, CLICK)
    assert p.board == changed and p.board is not p.board  # a new list each time
    assert p.trace.board.tolist() == changed and len(p.trace) == len(want) and p.step == 3
    assert p.last_step == len(want) - 1 and p.steps == len(want)
    assert np.array_equal(png_of(p._repr_mimebundle_()), p.picture())
    p.click = (0, 9)
    assert p.click == (0, 9) and p.trace.click == (0, 9)
    assert p.step == min(3, len(p.trace) - 1)
    assert mine == BOARD  # the caller's list is never changed


@pytest.mark.parametrize(
    "board, click, error, words",
    [
        (["EEEEEEEEEQ"] * 8, None, ValueError, "'Q'"),  # a symbol the rules do not know
        (["EEEEEEEEEE", "EE"], None, ValueError, "ragged"),
        (None, (9, 9), ValueError, r"click \(9, 9\) is outside"),
        (None, "a1", TypeError, "click"),
    ],
)
def test_a_bad_edit_from_python_is_refused_and_the_last_good_board_kept(board, click, error, words):
    p = msviz.player(BOARD, CLICK)
    before = (p.board, p.click, p.trace, p.generation)
    with pytest.raises(error, match=words):
        if board is not None:
            p.board = board
        else:
            p.click = click
    assert (p.board, p.click, p.trace, p.generation) == before


def test_edits_from_the_view_put_and_take_mines_and_move_the_click():
    p = msviz.player(["EEEE", "EEEE", "EEEE"], (0, 0))
    assert p.editable and not p.editing
    p.editing = True
    assert "Editing" in p.status
    click(p, 1, 1, event="edit")  # a plain click while editing: a mine
    assert p.board[1][1] == "M" and "A mine put on (1, 1)" in p.status
    p._handle_message(p, {"event": "edit", "row": 2, "col": 3, "move": True}, [])  # Shift-click: the click
    assert p.click == (2, 3) and "The click moved to (2, 3)" in p.status
    click(p, 1, 1, event="edit")  # and the mine taken away
    assert p.board[1][1] == "E" and p.trace.board.tolist() == [list("EEEE")] * 3
    p.editing = False
    assert p.status == ""


def test_an_edit_keeps_the_step_in_every_call_and_return_and_no_mine_hides_under_the_click():
    board = msviz.random_board(8, 8, 6, seed=2, safe=(4, 4))
    p = msviz.player(board, (4, 4), order="dfs")
    p.mode = "events"
    p.editing = True
    p.step = p.trace.events - 1  # the last event: more events than cells
    far = next(
        (r, c) for r in range(8) for c in range(8) if board[r][c] == "E" and abs(r - 4) + abs(c - 4) > 5
    )
    click(p, *far, event="edit")
    assert p.board[far[0]][far[1]] == "M" and p.step == min(p.trace.events - 1, p.last_step) > len(p.trace)
    click(p, 4, 4, event="edit")  # the click itself
    assert p.board[4][4] == "E" and "(4, 4) is the click: move the click" in p.status


def test_a_students_run_and_an_exported_page_cannot_be_edited():
    from msviz.grade import record

    def first_only(board, click):
        board[click[0]][click[1]] = "B"
        return board

    p = msviz.player(record(first_only, ["EEE", "EEM"], (0, 0)))
    assert not p.editable
    with pytest.raises(ValueError, match="a student's run cannot be edited"):
        p.board = ["EEE", "EEE"]
    page = msviz.export.page_html(msviz.trace(BOARD, CLICK))
    assert '"editable": false' in page and "cannot be edited here" in page
