"""The quiz in a real browser: a click on the board is a guess, judged and scored in the page.

The view is given the traits of `msviz.quiz` (on an exported page, opened from
file://, with no kernel): a right click and a wrong click change the score as
they should, depth-first (only the exact next call counts) and breadth-first
(another hidden cell of the next cell's layer counts too); each guess shows
the true next step, its words are `msviz.words`' own, and no click is sent
to the kernel.
"""

from __future__ import annotations

import pytest
from chromium import PATIENCE, shoot

import msviz
from msviz.words import fill, quiz_asks_return, quiz_rule, quiz_score, quiz_verdict

BOARD = msviz.random_board(9, 9, 10, seed=1, safe=(4, 4))
CLICK = (4, 4)


def click_cell(page, q, row: int, col: int) -> dict:
    """Click cell (row, col) of the board; return what the quiz then shows, once it is drawn."""
    canvas = page.locator(".msviz-view canvas.msviz-cells").first
    box = canvas.bounding_box()
    rows, cols = q.trace.shape
    canvas.click(position={"x": (col + 0.5) * box["width"] / cols, "y": (row + 0.5) * box["height"] / rows})
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return shown(page)


def shown(page) -> dict:
    """What the quiz shows: its rule, verdict and score (words and numbers), and the step drawn."""
    root = page.locator(".msviz-view").first
    return root.evaluate(
        "root => ({...root.msviz.quiz(), step: root.msviz.step(), caption: root.msviz.caption()})"
    )


def cell(t, k) -> tuple[int, int]:
    return int(t.row[k]), int(t.col[k])


def test_depth_first_a_right_click_scores_and_a_wrong_click_does_not(open_quiz):
    q = msviz.quiz(BOARD, CLICK, order="dfs")
    t = q.trace
    page = open_quiz(q)
    start = shown(page)
    assert start["rule"] == quiz_rule("dfs") and start["verdict"] == "Which cell is revealed next? Click it."
    assert (start["step"], start["score"]) == (0, quiz_score(0, 0))

    after = click_cell(page, q, *cell(t, 1))  # right: the next call
    assert (after["right"], after["tries"], after["step"]) == (1, 1, 1)
    assert after["verdict"] == quiz_verdict(t, 0, *cell(t, 1)) == f"Right: {cell(t, 1)} is next."
    assert after["score"] == quiz_score(1, 1)
    assert after["caption"] == msviz.words.caption(t, 1)  # the true step is shown

    wrong = cell(t, len(t) - 1)  # hidden, and not the next call
    after = click_cell(page, q, *wrong)
    assert (after["right"], after["tries"], after["step"]) == (1, 2, 2)
    assert (
        after["verdict"] == quiz_verdict(t, 1, *wrong) == f"Not this one: the next call goes to {cell(t, 2)}."
    )
    assert after["score"] == quiz_score(1, 2)
    shoot(page, "quiz-dfs-1024x768")

    after = click_cell(page, q, *CLICK)  # an uncovered cell: said so, not counted
    assert (after["right"], after["tries"], after["step"]) == (1, 2, 2)
    assert after["verdict"] == f"{CLICK} is already uncovered: click a hidden cell."
    assert page.evaluate("window.sent") == [] and page.problems == []  # nothing went to the kernel


def test_breadth_first_another_cell_of_the_layer_counts(open_quiz):
    q = msviz.quiz(BOARD, CLICK, order="bfs")
    t = q.trace
    assert t.depth[1] == t.depth[2] == 1  # the click is blank: its neighbours are one layer
    page = open_quiz(q)
    assert shown(page)["rule"] == quiz_rule("bfs")

    same_layer = cell(t, 2)  # right, though the queue takes step 1's cell first
    after = click_cell(page, q, *same_layer)
    assert (after["right"], after["tries"], after["step"]) == (1, 1, 1)
    assert after["verdict"] == quiz_verdict(t, 0, *same_layer)
    assert (
        after["verdict"] == f"Right: {same_layer} is in the same layer; the queue takes {cell(t, 1)} first."
    )
    shoot(page, "quiz-bfs-same-layer")

    deeper = cell(t, len(t) - 1)
    assert t.depth[len(t) - 1] > t.depth[2]
    after = click_cell(page, q, *deeper)  # wrong: a later layer
    assert (after["right"], after["tries"], after["step"]) == (1, 2, 2)
    assert after["verdict"] == quiz_verdict(t, 1, *deeper)
    assert after["verdict"].startswith(f"Not this one: {deeper} is not in the next cell's layer")
    assert after["score"] == quiz_score(1, 2)
    shoot(page, "quiz-bfs-1024x768")
    assert page.evaluate("window.sent") == [] and page.problems == []


def test_depth_first_a_return_asks_whose_call_goes_on(open_quiz):
    q = msviz.quiz(["EEEE", "EEEE", "EEME"], (0, 0))
    t = q.trace
    assert not quiz_asks_return(t, 3) and quiz_asks_return(t, 4) and quiz_asks_return(t, 5)
    page = open_quiz(q)
    for k in range(1, 5):  # four right calls: (1, 2), step 4, is a digit, and its call returns
        after = click_cell(page, q, *cell(t, k))
    assert (after["right"], after["tries"], after["step"], after["returned"]) == (4, 4, 4, False)
    assert after["rule"] == fill("quiz_return_ask", row=1, col=2)
    chain = [cell(t, k) for k in (0, 1, 2, 3, 4)]  # the stack's path: the question's choices
    assert [divmod(i, 4) for i in after["waiting"]] == chain

    after = click_cell(page, q, 2, 3)  # a hidden cell is no call: said so, not counted
    assert (after["tries"], after["returned"]) == (4, False)
    assert after["verdict"] == quiz_verdict(t, 4, 2, 3, returning=True)

    caller = cell(t, t.parent_step[5])  # (0, 3): the top call with a hidden neighbour left
    after = click_cell(page, q, *cell(t, 1))  # wrong: too far down the stack
    assert (after["right"], after["tries"], after["step"], after["returned"]) == (4, 5, 4, True)
    assert after["verdict"] == quiz_verdict(t, 4, *cell(t, 1), returning=True)
    assert after["verdict"] == (
        f"Not this one: the calls return to {caller}, the top call with a hidden neighbour left."
    )
    assert after["rule"] == quiz_rule("dfs")  # now the next call's question
    # (1, 2) has returned: the stack ends at its caller.
    assert [divmod(i, 4) for i in after["waiting"]] == chain[:4]
    shoot(page, "quiz-return-wrong")

    after = click_cell(page, q, *cell(t, 5))  # the next call, from (0, 3); then (1, 3) returns too
    assert (after["right"], after["tries"], after["step"], after["returned"]) == (5, 6, 5, False)
    assert after["rule"] == fill("quiz_return_ask", row=1, col=3)
    unwound = cell(t, t.parent_step[6])  # two calls return: (1, 3), then (0, 3); (0, 2) goes on
    assert unwound == (0, 2)
    after = click_cell(page, q, *unwound)
    assert (after["right"], after["tries"], after["returned"]) == (6, 7, True)
    assert after["verdict"] == f"Right: the calls return to {unwound}, which makes the next call."
    assert page.evaluate("window.sent") == [] and page.problems == []


def test_the_end_of_the_reveal_says_the_final_score(open_quiz):
    q = msviz.quiz(["EEEE", "EEEE", "EEME"], (0, 0))
    t = q.trace
    page = open_quiz(q, viewport=(1400, 1000))
    returns = 0
    for k in range(1, len(t)):
        if quiz_asks_return(t, k - 1):  # first whose call goes on: the caller of step k
            click_cell(page, q, *cell(t, t.parent_step[k]))
            returns += 1
        after = click_cell(page, q, *(cell(t, k) if k != 2 else cell(t, len(t) - 1)))  # one wrong guess
    tries = len(t) - 1 + returns
    assert returns == 3 and (after["right"], after["tries"], after["step"]) == (tries - 1, tries, len(t) - 1)
    assert after["score"] == quiz_score(tries - 1, tries, over=True)
    assert click_cell(page, q, 2, 2)["tries"] == tries  # no more guesses
    shoot(page, "quiz-over")


def test_a_short_quiz_ends_after_its_questions(open_quiz):
    q = msviz.quiz(BOARD, CLICK, guesses=2)
    t = q.trace
    assert len(t) > 4
    page = open_quiz(q)
    click_cell(page, q, *cell(t, 1))
    after = click_cell(page, q, *cell(t, 2))
    assert (after["right"], after["tries"], after["step"]) == (2, 2, 2)
    assert after["score"] == quiz_score(2, 2, over=True, cut=True)
    assert after["score"] == "That was the last question: you predicted 2 of 2 steps."
    assert click_cell(page, q, *cell(t, 3))["tries"] == 2  # no third question


# ---- in JupyterLab: the score the browser keeps is the one Python reads ------------------

QUIZ_NOTEBOOK = [
    "import msviz\nq = msviz.quiz(msviz.random_board(6, 8, 7, seed=5, safe=(3, 4)), (3, 4), order='bfs')\nq",
    "print('SCORE', *q.score, q.view.step)",
]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on 127.0.0.1 serving one notebook, with a quiz in its first cell."""
    from labserver import running_lab, write_notebook

    workdir = tmp_path_factory.mktemp("quiz-lab")
    root = workdir / "notebooks"
    root.mkdir()
    write_notebook(root / "quiz-test.ipynb", QUIZ_NOTEBOOK)
    with running_lab(root, workdir) as base:
        yield base


def kernel_score(page) -> tuple[int, int, int]:
    """Run the notebook's second cell: (right, tries, step) as the kernel reads them."""
    cell = page.locator(".jp-CodeCell").nth(1)
    before = cell.locator(".jp-InputPrompt").inner_text()  # "[n]:" of the last run, if any
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Control+Enter")
    page.wait_for_function(  # run again: a new count in its prompt, and the score printed
        "([el, before]) => { const prompt = el.querySelector('.jp-InputPrompt').textContent;"
        " return /\\[\\d+\\]/.test(prompt) && prompt !== before"
        " && /SCORE \\d+ \\d+ -?\\d+/.test(el.textContent); }",
        arg=[cell.element_handle(), before],
        timeout=PATIENCE,
    )
    _, right, tries, step = cell.locator(".jp-OutputArea-output").last.inner_text().split()
    return int(right), int(tries), int(step)


def test_in_jupyterlab_the_kernel_reads_the_score_of_the_clicks(browser, lab):
    from test_notebooks_in_chromium import assert_no_errors, ran_notebook

    t = msviz.trace(msviz.random_board(6, 8, 7, seed=5, safe=(3, 4)), (3, 4), order="bfs")
    with ran_notebook(browser, lab, "quiz-test.ipynb", viewport=(1024, 768)) as page:
        assert_no_errors(page, "quiz-test.ipynb")
        widget = page.locator(".msviz-stage:has(.msviz-view)").first
        view = widget.locator(".msviz-view").first
        canvas = view.locator("canvas.msviz-cells")
        box = canvas.bounding_box()

        def click(row, col):
            canvas.click(position={"x": (col + 0.5) * box["width"] / 8, "y": (row + 0.5) * box["height"] / 6})

        click(*cell(t, 2))  # another cell of the next layer: right
        page.wait_for_function("root => root.msviz.step() === 1", arg=view.element_handle(), timeout=PATIENCE)
        click(*cell(t, len(t) - 1))  # a later layer: wrong
        page.wait_for_function("root => root.msviz.step() === 2", arg=view.element_handle(), timeout=PATIENCE)
        assert view.evaluate("root => root.msviz.quiz().score") == quiz_score(1, 2)
        assert kernel_score(page) == (1, 2, 2)
        widget.scroll_into_view_if_needed()
        shoot(widget, "quiz-in-jupyterlab-1024x768")

        widget.locator("[data-control=restart]").click()
        page.wait_for_function(
            "root => root.msviz.step() === 0 && root.msviz.quiz().score === 'Score: 0 of 0.'",
            arg=view.element_handle(),
            timeout=PATIENCE,
        )
        assert kernel_score(page) == (0, 0, 0)
