"""Step-by-step reveals: depth-first and breadth-first, one `Visit` per cell.

A click on a hidden empty cell with no mine around it floods the board. The
two classic solutions flood it in different orders; the generators here yield
each cell at the moment it gets its symbol, so a notebook can show the flood one
step at a time. The final board is the same for both orders.

Both generators work on a private, padded, flat copy of the board (so no
neighbour needs a bounds check) with every cell's mine count worked out once,
up front. The caller's board is never changed.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import NamedTuple

import numpy as np

from ._checks import neighbors as _check_neighbors
from ._checks import order as _check_order
from .board import Board, Cell, check_click, neighbour_sum, parse_board

__all__ = [
    "Visit",
    "Event",
    "EVENT_LABELS",
    "dfs_events",
    "bfs_events",
    "READING_ORDER",
    "LEETCODE_ORDER",
    "ORDERS",
    "dfs_reveal",
    "bfs_reveal",
    "reveal",
]

#: Neighbour offsets ``(dr, dc)`` in reading order: the row above left to
#: right, then left and right, then the row below. The default.
READING_ORDER = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
#: Neighbour offsets in the order of the well-known reference solution:
#: right, down, left, up, then the four diagonals.
LEETCODE_ORDER = ((0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))
#: The traversal orders :func:`reveal` and :func:`msviz.trace` accept.
ORDERS = ("dfs", "bfs")


def cells_around(cell: Cell, shape) -> list[tuple[Cell, Cell]]:
    """Return the neighbours of `cell` on a board of `shape`, in reading order, each with its offset.

    Examples
    --------
    >>> cells_around((0, 0), (2, 3))
    [((0, 1), (0, 1)), ((1, 0), (1, 0)), ((1, 1), (1, 1))]
    """
    r, c = cell
    rows, cols = shape
    inside = [(dr, dc) for dr, dc in READING_ORDER if 0 <= r + dr < rows and 0 <= c + dc < cols]
    return [((r + dr, c + dc), (dr, dc)) for dr, dc in inside]


_SYMBOL_OF_COUNT = ("B", "1", "2", "3", "4", "5", "6", "7", "8")
_OUTSIDE = "#"  # the padding around the flat board: never "E", never a mine
_QUEUED = "q"  # a BFS cell in the queue: seen, not yet revealed


class Visit(NamedTuple):
    """One cell revealed by a traversal, at the moment it gets its symbol.

    Attributes
    ----------
    step : int
        0 for the clicked cell, then 1, 2, ... in the order cells are revealed.
    row, col : int
        The cell revealed.
    value : str
        The symbol it gets: ``"B"``, ``"1"``-``"8"``, or ``"X"`` for a mine.
    depth : int
        Depth-first: the recursion depth of the call that reveals the cell
        (the click is at depth 0). Breadth-first: the layer, i.e. how many
        steps of the flood lie between the click and the cell.
    frontier : int
        How many cells the traversal holds right after this visit.
        Depth-first: the calls on the recursion stack, this cell's included
        (``depth + 1``). Breadth-first: the cells waiting in the queue, those
        this visit has just put there included.
    parent : (int, int) or None
        The blank cell whose reveal led to this one; None for the click.
    """

    step: int
    row: int
    col: int
    value: str
    depth: int
    frontier: int
    parent: Cell | None


_new_visit = tuple.__new__  # builds a Visit without NamedTuple's slower __new__

#: The labels of the finer event streams, each with what it means. The order
#: is the code each label has in `msviz.Trace.event_label`.
EVENT_LABELS = {
    "call": "depth-first: reveal(row, col) is called; the cell is counted and gets its symbol",
    "return": "depth-first: that call returns to its caller (a digit's or a mine's at once)",
    "enqueue": "breadth-first: the cell is marked as seen and put at the back of the queue",
    "dequeue": "breadth-first: the cell is taken from the front of the queue and gets its symbol",
    "write": "a student's run (msviz.record): their code writes a symbol in the cell, perhaps again",
}


class Event(NamedTuple):
    """One event of :func:`dfs_events` or :func:`bfs_events`.

    Attributes
    ----------
    label : str
        One of `EVENT_LABELS`: ``"call"``, ``"return"``, ``"enqueue"`` or ``"dequeue"``.
    row, col : int
        The cell of the event.
    step : int
        The step at which that cell gets its symbol (``Visit.step``), so a call
        or a dequeue is the visit of that step.
    depth : int
        ``Visit.depth`` of the cell: its call's recursion depth, or its BFS layer.
    """

    label: str
    row: int
    col: int
    step: int
    depth: int


class _Later(NamedTuple):
    """What a core yields, in event mode, besides its visits: a return or an enqueue."""

    step: int
    row: int
    col: int
    depth: int


class _FlatBoard:
    """A private working copy of a board: flat, padded, with mine counts.

    Cell ``(r, c)`` of the board is item ``(r + 1) * width + c + 1`` of
    `cells`; a frame of `_OUTSIDE` cells surrounds the board, so every real
    cell has eight neighbours at fixed offsets.
    """

    def __init__(self, board: Board, neighbors: Sequence[Cell]):
        rows, cols = len(board), len(board[0])
        self.rows, self.cols, self.width = rows, cols, cols + 2
        width = self.width
        cells = [_OUTSIDE] * (width * (rows + 2))
        for r, row in enumerate(board):
            start = (r + 1) * width + 1
            cells[start : start + cols] = row
        self.cells = cells
        # Mine counts, once for every cell (the padding counts as no mine).
        flat = np.frombuffer("".join(cells).encode("ascii"), dtype=np.uint8)
        mines = (flat == ord("M")) | (flat == ord("X"))
        counts = np.zeros((rows + 2, width), dtype=np.int8)
        counts[1:-1, 1:-1] = neighbour_sum(mines.reshape(rows + 2, width)[1:-1, 1:-1])
        self.counts = counts.ravel().tolist()
        # The row and column of every flat index: a look-up is quicker than divmod.
        self.row_of = [r for r in range(-1, rows + 1) for _ in range(width)]
        self.col_of = list(range(-1, cols + 1)) * (rows + 2)
        self.neighbors = tuple(neighbors)
        self.offsets = tuple(dr * width + dc for dr, dc in neighbors)

    def index(self, cell: Cell) -> int:
        """Return the flat index of board cell ``(row, col)``."""
        return (cell[0] + 1) * self.width + cell[1] + 1

    def to_array(self) -> np.ndarray:
        """Return the working copy as a 2-D numpy array of one-character strings."""
        text = "".join(self.cells).encode("ascii")
        grid = np.frombuffer(text, dtype="S1").reshape(self.rows + 2, self.width)
        return grid[1:-1, 1:-1].astype("<U1")

    def to_board(self) -> Board:
        """Return the working copy as a new board in LeetCode form."""
        w = self.width
        return [self.cells[(r + 1) * w + 1 : (r + 1) * w + 1 + self.cols] for r in range(self.rows)]


#: Counts the reveals started (one number taken by each `prepare`): the grader
#: reads it to tell a solution that calls msviz's own reveal. No code can set it back.
STARTED = itertools.count()


def prepare(board, click, neighbors) -> tuple[_FlatBoard, int]:
    """Check the arguments of a reveal, then return a working copy and the click's index."""
    next(STARTED)
    rows = parse_board(board)
    cell = check_click(click, (len(rows), len(rows[0])))
    flat = _FlatBoard(rows, _check_neighbors(neighbors))
    return flat, flat.index(cell)


def run_steps(flat: _FlatBoard, start: int, order: str, log=None, events: bool = False) -> Iterator[Visit]:
    """Return the generator of visits of `order` on the working copy `flat`.

    With `events`, the same core also yields a `_Later` for each return (DFS)
    or each enqueue (BFS), in the order they happen.
    """
    return _STEPS[order](flat, start, log, events)


def _first_visit(flat: _FlatBoard, start: int, frontier: int) -> Visit | None:
    """Reveal the clicked cell and return its visit, or None if it was not hidden."""
    value = flat.cells[start]
    if value == "M":
        value = "X"
    elif value == "E":
        value = _SYMBOL_OF_COUNT[flat.counts[start]]
    else:
        return None
    flat.cells[start] = value
    return Visit(0, flat.row_of[start], flat.col_of[start], value, 0, frontier, None)


def _dfs_steps(flat: _FlatBoard, start: int, log=None, events: bool = False) -> Iterator[Visit]:
    """Yield the visits of the recursive depth-first reveal, without recursion.

    The recursion stack is kept as two lists of ints: the blank cells whose
    call has not returned, and for each the position in the neighbour order
    where its call carries on once the call it made returns. Ints, unlike
    iterators, cost the garbage collector nothing on a stack a million deep.

    `log`, when given, is a triple of lists: the first gets each visit's
    parent step (-1 for the click); the second gets, for each blank cell whose
    call returns, its step and then the number of visits made by then; the
    third gets each visit's flat index.

    With `events`, each call's return is yielded too, as a `_Later`: a digit's
    at once after its visit, a blank's once every neighbour is tried.
    """
    first = _first_visit(flat, start, 1)
    if first is None:
        return
    parent_log, finish_log, index_log = log if log is not None else (None, None, None)
    if parent_log is not None:
        parent_log.append(-1)
        index_log.append(start)
    yield first
    if first.value != "B":
        if events:
            yield _Later(0, first.row, first.col, 0)
        return
    cells, counts, offsets = flat.cells, flat.counts, flat.offsets
    row_of, col_of, symbol_of = flat.row_of, flat.col_of, _SYMBOL_OF_COUNT
    if parent_log is not None:
        log_parent, log_index = parent_log.append, index_log.append
    rests = [offsets[k:] for k in range(len(offsets) + 1)]  # the neighbours from k on
    calls, resume_at, call_steps = [start], [0], [0]  # the recursion stack
    caller = (first.row, first.col)  # the cell of the call on top
    depth = step = 1  # depth: of the calls made by the call on top
    while calls:
        j = calls[-1]
        rest = rests[resume_at[-1]]
        for offset in rest:
            n = j + offset
            if cells[n] != "E":
                continue
            value = cells[n] = symbol_of[counts[n]]
            if parent_log is not None:
                log_parent(call_steps[-1])
                log_index(n)
            yield _new_visit(Visit, (step, row_of[n], col_of[n], value, depth, depth + 1, caller))
            if value == "B":  # recurse: this cell's call goes on top of the stack
                resume_at[-1] = len(offsets) - len(rest) + rest.index(offset) + 1
                calls.append(n)
                resume_at.append(0)
                call_steps.append(step)
                caller = (row_of[n], col_of[n])
                depth += 1
                step += 1
                break
            if events:  # a digit's call returns at once
                yield _Later(step, row_of[n], col_of[n], depth)
            step += 1
        else:  # every neighbour tried: the call returns to its caller
            calls.pop()
            resume_at.pop()
            called_at = call_steps.pop()
            depth -= 1
            if finish_log is not None:
                finish_log.append(called_at)
                finish_log.append(step)
            if events:
                yield _Later(called_at, row_of[j], col_of[j], depth)
            if calls:
                caller = (row_of[calls[-1]], col_of[calls[-1]])


def _bfs_steps(flat: _FlatBoard, start: int, log=None, events: bool = False) -> Iterator[Visit]:
    """Yield the visits of the queue reveal, layer by layer.

    A cell is marked when it is put in the queue and revealed when it is taken
    out. The queue is kept as two lists, the layer being emptied and the next
    one being filled: taking them one after the other is first-in, first-out.

    `log`, when given, is a triple of lists as for :func:`_dfs_steps`; the
    second gets nothing. It is filled a layer at a time, as the layer starts
    (so it runs ahead of the visits yielded by then).

    With `events`, each enqueue is yielded too, as a `_Later` whose step is the
    step at which that cell will be taken out: the click's before its visit,
    the others right after the visit of the cell that queued them.
    """
    if events and flat.cells[start] in "ME":
        yield _Later(0, flat.row_of[start], flat.col_of[start], 0)
    first = _first_visit(flat, start, 0)
    if first is None:
        return
    parent_log, _, index_log = log if log is not None else (None, None, None)
    if first.value != "B":
        if parent_log is not None:
            parent_log.append(-1)
            index_log.append(start)
        yield first
        return
    cells, counts, offsets = flat.cells, flat.counts, flat.offsets
    row_of, col_of, symbol_of = flat.row_of, flat.col_of, _SYMBOL_OF_COUNT
    cells[start] = _QUEUED
    layer, parents, parent_steps = [start], [None], [-1]
    depth = step = 0
    while layer:
        if parent_log is not None:  # a layer at a time: one call, not two a visit
            parent_log.extend(parent_steps)
            index_log.extend(layer)
        queued, queued_parents, queued_steps = [], [], []
        left = len(layer)
        next_layer_at = step + left  # the step of the first cell of the next layer
        for i, j in enumerate(layer):
            before = len(queued)
            value = cells[j] = symbol_of[counts[j]]
            r, c = row_of[j], col_of[j]
            if value == "B":
                here = (r, c)
                for n in map(j.__add__, offsets):
                    if cells[n] == "E":
                        cells[n] = _QUEUED
                        queued.append(n)
                        queued_parents.append(here)
                        queued_steps.append(step)
            frontier = left - i - 1 + len(queued)
            yield _new_visit(Visit, (step, r, c, value, depth, frontier, parents[i]))
            if events:
                for q in range(before, len(queued)):
                    n = queued[q]
                    yield _Later(next_layer_at + q, row_of[n], col_of[n], depth + 1)
            step += 1
        layer, parents, parent_steps = queued, queued_parents, queued_steps
        depth += 1


_STEPS = {"dfs": _dfs_steps, "bfs": _bfs_steps}


def dfs_reveal(board, click, *, neighbors=READING_ORDER) -> Iterator[Visit]:
    """Reveal depth-first, yielding one `Visit` per cell as it gets its symbol.

    The order is exactly that of the classic recursive solution: count the
    mines around the cell; if there are some, write the digit; if none, write
    ``B`` and call the same function on each neighbour that is still ``E``, in
    the order of `neighbors`. It runs without recursion, so a 1000x1000 open
    board works at Python's default recursion limit.

    Parameters
    ----------
    board : board-like
        Anything :func:`msviz.parse_board` accepts. It is never changed.
    click : (int, int)
        The cell clicked, ``(row, col)``.
    neighbors : sequence of eight (int, int), keyword-only
        The order in which a blank cell tries its neighbours: any ordering of
        the eight offsets, such as :data:`READING_ORDER` (the default) or
        :data:`LEETCODE_ORDER`.

    Yields
    ------
    Visit
        One per revealed cell. A click on a mine yields one visit with
        ``"X"``; a click on a cell already revealed yields nothing.

    Raises
    ------
    TypeError, ValueError
        At the call, not at the first ``next()``, for a bad board, click or
        `neighbors`.

    Examples
    --------
    >>> for visit in dfs_reveal(["EEE", "EEM"], (0, 0)):
    ...     print(visit.step, (visit.row, visit.col), visit.value, visit.depth)
    0 (0, 0) B 0
    1 (0, 1) 1 1
    2 (1, 0) B 1
    3 (1, 1) 1 2
    """
    flat, start = prepare(board, click, neighbors)
    return _dfs_steps(flat, start)


def bfs_reveal(board, click, *, neighbors=READING_ORDER) -> Iterator[Visit]:
    """Reveal breadth-first, yielding one `Visit` per cell as it gets its symbol.

    The order is exactly that of the classic queue solution: a cell is marked
    as seen when it is put in the queue, and revealed when it is taken out; a
    ``B`` puts its neighbours that are still ``E`` in the queue, in the order of
    `neighbors`. ``Visit.depth`` is the cell's layer: its distance from the click.

    Parameters
    ----------
    board, click, neighbors
        As for :func:`dfs_reveal`.

    Yields
    ------
    Visit
        One per revealed cell, in queue order.

    Examples
    --------
    >>> for visit in bfs_reveal(["EEE", "EEM"], (0, 0)):
    ...     print(visit.step, (visit.row, visit.col), visit.value, visit.depth, visit.frontier)
    0 (0, 0) B 0 3
    1 (0, 1) 1 1 2
    2 (1, 0) B 1 1
    3 (1, 1) 1 1 0
    """
    flat, start = prepare(board, click, neighbors)
    return _bfs_steps(flat, start)


def _labelled(items, now: str, later: str) -> Iterator[Event]:
    """Turn a core's visits and `_Later`s into `Event`s labelled `now` and `later`."""
    for item in items:
        if type(item) is _Later:
            yield Event(later, item.row, item.col, item.step, item.depth)
        else:
            yield Event(now, item.row, item.col, item.step, item.depth)


def dfs_events(board, click, *, neighbors=READING_ORDER) -> Iterator[Event]:
    """Yield every call and every return of the recursive depth-first reveal, in order.

    The calls are exactly the visits of :func:`dfs_reveal` (same core); the
    returns say when each call is done: a digit's (or a mine's) at once, a
    blank's once it has tried all its neighbours. After the last event no call
    is left on the stack. Labels: ``"call"`` and ``"return"`` (see `EVENT_LABELS`).

    Parameters
    ----------
    board, click, neighbors
        As for :func:`dfs_reveal`.

    Examples
    --------
    >>> for e in dfs_events(["EEE", "EEM"], (0, 0)):
    ...     print(e.label, (e.row, e.col), e.step, e.depth)
    call (0, 0) 0 0
    call (0, 1) 1 1
    return (0, 1) 1 1
    call (1, 0) 2 1
    call (1, 1) 3 2
    return (1, 1) 3 2
    return (1, 0) 2 1
    return (0, 0) 0 0
    """
    flat, start = prepare(board, click, neighbors)
    return _labelled(_dfs_steps(flat, start, None, True), "call", "return")


def bfs_events(board, click, *, neighbors=READING_ORDER) -> Iterator[Event]:
    """Yield every enqueue and every dequeue of the queue reveal, in order.

    The dequeues are exactly the visits of :func:`bfs_reveal` (same core); an
    enqueue marks a cell as seen and puts it at the back of the queue. Labels:
    ``"enqueue"`` and ``"dequeue"`` (see `EVENT_LABELS`). A cell's ``step``
    is the step at which it will be taken out: the queue is first in, first out.

    Parameters
    ----------
    board, click, neighbors
        As for :func:`bfs_reveal`; `neighbors` orders the enqueues a dequeue makes.

    Examples
    --------
    The click's dequeue puts its three hidden neighbours in the queue, then
    they come out in the same order:

    >>> events = list(bfs_events(["EEE", "EEM"], (0, 0)))
    >>> [e.label for e in events]
    ['enqueue', 'dequeue', 'enqueue', 'enqueue', 'enqueue', 'dequeue', 'dequeue', 'dequeue']
    >>> [(e.row, e.col) for e in events if e.label == "dequeue"]
    [(0, 0), (0, 1), (1, 0), (1, 1)]
    """
    flat, start = prepare(board, click, neighbors)
    return _labelled(_bfs_steps(flat, start, None, True), "dequeue", "enqueue")


def reveal(board, click, *, order: str = "dfs", neighbors=READING_ORDER) -> Board:
    """Return a new board: `board` after `click`, as LeetCode 529 asks.

    Parameters
    ----------
    board, click, neighbors
        As for :func:`dfs_reveal`.
    order : {"dfs", "bfs"}, keyword-only
        Which traversal to run; both give the same board.

    Examples
    --------
    >>> board = ["EEEEE", "EEMEE", "EEEEE", "EEEEE"]
    >>> for row in reveal(board, (3, 0)):
    ...     print(" ".join(row))
    B 1 E 1 B
    B 1 M 1 B
    B 1 1 1 B
    B B B B B
    """
    order = _check_order(order)
    flat, start = prepare(board, click, neighbors)
    for _ in run_steps(flat, start, order):
        pass
    return flat.to_board()
