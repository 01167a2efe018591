"""The recording board: rows that log every cell written, and how deep in the student's calls."""

from __future__ import annotations

import copy
import operator
import os
import sys

from ..board import Board
from .clock import (
    _LIBRARY,
)

_set_item = list.__setitem__


_frame = sys._getframe


class _Row(list):
    """A row of the board given to the student: a list that logs each cell written."""

    __slots__ = ("_run", "_r", "_log")

    def __setitem__(self, index, value):
        _set_item(self, index, value)
        if type(index) is int and index >= 0:  # the usual board[r][c] = ..., first and fast
            run = self._run
            if run.top is _frame(1):  # written from the same frame as the last write: same depth
                self._log((self._r, index, value, run.last))
            else:
                run.wrote(self._r, index, value)
        elif isinstance(index, slice):
            for c in range(*index.indices(len(self))):
                self._run.wrote(self._r, c, list.__getitem__(self, c))
        else:
            c = operator.index(index)
            self._run.wrote(self._r, c + len(self) if c < 0 else c, value)

    # A copy is a plain list: writes to it are not the board's.
    def __copy__(self):
        return list(self)

    def __deepcopy__(self, memo):
        return [copy.deepcopy(x, memo) for x in self]

    def __reduce_ex__(self, protocol):
        return list, (list(self),)


class Writes:
    """The writes of one run, each with its depth in the student's own calls.

    A write's depth is the number of the student's frames between it and the
    call of the student's function. The frames seen at the last write are
    kept as a chain, so each write walks up only the frames that are new
    since then: a deep recursion costs the grader no more per write than a
    shallow one.
    """

    def __init__(self):
        self.log: list[tuple[int, int, object, int]] = []
        self.recursed = False
        self.deepest = 0
        self.entry = None
        self._chain: list[tuple[object, int, bool]] = []  # (frame, depth so far, is the student's)
        self._where: dict[int, int] = {}  # id(frame) -> its place in the chain
        self._codes: dict = {}  # the student's code objects in the chain -> how often
        self._user: dict = {}
        self.last = 0  # the depth logged with the last write
        self.top = None  # the frame that made the last write

    def wrote(self, r: int, c: int, value) -> None:
        frame = sys._getframe(2)  # the frame that wrote (past _Row.__setitem__)
        new, place = [], -1
        while frame is not None and frame is not self.entry:
            i = self._where.get(id(frame))
            if i is not None and self._chain[i][0] is frame:
                place = i
                break
            new.append(frame)
            frame = frame.f_back
        for old, _, user in self._chain[place + 1 :]:
            del self._where[id(old)]
            if user:
                self._codes[old.f_code] -= 1
        del self._chain[place + 1 :]
        depth = self._chain[-1][1] if self._chain else 0
        for f in reversed(new):
            user = self.is_user(f.f_code)
            if user:
                depth += 1
                seen = self._codes.get(f.f_code, 0)
                self.recursed = self.recursed or seen > 0
                self._codes[f.f_code] = seen + 1
            self._where[id(f)] = len(self._chain)
            self._chain.append((f, depth, user))
        self.deepest = max(self.deepest, depth)
        self.last, self.top = max(depth - 1, 0), self._chain[-1][0] if self._chain else None
        self.log.append((r, c, value, self.last))

    def forget_frames(self) -> None:
        """Let go of the frames held (and so of their variables)."""
        self._chain.clear()
        self.top = None
        self._where.clear()
        self._codes.clear()
        self.entry = None

    def is_user(self, code) -> bool:
        """Whether `code` is the student's (not Python's library, not msviz)."""
        known = self._user.get(code)
        if known is None:
            name = code.co_filename
            known = not (
                name.startswith("<frozen") or os.path.normcase(os.path.abspath(name)).startswith(_LIBRARY)
            )
            self._user[code] = known
        return known

    def calls_in(self, tb) -> int:
        """How many of the student's frames a traceback holds (how deep a RecursionError went)."""
        n = 0
        while tb is not None:
            n += self.is_user(tb.tb_frame.f_code)
            tb = tb.tb_next
        return n


def recording_board(board: Board, writes: Writes) -> list:
    """The board given to the student: a plain list (reads of it stay at full speed) of recording rows."""
    rows = []
    for r, row in enumerate(board):
        recorded = _Row(row)
        recorded._run, recorded._r, recorded._log = writes, r, writes.log.append
        rows.append(recorded)
    return rows


def replaced_rows(given: list, rows: list, board: Board, writes: Writes) -> list[str]:
    """Log the cells of rows put in place whole (``board[r] = [...]``), as written last; say so."""
    notes = []
    for r, (now, recorded) in enumerate(zip(given, rows)):
        if now is recorded or not isinstance(now, list):
            continue
        now = list.copy(now)  # its cells as stored: no method of the student's is called
        changed = [c for c, (a, b) in enumerate(zip(now, board[r])) if type(a) is not str or a != b]
        writes.log.extend((r, c, now[c], 0) for c in changed)
        notes.append(
            f"row {r} was put in place whole (board[{r}] = ...): its cells count as written last; "
            "write cell by cell, board[r][c] = ..., for the order to be seen"
        )
    return notes
