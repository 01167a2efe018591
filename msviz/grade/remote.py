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
from .judge import Channel, Unreadable, read_raw
from .run import Attempt

__all__ = ["Remote", "Stopped", "Ended", "KEPT"]

#: Characters kept of what a runner wrote to its descriptors 1 and 2 (the end of it).
KEPT = 20_000


@dataclass
class Ended:
    """How a runner ended: its wait status, CPU seconds, peak memory, output, and why the judge stopped it.

    `why` is ``None`` (it ended by itself), ``"clock"`` (the wall-clock
    guard), or ``"unreadable"`` (it sent what the judge cannot read).
    """

    status: int = 0
    cpu: float = 0.0
    peak: int = 0  # bytes: the most the runner's processes held (as the kernel counts it)
    output: str = ""
    why: str | None = None
    before: int = 0  # bytes the judge held when it started the runner (see `Remote.before`)


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
    """

    def __init__(self, pid: int, read: int, write: int, output, deadline: float, folder=None, group=False):
        self.pid, self.output, self.folder, self.group = pid, output, folder, group
        self.channel = Channel(read, write, deadline)
        self.ended: Ended | None = None
        #: Bytes the judge held when the runner started: the kernel may count them in the runner's peak.
        self.before = 0

    def receive(self) -> dict:
        """The runner's next message; `Stopped` if it ended, sent garbage, or ran past the clock."""
        try:
            message = self.channel.receive()
        except Unreadable:
            raise Stopped(self.finish("unreadable")) from None
        except TimeoutError:
            raise Stopped(self.finish("clock")) from None
        if message is None:
            raise Stopped(self.finish())
        return message

    def attempt(self, board, click, limit: float) -> Attempt:
        """Have the runner run the student's function on `board`; judge its account as an `Attempt`."""
        request = {"board": ["".join(row) for row in board], "click": list(click), "limit": limit}
        if not self.channel.send(request):
            raise Stopped(self.finish())
        message = self.receive()
        try:
            return read_raw(message, board, limit)
        except Unreadable:
            raise Stopped(self.finish("unreadable")) from None

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
