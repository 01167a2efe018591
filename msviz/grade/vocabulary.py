"""The grader's words, defined once: the categories, the orders, the names a solution is looked for under.

Every part of the grader (the report, the class command, the results files,
the class page) reads these; nothing here imports the rest of msviz but its
words (`msviz.i18n`, `msviz.words`). The categories, the orders and the
verdicts are tables of phrases: their keys are what results files hold, their
phrases what a person reads, in the language spoken.
"""

from __future__ import annotations

from ..i18n import Phrases
from ..words import ORDER_WORDS

__all__ = [
    "CATEGORIES",
    "ORDER_WORDS",
    "VERDICT_WORDS",
    "FUNCTION_NAMES",
    "CLASS_NAME",
    "MOST_TIME_LIMIT",
    "MEMORY_LIMIT_MB",
    "OUTPUT_KEPT",
    "MOST_WRITES",
    "TEXT_KEPT",
    "clip",
    "memory_size",
]

#: The categories of a report, in the order they are graded, and their words.
CATEGORIES = Phrases(
    "grade_categories",
    {
        "examples": "the problem's examples",
        "tricky": "tricky boards",
        "random": "random boards",
        "order": "order",
    },
)
#: A row's verdict (the key: what results.csv and results.json hold), in words for the class page.
VERDICT_WORDS = Phrases(
    "grade_verdicts",
    {
        "right": "right",
        "wrong": "wrong",
        "stopped": "stopped",
        "not graded": "not graded",
    },
)
#: The names a student's function is looked for under, in this order (then a class `CLASS_NAME`
#: with a method of one of these names, LeetCode's form).
FUNCTION_NAMES = ("update_board", "updateBoard")
CLASS_NAME = "Solution"
#: The largest time limit for one board, in seconds of CPU time.
MOST_TIME_LIMIT = 60.0
#: Megabytes of memory a student's code may use (beyond what the notebook had), in a process of its own.
MEMORY_LIMIT_MB = 1024
#: Characters of the student's output kept in a report.
OUTPUT_KEPT = 20_000
#: What a runner sends of one board, at most: writes beyond the board's cells (the count of all
#: is sent too), and characters of a traceback or of a returned value's description.
MOST_WRITES = 20_000
TEXT_KEPT = 4_000


def clip(text: str, most: int) -> str:
    """`text` cut to `most` characters, with ``...`` where it was cut.

    Examples
    --------
    >>> clip("abcdef", 5), clip("abc", 5)
    ('ab...', 'abc')
    """
    return text if len(text) <= most else text[: max(0, most - 3)] + "..."


def memory_size() -> str:
    """The memory limit, as a size: ``"1 GB"`` or ``"512 MB"``.

    Examples
    --------
    >>> memory_size()
    '1 GB'
    """
    return f"{MEMORY_LIMIT_MB // 1024} GB" if MEMORY_LIMIT_MB % 1024 == 0 else f"{MEMORY_LIMIT_MB} MB"
