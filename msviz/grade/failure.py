"""The first board a category failed on, as plain data and in words."""

from __future__ import annotations

from dataclasses import dataclass

from ..board import Board, format_board
from ..i18n import _, speaking
from .answers import describe, written
from .cases import Case
from .mistakes import hint_of, name_of
from .order import after_writes, first_touches
from .vocabulary import CATEGORIES

#: The most writes a failure keeps in `Report.to_dict` (enough to draw any order on a 50x50 board).
WRITES_KEPT = 20_000


@dataclass
class Failure:
    """The first board a category failed on.

    Attributes
    ----------
    category : str
        ``"examples"``, ``"tricky"``, ``"random"`` or ``"order"``.
    case : Case
        The board and the click (for random boards, the smallest that still
        fails with the same mistake).
    expected : board
        The right answer.
    got : object
        The answer, as a board when it could be read as one, else what was returned.
    bug : str
        A key of `BUGS`: the mistake's name and hint.
    error : str or None
        What went wrong, in words (a traceback, a time-out, what is not a board).
    found : Case or None
        The random board first found failing, when `case` is a smaller one.
    writes : tuple
        The writes seen, ``(row, col, symbol, depth)`` in order.
    order : str or None
        The order asked for: ``"dfs"``, ``"bfs"`` or None.
    got_text : str
        What was returned, described in a few words (read when it was returned).
    language : str or None
        The language its words are said in (None: the one spoken when they are read).
    """

    category: str
    case: Case
    expected: Board
    got: object
    bug: str
    error: str | None = None
    found: Case | None = None
    writes: tuple = ()
    order: str | None = None
    got_text: str = ""
    language: str | None = None

    # Plain data for whoever draws a failure (plot.draw_failure reads these, never the grader's code).
    @property
    def touched(self) -> list:
        """The cells written, in the order they were first touched."""
        return first_touches(self.case.board, self.writes)[0]

    @property
    def after(self) -> Board:
        """The board after the writes seen."""
        return after_writes(self.case.board, self.writes)

    @property
    def answer_text(self) -> str:
        """The answer as a board's rows, or as its description when it is not a board."""
        return board_text(self)

    @property
    def name(self) -> str:
        """The mistake's short name."""
        with speaking(self.language):
            return name_of(self.bug)

    @property
    def hint(self) -> str:
        """What to do about it."""
        with speaking(self.language):
            return hint_of(self.bug)

    def to_dict(self) -> dict:
        """The failure as plain JSON-able data: boards as rows of text, each write as a list."""
        got = _rows(self.got) if self.error is None else None
        return {
            "category": self.category,
            "bug": self.bug,
            "mistake": self.name,
            "hint": self.hint,
            "case": self.case.name,
            "board": _rows(self.case.board),
            "click": list(self.case.click),
            "expected": _rows(self.expected),
            "got": got,
            "got_text": self.got_text or (describe(self.got) if got is None and self.got is not None else ""),
            "error": self.error,
            "found": None if self.found is None else _case_dict(self.found),
            "writes": [[r, c, written(v), d] for r, c, v, d in self.writes[:WRITES_KEPT]],
            "order": self.order,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Failure:
        """The failure that `to_dict` made `data` from (a random board without its recipe)."""
        found = data.get("found")
        return cls(
            data["category"],
            _case(data["case"], data["board"], data["click"], data["category"]),
            _board(data["expected"]),
            _board(data.get("got")),
            data["bug"],
            data.get("error"),
            None if found is None else _case(found["case"], found["board"], found["click"], data["category"]),
            tuple(tuple(w) for w in data.get("writes", ())),
            data.get("order"),
            data.get("got_text") or "",
        )


def _rows(board) -> list[str] | None:
    """A board of one-letter strings as rows of text; None for anything else."""
    if not isinstance(board, list) or not board:
        return None
    rows = []
    for row in board:
        if not isinstance(row, list) or not all(type(cell) is str and len(cell) == 1 for cell in row):
            return None
        rows.append("".join(row))
    return rows if len({len(row) for row in rows}) == 1 else None


def _board(rows) -> Board | None:
    return None if rows is None else [list(row) for row in rows]


def _case_dict(case: Case) -> dict:
    return {"case": case.name, "board": _rows(case.board), "click": list(case.click)}


def _case(name: str, rows, click, category: str) -> Case:
    return Case(name, _board(rows), tuple(click), category)


def failure_text(f: Failure) -> str:
    """A failure in words: where, the mistake, the boards."""
    with speaking(f.language):
        return _failure_text(f)


def _failure_text(f: Failure) -> str:
    case = {"case": f.case.name, "size": f.case.size, "click": f.case.click}
    if f.found is None:
        where = _("{case} ({size}), click {click}").format(**case)
    else:
        where = _("{case} ({size}), click {click}, shrunk from {found} ({found_size})").format(
            **case, found=f.found.name, found_size=f.found.size
        )
    lines = [
        _("Wrong on {category}: {where}").format(category=CATEGORIES[f.category], where=where),
        _("Mistake: {mistake}. {hint}").format(mistake=f.name, hint=f.hint),
        _("board:"),
        format_board(f.case.board),
        _("expected:"),
        format_board(f.expected),
    ]
    if f.error:
        lines.append(_("but: {error}").format(error=f.error))
    elif f.category == "order":
        cells = f.touched
        lines += [
            _("your order (the cells in the order they were first touched):"),
            ", ".join(f"{r},{c}" for r, c in cells[:40]) + (" ..." if len(cells) > 40 else ""),
        ]
    else:
        lines += [_("got:"), board_text(f)]
    return "\n".join(lines)


def board_text(f: Failure) -> str:
    """The answer of a failure as a board's rows, or as its description when it is not a board."""
    if isinstance(f.got, list) and f.error is None:
        try:
            return format_board(f.got)
        except Exception:
            pass
    return f.got_text or "?"
