"""What one call of the student's function did (`Attempt`), and LeetCode's form (`as_function`).

The call itself is made by the runner (`msviz.grade.runner.raw`), which
reports what happened as plain data, and read by the judge
(`msviz.grade.judge.read_raw`), which makes the `Attempt` and names what
went wrong; `msviz.grade.judge.attempt` does both in one process.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

from ..board import Board
from .answers import describe
from .clock import TimeUp as TimeUp
from .clock import cpu_clock as cpu_clock
from .guard import Guard as Guard
from .vocabulary import FUNCTION_NAMES

__all__ = ["TimeUp", "Attempt", "Guard", "as_function", "cpu_clock"]


@dataclass
class Attempt:
    """What one call of the student's function did."""

    returned: object = None
    returned_text: str = ""  # a short description of what was returned, made under the limit
    board: Board | None = None  # the answer as a board, if it is one
    problem: str | None = None  # why there is no answer: an error, a time-out, not a board
    bug: str | None = None  # a key of BUGS, when the problem has a name
    notes: tuple[str, ...] = ()
    writes: tuple = ()
    recursed: bool = False
    deepest: int = 0
    given: list | None = None  # the board given, as the call left it
    cpu: float = 0.0  # CPU seconds the call used
    output: str = ""  # what it printed
    changed: tuple[str, ...] = ()  # what it changed in msviz or builtins

    @property
    def after(self) -> Board | None:
        """The board given, after the call: its rows' cells as stored (copied only when asked)."""
        if self.given is None:
            return None
        return [list.copy(row) if isinstance(row, list) else [] for row in list.copy(self.given)]


# ---------------------------------------------------------------------------
# LeetCode's form


def as_function(solution, who: str = "check"):
    """Return the student's solution as a function ``f(board, click)``, or raise a one-line TypeError.

    Takes a function, a bound method, or a class with an ``updateBoard`` (or
    ``update_board``) method, as LeetCode writes it; a new object of the class
    is made for each board, as LeetCode does for each test.

    Examples
    --------
    >>> class Solution:
    ...     def updateBoard(self, board, click):
    ...         return board
    >>> as_function(Solution)([["B"]], [0, 0])
    [['B']]
    >>> as_function(Solution.updateBoard)
    Traceback (most recent call last):
    ...
    TypeError: check needs updateBoard bound to a Solution: pass Solution().updateBoard, or the class Solution
    """
    if inspect.isclass(solution):
        name = next((n for n in FUNCTION_NAMES if callable(getattr(solution, n, None))), None)
        if name is None:
            raise TypeError(
                f"{who} was given the class {solution.__name__}, which has no updateBoard method: "
                "write def updateBoard(self, board, click) in it, or pass a function"
            )

        def solve(board, click):
            return getattr(solution(), name)(board, click)

        solve.__name__ = solve.__qualname__ = f"{solution.__name__}().{name}"
        return solve
    if not callable(solution):
        raise TypeError(f"{who} needs a function update_board(board, click), not {describe(solution)}")
    try:
        parameters = list(inspect.signature(solution).parameters.values())
    except (TypeError, ValueError):  # a builtin or an odd callable: try it as it is
        return solution
    parts = str(getattr(solution, "__qualname__", "")).split(".")
    if (
        inspect.isfunction(solution)
        and len(parts) > 1
        and parts[-2] != "<locals>"
        and parameters
        and parameters[0].name == "self"
    ):
        owner, method = parts[-2], parts[-1]
        raise TypeError(
            f"{who} needs {method} bound to a {owner}: pass {owner}().{method}, or the class {owner}"
        )
    try:
        inspect.signature(solution).bind(None, None)
    except TypeError:
        names = ", ".join(p.name for p in parameters) or "nothing"
        raise TypeError(
            f"{who} calls your function as update_board(board, click), but it takes ({names})"
        ) from None
    return solution
