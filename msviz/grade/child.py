"""`check`'s runner: a child process forked from the notebook, fenced, under limits; its death named.

`start` forks (the student's function, defined in the notebook, comes along
as it is: nothing is pickled). The child keeps only the channel to the judge
(every other descriptor of the kernel's is closed), an environment with none
of the kernel's variables, and its own output file; it fences itself
(`msviz.grade.sandbox`), sets its limits with ``resource.setrlimit`` (CPU
time, address space, no core file) and becomes a runner
(`msviz.grade.runner.serve`). The notebook's kernel is the judge: it sends
the boards, reads the answers as untrusted data and decides. Whatever ends
the child (``os._exit``, a signal such as a segfault, a limit) comes back as
`Stopped`, its death named by `how_it_ended`: the kernel lives on with all
its variables.

Where the platform has no fork (Windows), `FORK` is False and the callers
run the code in-process, under the guards of `runner.raw` alone.
"""

from __future__ import annotations

import builtins
import faulthandler
import io
import math
import os
import signal
import sys
import tempfile
import time
import warnings

from ..i18n import _
from . import runner, sandbox
from .clock import start_watcher
from .guard import count_spawning
from .limits import IDLE_SECONDS, it_was_waiting, set_limits
from .remote import Ended, Remote, Stopped, unreadable_words
from .runner import allow_cpu, memory_named, serve
from .vocabulary import MEMORY_LIMIT_MB, memory_size

__all__ = ["FORK", "GRADER_CPU", "start", "how_it_ended", "resident", "held_at_most"]

#: Whether students' code runs in a child process here (a Unix with fork).
FORK = hasattr(os, "fork") and hasattr(os, "wait4")
#: CPU seconds a runner may use beyond the student's boards (reading answers, sending them).
GRADER_CPU = 15.0
#: The exit status of a runner whose student's code raised KeyboardInterrupt.
INTERRUPTED = 72


def _statm(field: int) -> int:
    """Bytes of field `field` of /proc/self/statm (0: mapped, 1: resident); 0 where it cannot be read."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[field]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _address_space() -> int:
    """Bytes of address space this process has mapped now (0 where it cannot be read)."""
    return _statm(0)


def _no_input(prompt=""):
    raise EOFError("input() cannot be answered while your function is graded")


def _only(keep: dict[int, int]) -> None:
    """Move each descriptor ``old -> new`` of `keep` and close every other one above 2."""
    moved = {old: os.dup(old) for old in keep}  # first out of the way of each other
    for old, new in keep.items():
        os.dup2(moved[old], new)
    highest = max(keep.values())
    try:
        most = os.sysconf("SC_OPEN_MAX")
    except (OSError, ValueError):
        most = 4096
    os.closerange(highest + 1, max(most, highest + 2))
    for fd in range(3, highest):
        if fd not in keep.values():
            try:
                os.close(fd)
            except OSError:
                pass


def _child(function, read: int, write: int, output: int, cpu: float, folder: str) -> None:
    """The forked child's whole life: quiet descriptors, the fence, limits, then boards; never returns."""
    status, runner.in_child = 70, True
    try:
        os.dup2(output, 1)
        os.dup2(output, 2)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        _only({read: 3, write: 4})  # the kernel's sockets and files are not the student's
        sys.stdout = sys.stderr = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), write_through=True)
        sys.stdin = io.StringIO("")
        if faulthandler.is_enabled():  # its own copy of the parent's stderr: write to ours instead
            faulthandler.enable(sys.stderr)
        builtins.input = _no_input  # a kernel's input() would ask the notebook from here
        os.environ.clear()
        os.environ.update(sandbox.clean_environment(folder))
        os.chdir(folder)
        sys.setrecursionlimit(max(sys.getrecursionlimit(), runner.RECURSION_LIMIT))
        room = _address_space()  # read before the fence, which hides /proc
        layers = sandbox.enter([os.getcwd()], [folder])
        set_limits(cpu, room + MEMORY_LIMIT_MB * 1024 * 1024 if room else None, slack=1, stop_at_output=False)
        start_watcher()
        count_spawning()
        layers += sandbox.refuse_spawning()
        runner._send(4, {"fence": layers})  # before any of the student's code runs
        serve(memory_named(function), 3, 4, before_each=allow_cpu)
        status = 0
    except KeyboardInterrupt:  # the student's code raised it: Ctrl-C goes on up in the notebook
        status = INTERRUPTED
    except MemoryError:
        status = 71
    except BaseException:  # the student's own failure: the judge names a death without an answer
        status = 70
    finally:
        os._exit(status)


def start(function, *, cpu: float, wall: float) -> Remote:
    """Fork a fenced runner of `function` (no pickling: it comes along as it is); the judge's handle on it.

    The child may use `cpu` CPU seconds in all and `MEMORY_LIMIT_MB`
    megabytes more than this process had; it is stopped after `wall`
    seconds on the clock.

    Examples
    --------
    >>> runner = start(lambda board, click: [["B"]], cpu=5, wall=60)
    >>> runner.attempt([["E"]], (0, 0), 1.0).board
    [['B']]
    >>> runner.finish().status
    0
    """
    to_child, from_judge = os.pipe()
    from_child, to_judge = os.pipe()
    output = tempfile.TemporaryFile()
    folder = tempfile.mkdtemp(prefix="msviz-check-")
    cwd = os.getcwd()
    try:
        with warnings.catch_warnings():  # Python 3.12 warns of fork in a process with threads
            warnings.simplefilter("ignore")
            pid = os.fork()
        if pid == 0:
            os.chdir(cwd)
            _child(function, to_child, to_judge, output.fileno(), cpu, folder)
    finally:
        if "pid" in locals() and pid:
            os.close(to_child)
            os.close(to_judge)
    deadline = time.monotonic() + wall
    remote = Remote(pid, from_child, from_judge, output, deadline, folder, idle=IDLE_SECONDS, cpu=cpu + 1)
    remote.before = resident()
    try:
        fence = remote.receive().get("fence")
    except Stopped:  # it ended at once: the first board says how
        fence = None
    remote.fenced([layer for layer in sandbox.LAYERS if isinstance(fence, list) and layer in fence])
    return remote


def how_it_ended(ended: Ended, cpu: float, wall: float, before: int = 0) -> tuple[str, str]:
    """Name how a runner ended without answering: a key of BUGS, and a sentence.

    `cpu` and `wall` are the limits it ran under; `before` the bytes it held
    when it started (a runner that grew by half its memory limit and was then
    stopped for CPU time was filling the memory, not looping).

    Examples
    --------
    >>> how_it_ended(Ended(status=7 << 8), cpu=20, wall=60)
    ('ended the process', 'your function ended the process (exit code 7)')
    >>> how_it_ended(Ended(why="unreadable"), cpu=20, wall=60)[1]
    'stopped: it sent something the grader cannot read'
    """
    if ended.why == "unreadable":
        return "unreadable", unreadable_words()
    if ended.why == "idle":
        return "waited", it_was_waiting(IDLE_SECONDS)
    if ended.why == "cpu" and ended.limit:  # measured from outside: its clock inside could not stop it
        return "C call too long", _("one call into C ran past the time limit, and was stopped")
    if ended.why == "cpu":
        return "C call too long", _(
            "your function used all the CPU time a check may use ({seconds} s)"
        ).format(seconds=math.ceil(cpu))
    if ended.why == "clock":
        return "waited", _(
            "your function was stopped after {seconds} s on the clock, having used little CPU time: "
            "it was waiting (time.sleep, input(), a lock)"
        ).format(seconds=f"{wall:g}")
    code = os.waitstatus_to_exitcode(ended.status)
    grew = ended.peak - max(before, ended.before) >= MEMORY_LIMIT_MB * 1024 * 1024 // 2
    number = -code if code < 0 else None
    stopped_for_cpu = number in (getattr(signal, "SIGXCPU", None), signal.SIGKILL) and ended.cpu >= 1
    if code == 71 or "MemoryError" in ended.output[-2000:] or (stopped_for_cpu and grew):
        return "memory", _("your function used more than {size} of memory").format(size=memory_size())
    if number is None:
        return "ended the process", _("your function ended the process (exit code {code})").format(code=code)
    if stopped_for_cpu:
        if ended.cpu < math.ceil(cpu) - 0.5:
            return "C call too long", _("one call into C ran past the time limit, and was stopped")
        return "C call too long", _(
            "your function used all the CPU time a check may use ({seconds} s)"
        ).format(seconds=math.ceil(cpu))
    try:
        name = signal.Signals(number).name
        meaning = signal.strsignal(number) or name
    except ValueError:
        name = meaning = f"signal {number}"
    return "crashed", _("your function crashed Python: {signal} ({meaning})").format(
        signal=name, meaning=meaning
    )


def held_at_most() -> int:
    """The most bytes of memory this process has held (its VmHWM; 0 where it cannot be read).

    A process this one starts by fork and exec is told that much as its own
    peak (Linux keeps the peak of the memory an exec replaces).
    """
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def resident() -> int:
    """Bytes of memory this process holds now (0 where it cannot be read)."""
    return _statm(1)
