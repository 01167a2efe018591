"""One way to run a student's code: in a child process, under limits, its death named.

`run_in_child` forks (the student's function, defined in the notebook, comes
along as it is: nothing is pickled), sets the child's limits with
``resource.setrlimit`` (its CPU time, its address space, no core file), runs
a job there and reads what the job sends back through a pipe, as lines of
JSON. The parent waits with a wall-clock backstop far above the CPU limit,
which stops only a child that waits without computing (``time.sleep``,
``input()``, a lock). Whatever ends the child (``os._exit``, a signal such as
a segfault, a limit) comes back as `Ended`, with the death's name: the
parent, a notebook's kernel, lives on with all its variables.

The child's file descriptors 1 and 2 go to a file of the parent's, never to
the notebook: nothing the child writes at the C level reaches a cell's
stderr. Where the platform has no fork (Windows), `FORK` is False and the
callers run the code in-process, under the guards of `run` alone.
"""

from __future__ import annotations

import builtins
import faulthandler
import io
import json
import math
import os
import select
import signal
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field

from .limits import set_limits
from .vocabulary import MEMORY_LIMIT_MB

__all__ = ["FORK", "GRADER_CPU", "Ended", "run_in_child", "fence", "fenced_function", "memory_words"]

#: Whether students' code runs in a child process here (a Unix with fork).
FORK = hasattr(os, "fork") and hasattr(os, "wait4")
#: True in a process that already runs students' code on its own (a child, a class command's worker):
#: a check there runs in that process, not in one more.
in_child = False
#: Python's recursion limit in a child, as on LeetCode's judge: a recursive reveal of a 50x50 open
#: board goes 2,500 calls deep.
RECURSION_LIMIT = 10_000
#: CPU seconds the grader's own work may take in a child, beyond the student's code.
GRADER_CPU = 15.0
_KEPT = 20_000  # characters of that output read back


@dataclass
class Ended:
    """How a child ended: the messages it sent, and, when it died before its result, how.

    Attributes
    ----------
    messages : list of dict
        Every message sent, in order; the job's result is the last, ``{"done": ...}``.
    death : str or None
        None when the job sent its result; else a key of `BUGS`: ``"ended the
        process"``, ``"crashed"``, ``"memory"``, ``"C call too long"``, ``"waited"``.
    words : str
        The death in a sentence for the student.
    output : str
        What reached the child's descriptors 1 and 2 (its Python output is the job's to keep).
    cpu : float
        CPU seconds the child used.
    """

    messages: list = field(default_factory=list)
    death: str | None = None
    words: str = ""
    output: str = ""
    cpu: float = 0.0

    @property
    def result(self):
        """What the job returned, or None if it died first."""
        if self.death is None and self.messages and "done" in self.messages[-1]:
            return self.messages[-1]["done"]
        return None


def memory_words() -> str:
    """The memory limit, in words.

    Examples
    --------
    >>> memory_words()
    'used more than 1 GB of memory'
    """
    size = f"{MEMORY_LIMIT_MB // 1024} GB" if MEMORY_LIMIT_MB % 1024 == 0 else f"{MEMORY_LIMIT_MB} MB"
    return f"used more than {size} of memory"


def fence(seconds: float) -> None:
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
        resource.setrlimit(resource.RLIMIT_CPU, (wanted, hard))


def fenced_function(function, seconds: float):
    """`function`, calling `fence` before each call (in the child: a board may run out of time in C)."""

    def fenced(board, click):
        fence(seconds)
        try:
            return function(board, click)
        except MemoryError:
            raise MemoryError("your function " + memory_words()) from None

    return fenced


def _address_space() -> int:
    """Bytes of address space this process has mapped now (0 where it cannot be read)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _limit_child(cpu: float) -> None:
    """In the child: at most `cpu` CPU seconds in all, `MEMORY_LIMIT_MB` more memory, no core file."""
    room = _address_space()
    set_limits(cpu, room + MEMORY_LIMIT_MB * 1024 * 1024 if room else None, slack=1, stop_at_output=False)


def _no_input(prompt=""):
    raise EOFError("input() cannot be answered while your function is graded")


def _send_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _child(job, write: int, output: int, cpu: float) -> None:
    """The child's whole life: limits, quiet descriptors, the job, its result sent; never returns."""
    global in_child
    status, in_child = 70, True
    try:
        os.dup2(output, 1)
        os.dup2(output, 2)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        sys.stdout = sys.stderr = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), write_through=True)
        sys.stdin = io.StringIO("")
        if faulthandler.is_enabled():  # its own copy of the parent's stderr: write to ours instead
            faulthandler.enable(sys.stderr)
        builtins.input = _no_input  # a kernel's input() would ask the notebook from here
        sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
        _limit_child(cpu)

        def send(message: dict) -> None:
            _send_all(write, (json.dumps(message) + "\n").encode())

        try:
            result = job(send)
        except KeyboardInterrupt:
            send({"interrupted": True})
            status = 0
        except MemoryError:
            status = 71
        else:
            send({"done": result})
            status = 0
    except MemoryError:
        status = 71
    except BaseException:  # the job's own failure: the parent names a death without result
        status = 70
    finally:
        os._exit(status)


def run_in_child(job, *, cpu: float, wall: float) -> Ended:
    """Run ``job(send)`` in a child process; return how it ended. Ctrl-C stops the child, then goes on up.

    `job` is called in the child with `send`, which sends a JSON-able dict
    to the parent at once; what it returns (JSON-able) is sent last. The
    child may use `cpu` CPU seconds in all and `MEMORY_LIMIT_MB` megabytes
    more than the parent had; the parent stops it after `wall` seconds on the clock.

    Examples
    --------
    >>> run_in_child(lambda send: 6 * 7, cpu=5, wall=60).result
    42
    >>> ended = run_in_child(lambda send: os._exit(7), cpu=5, wall=60)
    >>> ended.death, ended.words
    ('ended the process', 'your function ended the process (exit code 7)')
    """
    read, write = os.pipe()
    output = tempfile.TemporaryFile()
    try:
        with warnings.catch_warnings():  # Python 3.12 warns of fork in a process with threads
            warnings.simplefilter("ignore")
            pid = os.fork()
        if pid == 0:
            os.close(read)
            _child(job, write, output.fileno(), cpu)
        os.close(write)
        chunks, waited = _read_until_closed(read, pid, wall)
        _, status, usage = os.wait4(pid, 0)
        output.seek(0, os.SEEK_END)
        size = output.tell()
        output.seek(max(0, size - _KEPT))
        said = output.read().decode("utf-8", "replace")
    finally:
        os.close(read)
        output.close()
    ended = Ended(_messages(b"".join(chunks)), output=said, cpu=usage.ru_utime + usage.ru_stime)
    if ended.messages and ended.messages[-1].get("interrupted"):
        raise KeyboardInterrupt
    if ended.result is None:
        ended.death, ended.words = how_it_ended(status, ended.cpu, cpu, said, waited, wall)
    return ended


def _read_until_closed(read: int, pid: int, wall: float) -> tuple[list[bytes], bool]:
    """Read the pipe until the child closes it; past `wall` seconds, kill the child."""
    chunks, deadline = [], time.monotonic() + wall
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                _kill(pid)
                return chunks, True
            ready, _, _ = select.select([read], [], [], min(left, 1.0))
            if ready:
                chunk = os.read(read, 1 << 16)
                if not chunk:
                    return chunks, False
                chunks.append(chunk)
    except BaseException:  # Ctrl-C in the notebook: the child goes too
        _kill(pid)
        os.waitpid(pid, 0)
        raise


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _messages(data: bytes) -> list[dict]:
    out = []
    for line in data.split(b"\n"):
        try:
            out.append(json.loads(line))
        except ValueError:  # the last line, cut short by a death
            pass
    return [m for m in out if isinstance(m, dict)]


def how_it_ended(
    status: int, used: float, cpu: float, said: str, waited: bool, wall: float
) -> tuple[str, str]:
    """Name how a child ended without sending its result: a key of BUGS, and a sentence."""
    if waited:
        return "waited", (
            f"your function was stopped after {wall:g} s on the clock, having used little CPU time: "
            "it was waiting (time.sleep, input(), a lock)"
        )
    code = os.waitstatus_to_exitcode(status)
    if code == 71 or "MemoryError" in said[-2000:]:
        return "memory", "your function " + memory_words()
    if code >= 0:
        return "ended the process", f"your function ended the process (exit code {code})"
    number = -code
    if number in (getattr(signal, "SIGXCPU", None), signal.SIGKILL) and used >= 1:
        if used < math.ceil(cpu) - 0.5:
            return "C call too long", "one call into C ran past the time limit, and was stopped"
        return "C call too long", f"your function used all the CPU time a check may use ({math.ceil(cpu)} s)"
    try:
        name = signal.Signals(number).name
        meaning = signal.strsignal(number) or name
    except ValueError:
        name = meaning = f"signal {number}"
    return "crashed", f"your function crashed Python: {name} ({meaning})"
