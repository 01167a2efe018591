"""The quiz bank in a notebook: one widget that asks a bank's questions one at a time.

`quiz_bank` makes a bank from a seed (`msviz.bank`) and shows it. A question's
picture is drawn in the kernel by msviz's renderer (`msviz.render`): a small
board at one step, the cell asked about in amber. The student answers by
clicking cells or a choice (the keyboard works too); the widget says right or
wrong and why, and shows the line of code that gives the same answer again,
``bank.answer(i, value)``, for the student to keep in the notebook. The score a
teacher reads is the one those kept lines earn when the notebook is run again
in a fresh kernel: what a click did in a widget is not run again, a line is.

Its JavaScript is one part, ``msviz/js/bank.js`` (with `parts.js`'s `make`),
nothing built or fetched.
"""

from __future__ import annotations

import base64
import functools

import anywidget
import traitlets

from ._kept import held_as
from .bank import Bank, Question, Verdict, make_bank
from .frontend import BANK_ESM, CSS
from .i18n import LISTS, _, get_language, in_own_language, speaks, view_words
from .render import png, state_image
from .view import with_png
from .words import ACCESS, BANK, PAGE

__all__ = ["QuizBank", "quiz_bank"]

#: Pixels a cell of a question's picture (the boards are 6 to 9 cells a side).
CELL_PX = 32


@speaks
def quiz_bank(seed, n: int = 10, *, homework: bool = False, test=None) -> QuizBank:
    """Return a bank of `n` questions made from `seed` (a student's name or number), shown as one widget.

    The same seed gives the same questions; another seed, others. Answer with
    the widget, or in code with ``bank.answer(i, value)``; read ``bank.score()``.
    With `homework`, a verdict says only right or wrong; with ``test="pre"`` or
    ``"post"`` it is a lesson's test before or after, on boards of its own (see
    `msviz.bank.make_bank`).

    Examples
    --------
    >>> import msviz
    >>> bank = msviz.quiz_bank("ada", n=8)
    >>> len(bank.questions), bank.score()
    (8, 0.0)
    >>> q = bank.questions[0]
    >>> q.kind in {"next", "last", "digit", "depth", "layer", "waiting", "order"}
    True
    """
    return QuizBank(make_bank(seed, n, homework=homework, test=test))


class QuizBank(anywidget.AnyWidget):
    """A quiz bank and its widget: the questions of `bank`, one at a time.

    It answers to everything a `msviz.bank.Bank` does (`questions`, `answer`,
    `score`, `points`, `line`, `to_dict`); an answer given in code shows in the
    widget too.
    """

    _esm = BANK_ESM
    _css = CSS

    index = traitlets.Int(0).tag(sync=True)  # the question asked for (the widget's arrows move it)
    shown = traitlets.Int(0).tag(sync=True)  # the question the traits below are of, once drawn here
    total = traitlets.Int(0).tag(sync=True)
    rows = traitlets.Int(1).tag(sync=True)
    cols = traitlets.Int(1).tag(sync=True)
    picture = traitlets.Unicode("").tag(sync=True)  # the question's picture, a data: URL of a PNG
    prompt = traitlets.Unicode("").tag(sync=True)
    choices = traitlets.List(traitlets.Unicode()).tag(sync=True)
    #: The key that types each choice, where it is not the choice's first letter (an order: D and B).
    choice_keys = traitlets.Dict().tag(sync=True)
    answered_by = traitlets.Unicode("cell").tag(sync=True)  # "cell", "cells" or "choice"
    verdict = traitlets.Unicode("").tag(sync=True)  # what the last answer to this question got
    verdict_kind = traitlets.Unicode("").tag(sync=True)  # "right", "wrong", "refused" or ""
    keep = traitlets.Unicode("").tag(sync=True)  # the line that gives that answer again
    score_text = traitlets.Unicode("").tag(sync=True)
    words = traitlets.Dict().tag(sync=True)
    #: What the picture shows, in words (for a screen reader), and each cell's words for the cursor.
    description = traitlets.Unicode("").tag(sync=True)
    cell_words = traitlets.List(traitlets.Unicode()).tag(sync=True)
    #: The bank's name, its group's name for a screen reader: "Pre-test for 'ada'".
    group_name = traitlets.Unicode("").tag(sync=True)

    @traitlets.validate("index")
    def _valid_index(self, proposal) -> int:
        """A question of the bank, or a clear error naming the value."""
        value = proposal["value"]
        if not 0 <= value < len(self.bank):
            said = _("question {value} is outside this bank's questions 0-{last}")
            raise ValueError(said.format(value=value, last=len(self.bank) - 1))
        return value

    def __init__(self, bank: Bank):
        if not isinstance(bank, Bank):
            raise TypeError(f"a QuizBank shows a msviz.bank.Bank, not {type(bank).__name__}")
        self.bank = bank
        self._said: dict[int, tuple[str, str, str]] = {}
        self._pictures: dict[int, str] = {}  # each question's picture, a data: URL
        self.language = get_language()  # what it speaks: the language spoken when it was made
        super().__init__(total=len(bank), words=view_words(BANK, LISTS, ACCESS, language=self.language))
        self.observe(lambda change: self._show(), names="index")
        self.on_msg(self._heard)
        self._show()

    # ---- the bank's own API --------------------------------------------------------------------

    @property
    def questions(self) -> tuple[Question, ...]:
        return self.bank.questions

    @property
    def seed(self) -> str:
        return self.bank.seed

    @property
    def test(self):
        return self.bank.test

    @property
    def answers(self):
        return self.bank.answers

    @in_own_language
    def answer(self, i: int, value) -> Verdict:
        """Answer question `i` (see `msviz.bank.Bank.answer`); the widget shows the verdict."""
        verdict = self.bank.answer(i, value)
        counted, _ = self.bank.answers[i]  # the line to keep is the one that counted: the first answer
        line = self.bank.line(i, counted, name=held_as(self, self.bank.test or "bank"))
        self._said[i] = (str(verdict), "right" if verdict.right else "wrong", line)
        self._show()
        return verdict

    def score(self) -> float:
        """The fraction of questions answered right (each question's first answer)."""
        return self.bank.score()

    def points(self, out_of: float = 10.0) -> float:
        """The score as points out of `out_of`."""
        return self.bank.points(out_of)

    def line(self, i: int, value) -> str:
        """The line of code that gives answer `value` to question `i`, calling this bank by its name."""
        return self.bank.line(i, value, name=held_as(self, self.bank.test or "bank"))

    def to_dict(self) -> dict:
        """The bank as plain JSON-able data (`msviz.bank.Bank.to_dict`)."""
        return self.bank.to_dict()

    def __len__(self) -> int:
        return len(self.bank)

    # ---- the widget ------------------------------------------------------------------------------

    @in_own_language
    def _show(self) -> None:
        """Set the traits of the question at `index`: its picture, words, choices and last verdict."""
        i = min(max(self.index, 0), len(self.bank) - 1)
        question = self.bank.questions[i]
        said, kind, keep = self._said.get(i, ("", "", ""))
        with self.hold_sync():
            self.rows, self.cols = len(question.board), len(question.board[0])
            self.picture = self._picture(i)  # drawn once a question: an answer changes the words only
            self.prompt = question.prompt
            self.choices = list(question.choices)
            self.description, self.cell_words = question_words(question)
            self.group_name = BANK[f"group_{self.bank.test or 'bank'}"].format(seed=repr(self.bank.seed))
            self.choice_keys = dict(zip(question.choices, "db")) if question.kind == "order" else {}
            self.answered_by = question.answered_by
            self.verdict, self.verdict_kind, self.keep = said, kind, keep
            self.shown = i
            self.score_text = BANK["score"].format(
                right=self.bank.right, total=len(self), answered=self.bank.answered
            )

    @in_own_language
    def _heard(self, widget, content, buffers) -> None:
        """An answer from the browser: judged here, by the rules; a refused one is said, not scored."""
        if not isinstance(content, dict) or content.get("event") != "answer":
            return
        i = content.get("index", self.index)
        try:
            self.answer(i, content.get("value"))  # a cell as JSON's [row, col] reads as (row, col)
        except (TypeError, ValueError) as error:
            self._said[i] = (str(error), "refused", "")
            self._show()

    @in_own_language
    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        question = self.bank.questions[self.index]
        note = f"{BANK['question'].format(number=self.index + 1, total=len(self))}: {question.prompt}"
        return with_png(bundle, question_picture(question), note, around=self.rendition)

    def rendition(self, figure: str = "") -> str:
        """Return the HTML that asks this bank's questions with no kernel, as practice: every
        answer judged by looking up the verdict Python gives it (`practice_table`)."""
        from .rendition import rendition

        stage = {"words": self.words, "total": len(self)}
        table = practice_table(self.bank, self._picture)
        return rendition(stage, kind="bank", table=table, figure=figure, practice=PAGE["practice"])

    def _picture(self, i: int) -> str:
        """Question `i`'s picture, a data: URL (drawn once)."""
        if i not in self._pictures:
            self._pictures[i] = (
                "data:image/png;base64,"
                + base64.b64encode(png(question_picture(self.bank.questions[i]))).decode()
            )
        return self._pictures[i]


def practice_table(bank: Bank, picture) -> dict:
    """What a page with no kernel needs to ask `bank`'s questions and judge every answer: each
    question's words, its `picture(i)`, and the verdict Python gives each answer it can be given
    (`Bank.judge`): each cell, each choice; for a question answered by several cells, the cells
    that are right, and the verdict of right and of wrong. Each verdict is ``[words, kind, line]``
    (kind "right", "wrong" or "refused"; line: the line of code that gives that answer again).

    Examples
    --------
    >>> from msviz.bank import make_bank
    >>> bank = make_bank("ada", n=3)
    >>> table = practice_table(bank, lambda i: "")
    >>> first = table["questions"][1]  # which cell is revealed last: one verdict a cell
    >>> len(first["cells"]) == first["rows"] * first["cols"], first["cells"][3][1:]
    (True, ['right', 'bank.answer(1, (0, 3))'])
    >>> bank.answered  # nothing was answered to work it out
    0
    """
    questions = []
    for i, question in enumerate(bank.questions):
        rows, cols = len(question.board), len(question.board[0])
        entry = {
            "index": i,
            "rows": rows,
            "cols": cols,
            "picture": picture(i),
            "prompt": question.prompt,
            "choices": list(question.choices),
            "choice_keys": dict(zip(question.choices, "db")) if question.kind == "order" else {},
            "answered_by": question.answered_by,
        }
        said = functools.partial(_said, bank, i)
        if question.answered_by == "cell":
            entry["cells"] = [said((r, c)) for r in range(rows) for c in range(cols)]
        elif question.answered_by == "choice":
            entry["choices_said"] = {choice: said(choice) for choice in question.choices}
            entry["refused"] = ["", "refused", ""]
        else:
            right = sorted(question._solution)
            other = [cell for cell in ((0, 0), (0, 1)) if [cell] != right][:1]
            entry["solution"] = [r * cols + c for r, c in right]
            entry["right"], entry["wrong"] = said(right)[:2], said(other)[:2]
            entry["empty"] = said([])
        questions.append(entry)
    return {"questions": questions, "score": BANK["score"], "not_counted": BANK["not_counted"]}


def _said(bank: Bank, i: int, value) -> list[str]:
    """The verdict of answer `value` to question `i` of `bank`: ``[words, kind, line]``."""
    try:
        given, verdict = bank.judge(i, value)
    except (TypeError, ValueError) as error:
        return [str(error), "refused", ""]
    return [str(verdict), "right" if verdict.right else "wrong", bank.line(i, given)]


def question_picture(question: Question):
    """The picture of a question, as RGB: the board at its step, the cell asked (or the step's) amber.

    Examples
    --------
    >>> from msviz.bank import make_bank
    >>> q = make_bank("ada", n=1).questions[0]
    >>> question_picture(q).shape == (len(q.board) * CELL_PX, len(q.board[0]) * CELL_PX, 3)
    True
    """
    board, current, waiting = _shown(question)
    return state_image(
        board,
        current=current,
        frontier=waiting,
        px=CELL_PX,
        show_mines=question.show_mines,
        order=question._trace.order,
    )


def _shown(question: Question):
    """What a question's picture shows: the board at its step, the amber cell (or None), and the
    waiting cells' mask (or None)."""
    t = question._trace
    board = t.board_at(question.step)
    current = question.cell
    if current is None and question.step >= 0 and question.show_current:
        current = (int(t.row[question.step]), int(t.col[question.step]))
    if current is None and question.kind == "last":
        current = question.click
    waiting = t.frontier_at(question.step) if question.show_waiting else None
    return board, current, waiting


def _at(cells) -> str:
    return ", ".join(f"({r}, {c})" for r, c in cells)


def question_words(question: Question) -> tuple[str, list[str]]:
    """What a question's picture shows, in words: a description of it (the revealed cells and what
    they show, the mines shown, the waiting cells, the amber one), and each cell's words, row by row,
    for the keyboard's cursor.

    Examples
    --------
    >>> from msviz.bank import make_bank
    >>> q = make_bank("ada", n=1).questions[0]
    >>> said, cells = question_words(q)
    >>> said.startswith("The picture: "), len(cells) == len(q.board) * len(q.board[0])
    (True, True)
    """
    board, current, waiting = _shown(question)
    rows, cols = board.shape
    names = ACCESS["tile_names"]
    shown_as: dict[str, list] = {}
    words = []
    for r in range(rows):
        for c in range(cols):
            symbol = str(board[r, c])
            if symbol == "M" and not question.show_mines:
                symbol = "E"
            if symbol in ("B", *"12345678"):
                shown_as.setdefault(symbol, []).append((r, c))
            what = names[
                0 if symbol == "E" else 1 if symbol in "MX" else 2 if symbol == "B" else 2 + int(symbol)
            ]
            if waiting is not None and waiting[r, c]:
                what = BANK["cell_waiting"].format(what=what)
            if current == (r, c):
                what = BANK["cell_amber"].format(what=what)
            words.append(what)
    parts = []
    if shown_as:
        symbols = sorted(shown_as, key=lambda symbol: (symbol != "B", symbol))  # blanks first
        groups = "; ".join(BANK["shows_at"].format(symbol=s, cells=_at(shown_as[s])) for s in symbols)
        parts.append(BANK["describe_revealed"].format(groups=groups))
    else:
        parts.append(BANK["describe_none"])
    mines = [(r, c) for r in range(rows) for c in range(cols) if str(board[r, c]) in "MX"]
    if question.show_mines and mines:
        parts.append(BANK["describe_mines"].format(cells=_at(mines)))
    if waiting is not None:
        cells = [(r, c) for r in range(rows) for c in range(cols) if waiting[r, c]]
        said = BANK[f"describe_waiting_{question._trace.order}"]
        parts.append(said.format(cells=_at(cells) or BANK["nothing"]))
    if current is not None:
        parts.append(BANK["describe_amber"].format(cell=_at([current])))
    parts.append(BANK["describe_hidden"])
    return " ".join(parts), words
