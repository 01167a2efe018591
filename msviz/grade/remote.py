"""The judge's handle on a runner process: boards out, accounts in, and how it ended.

`Remote` is the same for `check`'s forked child and the class command's
runner: it sends a board, reads the runner's account of it through
`msviz.grade.judge` (size-limited, schema-checked) and, when the runner ends,
is killed, or sends what cannot be read, raises `Stopped` with how it ended.
When the judge is done, `finish` closes the channel and kills whatever is
left: with a PID namespace, everything the student's code started.
"""

from __future__ import annotations

import os
import shutil
import signal
import time
from dataclasses import dataclass

from ..i18n import _
from .judge import Channel, Unreadable, read_raw, too_slow
from .run import Attempt

__all__ = ["Remote", "Stopped", "Ended", "KEPT", "GRACE", "tree_cpu"]

#: Characters kept of what a runner wrote to its descriptors 1 and 2 (the end of it).
KEPT = 20_000
#: CPU seconds a board may take, measured from outside, beyond its limit (the runner's own work:
#: reading the board, sending the writes) before it is too slow.
GRACE = 0.5
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: int) -> list[bytes] | None:
    """The fields of /proc/PID/stat after the command's name (the first is the state), or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            text = stat.read()
    except OSError:
        return None
    return text[text.rindex(b")") + 2 :].split()


def _children(pid: int, threads: int) -> list[int]:
    """The processes `pid` started and has not reaped (those of each of its threads, if it has more)."""
    tasks = [str(pid)]
    if threads > 1:
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            pass
    found = []
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as listed:
                found += [int(child) for child in listed.read().split()]
        except (OSError, ValueError):
            pass
    return found


def tree_cpu(pid: int, known: list[int] | None = None) -> float | None:
    """CPU seconds used by process `pid`, every thread of it, every process it started (alive, or
    ended and reaped: the kernel adds those to their parent's), and theirs; None where /proc cannot
    tell (not Linux, or `pid` is gone). Read from outside: nothing in those processes can change it.

    Examples
    --------
    >>> import os
    >>> used = tree_cpu(os.getpid())
    >>> used is None or used > 0
    True

    `known`: the tree's processes, where none can be added (its fence refuses new ones): only
    theirs are read.
    """
    if known is not None:
        fields = [_stat(process) for process in known]
        if all(fields):
            return sum(int(n) for one in fields for n in one[11:15]) / _TICKS
    total, todo, seen = 0, [pid], set()
    while todo:
        process = todo.pop()
        fields = _stat(process) if process not in seen else None
        seen.add(process)
        if fields is None:
            if process == pid:
                return None
            continue
        total += sum(int(n) for n in fields[11:15])  # utime, stime, cutime, cstime
        todo += _children(process, int(fields[17]))
    return total / _TICKS


def tree_of(pid: int) -> list[int]:
    """Process `pid` and every process it started, and theirs (as `tree_cpu` walks them)."""
    found, todo = [], [pid]
    while todo:
        process = todo.pop()
        fields = _stat(process)
        if fields is not None and process not in found:
            found.append(process)
            todo += _children(process, int(fields[17]))
    return found


#: The mistakes that already say a board took too long.
_SLOW = ("too slow", "endless recursion", "revisits revealed cells", "queued many times")


class _Stop(Exception):
    """Raised by the judge's watch over a runner: stop it, for `why`."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


@dataclass
class Ended:
    """How a runner ended: its wait status, CPU seconds, peak memory, output, and why the judge stopped it.

    `why` is ``None`` (it ended by itself), ``"clock"`` (the wall-clock
    guard), ``"idle"`` (it used no CPU time for `Remote.idle` seconds: it
    was waiting), ``"cpu"`` (its CPU time, measured from outside, ran past a
    board's limit, or past all it may use), or ``"unreadable"`` (it sent what
    the judge cannot read).
    """

    status: int = 0
    cpu: float = 0.0
    peak: int = 0  # bytes: the most the runner's processes held (as the kernel counts it)
    output: str = ""
    why: str | None = None
    before: int = 0  # bytes the judge held when it started the runner (see `Remote.before`)
    limit: float = 0.0  # the CPU seconds of the board it was stopped on, if it was stopped on one


class Stopped(Exception):
    """The runner ended, or was stopped, before it answered: `ended` says how."""

    def __init__(self, ended: Ended):
        super().__init__(ended.why or "ended")
        self.ended = ended


class Remote:
    """A runner process as the judge sees it.

    Parameters
    ----------
    pid : int
        The runner's process (the first of its processes, outside any namespace).
    read, write : int
        The judge's ends of the channel.
    output : file
        Where the runner's descriptors 1 and 2 go (the judge's own file).
    deadline : float
        `time.monotonic()` past which the runner is stopped: the wall-clock guard.
    folder : str, optional
        The runner's private folder, removed by `finish`.
    group : bool
        Whether the runner leads a process group of its own, killed with it.
    idle : float, optional
        Seconds without using any CPU time (measured from outside) after
        which a runner the judge waits for is stopped: it was waiting.
    cpu : float, optional
        CPU seconds its processes may use in all, measured from outside.

    While the judge waits for an answer it reads, every `msviz.grade.judge.POLL`
    seconds, the CPU time of the runner's processes (`tree_cpu`): a board
    whose CPU time passes its limit and `GRACE` is stopped there, and one
    answered past it is too slow, whatever the runner says it used.
    """

    def __init__(
        self, pid: int, read: int, write: int, output, deadline: float, folder=None, group=False, **watch
    ):
        self.pid, self.output, self.folder, self.group = pid, output, folder, group
        self.channel = Channel(read, write, deadline)
        self.ended: Ended | None = None
        #: Bytes the judge held when the runner started: the kernel may count them in the runner's peak.
        self.before = 0
        self.idle, self.cpu = watch.get("idle"), watch.get("cpu")
        self.board: tuple[float, float] | None = None  # (CPU time at its start, its limit), while one runs
        self.seen = (0.0, 0.0)  # (CPU time last seen, when it was seen to grow)
        self.answered: float | None = None  # its CPU time when it sent its last answer
        self.known: list[int] | None = None  # its processes, once its fence refuses new ones
        self.fence: list[str] = []  # its fence's layers that held, said before the student's code ran

    def fenced(self, layers) -> None:
        """The runner said its fence's `layers`: where it can start no process, its tree is read once."""
        self.fence = [layer for layer in layers if isinstance(layer, str)]
        if "spawning" in self.fence:
            self.known = tree_of(self.pid)

    def _watch(self) -> None:
        """While the judge waits: stop a runner that waits, or has used up a board's or all its CPU time."""
        used = tree_cpu(self.pid, self.known)
        if used is None:
            return
        now = time.monotonic()
        if used > self.seen[0]:
            self.seen = (used, now)
        elif self.idle is not None and now - self.seen[1] >= self.idle:
            raise _Stop("idle")
        if self.board is not None and used - self.board[0] > self.board[1] + GRACE:
            raise _Stop("cpu")
        if self.cpu is not None and used > self.cpu:
            self.board = None  # all it may use, not one board's: said as such
            raise _Stop("cpu")

    def receive(self) -> dict:
        """The runner's next message; `Stopped` if it ended, sent garbage, ran past the clock or its
        CPU time, or waited."""
        self.seen = (self.seen[0], time.monotonic())
        try:
            message = self.channel.receive(self._watch)
        except Unreadable:
            raise Stopped(self.finish("unreadable")) from None
        except TimeoutError:
            raise Stopped(self.finish("clock")) from None
        except _Stop as stop:
            raise Stopped(self.finish(stop.why)) from None
        if message is None:
            raise Stopped(self.finish())
        return message

    def attempt(self, board, click, limit: float) -> Attempt:
        """Have the runner run the student's function on `board`; judge its account as an `Attempt`,
        too slow where its CPU time, measured from outside, passed `limit` and `GRACE`."""
        request = {"board": ["".join(row) for row in board], "click": list(click), "limit": limit}
        start = self.answered if self.answered is not None else tree_cpu(self.pid, self.known)
        self.board = None if start is None else (start, limit)
        if not self.channel.send(request):
            raise Stopped(self.finish())
        try:
            message = self.receive()
        finally:
            self.board = None
        try:
            tried = read_raw(message, board, limit)
        except Unreadable:
            raise Stopped(self.finish("unreadable")) from None
        end = tree_cpu(self.pid, self.known) if start is not None else None
        self.answered = end  # the runner waits for the next board from here: no second read then
        if end is not None and end - start > limit + GRACE:
            tried.cpu = max(tried.cpu, end - start)
            if tried.bug not in _SLOW:
                tried.problem, tried.bug, tried.board = too_slow(limit), "too slow", None
        return tried

    def finish(self, why: str | None = None) -> Ended:
        """Close the channel, end the runner (killed unless it ended by itself), reap it; how it ended.

        Called again, it returns the same.
        """
        if self.ended is not None:
            return self.ended
        self.channel.close()
        if why is not None:
            self.kill_inside()
        status, usage = self._reap(grace=5.0)
        self.ended = Ended(
            status,
            usage.ru_utime + usage.ru_stime if usage else 0.0,
            usage.ru_maxrss * 1024 if usage else 0,
            self._said(),
            why,
            self.before,
            self.board[1] if self.board is not None else 0.0,
        )
        if self.folder:
            shutil.rmtree(self.folder, ignore_errors=True)
        return self.ended

    def kill_inside(self) -> None:
        """Kill the runner's first process's children: with a PID namespace, its init, whose end
        the kernel makes wait until every process in the namespace has ended; the first process
        then ends by itself, so that reaping it means nothing the student started is left."""
        try:
            with open(f"/proc/{self.pid}/task/{self.pid}/children") as listed:
                children = [int(pid) for pid in listed.read().split()]
        except (OSError, ValueError):
            children = []
        for child in children:
            try:
                os.kill(child, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if not children:
            self._kill()

    def _kill(self) -> None:
        for kill, target in (
            ((os.killpg, self.pid), (os.kill, self.pid)) if self.group else ((os.kill, self.pid),)
        ):
            try:
                kill(target, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def _reap(self, grace: float):
        """Wait for the runner (killing it after `grace` seconds); its wait status and resource use."""
        deadline = time.monotonic() + grace
        while True:
            try:
                pid, status, usage = os.wait4(self.pid, os.WNOHANG)
            except ChildProcessError:
                return 0, None
            if pid:
                return status, usage
            if time.monotonic() >= deadline:
                self._kill()
                _, status, usage = os.wait4(self.pid, 0)
                return status, usage
            time.sleep(0.01)

    def _said(self) -> str:
        try:
            self.output.seek(0, os.SEEK_END)
            size = self.output.tell()
            self.output.seek(max(0, size - KEPT))
            return self.output.read().decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""
        finally:
            self.output.close()


def unreadable_words() -> str:
    """What a report says of a runner that sent what the judge cannot read.

    Examples
    --------
    >>> unreadable_words()
    'stopped: it sent something the grader cannot read'
    """
    return _("stopped: it sent something the grader cannot read")
