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

import builtins
import contextlib
import copy
import inspect
import io
import operator
import os
import sys
import sysconfig
import threading
import time
import traceback
import types
from dataclasses import dataclass

from ..board import Board, Cell
from .answers import as_board, describe, written
from .vocabulary import FUNCTION_NAMES, OUTPUT_KEPT

__all__ = ["TimeUp", "Attempt", "Guard", "attempt", "as_function", "cpu_clock"]


class TimeUp(BaseException):
    """Raised inside the student's function when its CPU time is up (not an Exception: not caught by it)."""


def _library_paths() -> tuple[str, ...]:
    paths = {sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    paths.add(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # msviz itself
    return tuple(os.path.normcase(os.path.abspath(p)) for p in paths)


_LIBRARY = _library_paths()


def _interrupter():
    """Return a function that raises an exception in a thread, by its id; None where there is none."""
    try:
        import ctypes

        set_async = ctypes.pythonapi.PyThreadState_SetAsyncExc
    except (ImportError, AttributeError):  # not CPython
        return None

    def interrupt(thread: int, exception) -> None:
        set_async(ctypes.c_ulong(thread), ctypes.py_object(exception))

    return interrupt


_INTERRUPT = _interrupter()


def cpu_clock():
    """Return a function that reads the CPU seconds used by the calling thread, from any thread.

    On Linux (and wherever ``pthread_getcpuclockid`` exists) this is the
    thread's own CPU clock; elsewhere the whole process's CPU time, which is
    still not the clock on the wall.

    Examples
    --------
    >>> read = cpu_clock()
    >>> read() >= 0
    True
    """
    try:
        clock = time.pthread_getcpuclockid(threading.get_ident())
        time.clock_gettime(clock)
        return lambda: time.clock_gettime(clock)
    except (AttributeError, OSError):
        return time.process_time


def _let_pending_exceptions_land() -> None:
    """Run bytecodes that check for pending exceptions (calls, jumps back): one pending is raised now."""
    for _ in range(3):
        _nothing()


def _nothing() -> None:
    pass


class _Clock:
    """Stops the calling thread's Python code once it has used `limit` seconds of CPU time.

    A watcher thread sleeps for the CPU time left, then reads the caller's
    CPU clock every `TICK` seconds and, past the limit, raises `TimeUp` in
    the caller's thread (CPython's ``PyThreadState_SetAsyncExc``); Python notices it at the next bytecode
    that checks for signals, which includes every jump back to the start of a
    loop. It is raised again at every tick until the caller leaves the block,
    and one still pending then is raised and caught on the way out.
    Where there is no such call, a trace function reads the clock at every line.
    """

    TICK = 0.005

    def __init__(self, limit: float):
        self.limit = limit
        self.thread = threading.get_ident()
        self.read = cpu_clock()
        self.start = self.read()
        self.lock = threading.Lock()
        self.inside = False
        self.fired = False
        self.done = threading.Event()
        self.watcher = threading.Thread(target=self._watch, name="msviz-grader-clock", daemon=True)

    def used(self) -> float:
        """CPU seconds the caller has used since the clock was made."""
        return self.read() - self.start

    def _watch(self) -> None:
        # One thread's CPU time grows no faster than the clock on the wall, so the
        # limit cannot be reached before the CPU time left has passed: sleep that
        # long (a short run is never woken), then every TICK once it is near.
        while not self.done.wait(max(self.TICK, self.limit - self.used())):
            if self.used() >= self.limit:
                with self.lock:
                    if not self.inside:
                        return
                    self.fired = True
                    _INTERRUPT(self.thread, TimeUp)

    def _line(self, frame, event, arg):
        if event == "call":  # every bytecode, not only new lines: `while True: pass` is one line
            frame.f_trace_opcodes = True
        if self.used() >= self.limit:
            raise TimeUp
        return self._line

    def __enter__(self):
        self.inside = True
        if _INTERRUPT is not None:
            self.watcher.start()
        else:
            self.old_trace = sys.gettrace()
            sys.settrace(self._line)
        return self

    def __exit__(self, kind, error, tb):
        # No more TimeUp is fired once `inside` is False. One fired before may
        # still be pending: let it be raised here, and catch it. (Withdrawing it
        # with PyThreadState_SetAsyncExc(id, NULL) instead would leave CPython
        # 3.11's eval breaker set for good, and code run under sys.settrace hangs.)
        while True:
            try:
                with self.lock:
                    self.inside = False
                if self.fired:
                    _let_pending_exceptions_land()
                break
            except TimeUp:
                continue
        self.done.set()
        if _INTERRUPT is not None:
            self.watcher.join()
        else:
            sys.settrace(self.old_trace)
        return False


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


class _Writes:
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


def _recording_board(board: Board, writes: _Writes) -> list:
    """The board given to the student: a plain list (reads of it stay at full speed) of recording rows."""
    rows = []
    for r, row in enumerate(board):
        recorded = _Row(row)
        recorded._run, recorded._r, recorded._log = writes, r, writes.log.append
        rows.append(recorded)
    return rows


def _replaced_rows(given: list, rows: list, board: Board, writes: _Writes) -> list[str]:
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


# ---------------------------------------------------------------------------
# What the student's code may not change


def _watched_modules() -> list[types.ModuleType]:
    """The modules whose names the grader relies on: msviz's own, and builtins."""
    return [m for name, m in list(sys.modules.items()) if name == "msviz" or name.startswith("msviz.")] + [
        builtins
    ]


def _ignored(module, name: str) -> bool:
    """Names that change on their own: dunders (a warning adds ``__warningregistry__``), builtins' ``_``."""
    return name.startswith("__") or (module is builtins and name.startswith("_"))


class Guard:
    """What the student's code may not change: msviz's modules, builtins and `sys.modules`.

    Made once before the student's code runs; `restore` after each call
    checks, fast, that every name still holds the same object (and every
    function the same code), and puts back whatever changed.
    """

    def __init__(self):
        self.spaces = []
        self.functions = []
        for module in _watched_modules():
            names = {k: v for k, v in vars(module).items() if not _ignored(module, k)}
            self.spaces.append((module, vars(module), len(vars(module)), tuple(names), tuple(names.values())))
            for k, v in names.items():
                if isinstance(v, types.FunctionType):
                    self.functions.append(
                        (f"{module.__name__}.{k}", v, v.__code__, v.__defaults__, v.__kwdefaults__)
                    )
        self.modules = dict(sys.modules)

    def _intact(self) -> bool:
        same = operator.is_
        for _, space, size, keys, values in self.spaces:
            if len(space) != size or not all(map(same, map(space.get, keys), values)):
                return False
        codes = (
            f.__code__ is c and f.__defaults__ is d and f.__kwdefaults__ is k
            for _, f, c, d, k in self.functions
        )
        return all(codes) and all(map(same, map(sys.modules.get, self.modules), self.modules.values()))

    def restore(self) -> list[str]:
        """Put back what changed; return the names that had changed (none, almost always)."""
        if self._intact():
            return []
        changed = []
        for name, module in self.modules.items():
            if sys.modules.get(name) is not module:
                sys.modules[name] = module
                changed.append(f"sys.modules[{name!r}]")
        for module, space, _, keys, values in self.spaces:
            for name, value in zip(keys, values):
                if space.get(name) is not value:
                    setattr(module, name, value)
                    changed.append(f"{module.__name__}.{name}")
            for name in [n for n in space if n not in set(keys) and not _ignored(module, n)]:
                delattr(module, name)
                changed.append(f"{module.__name__}.{name}")
        for name, function, code, defaults, kwdefaults in self.functions:
            now = (function.__code__, function.__defaults__, function.__kwdefaults__)
            if any(a is not b for a, b in zip(now, (code, defaults, kwdefaults))):
                function.__code__, function.__defaults__, function.__kwdefaults__ = code, defaults, kwdefaults
                changed.append(name)
        return changed


def _msviz_uses() -> int:
    """How many reveals msviz's engine has started so far (each takes one number)."""
    from .. import traversal

    return next(traversal.STARTED)


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
    writes = _Writes()
    given = _recording_board(board, writes)
    rows = list(given)
    shape = (len(board), len(board[0]))
    out = Attempt()
    guard = guard or Guard()
    limit_before = sys.getrecursionlimit()
    uses = _msviz_uses()
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
    out.notes += tuple(_replaced_rows(given, rows, board, writes))
    out.writes, out.recursed, out.deepest = tuple(writes.log), writes.recursed, writes.deepest
    out.given = given
    if out.changed:
        shown = ", ".join(out.changed[:3]) + (" ..." if len(out.changed) > 3 else "")
        out.problem, out.bug, out.board = f"your code changed {shown}", "changed the grader", None
    elif _msviz_uses() - uses > 1 and out.bug in (None, "crash"):
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
