"""The CPU-time limit: a watcher thread that raises `TimeUp` in the student's thread past its CPU time."""

from __future__ import annotations

import os
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
