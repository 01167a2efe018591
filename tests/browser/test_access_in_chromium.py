"""The board view for a keyboard and a screen reader, in a real browser (the exported page).

axe-core (bundled by ``axe-playwright-python``) finds no critical or serious
violation; the view is a region named for the keys it takes, its board a picture
with a name; a polite live region says each step; keys act where focus is (Space
presses a focused button, a board's arrows move every board and the scrub bar);
the quiz is answered from the keyboard with a visible cursor; and with
``prefers-reduced-motion`` a flood is shown at once, not animated.
"""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from chromium import FRAMES, cursor_to_next_cell, serious, shoot

import msviz
from msviz.render import PALETTE
from msviz.words import caption

BOARD = msviz.random_board(12, 16, 20, seed=3, safe=(6, 8))
CLICK = (6, 8)


def test_axe_finds_no_serious_violation_on_a_two_board_page(open_page):
    page = open_page([msviz.trace(BOARD, CLICK, order=o) for o in ("dfs", "bfs")])
    page.evaluate("window.msvizPage.show(5)")
    found = serious(Axe().run(page))
    assert found == [], "\n".join(found)


def test_the_view_is_a_named_region_and_says_each_step_politely(open_page):
    t = msviz.trace(BOARD, CLICK)
    page = open_page(t)
    region = page.get_by_role(
        "region", name=re.compile(r"Minesweeper board, 12 rows by 16 columns.*arrows step")
    )
    assert region.count() == 1
    snapshot = region.aria_snapshot()
    assert re.search(r'img "the board, 12 by 16 cells', snapshot), snapshot
    assert re.search(r'region "the code, its running line highlighted"', snapshot), snapshot
    live = "root => root.querySelector('[aria-live=polite]').textContent"
    view = page.locator(".msviz-view").first
    view.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        f"([root, said]) => ({live})(root) === said", arg=[view.element_handle(), caption(t, 1)]
    )
    for _ in range(3):  # pressed fast: the steps between may go unsaid, the last one is said
        page.keyboard.press("ArrowRight")
    page.wait_for_function(
        f"([root, said]) => ({live})(root) === said", arg=[view.element_handle(), caption(t, 4)]
    )


def test_keys_act_where_focus_is_and_every_board_moves_together(open_page):
    page = open_page([msviz.trace(BOARD, CLICK, order=o) for o in ("dfs", "bfs")])
    steps = "() => [...document.querySelectorAll('.msviz-view')].map(r => r.msviz.step())"

    def settled(want):
        page.wait_for_function(f"want => JSON.stringify(({steps})()) === JSON.stringify(want)", arg=want)
        page.evaluate(FRAMES, 2)
        return page.evaluate(steps)

    # Space on a focused button presses that button (one step on), and does not play.
    page.locator("button[data-control=forward]").focus()
    page.keyboard.press("Space")
    assert settled([1, 1]) == [1, 1] and page.evaluate("window.msvizPage.isPlaying()") is False
    # The arrows on the second board move both boards and the scrub bar.
    page.locator(".msviz-view").nth(1).focus()
    page.keyboard.press("ArrowRight")
    assert settled([2, 2]) == [2, 2]
    assert page.locator(".msviz-controls input[type=range]").input_value() == "2"
    # Space on a board plays; the Play button then names what it does now.
    play = page.locator("button[data-control=play]")
    assert play.get_attribute("aria-label") == "Play"
    page.keyboard.press("Space")
    page.wait_for_function("() => window.msvizPage.isPlaying()")
    page.wait_for_function("b => b.getAttribute('aria-label') === 'Pause'", arg=play.element_handle())
    play.click()
    page.wait_for_function("b => b.getAttribute('aria-label') === 'Play'", arg=play.element_handle())


def test_the_quiz_is_answered_from_the_keyboard_with_a_visible_cursor(open_quiz):
    q = msviz.quiz(BOARD, CLICK, order="dfs")
    t = q.trace
    page = open_quiz(q)
    view, target = cursor_to_next_cell(page, t, CLICK)
    # The cursor is drawn in the focus colour round its cell.
    ring = view.evaluate(
        """(root, [row, col]) => {
            const o = root.querySelector('canvas.msviz-overlay'), s = root.msviz.cellSize();
            const pixel = o.getContext('2d').getImageData(col * s + 1, row * s + Math.floor(s / 2), 1, 1);
            return [...pixel.data].slice(0, 3);
        }""",
        list(target),
    )
    assert ring == [int(PALETTE["focus"][i : i + 2], 16) for i in (1, 3, 5)]
    page.wait_for_function(  # said politely: soon, not at once
        "([root, said]) => root.querySelector('[aria-live=polite]').textContent === said",
        arg=[view.element_handle(), f"({target[0]}, {target[1]}): hidden"],
    )
    page.keyboard.press("Enter")
    page.wait_for_function("root => root.msviz.quiz().tries === 1", arg=view.element_handle())
    assert view.evaluate("root => root.msviz.quiz()")["right"] == 1
    shoot(page, "quiz-keyboard")


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_flood_is_shown_at_once_when_motion_is_reduced(open_page, motion):
    page = open_page(msviz.trace(BOARD, CLICK))
    page.emulate_media(reduced_motion=motion)
    animating = page.evaluate(
        """async () => {
            const m = window.msvizPage.models[0];
            m.set('step', 30);
            m.set('flood', true);
            m.set('generation', m.get('generation') + 1);  // a new reveal arrives, as after a game's click
            await new Promise(requestAnimationFrame);  // the view draws first in this frame
            return document.querySelector('.msviz-view').msviz.animating();
        }"""
    )
    assert animating is (motion == "no-preference")


def test_an_exported_page_of_two_300x300_boards_stays_within_the_window(open_page):
    board = msviz.random_board(300, 300, 900, seed=1, safe=(150, 150))
    page = open_page([msviz.trace(board, (150, 150), order=o) for o in ("dfs", "bfs")], viewport=(1024, 768))
    page.evaluate("window.msvizPage.show(window.msvizPage.last())")  # the longest queue list
    page.evaluate(FRAMES, 2)
    width, window = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= window, f"the page is {width} px wide in a {window} px window"
