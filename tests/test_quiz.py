"""The quiz, headless: predict the next cell, and the score read back from the view's traits.

The browser judges the clicks (tests/browser/test_quiz_in_chromium.py); here
the Python side: the quiz is built in quiz mode, its rule is the one the view
applies (`msviz.words.quiz_judge`), the score lives in the view's traits,
and bad arguments fail at the call.
"""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import msviz  # noqa: E402
from msviz.widgets import Quiz  # noqa: E402
from msviz.words import quiz_asks_return, quiz_judge, quiz_rule, quiz_score, quiz_verdict, view_words  # noqa: E402

BOARD = msviz.random_board(8, 10, 9, seed=7, safe=(4, 5))
CLICK = (4, 5)


@pytest.mark.parametrize("order", ["dfs", "bfs"])
def test_a_quiz_is_a_view_in_quiz_mode_at_the_click(order):
    q = msviz.quiz(BOARD, CLICK, order=order, max_cell=20)
    assert isinstance(q, Quiz) and q.trace.order == order
    view = q.view
    assert view.quiz and view.mode == "visits" and view.max_cell == 20
    assert (view.step, view.quiz_right, view.quiz_tries) == (0, 0, 0)
    assert not view.keyboard  # the keys would skip steps without a guess
    assert view.show_frontier == (order == "dfs")  # the queue's front would be the answer
    assert q.score == (0, 0) and q.step == 0 and not q.over
    assert view is q and q.restart == "Start again"  # one widget: its restart button is drawn in the browser
    assert {k: v for k, v in view.words.items() if k.startswith("quiz_")} == {
        k: v for k, v in view_words().items() if k.startswith("quiz_")
    }


def test_the_score_is_read_from_the_traits_the_browser_sets():
    q = msviz.quiz(BOARD, CLICK)
    q.view.quiz_right, q.view.quiz_tries = 3, 5  # as model.save_changes() in the browser does
    assert q.score == (3, 5)


def test_a_right_and_a_wrong_guess_move_the_step_and_count():
    q = msviz.quiz(BOARD, CLICK)
    t = q.trace
    assert q.guess(int(t.row[1]), int(t.col[1])) == f"Right: ({t.row[1]}, {t.col[1]}) is next."
    assert q.score == (1, 1) and q.view.step == 1
    hidden = next((r, c) for r, c in zip(*np.nonzero(t.step_map > 2)))  # hidden, not next
    said = q.guess(int(hidden[0]), int(hidden[1]))
    assert said == f"Not this one: the next call goes to ({t.row[2]}, {t.col[2]})."
    assert q.score == (1, 2) and q.view.step == 2


def test_a_guess_of_an_uncovered_cell_is_not_a_try():
    q = msviz.quiz(BOARD, CLICK)
    assert q.guess(*CLICK) == f"{CLICK} is already uncovered: click a hidden cell."
    assert q.score == (0, 0) and q.step == 0


def test_bfs_accepts_any_hidden_cell_of_the_next_layer():
    q = msviz.quiz(BOARD, CLICK, order="bfs")
    t = q.trace
    k = next(k for k in range(len(t) - 2) if t.depth[k + 1] == t.depth[k + 2])  # a layer goes on after k + 1
    while q.step < k:
        q.guess(int(t.row[q.step + 1]), int(t.col[q.step + 1]))
    assert q.score == (k, k)
    later = int(np.nonzero(t.depth == t.depth[k + 1])[0][-1])  # the last cell of that layer
    assert later > k + 1
    said = q.guess(int(t.row[later]), int(t.col[later]))
    assert said == (
        f"Right: ({t.row[later]}, {t.col[later]}) is in the same layer; "
        f"the queue takes ({t.row[k + 1]}, {t.col[k + 1]}) first."
    )
    assert q.score == (k + 1, k + 1) and q.step == k + 1  # counted, and the true step k + 1 is shown


@pytest.mark.parametrize("order", ["dfs", "bfs"])
@pytest.mark.parametrize("seed", range(5))
def test_the_rule_on_every_cell_at_every_step(order, seed):
    click = (3, 4)
    t = msviz.trace(msviz.random_board(7, 9, 8, seed=seed, safe=click), click, order=order)
    hidden = np.isin(t.board, ["E", "M"])
    for k in range(-1, len(t) - 1):
        for (row, col), s in np.ndenumerate(t.step_map):
            kind = quiz_judge(t, k, row, col)
            if not hidden[row, col] or 0 <= s <= k:
                assert kind == "quiz_revealed"
            elif s == k + 1:
                assert kind == "quiz_right"
            elif order == "bfs" and s > k and t.depth[s] == t.depth[k + 1]:
                assert kind == "quiz_layer"
            else:
                assert kind == f"quiz_wrong_{order}"


def test_the_end_says_the_final_score_and_takes_no_more_guesses():
    q = msviz.quiz(["EEE", "EEM"], (0, 0))
    assert [tuple(map(int, cell)) for cell in zip(q.trace.row, q.trace.col)] == [
        (0, 0),
        (0, 1),
        (1, 0),
        (1, 1),
    ]
    # (0, 1) is a digit: its call returns, and the quiz asks whose call goes on, (0, 0)'s.
    # The third guess is wrong: (1, 0) comes first.
    for row, col in [(0, 1), (0, 0), (1, 1), (1, 1)]:
        q.guess(row, col)
    assert q.over and q.score == (3, 4) and q.step == 3
    assert q.guess(0, 2) == "The reveal is over: you predicted 3 of 4 steps."
    assert q.score == (3, 4)


def test_start_again_goes_back_to_the_first_step_with_no_score():
    q = msviz.quiz(BOARD, CLICK)
    q.guess(0, 0)
    q._handle_message(q, {"event": "restart"}, [])  # what the "Start again" button sends
    assert q.score == (0, 0) and q.view.step == 0


def test_a_click_that_reveals_nothing_is_over_at_once():
    q = msviz.quiz(["B1E", "B1M"], (0, 0))
    assert len(q.trace) == 0 and q.step == -1 and q.over
    assert q.guess(0, 2) == "The reveal is over: you predicted 0 of 0 steps."


def test_the_words():
    assert quiz_rule("bfs").startswith("Breadth-first: any hidden cell in the next cell's layer counts")
    assert quiz_score(0, 1) == "Score: 0 of 1." and quiz_score(3, 4, over=True).endswith("3 of 4 steps.")
    t = msviz.trace(["EEE", "EEM"], (0, 0))
    assert quiz_verdict(t, -1, 0, 0) == "Right: (0, 0) is next."


def test_the_quiz_shows_a_png_where_widgets_cannot_run():
    bundle = msviz.quiz(BOARD, CLICK)._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "image/png" in data


def test_bad_arguments_fail_at_the_call():
    with pytest.raises(ValueError, match="order must be 'dfs' or 'bfs', not 'xfs'"):
        msviz.quiz(BOARD, CLICK, order="xfs")
    with pytest.raises(ValueError, match=r"click \(8, 0\) is outside the 8x10 board"):
        msviz.quiz(BOARD, (8, 0))
    with pytest.raises(ValueError, match="neighbors must list each of the eight offsets"):
        msviz.quiz(BOARD, CLICK, neighbors=[(0, 1)])
    for bad, error in (
        (0, ValueError),
        (-3, ValueError),
        (65, ValueError),
        (2.5, TypeError),
        (True, TypeError),
    ):
        with pytest.raises(error, match=f"max_cell must be .*{bad!r}"):
            msviz.quiz(BOARD, CLICK, max_cell=bad)
    with pytest.raises(TypeError, match="the reveal must be a msviz.Trace .* not list"):
        Quiz([["E"]])
    with pytest.raises(ValueError, match="order must be one of"):
        quiz_rule("yours")
    t = msviz.trace(["EEE", "EEM"], (0, 0))
    with pytest.raises(ValueError, match=r"step 3 has no next step to guess: the reveal has steps 0 to 3"):
        quiz_judge(t, 3, 0, 2)
    with pytest.raises(ValueError, match=r"cell \(2, 0\) is outside the 2x3 board"):
        msviz.quiz(["EEE", "EEM"], (0, 0)).guess(2, 0)


# ---- depth-first returns: whose call goes on ---------------------------------------

NOTEBOOK_BOARD = msviz.random_board(6, 8, 7, seed=5, safe=(3, 4))


@pytest.mark.parametrize("order", ["dfs", "bfs"])
def test_a_return_is_asked_exactly_where_a_call_returns_before_the_next(order):
    t = msviz.trace(NOTEBOOK_BOARD, (3, 4), order=order)
    asked = [k for k in range(len(t) - 1) if quiz_asks_return(t, k)]
    if order == "bfs":
        assert asked == []
        return
    # The call of step k returns first unless it makes the next call itself.
    assert asked == [k for k in range(len(t) - 1) if t.parent_step[k + 1] != k]
    assert asked[:3] == [2, 3, 4]


def test_the_answer_to_a_return_is_on_the_stack_and_makes_the_next_call():
    t = msviz.trace(NOTEBOOK_BOARD, (3, 4))
    for k in range(len(t) - 1):
        if not quiz_asks_return(t, k):
            continue
        chain = [k]  # the stack at step k: its call and its callers
        while t.parent_step[chain[-1]] >= 0:
            chain.append(int(t.parent_step[chain[-1]]))
        answer = int(t.parent_step[k + 1])
        assert answer in chain[1:]  # a caller, perhaps several returns down
        judged = {s: quiz_judge(t, k, int(t.row[s]), int(t.col[s]), returning=True) for s in chain}
        assert [s for s, kind in judged.items() if kind == "quiz_return_right"] == [answer]
        hidden = int(t.row[k + 1]), int(t.col[k + 1])
        assert quiz_judge(t, k, *hidden, returning=True) == "quiz_return_hidden"


def test_a_class_quiz_mixes_calls_and_returns_within_its_guesses():
    q = msviz.quiz(NOTEBOOK_BOARD, (3, 4), guesses=8)
    t = q.trace
    kinds = []
    while not q.over:
        returning = q.returning
        kinds.append("return" if returning else "call")
        answer = t.parent_step[q.step + 1] if returning else q.step + 1
        assert q.guess(int(t.row[answer]), int(t.col[answer])).startswith("Right")
    assert kinds == ["call", "call", "return", "call", "return", "call", "return", "call"]
    assert q.score == (8, 8) and q.last_question == 5 and q.step == 5


def test_a_hidden_cell_is_no_answer_to_a_return_and_start_again_forgets_it():
    q = msviz.quiz(["EEE", "EEM"], (0, 0))
    q.guess(0, 1)
    assert q.returning and q.question.startswith("The call on (0, 1) has nothing left to call and returns.")
    assert q.guess(1, 1) == "(1, 1) is hidden: click a call that is on the stack (the blue path)."
    assert q.score == (1, 1) and q.returning
    assert q.guess(0, 1).startswith("Not this one: the calls return to (0, 0)")
    assert q.score == (1, 2) and not q.returning and q.view.quiz_returned and q.step == 1
    assert q.question == quiz_rule("dfs")
    q.start_again()
    assert not q.view.quiz_returned and q.step == 0 and q.score == (0, 0)


def test_the_browser_counts_the_same_verdicts_as_python():
    import re

    from msviz.frontend import part
    from msviz.words import QUIZ_NOT_A_TRY, QUIZ_RIGHT

    source = part("words.js")
    kinds = {
        name: set(re.findall(r'"(quiz_\w+)"', re.search(rf"const {name} = .*", source).group(0)))
        for name in ("isRight", "notATry")
    }
    assert kinds == {"isRight": set(QUIZ_RIGHT), "notATry": set(QUIZ_NOT_A_TRY)}
