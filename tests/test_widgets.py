"""Widgets, headless: the picture and caption follow the slider, buttons step, the game plays."""

import io

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

import msviz  # noqa: E402
from msviz import plot, render  # noqa: E402
from msviz import widgets as mw  # noqa: E402

BOARD = msviz.random_board(8, 10, 9, seed=7, safe=(4, 5))
CLICK = (4, 5)


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


@pytest.mark.parametrize("order", ["dfs", "bfs"])
def test_the_slider_changes_picture_and_caption(order):
    p = msviz.player(BOARD, CLICK, order=order)
    t = p.trace
    assert p.slider.max == len(t) - 1 > 5
    seen = set()
    for k in range(len(t)):
        p.slider.value = k
        assert p.caption.value == f"<b>{mw.caption(t, k)}</b>"
        image = pixels(p.image.value)
        assert np.array_equal(image, plot.step_image(t, k, px=p.px))  # pixel exact
        seen.add(p.image.value)
    assert len(seen) == len(t)  # every step a different picture


def test_the_picture_shows_the_current_cell_in_gold():
    p = msviz.player(BOARD, CLICK, px=20)
    p.step = 3
    r, c = int(p.trace.rows[3]), int(p.trace.cols[3])
    centre = pixels(p.image.value)[r * 20 + 10, c * 20 + 3].astype(int)
    assert centre[0] > 200 and centre[2] < 150
    far = np.argwhere(p.trace.visit_step < 0)[0]  # a cell never revealed: still grey
    grey = pixels(p.image.value)[far[0] * 20 + 10, far[1] * 20 + 10]
    assert grey.tolist() in (render._FACE.tolist(), render._FRONTIER.tolist())


def test_captions_say_what_happens():
    t = msviz.trace(["EEE", "EEM"], (0, 0))
    assert mw.caption(t, 0) == (
        "step 0: (0, 0) has no adjacent mines, so it becomes B; "
        "it calls reveal on 2 hidden neighbours in turn; stack depth 1"
    )
    assert mw.caption(t, 3) == (
        "step 3: (1, 1), reached from (1, 0), has 1 adjacent mine, so it becomes 1; stack depth 3"
    )
    assert "mine: it becomes X" in mw.caption(msviz.trace(["EM"], (0, 1)), 0)
    assert "reveals nothing" in mw.caption(msviz.trace(["B1", "EM"], (0, 0)), -1)


def test_buttons_move_one_step_and_stop_at_the_ends():
    p = msviz.player(BOARD, CLICK)
    p.forward.click()
    p.forward.click()
    assert p.step == 2
    p.back.click()
    assert p.step == 1
    p.back.click()
    p.back.click()
    assert p.step == 0
    p.step = p.slider.max
    p.forward.click()
    assert p.step == p.slider.max


def test_play_and_speed_are_linked_in_the_browser():
    p = msviz.player(BOARD, CLICK)
    assert all(type(link).__name__ == "Link" and link._model_name == "LinkModel" for link in p.links)  # jslink: in the browser
    pairs = {(l.source[0].model_id, l.source[1], l.target[0].model_id, l.target[1]) for l in p.links}
    assert (p.play.model_id, "value", p.slider.model_id, "value") in pairs
    assert (p.speed.model_id, "value", p.play.model_id, "interval") in pairs
    assert p.play.max == p.slider.max


def test_an_empty_reveal_disables_the_controls():
    p = msviz.player(["B1", "EM"], (0, 0))
    assert p.slider.disabled and p.play.disabled
    assert "reveals nothing" in p.caption.value
    assert pixels(p.image.value).shape[:2] == (2 * p.px, 2 * p.px)


def test_moving_the_slider_never_replays_the_traversal(monkeypatch):
    p = msviz.player(BOARD, CLICK)

    def boom(*args, **kwargs):
        raise AssertionError("replayed")

    from msviz import traversal

    monkeypatch.setattr(traversal, "_dfs_steps", boom)
    monkeypatch.setattr(traversal, "_bfs_steps", boom)
    p.step = len(p.trace) - 1
    assert not p.errors.outputs
    assert f"step {len(p.trace) - 1}:" in p.caption.value


def test_an_error_in_a_callback_is_shown_in_the_widget(monkeypatch):
    p = msviz.player(BOARD, CLICK)

    def broken(*args, **kwargs):
        raise RuntimeError("the picture broke")

    monkeypatch.setattr(mw, "step_image", broken)
    p.step = 2
    text = "".join(o.get("text", "") for o in p.errors.outputs)
    assert "RuntimeError: the picture broke" in text
    assert p.errors.layout.display is None  # made visible


def test_compare_drives_both_pictures_with_one_slider():
    c = msviz.compare(BOARD, CLICK)
    assert len(c.dfs) == len(c.bfs) and c.slider.max == len(c.dfs) - 1
    before = tuple(i.value for i in c.images)
    c.slider.value = 5
    after = tuple(i.value for i in c.images)
    assert before[0] != after[0] and before[1] != after[1]
    assert np.array_equal(pixels(after[0]), plot.step_image(c.dfs, 5, px=c.px))
    assert np.array_equal(pixels(after[1]), plot.step_image(c.bfs, 5, px=c.px))
    assert "stack depth" in c.captions[0].value and "queue holds" in c.captions[1].value


def test_a_click_on_a_zero_cell_reveals_its_region():
    g = msviz.game(board=BOARD, animate=False)
    g.click(*CLICK)
    assert g.board == msviz.reveal(BOARD, CLICK)
    assert not g.lost
    assert g.board is not g.board  # a new list each time
    assert sum(row.count("M") for row in g.board) == 9  # hidden mines stay M
    hidden = [b for row in g._buttons for b in row if b.style.button_color == "#c0c0c0"]
    assert len(hidden) == sum(row.count("E") + row.count("M") for row in g.board)


def test_a_mine_loses_the_game():
    g = msviz.game(board=BOARD, animate=False)
    r, c = next((r, c) for r in range(8) for c in range(10) if BOARD[r][c] == "M")
    g.click(r, c)
    assert g.lost and g.board[r][c] == "X"
    assert "Boom" in g.status.value and f"({r}, {c})" in g.status.value
    assert g._buttons[r][c].style.button_color == "#ff2828"
    before = g.board
    g.click(0, 0)  # the game is over
    assert g.board == before and "over" in g.status.value


def test_a_won_game_says_so():
    g = msviz.game(board=["EEE", "EEE", "EEM"], animate=False)
    g.click(0, 0)
    assert g.won and not g.lost
    assert "You won" in g.status.value and "All 8 safe cells" in g.status.value


def test_the_first_random_click_is_safe_and_animates():
    g = msviz.game(9, 9, 10, seed=3)
    assert g.board == [["E"] * 9 for _ in range(9)]
    g.click(4, 4)
    assert not g.lost and sum(row.count("M") for row in g.board) == 10
    assert g._play.max == len(g._trace) - 1 and g._play.playing
    g._play.value = g._play.max  # the front end's Play reaches the end
    assert g._buttons[4][4].style.button_color == "#e4e4e4"


def test_a_button_click_does_what_click_does():
    g = msviz.game(board=BOARD, animate=False)
    g._buttons[CLICK[0]][CLICK[1]].click()
    assert g.board == msviz.reveal(BOARD, CLICK)


def test_bad_game_arguments_fail_at_the_call():
    with pytest.raises(ValueError, match="100 mines do not fit on a 9x9 board"):
        msviz.game(9, 9, 100)
    g = msviz.game(board=BOARD)
    with pytest.raises(ValueError, match=r"click \(8, 0\) is outside the 8x10 board"):
        g.click(8, 0)
