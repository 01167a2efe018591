"""Grade a whole class: ``python -m msviz grade FILES_OR_FOLDERS... --order dfs --out DIR``.

Each submission (a ``.py`` file, or a notebook whose code cells are run in
order) is graded with :func:`msviz.check` in a process of its own, a worker
(``python -m msviz.grade.classroom``), with a limit on its CPU time and on its
memory (``resource.setrlimit`` where the platform has it). Whatever a
submission does (loop for ever, even while it is imported, call
``os._exit``, ask for all the memory there is, crash the interpreter) costs
its own row, never the run. The limits count CPU time, not the clock, so a
verdict does not depend on how busy the machine is; a generous wall-clock
guard stops only a process that waits for ever (``time.sleep``), and says so.

Three files are written: ``results.csv`` and ``results.json`` (one row per
student) and ``class.html``, a page for the teacher with the count of each
named mistake across the class and each student's first wrong board.

This is not a sandbox: a submission runs with the teacher's rights. Grade
code from strangers in a container or a virtual machine.
"""

from __future__ import annotations

import csv
import functools
import html
import inspect
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import child
from .vocabulary import CATEGORIES, FUNCTION_NAMES, clip

__all__ = [
    "FUNCTION_NAMES",
    "Limits",
    "add_command",
    "command",
    "find_submissions",
    "grade_class",
    "load_code",
    "find_function",
    "write_results",
    "class_page",
]

#: A row's verdict: graded and right, graded and wrong, stopped by a limit, or not graded at all.
VERDICTS = ("right", "wrong", "stopped", "not graded")
#: The columns of results.csv, in order.
COLUMNS = (
    ["name", "file", "verdict", "points"]
    + [f"{name}_{part}" for name in CATEGORIES for part in ("passed", "tried")]
    + ["mistake", "hint", "problem", "notes"]
)
#: Megabytes a submission may print (or write to any file): more is a runaway loop.
OUTPUT_LIMIT_MB = 64
#: At most this many submissions at once by default: each may use its memory limit.
MOST_JOBS = 8
_STDOUT_KEPT = 2000  # characters of a submission's output kept in results.json


@dataclass(frozen=True)
class Limits:
    """What each submission may use: CPU seconds, megabytes of memory, and the wall-clock guard."""

    cpu: float = 60.0
    memory: int = 1024
    clock: float | None = None

    @property
    def wall(self) -> float:
        """Clock seconds before a worker is stopped: `clock`, or 10 times its CPU time (60 at least).

        Examples
        --------
        >>> Limits(cpu=2).wall, Limits(cpu=30).wall, Limits(clock=5).wall
        (60.0, 300.0, 5.0)
        """
        return float(self.clock if self.clock is not None else max(60, 10 * self.cpu))


# ---------------------------------------------------------------------------
# What went wrong, in the teacher's words


def ran_out_of_cpu(limits: Limits) -> str:
    """What a row says of a submission stopped by the CPU limit.

    Examples
    --------
    >>> ran_out_of_cpu(Limits(cpu=5))
    'ran out of CPU time (the limit is 5 s): probably an endless loop'
    """
    return f"ran out of CPU time (the limit is {limits.cpu:g} s): probably an endless loop"


def used_too_much_memory(limits: Limits) -> str:
    """What a row says of a submission stopped by the memory limit."""
    return f"used more than {limits.memory} MB of memory"


def exited(status: int) -> str:
    """What a row says of a submission that ended its own process."""
    return f"exited with status {status} before it was graded (os._exit or sys.exit)"


def wrote_too_much() -> str:
    """What a row says of a submission stopped for printing without end."""
    return f"printed more than {OUTPUT_LIMIT_MB} MB"


def stopped_by_the_clock(limits: Limits) -> str:
    """What a row says of a submission stopped by the wall-clock guard."""
    return (
        f"stopped by the wall-clock guard after {limits.wall:g} s without using its CPU time: "
        "it was waiting (time.sleep, input, a lock)"
    )


def could_not_be_read(why: str) -> str:
    """What a row says of a file that is not Python or not a notebook."""
    return f"could not be read: {why}"


def no_function() -> str:
    """What a row says of a submission without a function to grade."""
    names = ", ".join(FUNCTION_NAMES)
    return f"no function found: define {names} or a class Solution with a method updateBoard"


# ---------------------------------------------------------------------------
# Finding the submissions


@dataclass(frozen=True)
class Submission:
    """One student's file, and the name their row is given."""

    name: str
    path: Path


def find_submissions(paths) -> list[Submission]:
    """Return the submissions among `paths`: ``.py`` files and notebooks, folders searched through.

    A student is named after their file's stem. When files share a stem, as
    in nbgrader's ``submitted/alice/ps1/hw.ipynb`` and
    ``submitted/bob/ps1/hw.ipynb``, after the first folder under the one
    given (``alice``, ``bob``) or, if that is shared too, their path under it.

    Examples
    --------
    >>> find_submissions(["no/such/file.py"])
    Traceback (most recent call last):
    ...
    ValueError: no such file or folder: 'no/such/file.py'
    """
    found: list[tuple[Path, Path]] = []  # (file, the folder it was found under)
    for given in map(Path, paths):
        if given.is_dir():
            files = sorted(f for f in given.rglob("*") if _is_submission(f, given))
            if not files:
                raise ValueError(f"no submission in {str(given)!r}: no .py file or notebook (.ipynb) in it")
            found += [(f, given) for f in files]
        elif given.is_file():
            if given.suffix not in (".py", ".ipynb"):
                raise ValueError(f"{str(given)!r} is not a submission: give .py files, notebooks or folders")
            found.append((given, given.parent))
        else:
            raise ValueError(f"no such file or folder: {str(given)!r}")
    if not found:
        raise ValueError("no submission given: name .py files, notebooks or folders")
    unique = list(dict.fromkeys(found))
    names = [f.stem for f, _ in unique]
    for stem in {n for n in names if names.count(n) > 1}:
        shared = [i for i, n in enumerate(names) if n == stem]
        paths = [unique[i][0].relative_to(unique[i][1]) for i in shared]
        firsts = [p.parts[0] if len(p.parts) > 1 else p.stem for p in paths]
        if len(set(firsts)) < len(firsts):
            firsts = [p.with_suffix("").as_posix() for p in paths]
        for i, name in zip(shared, firsts):
            names[i] = name
    return [Submission(name, f) for name, (f, _) in zip(names, unique)]


def _is_submission(path: Path, top: Path) -> bool:
    parts = path.relative_to(top).parts
    hidden = any(p.startswith((".", "__")) for p in parts)  # .ipynb_checkpoints, __pycache__, __init__.py
    return path.is_file() and path.suffix in (".py", ".ipynb") and not hidden


# ---------------------------------------------------------------------------
# In the worker: reading a submission and finding its function


def load_code(path: Path) -> tuple[dict, list[str]]:
    """Run a ``.py`` file or a notebook's code cells in one namespace; return it and notes.

    An error in a cell (or in the file) is noted, and the cells after it run
    all the same, so a function defined before a broken cell is still graded.
    IPython's ``%magic`` and ``!shell`` lines are skipped.

    Raises
    ------
    ValueError
        When the file cannot be read at all: not UTF-8, not a notebook, a syntax error.
    """
    # A notebook's cells run as Jupyter runs them, as __main__; a file's `if __name__ == "__main__":`
    # block (its own tests, input()) does not run, as when it is imported.
    name = "__main__" if path.suffix == ".ipynb" else "__submission__"
    namespace = {"__name__": name, "__file__": str(path), "display": _display}
    notes = []
    for where, filename, source in _code_of(path):
        try:
            code = compile(source, filename, "exec")
        except SyntaxError as error:
            if path.suffix == ".py":
                raise ValueError(f"SyntaxError: {error.msg} (line {error.lineno})") from None
            notes.append(f"{where} was not run: SyntaxError: {error.msg} (line {error.lineno})")
            continue
        try:
            exec(code, namespace)
        except MemoryError:
            raise
        except BaseException as error:  # SystemExit too: a notebook's exit() ends one cell
            notes.append(f"{where} raised {type(error).__name__}: {clip(str(error), 100)}")
    return namespace, notes


def _display(*objects, **options) -> None:
    """Stands in for IPython's display() when a notebook's cells are run outside Jupyter."""


def _code_of(path: Path):
    """Yield (where, filename, source) for the file, or for each code cell of a notebook."""
    import linecache

    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError("it is not UTF-8 text") from None
    except OSError as error:
        raise ValueError(error.strerror or str(error)) from None
    if path.suffix != ".ipynb":
        yield "the file", str(path), text
        return
    try:
        cells = json.loads(text)["cells"]
    except (ValueError, KeyError, TypeError):
        raise ValueError("it is not a notebook (.ipynb): its JSON has no cells") from None
    number = 0
    for cell in cells:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        number += 1
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        if source.lstrip().startswith("%%"):  # a cell magic: the whole cell is not Python
            continue
        source = "\n".join(
            "pass  # " + line if line.lstrip().startswith(("%", "!")) else line
            for line in source.splitlines()
        )
        filename = f"<{path.name} cell {number}>"
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        yield f"code cell {number}", filename, source


def find_function(namespace: dict, name: str | None = None):
    """Return the student's function and what it is called, or (None, None).

    Looked for, in order: `name` if given, then ``update_board``,
    ``updateBoard``, then ``Solution().updateBoard`` (LeetCode's form).

    Examples
    --------
    >>> class Solution:
    ...     def updateBoard(self, board, click):
    ...         return board
    >>> find_function({"Solution": Solution})[1]
    'Solution().updateBoard'
    """
    for candidate in ((name,) if name else ()) + FUNCTION_NAMES:
        function = namespace.get(candidate)
        if callable(function) and not isinstance(function, type):
            return function, candidate
    solution = namespace.get("Solution")
    if isinstance(solution, type) and callable(getattr(solution, "updateBoard", None)):
        return solution().updateBoard, "Solution().updateBoard"
    return None, None


# ---------------------------------------------------------------------------
# In the worker: grading, and the report as plain data


def _check(function, order, random_boards):
    """Call msviz.check with the options this version of it takes."""
    import msviz

    options = {"order": order, "show": False, "random_boards": random_boards}
    accepted = inspect.signature(msviz.check).parameters
    if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in accepted.values()):
        options = {k: v for k, v in options.items() if k in accepted}
    return msviz.check(function, **options)


def report_data(report, out_of: float = 1.0) -> dict:
    """What a row needs of a `Report`: `Report.to_dict`, its first failure without its writes."""
    data = report.to_dict(out_of)
    data["failure"] = data["failures"][0] if data["failures"] else None
    if data["failure"] is not None:
        data["failure"] = {k: v for k, v in data["failure"].items() if k != "writes"}
    data["stdout"] = clip(data["stdout"], _STDOUT_KEPT)
    return data


def _set_limits(limits: Limits) -> None:
    """Limit this process's CPU time and memory, where the platform can."""
    try:
        import resource
    except ImportError:  # Windows: only the wall-clock guard
        return
    cpu = max(1, round(limits.cpu))
    output = OUTPUT_LIMIT_MB * 1024 * 1024
    wanted = [
        (resource.RLIMIT_CPU, cpu, cpu + 5),
        (resource.RLIMIT_CORE, 0, 0),
        (resource.RLIMIT_FSIZE, output, output),
    ]
    if hasattr(resource, "RLIMIT_AS"):
        size = limits.memory * 1024 * 1024
        wanted.append((resource.RLIMIT_AS, size, size))
    for which, soft, hard in wanted:
        _, old_hard = resource.getrlimit(which)
        if old_hard != resource.RLIM_INFINITY:
            soft, hard = min(soft, old_hard), min(hard, old_hard)
        try:
            resource.setrlimit(which, (soft, hard))
        except (ValueError, OSError):  # macOS refuses some limits: the others still hold
            pass
    if hasattr(signal, "SIGXFSZ"):  # Python ignores it (a write fails instead): past the limit, stop
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)


def _stop_at_memory_error(function, stop):
    """The student's function, made to call `stop()` at its first MemoryError (the memory limit).

    Without it, a function that fills the memory on every board would use its
    CPU time doing so, board after board, and be reported as an endless loop.
    """

    @functools.wraps(function)
    def student(board, click):
        try:
            return function(board, click)
        except MemoryError:
            stop()
            raise

    return student


def grade_file(
    path: Path, *, order, random_boards: int, function: str | None, out_of: float, limits, stop=None
) -> dict:
    """In the worker: read the submission, find its function, grade it; return the row's data.

    `stop`, if given, is called when the function runs out of memory.
    """
    try:
        namespace, notes = load_code(path)
    except MemoryError:
        return {"verdict": "stopped", "problem": used_too_much_memory(limits), "notes": []}
    except ValueError as error:
        return {"verdict": "not graded", "problem": could_not_be_read(str(error)), "notes": []}
    student, called = find_function(namespace, function)
    if student is None:
        return {"verdict": "not graded", "problem": no_function(), "notes": notes}
    report = _check(_stop_at_memory_error(student, stop) if stop else student, order, random_boards)
    data = report_data(report, out_of)
    data["verdict"] = "right" if data["ok"] else "wrong"
    data["notes"] = notes + data["notes"] + ([f"graded {called}"] if called not in FUNCTION_NAMES else [])
    error = (data["failure"] or {}).get("error") or ""
    data["problem"] = used_too_much_memory(limits) if "MemoryError" in error else None
    return data


def worker(argv: list[str]) -> int:
    """``python -m msviz.grade.classroom RESULT.json OPTIONS.json``: grade one submission, write its row."""
    result, options = Path(argv[0]), json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    Path(argv[1]).unlink()
    sys.argv = [sys.argv[0]]  # the submission sees no paths of the grader's
    child.in_child = True  # this process is the submission's own: check runs in it
    sys.setrecursionlimit(max(sys.getrecursionlimit(), child.RECURSION_LIMIT))
    limits = Limits(options["cpu"], options["memory"], options["clock"])
    _set_limits(limits)
    path = Path(options["path"])
    sys.path.insert(0, str(path.parent))

    def out_of_memory():  # the row written at once, the process ended: nothing can catch it
        sys.stdout.flush()
        result.write_text(json.dumps({"verdict": "stopped", "problem": used_too_much_memory(limits)}))
        os._exit(0)

    try:
        data = grade_file(
            path,
            order=options["order"],
            random_boards=options["random_boards"],
            function=options["function"],
            out_of=options["out_of"],
            limits=limits,
            stop=out_of_memory,
        )
    except MemoryError:
        data = {"verdict": "stopped", "problem": used_too_much_memory(limits), "notes": []}
    except SystemExit as error:
        code = 0 if error.code is None else error.code if isinstance(error.code, int) else 1
        data = {"verdict": "stopped", "problem": exited(code)}
    except Exception as error:  # Solution() that raises, an odd object the report cannot read
        data = {"verdict": "not graded", "problem": f"could not be graded: {type(error).__name__}: {error}"}
    result.write_text(json.dumps(data), encoding="utf-8")
    return 0


# ---------------------------------------------------------------------------
# In the teacher's process: one worker per submission, a few at a time


@dataclass
class _Running:
    submission: Submission
    process: subprocess.Popen
    folder: Path
    started: float
    output: object


@dataclass
class Row:
    """One student's row: the data the worker sent, or what stopped it."""

    name: str
    file: str
    verdict: str
    points: float = 0.0
    results: dict = field(default_factory=dict)
    mistake: str = ""
    hint: str = ""
    problem: str = ""
    notes: list = field(default_factory=list)
    failure: dict | None = None
    summary: str = ""
    stdout: str = ""

    def as_csv(self) -> dict:
        """The row as results.csv has it: a count per column, notes joined, no cell read as a formula.

        Examples
        --------
        >>> row = Row("=ada", "ada.py", "right", 1.0, {"examples": (2, 2)}).as_csv()
        >>> row["name"], row["examples_passed"], row["order_tried"]
        ("'=ada", 2, '')
        """
        out = {"name": self.name, "file": self.file, "verdict": self.verdict, "points": round(self.points, 4)}
        for name in CATEGORIES:
            passed, tried = self.results.get(name, ("", ""))
            out[f"{name}_passed"], out[f"{name}_tried"] = passed, tried
        out.update(mistake=self.mistake, hint=self.hint, problem=self.problem, notes="; ".join(self.notes))
        # A spreadsheet runs a cell that starts with = + - @ as a formula: a file name must not.
        return {
            k: "'" + v if isinstance(v, str) and v[:1] in ("=", "+", "-", "@") else v for k, v in out.items()
        }


def grade_class(
    submissions: list[Submission],
    *,
    order: str | None = None,
    limits: Limits = Limits(),
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
    package_home = str(Path(__file__).resolve().parent.parent)  # msviz importable from any folder
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
            "msviz.grade.classroom",
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
            name, file, "stopped", problem=_death(status, cpu, output, limits), stdout=clip(output, 2000)
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
        stdout=clip(output + data.get("stdout", ""), _STDOUT_KEPT),
    )


def _death(status: int, cpu: float, output: str, limits: Limits) -> str:
    """Why a worker ended without a result, in words."""
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
        return f"was stopped by {name} before it was graded"
    return exited(status)


# ---------------------------------------------------------------------------
# What is written: results.csv, results.json, class.html


def write_results(rows: list[Row], folder: Path, *, order: str | None, limits: Limits) -> list[Path]:
    """Write results.csv, results.json and class.html into `folder`; return their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    table, data, page = folder / "results.csv", folder / "results.json", folder / "class.html"
    with open(table, "w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(row.as_csv() for row in rows)
    document = {
        "order": order,
        "limits": {"cpu_seconds": limits.cpu, "memory_mb": limits.memory, "wall_seconds": limits.wall},
        "students": [_json_row(row) for row in rows],
    }
    data.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    page.write_text(class_page(rows, order=order), encoding="utf-8")
    return [table, data, page]


def _json_row(row: Row) -> dict:
    return {
        "name": row.name,
        "file": row.file,
        "verdict": row.verdict,
        "points": row.points,
        "results": {name: list(pair) for name, pair in row.results.items()},
        "mistake": row.mistake or None,
        "hint": row.hint or None,
        "problem": row.problem or None,
        "notes": row.notes,
        "summary": row.summary or None,
        "first_wrong_board": row.failure,
        "stdout": row.stdout,
    }


def mistake_counts(rows: list[Row]) -> list[tuple[str, int, bool]]:
    """How many students made each named mistake (their first), then what stopped the others' code.

    Each item is ``(what, students, named)``: `named` is False for what
    stopped a submission before it was graded (its problem's first words).

    Examples
    --------
    >>> rows = [Row("a", "a.py", "wrong", mistake="0 instead of B"), Row("b", "b.py", "right")]
    >>> rows.append(Row("c", "c.py", "stopped", problem="ran out of CPU time (the limit is 1 s)"))
    >>> mistake_counts(rows + [Row("d", "d.py", "wrong", mistake="0 instead of B")])
    [('0 instead of B', 2, True), ('ran out of CPU time', 1, False)]
    """
    counts: dict[tuple[str, bool], int] = {}
    for row in rows:
        what = row.mistake or (row.problem.split(":")[0].split(" (")[0] if row.problem else "")
        if what:
            key = (what, bool(row.mistake))
            counts[key] = counts.get(key, 0) + 1
    ranked = sorted(counts.items(), key=lambda item: (not item[0][1], -item[1], item[0][0].casefold()))
    return [(what, n, named) for (what, named), n in ranked]


_PAGE_STYLE = """
body {{ font-family: system-ui, sans-serif; margin: 1.5rem auto; max-width: 60rem; padding: 0 1rem;
  color: {mine}; line-height: 1.4; }}
h1 {{ font-size: 1.6rem; margin-bottom: 0.2rem; }}
table {{ border-collapse: collapse; width: 100%; font-size: 0.9rem; }}
th, td {{ border-bottom: 1px solid {grid}; padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }}
thead th {{ background: {flat}; }}
td.num {{ text-align: right; font-variant-numeric: tabular-nums; }}
.right {{ color: {right}; font-weight: bold; }}
.wrong {{ color: {wrong}; font-weight: bold; }}
.stopped, .not-graded {{ color: {mine}; font-weight: bold; }}
td.verdict {{ white-space: nowrap; }}
.legend {{ font-size: 0.9rem; }}
.boards {{ display: flex; flex-wrap: wrap; gap: 1.5rem; }}
figure {{ margin: 0; }}
svg {{ max-width: 100%; height: auto; }}
figcaption {{ font-size: 0.85rem; }}
.student {{ border-top: 2px solid {flat}; margin-top: 1.2rem; }}
pre {{ white-space: pre-wrap; font-size: 0.85rem; }}
"""


def class_page(rows: list[Row], *, order: str | None = None) -> str:
    """The teacher's page: the class's mistakes as a bar chart, every row, each first wrong board.

    A self-contained HTML page (inline SVG, no script, nothing fetched).

    Examples
    --------
    >>> page = class_page([Row("ada", "ada.py", "wrong", mistake="0 instead of B")], order="dfs")
    >>> "<h1>" in page and "0 instead of B" in page
    True
    """
    from msviz.render import PALETTE

    counts = {verdict: sum(row.verdict == verdict for row in rows) for verdict in VERDICTS}
    graded = "the answers and the depth-first order" if order == "dfs" else "the answers"
    graded = "the answers and the breadth-first order" if order == "bfs" else graded
    summary = ", ".join(f"{n} {verdict}" for verdict, n in counts.items() if n)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>msviz: the class's results</title>",
        f"<style>{_PAGE_STYLE.format(**PALETTE)}</style></head><body>",
        "<h1>The class's results</h1>",
        f"<p>{len(rows)} submission{'s' if len(rows) != 1 else ''}, graded on {graded}: {summary}.</p>",
        "<h2>Mistakes across the class</h2>",
        _mistake_chart(mistake_counts(rows), PALETTE),
        "<h2>Every student</h2>",
        _student_table(rows),
        "<h2>Each student's first wrong board</h2>",
        '<p class="legend">Grey cells are hidden, * a hidden mine; the click and the cells of an answer '
        "unlike the right one are outlined.</p>",
    ]
    wrong = [row for row in rows if row.failure]
    if not wrong:
        parts.append("<p>No wrong board: every submission graded was right.</p>")
    parts += [_first_wrong_board(row, PALETTE) for row in wrong]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _mistake_chart(counts: list[tuple[str, int, bool]], palette: dict) -> str:
    """A horizontal bar chart as inline SVG, with the same figures in a table for screen readers."""
    if not counts:
        return "<p>No mistakes: every submission was right.</p>"
    # About 7 pixels a character at 13 px: the longest label fits, right-aligned against the bars.
    label_width, bar_width, line = 16 + 7 * max(len(what) for what, _, _ in counts), 300, 28
    most = max(n for _, n, _ in counts)
    height = line * len(counts) + 8
    description = "; ".join(f"{what}: {n}" for what, n, _ in counts)
    bars = []
    for i, (what, n, named) in enumerate(counts):
        y = 4 + i * line
        width = max(2, round(bar_width * n / most))
        bars.append(
            f'<text x="{label_width - 8}" y="{y + 18}" text-anchor="end" font-size="13">'
            f"{html.escape(what)}</text>"
            f'<rect x="{label_width}" y="{y + 4}" width="{width}" height="{line - 8}" '
            f'fill="{palette["stack" if named else "shadow"]}"/>'
            f'<text x="{label_width + width + 6}" y="{y + 18}" font-size="13">{n}</text>'
        )
    svg = (
        f'<svg role="img" aria-labelledby="chart-title" width="{label_width + bar_width + 40}" '
        f'height="{height}" viewBox="0 0 {label_width + bar_width + 40} {height}" '
        'font-family="system-ui, sans-serif">'
        f'<title id="chart-title">Students per mistake: {html.escape(description)}</title>'
        + "".join(bars)
        + "</svg>"
    )
    table = (
        "<details><summary>The same figures as a table</summary>"
        '<table><thead><tr><th scope="col">mistake</th>'
        '<th scope="col">students</th></tr></thead><tbody>'
        + "".join(
            f'<tr><th scope="row">{html.escape(w)}</th><td class="num">{n}</td></tr>' for w, n, _ in counts
        )
        + "</tbody></table></details>"
    )
    return (
        f"<figure>{svg}<figcaption>Each student's first mistake (blue), or what stopped their code before "
        "it was graded (grey).</figcaption>" + (f"</figure>{table}")
    )


def _student_table(rows: list[Row]) -> str:
    shown = [name for name in CATEGORIES if any(name in row.results for row in rows)]
    head = "".join(f'<th scope="col">{name}</th>' for name in ["student", "verdict", "points", *shown])
    head += '<th scope="col">mistake or problem</th>'
    body = []
    for row in rows:
        cells = [
            f'<th scope="row">{_link(row)}</th>',
            f'<td class="verdict {row.verdict.replace(" ", "-")}">{row.verdict}</td>',
            f'<td class="num">{row.points:.2f}</td>',
        ]
        for name in shown:
            passed, tried = row.results.get(name, (None, None))
            cells.append(f'<td class="num">{"" if tried is None else f"{passed}/{tried}"}</td>')
        said = "; ".join(x for x in (row.mistake, row.problem) if x)
        cells.append(f"<td>{html.escape(said)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _anchor(row: Row) -> str:
    return "student-" + "".join(ch if ch.isalnum() else "-" for ch in row.name)


def _link(row: Row) -> str:
    """The student's name; a link to their first wrong board when there is one."""
    name = html.escape(row.name)
    return f'<a href="#{_anchor(row)}">{name}</a>' if row.failure else name


def _first_wrong_board(row: Row, palette: dict) -> str:
    f = row.failure
    click = tuple(f["click"])
    where = f"{html.escape(f['case'])}, click ({click[0]}, {click[1]})"
    figures = [
        _figure(f["board"], "the board", click, None, palette),
        _figure(f["expected"], "the right answer", None, None, palette),
    ]
    if f["got"] is not None:
        figures.append(_figure(f["got"], "their answer", None, f["expected"], palette))
    text = f.get("error") or f.get("got_text")
    said = f"<pre>{html.escape(text)}</pre>" if text else ""
    if f["got"] is not None and f["got"] == f["expected"]:
        said += (
            "<p>The answer is right: the cells were revealed in another order. In the notebook, "
            "<code>msviz.check(update_board, order=...).draw()</code> shows both orders.</p>"
        )
    return (
        f'<section class="student" id="{_anchor(row)}"><h3>{html.escape(row.name)}: '
        f"{html.escape(f['mistake'])}</h3>"
        f"<p>{where}. <em>Hint:</em> {html.escape(f['hint'])}</p>"
        f'<div class="boards">{"".join(figures)}</div>{said}</section>'
    )


def _figure(rows, caption: str, click, expected, palette: dict) -> str:
    if rows is None:
        return f"<figure><figcaption>{caption}: not a board</figcaption></figure>"
    return f"<figure>{board_svg(rows, click=click, expected=expected, palette=palette, label=caption)}" + (
        f"<figcaption>{caption}</figcaption></figure>"
    )


def board_svg(
    rows, *, click=None, expected=None, palette=None, label: str = "a board", cell: int = 24
) -> str:
    """A board as a small inline SVG: cells as the game draws them, cells unlike `expected` outlined.

    Any symbol is drawn (a wrong answer may hold ``'0'`` or ``'?'``); its alt
    text is the board as rows of symbols.

    Examples
    --------
    >>> svg = board_svg(["B1E", "B1M"], expected=["B1E", "B1E"])
    >>> svg.count("<rect"), "aria-label" in svg
    (7, True)
    """
    if palette is None:
        from msviz.render import PALETTE as palette
    height, width = len(rows), max(len(r) for r in rows)
    cell = max(8, min(cell, 240 // max(height, width)))
    text = " / ".join(" ".join(r) for r in rows)
    parts = [
        f'<svg role="img" aria-label="{html.escape(label)}: {html.escape(text)}" width="{width * cell}" '
        f'height="{height * cell}" viewBox="0 0 {width * cell} {height * cell}" font-family="monospace">'
    ]
    for r, line in enumerate(rows):
        for c, symbol in enumerate(line):
            x, y = c * cell, r * cell
            hidden = symbol in "EM"
            fill = palette["boom"] if symbol == "X" else palette["face"] if hidden else palette["flat"]
            parts.append(
                f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" '
                f'stroke="{palette["grid"]}"/>'
            )
            shown = "" if symbol in "EB" else "*" if symbol == "M" else symbol
            if shown:
                color = palette.get(symbol, palette["mine"])
                parts.append(
                    f'<text x="{x + cell / 2}" y="{y + cell * 0.72}" text-anchor="middle" '
                    f'font-size="{cell * 0.7:.0f}" font-weight="bold" fill="{color}">'
                    f"{html.escape(shown)}</text>"
                )
    marks = []
    if expected is not None:
        marks = [
            (r, c)
            for r, line in enumerate(rows)
            for c, symbol in enumerate(line)
            if r < len(expected) and c < len(expected[r]) and expected[r][c] != symbol
        ]
    if click is not None:
        marks.append(tuple(click))
    for r, c in marks:
        parts.append(
            f'<rect x="{c * cell + 1.5}" y="{r * cell + 1.5}" width="{cell - 3}" height="{cell - 3}" '
            f'fill="none" stroke="{palette["wrong"]}" stroke-width="3"/>'
        )
    parts.append("</svg>")
    return "".join(parts)


# ---------------------------------------------------------------------------
# The terminal: a progress bar


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


# ---------------------------------------------------------------------------
# The command line


def add_command(commands) -> None:
    """Add ``grade`` to the command line's subcommands (an argparse ``add_subparsers()`` result)."""
    import argparse

    grade = commands.add_parser(
        "grade",
        help="grade a class's update_board: one process each, limited; a table and a page for the teacher",
        description="Grade each submission (a .py file, or a notebook whose code cells run in order)\n"
        "with msviz.check, each in a process of its own with a CPU-time and a memory limit,\n"
        "and write DIR/results.csv, DIR/results.json and DIR/class.html (a page of the\n"
        "class's mistakes). The function graded is update_board, updateBoard, or\n"
        "Solution().updateBoard (LeetCode's form).",
        epilog="example:\n  python -m msviz grade submissions/ --order dfs --out grades",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    grade.add_argument(
        "paths", nargs="+", metavar="FILE_OR_FOLDER", help=".py files, notebooks, folders of them"
    )
    grade.add_argument(
        "--order", default=None, help="also grade the order: dfs or bfs (default: answers only)"
    )
    grade.add_argument(
        "--out",
        dest="output",
        required=True,
        type=Path,
        metavar="DIR",
        help="the folder to write into (made if missing)",
    )
    grade.add_argument(
        "--function", default=None, metavar="NAME", help="the function's name, if not the usual"
    )
    grade.add_argument(
        "--cpu-limit", type=float, default=60.0, metavar="S", help="CPU seconds each (default 60)"
    )
    grade.add_argument("--memory", type=int, default=1024, metavar="MB", help="memory each (default 1024 MB)")
    grade.add_argument(
        "--random-boards", type=int, default=200, metavar="N", help="random boards (default 200)"
    )
    grade.add_argument("--out-of", type=float, default=1.0, metavar="POINTS", help="full marks (default 1)")
    grade.add_argument(
        "--jobs",
        type=int,
        default=_cores(),
        metavar="N",
        help=f"submissions graded at once (default: one per core, at most {MOST_JOBS})",
    )


def _cores() -> int:
    """The cores this process may use (a container's share), at most MOST_JOBS."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(MOST_JOBS, cores or 1))


def _writable(folder: Path) -> None:
    """Make `folder` if needed; raise ValueError when it cannot be written into."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot write into {str(folder)!r}: {error.strerror or error}") from None
    if not os.access(folder, os.W_OK):
        raise ValueError(f"cannot write into {str(folder)!r}: permission denied")


def command(args) -> Path:
    """Do what ``grade`` was asked; return the path of class.html. Bad arguments raise ValueError."""
    from msviz import _checks

    order = None if args.order is None else _checks.order(args.order)
    for option, value, least in (
        ("--cpu-limit", args.cpu_limit, 1),
        ("--memory", args.memory, 64),
        ("--random-boards", args.random_boards, 0),
        ("--jobs", args.jobs, 1),
        ("--out-of", args.out_of, 0),
    ):
        if not value >= least:
            raise ValueError(f"{option} must be at least {least}, not {value!r}")
    if args.output.exists() and not args.output.is_dir():
        raise ValueError(f"cannot write into {str(args.output)!r}: it is a file, not a folder")
    submissions = find_submissions(args.paths)
    _writable(args.output)  # before the grading, not after it
    limits = Limits(args.cpu_limit, args.memory)
    rows = grade_class(
        submissions,
        order=order,
        limits=limits,
        random_boards=args.random_boards,
        function=args.function,
        out_of=args.out_of,
        jobs=args.jobs,
        progress=Progress(),
    )
    return write_results(rows, args.output, order=order, limits=limits)[-1]


if __name__ == "__main__":
    status = worker(sys.argv[1:])
    sys.stdout.flush()
    os._exit(status)  # at once: threads the submission left running must not hold the process
