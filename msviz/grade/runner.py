"""The runner: the untrusted side of the grader. It only runs the student's function and says what happened.

The runner calls the student's function on the boards the judge sends, one
at a time, and sends back for each what happened, as plain data (`raw`): the
board returned (when it reads as one), the cells written in order, what was
raised (its kind and text), CPU time and output. It decides nothing: the
judge (`msviz.grade.judge`), which never runs student code, reads that
data as untrusted input and makes every verdict.

It runs where the student's code can reach it: in `check`'s forked child,
or as a process of its own (`COMMAND`) for the class command, where it fences
itself (`msviz.grade.sandbox`), loads the submission, says what it found
(a function, a quiz bank, nothing), then answers the judge's boards.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
import time
import traceback
from operator import itemgetter

from .answers import as_board, describe, written
from .bare import BARE, count_engine_read, refuse_engine
from .clock import TimeUp, _Clock
from .guard import ASKED, Guard, msviz_uses
from .vocabulary import MOST_WRITES, OUTPUT_KEPT, TEXT_KEPT, clip, memory_size
from .writes import Writes, recording_board, replaced_rows

__all__ = ["raw", "serve", "main", "entry", "COMMAND", "BARE", "in_child"]

#: True in a process that already runs students' code on its own (a child, a class command's runner):
#: a check there runs in that process, not in one more.
in_child = False
#: Python's recursion limit in a child, as on LeetCode's judge: a recursive reveal of a 50x50 open
#: board goes 2,500 calls deep.
RECURSION_LIMIT = 10_000


def memory_words() -> str:
    """The memory limit, in words.

    Examples
    --------
    >>> memory_words()
    'used more than 1 GB of memory'
    """
    return f"used more than {memory_size()} of memory"


def allow_cpu(seconds: float) -> None:
    """In the child: let the process run `seconds` more of CPU time (and a second), then SIGXCPU.

    Called before each board, so that one call into C that never returns
    (which the watcher thread of `run` cannot interrupt) is stopped by the
    operating system a second past the board's limit.
    """
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    wanted = math.ceil(time.process_time() + seconds) + 1
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if wanted != soft:
        try:
            resource.setrlimit(resource.RLIMIT_CPU, (wanted, hard))
        except (ValueError, OSError):  # the fence refuses it: the judge measures from outside instead
            pass


def memory_named(function):
    """`function`, its MemoryError said in the grader's words (the limit it passed)."""

    def student(board, click):
        try:
            return function(board, click)
        except MemoryError:
            raise MemoryError("your function " + memory_words()) from None

    return student


class _Output:
    """Where the student's prints go: kept up to `OUTPUT_KEPT` characters, the rest dropped."""

    def __init__(self):
        self.parts, self.size = [], 0

    def write(self, text):
        room = OUTPUT_KEPT - self.size
        if room > 0:
            piece = str(text)[:room]
            self.parts.append(piece)
            self.size += len(piece)
        return len(text)

    def flush(self):
        pass

    def getvalue(self) -> str:
        return "".join(self.parts)


def _keep_unraisable(printed: _Output):
    """Errors in callbacks and ``__del__`` go to the student's output (a time-out there is dropped)."""

    def hook(unraisable) -> None:
        if not isinstance(unraisable.exc_value, TimeUp):
            name = getattr(unraisable.exc_type, "__name__", "error")
            printed.write(f"Exception ignored in {describe(unraisable.object)}: {name}\n")

    return hook


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
    return clip("".join(traceback.format_list(frames[-4:]) + last).rstrip(), TEXT_KEPT)


def _error(kind: str, text: str = "", deepest: int = 0) -> dict:
    return {"kind": kind, "text": text, "deepest": deepest}


def raw(function, board, click, limit: float, guard: Guard | None = None) -> dict:
    """Run the student's function once on a recording copy of `board`; return what happened, as data.

    Never raises but `KeyboardInterrupt`. The keys are those the judge reads
    (`msviz.grade.judge.read_raw`): ``returned`` (the answer as rows of
    one-letter strings, or None), ``returned_text``, ``read`` (why the answer
    is not a board: ``{"problem", "kind"}``, or None), ``error`` (``{"kind",
    "text", "deepest"}`` or None), ``writes`` (``[row, col, value, depth]``),
    ``write_count``, ``recursed``, ``deepest``, ``after``, ``cpu``,
    ``output``, ``notes``, ``changed``, ``used_msviz`` and ``refused`` (what it
    tried that a runner refuses: ``"thread"``, ``"process"``, ``"program"``, ``"limit"``).

    Examples
    --------
    >>> def fill(board, click):
    ...     board[0][0] = "B"
    ...     return board
    >>> data = raw(fill, [["E"]], (0, 0), 1.0)
    >>> data["returned"], data["writes"], data["error"]
    ([['B']], [(0, 0, 'B', 0)], None)
    """
    writes = Writes()
    given = recording_board(board, writes)
    rows = list(given)
    shape = (len(board), len(board[0]))
    out = {"returned": None, "returned_text": "nothing", "read": None, "error": None, "notes": [], "cpu": 0.0}
    guard = guard or Guard()
    limit_before = sys.getrecursionlimit()
    uses, asked = msviz_uses(), dict(ASKED)
    printed = _Output()
    unraisable = sys.unraisablehook
    sys.unraisablehook = _keep_unraisable(printed)
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            _call(function, given, [click[0], click[1]], shape, limit, writes, out)
    except KeyboardInterrupt:
        raise
    except TimeUp as error:
        out["error"] = _error("time", "", max(writes.deepest, writes.calls_in(error.__traceback__)))
    except RecursionError as error:
        writes.recursed = True
        out["error"] = _error("recursion", "", max(writes.deepest, writes.calls_in(error.__traceback__)))
    except MemoryError as error:
        out["error"] = _error("memory", clip(str(error), TEXT_KEPT))
    except IndexError as error:
        kind = "index" if "out of range" in describe(error) else "error"
        out["error"] = _error(kind, _short_traceback())
    except BaseException as error:  # the student's error (SystemExit and GeneratorExit too), as text
        out["error"] = _error("error", _short_traceback())
        count_engine_read(error)
    finally:
        sys.setrecursionlimit(limit_before)
        sys.unraisablehook = unraisable
        writes.forget_frames()
        out["changed"] = list(guard.restore())
    out["output"] = printed.getvalue()
    out["notes"] += replaced_rows(given, rows, board, writes)
    out["write_count"] = len(writes.log)
    kept = writes.log[: MOST_WRITES + shape[0] * shape[1]]  # (row, col, value, depth): JSON's arrays
    if set(map(type, map(itemgetter(2), kept))) - {str}:  # a value that is not a string, in words
        kept = [(r, c, v if type(v) is str else written(v), d) for r, c, v, d in kept]
    out["writes"] = kept
    out["recursed"], out["deepest"] = writes.recursed, writes.deepest
    out["after"] = [_written_row(row) if isinstance(row, list) else [] for row in given]
    out["used_msviz"] = msviz_uses() - uses > 1
    out["refused"] = [kind for kind, n in ASKED.items() if n > asked[kind] and kind != "engine"]
    return out


def _written_row(row: list) -> list:
    """A row of the board given as the call left it, each cell as JSON holds it (`written`)."""
    cells = list.copy(row)  # its cells as stored: no method of the student's is called
    if all(type(v) is str for v in cells):
        return cells
    return [written(v) for v in cells]


def _call(function, given, click, shape, limit, writes, out: dict) -> None:
    """Call the function and read its answer, all under the CPU-time limit."""
    writes.entry = sys._getframe()
    with _Clock(limit) as clock:
        try:
            returned = function(given, click)
            out["returned_text"] = clip(describe(returned), TEXT_KEPT)
            board, problem, notes, kind = as_board(returned, shape)
            out["returned"], out["notes"] = board, list(notes)
            if problem is not None:
                out["read"] = {"problem": clip(problem, TEXT_KEPT), "kind": kind}
        finally:
            out["cpu"] = clock.used()


def _send(write: int, message: dict) -> None:
    data = memoryview((json.dumps(message) + "\n").encode())
    while data:
        data = data[os.write(write, data) :]


def _requests(read: int):
    """Yield each request the judge sends (one JSON line each) until it closes the channel."""
    buffer = b""
    while True:
        while b"\n" not in buffer:
            chunk = os.read(read, 1 << 16)
            if not chunk:
                return
            buffer += chunk
        line, buffer = buffer.split(b"\n", 1)
        yield json.loads(line)


def serve(function, read: int, write: int, *, before_each=None, guard: Guard | None = None) -> None:
    """Answer each board the judge sends with `raw`'s data, until the judge closes the channel.

    `before_each(limit)`, if given, is called before each board (to let the
    process run that much more CPU time); `guard` is what msviz and builtins
    were before the submission was loaded (by default: now).
    """
    guard = guard or Guard()
    for request in _requests(read):
        board, click, limit = request["board"], tuple(request["click"]), float(request["limit"])
        if before_each is not None:
            before_each(limit)
        _send(write, raw(function, [list(row) for row in board], click, limit, guard))


def main(argv: list[str]) -> int:
    """A runner (``python -c`` `COMMAND` ``OPTIONS_JSON``): fence, load, say what it found, answer.

    The options (from the judge): ``path`` (the submission, copied alone into
    the runner's private folder, its working directory), ``tmp`` (the only
    folder it may write), ``cpu`` and ``memory`` (its limits), ``function``
    (a name to look for first), ``read`` and ``write`` (the channel's
    descriptors), ``fence`` (whether to fence itself) and ``engine`` (whether
    msviz's engine is loaded: only for homework, whose notebook makes its bank
    with msviz; a runner started by `BARE` without it serves the function).
    Its first message names the fence's layers that held, sent before any of
    the student's code runs; its second, what the submission holds.
    """
    from pathlib import Path

    from . import sandbox
    from .clock import start_watcher
    from .guard import count_spawning
    from .homework import find_banks, find_set
    from .limits import set_limits
    from .submissions import find_function, load_code

    options = json.loads(argv[0])
    sys.argv = [sys.argv[0]]  # the submission sees no paths of the grader's
    read, write = options["read"], options["write"]
    global in_child
    in_child = True  # a check the submission calls runs here, in this process
    sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
    path = Path(options["path"])
    engine = "msviz.traversal" in sys.modules
    hidden = [] if engine else [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
    _speak_now()  # its catalog read now: the fence may hide msviz's folder
    fence = options.get("fence", True)
    layers = sandbox.enter([str(path.parent)], [options["tmp"]], hidden=hidden) if fence else []
    set_limits(options["cpu"], options["memory"] * 1024 * 1024, slack=5, stop_at_output=True)
    start_watcher()
    count_spawning()
    if fence:
        layers += sandbox.refuse_spawning()
    _send(write, {"fence": layers})
    if not engine:
        refuse_engine()
    guard = Guard()  # what msviz and builtins are before the submission is loaded
    os.chdir(path.parent)  # as Jupyter runs a notebook: beside its file
    sys.path.insert(0, str(path.parent))
    try:
        namespace, notes = load_code(path)
    except MemoryError:
        _send(write, {"found": "memory", "notes": []})
        return 0
    except ValueError as error:
        _send(write, {"found": "unreadable", "why": clip(str(error), TEXT_KEPT), "notes": []})
        return 0
    try:
        function, called = find_function(namespace, options.get("function"))
    except Exception as error:  # Solution() that raises
        _send(
            write,
            {"found": "error", "why": clip(f"{type(error).__name__}: {error}", TEXT_KEPT), "notes": notes},
        )
        return 0
    sims, banks = find_set(namespace), find_banks(namespace)
    asked = ASKED["engine"] > 0  # it imported msviz: its homework is read again, with the engine
    if engine or function is None:  # with the engine loaded, a runner grades no function
        if sims is not None or banks:
            handed = {
                "simulations": None if sims is None else _plain(sims),
                "banks": list(map(_plain, banks)),
            }
            _send(write, {"found": "homework", **handed, "notes": notes})
        elif engine:
            _send(write, {"found": "nothing" if function is None else "engine", "notes": notes})
        else:
            _send(write, {"found": "nothing", "notes": notes, "asked_engine": asked})
        return 0
    _send(write, {"found": "function", "called": called, "asked_engine": asked, "notes": notes})
    serve(memory_named(function), read, write, before_each=allow_cpu, guard=guard)
    return 0


def _speak_now() -> None:
    """Read the catalog of the language spoken now (later, msviz's folder may be out of reach)."""
    from ..i18n import get_language, translations

    translations(get_language())


def _plain(found):
    """A handed-in bank's or set's plain data (`to_dict`), or None where it has none that JSON can hold."""
    try:
        data = found.to_dict()
        json.dumps(data)
    except Exception:  # not one msviz made
        return None
    return data


#: The command line that starts a runner with msviz's engine (its options follow): ``python -c`` and
#: `entry`. Only homework needs it: its notebook makes its bank with msviz.
COMMAND = ("-c", "from msviz.grade.runner import entry; entry()")


def entry() -> None:
    """The runner process's whole life (`COMMAND`): `main`, then an exit at once."""
    try:
        status = main(sys.argv[1:])
    except SystemExit as error:  # the submission's own exit() while it was loaded
        status = error.code if isinstance(error.code, int) else 1
    sys.stdout.flush()
    os._exit(status)  # at once: threads the submission left running must not hold the process
