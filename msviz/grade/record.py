"""`record`: the student's function run once on a recording board, to watch it step by step."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property

from .. import _checks
from ..board import SYMBOLS, Board, Cell, check_click, parse_board
from ..i18n import _, speaks
from ..trace import Trace, trace_of_cells, trace_of_writes
from . import child, runner
from .child import FORK, GRADER_CPU, INTERRUPTED, how_it_ended
from .order import after_writes, first_touches, is_breadth_first, order_notes
from .remote import Stopped
from .run import Attempt, as_function
from .verdict import attempt
from .vocabulary import MOST_TIME_LIMIT, ORDER_WORDS

__all__ = ["Recording", "record"]


@dataclass(frozen=True, eq=False)
class Recording:
    """A student's function run once on a board, every write seen. Make one with :func:`record`.

    Attributes
    ----------
    board : board
        The board given (never changed).
    click : (int, int)
    writes : tuple of (row, col, symbol, depth)
        Each cell written, in order; `depth` is how many calls of the
        student's own functions deep the write was made (0: the first call).
    returned : object
        What the function returned: the board, when it was one; else a few words describing it
        (the function runs in a process of its own, where there is fork).
    answer : board or None
        What it returned, read as a board (None if it could not be).
    problem : str or None
        What went wrong: an error, a time-out, a value that is not a board.
    recursed : bool
        Whether the student's code called itself.
    notes : tuple of str
        What a student should know about this run (writes to a copy, cells written twice).
    order_asked : str or None
        The order the run is to be read as, if one was given.
    output : str
        What the function printed.
    """

    board: Board
    click: Cell
    writes: tuple
    returned: object
    answer: Board | None
    problem: str | None
    recursed: bool
    notes: tuple
    order_asked: str | None = None
    output: str = ""

    @property
    def cells(self) -> list[Cell]:
        """The cells in the order they were first touched (first written with a new value)."""
        return first_touches(self.board, self.writes)[0]

    @property
    def after(self) -> Board:
        """The board as the writes seen left it."""
        return after_writes(self.board, self.writes)

    @cached_property
    def trace(self) -> Trace:
        """The run read as a reveal: a `Trace` with one step per cell touched, read as depth- or
        breadth-first (which cell led to which inferred from the order). See also `replay`."""
        return trace_of_cells(self.board, self.click, self.cells, self.after, order=self._reading())

    @cached_property
    def replay(self) -> Trace:
        """The run as it was made: a `Trace` with a step for every write (a cell written twice
        is seen twice), and nothing the recording did not see. :func:`msviz.player` and
        :func:`msviz.compare` show this one."""
        return trace_of_writes(self.board, self.click, self.writes, order=self.order)

    def _reading(self) -> str:
        """How to read the run: as asked; else depth-first if the code recursed or only a DFS
        makes this order; else breadth-first if the order goes layer by layer."""
        if self.order_asked or self.recursed:
            return self.order_asked or "dfs"
        if is_breadth_first(self.board, self.after, self.cells, self.click):
            return "bfs"
        return "dfs"

    @property
    def order(self) -> str:
        """The order the run is shown as: ``"dfs"`` or ``"bfs"``."""
        return self.trace.order

    def __len__(self) -> int:
        return len(self.cells)

    def __str__(self) -> str:
        said = _("{writes} writes to {cells} cells, shown as a {order} run")
        lines = [said.format(writes=len(self.writes), cells=len(self.cells), order=ORDER_WORDS[self.order])]
        if self.problem:
            lines.append(_("problem: {problem}").format(problem=self.problem))
        return "\n".join(lines + list(self.notes))


@speaks
def record(update_board, board, click, *, order=None, time_limit: float = 2.0) -> Recording:
    """Run `update_board(board, click)` once on a recording board; return a `Recording`.

    The function is given a copy of `board` whose rows are lists that log
    every cell written (``board[r][c] = ...``), in order. Writes to a copy of
    a row or of the board (``row[:]``, ``np.array(board)``, ``copy.deepcopy``)
    cannot be seen: the recording says so, and its `answer` is still what the
    function returned. Pass the recording to :func:`msviz.player` or
    :func:`msviz.compare` to watch it step by step beside the textbook.

    Parameters
    ----------
    update_board : callable or class
        The student's function, a bound method, or a class with ``updateBoard``.
    board, click
        As for :func:`msviz.reveal`. `board` is never changed.
    order : {"dfs", "bfs"}, optional
        How to read the run (which caption, stack or queue); by default
        depth-first if the code called itself, else breadth-first when the
        order is one a queue makes.
    time_limit : float
        CPU seconds before the function is stopped (see :func:`check`).
    language : str, optional
        The language of the recording's problem and notes (by default the one spoken now).

    Examples
    --------
    >>> def fill(board, click):
    ...     r, c = click
    ...     board[r][c] = "B"
    ...     board[r][c + 1] = "1"
    ...     return board
    >>> rec = record(fill, ["EEM"], (0, 0))
    >>> rec.cells, rec.answer
    ([(0, 0), (0, 1)], [['B', '1', 'M']])
    """
    function = as_function(update_board, "record")
    if order is not None:
        order = _checks.order(order)
    time_limit = _checks.real_number("time_limit", time_limit, above=0, most=MOST_TIME_LIMIT)
    rows = parse_board(board)
    click = check_click(click, (len(rows), len(rows[0])))
    if FORK and not runner.in_child:
        tried = _in_child(function, rows, click, time_limit)
    else:
        tried = attempt(function, rows, click, time_limit)
    notes = list(tried.notes)
    seen = after_writes(rows, tried.writes)
    if tried.board is not None and tried.board != seen and tried.board != tried.after:
        notes.append(
            _(
                "some cells of the answer changed with no write seen: writes to a copy of the board "
                "(row[:], np.array(board), copy.deepcopy) cannot be seen, only the board returned"
            )
        )
    notes += order_notes(rows, tried.writes, order)
    odd = sorted({repr(w[2]) for w in tried.writes if not (isinstance(w[2], str) and w[2] in SYMBOLS)})
    if odd:
        said = _("written symbols a board cannot hold, shown as hidden: {symbols}")
        notes.append(said.format(symbols=", ".join(odd[:5])))
    return Recording(
        rows,
        click,
        tried.writes,
        tried.returned,
        tried.board,
        tried.problem,
        tried.recursed,
        tuple(notes),
        order,
        tried.output,
    )


def _in_child(function, rows, click, time_limit: float) -> Attempt:
    """The run, made by a fenced runner and judged here; a death comes back as the attempt's problem."""
    cpu = time_limit + GRADER_CPU
    wall = max(60.0, 3 * cpu)
    before = child.resident()
    remote = child.start(function, cpu=cpu, wall=wall)
    try:
        tried = remote.attempt(rows, click, time_limit)
    except Stopped as stopped:
        status = stopped.ended.status
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == INTERRUPTED:
            raise KeyboardInterrupt from None
        bug, words = how_it_ended(stopped.ended, cpu, wall, before)
        return Attempt(
            returned=None, returned_text=_("nothing"), problem=words, bug=bug, output=stopped.ended.output
        )
    except BaseException:
        remote.finish("interrupted")
        raise
    remote.finish()
    return tried
