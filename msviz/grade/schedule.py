"""The class run: a fenced runner per submission, judged here, a few at a time; progress.

For each submission the class command (the judge) copies the file alone
into a private folder, starts a runner there (`msviz.grade.runner.COMMAND`) with an environment of its
own and a channel of two pipes, and judges every board itself
(`msviz.grade.verdict.judge_all`): the runner only runs the student's
function and says what happened. Nothing the runner does reaches another
row: its row is made here, from what it answered, or from how it ended.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from pathlib import Path
from typing import NamedTuple

from ..i18n import _, get_language
from . import sandbox
from .bare import BARE
from .cases import cases
from .child import held_at_most
from .homework import Sizes, homework_row, nothing_found
from .judge import too_slow
from .limits import (
    Limits,
    it_was_waiting,
    ran_out_of_cpu,
    stopped_by_the_clock,
    used_too_much_memory,
    why_it_stopped,
)
from .mistakes import hint_of, name_of
from .remote import Remote, Stopped, unreadable_words
from .rows import STDOUT_KEPT, Row, with_tests
from .runner import COMMAND
from .submissions import Submission, could_not_be_read
from .verdict import judge_all
from .vocabulary import FUNCTION_NAMES, clip

#: At most this many submissions at once by default: each may use its memory limit.
MOST_JOBS = 8
#: The largest submission copied to a runner (bytes): a bigger file is not graded.
MOST_FILE_BYTES = 20 * 1024 * 1024
#: The seed of the boards: the same as `msviz.check`'s, so a class sees the boards a notebook saw.
SEED = 529


class _Live:
    """The runners running now, so that Ctrl-C stops each of them."""

    def __init__(self):
        self.lock, self.remotes, self.cancelled = threading.Lock(), set(), False

    def add(self, remote: Remote) -> None:
        with self.lock:
            if self.cancelled:
                remote.finish("interrupted")
            self.remotes.add(remote)

    def remove(self, remote: Remote) -> None:
        with self.lock:
            self.remotes.discard(remote)

    def cancel(self) -> None:
        with self.lock:
            self.cancelled = True
            remotes = list(self.remotes)
        for remote in remotes:
            remote.kill_inside()


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
    fence: str = "try",
    attempts: str = "best",
    sizes: Sizes | None = None,
) -> list[Row]:
    """Grade each submission in a fenced runner of its own, judged here; return the rows, in the order given.

    Parameters
    ----------
    submissions : list of Submission
        As :func:`find_submissions` returns them.
    order : {"dfs", "bfs"}, optional
        Also grade the order, as ``msviz.check(..., order=order)`` does.
    limits : Limits
        The CPU time and memory each runner may use, and the wall-clock guard.
    random_boards : int
        Random boards tried (fewer is faster).
    function : str, optional
        The function's name, tried before the usual ones.
    out_of : float
        Full marks, for each row's points.
    jobs : int
        Runners at once.
    progress : callable, optional
        Called with ``(0, total, None)`` first, then with ``(done, total,
        row)`` after each submission.
    fence : {"try", "require", "off"}
        Whether runners fence themselves (`msviz.grade.sandbox`) where they can,
        must (a runner whose fence does not hold all its layers is not graded),
        or not at all.
    attempts : {"best", "last"}
        Which attempt of each simulation a simulation set is graded on.
    sizes : Sizes, optional
        How many questions a quiz bank, simulations a set and questions a
        pre- or post-test must have (`msviz.grade.homework.Sizes`); None:
        each hand-in graded at the size it has.

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
    tries = cases(random_boards=random_boards, seed=SEED)
    settings = {
        "order": order,
        "limits": limits,
        "function": function,
        "out_of": out_of,
        "fence": fence != "off",
        "require": fence == "require",
        "attempts": attempts,
        "sizes": sizes,
    }
    live, rows, lock = _Live(), {}, threading.Lock()
    if progress:
        progress(0, len(submissions), None)
    pool = ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="msviz-judge")
    futures = {pool.submit(grade_one, s, tries, settings, live): s for s in submissions}
    try:
        waiting = set(futures)
        while waiting:
            done, waiting = wait(waiting, timeout=0.5, return_when=FIRST_COMPLETED)
            for future in done:
                row = future.result()
                with lock:
                    rows[futures[future]] = row
                    if progress:
                        progress(len(rows), len(submissions), row)
    except BaseException:  # interrupted (Ctrl-C): stop what is still running
        live.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown()
    return [rows[s] for s in submissions]


def _folders() -> tuple[Path, Path, Path]:
    """A private folder for one runner: ``work`` (its working directory, the copy) and ``tmp`` (writable)."""
    root = Path(tempfile.mkdtemp(prefix="msviz-grade-"))
    work, tmp = root / "work", root / "tmp"
    work.mkdir(mode=0o700)
    tmp.mkdir(mode=0o700)
    return root, work, tmp


def _copy(submission: Submission, work: Path) -> Path | str:
    """Copy the submission alone into `work` (never through a link); its copy's path, or why not."""
    try:
        fd = os.open(submission.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as error:
        return could_not_be_read(error.strerror or str(error))
    with os.fdopen(fd, "rb") as source:
        data = source.read(MOST_FILE_BYTES + 1)
    if len(data) > MOST_FILE_BYTES:
        return could_not_be_read(
            _("it is larger than {megabytes} MB").format(megabytes=MOST_FILE_BYTES // 2**20)
        )
    copy = work / submission.path.name
    copy.write_bytes(data)
    return copy


def _start(copy: Path, root: Path, tmp: Path, settings: dict, engine: bool = False) -> Remote:
    """Start a runner on `copy` (with msviz's engine loaded, for homework, if `engine`); the judge's
    handle on it, which stops it when it waits (`Limits.idle`) or uses more CPU time than it may."""
    limits = settings["limits"]
    from_judge, to_runner = os.pipe()
    from_runner, to_judge = os.pipe()
    output = open(root / "output.txt", "w+b")
    options = {
        "path": str(copy),
        "tmp": str(tmp),
        "cpu": limits.cpu,
        "memory": limits.memory,
        "function": settings["function"],
        "read": from_judge,
        "write": to_judge,
        "fence": settings["fence"],
    }
    try:
        process = subprocess.Popen(
            [sys.executable, *(COMMAND if engine else BARE), json.dumps(options)],
            cwd=root,  # no module beside it: the copy is in work/, which the runner enters once started
            env={**sandbox.clean_environment(str(tmp)), "MSVIZ_LANGUAGE": get_language()},
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            pass_fds=(from_judge, to_judge),
            start_new_session=os.name == "posix",
        )
    finally:
        os.close(from_judge)
        os.close(to_judge)
    process.returncode = 0  # reaped by the Remote: Popen must not wait for it too
    deadline = time.monotonic() + limits.wall
    watch = {"idle": limits.idle, "cpu": limits.cpu + 1}
    remote = Remote(process.pid, from_runner, to_runner, output, deadline, group=True, **watch)
    # A process started by fork and exec is told the peak memory of the one that forked it: only
    # what its peak has beyond this process's own peak is the runner's.
    remote.before = held_at_most()
    return remote


def grade_one(submission: Submission, tries, settings: dict, live: _Live | None = None) -> Row:
    """Grade one submission: start its runner, judge its answers, end it; its row. Never raises
    but KeyboardInterrupt."""
    name, file = submission.name, str(submission.path)
    root, work, tmp = _folders()
    try:
        copy = _copy(submission, work)
        if isinstance(copy, str):
            return Row(name, file, "not graded", problem=copy)
        graded = None  # a function graded without msviz's engine, whose notebook also has tests
        for engine in (False, True):  # homework's notebook makes its bank with msviz: again, with it
            remote = _start(copy, root, tmp, settings, engine)
            if live is not None:
                live.add(remote)
            try:
                outcome = _judged(remote, name, file, tries, settings)
            finally:
                remote.finish("done")
                if live is not None:
                    live.remove(remote)
            row = outcome.row if isinstance(outcome, Again) else outcome
            if graded is not None:
                return with_tests(graded, row)
            if not isinstance(outcome, Again):
                return row
            graded = row
        return graded if graded is not None else Row(name, file, "not graded", problem=nothing_found())
    finally:
        shutil.rmtree(root, ignore_errors=True)


class Again(NamedTuple):
    """What `_judged` says of a notebook to be read again with msviz's engine (its homework makes
    its bank with msviz): the row of its function graded without the engine, or None if none was."""

    row: Row | None


def _judged(remote: Remote, name: str, file: str, tries, settings: dict) -> Row | Again:
    limits = settings["limits"]
    try:
        fence = remote.receive().get("fence")
        if not (isinstance(fence, list) and set(fence) <= set(sandbox.LAYERS)):
            return _stopped(remote, name, file, limits, "unreadable")
        remote.fenced(fence)
        if settings.get("require") and set(fence) != set(sandbox.LAYERS):
            missing = sandbox.layers_words([layer for layer in sandbox.LAYERS if layer not in fence])
            problem = _("not graded: its fence did not hold ({missing})").format(missing=missing)
            return Row(name, file, "not graded", problem=problem)
        found = remote.receive()
    except Stopped as stopped:
        return _died(stopped.ended, name, file, limits)
    notes = found.get("notes")
    if not (isinstance(notes, list) and len(notes) <= 1000 and all(isinstance(n, str) for n in notes)):
        return _stopped(remote, name, file, limits, "unreadable")
    notes = [clip(n, 300) for n in notes]
    kind = found.get("found")
    if kind == "function" and isinstance(found.get("called"), str):
        report, stopped = judge_all(remote.attempt, tries, settings["order"], None, 2.0, False)
        if stopped is not None:
            return _died(stopped.ended, name, file, limits)
        data = report_data(report, settings["out_of"])
        called = clip(found["called"], 80)
        data["notes"] = (
            notes
            + data["notes"]
            + ([_("graded {function}").format(function=called)] if called not in FUNCTION_NAMES else [])
        )
        if report.failure is not None and report.failure.bug == "memory":  # as if it had died of it
            ended = remote.finish("done")
            return Row(
                name, file, "stopped", problem=used_too_much_memory(limits), stdout=clip(ended.output, 2000)
            )
        data["problem"] = None
        data["verdict"] = "right" if data["ok"] else "wrong"
        row = _row(name, file, data, remote, raised=notes)
        return Again(row) if found.get("asked_engine") is True else row  # its tests: with the engine
    if kind == "homework":
        data = homework_row(
            found, settings["out_of"], settings.get("sizes"), settings.get("attempts", "best")
        )
        data["notes"] = notes + data["notes"]
        return _row(name, file, data, remote, raised=notes)
    if kind == "nothing" and found.get("asked_engine") is True:
        return Again(None)
    if kind == "engine":  # its function was found only where msviz's engine could be imported
        said = _("its function needs msviz's engine, which is not loaded where a function is graded")
        mistake, hint = name_of("used msviz"), hint_of("used msviz")
        return Row(name, file, "wrong", mistake=mistake, hint=hint, problem=said, notes=notes)
    if kind == "nothing":
        return Row(name, file, "not graded", problem=nothing_found(), notes=notes, raised=notes)
    if kind == "unreadable" and isinstance(found.get("why"), str):
        return Row(name, file, "not graded", problem=could_not_be_read(clip(found["why"], 300)), notes=notes)
    if kind == "error" and isinstance(found.get("why"), str):
        problem = _("could not be graded: {why}").format(why=clip(found["why"], 300))
        return Row(name, file, "not graded", problem=problem)
    if kind == "memory":
        return Row(name, file, "stopped", problem=used_too_much_memory(limits), notes=notes)
    return _stopped(remote, name, file, limits, "unreadable")


def _stopped(remote: Remote, name: str, file: str, limits: Limits, why: str) -> Row:
    return _died(remote.finish(why), name, file, limits)


def _died(ended, name: str, file: str, limits: Limits) -> Row:
    """The row of a runner that ended, or was stopped, before its last answer."""
    output = clip(ended.output, 2000)
    if ended.why == "unreadable":
        problem = unreadable_words()
    elif ended.why == "clock":
        problem = stopped_by_the_clock(limits)
    elif ended.why == "idle":
        problem = it_was_waiting(limits.idle)
    elif ended.why == "cpu":
        problem = too_slow(ended.limit) if ended.limit else ran_out_of_cpu(limits)
    else:
        status = os.waitstatus_to_exitcode(ended.status)
        problem = why_it_stopped(status, ended.cpu, ended.output, limits, ended.peak - ended.before)
    return Row(name, file, "stopped", problem=problem, stdout=output)


def _row(name: str, file: str, data: dict, remote: Remote, raised=()) -> Row:
    failure = data.get("failure")
    ended = remote.finish("done")
    return Row(
        name,
        file,
        data["verdict"],
        points=data.get("points", 0.0),
        results={k: (v["passed"], v["tried"]) for k, v in data.get("results", {}).items()},
        mistake=_mistake(failure or {}) or data.get("mistake", ""),
        hint=(failure or {}).get("hint", ""),
        problem=data.get("problem") or "",
        notes=data.get("notes", []),
        failure=failure,
        summary=data.get("summary", ""),
        stdout=clip(ended.output + data.get("stdout", ""), STDOUT_KEPT),
        made_for=data.get("made_for") or "",
        pre=data.get("pre"),
        post=data.get("post"),
        simulations=data.get("simulations", []),
        steps=data.get("steps", []),
        seeds=list(data.get("seeds", [])),
        raised=list(raised),
    )


def _mistake(failure: dict) -> str:
    """A row's mistake: the failure's, or what it tried that is refused ("it started a process: ...")."""
    if failure.get("bug") == "refused" and failure.get("error"):
        return failure["error"]
    return failure.get("mistake", "")


def report_data(report, out_of: float = 1.0) -> dict:
    """What a row needs of a `Report`: `Report.to_dict`, its first failure without its writes."""
    data = report.to_dict(out_of)
    data["failure"] = data["failures"][0] if data["failures"] else None
    if data["failure"] is not None:
        data["failure"] = {k: v for k, v in data["failure"].items() if k != "writes"}
    data["stdout"] = clip(data["stdout"], STDOUT_KEPT)
    return data
