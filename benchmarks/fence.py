"""What the fence around a student's code costs: msviz.check of a right answer, and a class of right
answers through the class command, each with the fence and without it, in the same run.

    .venv/bin/python benchmarks/fence.py            # 30 students, 7 checks each way
    .venv/bin/python benchmarks/fence.py --quick    # 4 students, 2 checks

Without the fence is the same code with `msviz.grade.sandbox.enter` and
`msviz.grade.sandbox.refuse_spawning` doing nothing (check) or ``--sandbox off`` (the class
command). The target: the fence adds at most 0.1 s to a check and at most 0.1 s to each student
of the class (wall clock, medians; a quiet machine is best). Then the same class with one
submission more that waits (``time.sleep``): it is stopped once it has used no CPU time for
`msviz.grade.limits.IDLE_SECONDS`, and the class must end at most `MOST_WAITED` seconds later
than without it. Exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "tests"))  # the class's right answer, as the class command's tests have it

from test_classroom import RIGHT  # noqa: E402

from msviz.grade import check, sandbox  # noqa: E402
from msviz.grade.classroom import Limits, find_submissions, grade_class  # noqa: E402
from msviz.grade.limits import IDLE_SECONDS, it_was_waiting  # noqa: E402

#: The most the fence may add, in seconds: to one check, and to each student of a class.
MOST_ADDED = 0.1
#: The most one waiting submission may add to a class, in seconds.
MOST_WAITED = 15.0
WAITS = "import time\n\ndef update_board(board, click):\n    time.sleep(3600)\n"


def _function():
    namespace: dict = {}
    exec(RIGHT, namespace)
    return namespace["update_board"]


def time_checks(repeat: int, fenced: bool) -> float:
    """The median wall-clock seconds of `repeat` checks of a right answer."""
    real = sandbox.enter, sandbox.refuse_spawning
    if not fenced:
        sandbox.enter, sandbox.refuse_spawning = (lambda read, write, **_: []), list
    try:
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            assert check(_function(), order="dfs")
            times.append(time.perf_counter() - start)
    finally:
        sandbox.enter, sandbox.refuse_spawning = real
    return statistics.median(times)


def time_class(students: int, fence: str, jobs: int, waiting: bool = False) -> float:
    """Wall-clock seconds to grade a class of `students` right answers (and one that waits)."""
    folder = Path(tempfile.mkdtemp(prefix="msviz-bench-class-"))
    try:
        for i in range(students):
            (folder / f"student{i:02d}.py").write_text(RIGHT)
        if waiting:
            (folder / "waiting.py").write_text(WAITS)
        start = time.perf_counter()
        rows = grade_class(find_submissions([folder]), order="dfs", limits=Limits(), jobs=jobs, fence=fence)
        took = time.perf_counter() - start
        said = {row.name: row.problem for row in rows if row.verdict != "right"}
        assert said == ({"waiting": it_was_waiting(IDLE_SECONDS)} if waiting else {}), said
        return took
    finally:
        shutil.rmtree(folder)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="4 students and 2 checks each way")
    parser.add_argument("--jobs", type=int, default=2, help="runners at once in the class (default 2)")
    args = parser.parse_args(argv)
    students, repeat = (4, 2) if args.quick else (30, 7)
    layers = sandbox.available()
    abi = sandbox.landlock_abi()
    print(f"fence layers on this machine: {sandbox.layers_words(layers)} (Landlock ABI {abi})")
    met = True
    time_checks(1, True)  # warm up: the first check imports what the others reuse
    bare, fenced = time_checks(repeat, False), time_checks(repeat, True)
    added = fenced - bare
    ok = added <= MOST_ADDED
    met &= ok
    print(
        f"check of a right answer: {bare:.3f} s without the fence, {fenced:.3f} s with it: "
        f"{added:+.3f} s ({fenced / bare:.2f}x)  target <= +{MOST_ADDED} s  {'met' if ok else 'MISSED'}"
    )
    bare = time_class(students, "off", args.jobs)
    fenced = time_class(students, "try", args.jobs)
    added = (fenced - bare) / students
    ok = added <= MOST_ADDED
    met &= ok
    print(
        f"class of {students} right answers ({args.jobs} at once): {bare:.2f} s without the fence, "
        f"{fenced:.2f} s with it: {added:+.3f} s a student ({fenced / bare:.2f}x)  "
        f"target <= +{MOST_ADDED} s a student  {'met' if ok else 'MISSED'}"
    )
    with_one = time_class(students, "try", args.jobs, waiting=True)
    ok = with_one - fenced <= MOST_WAITED
    met &= ok
    print(
        f"the same class with one submission that waits: {with_one:.2f} s against {fenced:.2f} s: "
        f"{with_one - fenced:+.2f} s (idle stop after {IDLE_SECONDS:g} s)  target <= +{MOST_WAITED:g} s  "
        f"{'met' if ok else 'MISSED'}"
    )
    print("all targets met" if met else "some targets MISSED")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
