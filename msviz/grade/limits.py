"""The limits on a submission (CPU time, memory, output, the clock guard) and how a death is named."""

from __future__ import annotations

import math
import signal
from dataclasses import dataclass

from ..i18n import _

#: Megabytes a submission may print (or write to any file): more is a runaway loop.
OUTPUT_LIMIT_MB = 64
#: Seconds a runner may go without using any CPU time (measured from outside) while the judge waits
#: for it: then it is stopped, "it was waiting" (time.sleep, input(), a lock, children it waits for).
IDLE_SECONDS = 10.0


@dataclass(frozen=True)
class Limits:
    """What each submission may use: CPU seconds, megabytes of memory, the wall-clock guard, and the
    seconds it may wait without using CPU time (`IDLE_SECONDS`)."""

    cpu: float = 60.0
    memory: int = 1024
    clock: float | None = None
    idle: float = IDLE_SECONDS

    @property
    def wall(self) -> float:
        """Clock seconds before a runner is stopped: `clock`, or 10 times its CPU time (60 at least).

        Examples
        --------
        >>> Limits(cpu=2).wall, Limits(cpu=30).wall, Limits(clock=5).wall
        (60.0, 300.0, 5.0)
        """
        return float(self.clock if self.clock is not None else max(60, 10 * self.cpu))


def ran_out_of_cpu(limits: Limits) -> str:
    """What a row says of a submission stopped by the CPU limit.

    Examples
    --------
    >>> ran_out_of_cpu(Limits(cpu=5))
    'ran out of CPU time (the limit is 5 s): probably an endless loop'
    """
    return _("ran out of CPU time (the limit is {seconds} s): probably an endless loop").format(
        seconds=f"{limits.cpu:g}"
    )


def used_too_much_memory(limits: Limits) -> str:
    """What a row says of a submission stopped by the memory limit."""
    return _("used more than {megabytes} MB of memory").format(megabytes=limits.memory)


def exited(status: int) -> str:
    """What a row says of a submission that ended its own process."""
    return _("exited with status {status} before it was graded (os._exit or sys.exit)").format(status=status)


def wrote_too_much() -> str:
    """What a row says of a submission stopped for printing without end."""
    return _("printed more than {megabytes} MB").format(megabytes=OUTPUT_LIMIT_MB)


def stopped_by_the_clock(limits: Limits) -> str:
    """What a row says of a submission stopped by the wall-clock guard."""
    return _(
        "stopped by the wall-clock guard after {seconds} s without using its CPU time: "
        "it was waiting (time.sleep, input, a lock)"
    ).format(seconds=f"{limits.wall:g}")


def it_was_waiting(seconds: float) -> str:
    """What a row says of a submission stopped for using no CPU time for `seconds`.

    Examples
    --------
    >>> it_was_waiting(10)
    'stopped: it was waiting (no CPU time used for 10 s: time.sleep, input(), a lock)'
    """
    said = _("stopped: it was waiting (no CPU time used for {seconds} s: time.sleep, input(), a lock)")
    return said.format(seconds=f"{seconds:g}")


def why_it_stopped(status: int, cpu: float, output: str, limits: Limits, peak: int = 0) -> str:
    """Why a runner ended before its last answer, in words.

    `peak` is the most memory it held (bytes): one stopped for CPU time after
    growing past half its memory limit was filling the memory, not looping.

    Examples
    --------
    >>> why_it_stopped(-24, 5.0, "", Limits(cpu=5, memory=400), peak=300 * 2**20)
    'used more than 400 MB of memory'
    >>> why_it_stopped(3, 0.1, "", Limits())
    'exited with status 3 before it was graded (os._exit or sys.exit)'
    """
    out_of_cpu = -status in (getattr(signal, "SIGXCPU", None), signal.SIGKILL) or cpu >= limits.cpu - 0.5
    if out_of_cpu and peak >= limits.memory * 1024 * 1024 // 2:
        return used_too_much_memory(limits)
    if -status == getattr(signal, "SIGXCPU", None) or cpu >= limits.cpu - 0.5:
        return ran_out_of_cpu(limits)
    if -status == getattr(signal, "SIGXFSZ", None):
        return wrote_too_much()
    if "MemoryError" in output[-1000:]:  # the last lines: Python's traceback as it died
        return used_too_much_memory(limits)
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        return _("was stopped by {signal} before it was graded").format(signal=name)
    return exited(status)


def lower_limits(wanted) -> None:
    """Set this process's limits `wanted`, each ``(resource, soft, hard)``, never above the hard
    limit already in force; one the platform refuses (macOS refuses some) is left, the others hold."""
    import resource

    for which, soft, hard in wanted:
        old_hard = resource.getrlimit(which)[1]
        if old_hard != resource.RLIM_INFINITY:
            soft, hard = min(soft, old_hard), min(hard, old_hard)
        try:
            resource.setrlimit(which, (soft, hard))
        except (ValueError, OSError):
            pass


def set_limits(cpu: float, memory: int | None, *, slack: int, stop_at_output: bool) -> None:
    """Limit this process, where the platform can: the one way a student's code is confined.

    `cpu` CPU seconds in all (rounded up; the hard limit `slack` seconds later),
    `memory` bytes of address space (None: no limit), no core file,
    `OUTPUT_LIMIT_MB` written. With `stop_at_output` a write past that limit
    ends the process (SIGXFSZ), as the class command's runner wants; otherwise
    the write fails. Used by `check`'s child (`msviz.grade.child`) and the
    class command's runner (`msviz.grade.runner`).
    """
    try:
        import resource
    except ImportError:  # Windows: only the wall-clock guard
        return
    seconds = max(1, math.ceil(cpu))
    output = OUTPUT_LIMIT_MB * 1024 * 1024
    wanted = [
        (resource.RLIMIT_CPU, seconds, seconds + slack),
        (resource.RLIMIT_CORE, 0, 0),
        (resource.RLIMIT_FSIZE, output, output),
    ]
    if memory and hasattr(resource, "RLIMIT_AS"):
        wanted.append((resource.RLIMIT_AS, memory, memory))
    lower_limits(wanted)
    if stop_at_output and hasattr(signal, "SIGXFSZ"):  # Python ignores it (a write fails instead)
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
