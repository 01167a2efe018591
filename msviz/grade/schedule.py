"""Scheduling: a worker per submission, a few at a time, each row read or its death named; progress."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .limits import Limits, stopped_by_the_clock, why_it_stopped
from .rows import STDOUT_KEPT, Row
from .submissions import Submission
from .vocabulary import clip

#: At most this many submissions at once by default: each may use its memory limit.
MOST_JOBS = 8


@dataclass
class _Running:
    submission: Submission
    process: subprocess.Popen
    folder: Path
    started: float
    output: object


def grade_class(
    submissions: list[Submission],
    *,
    order: str | None = None,
    limits: Limits = Limits(),  # noqa: B008 (frozen: the default cannot change)
    random_boards: int = 200,
    function: str | None = None,
    out_of: float = 1.0,
    jobs: int = 1,
    progress=None,
) -> list[Row]:
    """Grade each submission in a worker process of its own; return the rows, in the order given.

    Parameters
    ----------
    submissions : list of Submission
        As :func:`find_submissions` returns them.
    order : {"dfs", "bfs"}, optional
        Also grade the order, as ``msviz.check(..., order=order)`` does.
    limits : Limits
        The CPU time and memory each worker may use.
    random_boards : int
        Random boards tried (fewer is faster).
    function : str, optional
        The function's name, tried before the usual ones.
    out_of : float
        Full marks, for each row's points.
    jobs : int
        Workers at once.
    progress : callable, optional
        Called with ``(0, total, None)`` first, then with ``(done, total,
        row)`` after each submission.

    Examples
    --------
    >>> import pathlib, shutil, tempfile
    >>> from msviz.grade.submissions import find_submissions
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "ada.py").write_text("def update_board(board, click): return board")
    >>> [row] = grade_class(find_submissions([folder]), random_boards=2)
    >>> row.name, row.verdict, row.results["examples"]
    ('ada', 'wrong', (0, 2))
    >>> shutil.rmtree(folder)
    """
    options = {
        "order": order,
        "cpu": limits.cpu,
        "memory": limits.memory,
        "clock": limits.clock,
        "random_boards": random_boards,
        "function": function,
        "out_of": out_of,
    }
    waiting, running, rows = list(submissions), [], {}
    if progress:
        progress(0, len(submissions), None)
    try:
        while waiting or running:
            while waiting and len(running) < jobs:
                running.append(_start(waiting.pop(0), options))
            for job in list(running):
                row = _finished(job, limits)
                if row is not None:
                    running.remove(job)
                    rows[job.submission] = row
                    if progress:
                        progress(len(rows), len(submissions), row)
            if running:
                time.sleep(0.05)
    finally:
        for job in running:  # interrupted (Ctrl-C): stop what is still running
            _stop(job.process)
            _clean(job)
    return [rows[s] for s in submissions]


def _worker_environment() -> dict:
    env = dict(os.environ)
    package_home = str(Path(__file__).resolve().parents[2])  # msviz importable from any folder
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_home, env.get("PYTHONPATH")) if p)
    # One thread for numpy's libraries and few malloc arenas: the memory limit then counts the
    # submission, not reserved address space.
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[name] = "1"
    env.update(MALLOC_ARENA_MAX="2", MPLBACKEND="Agg", PYTHONDONTWRITEBYTECODE="1", PYTHONIOENCODING="utf-8")
    return env


def _start(submission: Submission, options: dict) -> _Running:
    folder = Path(tempfile.mkdtemp(prefix="msviz-grade-"))
    (folder / "options.json").write_text(
        json.dumps({**options, "path": str(submission.path.resolve())}), encoding="utf-8"
    )
    output = open(folder / "output.txt", "wb")  # closed by _clean
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "msviz.grade.worker",
            str(folder / "result.json"),
            str(folder / "options.json"),
        ],
        cwd=submission.path.resolve().parent,  # as Jupyter runs a notebook: beside its files
        env=_worker_environment(),
        stdin=subprocess.DEVNULL,
        stdout=output,
        stderr=subprocess.STDOUT,
        start_new_session=os.name == "posix",
    )
    return _Running(submission, process, folder, time.monotonic(), output)


def _reap(process: subprocess.Popen) -> tuple[int, float] | None:
    """The exit status and CPU seconds of a worker that has ended, or None while it runs."""
    if hasattr(os, "wait4"):
        try:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        except ChildProcessError:
            return (process.returncode or 0), 0.0
        if pid == 0:
            return None
        process.returncode = os.waitstatus_to_exitcode(status)
        return process.returncode, usage.ru_utime + usage.ru_stime
    status = process.poll()
    return None if status is None else (status, 0.0)


def _finished(job: _Running, limits: Limits) -> Row | None:
    ended = _reap(job.process)
    guard = ended is None and time.monotonic() - job.started > limits.wall
    if ended is None and not guard:
        return None
    if guard:
        _stop(job.process)
        ended = (None, 0.0)
    try:
        return _row(job, limits, *ended, guard=guard)
    finally:
        _clean(job)


def _stop(process: subprocess.Popen) -> None:
    try:
        if os.name == "posix":
            os.killpg(process.pid, signal.SIGKILL)  # the worker and anything it started
        else:
            process.kill()
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.wait(timeout=10)
    except (subprocess.TimeoutExpired, ChildProcessError):
        pass


def _clean(job: _Running) -> None:
    job.output.close()
    shutil.rmtree(job.folder, ignore_errors=True)


def _row(job: _Running, limits: Limits, status, cpu: float, *, guard: bool) -> Row:
    """The row of a worker that has ended: from its result, or from how it ended."""
    name, file = job.submission.name, str(job.submission.path)
    output = (job.folder / "output.txt").read_bytes()[-20000:].decode("utf-8", "replace")
    try:
        data = json.loads((job.folder / "result.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = None
    if guard:
        return Row(name, file, "stopped", problem=stopped_by_the_clock(limits), stdout=clip(output, 2000))
    if data is None:
        return Row(
            name,
            file,
            "stopped",
            problem=why_it_stopped(status, cpu, output, limits),
            stdout=clip(output, 2000),
        )
    failure = data.get("failure")
    return Row(
        name,
        file,
        data["verdict"],
        points=data.get("points", 0.0),
        results={k: (v["passed"], v["tried"]) for k, v in data.get("results", {}).items()},
        mistake=(failure or {}).get("mistake", ""),
        hint=(failure or {}).get("hint", ""),
        problem=data.get("problem") or "",
        notes=data.get("notes", []),
        failure=failure,
        summary=data.get("summary", ""),
        stdout=clip(output + data.get("stdout", ""), STDOUT_KEPT),
    )


class Progress:
    """One line on stderr, redrawn after each submission; a plain line each when not a terminal."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.live = hasattr(self.stream, "isatty") and self.stream.isatty()

    def __call__(self, done: int, total: int, row: Row | None) -> None:
        if row is None:  # the start: an empty bar on a terminal, nothing otherwise
            if self.live:
                self.stream.write(f"\r[{'.' * 30}] 0/{total}")
                self.stream.flush()
            return
        said = row.mistake or row.problem or ""
        if not self.live:
            print(
                f"[{done}/{total}] {row.name}: {row.verdict}" + (f" ({said})" if said else ""),
                file=self.stream,
            )
            return
        filled = round(30 * done / total)
        line = f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} {row.name}: {row.verdict}"
        width = shutil.get_terminal_size().columns - 1
        self.stream.write(line[: width + 1].ljust(width + 1))
        if done == total:
            self.stream.write("\n")
        self.stream.flush()
