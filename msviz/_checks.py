"""Argument checks shared by every public function: one helper per kind of argument.

Each helper returns the value in the form the code wants (a plain ``int``, a
tuple) or raises a `TypeError` (wrong kind) or `ValueError` (wrong value) whose
message names the argument, quotes the value and states the rule. numpy
integers are whole numbers everywhere; bools and floats are not.

The limits below keep a typo from eating the machine: they are checked before
anything is allocated.
"""

from __future__ import annotations

import reprlib
from collections.abc import Sequence

import numpy as np

from .i18n import _

#: The most cells a board made by msviz may have (random boards, games, the
#: command line): 2000 x 2000. A trace of a million cells peaks near 150 MB
#: (benchmarks/run.py), so this is about 600 MB at most, and a typo such as
#: 10**5 x 10**5 is refused at once instead of filling the memory.
MAX_CELLS = 4_000_000
#: The most cells a board view sends to the browser: 1000 x 1000, about 36 MB
#: of arrays, drawn at one pixel a cell.
MAX_VIEW_CELLS = 1_000_000
#: The largest side of a cell in a picture, in pixels.
MAX_PX = 64
#: The most pixels in one picture made in the kernel (an RGB image of 100 MB).
MAX_PIXELS = 33_000_000
#: The names of the traversals.
ORDERS = ("dfs", "bfs")


_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother = 4, 60, 60


def clip(value, most: int = 80) -> str:
    """The repr of `value`, cut short if long, in bounded time and depth: for messages.

    Examples
    --------
    >>> deep = []
    >>> for _ in range(200_000):
    ...     deep = [deep]
    >>> clip(deep)
    '[[[[[...]]]]]'
    """
    try:
        text = _SHORT.repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= most else text[: most - 3] + "..."


def is_integer(value) -> bool:
    """Whether `value` is an int or a numpy integer (but not a bool).

    Examples
    --------
    >>> is_integer(3), is_integer(np.int64(3)), is_integer(True), is_integer(3.0)
    (True, True, False, False)
    """
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def whole_number(name: str, value, *, least: int | None = None, most: int | None = None) -> int:
    """Return `value` as an int after checking it is a whole number in range.

    Examples
    --------
    >>> whole_number("stride", np.int64(2), least=1)
    2
    >>> whole_number("rows", 2.5)
    Traceback (most recent call last):
    ...
    TypeError: rows must be a whole number, not float: 2.5
    """
    if not is_integer(value):
        raise TypeError(f"{name} must be a whole number, not {type(value).__name__}: {clip(value)}")
    if least is not None and value < least:
        raise ValueError(f"{name} must be at least {least}, not {value!r}")
    if most is not None and value > most:
        raise ValueError(f"{name} must be at most {most}, not {value!r}")
    return int(value)


def real_number(
    name: str, value, *, least: float | None = None, most: float | None = None, above=None
) -> float:
    """Return `value` as a float after checking it is a finite real number in range.

    Whole numbers and numpy numbers are real numbers; bools and strings are not.

    Examples
    --------
    >>> real_number("time_limit", 2)
    2.0
    >>> real_number("time_limit", "2")
    Traceback (most recent call last):
    ...
    TypeError: time_limit must be a number, not str: '2'
    >>> real_number("time_limit", 0, above=0)
    Traceback (most recent call last):
    ...
    ValueError: time_limit must be more than 0, not 0
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, not {type(value).__name__}: {clip(value)}")
    try:
        number = float(value)
    except OverflowError:
        raise ValueError(f"{name} is too large: {clip(value)}") from None
    if number != number or number in (float("inf"), float("-inf")):
        raise ValueError(f"{name} must be a finite number, not {clip(value)}")
    if above is not None and not number > above:
        raise ValueError(f"{name} must be more than {above}, not {clip(value)}")
    if least is not None and number < least:
        raise ValueError(f"{name} must be at least {least}, not {clip(value)}")
    if most is not None and number > most:
        raise ValueError(f"{name} must be at most {most}, not {clip(value)}")
    return number


def seed(value):
    """Return a seed for `random.Random`: None, or a whole number as an int.

    Examples
    --------
    >>> seed(np.int64(7)), seed(None)
    (7, None)
    """
    return None if value is None else whole_number("seed", value)


def size(rows, cols, *, most: int = MAX_CELLS, what: str = "a board") -> tuple[int, int]:
    """Return ``(rows, cols)`` as ints after checking each is at least 1 and the cells fit the limit.

    Examples
    --------
    >>> size(3, np.int32(4))
    (3, 4)
    >>> size(10**5, 10**5)
    Traceback (most recent call last):
    ...
    ValueError: a board of 100000x100000 has 10000000000 cells; the limit is 4000000 cells (2000 x 2000)
    """
    rows = whole_number("rows", rows, least=1)
    cols = whole_number("cols", cols, least=1)
    if rows * cols > most:
        side = int(most**0.5)
        raise ValueError(
            f"{what} of {rows}x{cols} has {rows * cols} cells; the limit is {most} cells ({side} x {side})"
        )
    return rows, cols


def px(value, *, name: str = "px"):
    """Return a cell's side in pixels (None: chosen for the board) after checking it is 1..MAX_PX.

    Examples
    --------
    >>> px(None), px(12)
    (None, 12)
    """
    return None if value is None else whole_number(name, value, least=1, most=MAX_PX)


def pixels(shape: tuple[int, int], side: int) -> None:
    """Check that a picture of a board of `shape` at `side` pixels a cell stays under MAX_PIXELS."""
    total = shape[0] * side * shape[1] * side
    if total > MAX_PIXELS:
        raise ValueError(
            f"a {shape[0]}x{shape[1]} board at {side} pixels a cell would be a picture of {total} "
            f"pixels; the limit is {MAX_PIXELS}: pass a smaller px"
        )


def click(value, shape: tuple[int, int], *, name: str = "click") -> tuple[int, int]:
    """Return `value` as a pair of ints after checking it lies on a board of `shape`.

    numpy integers are fine; negative indices are refused, never wrapped around.

    Examples
    --------
    >>> click((1, 2), (3, 4))
    (1, 2)
    >>> click((-1, 0), (3, 4))
    Traceback (most recent call last):
    ...
    ValueError: click (-1, 0) is outside the 3x4 board (rows 0-2, columns 0-3)
    """
    pair = isinstance(value, Sequence) and not isinstance(value, (str, bytes))
    pair = pair or (isinstance(value, np.ndarray) and value.ndim == 1)
    if not pair or len(value) != 2 or not all(is_integer(x) for x in value):
        raise TypeError(f"{name} must be a pair (row, col) of whole numbers, not {clip(value)}")
    r, c = int(value[0]), int(value[1])
    rows, cols = shape
    if not (0 <= r < rows and 0 <= c < cols):
        said = _outside(name).format(cell=(r, c), rows=rows, cols=cols, last_row=rows - 1, last_col=cols - 1)
        raise ValueError(said)
    return r, c


def _outside(name: str) -> str:
    """What a cell named `name` off a board is, in the language spoken (a student types a click, a
    cell or an answer): a template with ``{cell}``, ``{rows}``, ``{cols}``, ``{last_row}``, ``{last_col}``."""
    said = {
        "click": _(
            "click {cell} is outside the {rows}x{cols} board (rows 0-{last_row}, columns 0-{last_col})"
        ),
        "cell": _("cell {cell} is outside the {rows}x{cols} board (rows 0-{last_row}, columns 0-{last_col})"),
        "the answer": _(
            "the answer {cell} is outside the {rows}x{cols} board (rows 0-{last_row}, columns 0-{last_col})"
        ),
        "a cell of the answer": _(
            "a cell of the answer, {cell}, is outside the {rows}x{cols} board"
            " (rows 0-{last_row}, columns 0-{last_col})"
        ),
    }
    english = "{cell} is outside the {rows}x{cols} board (rows 0-{last_row}, columns 0-{last_col})"
    return said.get(name) or f"{name} {english}"


def order(value) -> str:
    """Return `value` after checking it names a traversal, ``"dfs"`` or ``"bfs"``.

    Examples
    --------
    >>> order(["dfs"])
    Traceback (most recent call last):
    ...
    TypeError: order must be the string 'dfs' or 'bfs', not list: ['dfs']
    """
    if not isinstance(value, str):
        raise TypeError(f"order must be the string 'dfs' or 'bfs', not {type(value).__name__}: {clip(value)}")
    if value not in ORDERS:
        raise ValueError(f"order must be 'dfs' or 'bfs', not {value!r}")
    return value


#: The eight offsets (dr, dc) of a cell's neighbours, in reading order.
EIGHT = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def neighbors(value) -> tuple[tuple[int, int], ...]:
    """Return `value` as a tuple of offsets after checking it orders all eight once.

    Examples
    --------
    >>> neighbors([(1.7, 0.2)] + list(EIGHT[1:]))
    Traceback (most recent call last):
    ...
    TypeError: neighbors must be a sequence of pairs (dr, dc) of whole numbers, but it holds (1.7, 0.2)
    """
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
        raise TypeError(f"neighbors must be a sequence of the eight offsets (dr, dc), not {clip(value)}")
    offsets = []
    for pair in value:
        ok = isinstance(pair, (Sequence, np.ndarray)) and not isinstance(pair, (str, bytes))
        if not ok or len(pair) != 2 or not all(is_integer(x) for x in pair):
            raise TypeError(
                f"neighbors must be a sequence of pairs (dr, dc) of whole numbers, but it holds {clip(pair)}"
            )
        offsets.append((int(pair[0]), int(pair[1])))
    offsets = tuple(offsets)
    if sorted(offsets) != sorted(EIGHT):
        missing = sorted(set(EIGHT) - set(offsets))
        extra = sorted({o for o in offsets if o not in EIGHT or offsets.count(o) > 1})
        raise ValueError(
            f"neighbors must list each of the eight offsets (dr, dc) once, "
            f"but {clip(value)} misses {missing} and has extra or repeated {extra}"
        )
    return offsets
