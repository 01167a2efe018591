"""Running the student's function: a recording board, a CPU-time limit, and a grader it cannot reach.

One call of the student's function is one `attempt`. It is given a fresh
recording board (rows that log every cell written, with how deep in the
student's own calls each write was made) and a click as a list, LeetCode's
way. It runs in the caller's own thread, so a notebook's output and recursion
work as usual, under these guards:

- A watcher thread reads the CPU time the student's thread has used (not the
  clock, so a busy machine gives the same verdict as a quiet one) and, past
  the limit, raises `TimeUp` in it; it raises it again every few milliseconds
  until the student's code is left, so a cleanup callback that swallows it
  does not stop it.
- What the function returns is read as a board under the same limit.
- Whatever it raises is reported, `KeyboardInterrupt` alone going on up.
- What it prints is kept, not shown; the recursion limit, `sys.modules` and the
  grader's modules are put back as they were after each call, and a change
  to them is reported.
- The answer is computed only after the function returned, so it is in no
  frame the function could look into.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import os
import sys
import traceback
from dataclasses import dataclass

from ..board import Board, Cell
from .answers import as_board, describe, written
from .clock import TimeUp as TimeUp
from .clock import (
    _Clock,
)
from .clock import cpu_clock as cpu_clock
from .guard import Guard as Guard
from .guard import msviz_uses
from .vocabulary import FUNCTION_NAMES, OUTPUT_KEPT
from .writes import Writes, recording_board, replaced_rows

__all__ = ["TimeUp", "Attempt", "Guard", "attempt", "as_function", "cpu_clock"]


# ---------------------------------------------------------------------------
# What the student's code may not change


# ---------------------------------------------------------------------------
# One attempt


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

    def to_dict(self) -> dict:
        """What `record` needs of the attempt, as plain JSON-able data (sent from a child process)."""
        return {
            "returned": self.board if self.board is not None else None,
            "returned_text": self.returned_text,
            "board": self.board,
            "problem": self.problem,
            "bug": self.bug,
            "notes": list(self.notes),
            "writes": [[r, c, written(v), d] for r, c, v, d in self.writes],
            "recursed": self.recursed,
            "deepest": self.deepest,
            "after": None if self.given is None else [[written(v) for v in row] for row in self.after],
            "cpu": self.cpu,
            "output": self.output,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Attempt:
        """The attempt `to_dict` made `data` from; what was returned is the board, or its description."""
        returned = data["returned"] if data["returned"] is not None else data["returned_text"]
        writes = tuple(tuple(w) for w in data["writes"])
        return cls(
            returned,
            data["returned_text"],
            data["board"],
            data["problem"],
            data["bug"],
            tuple(data["notes"]),
            writes,
            data["recursed"],
            data["deepest"],
            data["after"],
            data["cpu"],
            data["output"],
        )


class _Output(io.StringIO):
    """Where the student's prints go: kept up to `OUTPUT_KEPT` characters, the rest dropped."""

    def write(self, text):
        room = OUTPUT_KEPT - self.tell()
        if room > 0:
            super().write(str(text)[:room])
        return len(text)


def _keep_unraisable(printed: _Output):
    """A `sys.unraisablehook` for the student's run: errors in callbacks and ``__del__`` go to its output.

    The time-out landing in such a callback is dropped (it is raised again
    in the student's code); nothing reaches the notebook's stderr.
    """

    def hook(unraisable) -> None:
        if not isinstance(unraisable.exc_value, TimeUp):
            name = getattr(unraisable.exc_type, "__name__", "error")
            printed.write(f"Exception ignored in {describe(unraisable.object)}: {name}\n")

    return hook


def _call(function, given, click, shape, limit, writes, out: Attempt) -> None:
    """Call the function and read its answer, all under the CPU-time limit."""
    writes.entry = sys._getframe()
    with _Clock(limit) as clock:
        try:
            out.returned = function(given, click)
            out.returned_text = describe(out.returned)
            out.board, out.problem, out.notes, out.bug = as_board(out.returned, shape)
        finally:
            out.cpu = clock.used()


def attempt(function, board: Board, click: Cell, limit: float, guard: Guard | None = None) -> Attempt:
    """Run the student's function once on a recording copy of `board`; never raise but KeyboardInterrupt.

    Examples
    --------
    >>> def fill(board, click):
    ...     board[0][0] = "B"
    ...     return board
    >>> a = attempt(fill, [["E"]], (0, 0), 1.0)
    >>> a.board, a.writes, a.problem
    ([['B']], ((0, 0, 'B', 0),), None)
    """
    writes = Writes()
    given = recording_board(board, writes)
    rows = list(given)
    shape = (len(board), len(board[0]))
    out = Attempt()
    guard = guard or Guard()
    limit_before = sys.getrecursionlimit()
    uses = msviz_uses()
    printed = _Output()
    unraisable = sys.unraisablehook
    sys.unraisablehook = _keep_unraisable(printed)
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            _call(function, given, [click[0], click[1]], shape, limit, writes, out)
    except KeyboardInterrupt:
        raise
    except TimeUp as error:
        out.problem, out.bug = f"stopped after {limit:g} s of CPU time, the limit for one board", "too slow"
        deepest = max(writes.deepest, writes.calls_in(error.__traceback__))
        cells = shape[0] * shape[1]
        if deepest > cells + 2:
            out.bug = "endless recursion" if len(writes.log) < deepest / 2 else "revisits revealed cells"
        elif len(writes.log) > 2 * cells:
            out.bug = "queued many times"
            out.problem = (
                f"too slow on a {shape[0]}x{shape[1]} board: {len(writes.log)} writes to its {cells} cells "
                f"in {limit:g} s of CPU time: cells go into the queue many times; mark a cell when it goes in"
            )
    except RecursionError as error:
        deepest = max(writes.deepest, writes.calls_in(error.__traceback__))
        writes.recursed = True
        cells = shape[0] * shape[1]
        out.bug = "recursion limit"
        if deepest > cells + 2:
            out.bug = "endless recursion" if len(writes.log) < deepest / 2 else "revisits revealed cells"
        out.problem = (
            f"RecursionError: {deepest} nested calls on a {shape[0]}x{shape[1]} board ({cells} cells)"
            + (f", {len(writes.log)} cells written" if out.bug == "endless recursion" else "")
        )
    except MemoryError as error:
        out.problem = "MemoryError: " + (str(error) or "your function asked for more memory than there is")
        out.bug = "memory"
    except IndexError as error:
        out.problem = _short_traceback()
        out.bug = "off by one" if "out of range" in describe(error) else "crash"
    except BaseException:  # the student's error (SystemExit and GeneratorExit too), reported as text
        out.problem, out.bug = _short_traceback(), "crash"
    finally:
        sys.setrecursionlimit(limit_before)
        sys.unraisablehook = unraisable
        writes.forget_frames()
        out.changed = tuple(guard.restore())
    out.output = printed.getvalue()
    out.notes += tuple(replaced_rows(given, rows, board, writes))
    out.writes, out.recursed, out.deepest = tuple(writes.log), writes.recursed, writes.deepest
    out.given = given
    if out.changed:
        shown = ", ".join(out.changed[:3]) + (" ..." if len(out.changed) > 3 else "")
        out.problem, out.bug, out.board = f"your code changed {shown}", "changed the grader", None
    elif msviz_uses() - uses > 1 and out.bug in (None, "crash"):
        out.problem = "your function called msviz's reveal (or a trace or generator of msviz)"
        out.bug, out.board = "used msviz", None
    return out


def _short_traceback() -> str:
    """The traceback of the error being handled, without the grader's own frames."""
    kind, error, tb = sys.exc_info()
    here = os.path.normcase(os.path.dirname(os.path.abspath(__file__)))
    frames = [
        f
        for f in traceback.extract_tb(tb)
        if not os.path.normcase(os.path.abspath(f.filename)).startswith(here)
    ]
    try:
        last = traceback.format_exception_only(kind, error)
    except BaseException:  # an exception whose str() fails or loops
        last = [f"{kind.__name__}\n"]
    lines = traceback.format_list(frames[-4:]) + last
    return "".join(lines).rstrip()


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
