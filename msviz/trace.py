"""Traces: a whole reveal recorded as numpy arrays, so any step's picture is cheap.

A `Trace` keeps, for every cell, the step at which it was revealed and the
steps between which it sat on the DFS stack or in the BFS queue; and, for every
step, the cell visited, its depth and the size of the frontier. The state of
the board at step ``k`` is then a handful of vectorised comparisons over the
cells, with no replay of steps ``0..k``. Memory is O(cells), whatever the
number of steps.
"""

from __future__ import annotations

from array import array
from collections import deque
from dataclasses import dataclass, fields
from functools import cached_property

import numpy as np

from ._checks import clip
from ._checks import is_integer as _is_integer
from ._checks import neighbors as _check_neighbors
from ._checks import order as _check_order
from .board import SYMBOLS, Cell, check_click, parse_board
from .traversal import (
    EVENT_LABELS,
    READING_ORDER,
    Event,
    Visit,
    cells_around,
    prepare,
    run_steps,
)

__all__ = ["Trace", "trace", "trace_of_cells", "trace_of_writes"]

_LABELS = tuple(EVENT_LABELS)  # code -> label


def _read_only(method):
    """A cached property whose array cannot be written to."""

    def frozen(self):
        out = method(self)
        out.flags.writeable = False
        return out

    frozen.__doc__, frozen.__name__ = method.__doc__, method.__name__
    return cached_property(frozen)


_LABEL_CODES = {label: code for code, label in enumerate(_LABELS)}


@dataclass(frozen=True, eq=False)
class Trace:
    """A reveal recorded as arrays. Build one with :func:`msviz.trace`.

    Every array a trace holds or hands out is read-only (``a.flags.writeable``
    is False) and no two are the same array: ``t.step_map[:] = 0`` raises
    ``ValueError: assignment destination is read-only``. Take ``.copy()`` to
    get one to change.

    Steps are numbered ``0 .. len(trace) - 1``; step ``k`` means "right after
    the k-th cell was revealed", and step ``-1`` means "before the click".

    Attributes
    ----------
    order : {"dfs", "bfs"}
        The traversal recorded.
    click : (int, int)
        The cell clicked.
    neighbors : tuple of (int, int)
        The neighbour order used.
    board : ndarray of str, shape (rows, cols)
        The board before the click.
    final : ndarray of str, shape (rows, cols)
        The board after the click.

    Per step (shape ``(steps,)``, int32; the names of `Visit`'s fields):

    row, col : ndarray
        The cell revealed at each step.
    value : ndarray of str
        The symbol it was given.
    depth : ndarray
        ``Visit.depth``: DFS recursion depth or BFS layer.
    frontier : ndarray
        ``Visit.frontier``: stack or queue size.
    parent_step : ndarray
        The step of the blank cell that led to each step's cell, -1 for the
        click (``Visit.parent`` is that step's cell).
    distance : ndarray
        Each step's distance from the click in king moves, max(|dr|, |dc|).
    visit_event : ndarray
        The event whose picture is step ``k``'s: DFS, the call of step ``k``;
        BFS, the last enqueue made by step ``k`` (or its dequeue).

    Per cell (shape ``(rows, cols)``, int32, -1 where never; names end in ``_map``):

    step_map : ndarray
        The step at which each cell was revealed.
    depth_map : ndarray
        Each cell's depth (DFS) or layer (BFS).
    enter_step_map, leave_step_map : ndarray
        A cell is on the frontier (the DFS recursion stack, or the BFS queue)
        at step ``k`` when ``enter_step_map <= k < leave_step_map``. DFS: a
        cell enters when its call starts (the step it is revealed) and leaves
        at the step after its call returns. BFS: a cell enters at the step of
        the cell that queued it and leaves at the step it is revealed.
    enter_event_map, leave_event_map : ndarray
        A cell is on the stack (its call has started and not returned) or in
        the queue (enqueued, not yet dequeued) at event ``e`` when
        ``enter_event_map <= e < leave_event_map``.
    reveal_event_map : ndarray
        The event at which each cell gets its symbol.

    Per event (shape ``(events,)``, two events a step):

    event_label, event_step : ndarray
        The finer timeline of :func:`msviz.dfs_events` / :func:`msviz.bfs_events`:
        each event's label (a code: its place in `msviz.EVENT_LABELS`, uint8)
        and the step of its cell (int32).

    A student's run (:func:`msviz.record`, its `replay`) has a step per write
    and one ``"write"`` event a step, and may write a cell more than once:

    written : ndarray of str or None
        The symbol written at each step (None for a reveal, whose cells are
        each written once, with their symbol in `final`). Its `depth` is the
        depth of the student's own calls at each write; its frontier, parents
        and ``*_event_map`` of the stack or queue are empty (-1): a recording
        does not see them.

    The names of an earlier release (``rows``, ``cols``, ``parent``,
    ``values``, ``visit_step``, ``enter_step``, ``leave_step``,
    ``enter_event``, ``leave_event``, ``reveal_event``) still work, with a
    ``DeprecationWarning``.

    Examples
    --------
    >>> t = trace(["EEE", "EEM"], (0, 0), order="bfs")
    >>> len(t)
    4
    >>> t.step_map
    array([[ 0,  1, -1],
           [ 2,  3, -1]], dtype=int32)
    >>> print(t.board_at(1))
    [['B' '1' 'E']
     ['E' 'E' 'M']]
    >>> t.frontier_at(1)
    array([[False, False, False],
           [ True,  True, False]])
    """

    order: str
    click: Cell
    neighbors: tuple
    board: np.ndarray
    final: np.ndarray
    row: np.ndarray
    col: np.ndarray
    depth: np.ndarray
    frontier: np.ndarray
    parent_step: np.ndarray
    step_map: np.ndarray
    enter_step_map: np.ndarray
    leave_step_map: np.ndarray
    event_label: np.ndarray
    event_step: np.ndarray
    enter_event_map: np.ndarray
    leave_event_map: np.ndarray
    visit_event: np.ndarray
    written: np.ndarray | None = None

    def __post_init__(self):
        # Read-only, and no two fields one array: what a trace hands out cannot change it.
        seen = []
        for name, value in vars(self).items():
            if isinstance(value, np.ndarray):
                if any(np.shares_memory(value, other) for other in seen) or value.base is not None:
                    value = value.copy()
                    object.__setattr__(self, name, value)
                value.flags.writeable = False
                seen.append(value)

    def __reduce__(self):
        # Copies and pickles are rebuilt through __init__, so they are read-only too.
        return type(self), tuple(getattr(self, f.name) for f in fields(self))

    def __len__(self) -> int:
        """The number of steps: how many cells the click revealed."""
        return len(self.row)

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)`` of the board."""
        return self.board.shape

    @_read_only
    def value(self) -> np.ndarray:
        """``Visit.value`` of each step: the symbol given, shape (steps,)."""
        return self.final[self.row, self.col] if self.written is None else self.written.copy()

    @_read_only
    def distance(self) -> np.ndarray:
        """Each step's distance from the click in king moves, max(|dr|, |dc|): the ring it lies on.

        Examples
        --------
        >>> trace(["EEE", "EEE"], (0, 0), order="bfs").distance
        array([0, 1, 1, 1, 2, 2], dtype=int32)
        """
        r0, c0 = self.click
        return np.maximum(np.abs(self.row - r0), np.abs(self.col - c0)).astype(np.int32)

    @_read_only
    def children(self) -> np.ndarray:
        """How many cells each step led to directly (calls made, or cells queued)."""
        has_parent = self.parent_step >= 0
        return np.bincount(self.parent_step[has_parent], minlength=len(self)).astype(np.int32)

    @_read_only
    def hidden_around(self) -> np.ndarray:
        """How many neighbours of each step's cell are hidden empty cells right after it is
        revealed: the calls a blank cell of a depth-first reveal may make (uint8).

        Examples
        --------
        >>> t = trace(["EEE", "EEM"], (0, 0))
        >>> t.hidden_around  # (0, 0) and (0, 1) have 3 each; (1, 0) and the digit (1, 1) 1
        array([3, 3, 1, 1], dtype=uint8)
        """
        rows, cols = self.shape
        hidden = self.board == "E"  # hidden empty before the click
        revealed = self.reveal_event_map  # the event that reveals each cell, -1 for none
        out = np.zeros(len(self), np.uint8)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if not (dr or dc):
                    continue
                r, c = self.row + dr, self.col + dc
                inside = np.nonzero((r >= 0) & (r < rows) & (c >= 0) & (c < cols))[0]
                rr, cc = r[inside], c[inside]
                at = revealed[rr, cc]
                still = hidden[rr, cc] & ((at < 0) | (at > self.visit_event[inside]))
                out[inside[still]] += 1
        return out

    @_read_only
    def depth_map(self) -> np.ndarray:
        """Each cell's depth (DFS recursion depth, or BFS layer), -1 where not revealed."""
        out = np.full(self.shape, -1, dtype=np.int32)
        out[self.row, self.col] = self.depth
        return out

    def _check_step(self, k) -> int:
        """Return `k` after checking it is -1 or a step of this trace."""
        if not _is_integer(k):
            raise TypeError(f"a step must be an integer, not {type(k).__name__}: {k!r}")
        if not -1 <= k < len(self):
            raise ValueError(f"step {k!r} is outside this trace's steps -1..{len(self) - 1}")
        return int(k)

    def revealed_at(self, k: int) -> np.ndarray:
        """Return a boolean mask of the cells revealed by the end of step `k`."""
        k = self._check_step(k)
        return (self.step_map >= 0) & (self.step_map <= k)

    def frontier_at(self, k: int) -> np.ndarray:
        """Return a boolean mask of the cells on the stack or in the queue at step `k`."""
        k = self._check_step(k)
        return (self.enter_step_map >= 0) & (self.enter_step_map <= k) & (k < self.leave_step_map)

    def board_at(self, k: int) -> np.ndarray:
        """Return the board as it stands at the end of step `k` (a new array)."""
        if self.written is not None:
            return self._replayed(self._check_step(k) + 1)
        return np.where(self.revealed_at(k), self.final, self.board)

    def _replayed(self, steps: int) -> np.ndarray:
        """The board after the first `steps` writes of a student's run, the last write to a cell kept."""
        out = self.board.copy()
        last = steps - 1 - _first_of(self.row[:steps][::-1], self.col[:steps][::-1], self.shape[1])
        out[self.row[last], self.col[last]] = self.written[last]
        return out

    def visit(self, k: int) -> Visit:
        """Return the `Visit` of step `k`, as the generator yielded it."""
        k = self._check_step(k)
        if k < 0:
            raise ValueError("step -1 is before the click: it has no visit")
        p = int(self.parent_step[k])
        parent = None if p < 0 else (int(self.row[p]), int(self.col[p]))
        return Visit(
            k,
            int(self.row[k]),
            int(self.col[k]),
            str(self.value[k]),
            int(self.depth[k]),
            int(self.frontier[k]),
            parent,
        )

    def visits(self):
        """Yield every `Visit` of the trace, in order."""
        for k in range(len(self)):
            yield self.visit(k)

    # --- The finer timeline: calls and returns, or enqueues and dequeues -----------

    @property
    def events(self) -> int:
        """How many events the finer timeline has (two per step)."""
        return len(self.event_step)

    @_read_only
    def reveal_event_map(self) -> np.ndarray:
        """The event at which each cell gets its symbol (its call, or its dequeue); -1 if never."""
        out = np.full(self.shape, -1, dtype=np.int32)
        gives = [_LABEL_CODES[label] for label in ("call", "dequeue", "write")]
        events = np.flatnonzero(np.isin(self.event_label, gives))
        steps = self.event_step[events]
        first = _first_of(self.row[steps], self.col[steps], self.shape[1])  # a cell written again: its first
        out[self.row[steps[first]], self.col[steps[first]]] = events[first]
        return out

    def _check_event(self, e) -> int:
        """Return `e` after checking it is -1 or an event of this trace."""
        if not _is_integer(e):
            raise TypeError(f"an event must be an integer, not {type(e).__name__}: {e!r}")
        if not -1 <= e < self.events:
            raise ValueError(f"event {e!r} is outside this trace's events -1..{self.events - 1}")
        return int(e)

    def event(self, e: int) -> Event:
        """Return event `e` of the finer timeline, as :func:`msviz.dfs_events` yields it."""
        e = self._check_event(e)
        if e < 0:
            raise ValueError("event -1 is before the click: it has no label")
        k = int(self.event_step[e])
        label = _LABELS[int(self.event_label[e])]
        return Event(label, int(self.row[k]), int(self.col[k]), k, int(self.depth[k]))

    def board_at_event(self, e: int) -> np.ndarray:
        """Return the board right after event `e` (a new array)."""
        e = self._check_event(e)
        if self.written is not None:  # one event a step
            return self._replayed(e + 1)
        revealed = (self.reveal_event_map >= 0) & (self.reveal_event_map <= e)
        return np.where(revealed, self.final, self.board)

    def frontier_at_event(self, e: int) -> np.ndarray:
        """Return a boolean mask of the cells on the stack or in the queue right after event `e`."""
        e = self._check_event(e)
        return (self.enter_event_map >= 0) & (self.enter_event_map <= e) & (e < self.leave_event_map)

    def waiting_at_event(self, e: int) -> list[Cell]:
        """Return the cells on the stack or in the queue after event `e`, in order.

        Depth-first: the call chain, from the click's call to the call on top.
        Breadth-first: the queue, from its front to its back.

        Examples
        --------
        >>> t = trace(["EEE", "EEM"], (0, 0))
        >>> [(t.event(e).label, t.waiting_at_event(e)) for e in (3, 4, 6, 7)]
        [('call', [(0, 0), (1, 0)]), ('call', [(0, 0), (1, 0), (1, 1)]), ('return', [(0, 0)]), ('return', [])]
        """
        mask = self.frontier_at_event(e)
        rows, cols = np.nonzero(mask)
        order = np.argsort(self.enter_event_map[rows, cols], kind="stable")
        return [(int(rows[i]), int(cols[i])) for i in order]


def checked(value, *, name: str = "trace") -> Trace:
    """Return `value` after checking it is a `msviz.Trace`.

    Examples
    --------
    >>> checked(None)
    Traceback (most recent call last):
    ...
    TypeError: trace must be a msviz.Trace (made by msviz.trace(board, click)), not NoneType: None
    """
    if not isinstance(value, Trace):
        raise TypeError(
            f"{name} must be a msviz.Trace (made by msviz.trace(board, click)), "
            f"not {type(value).__name__}: {clip(value)}"
        )
    return value


def trace(board, click, *, order: str = "dfs", neighbors=READING_ORDER) -> Trace:
    """Run a reveal to the end and return it recorded as a `Trace`.

    Parameters
    ----------
    board, click, neighbors
        As for :func:`msviz.dfs_reveal`. The board is never changed.
    order : {"dfs", "bfs"}, keyword-only
        Which traversal to record.

    Examples
    --------
    >>> t = trace(["EEE", "EEM"], (0, 0))
    >>> [t.visit(k).value for k in range(len(t))]
    ['B', '1', 'B', '1']
    >>> t.leave_step_map   # (0, 0)'s call returns after all four visits
    array([[ 4,  2, -1],
           [ 4,  4, -1]], dtype=int32)
    """
    order = _check_order(order)
    flat, start = prepare(board, click, neighbors)
    before = flat.to_array()
    # Compact int arrays, not lists: a list would keep an int object per entry.
    log = parent_log, finish_log, index_log = array("q"), array("q"), array("q")
    deque(run_steps(flat, start, order, log), maxlen=0)  # run it to the end, in C
    parent, index = (np.frombuffer(x, dtype=np.int64).astype(np.int32) for x in (parent_log, index_log))
    rows, cols = np.divmod(index, np.int32(flat.width))
    final = flat.to_array()
    return _build(order, click, flat.neighbors, before, final, rows - 1, cols - 1, parent, finish_log)


def trace_of_cells(board, click, cells, final, *, order: str = "dfs", neighbors=READING_ORDER) -> Trace:
    """Return a `Trace` of a reveal given only the cells it revealed, in order, and the board after.

    This is how a student's own run is shown (see :func:`msviz.record`): what
    a traversal knows of itself, which cell led to which and when a call
    returned, is inferred from the order. Depth-first: a cell was called by
    the latest blank that is next to it and still has hidden neighbours (a
    blank with none has returned); breadth-first: a cell was queued by the
    first blank revealed next to it. An order that no queue could make is
    shown as depth-first; see the `order` of the result.

    Parameters
    ----------
    board : board-like
        The board before the click.
    click : (int, int)
        The cell clicked.
    cells : sequence of (int, int)
        The cells revealed, in order, each once.
    final : board-like
        The board after the click; a cell not in `cells` keeps its symbol from `board`.
    order : {"dfs", "bfs"}
        The traversal the order is read as.

    Examples
    --------
    >>> t = trace_of_cells(["EEE", "EEM"], (0, 0), [(0, 0), (1, 0), (0, 1), (1, 1)],
    ...                    ["B1E", "B1M"], order="bfs")
    >>> t.order, t.parent_step.tolist(), t.depth.tolist()
    ('bfs', [-1, 0, 0, 0], [0, 1, 1, 1])
    >>> trace_of_cells(["EEE", "EEM"], (0, 0), [(0, 0), (1, 1)], ["B1E", "E1M"]).parent_step.tolist()
    [-1, 0]
    """
    order = _check_order(order)
    before = np.array(parse_board(board))
    after = np.array(parse_board(final))
    shape = before.shape
    click = check_click(click, shape)
    index = np.array([r * shape[1] + c for r, c in cells], dtype=np.int64).reshape(-1)
    rows, cols = (x.astype(np.int32) for x in np.divmod(index, shape[1]))
    blank = after[rows, cols] == "B"
    if order == "bfs":
        parent = _queued_by(rows, cols, blank, shape)
        if len(parent) and (parent[0] != -1 or (parent[1:] < 0).any() or (np.diff(parent) < 0).any()):
            order = "dfs"  # no queue gives this order
    if order == "dfs":
        parent, finish_log = _called_by(rows, cols, blank, before == "E")
    else:
        finish_log = None
    return _build(order, click, _check_neighbors(neighbors), before, after, rows, cols, parent, finish_log)


def trace_of_writes(board, click, writes, *, order: str = "dfs") -> Trace:
    """Return a `Trace` of a student's run with a step for every write it made, in order.

    A cell written twice (a mark, then its symbol) is seen twice. Only what
    the recording saw is kept: the cell, the symbol (one a board cannot hold
    is shown as ``"E"``) and the depth of the student's own calls. Which
    cell led to which, and the stack or queue, are not seen, so the trace
    has none. `order` names the reading of the run (its title and colours).

    Parameters
    ----------
    board : board-like
        The board before the click.
    click : (int, int)
    writes : iterable of (row, col, symbol, depth)
        As `msviz.record` keeps them; writes outside the board are left out.
    order : {"dfs", "bfs"}

    Examples
    --------
    >>> t = trace_of_writes(["EEE"], (0, 0), [(0, 0, "#", 0), (0, 1, "B", 0), (0, 0, "B", 0)])
    >>> t.written.tolist(), t.step_map.tolist()
    (['E', 'B', 'B'], [[0, 1, -1]])
    >>> print(t.board_at(1), t.board_at(2))
    [['E' 'B' 'E']] [['B' 'B' 'E']]
    """
    order = _check_order(order)
    before = np.array(parse_board(board))
    shape = before.shape
    click = check_click(click, shape)
    kept = [
        (r, c, symbol if isinstance(symbol, str) and symbol in SYMBOLS else "E", depth)
        for r, c, symbol, depth in writes
        if _is_integer(r) and _is_integer(c) and 0 <= r < shape[0] and 0 <= c < shape[1]
    ]
    n = len(kept)
    rows = np.array([w[0] for w in kept], dtype=np.int32)
    cols = np.array([w[1] for w in kept], dtype=np.int32)
    written = np.array([w[2] for w in kept], dtype=before.dtype if n else "<U1")
    steps = np.arange(n, dtype=np.int32)
    final = before.copy()
    final[rows, cols] = written
    first = np.full(shape, -1, dtype=np.int32)
    firsts = _first_of(rows, cols, shape[1])
    first[rows[firsts], cols[firsts]] = firsts
    none = np.full(shape, -1, dtype=np.int32)
    return Trace(
        order=order,
        click=(int(click[0]), int(click[1])),
        neighbors=READING_ORDER,
        board=before,
        final=final,
        row=rows,
        col=cols,
        depth=np.array([w[3] for w in kept], dtype=np.int32),
        frontier=np.zeros(n, dtype=np.int32),
        parent_step=np.full(n, -1, dtype=np.int32),
        step_map=first,
        enter_step_map=none,
        leave_step_map=none.copy(),
        event_label=np.full(n, _LABEL_CODES["write"], dtype=np.uint8),
        event_step=steps,
        enter_event_map=none.copy(),
        leave_event_map=none.copy(),
        visit_event=steps.copy(),
        written=written,
    )


def _first_of(rows, cols, width) -> np.ndarray:
    """Return the places in (rows, cols) where each cell first appears.

    Examples
    --------
    >>> _first_of(np.array([0, 0, 0]), np.array([0, 1, 0]), 3).tolist()
    [0, 1]
    """
    return np.unique(np.asarray(rows, dtype=np.int64) * width + cols, return_index=True)[1]


def _generations(parent: np.ndarray) -> np.ndarray:
    """Return each step's number of steps back to the click along `parent`: its depth.

    The DFS recursion depth and the BFS layer are both this count (a cell is
    one deeper than the cell that called or queued it). Each pass doubles the
    jump, so a chain of a million steps takes 20 passes, not a million.

    Examples
    --------
    >>> _generations(np.array([-1, 0, 1, 1, 0, 2], dtype=np.int32)).tolist()
    [0, 1, 2, 2, 1, 3]
    """
    depth = (parent >= 0).astype(np.int32)
    jump = parent.copy()  # the step depth[k] generations up from k, or -1 once that is the click
    going = np.flatnonzero(jump >= 0)
    while len(going):
        up = jump[going]
        depth[going] += depth[up]  # from k to its jump, then on from there (read before written)
        jump[going] = jump[up]
        going = going[jump[going] >= 0]
    return depth


def _queued_by(rows, cols, blank, shape) -> np.ndarray:
    """For each step, the first earlier blank step next to it (-1 if none)."""
    first_blank = {}
    parent = np.full(len(rows), -1, dtype=np.int32)
    for k, (r, c) in enumerate(zip(rows.tolist(), cols.tolist())):
        near = [first_blank[n] for n, _ in cells_around((r, c), shape) if n in first_blank]
        if near:
            parent[k] = min(near)
        if blank[k]:
            first_blank[(r, c)] = k
    return parent


def _called_by(rows, cols, blank, hidden):
    """For each step, the calling step; and the log of returns (as `trace` keeps it)."""
    hidden = hidden.copy()
    stack, finish_log = [], array("q")
    parent = np.full(len(rows), -1, dtype=np.int32)
    shape = hidden.shape

    def done(k):  # a blank whose neighbours are all revealed has returned
        return not any(hidden[n] for n, _ in cells_around((int(rows[k]), int(cols[k])), shape))

    for k, (r, c) in enumerate(zip(rows.tolist(), cols.tolist())):
        while stack and (done(stack[-1]) or max(abs(rows[stack[-1]] - r), abs(cols[stack[-1]] - c)) > 1):
            finish_log.extend((stack.pop(), k))
        parent[k] = stack[-1] if stack else -1
        hidden[r, c] = False
        if blank[k]:
            stack.append(k)
    while stack:
        finish_log.extend((stack.pop(), len(rows)))
    return parent, finish_log


def _build(order, click, neighbors, before, final, rows, cols, parent, finish_log) -> Trace:
    """Return the `Trace` of a reveal, from the cell of each step and the step that led to it.

    Neither the depth nor the frontier need be recorded. The depth: DFS, the
    calls still open, counted from the returns; BFS, the steps back to the
    click along `parent`. The frontier: the stack holds depth + 1 calls, and the
    queue, after step k, the cells queued by steps 0..k (and the click) less
    the k + 1 taken out. `finish_log` (DFS) holds (step, calls made by then)
    for each blank's return, in the order the returns happen.
    """
    if order == "dfs":
        blank = final[rows, cols] == "B"
        depth = _dfs_depth(blank, finish_log)
        frontier = depth + 1
    else:
        depth = _generations(parent)
        queued_by = np.cumsum(np.bincount(parent[1:], minlength=len(parent)))
        frontier = (1 + queued_by - np.arange(1, len(parent) + 1)).astype(np.int32)
    steps = np.arange(len(rows), dtype=np.int32)
    visit_step = np.full(before.shape, -1, dtype=np.int32)
    visit_step[rows, cols] = steps
    if order == "dfs":
        enter_step = visit_step
        leave_step = np.where(visit_step >= 0, visit_step + 1, -1).astype(np.int32)
        finished = np.frombuffer(finish_log, dtype=np.int64).reshape(-1, 2)
        leave_step[rows[finished[:, 0]], cols[finished[:, 0]]] = finished[:, 1]
    else:
        enter_step = np.full(before.shape, -1, dtype=np.int32)
        enter_step[rows, cols] = np.maximum(parent, 0)
        leave_step = visit_step
    n = len(rows)
    if order == "dfs":
        enter_at, leave_at = _dfs_timeline(blank, finish_log)
        codes = (_LABEL_CODES["call"], _LABEL_CODES["return"])
    else:
        enter_at, leave_at = _bfs_timeline(parent)
        codes = (_LABEL_CODES["enqueue"], _LABEL_CODES["dequeue"])
    # Two events a step: each step's entering (a call, an enqueue) and leaving (a return, a dequeue).
    event_label = np.empty(2 * n, dtype=np.uint8)
    event_step = np.empty(2 * n, dtype=np.int32)
    event_label[enter_at], event_label[leave_at] = codes
    event_step[enter_at] = event_step[leave_at] = steps
    enter_event = np.full(before.shape, -1, dtype=np.int32)
    leave_event = np.full(before.shape, -1, dtype=np.int32)
    enter_event[rows, cols] = enter_at
    leave_event[rows, cols] = leave_at
    if order == "dfs":  # the picture of step k: right after its call
        visit_event = enter_at
    else:  # right before step k + 1 is dequeued
        visit_event = np.append(leave_at[1:] - 1, 2 * n - 1)[:n].astype(np.int32)
    return Trace(
        order=order,
        click=(int(click[0]), int(click[1])),
        neighbors=tuple(neighbors),
        board=before,
        final=final,
        row=rows,
        col=cols,
        depth=depth,
        frontier=frontier,
        parent_step=parent,
        step_map=visit_step,
        enter_step_map=enter_step,
        leave_step_map=leave_step,
        event_label=event_label,
        event_step=event_step,
        enter_event_map=enter_event,
        leave_event_map=leave_event,
        visit_event=visit_event,
    )


def _dfs_depth(blank, finish_log) -> np.ndarray:
    """Return each DFS step's depth: the calls still open when it is called.

    Those are the blanks called before step k less the blank returns logged
    before it (a return logged with v calls made came before call v).
    """
    n = len(blank)
    made = np.frombuffer(finish_log, dtype=np.int64)[1::2]
    opened = np.zeros(n, dtype=np.int64)
    np.cumsum(blank[:-1], out=opened[1:])
    closed = np.cumsum(np.bincount(made, minlength=n + 1)[:n])
    return (opened - closed).astype(np.int32)


def _dfs_timeline(blank, finish_log):
    """Return, for each step, the place of its call and of its return in the event timeline.

    Call k comes after k calls, the returns made at once by the digits (and a
    mine) among steps 0..k-1, and the returns of blanks logged before it (a
    blank's return is logged with the number of calls made by then, in the
    order returns happen). A digit's return follows its call; the j-th blank
    return logged with v calls made comes after v calls, the immediate returns
    among the first v steps, and the j blank returns before it.
    """
    n = len(blank)
    finished = np.frombuffer(finish_log, dtype=np.int64).reshape(-1, 2)
    called_at, made = finished[:, 0], finished[:, 1]
    at_once = np.zeros(n + 1, dtype=np.int64)  # digit returns among the first k steps
    np.cumsum(~blank, out=at_once[1:])
    blank_returns_before = np.cumsum(np.bincount(made, minlength=n + 1)[:n])  # logged with v <= k
    enter_at = (np.arange(n) + at_once[:-1] + blank_returns_before).astype(np.int32)
    leave_at = enter_at + 1  # a digit's (or a mine's) call returns at once
    leave_at[called_at] = made + at_once[made] + np.arange(len(made))
    return enter_at, leave_at.astype(np.int32)


def _bfs_timeline(parent):
    """Return, for each step, the place of its enqueue and of its dequeue in the event timeline.

    The click is enqueued first. Step s (s > 0) is enqueued right after the
    dequeue of the step that queued it, after s enqueues and parent[s] + 1
    dequeues; step k is dequeued after k dequeues and the enqueues of the
    click and of every cell queued by a step before k.
    """
    n = len(parent)
    steps = np.arange(n)
    enter_at = steps + parent + 1
    enter_at[:1] = 0  # the click (parent -1), when there is one
    queued_by = np.cumsum(np.bincount(parent[1:], minlength=n))  # cells queued by steps 0..k
    leave_at = steps + 1  # after k dequeues and the click's enqueue, ...
    leave_at[1:] += queued_by[:-1]  # ... the cells queued by the steps before k
    return enter_at.astype(np.int32), leave_at.astype(np.int32)
