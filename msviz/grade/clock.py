"""The CPU-time limit: a watcher thread that raises `TimeUp` in the student's thread past its CPU time.

The judge also measures each board's CPU time from outside the runner (`msviz.grade.remote`):
this clock only stops the student's code in time to say where it was.
"""

from __future__ import annotations

import os
import signal
import sys
import sysconfig
import threading
import time


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


class _Watcher:
    """One thread, made once per process, that watches every `_Clock` running (a check inside a
    student's function runs a clock inside a clock).

    A runner makes it before its fence refuses new threads (`start_watcher`);
    elsewhere it is made on first use. A forked child makes its own (`os.register_at_fork`).
    """

    def __init__(self):
        self.clocks: set = set()
        self.wake = threading.Condition()
        self.thread = threading.Thread(target=self._run, name="msviz-grader-clock", daemon=True)
        self.thread.start()

    def add(self, clock) -> None:
        with self.wake:
            self.clocks.add(clock)
            self.wake.notify()

    def remove(self, clock) -> None:
        with self.wake:
            self.clocks.discard(clock)

    def _run(self) -> None:
        # One thread's CPU time grows no faster than the clock on the wall, so no limit can be
        # reached before the CPU time left has passed: sleep that long (a short run is never
        # woken), then every TICK once one is near.
        while True:
            with self.wake:
                while not self.clocks:
                    self.wake.wait()
                left = min(clock.limit - clock.used() for clock in self.clocks)
                self.wake.wait(max(_Clock.TICK, left))
                clocks = list(self.clocks)
            for clock in clocks:
                clock.check()


_WATCHER: list = []  # the process's watcher, once made


def start_watcher() -> None:
    """Make this process's clock-watching thread now, if it has none (before threads are refused)."""
    if not _WATCHER and _INTERRUPT is not None:
        _WATCHER.append(_Watcher())


if hasattr(os, "register_at_fork"):  # a forked child has no thread of its parent's
    os.register_at_fork(after_in_child=_WATCHER.clear)


class _Clock:
    """Stops the calling thread's Python code once it has used `limit` seconds of CPU time.

    The process's watcher thread (`_Watcher`) sleeps for the CPU time left,
    then reads the caller's CPU clock every `TICK` seconds and, past the
    limit, raises `TimeUp` in the caller's thread (CPython's
    ``PyThreadState_SetAsyncExc``); Python notices it at the next bytecode
    that checks for signals, which includes every jump back to the start of a
    loop. It is raised again at every tick until the caller leaves the block,
    and one still pending then is raised and caught on the way out.
    Where there is no such call (no ctypes), a CPU-time timer (``ITIMER_PROF``)
    raises it from a signal handler in the main thread; in another thread, a
    trace function reads the clock at every bytecode.
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

    def used(self) -> float:
        """CPU seconds the caller has used since the clock was made."""
        return self.read() - self.start

    def check(self) -> None:
        """In the watcher: past the limit, raise `TimeUp` in the caller (while it is inside)."""
        if self.used() >= self.limit:
            with self.lock:
                if self.inside:
                    self.fired = True
                    _INTERRUPT(self.thread, TimeUp)

    def _line(self, frame, event, arg):
        if event == "call":  # every bytecode, not only new lines: `while True: pass` is one line
            frame.f_trace_opcodes = True
        if self.used() >= self.limit:
            raise TimeUp
        return self._line

    def _alarm(self, number, frame):
        if self.inside and self.used() >= self.limit:
            self.fired = True
            raise TimeUp

    def __enter__(self):
        self.inside = True
        self.mode = "thread" if _INTERRUPT is not None else "trace"
        if self.mode == "thread":
            start_watcher()
            _WATCHER[0].add(self)
        elif hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
            self.mode = "signal"
            self.old_handler = signal.signal(signal.SIGPROF, self._alarm)
            self.old_timer = signal.setitimer(
                signal.ITIMER_PROF, max(0.001, self.limit - self.used()), self.TICK
            )
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
        if self.mode == "thread":
            _WATCHER[0].remove(self)
        elif self.mode == "signal":
            signal.setitimer(signal.ITIMER_PROF, *self.old_timer)
            signal.signal(signal.SIGPROF, self.old_handler)
        else:
            sys.settrace(self.old_trace)
        return False
