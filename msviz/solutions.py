"""The solutions the player shows beside the board, and which line runs at each event.

Three classic solutions of the reveal, as plain Python source a student reads
(in ``msviz/shown/``, as text: each is whole, as a student reads it):
the recursive depth-first one, the queue breadth-first one, and a depth-first
one with an explicit stack of frames that keeps the recursive order exactly.
Each event of a trace's finer timeline (a call or a return, an enqueue or a
dequeue) happens on one line of the source; `line_of` says which, and the
browser view is sent the same table. tests/test_solutions.py runs each source
under ``sys.settrace`` on the same boards and checks that these are the lines
Python really executes, in the same order.

Pure text and a little arithmetic: nothing here imports matplotlib or widgets.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

from .traversal import READING_ORDER

__all__ = ["SOURCES", "LINES", "DEFAULT", "line_of", "run", "update_board"]


def _read(name: str) -> str:
    return (Path(__file__).parent / "shown" / f"{name}.txt").read_text(encoding="utf-8")


#: The source of each solution, as a student reads it (kept as text in msviz/shown/).
SOURCES = {name: _read(name) for name in ("recursive", "queue", "stack")}

#: For each source, the line (1-based) on which each kind of event happens.
LINES = {
    "recursive": {
        "call_mine": 3,
        "call_digit": 7,
        "call_blank": 9,
        "return_mine": 4,
        "return_digit": 8,
        "return_blank": 14,
    },
    "queue": {"enqueue_click": 2, "enqueue": 18, "dequeue_mine": 7, "dequeue_digit": 11, "dequeue_blank": 13},
    "stack": {
        "call_mine": 7,
        "call_digit": 9,
        "call_blank": 11,
        "return_mine": 13,
        "return_digit": 13,
        "return_blank": 13,
    },
}

#: The source shown for each order unless another is asked for.
DEFAULT = {"dfs": "recursive", "bfs": "queue"}
#: Which sources can show which order.
ORDER_OF = {"recursive": "dfs", "stack": "dfs", "queue": "bfs"}


def _kind(t, e: int) -> str:
    """The kind of event `e` of trace `t`: its label, and the symbol its cell gets."""
    event = t.event(e)
    if event.label == "enqueue":
        return "enqueue_click" if event.step == 0 else "enqueue"
    value = str(t.final[event.row, event.col])
    symbol = "mine" if value == "X" else "blank" if value == "B" else "digit"
    return f"{event.label}_{symbol}"


def line_of(t, e: int, source: str | None = None) -> int:
    """Return the line of `source` (by default the one for `t.order`) that runs at event `e`.

    Examples
    --------
    >>> import msviz
    >>> t = msviz.trace(["EEE", "EEM"], (0, 0))
    >>> [line_of(t, e) for e in range(t.events)]
    [9, 7, 8, 9, 7, 8, 14, 14]
    """
    return LINES[source or DEFAULT[t.order]][_kind(t, e)]


def count_mines(board, r, c) -> int:
    """How many of the eight cells around (r, c) hold a mine."""
    return sum(
        board[r + dr][c + dc] in "MX"
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and inside(board, r + dr, c + dc)
    )


def inside(board, r, c) -> bool:
    """Whether (r, c) is a cell of the board."""
    return 0 <= r < len(board) and 0 <= c < len(board[0])


def _namespace(source: str, neighbors) -> dict:
    """Run a shown source's definition; return its namespace, `reveal` in it."""
    namespace = {"NEIGHBOURS": tuple(neighbors), "count_mines": count_mines, "inside": inside, "deque": deque}
    exec(compile(SOURCES[source], f"<msviz {source} solution>", "exec"), namespace)
    return namespace


def run(source: str, board, click, neighbors):
    """Run a shown source on a copy of `board`; return (the board after, the namespace).

    Examples
    --------
    >>> run("stack", ["EEE", "EEM"], (0, 0), READING_ORDER)[0]
    [['B', '1', 'E'], ['B', '1', 'M']]
    """
    namespace = _namespace(source, neighbors)
    copy = [list(row) for row in board]
    namespace["reveal"](copy, *click)
    return copy, namespace


def update_board(source: str, neighbors=READING_ORDER):
    """Return a shown source as LeetCode's ``update_board(board, click)``: in place, returning the board.

    Examples
    --------
    >>> import msviz
    >>> msviz.check(update_board("queue"), order="bfs").ok
    True
    """
    reveal = _namespace(source, neighbors)["reveal"]

    def update_board(board, click):
        if board[click[0]][click[1]] in "ME":
            reveal(board, click[0], click[1])
        return board

    update_board.__name__ = f"{source}_update_board"
    return update_board
