"""Grade a whole class: ``python -m msviz grade FILES_OR_FOLDERS... --order dfs --out DIR``.

Each submission (a ``.py`` file, or a notebook whose code cells are run in
order) is copied alone into a private folder and run there by a *runner*
(`msviz.grade.runner.COMMAND`), a process of its own with a limit on
its CPU time and its memory, that only calls the student's function on the
boards it is sent and says what happened. This process, the *judge*,
sends the boards, reads every answer as untrusted data and decides
everything: the answers, the order, the named mistakes, the points. The
student's code never writes its own row.

On Linux each runner fences itself before it loads the submission
(`msviz.grade.sandbox`): it reads only Python's installation and its own
folder and writes only its own temporary folder (Landlock), opens no
socket (seccomp, and Landlock for TCP), signals no process outside its own
(Landlock), and runs in PID, network and IPC namespaces of its own, so that no
process it started outlives it; once it has what it needs, it can start no
thread, process or program and raise no limit (seccomp). Its CPU time is
measured from outside, by the judge, and a runner that uses none for 10 s
is stopped: it was waiting. Where a layer is missing the run goes on
without it and says so (``--sandbox require`` refuses instead).

Whatever a submission does (loop for ever, even while it is imported, call
``os._exit``, ask for all the memory there is, crash the interpreter, send
garbage, kill what it can see) costs its own row, never the run. The limits
count CPU time, not the clock, so a verdict does not depend on how busy the
machine is; a generous wall-clock guard stops only a process that waits for
ever (``time.sleep``), and says so.

A notebook may hand in homework instead of a function: a simulation set
(`msviz.simulation_set`), a quiz bank (`msviz.quiz_bank`), a pre- and a
post-test, or several together. Each is made again from the name it was made
for and its kept lines carried out again (`msviz.grade.homework`), at the
size the teacher asks (``--bank-questions``, ``--simulations``,
``--test-questions``). Rows that share a name, hand in another student's
name, or hold the same code are named on each other's rows
(`msviz.grade.copies`), with no penalty: the teacher decides.

Three files are written: ``results.csv`` and ``results.json`` (one row per
student, and the fence's layers) and ``class.html``, a page for the teacher
with the count of each named mistake across the class and each student's
first wrong board.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ..i18n import LANGUAGES, _, checked_language, set_language
from . import sandbox
from .copies import name_copies
from .homework import Sizes
from .limits import OUTPUT_LIMIT_MB, Limits
from .page import class_page
from .progress import Progress
from .results import write_results
from .rows import COLUMNS, VERDICTS, Row
from .schedule import MOST_JOBS, grade_class
from .submissions import find_function, find_submissions, load_code
from .vocabulary import FUNCTION_NAMES

__all__ = [
    "COLUMNS",
    "FUNCTION_NAMES",
    "MOST_JOBS",
    "OUTPUT_LIMIT_MB",
    "VERDICTS",
    "Progress",
    "Row",
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


#: The class command's sizes of a hand-in: each option, the field of `Sizes` it sets, the most it
#: may be, and what its help says (of its default).
SIZE_OPTIONS = (
    (
        "--bank-questions",
        "bank",
        100,
        "questions a homework quiz bank must have (default {default}): a bank with fewer earns its share "
        "(1 right of 10 asked is a tenth of the marks), one with more is graded on its first N",
    ),
    (
        "--simulations",
        "simulations",
        20,
        "simulations a homework simulation set must have (default {default}), likewise",
    ),
    (
        "--test-questions",
        "test",
        100,
        "questions each pre- and post-test must have (default {default}), likewise",
    ),
)


def _dest(option: str) -> str:
    """Where argparse keeps an option's value: ``--bank-questions`` in ``bank_questions``."""
    return option[2:].replace("-", "_")


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
    for option, field, _most, said in SIZE_OPTIONS:
        default = getattr(Sizes, field)
        grade.add_argument(option, type=int, default=default, metavar="N", help=said.format(default=default))
    grade.add_argument(
        "--attempts",
        choices=("best", "last"),
        default="best",
        help="which attempt of each simulation a simulation set is graded on, where a student made "
        "several (New board): the best (the default) or the last",
    )
    grade.add_argument(
        "--sandbox",
        choices=("try", "require", "off"),
        default="try",
        help="fence each submission (files, network, signals, processes, shared memory, no new threads "
        "or processes) where this machine can "
        "(try, the default), refuse to grade unless every layer holds (require), or not at all (off)",
    )
    grade.add_argument(
        "--language",
        default=None,
        metavar="CODE",
        help="the language of the terminal lines, the class page, the CSV's words and results.json's "
        f"messages: {', '.join(LANGUAGES)} (default: the environment's, MSVIZ_LANGUAGE or the locale)",
    )
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
    language = getattr(args, "language", None)
    if language is not None:  # for the whole process: the judges are threads, which a context would miss
        set_language(checked_language(language))
    for option, value, least, *most in (
        ("--cpu-limit", args.cpu_limit, 1),
        ("--memory", args.memory, 64),
        ("--random-boards", args.random_boards, 0),
        ("--jobs", args.jobs, 1),
        ("--out-of", args.out_of, 0),
        *((option, getattr(args, _dest(option), 1), 1, most) for option, _field, most, _said in SIZE_OPTIONS),
    ):
        if not value >= least:
            raise ValueError(f"{option} must be at least {least}, not {value!r}")
        if most and not value <= most[0]:
            raise ValueError(f"{option} must be at most {most[0]}, not {value!r}")
    if args.output.exists() and not args.output.is_dir():
        raise ValueError(f"cannot write into {str(args.output)!r}: it is a file, not a folder")
    submissions = find_submissions(args.paths)
    _writable(args.output)  # before the grading, not after it
    mode = getattr(args, "sandbox", "try")
    layers = sandbox.available() if mode != "off" else []
    if mode == "require" and set(layers) != set(sandbox.LAYERS):
        missing = ", ".join(layer for layer in sandbox.LAYERS if layer not in layers)
        raise ValueError(
            f"--sandbox require: this machine cannot fence submissions fully (missing: {missing}); "
            "grade on Linux 6.7 or later with unprivileged user namespaces, or leave out --sandbox require"
        )
    said = _("each submission is fenced: {layers}").format(layers=sandbox.layers_words(layers))
    print(f"msviz grade: {said}", file=sys.stderr)
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
        fence=mode,
        attempts=getattr(args, "attempts", "best"),
        sizes=Sizes(
            **{
                field: getattr(args, _dest(option), getattr(Sizes, field))
                for option, field, *_ in SIZE_OPTIONS
            }
        ),
    )
    rows = name_copies(rows)
    return write_results(rows, args.output, order=order, limits=limits, fence=layers, out_of=args.out_of)[-1]
