"""Reading what the student's function returned as a board, whatever it is.

Nothing here raises on a strange answer: it is described in words instead.
The grader reads the answer while the student's time limit still runs, so an
answer whose ``len()`` or iteration never ends is stopped like a loop.
"""

from __future__ import annotations

import reprlib
import types

import numpy as np

from ..i18n import _, _n

__all__ = ["describe", "as_board", "written"]


_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxtuple, _SHORT.maxstring, _SHORT.maxother = 3, 6, 6, 40, 40


def describe(value) -> str:
    """A short description of any value: its type and a clipped repr (made in bounded time for lists).

    Examples
    --------
    >>> describe([["B"] * 100] * 100)
    "list [['B', 'B', 'B', 'B', 'B', 'B', ...], ['B', 'B', 'B', 'B'..."
    """
    try:
        text = _SHORT.repr(value)
    except Exception:
        text = "?"
    text = text if len(text) <= 60 else text[:57] + "..."
    return f"{type(value).__name__} {text}"


def written(value):
    """A value written into a cell, as JSON: a string as it is, anything else as a word no cell can equal.

    Examples
    --------
    >>> written("B"), written(3)
    ('B', '<int 3>')
    """
    return value if type(value) is str else f"<{describe(value)}>"


def as_board(value, shape: tuple[int, int]):
    """Return (the answer as a list of lists of str or None, what is wrong with it, notes, mistake).

    The mistake is a key of `BUGS` when something is wrong, else None. Never
    raises an `Exception`: an odd object whose ``len()`` or iteration fails
    is described instead.

    Examples
    --------
    >>> as_board([["B", 1]], (1, 2))[1:]
    ("cell (0, 1) of the answer is the number 1, not the character '1'", (), 'digits as numbers')
    >>> as_board(None, (1, 2))[3]
    'returned nothing'
    """
    try:
        board, problem, notes = _read_board(value, shape)
    except Exception as error:  # an odd object whose len() or iteration fails
        board, notes = None, ()
        problem = _("the value returned could not be read as a board ({error})").format(
            error=f"{type(error).__name__}: {describe(error)}"
        )
    if problem is None:
        return board, None, notes, None
    if value is None:
        return None, problem, notes, "returned nothing"
    return None, str(problem), notes, "digits as numbers" if isinstance(problem, _Number) else "not a board"


class _Number(str):
    """What is wrong with an answer with a digit written as a number (the mistake "digits as numbers")."""


def _letters(row: list):
    """Return a row's cells as new one-letter strings if each cell is one, else None. C speed.

    Joined with no separator the cells are as many letters as cells; joined with
    ``"\0"`` (in no cell), every other character is a separator: so each cell
    is one letter. Only the strings' own characters are read, never a method of
    a str subclass (its ``__eq__`` or ``__len__`` could lie).

    Examples
    --------
    >>> _letters(["B", "1"]), _letters(["", "B1"]), _letters(["B", 1])
    (['B', '1'], None, None)
    """
    try:
        joined = "".join(row)
    except TypeError:  # a cell that is not a string
        return None
    if not row or len(joined) != len(row) or "\0" in joined:
        return None
    if "\0".join(row)[1::2] != "\0" * (len(row) - 1):
        return None
    return list(joined)


def _read_board(value, shape):
    rows, cols = shape
    notes = ()
    if value is None:
        return None, _("update_board returned None: it should return the board"), notes
    if isinstance(value, (str, bytes)):
        return (
            None,
            _("update_board returned a string, not a board: {value}").format(value=describe(value)),
            notes,
        )
    if isinstance(value, (types.GeneratorType, map, filter, zip)) or (
        hasattr(value, "__next__") and not isinstance(value, np.ndarray)
    ):
        return (
            None,
            _("update_board returned a {kind}, not a board: return the board itself, not a generator").format(
                kind=type(value).__name__
            ),
            notes,
        )
    if isinstance(value, np.ndarray):
        if value.ndim != 2:
            return (
                None,
                _("update_board returned a {n}-dimensional array of shape {shape}").format(
                    n=value.ndim, shape=value.shape
                ),
                notes,
            )
        notes = (
            "your function returned a numpy array: its cells were compared; LeetCode wants a list of lists",
        )
        value = value.tolist()
    if isinstance(value, dict) or not hasattr(value, "__len__") or not hasattr(value, "__getitem__"):
        return (
            None,
            _("update_board returned {value}, not a board (a list of rows)").format(value=describe(value)),
            notes,
        )
    if len(value) != rows:
        said = _n(
            "update_board returned {n} row; the board has {rows}",
            "update_board returned {n} rows; the board has {rows}",
            len(value),
        )
        return None, said.format(n=len(value), rows=rows), notes
    board, containers = [], set()
    if not isinstance(value, list):
        notes = (
            f"your function returned a {type(value).__name__}: its cells were compared; "
            "LeetCode wants a list of lists",
        )
    for r in range(rows):
        row = value[r]
        if isinstance(row, (str, bytes)):
            said = _("row {r} of the answer is a string {row}, not a list of one-letter strings")
            return None, said.format(r=r, row=repr(row)), notes
        if isinstance(row, np.ndarray):
            row = row.tolist()
            containers.add("numpy arrays")
        elif not isinstance(row, list):
            containers.add(type(row).__name__)
        row = list(row)
        if len(row) != cols:
            said = _n(
                "row {r} of the answer has {n} cell; the board has {cols} columns",
                "row {r} of the answer has {n} cells; the board has {cols} columns",
                len(row),
            )
            return None, said.format(r=r, n=len(row), cols=cols), notes
        letters = _letters(row)
        if letters is not None:
            board.append(letters)  # every cell a one-letter string: the usual answer, read at C speed
            continue
        for c, cell in enumerate(row):
            if isinstance(cell, (int, np.integer)) and not isinstance(cell, bool) and 0 <= cell <= 8:
                said = _(
                    "cell ({r}, {c}) of the answer is the number {number}, not the character {character}"
                )
                said = said.format(r=r, c=c, number=repr(cell), character=repr(str(cell)))
                return None, _Number(said), notes
            if not isinstance(cell, str) or len(cell) != 1:
                said = _("cell ({r}, {c}) of the answer is the {value}, not a one-letter string such as 'B'")
                return None, said.format(r=r, c=c, value=describe(cell)), notes
        board.append([str(cell) for cell in row])
    if containers:
        notes += (
            f"your rows are {', '.join(sorted(containers))}: their cells were compared; LeetCode wants lists",
        )
    return board, None, notes
