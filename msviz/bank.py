"""A quiz bank for homework: questions made from a seed (a student's name or number), judged by the rules.

Each question is about one reveal, on a small board of its own: which cell comes
next, which is revealed last, what a cell shows, how deep its call is (depth-first)
or which layer it is in (breadth-first), what the stack or the queue holds at a
step, and which order made a picture. The same seed always gives the same bank;
every answer is worked out from `msviz.trace` (the rules live there only).

This module is the bank itself, plain data and judging: it imports no widget.
`msviz.quiz_bank` shows a bank in a notebook, one question at a time.

Examples
--------
>>> bank = make_bank("ada", n=3)
>>> [q.kind for q in bank.questions] == [q.kind for q in make_bank("ada", n=3).questions]
True
>>> bank.score()
0.0
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from . import _checks
from ._kept import held_as
from .board import Cell, random_board
from .i18n import LANGUAGES, _, listed, speaking
from .trace import Trace, trace
from .words import BANK, ORDER_WORDS, caption

__all__ = ["KINDS", "TESTS", "Question", "Verdict", "Bank", "make_bank"]

#: The kinds of question, each with the order it is about (None: either).
KINDS = {
    "next": None,  # which cell is revealed next
    "last": None,  # which cell is revealed last
    "digit": None,  # what a cell shows once revealed
    "depth": "dfs",  # how deep the call that reveals a cell is
    "layer": "bfs",  # the layer a cell is revealed in
    "waiting": None,  # which cells are on the stack, or in the queue, at a step
    "order": None,  # which order made a picture
}
#: How each kind is answered: a cell, some cells, or one of the question's choices.
ANSWERED_BY = {
    "next": "cell",
    "last": "cell",
    "digit": "choice",
    "depth": "choice",
    "layer": "choice",
    "waiting": "cells",
    "order": "choice",
}
#: What a picture of each kind shows: the step's cell in amber, the stack or queue outlined, mines.
_SHOWS = {"next": (True, True), "waiting": (True, False), "order": (False, False), "depth": (True, False)}


@dataclass(frozen=True)
class Question:
    """One question of a bank: its board, click and order, and what is asked.

    Attributes
    ----------
    kind : str
        One of `KINDS`.
    order : {"dfs", "bfs"} or None
        The order of the reveal asked about; None for an ``"order"`` question,
        whose answer it is (nothing a student reads before answering holds it).
    board : tuple of str
        The board before the click, as rows of symbols.
    click : (int, int)
    step : int
        The step of the reveal the picture shows (-1: before the click).
    cell : (int, int) or None
        The cell asked about, outlined in the picture, if any.
    prompt : str
        The question in words.
    choices : tuple of str
        What may be chosen, for the kinds answered by a choice; empty otherwise.
    answered_by : {"cell", "cells", "choice"}
    """

    kind: str
    order: str | None
    board: tuple
    click: Cell
    step: int
    cell: Cell | None
    prompt: str
    choices: tuple = ()
    answered_by: str = "cell"
    show_current: bool = False
    show_waiting: bool = False
    show_mines: bool = False
    _solution: object = field(default=None, repr=False, compare=False)
    _order: str = field(default="dfs", repr=False, compare=False)

    @cached_property
    def _trace(self) -> Trace:
        """The reveal the question is about (worked out once, for its picture and its verdicts).

        Private, as its order and the whole reveal are the answers; the kit at
        hand can work out every answer all the same (`msviz.trace`): the guide says
        what a bank can prove and what it cannot."""
        return trace(list(self.board), self.click, order=self._order)

    def to_dict(self) -> dict:
        """The question as plain data (without its answer)."""
        return {
            "kind": self.kind,
            "order": self.order,
            "board": list(self.board),
            "click": list(self.click),
            "step": self.step,
            "cell": None if self.cell is None else list(self.cell),
            "prompt": self.prompt,
            "choices": list(self.choices),
        }


@dataclass(frozen=True)
class Verdict:
    """What `Bank.answer` says: right or wrong, why, and whether it counted (the first answer does)."""

    right: bool
    reason: str
    counted: bool = True

    def __str__(self) -> str:
        if not self.reason:  # homework: right or wrong, nothing more
            said = BANK["right_only" if self.right else "wrong_only"]
            return said if self.counted else said + BANK["not_counted"]
        said = BANK["right" if self.right else "wrong"].format(reason=self.reason)
        return said if self.counted else said + BANK["not_counted"]

    __repr__ = __str__


class Bank:
    """Questions for one student; answer them with `answer`, read `score`.

    Make one with :func:`make_bank` (or :func:`msviz.quiz_bank` to show it).
    The first answer to a question counts; a later one is judged, not counted.
    """

    def __init__(self, seed: str, questions: list[Question], *, homework: bool = False, test=None):
        self.seed = seed
        self.questions = tuple(questions)
        self.homework = homework
        self.test = test  # None, or "pre" / "post": a lesson's test before and after
        self.answers: list[tuple[object, bool] | None] = [None] * len(questions)

    def __len__(self) -> int:
        return len(self.questions)

    def answer(self, i: int, value) -> Verdict:
        """Answer question `i` with `value`: a cell ``(row, col)``, a list of cells, or a choice.

        An answer that cannot be right (a cell off the board, a choice not
        offered, a value of the wrong type) raises `ValueError` or `TypeError`
        and counts for nothing.

        Examples
        --------
        >>> bank = make_bank("ada", n=3)
        >>> bank.questions[1].kind, bank.answer(1, (2, 2)).right
        ('last', False)
        >>> bank.answer(1, (0, 3))  # right, but only the first answer counts
        Right: (0, 3) is revealed last, at step 21. (only your first answer to a question counts)
        >>> bank.answer(0, "(2, 4)")  # question 0 wants a list of cells
        Traceback (most recent call last):
        ...
        TypeError: the answer must be a list of cells (row, col), not '(2, 4)'
        """
        given, verdict = self.judge(i, value)
        first = self.answers[i] is None
        if first:
            self.answers[i] = (given, verdict.right)
        return Verdict(verdict.right, verdict.reason, counted=first)

    def judge(self, i: int, value) -> tuple[object, Verdict]:
        """Judge `value` as an answer to question `i`, keeping nothing: the answer as read, and the
        verdict it gets as a first answer. Raises as `answer` does.

        Examples
        --------
        >>> bank = make_bank("ada", n=3)
        >>> bank.judge(1, (0, 3)), bank.answered
        (((0, 3), Right: (0, 3) is revealed last, at step 21.), 0)
        """
        i = _checks.whole_number("question", i, least=0, most=len(self) - 1)
        question = self.questions[i]
        given = _read_answer(question, value)
        right = given == question._solution
        return given, Verdict(right, "" if self.homework else _reason(question, given, right))

    @property
    def answered(self) -> int:
        """How many questions have an answer."""
        return sum(a is not None for a in self.answers)

    @property
    def right(self) -> int:
        """How many questions were answered right (their first answer)."""
        return sum(1 for a in self.answers if a and a[1])

    def score(self) -> float:
        """The fraction of the questions answered right (first answers), 0.0 before any answer."""
        return self.right / len(self) if len(self) else 0.0

    def points(self, out_of: float = 10.0) -> float:
        """The score as points out of `out_of`, rounded to two places (for a gradebook)."""
        out_of = _checks.real_number("out_of", out_of, least=0)
        return round(self.score() * out_of, 2)

    def line(self, i: int, value, *, name: str | None = None) -> str:
        """The line of code that gives answer `value` to question `i` again (for the student to keep).

        It calls the bank by `name`, else by the name the notebook holds it
        under (``pre``, ``post``, ``bank``...), else ``pre``, ``post`` or
        ``bank`` as its test is: pasted under the cell that made it, it runs.

        Examples
        --------
        >>> pre = make_bank("ada", n=2, test="pre")
        >>> pre.line(1, 2)
        "pre.answer(1, '2')"
        """
        given = _read_answer(self.questions[i], value)
        if name is None:
            name = held_as(self, self.test or "bank")
        return f"{name}.answer({i}, {_as_code(given)})"

    def to_dict(self) -> dict:
        """The bank as plain JSON-able data: the seed, the questions, the answers, the score."""
        answered = [
            {"answer": None, "right": None} if a is None else {"answer": _as_data(a[0]), "right": a[1]}
            for a in self.answers
        ]
        return {
            "seed": self.seed,
            "test": self.test,
            "questions": [q.to_dict() | a for q, a in zip(self.questions, answered)],
            "answered": self.answered,
            "right": self.right,
            "score": self.score(),
        }

    def __repr__(self) -> str:
        return (
            f"<{self.test + '-test' if self.test else 'quiz bank'} for {self.seed!r}: {len(self)} questions, "
            f"{self.answered} answered, "
            f"score {self.score():.2f}>"
        )


# ---- making questions --------------------------------------------------------------------------


#: The tests a bank may be: before a lesson and after it (each from streams of its own).
TESTS = ("pre", "post")


def make_bank(seed, n: int = 10, *, homework: bool = False, test=None) -> Bank:
    """Return a bank of `n` questions made from `seed`: the same seed, the same questions.

    With ``test="pre"`` or ``"post"`` it is a lesson's test before or after: the
    same kinds of question on other boards, drawn from streams of their own, so
    that the pre-test, the post-test and the homework bank of a student never
    share a question.

    With `homework`, a verdict says only right or wrong, never the right
    answer (so a bank made again in a scratch notebook does not hand out the
    answers one by one).

    Every kind of `KINDS` appears in a bank of 8 or more (the next cell twice:
    depth-first and breadth-first); the rest are drawn at random. A smaller
    bank is the first questions of a larger one from the same seed.

    Examples
    --------
    >>> bank = make_bank("student 12", n=8)
    >>> sorted({q.kind for q in bank.questions}) == sorted(KINDS)
    True
    >>> make_bank("", n=3)
    Traceback (most recent call last):
    ...
    ValueError: seed must be a name or number with something in it, not ''
    """
    if isinstance(seed, bool) or not isinstance(seed, (str, int, np.integer)):
        raise TypeError(f"seed must be a student's name (str) or number (int), not {type(seed).__name__}")
    seed = str(seed).strip()
    if not seed:
        raise ValueError(f"seed must be a name or number with something in it, not {seed!r}")
    n = _checks.whole_number("n", n, least=1, most=100)
    if test is not None and test not in TESTS:
        raise ValueError(f"test must be 'pre', 'post' or None, not {_checks.clip(test)}")
    stream = f"msviz quiz bank: {seed}" + (f": {test}-test" if test else "")
    # Each question from its own stream: a bank of 5 is the first 5 questions of the bank of 10.
    rng = random.Random(stream)
    plan = [("next", "dfs"), ("next", "bfs"), ("last", None), ("digit", None), ("depth", "dfs")]
    plan += [("layer", "bfs"), ("waiting", None), ("order", None)]
    rng.shuffle(plan)
    while len(plan) < n:
        kind = rng.choice(sorted(KINDS))
        plan.append((kind, KINDS[kind]))
    questions = [
        _question(random.Random(f"{stream}: question {i}"), kind, order)
        for i, (kind, order) in enumerate(plan[:n])
    ]
    if not isinstance(homework, bool):
        raise TypeError(f"homework must be True or False, not {_checks.clip(homework)}")
    return Bank(seed, questions, homework=homework, test=test)


def _question(rng: random.Random, kind: str, order: str | None) -> Question:
    """One question of `kind`, on a board of its own (tried again until the board suits it)."""
    while True:
        t = _reveal(rng, order or rng.choice(("dfs", "bfs")))
        made = _MAKERS[kind](rng, t)
        if made is not None:
            step, cell, solution, choices = made
            current, waiting = _SHOWS.get(kind, (False, False))
            return Question(
                kind,
                None if kind == "order" else t.order,
                tuple("".join(row) for row in t.board),
                t.click,
                step,
                cell,
                BANK.get(f"ask_{kind}_{t.order}", BANK.get(f"ask_{kind}")).format(**_where(t, step, cell)),
                tuple(choices),
                ANSWERED_BY[kind],
                show_current=current,
                show_waiting=waiting,
                show_mines=kind in ("digit", "last"),  # what a student needs to work the answer out
                _solution=solution,
                _order=t.order,
            )


def _reveal(rng: random.Random, order: str) -> Trace:
    """A small board with a click that opens a region of at least 8 cells, and its reveal."""
    while True:
        rows, cols = rng.randint(6, 8), rng.randint(6, 9)
        click = (rng.randrange(rows), rng.randrange(cols))
        board = random_board(rows, cols, rng.randint(6, 11), seed=rng.randrange(2**31), safe=click)
        t = trace(board, click, order=order)
        if 8 <= len(t):
            return t


def _cell(t: Trace, k: int) -> Cell:
    return int(t.row[k]), int(t.col[k])


def _where(t: Trace, step: int, cell) -> dict:
    """The words every prompt may use: the order, the click, the step and its cell, the cell asked."""
    words = {"order": ORDER_WORDS[t.order], "click": t.click, "step": step, "count": step + 1}
    words["shown"] = _cell(t, step) if step >= 0 else None
    words["cell"] = cell
    return words


def _next(rng, t):
    k = rng.randrange(0, len(t) - 1)
    return k, None, _cell(t, k + 1), ()


def _last(rng, t):
    return -1, None, _cell(t, len(t) - 1), ()


def _digit(rng, t):
    cells = [_cell(t, k) for k in range(1, len(t))]
    digits = [c for c in cells if t.final[c] != "B"]
    cell = rng.choice(digits if digits and rng.random() < 0.7 else cells)
    return -1, cell, str(t.final[cell]), ("B", *"12345678")


def _depth(rng, t):
    """Depth (DFS) or layer (BFS) of a cell: the picture is the step that reveals it, stack shown."""
    deepest = int(t.depth.max())
    steps = [k for k in range(1, len(t)) if 1 <= t.depth[k] <= 9]
    if not steps:
        return None
    k = rng.choice(steps)
    cell = _cell(t, k)
    most = min(max(deepest, 3) + 1, 10)
    step = k if t.order == "dfs" else len(t) - 1
    return step, cell, str(int(t.depth[k])), tuple(str(d) for d in range(most + 1))


def _waiting(rng, t):
    steps = [k for k in range(1, len(t) - 1) if 2 <= int(t.frontier_at(k).sum()) <= 8]
    if not steps:
        return None
    k = rng.choice(steps)
    cells = frozenset(zip(*map(lambda a: a.tolist(), np.nonzero(t.frontier_at(k)))))
    return k, None, cells, ()


def _order(rng, t):
    other = trace(t.board, t.click, order="bfs" if t.order == "dfs" else "dfs")
    apart = [
        k for k in range(1, min(len(t), len(other)) - 1) if (t.revealed_at(k) != other.revealed_at(k)).any()
    ]
    if not apart:
        return None
    k = apart[len(apart) // 2]
    choices = (ORDER_WORDS["dfs"], ORDER_WORDS["bfs"])
    return k, None, t.order, choices


_MAKERS = {
    "next": _next,
    "last": _last,
    "digit": _digit,
    "depth": _depth,
    "layer": _depth,
    "waiting": _waiting,
    "order": _order,
}


# ---- reading and judging answers --------------------------------------------------------------


def _read_answer(question: Question, value):
    """`value` in the form the question's solution has; TypeError or ValueError if it cannot be one."""
    shape = (len(question.board), len(question.board[0]))
    if question.answered_by == "cell":
        cell = _checks.click(value, shape, name="the answer")
        if question.kind == "next" and bool(question._trace.revealed_at(question.step)[cell]):
            raise ValueError(BANK["refused_revealed"].format(cell=cell))
        return cell
    if question.answered_by == "cells":
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            raise TypeError(
                _("the answer must be a list of cells (row, col), not {value}").format(
                    value=_checks.clip(value)
                )
            )
        cells = [_checks.click(cell, shape, name="a cell of the answer") for cell in value]
        if not cells:
            raise ValueError(BANK["refused_empty"])
        return frozenset(cells)
    return _read_choice(question, value)


def _read_choice(question: Question, value) -> str:
    """A choice: one offered, or what names it (an int for a digit or a depth, 'dfs' for an order)."""
    if question.kind == "order":
        if not isinstance(value, str):
            said = _("the answer must be 'dfs' or 'bfs', not {kind}: {value}")
            raise TypeError(said.format(kind=type(value).__name__, value=_checks.clip(value)))
        names = {key: key for key in ORDER_WORDS}
        for language in (*LANGUAGES, None):  # an answer kept in one language reads the same in another
            with speaking(language):
                names |= {name.lower(): key for key, name in ORDER_WORDS.items()}
        if value.strip().lower() not in names:
            raise ValueError(_("the answer must be 'dfs' or 'bfs', not {value}").format(value=repr(value)))
        return names[value.strip().lower()]
    if isinstance(value, bool) or not isinstance(value, (str, int, np.integer)):
        raise TypeError(_one_of(question).format(value=_checks.clip(value)))
    text = str(value).strip()
    if question.kind == "digit" and text == "0":
        text = "B"  # no adjacent mines: a blank
    if text not in question.choices:
        raise ValueError(_one_of(question).format(value=repr(value)))
    return text


def _one_of(question: Question) -> str:
    """What a choice question's answer must be, in the language spoken: a template with ``{value}``."""
    choices = listed(repr(choice) for choice in question.choices)
    return _("the answer must be one of {choices}, not {value}").replace("{choices}", choices)


def _reason(question: Question, given, right: bool) -> str:
    """Why an answer is right or wrong, in words."""
    solution, cell = question._solution, question.cell
    t = question._trace
    if question.kind == "next":
        if not right and bool(t.revealed_at(question.step)[given]):
            return BANK["why_revealed"].format(cell=given, answer=solution)
        return BANK["why_next"].format(answer=solution, caption=caption(t, question.step + 1))
    if question.kind == "last":
        return BANK["why_last"].format(answer=solution, last=len(t) - 1)
    if question.kind == "digit":
        return BANK["why_blank" if solution == "B" else "why_digit"].format(cell=cell, answer=solution)
    if question.kind in ("depth", "layer"):
        number = int(solution)
        return BANK[f"why_{question.kind}"].format(cell=cell, answer=number, before=number - 1)
    if question.kind == "waiting":
        cells = (
            listed(map(str, _in_order(t, solution))) or BANK["nothing"]
        )  # the stack's bottom, the queue's front first
        return BANK[f"why_waiting_{question.order}"].format(cells=cells, step=question.step)
    return BANK[f"why_order_{solution}"].format(**_witness(question))


def _witness(question: Question) -> dict:
    """A cell this order has revealed and the other has not at the picture's step, and one the other
    has revealed and this one has not (the question is made where there is such a pair)."""
    t = question._trace
    other = trace(t.board, t.click, order="bfs" if t.order == "dfs" else "dfs")
    here, there = t.revealed_at(question.step), other.revealed_at(question.step)
    ahead = [tuple(map(int, c)) for c in zip(*np.nonzero(here & ~there))]
    behind = [tuple(map(int, c)) for c in zip(*np.nonzero(there & ~here))]
    return {"ahead": ahead[0], "behind": behind[0], "count": question.step + 1}


def _in_order(t: Trace, cells) -> list[Cell]:
    """Cells of the stack from the click's call up (the order the calls began), or of the queue
    from its front (the order they are taken out)."""
    when = t.enter_step_map if t.order == "dfs" else t.leave_step_map
    return sorted(cells, key=lambda cell: int(when[cell]))


def _as_code(given) -> str:
    if isinstance(given, frozenset):
        return repr(sorted(given))
    return repr(given)


def _as_data(given):
    if isinstance(given, frozenset):
        return [list(cell) for cell in sorted(given)]
    return list(given) if isinstance(given, tuple) else given
