"""Every widget plays with no kernel: the lesson's notebooks run and converted by nbconvert, as the
website the guide's command builds (``python -m msviz site``), and each widget's own rendition.

Headless Chromium, with the network blocked: every request that is not ``file:``, ``data:`` or
``blob:`` fails the test. On each page every widget renders; the player scrubs, plays and steps;
the comparison stays in step; the game reveals a click as `msviz.reveal` does, plants flags and
starts again; a quiz bank answered right and wrong in the page gives the verdicts Python gives;
at 360 x 740 with touch every view fits the width, every control is at least 44 x 44 CSS pixels
and a tap on a cell is a click; axe-core finds nothing serious; with scripts off, the picture
and its note show. Screenshots (desktop and phone) go to test-artifacts/screenshots/.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from axe_playwright_python.sync_playwright import Axe
from chromium import FRAMES, PATIENCE, ROOT, SHOTS, serious, shoot
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import msviz
from msviz.render import tile_codes
from msviz.site import lesson
from msviz.words import BANK, PAGE

WIDGET = "application/vnd.jupyter.widget-view+json"
#: A lesson notebook as run may be at most this big (its widgets' renditions, pictures and all).
MOST_BYTES = 3_000_000

# ---- opening a page offline ---------------------------------------------------------------------


def offline(browser, viewport=(1024, 768), **options):
    """A browser context that refuses every request but file:, data: and blob: (each one recorded)."""
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, **options)
    context.set_default_timeout(PATIENCE)
    context.asked = []

    def route(r):
        if r.request.url.startswith(("file:", "blob:", "data:")):
            return r.continue_()
        context.asked.append(r.request.url)
        return r.abort()

    context.route("**/*", route)
    return context


def opened(context, path: Path):
    """Open `path` in `context` and wait until each of its renditions has started; record errors."""
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(f"error: {e}"))
    page.on("console", lambda m: page.problems.append(f"console: {m.text}") if m.type == "error" else None)
    page.goto(path.as_uri())
    page.wait_for_function(
        "() => document.querySelectorAll('.msviz-rendition').length"
        " === (window.msvizRenditions || []).length",
        timeout=PATIENCE,
    )
    page.evaluate(FRAMES, 2)
    return page


def shoot_whole(page, name: str) -> None:
    """Save a screenshot of the whole page, scrolled through (test-artifacts/screenshots/)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def clean(page, context):
    """Nothing asked of the network, no script error."""
    assert context.asked == [], f"requests beyond the page: {context.asked}"
    assert page.problems == [], page.problems


def widget_page(widget, path: Path) -> Path:
    """A page holding `widget`'s text/html, as a host that runs no widgets shows it."""
    data, _ = widget._repr_mimebundle_()
    path.write_text(
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1"><title>a widget</title>'
        f"</head><body><main>{data['text/html']}</main></body></html>",
        encoding="utf-8",
    )
    return path


# ---- the site, built once by the guide's command ------------------------------------------------


def widgets_in(notebook: Path) -> int:
    """How many widgets a notebook as run shows."""
    book = json.loads(notebook.read_text(encoding="utf-8"))
    return sum(
        WIDGET in output.get("data", {})
        for cell in book["cells"]
        for output in cell.get("outputs", [])
        if output.get("output_type") in ("display_data", "execute_result")
    )


def test_the_site_has_every_notebook_of_each_language_and_every_widget_plays_offline(browser, site):
    lessons = lesson(ROOT / "notebooks")
    index = (site / "index.html").read_text(encoding="utf-8")
    context = offline(browser)
    for language, books in lessons.items():
        for book in books:
            page_path = site / language / f"{book.stem}.html"
            assert f'href="{language}/{book.stem}.html"' in index
            notebook = page_path.with_suffix(".ipynb")
            assert notebook.stat().st_size <= MOST_BYTES, f"{notebook.name}: {notebook.stat().st_size} bytes"
            page = opened(context, page_path)
            renditions = page.locator(".msviz-rendition")
            assert renditions.count() == widgets_in(notebook), page_path
            for i in range(renditions.count()):
                one = renditions.nth(i)
                assert one.locator(".msviz-stage").first.is_visible(), f"{page_path.name}: widget {i}"
                assert one.locator(".msviz-static").first.is_hidden()  # the picture gives way to the board
            if (language, book.stem) == ("en", "01-start-here"):
                shoot_whole(page, "site-desktop-01-start-here")
            clean(page, context)
            page.close()
    page = opened(context, site / "index.html")
    shoot_whole(page, "site-desktop-index")
    clean(page, context)
    context.close()


def rendition_with(page, selector: str) -> int:
    """The index (in window.msvizRenditions) of the first rendition holding `selector`."""
    return page.evaluate(
        "s => [...document.querySelectorAll('.msviz-rendition')].findIndex(r => r.querySelector(s))", selector
    )


def test_the_player_scrubs_plays_and_steps_in_a_converted_notebook(browser, site):
    context = offline(browser)
    page = opened(context, site / "en" / "01-start-here.html")
    player = page.locator(".msviz-rendition").nth(rendition_with(page, ".msviz-controls"))
    view = player.locator(".msviz-view").first
    step = lambda: view.evaluate("root => root.msviz.step()")  # noqa: E731
    player.locator('[data-control="forward"]').click()
    page.wait_for_function("root => root.msviz.step() === 1", arg=view.element_handle())
    scrub = player.locator('[data-control="scrub"]')
    scrub.evaluate("s => { s.value = '20'; s.dispatchEvent(new Event('input', { bubbles: true })); }")
    page.wait_for_function("root => root.msviz.step() === 20", arg=view.element_handle())
    assert "20" in player.locator('[data-control="readout"]').text_content()
    player.locator('[data-control="back"]').click()
    page.wait_for_function("root => root.msviz.step() === 19", arg=view.element_handle())
    player.locator('[data-control="play"]').click()
    page.wait_for_function("root => root.msviz.step() > 21", arg=view.element_handle())
    player.locator('[data-control="play"]').click()  # pause
    paused = step()
    page.evaluate(FRAMES, 10)
    assert step() == paused
    player.locator('[data-control="mode"]').select_option("events")
    page.wait_for_function("root => root.msviz.event() === root.msviz.step()", arg=view.element_handle())
    assert player.locator(".msviz-code .msviz-on").count() == 1  # the code panel marks its running line
    clean(page, context)
    context.close()


def test_the_comparison_stays_in_step_in_a_converted_notebook(browser, site):
    context = offline(browser)
    page = opened(context, site / "en" / "05-comparing-orders.html")
    both = page.locator(".msviz-rendition").nth(
        rendition_with(page, ".msviz-board-holder + .msviz-board-holder")
    )
    steps = "r => [...r.querySelectorAll('.msviz-view')].map(v => v.msviz.step())"
    both.locator('[data-control="last"]').click()
    last = both.evaluate(steps)
    assert len(last) == 2 and last[0] == last[1] > 0
    for k in (0, 3, 17):
        both.locator('[data-control="scrub"]').evaluate(
            f"s => {{ s.value = '{k}'; s.dispatchEvent(new Event('input', {{ bubbles: true }})); }}"
        )
        page.wait_for_function(f"r => ({steps})(r).every(s => s === {k})", arg=both.element_handle())
    clean(page, context)
    context.close()


# ---- the game: a click looked up in what Python worked out ---------------------------------------

GIVEN = ["EEEEEEE", "EEMEEEE", "EEEEEME", "EEEEEEE", "MEEEEEE", "EEEEEEE"]


def drawn_codes(page) -> list[int]:
    return page.locator(".msviz-view").first.evaluate("root => root.msviz.sprites()")


def drawn_when(page, expected: list[int]) -> list[int]:
    """The tiles drawn once they are `expected` (a click's or a flag's drawing may land a task later
    on a loaded machine), or as they are after 10 s: wait on the page's state, not for a time."""
    view = page.locator(".msviz-view").first.element_handle()
    try:
        page.wait_for_function(
            "([root, want]) => root.msviz.sprites().every((code, i) => code === want[i])",
            arg=[view, expected],
            timeout=10_000,
        )
    except PlaywrightTimeout:
        pass  # the assertion after it says what differs
    return drawn_codes(page)


def expected_codes(board, lost: bool = False) -> list[int]:
    """The tiles a board shows: a hidden mine as a hidden cell (a game lost shows its mines)."""
    codes = tile_codes(np.array(board)).ravel()
    return [(12 if lost else 0) if code == 1 else int(code) for code in codes]


def click_cell(page, row: int, col: int, *, button="left", tap=False):
    canvas = page.locator("canvas.msviz-cells").first
    box = canvas.bounding_box()
    rows, cols = page.locator(".msviz-view").first.evaluate("r => [r.msviz.rows(), r.msviz.cols()]")
    at = {"x": (col + 0.5) * box["width"] / cols, "y": (row + 0.5) * box["height"] / rows}
    if tap:
        canvas.tap(position=at)
    else:
        canvas.click(position=at, button=button)
    page.wait_for_function(
        "r => !r.msviz.animating()", arg=page.locator(".msviz-view").first.element_handle()
    )


@pytest.mark.parametrize("made", ["given", "random"])
def test_the_game_reveals_a_click_as_msviz_reveal_does(browser, tmp_path, made):
    def new():
        if made == "given":
            return msviz.game(board=GIVEN, animate=False)
        return msviz.game(9, 9, 10, seed=2024, animate=False)

    context = offline(browser)
    page = opened(context, widget_page(new(), tmp_path / "game.html"))
    python = new()
    status = page.locator(".msviz-status").first

    def safe_hidden():  # a hidden cell with no mine, read from Python's board
        return next(
            (r, c) for r in range(python.rows) for c in range(python.cols) if python.board[r][c] == "E"
        )

    for i in range(3):  # a first click (a blank's region), then cells still hidden
        row, col = (0, 6) if i == 0 else safe_hidden()
        click_cell(page, row, col)
        python.click(row, col)
        assert drawn_when(page, expected_codes(python.board, python.lost)) == expected_codes(
            python.board, python.lost
        ), (row, col)
        assert status.text_content() == python.status
        if made == "given" and i == 0:
            assert drawn_codes(page) == expected_codes(msviz.reveal(GIVEN, (0, 6)))
    hidden = safe_hidden()
    click_cell(page, *hidden, button="right")
    python.flag(*hidden)
    flagged = expected_codes(python.board, python.lost)
    flagged[hidden[0] * python.cols + hidden[1]] = 13  # a flag
    assert drawn_when(page, flagged) == flagged
    assert status.text_content() == python.status
    page.locator('[data-control="restart"]').click()
    python.new_game()
    page.wait_for_function(
        "r => r.msviz.step() === -1", arg=page.locator(".msviz-view").first.element_handle()
    )
    assert drawn_codes(page) == expected_codes(python.board)
    assert status.text_content() == python.status
    shoot(page, f"rendition-game-{made}")
    clean(page, context)
    context.close()


def test_a_lost_game_shows_its_mines_and_says_so(browser, tmp_path):
    context = offline(browser)
    page = opened(context, widget_page(msviz.game(board=GIVEN, animate=False), tmp_path / "game.html"))
    python = msviz.game(board=GIVEN, animate=False)
    click_cell(page, 1, 2)
    python.click(1, 2)
    assert python.lost and page.locator(".msviz-status").first.text_content() == python.status
    drawn = drawn_codes(page)
    assert drawn[1 * 7 + 2] == 11 and drawn[2 * 7 + 5] == 12  # the mine clicked, and another shown
    click_cell(page, 0, 0)
    assert page.locator(".msviz-status").first.text_content() == msviz.words.fill("game_over")
    clean(page, context)
    context.close()


# ---- a quiz bank in practice: Python's verdicts, looked up -------------------------------------


def answer_in_page(page, question, value):
    """Answer the question shown with `value`, as a student does: a cell clicked on the picture, a
    choice pressed, or cells chosen then Answer."""
    bank = page.locator(".msviz-bank")
    if question.answered_by == "choice":
        choice = re.compile(f"^{re.escape(value)}$")
        bank.locator('[data-control="choice"]').filter(has_text=choice).click()
        return
    if question.answered_by == "cells":
        bank.locator('[data-control="clear"]').click()  # the cells chosen for an answer before
    picture = bank.locator(".msviz-bank-picture")
    box = picture.bounding_box()
    rows, cols = len(question.board), len(question.board[0])
    for r, c in [value] if question.answered_by == "cell" else value:
        picture.click(position={"x": (c + 0.5) * box["width"] / cols, "y": (r + 0.5) * box["height"] / rows})
    if question.answered_by == "cells":
        bank.locator('[data-control="answer"]').click()


def a_wrong_answer(question):
    if question.answered_by == "choice":
        return next(choice for choice in question.choices if choice != _right(question))
    rows, cols = len(question.board), len(question.board[0])
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    if question.answered_by == "cells":
        return [cell for cell in cells if cell not in question._solution][:2]
    revealed = question._trace.revealed_at(question.step) if question.kind == "next" else None
    return next(
        cell for cell in cells if cell != question._solution and (revealed is None or not revealed[cell])
    )


def _right(question):
    from msviz.words import ORDER_WORDS

    if question.kind == "order":
        return ORDER_WORDS[question._solution]
    return sorted(question._solution) if question.answered_by == "cells" else question._solution


@pytest.mark.parametrize("homework", [False, True])
def test_a_quiz_bank_answered_in_the_page_gets_the_verdicts_python_gives(browser, tmp_path, homework):
    seed = "practice in a page"
    context = offline(browser)
    page = opened(context, widget_page(msviz.quiz_bank(seed, n=8, homework=homework), tmp_path / "bank.html"))
    assert page.locator(".msviz-practice").text_content() == PAGE["practice"]
    python = msviz.quiz_bank(seed, n=8, homework=homework)
    verdict = page.locator(".msviz-bank-verdict")
    for i, question in enumerate(python.questions):
        # Wrong first on even questions, right first on odd ones: each is then answered again.
        for value in [a_wrong_answer(question), _right(question)][:: 1 if i % 2 == 0 else -1]:
            answer_in_page(page, question, value)
            said = str(python.answer(i, value))
            page.wait_for_function("([v, s]) => v.textContent === s", arg=[verdict.element_handle(), said])
            kept = page.locator(".msviz-bank-line").text_content()
            assert kept == python.line(i, python.answers[i][0])
        score = BANK["score"].format(
            right=python.bank.right, total=len(python), answered=python.bank.answered
        )
        assert page.locator(".msviz-bank-score").text_content() == score
        if i < len(python) - 1:
            page.locator('[data-control="next"]').click()
    shoot(page, f"rendition-bank{'-homework' if homework else ''}")
    clean(page, context)
    context.close()


# ---- a phone: 360 x 740, touch --------------------------------------------------------------------

PHONE = {"viewport": (360, 740), "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
SMALL_CONTROLS = """() => [...document.querySelectorAll(
    '.msviz-rendition button, .msviz-rendition input, .msviz-rendition select')]
  .filter(e => e.offsetParent)
  .map(e => { const b = e.getBoundingClientRect();
              return [e.dataset.control || e.tagName, Math.round(b.width), Math.round(b.height)]; })
  .filter(([, w, h]) => w < 44 || h < 44)"""


@pytest.mark.parametrize("name", ["01-start-here", "05-comparing-orders", "07-homework"])
def test_on_a_phone_every_view_fits_and_every_control_takes_a_finger(browser, site, name):
    context = offline(browser, **PHONE)
    page = opened(context, site / "en" / f"{name}.html")
    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
    widths = page.evaluate(
        "() => [...document.querySelectorAll('.msviz-rendition .msviz-stage')]"
        ".map(s => s.getBoundingClientRect().right)"
    )
    assert widths and max(widths) <= 360, widths
    assert page.evaluate(SMALL_CONTROLS) == []
    if name == "05-comparing-orders":  # two boards of 16 columns: one under the other
        assert page.locator(".msviz-boards-stacked").count() >= 1
    widget = page.locator(".msviz-rendition").nth(rendition_with(page, ".msviz-controls, .msviz-bank"))
    widget.scroll_into_view_if_needed()
    shoot(widget, f"site-phone-{name}")
    clean(page, context)
    context.close()


def test_on_a_phone_a_tap_on_a_cell_is_a_click(browser, tmp_path):
    context = offline(browser, **PHONE)
    page = opened(context, widget_page(msviz.game(board=GIVEN, animate=False), tmp_path / "game.html"))
    python = msviz.game(board=GIVEN, animate=False)
    click_cell(page, 0, 6, tap=True)
    python.click(0, 6)
    assert drawn_codes(page) == expected_codes(python.board)
    assert page.evaluate(SMALL_CONTROLS) == []
    clean(page, context)
    context.close()


# ---- access, and a host with no scripts ---------------------------------------------------------


@pytest.mark.parametrize("name", ["01-start-here", "03-depth-first", "05-comparing-orders", "07-homework"])
def test_axe_finds_nothing_serious_in_the_renditions_of_a_converted_notebook(browser, site, name):
    context = offline(browser)
    page = opened(context, site / "en" / f"{name}.html")
    found = serious(Axe().run(page, context={"include": [".msviz-rendition"]}))
    assert found == [], "\n".join(found)
    context.close()


def test_axe_finds_nothing_serious_on_the_sites_index(browser, site):
    context = offline(browser)
    page = opened(context, site / "index.html")
    found = serious(Axe().run(page))
    assert found == [], "\n".join(found)
    context.close()


def test_with_scripts_off_the_picture_and_its_note_show(browser, site):
    context = offline(browser, java_script_enabled=False)
    page = context.new_page()
    page.goto((site / "en" / "01-start-here.html").as_uri())
    figures = page.locator(".msviz-rendition .msviz-static")
    assert figures.count() == widgets_in(site / "en" / "01-start-here.ipynb")
    for i in range(figures.count()):
        assert figures.nth(i).locator("img").is_visible()
        assert "An interactive msviz board" in figures.nth(i).locator("figcaption").text_content()
    assert page.locator(".msviz-stage").count() == 0
    shoot_whole(page, "site-no-scripts-01-start-here")
    context.close()


# ---- be the computer in practice: Python's verdicts, looked up ----------------------------------


@pytest.mark.parametrize("order", ["bfs", "dfs"])
def test_a_simulation_answered_in_the_page_gets_the_verdicts_python_gives(browser, tmp_path, order):
    context = offline(browser)
    page = opened(context, widget_page(msviz.simulate(seed=1, order=order), tmp_path / "simulate.html"))
    assert page.locator(".msviz-practice").text_content() == PAGE["practice"]
    python = msviz.simulate(seed=1, order=order)  # told each message the page's view sends
    verdict, score = page.locator(".msviz-sim-verdict"), page.locator(".msviz-sim-score")
    rows, cols = python.simulation.shape

    def press(control: str, message: dict):
        page.locator(f'.msviz-sim-buttons [data-control="{control}"]').click()
        python._handle(message)

    def agree():
        said = python.by_hand["verdict"]
        page.wait_for_function("([v, s]) => v.textContent === s", arg=[verdict.element_handle(), said])
        assert score.text_content() == python.by_hand["score"]
        assert verdict.get_attribute("data-verdict") == python.by_hand["kind"]

    for i in range(400):
        if python.over:
            break
        name, value = python.simulation.expected()
        if name == "say":
            wrong = "1" if value != "1" else "B"
            said = wrong if i % 3 == 0 else value  # now and then a wrong symbol, set right
            press(f"say-{said}", {"event": "operation", "name": "say", "value": said})
        elif name == "back":
            press("back", {"event": "operation", "name": "back"})
        else:
            if i % 5 == 1:  # a click on a wrong cell first: a cell still hidden that is not the one
                shown = python.simulation
                wrong = next(
                    (r, c)
                    for r in range(rows)
                    for c in range(cols)
                    if (r, c) != value and (r, c) not in shown.revealed and (r, c) != shown.current
                )
                click_cell(page, *wrong)
                python._handle({"event": "click", "row": wrong[0], "col": wrong[1]})
                agree()
                if i % 10 == 1:  # and Undo it, then the right one
                    press("undo", {"event": "operation", "name": "undo"})
                    agree()
                    continue
                name, value = python.simulation.expected()
                if name not in ("take", "call", "queue"):
                    continue
            click_cell(page, *value)
            python._handle({"event": "click", "row": value[0], "col": value[1]})
        agree()
    assert python.over
    page.locator('.msviz-controls [data-control="play"]').wait_for()  # the model answer plays
    click_cell(page, 0, 0)  # over: nothing more is an operation
    python._handle({"event": "click", "row": 0, "col": 0})
    agree()
    shoot(page, f"rendition-simulate-{order}")
    clean(page, context)
    context.close()


def test_on_a_phone_the_simulation_fits_and_its_buttons_take_a_finger(browser, tmp_path):
    context = offline(browser, **PHONE)
    page = opened(context, widget_page(msviz.simulate(seed=1, order="bfs"), tmp_path / "simulate.html"))
    right = page.evaluate(
        "() => document.querySelector('.msviz-rendition .msviz-stage').getBoundingClientRect().right"
    )
    assert right <= 360 and page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.evaluate(SMALL_CONTROLS) == []
    python = msviz.simulate(seed=1, order="bfs")
    front = python.simulation.expected()[1]
    click_cell(page, *front, tap=True)  # a tap takes the queue's front, as a click does
    python.take(front)
    page.wait_for_function(
        "s => document.querySelector('.msviz-sim-verdict').textContent === s", arg=python.by_hand["verdict"]
    )
    shoot(page, "site-phone-simulate")
    clean(page, context)
    context.close()


# ---- a big page: its first picture from its first events, then every step ------------------------


@pytest.mark.parametrize("order", ["dfs", "bfs"])
def test_a_big_page_drawn_from_its_first_events_then_draws_every_step_right(open_page, order):
    """A page of 22,500 cells shows its first picture from its first events (readFirst), then reads
    the rest: a step far beyond them, before and after, is the trace's."""
    from test_page_in_chromium import expected, walk

    board = msviz.random_board(150, 150, 225, seed=4, safe=(75, 75))
    t = msviz.trace(board, (75, 75), order=order)
    assert t.events > 4 * 4096  # more events than the first picture reads
    page = open_page(t)
    for k, drawn in zip(steps := [0, len(t) // 2, len(t) - 1, 3], walk(page, steps)):
        tiles, variants = expected(t, k)
        assert drawn[0]["sprites"] == tiles and drawn[0]["variants"] == variants, k
