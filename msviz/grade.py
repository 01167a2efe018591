"""Grade a student's ``update_board(board, click)``, and record it to watch it run.

:func:`check` runs the function on the problem's two examples, on tricky boards
and on many random ones, mid-game ones included, and returns a `Report`: how
many boards of each kind were answered right, the first wrong one (shrunk to
the smallest board that still fails), the mistake by name when it is a known
one, and a hint. With ``order="dfs"`` or ``"bfs"`` it also grades the order in
which the cells get their symbols.

:func:`record` runs the function once on a recording board, a list of rows
that log every write, and returns a `Recording`: the student's own run, which
:func:`msviz.player` and :func:`msviz.compare` show step by step.

Nothing the student's function does (raise, loop for ever, recurse without
end, return anything at all) makes :func:`check` or `Report.draw` raise.
"""

from __future__ import annotations

import copy
import html
import operator
import os
import random
import sys
import sysconfig
import threading
import time
import traceback
import types
from collections import deque
from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np

from ._checks import neighbors as _check_neighbors
from ._checks import order as _check_order
from .board import SYMBOLS, Board, Cell, format_board, parse_board
from .trace import Trace, trace, trace_of_cells
from .traversal import cells_around, reveal
from .words import count

__all__ = ["BUGS", "Case", "Recording", "Report", "Failure", "cases", "check", "record"]

#: The mistakes the grader recognises: a short name, and a hint for the student.
BUGS = {
    "bfs as dfs": (
        "a breadth-first order handed in as depth-first",
        "Your cells are revealed layer by layer, as a queue does. Depth-first goes as deep as it "
        "can first: reveal a blank's first hidden neighbour, and everything it leads to, before "
        "its second.",
    ),
    "dfs as bfs": (
        "a depth-first order handed in as breadth-first",
        "Your flood goes deep before it goes wide, as a stack or recursion does. Breadth-first "
        "reveals every cell one step from the click before any two steps away: take cells from "
        "the front of a queue (collections.deque, popleft).",
    ),
    "queued twice": (
        "cells marked when they leave the queue instead of when they enter",
        "Some cells were revealed more than once: two blank neighbours each put them in the "
        "queue. Mark a cell as seen when it goes into the queue, not when it comes out.",
    ),
    "written twice": (
        "the same cell written twice",
        "Some cells were given a symbol more than once. Give each cell its symbol once, when "
        "you know it: count the mines first, then write the digit or B.",
    ),
    "digits spread": (
        "digits that spread",
        "A digit stops the flood: only a blank (B), a cell with no mines around it, reveals its neighbours.",
    ),
    "four neighbours": (
        "4 neighbours instead of 8",
        "A cell has eight neighbours: the four diagonal ones count too, for the mines and for the flood.",
    ),
    "mine left as M": (
        "a mine click left as M",
        "Clicking a mine ends the game, and the mine shows as X: board[r][c] = 'X'.",
    ),
    "0 for B": (
        "0 instead of B",
        "A cell with no mines around it becomes 'B' (blank), not '0'.",
    ),
    "no recursion": (
        "no recursion",
        "Your function never calls itself, and its order is not one that calls make. A stack "
        "that takes all of a blank's neighbours at once reveals them in another order: call the "
        "reveal on each hidden neighbour in turn (notebook 03), or keep frames on the stack.",
    ),
    "not dfs": (
        "not a depth-first order",
        "A depth-first reveal finishes everything a neighbour leads to before it tries the next "
        "neighbour, trying the neighbours in the same order at every cell.",
    ),
    "not bfs": (
        "not a breadth-first order",
        "A breadth-first reveal goes layer by layer: every cell one step from the click, then "
        "every cell two steps away, and so on.",
    ),
    "wrong neighbour order": (
        "not the neighbour order asked for",
        "The order is a fine one, but not with the neighbours tried in the order given: follow "
        "that list of (dr, dc) at every cell.",
    ),
    "writes to a copy": (
        "writes to a copy",
        "The order could not be seen: your function wrote into a copy of the board "
        "(np.array(board), [row[:] for row in board], copy.deepcopy(board), ...). Write into "
        "the board you are given, board[r][c] = ..., and return it.",
    ),
    "too slow": (
        "too slow: probably an endless loop",
        "Your function was stopped after the time limit. Look for a loop that never ends: a "
        "cell put back on the stack or queue again and again because it was never marked.",
    ),
    "endless recursion": (
        "endless recursion",
        "Your function called itself deeper than Python's recursion limit allows. On these "
        "small boards a reveal needs far fewer calls: a cell is probably revealed again and "
        "again. Mark it (B) before you recurse on its neighbours.",
    ),
    "recursion limit": (
        "Python's recursion limit",
        "Python stops at sys.getrecursionlimit() nested calls (1000 by default), and a "
        "recursive reveal can go as deep as the board has cells (notebook 03). Use an "
        "explicit stack for large boards.",
    ),
    "crash": (
        "an error",
        "Your function raised an error: read the last lines of the traceback.",
    ),
    "returned nothing": (
        "returned None",
        "Return the board at the end of your function: return board.",
    ),
    "not a board": (
        "not a board",
        "Return the board: a list of rows, each a list of one-letter strings.",
    ),
    "wrong answer": (
        "a wrong board",
        "Compare your answer with the expected one, cell by cell.",
    ),
}

#: The categories of a report, in the order they are graded.
CATEGORIES = {
    "examples": "the problem's examples",
    "tricky": "tricky boards",
    "random": "random boards",
    "order": "order",
}


# ---------------------------------------------------------------------------
# The boards tried


@dataclass(frozen=True)
class Recipe:
    """How a random board is made: its size, its mines, and the safe clicks made before."""

    rows: int
    cols: int
    mines: tuple[Cell, ...]
    opened: tuple[Cell, ...] = ()

    def board(self) -> Board:
        """Return the board: hidden cells and mines, after the earlier clicks."""
        board = [["E"] * self.cols for _ in range(self.rows)]
        for r, c in self.mines:
            board[r][c] = "M"
        for cell in self.opened:
            if board[cell[0]][cell[1]] == "E":
                board = reveal(board, cell)
        return board


@dataclass(frozen=True)
class Case:
    """One board to try: a name, the board, the click, its category and (random boards) its recipe."""

    name: str
    board: Board
    click: Cell
    category: str = "tricky"
    recipe: Recipe | None = None

    @property
    def size(self) -> str:
        return f"{len(self.board)}x{len(self.board[0])}"


def _fixed(name: str, rows, click, category: str = "tricky") -> Case:
    return Case(name, [list(row) for row in rows], click, category)


def cases(*, random_boards: int = 200, seed: int = 529) -> list[Case]:
    """Return the boards :func:`check` tries: the examples, tricky ones, random ones.

    Examples
    --------
    >>> tries = cases(random_boards=3)
    >>> [c.category for c in tries].count("tricky"), tries[0].name
    (8, 'LeetCode example 1')
    """
    out = [
        _fixed("LeetCode example 1", ["EEEEE", "EEMEE", "EEEEE", "EEEEE"], (3, 0), "examples"),
        _fixed("LeetCode example 2", ["B1E1B", "B1M1B", "B111B", "BBBBB"], (1, 2), "examples"),
        _fixed("a single hidden cell", ["E"], (0, 0)),
        _fixed("a single mine", ["M"], (0, 0)),
        _fixed("a click on a digit's cell", ["EEE", "EEM"], (1, 1)),
        _fixed("a board with no mines at all", ["EEEE"] * 3, (2, 3)),
        _fixed("one row", ["EEEMEEEEME"], (0, 0)),
        _fixed("one column", list("EEMEEE"), (5, 0)),
        _fixed("a mine in every corner", ["MEEEM", "EEEEE", "EEEEE", "MEEEM"], (1, 2)),
        _fixed(
            "a digit wall with hidden cells behind it", ["EEEEE", "MMMME", "EEEEE", "EMMMM", "EEEEE"], (0, 0)
        ),
    ]
    rng = random.Random(seed)
    for i in range(random_boards):
        rows, cols = rng.randint(1, 12), rng.randint(1, 12)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        mines = tuple(sorted(rng.sample(cells, rng.randint(0, rows * cols // 4))))
        opened = tuple(rng.choice(cells) for _ in range(2)) if i % 3 == 2 else ()  # mid-game
        recipe = Recipe(rows, cols, mines, opened)
        board = recipe.board()
        hidden = [(r, c) for r, c in cells if board[r][c] in "ME"]
        if hidden:
            out.append(Case(f"random board {i}", board, rng.choice(hidden), "random", recipe))
    return out


# ---------------------------------------------------------------------------
# Running the student's function: a recording board, a time limit, recursion


class _Row(list):
    """A row of the recording board: a list that logs each cell written."""

    __slots__ = ("_run", "_r")

    def __setitem__(self, index, value):
        list.__setitem__(self, index, value)
        if isinstance(index, slice):
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


class _Board(list):
    """The recording board: a list of `_Row`; a row put in its place is logged cell by cell."""

    __slots__ = ("_run",)

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            list.__setitem__(self, index, value)
            return
        r = operator.index(index)
        r = r + len(self) if r < 0 else r
        row = _Row(value) if isinstance(value, (list, tuple)) else value
        if isinstance(row, _Row):
            row._run, row._r = self._run, r
            for c, symbol in enumerate(row):
                self._run.wrote(r, c, symbol)
        list.__setitem__(self, index, row)

    def __copy__(self):
        return list(self)

    def __deepcopy__(self, memo):
        return [copy.deepcopy(list(row) if isinstance(row, _Row) else row, memo) for row in self]

    def __reduce_ex__(self, protocol):
        return list, ([list(row) for row in self],)


class _TimeUp(BaseException):
    """Raised inside the student's function when its time is up (not an Exception: not caught by it)."""


def _library_paths() -> tuple[str, ...]:
    paths = {sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    paths.add(os.path.dirname(os.path.abspath(__file__)))
    return tuple(os.path.normcase(os.path.abspath(p)) for p in paths)


_LIBRARY = _library_paths()


def _interrupter():
    """Return a function that raises an exception in a thread, by its id; None where there is none."""
    try:
        import ctypes

        set_async = ctypes.pythonapi.PyThreadState_SetAsyncExc
    except (ImportError, AttributeError):  # not CPython
        return None

    def interrupt(thread: int, exception) -> None:  # exception None: withdraw a pending one
        set_async(ctypes.c_ulong(thread), None if exception is None else ctypes.py_object(exception))

    return interrupt


_INTERRUPT = _interrupter()


class _Clock:
    """Stops the calling thread's Python code after `limit` seconds, from a timer thread.

    The timer raises `_TimeUp` in the caller's thread (CPython's
    ``PyThreadState_SetAsyncExc``, on every platform); Python notices it at the
    next bytecode that checks for signals, which includes every jump back to
    the start of a loop. Once stopped, a pending exception is withdrawn.
    """

    def __init__(self, limit: float):
        self.limit = limit
        self.thread = threading.get_ident()
        self.lock = threading.Lock()
        self.armed = False
        self.fired = False
        self.timer = threading.Timer(limit, self._fire)
        self.timer.daemon = True

    def _fire(self) -> None:
        with self.lock:
            if self.armed:
                self.fired = True
                _INTERRUPT(self.thread, _TimeUp)

    def __enter__(self):
        self.armed = _INTERRUPT is not None
        self.timer.start()
        return self

    def __exit__(self, kind, error, tb):
        with self.lock:
            self.armed = False
            if self.fired and kind is not _TimeUp:
                _INTERRUPT(self.thread, None)  # fired but not raised yet: withdraw it
        self.timer.cancel()
        return False


class _Run:
    """One run of the student's function: the writes it made, and whether it called itself.

    Each write looks down the stack (only the student's frames, from the write
    to the call of the student's function): how many of them there are is the
    write's depth, and a function found twice there has called itself.
    """

    def __init__(self, limit: float):
        self.limit = limit
        self.writes: list[tuple[int, int, object, int]] = []
        self.recursed = False
        self.deepest = 0
        self.deadline = 0.0
        self._entry = None
        self._user: dict = {}

    def wrote(self, r: int, c: int, value) -> None:
        depth, codes = 0, set()
        frame = sys._getframe(2)  # the frame that wrote (past _Row.__setitem__)
        while frame is not None and frame is not self._entry:
            if self._is_user(frame.f_code):
                depth += 1
                self.recursed = self.recursed or frame.f_code in codes
                codes.add(frame.f_code)
            frame = frame.f_back
        self.deepest = max(self.deepest, depth)
        self.writes.append((r, c, value, max(depth - 1, 0)))

    def _is_user(self, code) -> bool:
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
        count = 0
        while tb is not None:
            count += self._is_user(tb.tb_frame.f_code)
            tb = tb.tb_next
        return count

    def _line(self, frame, event, arg):
        """Where no timer can stop the code: a trace function that reads the clock at every line."""
        if time.perf_counter() > self.deadline:
            raise _TimeUp
        return self._line

    def __call__(self, function, board, click):
        """Call ``function(board, click)``, stopped after the time limit; return what it returns."""
        self._entry = sys._getframe()
        self.deadline = time.perf_counter() + self.limit
        if _INTERRUPT is not None:
            with _Clock(self.limit):
                return function(board, click)
        old = sys.gettrace()
        sys.settrace(self._line)
        try:
            return function(board, click)
        finally:
            sys.settrace(old)


@dataclass
class _Attempt:
    """What one call of the student's function did."""

    returned: object = None
    board: Board | None = None  # the answer as a board, if it is one
    problem: str | None = None  # why there is no answer: an error, a time-out, not a board
    bug: str | None = None  # a key of BUGS, when the problem has a name
    notes: tuple[str, ...] = ()
    writes: tuple = ()
    recursed: bool = False
    deepest: int = 0
    after: Board | None = None  # the board given, after the call


def _recording_board(board: Board, run: _Run) -> _Board:
    rows = _Board()
    rows._run = run
    for r, row in enumerate(board):
        recorded = _Row(row)
        recorded._run, recorded._r = run, r
        list.append(rows, recorded)
    return rows


def _attempt(function, board: Board, click: Cell, limit: float) -> _Attempt:
    """Run the student's function once on a recording copy of `board`; never raise."""
    run = _Run(limit)
    given = _recording_board(board, run)
    out = _Attempt()
    try:
        out.returned = run(function, given, [click[0], click[1]])
    except _TimeUp:
        out.problem, out.bug = f"stopped after {limit:g} s, the time limit for one board", "too slow"
    except RecursionError as error:
        deepest = max(run.deepest, run.calls_in(error.__traceback__))
        run.recursed = True
        out.bug = "endless recursion" if deepest > len(board) * len(board[0]) + 2 else "recursion limit"
        out.problem = (
            f"RecursionError: {deepest} nested calls on a {len(board)}x{len(board[0])} "
            f"board ({len(board) * len(board[0])} cells)"
        )
    except Exception:  # the student's error, reported as text
        out.problem, out.bug = _short_traceback(), "crash"
    out.writes, out.recursed, out.deepest = tuple(run.writes), run.recursed, run.deepest
    out.after = [list(row) for row in given]
    if out.problem is None:
        out.board, problem, out.notes = _as_board(out.returned, (len(board), len(board[0])))
        if problem:
            out.problem, out.bug = problem, "returned nothing" if out.returned is None else "not a board"
    return out


def _short_traceback() -> str:
    """The traceback of the error being handled, without the grader's own frames."""
    kind, error, tb = sys.exc_info()
    frames = traceback.extract_tb(tb)
    frames = [
        f for f in frames if os.path.normcase(os.path.abspath(f.filename)) != os.path.normcase(__file__)
    ]
    lines = traceback.format_list(frames[-4:]) + traceback.format_exception_only(kind, error)
    return "".join(lines).rstrip()


def _describe(value) -> str:
    """A short description of any value: its type and a clipped repr."""
    try:
        text = repr(value)
    except Exception:
        text = "?"
    text = text if len(text) <= 60 else text[:57] + "..."
    return f"{type(value).__name__} {text}"


def _as_board(value, shape: tuple[int, int]):
    """Return (the answer as a list of lists of str or None, what is wrong with it, notes); never raise."""
    try:
        return _read_board(value, shape)
    except Exception as error:  # an odd object whose len() or iteration fails
        return None, f"the value returned could not be read as a board ({type(error).__name__}: {error})", ()


def _read_board(value, shape):
    rows, cols = shape
    notes = ()
    if value is None:
        return None, "update_board returned None: it should return the board", notes
    if isinstance(value, (str, bytes)):
        return None, f"update_board returned a string, not a board: {_describe(value)}", notes
    if isinstance(value, (types.GeneratorType, map, filter, zip)) or (
        hasattr(value, "__next__") and not isinstance(value, np.ndarray)
    ):
        return (
            None,
            (
                f"update_board returned a {type(value).__name__}, not a board: "
                "return the board itself, not a generator"
            ),
            notes,
        )
    if isinstance(value, np.ndarray):
        if value.ndim != 2:
            return (
                None,
                f"update_board returned a {value.ndim}-dimensional array of shape {value.shape}",
                notes,
            )
        notes = (
            "your function returned a numpy array: its cells were compared; LeetCode wants a list of lists",
        )
        value = value.tolist()
    if isinstance(value, dict) or not hasattr(value, "__len__") or not hasattr(value, "__getitem__"):
        return None, f"update_board returned {_describe(value)}, not a board (a list of rows)", notes
    if len(value) != rows:
        return (
            None,
            f"update_board returned {count(len(value), 'row')}; the board has {rows}",
            notes,
        )
    board, containers = [], set()
    if not isinstance(value, list):
        notes = (
            f"your function returned a {type(value).__name__}: its cells were compared; "
            "LeetCode wants a list of lists",
        )
    for r in range(rows):
        row = value[r]
        if isinstance(row, (str, bytes)):
            return None, f"row {r} of the answer is a string {row!r}, not a list of one-letter strings", notes
        if isinstance(row, np.ndarray):
            row = row.tolist()
            containers.add("numpy arrays")
        elif not isinstance(row, list):
            containers.add(type(row).__name__)
        row = list(row)
        if len(row) != cols:
            return None, f"row {r} of the answer has {len(row)} cells; the board has {cols} columns", notes
        for c, cell in enumerate(row):
            if not isinstance(cell, str) or len(cell) != 1:
                return (
                    None,
                    (
                        f"cell ({r}, {c}) of the answer is the {type(cell).__name__} {cell!r}, "
                        "not a one-letter string such as 'B'"
                    ),
                    notes,
                )
        board.append([str(cell) for cell in row])
    if containers:
        notes += (
            f"your rows are {', '.join(sorted(containers))}: their cells were compared; LeetCode wants lists",
        )
    return board, None, notes


# ---------------------------------------------------------------------------
# Which mistake is it?


def _variant(
    board: Board, click: Cell, *, spread=False, count4=False, flood4=False, zero=False, mine_stays=False
):
    """Return the answer of a simple reveal with a known mistake switched on (none: the right answer)."""
    rows, cols = len(board), len(board[0])
    out = [list(row) for row in board]
    eight = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
    four = [(-1, 0), (0, -1), (0, 1), (1, 0)]

    def around(r, c, offsets):
        return [(r + dr, c + dc) for dr, dc in offsets if 0 <= r + dr < rows and 0 <= c + dc < cols]

    r, c = click
    if out[r][c] == "M":
        out[r][c] = "M" if mine_stays else "X"
        return out
    todo, seen = deque([(r, c)]), {(r, c)}
    while todo:
        r, c = todo.popleft()
        if out[r][c] != "E":
            continue
        mines = sum(out[i][j] in "MX" for i, j in around(r, c, four if count4 else eight))
        out[r][c] = str(mines) if mines else ("0" if zero else "B")
        if mines and not spread:
            continue
        for cell in around(r, c, four if flood4 else eight):
            if cell not in seen and out[cell[0]][cell[1]] == "E":
                seen.add(cell)
                todo.append(cell)
    return out


_MUTANTS = (
    ("digits spread", {"spread": True}),
    ("four neighbours", {"count4": True, "flood4": True}),
    ("four neighbours", {"flood4": True}),
    ("four neighbours", {"count4": True}),
    ("0 for B", {"zero": True}),
    ("mine left as M", {"mine_stays": True}),
)


def _name_wrong_answer(case: Case, got: Board) -> str:
    """Name the mistake that gives `got` on this board, one mistake or two at once; else "wrong answer"."""
    for name, switches in _MUTANTS:
        if _variant(case.board, case.click, **switches) == got:
            return name
    for i, (name, one) in enumerate(_MUTANTS):
        for _, other in _MUTANTS[i + 1 :]:
            if other.keys() & one.keys():
                continue
            if _variant(case.board, case.click, **one, **other) == got:
                return name
    if any("0" in row for row in got):
        return "0 for B"
    r, c = case.click
    if case.board[r][c] == "M" and got[r][c] == "M":
        return "mine left as M"
    return "wrong answer"


# ---------------------------------------------------------------------------
# Is it a depth-first or a breadth-first order?


def _depth_first_rules(board: Board, answer: Board, cells: list[Cell]):
    """The neighbour-order rules that make `cells` a depth-first order, or None if none can.

    Depth-first, the next cell revealed is always called by the latest blank
    still waiting with hidden neighbours, and a blank tries its neighbours in
    a fixed order. So when blank ``u`` calls ``v`` at offset ``d``, every
    other neighbour of ``u`` still hidden then has an offset tried after
    ``d``. Returns those rules as a set of (offset before, offset after).
    """
    shape = (len(board), len(board[0]))
    hidden = {(r, c) for r in range(shape[0]) for c in range(shape[1]) if board[r][c] == "E"}
    stack, rules = [], set()
    for k, v in enumerate(cells):
        if k:
            while stack and not any(n in hidden for n, _ in cells_around(stack[-1], shape)):
                stack.pop()
            if not stack:
                return None
            offsets = dict(cells_around(stack[-1], shape))
            if v not in offsets or v not in hidden:
                return None
            rules |= {(offsets[v], d) for n, d in offsets.items() if n in hidden and n != v}
        hidden.discard(v)
        if answer[v[0]][v[1]] == "B":
            stack.append(v)
    return rules


def _acyclic(rules) -> bool:
    """Whether some order of the offsets obeys every (before, after) rule."""
    after = {}
    for a, b in rules:
        after.setdefault(a, set()).add(b)
    state = {}

    def visit(a):  # depth-first search for a cycle; eight nodes at most
        state[a] = 1
        for b in after.get(a, ()):
            if state.get(b) == 1 or (b not in state and not visit(b)):
                return False
        state[a] = 2
        return True

    return all(state.get(a) == 2 or visit(a) for a in list(after))


def _is_depth_first(board, answer, cells) -> bool:
    rules = _depth_first_rules(board, answer, cells)
    return rules is not None and _acyclic(rules)


def _is_breadth_first(board, answer, cells, click) -> bool:
    """Whether `cells` go layer by layer from the click (each layer's cells before the next's)."""
    if not cells or cells[0] != tuple(click):
        return False
    shape = (len(board), len(board[0]))
    layer, todo = {tuple(click): 0}, deque([tuple(click)])
    while todo:
        u = todo.popleft()
        if answer[u[0]][u[1]] != "B":
            continue
        for n, _ in cells_around(u, shape):
            if n not in layer and board[n[0]][n[1]] == "E":
                layer[n] = layer[u] + 1
                todo.append(n)
    layers = [layer.get(cell, -1) for cell in cells]
    return -1 not in layers and all(a <= b for a, b in zip(layers, layers[1:]))


def _first_writes(writes) -> tuple[list[Cell], set[Cell], bool]:
    """The cells by first write; the cells written twice; whether each rewrite kept its symbol."""
    order, seen, twice, same = [], {}, set(), True
    for r, c, value, _ in writes:
        if (r, c) in seen:
            twice.add((r, c))
            same = same and seen[(r, c)] == value
        else:
            seen[(r, c)] = value
            order.append((r, c))
    return order, twice, same


def _order_bug(case: Case, expected: Board, attempt: _Attempt, order: str, neighbors) -> str | None:
    """Name what is wrong with the order of the writes, or None if it is right."""
    cells, twice, same = _first_writes(attempt.writes)
    if not cells and expected != case.board:
        return "writes to a copy"
    if twice:
        return "queued twice" if same and not attempt.recursed and order == "bfs" else "written twice"
    if neighbors is not None:
        right = trace(case.board, case.click, order=order, neighbors=neighbors)
        if cells == list(zip(right.row.tolist(), right.col.tolist())):
            return None
    depth_first = _is_depth_first(case.board, expected, cells)
    breadth_first = _is_breadth_first(case.board, expected, cells, case.click)
    if order == "dfs":
        if depth_first:
            return None if neighbors is None else "wrong neighbour order"
        if breadth_first:
            return "bfs as dfs"
        return "no recursion" if not attempt.recursed else "not dfs"
    if breadth_first:
        return None if neighbors is None else "wrong neighbour order"
    return "dfs as bfs" if depth_first else "not bfs"


# ---------------------------------------------------------------------------
# The report


@dataclass
class Failure:
    """The first board a category failed on.

    Attributes
    ----------
    category : str
        ``"examples"``, ``"tricky"``, ``"random"`` or ``"order"``.
    case : Case
        The board and the click (for random boards, the smallest that still fails).
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
    """

    category: str
    case: Case
    expected: Board
    got: object
    bug: str
    error: str | None = None
    found: Case | None = None
    writes: tuple = ()

    @property
    def name(self) -> str:
        return BUGS[self.bug][0]

    @property
    def hint(self) -> str:
        return BUGS[self.bug][1]


@dataclass(repr=False)
class Report:
    """What :func:`check` found.

    Attributes
    ----------
    results : dict
        For each category (``"examples"``, ``"tricky"``, ``"random"``, and
        ``"order"`` when an order was asked for): ``(passed, tried)``.
    failures : list of Failure
        The first failure of each category that failed.
    order : str or None
        The order graded, if any.
    notes : list of str
        Remarks that are not failures (a numpy array returned, boards not tried).
    """

    results: dict
    failures: list = field(default_factory=list)
    order: str | None = None
    notes: list = field(default_factory=list)
    show: bool = True

    @property
    def ok(self) -> bool:
        """Whether every board was answered right (and in the right order, if asked)."""
        return not self.failures

    @property
    def passed(self) -> int:
        """Boards answered right, all categories but the order."""
        return sum(p for name, (p, _) in self.results.items() if name != "order")

    @property
    def total(self) -> int:
        """Boards tried, all categories but the order."""
        return sum(t for name, (_, t) in self.results.items() if name != "order")

    @property
    def failure(self) -> Failure | None:
        """The first failure (examples first, the order last), or None."""
        return self.failures[0] if self.failures else None

    # The first failure's parts, by their short names.
    case = property(lambda self: self.failure and self.failure.case, doc="The board of the first failure.")
    expected = property(lambda self: self.failure and self.failure.expected, doc="Its right answer.")
    got = property(lambda self: self.failure and self.failure.got, doc="The answer given.")
    error = property(lambda self: self.failure and self.failure.error, doc="What went wrong, in words.")
    bug = property(lambda self: self.failure and self.failure.bug, doc="The mistake's key in BUGS.")

    def __repr__(self) -> str:
        return f"<Report: {self.summary()}>"

    def summary(self) -> str:
        """One line: boards right in each category."""
        parts = [f"{CATEGORIES[name]} {p}/{t}" for name, (p, t) in self.results.items() if name != "order"]
        if "order" in self.results:
            p, t = self.results["order"]
            parts.append(f"order ({'depth' if self.order == 'dfs' else 'breadth'}-first) {p}/{t}")
        return "Right: " + ", ".join(parts) + "."

    def __str__(self) -> str:
        if self.ok:
            lines = [
                f"All {self.total} boards right"
                + (f", in {'depth' if self.order == 'dfs' else 'breadth'}-first order" if self.order else "")
                + ". Well done!",
                self.summary(),
            ]
            return "\n".join(lines + self.notes)
        lines = [self.summary()]
        for f in self.failures:
            lines.append("")
            lines.append(_failure_text(f))
        return "\n".join(lines + ([""] + self.notes if self.notes else []))

    def _repr_html_(self) -> str:
        text = f"<pre>{html.escape(str(self))}</pre>"
        if self.show and not self.ok:
            picture = _figure_png(self.draw())
            if picture:
                text += f'<img alt="the first wrong board" src="data:image/png;base64,{picture}">'
        return text

    def draw(self, failure: Failure | None = None):
        """Draw a failure (the first by default): the board, the right answer, yours; return the figure.

        Draws what can be drawn and never raises: an answer that is not a
        board is shown as text. Returns None when there is no failure.
        """
        failure = failure or self.failure
        if failure is None:
            return None
        try:
            return _draw_failure(failure)
        except Exception as error:  # a last resort: the words, in a figure
            import matplotlib.pyplot as plt

            fig = plt.figure(figsize=(6, 2))
            fig.text(0.02, 0.5, f"{failure.name}\n(could not draw: {type(error).__name__})", va="center")
            return fig


def _failure_text(f: Failure) -> str:
    where = f"{f.case.name} ({f.case.size}), click {f.case.click}"
    if f.found is not None:
        where += f", shrunk from {f.found.name} ({f.found.size})"
    lines = [
        f"Wrong on {CATEGORIES[f.category]}: {where}",
        f"Mistake: {f.name}. {f.hint}",
        "board:",
        format_board(f.case.board),
        "expected:",
        format_board(f.expected),
    ]
    if f.error:
        lines.append("but: " + f.error)
    elif f.category == "order":
        lines += [
            "your order (the cells in the order they got their symbols):",
            ", ".join(f"{r},{c}" for r, c, _, _ in f.writes[:40]) + (" ..." if len(f.writes) > 40 else ""),
        ]
    else:
        lines += ["got:", _text(f.got)]
    return "\n".join(lines)


def _text(board) -> str:
    try:
        return format_board(board)
    except Exception:
        return _describe(board)


def _figure_png(fig) -> str | None:
    """The figure as base64 PNG text, then closed; None if it cannot be drawn."""
    import base64
    import io

    import matplotlib.pyplot as plt

    if fig is None:
        return None
    try:
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=80)
        return base64.b64encode(buffer.getvalue()).decode("ascii")
    except Exception:
        return None
    finally:
        plt.close(fig)


def _draw_failure(f: Failure):
    import matplotlib.pyplot as plt

    from .plot import draw_board, visit_order_map
    from .render import PALETTE

    fig, axes = plt.subplots(1, 3, figsize=(12, 3.8), layout="constrained")
    draw_board(f.case.board, ax=axes[0])
    axes[0].plot(f.case.click[1], f.case.click[0], "o", mfc="none", mec=PALETTE["wrong"], ms=14, mew=2.5)
    axes[0].set_title(f"{f.case.name}: click {f.case.click}", fontsize=10)
    if f.category == "order":
        right = trace(f.case.board, f.case.click, order=_ORDER_OF_BUG.get(f.bug, "dfs"))
        visit_order_map(right, ax=axes[1], colorbar=False)
        axes[1].set_title(f"a {_WORDS[right.order]} order", fontsize=10)
        cells, _, _ = _first_writes(f.writes)
        if cells:
            yours = trace_of_cells(f.case.board, f.case.click, cells, _after_writes(f.case.board, f.writes))
            visit_order_map(yours, ax=axes[2], colorbar=False)
        axes[2].set_title(f"your order:\n{f.name}", fontsize=10)
        return fig
    draw_board(f.expected, ax=axes[1])
    axes[1].set_title("expected", fontsize=10)
    if isinstance(f.got, list) and f.error is None:
        draw_board(f.got, ax=axes[2])
        for r, row in enumerate(f.expected):
            for c, symbol in enumerate(row):
                if f.got[r][c] != symbol:
                    axes[2].add_patch(
                        plt.Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, ec=PALETTE["wrong"], lw=2.5)
                    )
        axes[2].set_title(f"your answer: {f.name}", fontsize=10)
    else:
        axes[2].set_axis_off()
        axes[2].text(0, 0.5, _wrap(f.error or _describe(f.got)), fontsize=9, family="monospace", va="center")
    return fig


_WORDS = {"dfs": "depth-first", "bfs": "breadth-first"}
_ORDER_OF_BUG = {"bfs as dfs": "dfs", "dfs as bfs": "bfs", "queued twice": "bfs", "not bfs": "bfs"}


def _wrap(text: str, width: int = 48) -> str:
    import textwrap

    return "\n".join(textwrap.fill(line, width) for line in text.splitlines()[-12:])


def _after_writes(board: Board, writes) -> Board:
    """The board after the writes seen, with any symbol a board cannot hold shown as hidden."""
    out = [list(row) for row in board]
    for r, c, value, _ in writes:
        if 0 <= r < len(out) and 0 <= c < len(out[0]):
            out[r][c] = value if isinstance(value, str) and value in SYMBOLS else "E"
    return out


# ---------------------------------------------------------------------------
# check


def _grade(function, case: Case, order, neighbors, limit) -> tuple[_Attempt, Board, str | None, str | None]:
    """Run one board; return the attempt, the right answer, and what is wrong with answer and order."""
    expected = reveal(case.board, case.click)
    attempt = _attempt(function, case.board, case.click, limit)
    if attempt.problem is not None:
        return attempt, expected, attempt.bug, None
    if attempt.board != expected:
        return attempt, expected, _name_wrong_answer(case, attempt.board), None
    if order is None:
        return attempt, expected, None, None
    return attempt, expected, None, _order_bug(case, expected, attempt, order, neighbors)


def _failure(category, case, attempt, expected, bug) -> Failure:
    got = attempt.board if attempt.board is not None else attempt.returned
    error = attempt.problem if category != "order" else None
    return Failure(category, case, expected, got, bug, error, writes=attempt.writes)


def _shrink(function, failure: Failure, order, neighbors, limit, budget: float = 5.0) -> Failure:
    """Return the failure on the smallest board found that still fails the same way.

    Tries, greedily and as long as something works and the `budget` of
    seconds lasts: no earlier clicks, a row or a column fewer, a mine fewer.
    """
    case = failure.case
    if case.recipe is None or failure.bug == "too slow":
        return failure
    stop = time.perf_counter() + budget
    best = failure
    progress = True
    while progress and time.perf_counter() < stop:
        progress = False
        for smaller in _smaller(best.case):
            if time.perf_counter() > stop:
                break
            attempt, expected, answer_bug, order_bug = _grade(function, smaller, order, neighbors, limit)
            bug = order_bug if failure.category == "order" else answer_bug
            if bug is not None and (failure.category != "order" or answer_bug is None):
                best = _failure(failure.category, smaller, attempt, expected, bug)
                progress = True
                break
    if best is failure:
        return failure
    return replace(best, found=case)


def _smaller(case: Case):
    """Cases one step smaller than `case`: fewer earlier clicks, rows, columns or mines."""
    recipe, (cr, cc) = case.recipe, case.click
    candidates = []
    if recipe.opened:
        candidates.append((replace(recipe, opened=()), (cr, cc)))
    for r in range(recipe.rows):
        if r != cr and recipe.rows > 1:
            candidates.append(_without_row(recipe, r, (cr, cc)))
    for c in range(recipe.cols):
        if c != cc and recipe.cols > 1:
            flipped = _without_row(_transpose(recipe), c, (cc, cr))
            candidates.append((_transpose(flipped[0]), flipped[1][::-1]))
    for mine in recipe.mines:
        if mine != (cr, cc):
            candidates.append((replace(recipe, mines=tuple(m for m in recipe.mines if m != mine)), (cr, cc)))
    for recipe, click in candidates:
        board = recipe.board()
        if board[click[0]][click[1]] in "ME":
            yield Case(f"{recipe.rows}x{recipe.cols} board", board, click, "random", recipe)


def _without_row(recipe: Recipe, r: int, click: Cell) -> tuple[Recipe, Cell]:
    def moved(cells):
        return tuple((i - (i > r), j) for i, j in cells if i != r)

    return Recipe(recipe.rows - 1, recipe.cols, moved(recipe.mines), moved(recipe.opened)), moved([click])[0]


def _transpose(recipe: Recipe) -> Recipe:
    def swap(cells):
        return tuple((j, i) for i, j in cells)

    return Recipe(recipe.cols, recipe.rows, swap(recipe.mines), swap(recipe.opened))


def check(
    update_board,
    *,
    order=None,
    neighbors=None,
    time_limit: float = 2.0,
    random_boards: int = 200,
    seed: int = 529,
    show: bool = True,
) -> Report:
    """Run `update_board(board, click)` on many boards; return a `Report`.

    The function may change the board it is given and return it, or return a
    new one; it is given a fresh copy each time. A click is passed as a list
    ``[row, col]``, as LeetCode does. Every board is tried, so the report can
    give each category its score; a random board answered wrong is then
    shrunk to the smallest board that still fails.

    How an endless loop is stopped: the function runs in the caller's own
    thread (so a Jupyter kernel's recursion limit and output apply as usual),
    and a timer thread, once `time_limit` has passed, raises an exception in
    it with CPython's ``PyThreadState_SetAsyncExc``. Python raises it at the
    next bytecode that checks for signals, which includes every jump back to
    the start of a loop, so ``while True: pass`` stops too. This works in a
    Jupyter kernel on Linux, macOS and Windows alike (other Pythons fall
    back to a trace function that reads the clock at every line). It cannot
    stop a single call into C that never returns (``time.sleep(100)``), nor
    code that catches every exception with a bare ``except:``. After the
    first time-out the remaining boards are not tried.

    Parameters
    ----------
    update_board : callable
        The student's solution.
    order : {"dfs", "bfs"}, optional
        Also grade the order in which the cells get their symbols: a
        depth-first order (for some fixed order of the eight neighbours), or a
        breadth-first one (layer by layer from the click).
    neighbors : sequence of (dr, dc), optional
        With `order`, the exact neighbour order the solution must follow.
    time_limit : float
        Seconds allowed for one board.
    random_boards : int
        How many random boards to try after the fixed ones.
    seed : int
        The same seed tries the same boards.
    show : bool
        Whether the report, shown in a notebook, draws its first failure.

    Examples
    --------
    >>> import msviz
    >>> report = check(lambda board, click: msviz.reveal(board, click))
    >>> report.ok, report.total > 100
    (True, True)
    >>> report = check(lambda board, click: msviz.reveal(board, click, order="bfs"), order="dfs")
    >>> print(report.summary())
    Right: the problem's examples 2/2, tricky boards 8/8, random boards 190/190, order (depth-first) 0/200.
    >>> report.failure.name
    'writes to a copy'
    """
    if not callable(update_board):
        raise TypeError(f"check needs a function update_board(board, click), not {update_board!r}")
    if order is not None:
        order = _check_order(order)
    if neighbors is not None:
        if order is None:
            raise ValueError("neighbors= is the neighbour order the solution must follow: give order= too")
        neighbors = _check_neighbors(neighbors)
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not time_limit > 0:
        raise ValueError(f"time_limit must be a positive number of seconds, not {time_limit!r}")
    tries = cases(random_boards=random_boards, seed=seed)
    results = {name: [0, 0] for name in ("examples", "tricky", "random")}
    if order:
        results["order"] = [0, 0]
    first: dict[str, Failure] = {}
    notes: set[str] = set()
    for i, case in enumerate(tries):
        attempt, expected, answer_bug, order_bug = _grade(update_board, case, order, neighbors, time_limit)
        notes.update(attempt.notes)
        results[case.category][1] += 1
        results[case.category][0] += answer_bug is None
        if answer_bug is not None and case.category not in first:
            first[case.category] = _failure(case.category, case, attempt, expected, answer_bug)
        if order:
            results["order"][1] += 1
            results["order"][0] += answer_bug is None and order_bug is None
            if order_bug is not None and "order" not in first:
                first["order"] = _failure("order", case, attempt, expected, order_bug)
        if answer_bug == "too slow":
            notes.add(f"after the time-out, the other {len(tries) - i - 1} boards were not tried")
            for later in tries[i + 1 :]:
                results[later.category][1] += 1
                if order:
                    results["order"][1] += 1
            break
    failures = [first[name] for name in CATEGORIES if name in first]
    failures = [
        _shrink(update_board, f, order, neighbors, time_limit) if f.case.category == "random" else f
        for f in failures
    ]
    return Report({name: tuple(v) for name, v in results.items()}, failures, order, sorted(notes), show)


# ---------------------------------------------------------------------------
# record


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
        What the function returned.
    answer : board or None
        What it returned, read as a board (None if it could not be).
    problem : str or None
        What went wrong: an error, a time-out, a value that is not a board.
    recursed : bool
        Whether the student's code called itself.
    notes : tuple of str
        What a student should know about this run (writes to a copy, cells written twice).
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

    @property
    def cells(self) -> list[Cell]:
        """The cells written, each once, in the order of their first write."""
        return _first_writes(self.writes)[0]

    @property
    def after(self) -> Board:
        """The board as the writes seen left it."""
        return _after_writes(self.board, self.writes)

    @cached_property
    def trace(self) -> Trace:
        """The run as a `Trace`: one step per cell written, read as depth- or breadth-first."""
        return trace_of_cells(self.board, self.click, self.cells, self.after, order=self._reading())

    def _reading(self) -> str:
        """How to read the run: as asked; else depth-first if the code recursed or only a DFS
        makes this order; else breadth-first if the order goes layer by layer."""
        if self.order_asked or self.recursed:
            return self.order_asked or "dfs"
        after, cells = self.after, self.cells
        if _is_breadth_first(self.board, after, cells, self.click):
            return "bfs"
        return "dfs"

    @property
    def order(self) -> str:
        """The order the run is shown as: ``"dfs"`` or ``"bfs"``."""
        return self.trace.order

    def __len__(self) -> int:
        return len(self.cells)

    def __str__(self) -> str:
        lines = [f"{len(self.writes)} writes to {len(self.cells)} cells, shown as a {_WORDS[self.order]} run"]
        if self.problem:
            lines.append("problem: " + self.problem)
        return "\n".join(lines + list(self.notes))


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
    update_board : callable
        The student's function.
    board, click
        As for :func:`msviz.reveal`. `board` is never changed.
    order : {"dfs", "bfs"}, optional
        How to read the run (which caption, stack or queue); by default
        depth-first if the code called itself, else breadth-first when the
        order is one a queue makes.
    time_limit : float
        Seconds before the function is stopped (see :func:`check`).

    Examples
    --------
    >>> import msviz
    >>> def fill(board, click):
    ...     r, c = click
    ...     board[r][c] = "B"
    ...     board[r][c + 1] = "1"
    ...     return board
    >>> rec = record(fill, ["EEM"], (0, 0))
    >>> rec.cells, rec.answer
    ([(0, 0), (0, 1)], [['B', '1', 'M']])
    """
    if not callable(update_board):
        raise TypeError(f"record needs a function update_board(board, click), not {update_board!r}")
    if order is not None:
        order = _check_order(order)
    from .board import check_click

    rows = parse_board(board)
    click = check_click(click, (len(rows), len(rows[0])))
    attempt = _attempt(update_board, rows, click, time_limit)
    cells, twice, _ = _first_writes(attempt.writes)
    notes = list(attempt.notes)
    if (
        attempt.board is not None
        and attempt.board != _after_writes(rows, attempt.writes)
        and (attempt.board != attempt.after)
    ):
        notes.append(
            "some cells of the answer changed with no write seen: writes to a copy of the board "
            "(row[:], np.array(board), copy.deepcopy) cannot be seen, only the board returned"
        )
    if twice:
        notes.append(f"{len(twice)} cells were written more than once; each is shown at its first write")
    odd = sorted({repr(v) for _, _, v, _ in attempt.writes if not (isinstance(v, str) and v in SYMBOLS)})
    if odd:
        notes.append(f"written symbols a board cannot hold, shown as hidden: {', '.join(odd[:5])}")
    return Recording(
        rows,
        click,
        attempt.writes,
        attempt.returned,
        attempt.board,
        attempt.problem,
        attempt.recursed,
        tuple(notes),
        order,
    )
