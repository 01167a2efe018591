"""Boards: parse, validate, format, make random ones, count mines.

A board is a list of rows, each a list of one-character strings, exactly as
in LeetCode 529:

======  ==================================================
symbol  meaning
======  ==================================================
``M``   a mine nobody has uncovered
``E``   an empty cell nobody has uncovered
``B``   an uncovered cell with no mine among its neighbours
``1-8`` an uncovered cell showing how many neighbours are mines
``X``   an uncovered mine: the game is lost
======  ==================================================

Every function here returns a new board and never changes the one it is given.
"""

from __future__ import annotations

import json
import math
import random
from array import array
from collections.abc import Sequence

import numpy as np

from . import _checks
from ._checks import click as check_click
from .i18n import _
from .words import count, mines_do_not_fit

__all__ = [
    "SYMBOLS",
    "HIDDEN",
    "Board",
    "Cell",
    "parse_board",
    "format_board",
    "random_board",
    "mine_counts",
    "check_click",
]

#: Every symbol a board may hold.
SYMBOLS = frozenset("MEBX12345678")
#: The symbols of cells nobody has uncovered yet.
HIDDEN = frozenset("ME")

Board = list[list[str]]
Cell = tuple[int, int]


def parse_board(obj) -> Board:
    """Return a new, validated board in LeetCode form from any common spelling.

    Parameters
    ----------
    obj : list of lists of str, list of str, str, or 2-D numpy array
        The board as LeetCode gives it (``[["E", "M"], ["E", "E"]]``), as a
        list of row strings (``["EM", "EE"]``), as one string with a row per
        line (spaces between cells are allowed, blank lines are ignored), as
        the LeetCode JSON text (``'[["E","M"],["E","E"]]'``), or as a 2-D numpy
        array of one-character strings.

    Returns
    -------
    list of list of str
        A new board; changing it never changes `obj`.

    Raises
    ------
    TypeError
        If `obj` or one of its cells is not of a kind listed above.
    ValueError
        If the board is empty, has an empty row, has rows of different
        lengths, or holds a symbol other than ``M E B X 1-8``.

    Examples
    --------
    >>> parse_board(["EEM", "EEE"])
    [['E', 'E', 'M'], ['E', 'E', 'E']]
    >>> parse_board('''
    ... B 1 E
    ... B 1 M
    ... ''')
    [['B', '1', 'E'], ['B', '1', 'M']]
    """
    rows = _rows_of(obj)
    if not rows:
        raise ValueError(f"the board is empty: {_checks.clip(obj)}")
    board = [_parse_row(row, r) for r, row in enumerate(rows)]
    width = len(board[0])
    for r, row in enumerate(board):
        if len(row) != width:
            raise ValueError(
                f"the board is ragged: row 0 has {width} cells but row {r} has {len(row)} ({''.join(row)!r})"
            )
    return board


def _rows_of(obj) -> list:
    """Return the rows of `obj`, whatever spelling of a board it is."""
    if isinstance(obj, np.ndarray):
        if obj.ndim != 2:
            raise ValueError(f"a board array must be 2-D, not {obj.ndim}-D (shape {obj.shape})")
        return obj.tolist()
    if isinstance(obj, str):
        text = obj.strip()
        if text.startswith("["):
            try:
                rows = json.loads(text)
            except json.JSONDecodeError as err:
                raise ValueError(f"the board text looks like JSON but is not: {err}") from None
            except RecursionError:
                raise ValueError(f"the board text nests lists far too deeply: {text[:40]!r}...") from None
            return _rows_of(rows)
        return ["".join(line.split()) for line in text.splitlines() if line.strip()]
    if isinstance(obj, (bytes, bytearray)):
        raise TypeError(f"a board must be text, not bytes: {obj[:40]!r} (decode it first: board.decode())")
    if isinstance(obj, Sequence):
        return list(obj)
    raise TypeError(
        f"a board must be a list of rows, a string or a 2-D numpy array, not {type(obj).__name__}: "
        f"{_checks.clip(obj)}"
    )


def _parse_row(row, r: int) -> list[str]:
    """Return row `r` as a new list of checked one-character symbols."""
    if isinstance(row, (bytes, bytearray)):
        raise TypeError(
            f"row {r} of the board is bytes, not text: {_checks.clip(row)} (decode it: row.decode())"
        )
    if not isinstance(row, Sequence):
        raise TypeError(
            f"row {r} of the board must be a string or a list of one-character "
            f"strings, not {type(row).__name__}: {_checks.clip(row)}"
        )
    if not len(row):
        raise ValueError(f"row {r} of the board is empty")
    # The common case, checked in C: every cell a plain str holding a symbol.
    if _all_symbols(row) and (isinstance(row, str) or set(map(type, row)) == {str}):
        return list(row)
    for c, cell in enumerate(row):
        if not isinstance(cell, str):
            said = _("cell ({r}, {c}) must be a one-character string, not {kind}: {value}")
            raise TypeError(said.format(r=r, c=c, kind=type(cell).__name__, value=_checks.clip(cell)))
        if cell not in SYMBOLS:
            said = _("cell ({r}, {c}) holds {value}, which is not a board symbol (one of M E B X 1-8)")
            raise ValueError(said.format(r=r, c=c, value=_checks.clip(cell)))
    return [str(cell) for cell in row]


def _all_symbols(row) -> bool:
    """Whether every item of `row` is a board symbol (False if one is unhashable)."""
    try:
        return SYMBOLS.issuperset(row)
    except TypeError:
        return False


def format_board(board, *, style: str = "text") -> str:
    """Return the board as text: a grid for reading, or LeetCode's JSON form.

    Parameters
    ----------
    board : board-like
        Anything :func:`parse_board` accepts.
    style : {"text", "compact", "leetcode"}
        ``"text"`` puts a space between cells, as the problem statement does;
        ``"compact"`` writes each row as one word; ``"leetcode"`` gives the JSON
        list of lists to paste into a LeetCode test case.

    Examples
    --------
    >>> print(format_board(["EEM", "B1E"]))
    E E M
    B 1 E
    >>> print(format_board(["EEM", "B1E"], style="leetcode"))
    [["E","E","M"],["B","1","E"]]
    """
    rows = parse_board(board)
    if style == "text":
        return "\n".join(" ".join(row) for row in rows)
    if style == "compact":
        return "\n".join("".join(row) for row in rows)
    if style == "leetcode":
        return json.dumps(rows, separators=(",", ":"))
    raise ValueError(f"style must be 'text', 'compact' or 'leetcode', not {style!r}")


def random_board(rows: int, cols: int, mines: int, *, seed=None, safe=None) -> Board:
    """Return a new hidden board (only ``M`` and ``E``) with `mines` mines.

    Parameters
    ----------
    rows, cols : int
        The size of the board, each at least 1.
    mines : int
        How many mines to place, from 0 to the number of cells allowed.
    seed : int or None, keyword-only
        The same seed always gives the same board.
    safe : (int, int) or None, keyword-only
        A first click: this cell and its neighbours are kept free of mines, as
        in the real game, so that the click opens a region.

    Raises
    ------
    ValueError
        If the size is not positive, or the mines do not fit.

    Examples
    --------
    >>> board = random_board(3, 4, 2, seed=1)
    >>> sum(row.count("M") for row in board)
    2
    >>> random_board(3, 4, 2, seed=1) == board
    True
    """
    rows, cols = _checks.size(rows, cols)
    mines = _checks.whole_number("mines", mines, least=0)
    seed = _checks.seed(seed)
    free = np.ones((rows, cols), dtype=bool)  # the cells that may hold a mine
    if safe is not None:
        sr, sc = check_click(safe, (rows, cols), name="safe")
        free[max(sr - 1, 0) : sr + 2, max(sc - 1, 0) : sc + 2] = False
    room = int(free.sum())
    if mines > room:
        kept = f" once {tuple(safe)!r} and its neighbours are kept safe" if safe is not None else ""
        raise ValueError(
            f"{mines_do_not_fit(mines, rows, cols)}: only {count(room, 'cell')} may hold a mine{kept}"
        )
    board = [["E"] * cols for _ in range(rows)]  # one pointer a cell: every "E" is the same string
    where = np.flatnonzero(free)[_choose(room, mines, seed)]
    for r, c in zip(*np.divmod(where, cols)):
        board[r][c] = "M"
    return board


def _choose(n: int, k: int, seed) -> list[int]:
    """Return `k` distinct indices below `n`: exactly ``random.Random(seed).sample(range(n), k)``.

    The same algorithm as Python's ``random.sample`` (so a seed gives the boards
    msviz has always given), with its pool of candidates kept as 4-byte
    integers in an ``array`` rather than a list of Python ints: a few bytes a
    cell instead of about forty.
    """
    rng = random.Random(seed)
    randbelow = getattr(rng, "_randbelow", None)
    if randbelow is None:  # not CPython's random: its own sample, with its own memory
        return rng.sample(range(n), k)
    setsize = 21  # as in random.sample: a set of k is smaller than a pool of n?
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    result = [0] * k
    if n <= setsize:
        pool = array("i", range(n)) if n < 2**31 else list(range(n))
        for i in range(k):
            j = randbelow(n - i)
            result[i] = pool[j]
            pool[j] = pool[n - i - 1]  # the last candidate moves into the vacancy
    else:
        selected = set()
        for i in range(k):
            j = randbelow(n)
            while j in selected:
                j = randbelow(n)
            selected.add(j)
            result[i] = j
    return result


def mine_counts(board) -> np.ndarray:
    """Return, for every cell, how many of its eight neighbours are mines.

    Both hidden mines ``M`` and uncovered mines ``X`` count.

    Examples
    --------
    >>> mine_counts(["EEM", "EEE"])
    array([[0, 1, 0],
           [0, 1, 1]], dtype=int8)
    """
    grid = np.array(parse_board(board))
    return neighbour_sum((grid == "M") | (grid == "X"))


def neighbour_sum(mask: np.ndarray) -> np.ndarray:
    """Return how many of each cell's eight neighbours are True in `mask`."""
    rows, cols = mask.shape
    padded = np.zeros((rows + 2, cols + 2), dtype=np.int8)
    padded[1:-1, 1:-1] = mask
    total = np.zeros((rows, cols), dtype=np.int8)
    for dr in (0, 1, 2):
        for dc in (0, 1, 2):
            if (dr, dc) != (1, 1):
                total += padded[dr : dr + rows, dc : dc + cols]
    return total
