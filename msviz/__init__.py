"""msviz: watch a Minesweeper click flood the board, depth-first and breadth-first.

A teaching kit for LeetCode 529 ("Minesweeper"). The engine is plain Python
and numpy:

>>> import msviz
>>> board = msviz.parse_board(["EEEEE", "EEMEE", "EEEEE", "EEEEE"])
>>> print(msviz.format_board(msviz.reveal(board, (3, 0))))
B 1 E 1 B
B 1 M 1 B
B 1 1 1 B
B B B B B
>>> [(v.row, v.col, v.value) for v in msviz.bfs_reveal(board, (3, 0))][:3]
[(3, 0, 'B'), (2, 0, 'B'), (2, 1, '1')]
"""

from .board import (
    HIDDEN,
    SYMBOLS,
    Board,
    Cell,
    format_board,
    mine_counts,
    parse_board,
    random_board,
)
from .grade import check, record
from .i18n import LANGUAGES, get_language, set_language
from .trace import Trace, trace
from .traversal import (
    EVENT_LABELS,
    LEETCODE_ORDER,
    ORDERS,
    READING_ORDER,
    Event,
    Visit,
    bfs_events,
    bfs_reveal,
    dfs_events,
    dfs_reveal,
    reveal,
)

__version__ = "0.1.0"

# Pictures, widgets and export need matplotlib or ipywidgets: they are loaded on
# first use, so that the engine alone imports neither.
_LAZY = {
    "plot": None,
    "widgets": None,
    "export": None,
    "player": "widgets",
    "compare": "widgets",
    "game": "widgets",
    "quiz": "widgets",
    "simulate": "widgets",
    "homework": None,
    "misconceptions": None,
    "quiz_bank": "homework",
    "simulation": None,
    "Simulation": "simulation",
    "simulation_set": "simulation",
}


def __getattr__(name):
    if name not in _LAZY:
        raise AttributeError(f"module 'msviz' has no attribute {name!r}")
    import importlib

    module = importlib.import_module(f".{_LAZY[name] or name}", __name__)
    return module if _LAZY[name] is None else getattr(module, name)


def __dir__():
    return sorted(list(globals()) + list(_LAZY))


__all__ = [
    "LANGUAGES",
    "set_language",
    "get_language",
    "Simulation",
    "simulation_set",
    "HIDDEN",
    "SYMBOLS",
    "Board",
    "Cell",
    "format_board",
    "mine_counts",
    "parse_board",
    "random_board",
    "Trace",
    "trace",
    "LEETCODE_ORDER",
    "ORDERS",
    "READING_ORDER",
    "Visit",
    "Event",
    "EVENT_LABELS",
    "bfs_events",
    "dfs_events",
    "bfs_reveal",
    "dfs_reveal",
    "reveal",
    "player",
    "compare",
    "game",
    "quiz",
    "simulate",
    "quiz_bank",
    "check",
    "record",
]
