"""The same renditions in Debian's Firefox (firefox-esr), driven over WebDriver BiDi (firefox.py).

The lesson's website as the guide's command builds it: on each page every widget renders,
with no request beyond the page (the profile has no network, and every request the page
makes is recorded) and no script error; the player steps; the comparison stays in step; the
game reveals a click as `msviz.reveal` does; a quiz bank's answer gets Python's verdict.
Screenshots go to test-artifacts/screenshots/ (firefox-*.png).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from chromium import SHOTS
from firefox import Firefox, find_firefox
from test_rendition_in_chromium import GIVEN, widget_page, widgets_in

import msviz
from msviz.render import tile_codes

STARTED = "document.querySelectorAll('.msviz-rendition').length === (window.msvizRenditions || []).length"


@pytest.fixture(scope="module")
def firefox():
    executable = find_firefox()
    if executable is None:
        pytest.skip("Firefox (firefox-esr) is not installed: apt-get install firefox-esr")
    browser = Firefox(executable)
    yield browser
    browser.close()


def visit(firefox, path):
    """Open `path`, wait until every rendition has started; return the requests it made."""
    before = len(firefox.requests())
    firefox.open(path.as_uri())
    firefox.wait_for(STARTED)
    return [url for url in firefox.requests()[before:] if not url.startswith(("file:", "data:", "blob:"))]


@pytest.mark.parametrize(
    "name", ["01-start-here", "03-depth-first", "05-comparing-orders", "07-homework", "08-be-the-computer"]
)
def test_every_widget_of_a_converted_notebook_plays_in_firefox(firefox, site, name):
    page = site / "en" / f"{name}.html"
    assert visit(firefox, page) == []
    shown = firefox.evaluate(
        "[...document.querySelectorAll('.msviz-rendition')]"
        ".map(r => [Boolean(r.querySelector('.msviz-stage')),"
        " getComputedStyle(r.querySelector('.msviz-static')).display])"
    )
    assert len(shown) == widgets_in(page.with_suffix(".ipynb"))
    assert all(stage and still == "none" for stage, still in shown), shown
    SHOTS.mkdir(parents=True, exist_ok=True)
    firefox.screenshot(SHOTS / f"firefox-site-{name}.png")
    assert firefox.errors() == []


def test_the_player_steps_and_the_comparison_stays_in_step_in_firefox(firefox, site):
    visit(firefox, site / "en" / "05-comparing-orders.html")
    pick = (
        "[...document.querySelectorAll('.msviz-rendition')]"
        ".find(r => r.querySelectorAll('.msviz-view').length === 2)"
    )
    steps = f"[...({pick}).querySelectorAll('.msviz-view')].map(v => v.msviz.step())"
    firefox.evaluate(f"({pick}).querySelector('[data-control=forward]').click()")
    firefox.wait_for(f"{steps}.every(s => s === 1)")
    firefox.evaluate(f"({pick}).querySelector('[data-control=last]').click()")
    firefox.wait_for(f"{steps}[0] > 1 && {steps}[0] === {steps}[1]")
    firefox.evaluate(f"({pick}).querySelector('[data-control=play]').click()")  # from the end: from the first
    firefox.wait_for(
        f"{steps}[0] > 0 && {steps}[0] === {steps}[1]"
        " && !window.msvizRenditions.some(h => h.isPlaying && h.isPlaying())"
    )


def test_the_game_reveals_a_click_as_msviz_reveal_does_in_firefox(firefox, tmp_path):
    game = msviz.game(board=GIVEN, animate=False)
    assert visit(firefox, widget_page(game, tmp_path / "game.html")) == []
    click = """(() => { const c = document.querySelector('canvas.msviz-cells');
        const b = c.getBoundingClientRect();
        c.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: b.left + (6.5 / 7) * b.width,
          clientY: b.top + (0.5 / 6) * b.height })); return true; })()"""
    firefox.evaluate(click)
    firefox.wait_for("document.querySelector('.msviz-view').msviz.step() >= 0")
    drawn = firefox.evaluate("document.querySelector('.msviz-view').msviz.sprites()")
    codes = tile_codes(np.array(msviz.reveal(GIVEN, (0, 6)))).ravel()
    assert drawn == [0 if code == 1 else int(code) for code in codes]
    game.click(0, 6)
    assert firefox.evaluate("document.querySelector('.msviz-status').textContent") == game.status
    SHOTS.mkdir(parents=True, exist_ok=True)
    firefox.screenshot(SHOTS / "firefox-rendition-game.png")


def test_a_quiz_bank_answer_gets_pythons_verdict_in_firefox(firefox, tmp_path):
    bank = msviz.quiz_bank("firefox practice", n=8)
    assert visit(firefox, widget_page(bank, tmp_path / "bank.html")) == []
    python = msviz.quiz_bank("firefox practice", n=8)
    for i, question in enumerate(python.questions):
        if question.answered_by != "choice":
            continue
        firefox.evaluate(f"window.msvizRenditions[0].model.set('index', {i})")
        for choice in question.choices[:2]:
            button = (
                "[...document.querySelectorAll('[data-control=choice]')]"
                f".find(b => b.textContent === {json.dumps(choice)})"
            )
            firefox.evaluate(f"({button}).click()")
            said = str(python.answer(i, choice))
            firefox.wait_for(
                f"document.querySelector('.msviz-bank-verdict').textContent === {json.dumps(said)}"
            )
        break
    else:
        pytest.fail("no question answered by a choice in this bank")
