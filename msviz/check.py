"""Grade a student's ``update_board(board, click)`` against the rules, board after board.

:func:`check` runs the function on the problem's two examples, on tricky boards
(a single cell, a click on a mine, on a digit, on a revealed cell, a board that
is all blanks, a long thin corridor) and on many random boards, mid-game ones
included. It stops at the first board where the answer is wrong, and says what
was expected; in a notebook it draws the board, the expected answer and the
student's answer side by side.
"""

from __future__ import annotations

import copy
import random
import traceback
from dataclasses import dataclass

from .board import Board, format_board, random_board
from .traversal import reveal

__all__ = ["Case", "Report", "cases", "check"]


@dataclass(frozen=True)
class Case:
    """One board to try: a name, the board, the click."""

    name: str
    board: Board
    click: tuple[int, int]


@dataclass
class Report:
    """What :func:`check` found.

    Attributes
    ----------
    passed : int
        How many boards were answered right before the first wrong one.
    total : int
        How many boards there were.
    case : Case or None
        The first board answered wrong, or None if all were right.
    expected, got : board or None
        The right answer and the student's, for that board.
    error : str or None
        The traceback if the function raised, or what was wrong with its answer.
    """

    passed: int
    total: int
    case: Case | None = None
    expected: Board | None = None
    got: object = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        """Whether every board was answered right."""
        return self.case is None

    def __str__(self) -> str:
        if self.ok:
            return f"All {self.total} boards right. Well done!"
        lines = [
            f"{self.passed} of {self.total} boards right; wrong on: {self.case.name}, "
            f"click {self.case.click}",
            "board:",
            format_board(self.case.board),
            "expected:",
            format_board(self.expected),
        ]
        if self.error:
            lines += ["but: " + self.error.rstrip()]
        else:
            lines += ["got:", _text(self.got)]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        import html

        return f"<pre>{html.escape(str(self))}</pre>"

    def draw(self):
        """Draw the failing board, the expected answer and the student's; return the figure."""
        import matplotlib.pyplot as plt

        from .plot import draw_board

        if self.ok:
            return None
        got_is_board = self.error is None
        panels = 3 if got_is_board else 2
        fig, axes = plt.subplots(1, panels, figsize=(4 * panels, 3.6), layout="constrained")
        draw_board(self.case.board, ax=axes[0])
        axes[0].plot(self.case.click[1], self.case.click[0], "o", mfc="none", mec="#e6007e", ms=14, mew=2.5)
        axes[0].set_title(f"{self.case.name}: click {self.case.click}")
        draw_board(self.expected, ax=axes[1])
        axes[1].set_title("expected")
        if got_is_board:
            draw_board(self.got, ax=axes[2])
            axes[2].set_title("your answer")
            wrong = [
                (r, c)
                for r, row in enumerate(self.expected)
                for c, s in enumerate(row)
                if self.got[r][c] != s
            ]
            for r, c in wrong:
                axes[2].add_patch(plt.Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, ec="#e6007e", lw=2.5))
        return fig


def _text(board) -> str:
    try:
        return format_board(board)
    except (TypeError, ValueError):
        return repr(board)


def cases(*, random_boards: int = 200, seed: int = 529) -> list[Case]:
    """Return the boards :func:`check` tries: the examples, tricky ones, random ones."""
    out = [
        Case("LeetCode example 1", [list("EEEEE"), list("EEMEE"), list("EEEEE"), list("EEEEE")], (3, 0)),
        Case("LeetCode example 2", [list("B1E1B"), list("B1M1B"), list("B111B"), list("BBBBB")], (1, 2)),
        Case("a single hidden cell", [["E"]], (0, 0)),
        Case("a single mine", [["M"]], (0, 0)),
        Case("a click on a digit's cell", [list("EEE"), list("EEM")], (1, 1)),
        Case("a board with no mines at all", [list("EEEE") for _ in range(3)], (2, 3)),
        Case("one row", [list("EEEMEEEEME")], (0, 0)),
        Case("one column", [[s] for s in "EEMEEE"], (5, 0)),
        Case("a mine in every corner", [list("MEEEM"), list("EEEEE"), list("EEEEE"), list("MEEEM")], (1, 2)),
        Case("a digit wall with hidden cells behind it",
             [list("EEEEE"), list("MMMME"), list("EEEEE"), list("EMMMM"), list("EEEEE")], (0, 0)),
    ]
    rng = random.Random(seed)
    for i in range(random_boards):
        rows, cols = rng.randint(1, 12), rng.randint(1, 12)
        mines = rng.randint(0, rows * cols // 4)
        board = random_board(rows, cols, mines, seed=rng.randrange(10**6))
        if i % 3 == 2:  # mid-game: some safe clicks already made
            for _ in range(2):
                r, c = rng.randrange(rows), rng.randrange(cols)
                if board[r][c] == "E":
                    board = reveal(board, (r, c))
        hidden = [(r, c) for r in range(rows) for c in range(cols) if board[r][c] in "ME"]
        if not hidden:
            continue
        click = rng.choice(hidden)
        out.append(Case(f"random board {i}", board, click))
    return out


def check(update_board, *, random_boards: int = 200, seed: int = 529, show: bool = True) -> Report:
    """Run `update_board(board, click)` on many boards; return a `Report`.

    The function may change the board it is given and return it, or return a
    new one; it is given a copy each time. A click is passed as a list
    ``[row, col]``, as LeetCode does.

    Parameters
    ----------
    update_board : callable
        The student's solution.
    random_boards : int
        How many random boards to try after the fixed ones.
    seed : int
        The same seed tries the same boards.
    show : bool
        In a notebook, draw the first wrong board.

    Examples
    --------
    >>> import msviz
    >>> report = check(lambda board, click: msviz.reveal(board, click), show=False)
    >>> report.ok, report.total > 100
    (True, True)
    >>> print(check(lambda board, click: board, show=False, random_boards=0))
    0 of 10 boards right; wrong on: LeetCode example 1, click (3, 0)
    board:
    E E E E E
    E E M E E
    E E E E E
    E E E E E
    expected:
    B 1 E 1 B
    B 1 M 1 B
    B 1 1 1 B
    B B B B B
    got:
    E E E E E
    E E M E E
    E E E E E
    E E E E E
    """
    if not callable(update_board):
        raise TypeError(f"check needs a function update_board(board, click), not {update_board!r}")
    tries = cases(random_boards=random_boards, seed=seed)
    for passed, case in enumerate(tries):
        expected = reveal(case.board, case.click)
        given = copy.deepcopy(case.board)
        try:
            got = update_board(given, list(case.click))
        except Exception:
            return _failed(passed, tries, case, expected, given, traceback.format_exc(limit=-3), show)
        if got is None:
            return _failed(passed, tries, case, expected, None,
                           "update_board returned None: it should return the board", show)
        if got != expected:
            return _failed(passed, tries, case, expected, got, None, show)
    return Report(passed=len(tries), total=len(tries))


def _failed(passed, tries, case, expected, got, error, show) -> Report:
    report = Report(passed=passed, total=len(tries), case=case, expected=expected, got=got, error=error)
    if show and error is None and _in_notebook():
        import matplotlib.pyplot as plt

        report.draw()
        plt.show()
    return report


def _in_notebook() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and shell.__class__.__name__ == "ZMQInteractiveShell"
