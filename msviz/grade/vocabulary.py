"""The grader's words, defined once: the categories, the orders, the names a solution is looked for under.

Every part of the grader (the report, the class command, the results files,
the class page) reads these; nothing here imports the rest of msviz.
"""

from __future__ import annotations

__all__ = [
    "CATEGORIES",
    "ORDER_WORDS",
    "FUNCTION_NAMES",
    "CLASS_NAME",
    "MOST_TIME_LIMIT",
    "MEMORY_LIMIT_MB",
    "OUTPUT_KEPT",
    "MOST_WRITES",
    "TEXT_KEPT",
    "clip",
]

#: The categories of a report, in the order they are graded, and their words.
CATEGORIES = {
    "examples": "the problem's examples",
    "tricky": "tricky boards",
    "random": "random boards",
    "order": "order",
}
#: The orders a solution may be graded on, in words.
ORDER_WORDS = {"dfs": "depth-first", "bfs": "breadth-first"}
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
