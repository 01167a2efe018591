"""The quiz bank: made from a seed, every answer agreeing with msviz.trace, impossible answers refused."""

import json
import re

import numpy as np
import pytest

import msviz
from msviz.bank import KINDS, make_bank


def order_of(q) -> str:
    """The order of an "order" question, worked out as a student would: from its picture."""
    from msviz.homework import question_picture
    from msviz.render import state_image

    picture = question_picture(q)
    made = []
    for order in ("dfs", "bfs"):
        t = msviz.trace(list(q.board), q.click, order=order)
        if np.array_equal(state_image(t.board_at(q.step), px=picture.shape[0] // len(q.board)), picture):
            made.append(order)
    assert len(made) == 1, made  # the picture tells them apart
    return made[0]


def solution(q):
    """The right answer to question `q`, worked out here from msviz.trace and msviz.mine_counts."""
    if q.kind == "order":
        assert q.order is None and q.to_dict()["order"] is None  # nothing read before answering holds it
        return order_of(q)
    t = msviz.trace(list(q.board), q.click, order=q.order)
    if q.kind == "next":
        return int(t.row[q.step + 1]), int(t.col[q.step + 1])
    if q.kind == "last":
        return int(t.row[-1]), int(t.col[-1])
    if q.kind == "digit":
        n = int(msviz.mine_counts(list(q.board))[q.cell])
        assert t.final[q.cell] == ("B" if n == 0 else str(n))
        return "B" if n == 0 else str(n)
    if q.kind in ("depth", "layer"):
        return int(t.depth_map[q.cell])
    if q.kind == "waiting":
        rows, cols = np.nonzero(t.frontier_at(q.step))
        return [(int(r), int(c)) for r, c in zip(rows, cols)]
    raise AssertionError(q.kind)


def a_wrong_answer(q, right):
    """An answer that can be given but is not right."""
    rows, cols = len(q.board), len(q.board[0])
    if q.kind in ("next", "last"):
        shown = msviz.trace(list(q.board), q.click, order=q.order).revealed_at(q.step)
        return next((r, c) for r in range(rows) for c in range(cols) if (r, c) != right and not shown[r, c])
    if q.kind == "waiting":
        return right[:-1]
    if q.kind == "order":
        return "bfs" if right == "dfs" else "dfs"
    if q.kind == "digit":
        return "1" if right != "1" else "2"
    return right + 1


SEEDS = ["ada", "ben", 7, "student 12", "Zoë"]


def test_the_same_seed_gives_the_same_bank_and_another_seed_another():
    assert make_bank("ada").to_dict() == make_bank("ada").to_dict()
    assert make_bank(7).to_dict() == make_bank("7").to_dict()  # a number typed either way
    assert make_bank("ada").to_dict()["questions"] != make_bank("ben").to_dict()["questions"]
    assert make_bank("ada", n=4).to_dict()["questions"] == make_bank("ada", n=12).to_dict()["questions"][:4]


@pytest.mark.parametrize("seed", SEEDS)
def test_every_kind_appears_and_each_answer_agrees_with_the_trace(seed):
    bank = make_bank(seed, n=10)
    assert len(bank) == 10 and {q.kind for q in bank.questions} == set(KINDS)
    assert {q.order for q in bank.questions if q.kind == "next"} == {"dfs", "bfs"}
    for i, q in enumerate(bank.questions):
        right = solution(q)
        assert q.prompt and q.answered_by in ("cell", "cells", "choice")
        verdict = bank.answer(i, right)
        assert verdict.right and verdict.counted and str(verdict).startswith("Right: "), (q.kind, verdict)
        again = bank.answer(i, a_wrong_answer(q, right))
        assert not again.right and not again.counted and str(again).startswith("Wrong: ")
    assert bank.score() == 1.0 and bank.points(10) == 10.0


def test_wrong_answers_score_nothing_and_the_first_answer_counts():
    bank = make_bank("ben", n=8)
    assert bank.score() == 0.0
    first = bank.questions[0]
    verdict = bank.answer(0, a_wrong_answer(first, solution(first)))
    assert not verdict.right and verdict.reason
    assert bank.answer(0, solution(first)).counted is False
    assert bank.score() == 0.0
    bank.answer(1, solution(bank.questions[1]))
    assert bank.score() == 1 / 8 and bank.points(4) == 0.5


def impossible(q):
    """Answers that cannot be right, each with the error it gets."""
    rows, cols = len(q.board), len(q.board[0])
    bad = [(True, TypeError), (None, TypeError), (1.5, TypeError)]
    if q.answered_by == "cell":
        bad += [((rows, 0), ValueError), ((0, -1), ValueError), ("(0, 0)", TypeError), ((0, 0, 0), TypeError)]
    elif q.answered_by == "cells":
        bad += [([(0, cols)], ValueError), ("(0, 0)", TypeError), ([0, 1], TypeError)]
    elif q.kind == "order":
        bad += [("sideways", ValueError), (1, TypeError)]
    else:
        bad += [("X", ValueError), (99, ValueError), (-1, ValueError), ([1], TypeError)]
    return bad


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_impossible_answers_are_refused_and_score_nothing(seed):
    bank = make_bank(seed, n=10)
    for i, q in enumerate(bank.questions):
        for value, error in impossible(q):
            with pytest.raises(error, match="the answer|a cell of the answer"):
                bank.answer(i, value)
    assert bank.score() == 0.0 and bank.to_dict()["answered"] == 0
    with pytest.raises(ValueError, match="question"):
        bank.answer(10, (0, 0))
    with pytest.raises(TypeError, match="question"):
        bank.answer("0", (0, 0))


def test_a_bad_seed_or_size_is_refused():
    for seed, error in [("  ", ValueError), (None, TypeError), (True, TypeError), (["ada"], TypeError)]:
        with pytest.raises(error, match="seed"):
            make_bank(seed)
    for n, error in [(0, ValueError), (101, ValueError), (2.0, TypeError)]:
        with pytest.raises(error, match="n"):
            make_bank("ada", n=n)


def test_the_bank_as_data_survives_json():
    bank = make_bank("ada", n=6)
    bank.answer(0, solution(bank.questions[0]))
    bank.answer(1, a_wrong_answer(bank.questions[1], solution(bank.questions[1])))
    data = json.loads(json.dumps(bank.to_dict()))
    assert data["seed"] == "ada" and data["answered"] == 2 and data["right"] == 1
    assert data["score"] == pytest.approx(1 / 6)
    assert [q["right"] for q in data["questions"]] == [True, False, None, None, None, None]
    assert all(set(q) >= {"kind", "order", "board", "click", "prompt", "answer"} for q in data["questions"])


def test_a_kept_line_gives_the_same_answer_again():
    bank = make_bank("ada", n=10)
    again = make_bank("ada", n=10)
    for i, q in enumerate(bank.questions):
        line = bank.line(i, solution(q))
        assert line.startswith(f"bank.answer({i}, ")
        verdict = eval(line, {"bank": again})  # what the student keeps is code that runs
        assert verdict.right
    assert again.score() == 1.0


def test_the_widget_judges_the_browsers_answers_and_shows_answers_given_in_code():
    bank = msviz.quiz_bank("ada", n=10)
    q = bank.questions[0]
    right = solution(q)
    as_sent = (
        [list(c) for c in right]
        if q.answered_by == "cells"
        else list(right)
        if q.answered_by == "cell"
        else right
    )
    bank._heard(bank, {"event": "answer", "index": 0, "value": as_sent}, [])
    assert bank.verdict_kind == "right" and bank.keep.startswith("bank.answer(0, ")
    assert bank.score() == 0.1 and "1 right of 10" in bank.score_text
    bank._heard(bank, {"event": "answer", "index": 1, "value": "not an answer at all"}, [])
    bank.index = 1
    assert bank.verdict_kind == "refused" and bank.score() == 0.1
    q2 = bank.questions[2]
    bank.answer(2, solution(q2))  # a kept line, run in the notebook
    bank.index = 2
    assert (
        bank.verdict_kind == "right"
        and bank.prompt == q2.prompt
        and bank.picture.startswith("data:image/png")
    )
    assert bank.to_dict() == bank.bank.to_dict()


def test_the_widget_refuses_a_question_it_does_not_have():
    bank = msviz.quiz_bank("ada", n=3)
    with pytest.raises(ValueError, match="question 3 is outside this bank's questions 0-2"):
        bank.index = 3
    with pytest.raises(Exception, match="int"):
        bank.index = "1"
    assert bank.index == 0 and bank.shown == 0


def test_a_question_that_needs_the_mines_shows_them():
    """Which cell comes last, and what a cell shows, cannot be worked out without the mines."""
    from dataclasses import replace

    from msviz.homework import question_picture

    bank = make_bank("ada", n=10)
    for q in bank.questions:
        assert q.show_mines == (q.kind in ("digit", "last")), q.kind
        if q.show_mines:
            hidden = question_picture(replace(q, show_mines=False))
            assert (question_picture(q) != hidden).any(), f"{q.kind}: no mine drawn"
            assert "mines are shown" in q.prompt


def test_a_question_is_fit_for_marks_its_words_and_picture_ask_what_must_be_worked_out():
    from msviz.words import BANK

    for seed in range(40):
        for i, q in enumerate(make_bank(seed, n=10).questions):
            if q.kind in ("order", "depth", "next", "waiting"):
                assert "reading order" in q.prompt, q.prompt  # the neighbour order the answer depends on
            if q.kind == "depth":
                assert not q.show_waiting  # the stack is not drawn: its size would be the answer
            if q.kind == "order":
                bank = make_bank(seed, n=10)
                right = order_of(q)
                reason = bank.answer(i, "bfs" if right == "dfs" else "dfs")
                t = msviz.trace(list(q.board), q.click, order=right)
                shown = t.revealed_at(q.step)
                cells = re.findall(r"\((\d+), (\d+)\)", str(reason))
                ahead, behind = [(int(r), int(c)) for r, c in cells[:2]]
                assert shown[ahead] and not shown[behind], (seed, i, str(reason))
    assert "from the click's call (depth 0) up" in BANK["why_depth"]
    assert "not yet queued" in BANK["ask_waiting_bfs"]


def test_an_answer_that_cannot_be_right_is_refused_and_uses_up_nothing():
    bank = make_bank("ada", n=10)
    waiting = next(i for i, q in enumerate(bank.questions) if q.kind == "waiting")
    with pytest.raises(ValueError, match="choose at least one cell"):
        bank.answer(waiting, [])
    following = next(i for i, q in enumerate(bank.questions) if q.kind == "next")
    q = bank.questions[following]
    shown = msviz.trace(list(q.board), q.click, order=q.order).revealed_at(q.step)
    revealed = tuple(int(x) for x in np.argwhere(shown)[0])
    with pytest.raises(ValueError, match="is revealed already"):
        bank.answer(following, revealed)
    assert bank.answered == 0


def test_in_homework_mode_a_verdict_says_only_right_or_wrong():
    bank, told = make_bank("ada", n=10, homework=True), make_bank("ada", n=10)
    for i, q in enumerate(bank.questions):
        right = solution(q)
        wrong = a_wrong_answer(q, right)
        assert str(bank.answer(i, wrong)) == "Wrong."
        assert str(bank.answer(i, right)) == "Right. (only your first answer to a question counts)"
        assert str(told.answer(i, wrong)).startswith("Wrong: ")
    with pytest.raises(TypeError, match="homework must be True or False"):
        make_bank("ada", homework="yes")


def test_the_widget_keeps_the_line_of_the_answer_that_counted():
    bank = msviz.quiz_bank("ada", n=3)
    q = bank.questions[0]
    right = solution(q)
    wrong = a_wrong_answer(q, right)
    bank.answer(0, wrong)
    bank.answer(0, right)
    assert bank.keep == bank.line(0, wrong) and "only your first answer" in bank.verdict
