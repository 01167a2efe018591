"""The worker (``python -m msviz.grade.worker RESULT.json OPTIONS.json``): one submission, its own process."""

from __future__ import annotations

import functools
import inspect
import json
import os
import sys
from pathlib import Path

from . import child
from .homework import bank_row, find_bank
from .limits import Limits, exited, set_limits, used_too_much_memory
from .rows import STDOUT_KEPT
from .submissions import could_not_be_read, find_function, load_code, no_function
from .vocabulary import FUNCTION_NAMES, clip


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
    data["stdout"] = clip(data["stdout"], STDOUT_KEPT)
    return data


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
        found = find_bank(namespace)  # homework: a quiz bank (msviz.quiz_bank), graded by its answers
        if found is not None:
            data = bank_row(found, out_of)
            data["notes"] = notes + data["notes"]
            return data
        return {"verdict": "not graded", "problem": no_function(), "notes": notes}
    report = _check(_stop_at_memory_error(student, stop) if stop else student, order, random_boards)
    data = report_data(report, out_of)
    data["verdict"] = "right" if data["ok"] else "wrong"
    data["notes"] = notes + data["notes"] + ([f"graded {called}"] if called not in FUNCTION_NAMES else [])
    error = (data["failure"] or {}).get("error") or ""
    data["problem"] = used_too_much_memory(limits) if "MemoryError" in error else None
    return data


def worker(argv: list[str]) -> int:
    """``python -m msviz.grade.worker RESULT.json OPTIONS.json``: grade one submission, write its row."""
    result, options = Path(argv[0]), json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    Path(argv[1]).unlink()
    sys.argv = [sys.argv[0]]  # the submission sees no paths of the grader's
    child.in_child = True  # this process is the submission's own: check runs in it
    sys.setrecursionlimit(max(sys.getrecursionlimit(), child.RECURSION_LIMIT))
    limits = Limits(options["cpu"], options["memory"], options["clock"])
    set_limits(limits.cpu, limits.memory * 1024 * 1024, slack=5, stop_at_output=True)
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


if __name__ == "__main__":
    status = worker(sys.argv[1:])
    sys.stdout.flush()
    os._exit(status)  # at once: threads the submission left running must not hold the process
