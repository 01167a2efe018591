"""The quiz bank in JupyterLab, in headless Chromium: each question shown, answered by clicks and keys.

A bank of ten questions is answered as a student does, at 1024 x 768 with the
file browser open: cells clicked on the picture (one with the keyboard), a
stack's or queue's cells chosen and sent, choices clicked; half right, half
wrong. Each verdict and kept line is the kernel's, and agrees with the answers
worked out from `msviz.trace` here (tests/test_bank.py's `solution`). A
screenshot of one question of each kind goes to test-artifacts/screenshots/.
"""

from __future__ import annotations

import pytest
from chromium import PATIENCE, ROOT, serious, shoot
from hosts import cell_position
from labserver import running_lab, write_notebook
from test_bank import a_wrong_answer, solution
from test_notebooks_in_chromium import assert_no_errors, ran_notebook

from msviz.bank import make_bank
from msviz.words import ORDER_WORDS

SEED = "ada"
NOTEBOOK = [f"import msviz\nbank = msviz.quiz_bank({SEED!r}, n=10)\nbank"]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab rooted at a folder holding the bank's notebook (and notebook 07)."""
    workdir = tmp_path_factory.mktemp("lab")
    root = workdir / "notebooks"
    root.mkdir()
    write_notebook(root / "bank-test.ipynb", NOTEBOOK)
    (root / "07-homework.ipynb").write_bytes((ROOT / "notebooks" / "07-homework.ipynb").read_bytes())
    with running_lab(root, workdir) as base:
        yield base


def click_cell(widget, rows: int, cols: int, cell) -> None:
    """Click cell (row, col) of the question's picture."""
    picture = widget.locator(".msviz-bank-picture")
    picture.click(position=cell_position(picture, rows, cols, *cell))


def by_keyboard(widget, cell) -> None:
    """Answer with cell (row, col) by the keys: focus the widget, the arrows move a cursor from the
    top left corner (each press moves it), Space chooses, Enter answers."""
    widget.locator(".msviz-bank").focus()
    for _ in range(cell[0]):
        widget.press("ArrowDown")
    for _ in range(cell[1]):
        widget.press("ArrowRight")
    if cell == (0, 0):
        widget.press("ArrowUp")  # the cursor shows, still at (0, 0)
    widget.locator(".msviz-bank").press(" ")
    widget.locator(".msviz-bank").press("Enter")


def type_choice(widget, q, value) -> None:
    """Answer a choice by the keys: type what it says (10 for 10, B for a blank, D or B for an order),
    then Enter."""
    widget.locator(".msviz-bank").focus()
    text = {"dfs": "d", "bfs": "b"}.get(value, str(value)) if q.kind == "order" else str(value)
    for key in text:
        widget.locator(".msviz-bank").press(key)
    widget.locator(".msviz-bank").press("Enter")


def give(widget, q, value, *, keyboard=False) -> None:
    """Answer question `q` with `value` as a student does: clicks on the picture, a choice, or keys."""
    rows, cols = len(q.board), len(q.board[0])
    if q.answered_by == "cell" and keyboard:
        by_keyboard(widget, value)
    elif q.answered_by == "choice" and keyboard:
        type_choice(widget, q, value)
    elif q.answered_by == "cell":
        click_cell(widget, rows, cols, value)
    elif q.answered_by == "cells":
        for cell in value:
            click_cell(widget, rows, cols, cell)
        widget.locator("[data-control=answer]").click()
    else:
        words = ORDER_WORDS[value] if q.kind == "order" else str(value)
        widget.locator(".msviz-bank-choices button", has_text=words).first.click()


def wait_said(widget, number: int) -> dict:
    """Wait until the widget shows question `number` (from 1) with a verdict; return what it shows."""
    widget.page.wait_for_function(
        """([root, n]) => root.querySelector('.msviz-status').textContent.startsWith(`Question ${n} `)
            && /^(Right|Wrong): /.test(root.querySelector('.msviz-bank-verdict').textContent)""",
        arg=[widget.element_handle(), number],
        timeout=PATIENCE,
    )
    return widget.evaluate(
        """root => ({verdict: root.querySelector('.msviz-bank-verdict').textContent,
                     keep: root.querySelector('.msviz-bank-line').textContent,
                     score: root.querySelector('.msviz-bank-score').textContent,
                     prompt: root.querySelector('.msviz-bank-prompt').textContent})"""
    )


def test_a_student_answers_every_question_by_clicks_and_keys_and_the_kernel_judges(browser, lab):
    bank = make_bank(SEED, n=10)  # the same questions as the kernel's
    with ran_notebook(browser, lab, "bank-test.ipynb", viewport=(1024, 768)) as page:
        assert_no_errors(page, "bank-test.ipynb")
        widget = page.locator(".jp-OutputArea-output").filter(has=page.locator(".msviz-bank")).first
        widget.locator(".msviz-bank-picture").wait_for()
        # It fits the output area at 1024 x 768 with the file browser open: nothing to scroll sideways.
        fits = widget.evaluate(
            """out => { const root = out.querySelector('.msviz-bank');
                return root.getBoundingClientRect().right <= out.getBoundingClientRect().right + 1
                    && root.scrollWidth <= root.clientWidth + 1; }"""
        )
        assert fits, "the bank's widget is wider than its output area"
        shot, keyboard_used, typed, verdicts = set(), False, set(), []
        for i, q in enumerate(bank.questions):
            number = i + 1
            page.wait_for_function(
                "([root, n]) => root.querySelector('.msviz-status').textContent.startsWith(`Question ${n} `)",
                arg=[widget.element_handle(), number],
            )
            assert widget.locator(".msviz-bank-prompt").inner_text() == q.prompt
            if q.kind not in shot:
                shoot(widget, f"bank-{q.kind}-1024x768")
                shot.add(q.kind)
            right = solution(q)
            value = right if i % 2 == 0 else a_wrong_answer(q, right)
            keyboard = (q.answered_by == "cell" and not keyboard_used) or (
                q.answered_by == "choice" and q.kind not in typed
            )
            keyboard_used |= keyboard and q.answered_by == "cell"
            typed |= {q.kind} if keyboard and q.answered_by == "choice" else set()
            give(widget, q, value, keyboard=keyboard)
            said = wait_said(widget, number)
            expected = bank.answer(i, value)
            assert said["verdict"] == str(expected), (q.kind, said)
            verdicts.append(str(expected))
            if i == 0:
                shoot(widget, "bank-answered-1024x768")
            assert said["keep"] == bank.line(i, value)
            if number < len(bank):
                widget.locator("[data-control=next]").click()
        assert keyboard_used and shot == {q.kind for q in bank.questions}
        assert typed == {q.kind for q in bank.questions if q.answered_by == "choice"}
        assert said["score"].startswith(f"{round(bank.score() * 10)} right of 10; 10 answered")
        # The keys move between questions too, and a question keeps its verdict.
        widget.locator(".msviz-bank").focus()
        widget.locator(".msviz-bank").press("p")
        assert wait_said(widget, len(bank) - 1)["verdict"] == verdicts[-2]
        assert_no_errors(page, "bank-test.ipynb")


def test_notebook_07_runs_in_jupyterlab_and_shows_its_bank(browser, lab):
    with ran_notebook(browser, lab, "07-homework.ipynb", viewport=(1024, 768)) as page:
        assert_no_errors(page, "07-homework.ipynb")
        bank = page.locator(".msviz-bank")
        assert bank.count() == 1 and bank.locator(".msviz-bank-picture").count() == 1
        # Run All ends at the last cell, the simulations' below the bank: a cell out of sight is not
        # laid out (its innerText is empty), so its text is read as the DOM holds it.
        bank.scroll_into_view_if_needed()
        assert bank.locator(".msviz-status").text_content() == "Question 1 of 10"
        # Its four simulations and its bank fit their outputs: no output scrolls, not even by 1 px (a
        # screen reader's live region at a view's foot once overflowed it).
        overflows = page.evaluate(
            """() => [...document.querySelectorAll('.jp-OutputArea-output')]
                .filter(o => o.querySelector('.msviz-view, .msviz-bank'))
                .map(o => [o.scrollHeight - o.clientHeight, o.scrollWidth - o.clientWidth])"""
        )
        assert len(overflows) == 5 and overflows == [[0, 0]] * 5, overflows
        # A simulation's board is named without a caption it does not have.
        names = page.evaluate(
            "() => [...document.querySelectorAll('.msviz-view canvas[aria-label]')].map(c => c.ariaLabel)"
        )
        assert len(names) == 4 and all(n.endswith("what each operation did is said below it") for n in names)
        shoot(page, "07-homework-1024x768")


def test_axe_finds_no_serious_violation_in_the_bank_and_its_controls_have_names(browser, lab):
    from axe_playwright_python.sync_playwright import Axe

    with ran_notebook(browser, lab, "bank-test.ipynb", viewport=(1024, 768)) as page:
        bank = page.locator(".msviz-bank")
        bank.locator(".msviz-bank-picture").wait_for()
        results = Axe().run(page, context={"include": [".jp-OutputArea-output:has(.msviz-bank)"]})
        found = serious(results)
        assert found == [], "\n".join(found)
        # The arrows say where they go; the picture says the question; the verdict is read out.
        assert bank.locator("[data-control=next]").get_attribute("aria-label") == "Next question"
        assert bank.locator(".msviz-bank-picture").get_attribute("alt") == make_bank(SEED).questions[0].prompt
        assert bank.locator(".msviz-bank-verdict").get_attribute("aria-live") == "polite"


def test_a_screen_reader_hears_the_picture_the_cursor_and_the_group_and_a_clicked_choice_keeps_focus(
    browser, lab
):
    from msviz.homework import question_words

    bank = make_bank(SEED, n=10)
    with ran_notebook(browser, lab, "bank-test.ipynb", viewport=(1024, 768)) as page:
        widget = page.locator(".jp-OutputArea-output").filter(has=page.locator(".msviz-bank")).first
        root = widget.locator(".msviz-bank")
        root.locator(".msviz-bank-picture").wait_for()
        assert (
            root.get_attribute("role") == "group"
            and root.get_attribute("aria-label") == "Quiz bank for 'ada'"
        )
        described, cells = question_words(bank.questions[0])
        heard = root.evaluate(
            """root => root.getAttribute('aria-describedby').split(' ')
                .map(id => root.querySelector('#' + id).textContent)"""
        )
        assert heard == [bank.questions[0].prompt, described]
        assert "Every other cell is hidden." in described
        # Each arrow moves the cursor, and the live region says the cell it is on, as the picture draws it.
        root.focus()
        root.press("ArrowRight")
        cols = len(bank.questions[0].board[0])
        heard_now = "([root, said]) => root.querySelector('[aria-live][aria-atomic]').textContent === said"
        page.wait_for_function(
            heard_now, arg=[root.element_handle(), f"(0, 1): {cells[1]}"], timeout=PATIENCE
        )
        root.press("ArrowDown")
        said = f"(1, 1): {cells[cols + 1]}"
        page.wait_for_function(heard_now, arg=[root.element_handle(), said], timeout=PATIENCE)
        # A choice clicked answers, the choices are drawn again, and the focus stays on the one clicked.
        i = next(i for i, q in enumerate(bank.questions) if q.answered_by == "choice")
        for _ in range(i):
            widget.locator("[data-control=next]").click()
        page.wait_for_function(
            "([root, n]) => root.querySelector('.msviz-status').textContent.startsWith(`Question ${n} `)",
            arg=[root.element_handle(), i + 1],
        )
        choice = bank.questions[i].choices[0]
        widget.locator(".msviz-bank-choices button", has_text=choice).first.click()
        wait_said(widget, i + 1)
        focused = page.evaluate(
            """() => { const a = document.activeElement;
                return a && a.closest('.msviz-bank-choices') ? a.textContent : null; }"""
        )
        assert focused == choice
        assert_no_errors(page, "bank-test.ipynb")
