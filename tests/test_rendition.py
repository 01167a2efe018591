"""A widget's rendition (msviz.rendition): what a page with no kernel looks up is what Python says.

The game's table gives, for a click on any cell, what `msviz.reveal` reveals; a quiz bank's
practice table gives, for any answer, the verdict `Bank.answer` gives; the rendition asks for
nothing (no URL in it), and keeps the picture a host with no scripts shows. The same pages in
the browser: tests/browser/test_rendition_in_chromium.py.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from conftest import boards
from hypothesis import given, settings
from hypothesis import strategies as st

import msviz
from msviz.bank import make_bank
from msviz.homework import practice_table
from msviz.render import tile_codes
from msviz.rendition import KINDS, game_table, rendition
from msviz.viewstate import page_state


def look_up(table: dict, shown: np.ndarray, cell: int) -> np.ndarray:
    """What the page does with a click on `cell` (offline.js): its group's cells still hidden get
    their final codes."""
    shown = shown.copy()
    g = table["group"][cell]
    for k in table["cells"][table["starts"][g] : table["starts"][g + 1]]:
        if shown[k] in (0, 1):  # E or M: still hidden
            shown[k] = table["final"][k]
    return shown


@settings(max_examples=60, deadline=None)
@given(board=boards(max_side=8), data=st.data())
def test_a_click_looked_up_in_the_games_table_is_the_reveal(board, data):
    rows, cols = len(board), len(board[0])
    table = game_table(board)
    shown = np.array(table["hidden"])
    now = [row[:] for row in board]
    for _ in range(data.draw(st.integers(1, 3))):
        r, c = data.draw(st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)))
        if now[r][c] not in "EM":
            continue
        now = msviz.reveal(now, (r, c))
        shown = look_up(table, shown, r * cols + c)
        assert shown.tolist() == tile_codes(np.array(now)).ravel().tolist()
        if now[r][c] == "X":
            break


def test_a_games_table_covers_every_cell_once():
    table = game_table(msviz.random_board(9, 9, 10, seed=1))
    groups = table["group"]
    assert min(groups) == 0 and max(groups) == len(table["starts"]) - 2
    assert sorted(set(table["cells"])) == list(range(81))


def test_a_game_carries_a_board_for_each_first_click_and_keeps_the_game_in_play():
    fresh = msviz.game(9, 9, 10, seed=2024)
    table = fresh._offline()["table"]
    assert table["board"] == -1 and table["first"] == list(range(81)) and len(table["boards"]) == 81
    # The board for a first click is the one Python lays for it: the click opens a region.
    first = 40
    python = msviz.game(9, 9, 10, seed=2024)
    python.click(*divmod(first, 9))
    shown = look_up(table["boards"][first], np.array(table["boards"][first]["hidden"]), first)
    assert shown.tolist() == tile_codes(np.array(python.board)).ravel().tolist()
    # A game in play: its board now, and the table of the board it is played on.
    played = msviz.game(9, 9, 10, seed=2024)
    played.click(4, 4)
    table = played._offline()["table"]
    assert table["now"] == tile_codes(np.array(played.board)).ravel().tolist()
    final, now = np.array(table["boards"][table["board"]]["final"]), np.array(table["now"])
    uncovered = now > 1  # neither E nor M
    assert uncovered.any() and (final[uncovered] == now[uncovered]).all()


@pytest.mark.parametrize("homework", [False, True])
def test_the_practice_table_holds_the_verdict_python_gives_every_answer(homework):
    bank = make_bank("a page's practice", n=10, homework=homework)
    table = practice_table(bank, lambda i: "")
    for i, (question, entry) in enumerate(zip(bank.questions, table["questions"])):
        rows, cols = entry["rows"], entry["cols"]
        if question.answered_by == "cell":
            answers = [((r, c), entry["cells"][r * cols + c]) for r in range(rows) for c in range(cols)]
        elif question.answered_by == "choice":
            answers = [(choice, entry["choices_said"][choice]) for choice in question.choices]
        else:
            right = sorted(question._solution)
            answers = [(right, [*entry["right"], ""]), (right[:-1] or [(0, 0)], [*entry["wrong"], ""])]
            assert entry["solution"] == [r * cols + c for r, c in right]
        for value, (words, kind, line) in answers:
            fresh = make_bank("a page's practice", n=10, homework=homework)
            try:
                verdict = fresh.answer(i, value)
            except (TypeError, ValueError) as refused:
                assert (words, kind) == (str(refused), "refused")
                continue
            assert words == str(verdict) and kind == ("right" if verdict.right else "wrong")
            if line:
                assert line == fresh.line(i, value)
    assert bank.answered == 0  # working the table out answered nothing


def test_a_rendition_asks_for_nothing_and_keeps_the_picture():
    figure = '<figure class="msviz-static"><img alt="a board"></figure>'
    state = page_state(msviz.viewstate.view_state(msviz.trace(["EEE", "EEM"], (0, 0))))
    for kind in KINDS:
        piece = rendition(state, kind=kind, figure=figure, table={"a": 1} if kind != "stage" else None)
        assert re.search(r"(src|href)=|https?:|@import|url\(", piece) is None
        assert piece.count("</script>") == 2 and figure in piece
        data = json.loads(re.search(r'<script type="application/json">(.*?)</script>', piece, re.S)[1])
        assert data["kind"] == kind
    with pytest.raises(ValueError, match="kind must be one of"):
        rendition(state, kind="lesson")


@pytest.mark.parametrize("make", ["player", "compare", "game", "quiz", "quiz_bank"])
def test_every_widgets_html_is_a_rendition_around_its_picture(make):
    board, click = msviz.random_board(6, 8, 7, seed=5, safe=(3, 4)), (3, 4)
    made = {
        "game": lambda: msviz.game(board=board),
        "quiz_bank": lambda: msviz.quiz_bank("ada", n=3),
    }.get(make, lambda: getattr(msviz, make)(board, click))()
    data, _ = made._repr_mimebundle_()
    page = data["text/html"]
    assert page.startswith('<div class="msviz-rendition"') and '<figure class="msviz-static"' in page
    assert f'src="data:image/png;base64,{data["image/png"]}"' in page
    assert ('class="msviz-practice"' in page) == (make in ("quiz", "quiz_bank"))
    assert '"editable": true' not in page  # no kernel to edit the board with


@pytest.mark.parametrize("order", ["bfs", "dfs"])
def test_the_simulation_table_holds_the_verdict_the_widget_gives_every_operation(order):
    board, click = ["EEEE", "EEEM", "EEEE"], (0, 0)
    table = msviz.simulate(board, click, order=order)._offline()["table"]
    words = table["words"]
    rows, cols = 3, 4
    messages = {"back": {"event": "operation", "name": "back"}} if order == "dfs" else {}
    for symbol in ("B", *"12345678", "X"):
        messages[f"say:{symbol}"] = {"event": "operation", "name": "say", "value": symbol}
    for i in range(rows * cols):
        messages[f"cell:{i}"] = {"event": "click", "row": i // cols, "col": i % cols}
    right_ops = []
    for j, verdicts in enumerate(table["verdicts"]):
        assert set(verdicts) == set(messages)
        for key, message in messages.items():
            widget = msviz.simulate(board, click, order=order)
            for name, value in right_ops:  # to state j by the right operations
                getattr(widget, name)(*(() if name == "back" else (value,)))
            before = widget.by_hand["verdict"]
            widget._handle(message)
            index, kind = verdicts[key]
            if kind == "error":  # the engine's fault, shown under the widget's board: its verdict stays
                assert widget.error and widget.by_hand["verdict"] == before, (j, key)
                continue
            assert (words[index], kind) == (widget.by_hand["verdict"], widget.by_hand["kind"]), (j, key)
        widget = msviz.simulate(board, click, order=order)
        for name, value in right_ops:
            getattr(widget, name)(*(() if name == "back" else (value,)))
        right_ops.append(widget.simulation.expected())
    assert len(table["states"]) == len(right_ops) + 1
    over = msviz.simulate(board, click, order=order)
    for name, value in right_ops:
        getattr(over, name)(*(() if name == "back" else (value,)))
    assert over.over and table["states"][-1]["by_hand"]["over"]
    over.undo()
    assert words[table["undo"][-1]] == over.by_hand["verdict"]


def test_a_simulation_in_any_order_is_no_practice():
    widget = msviz.simulate(["EEE", "EEM"], (0, 0), neighbors="any")
    assert widget._offline() == {"kind": "stage"}
