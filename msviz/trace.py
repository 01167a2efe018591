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
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .board import Cell, _is_integer
from .traversal import READING_ORDER, Visit, _check_order, _prepare, _run

__all__ = ["Trace", "trace"]


@dataclass(frozen=True, eq=False)
class Trace:
    """A reveal recorded as arrays. Build one with :func:`msviz.trace`.

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
    rows, cols : ndarray of int32, shape (steps,)
        The cell revealed at each step.
    depth : ndarray of int32, shape (steps,)
        ``Visit.depth`` of each step: DFS recursion depth or BFS layer.
    frontier : ndarray of int32, shape (steps,)
        ``Visit.frontier`` of each step: stack or queue size.
    parent : ndarray of int32, shape (steps,)
        The step of the blank cell that led to each step's cell, -1 for the click.
    visit_step : ndarray of int32, shape (rows, cols)
        The step at which each cell was revealed, -1 for cells not revealed.
    enter_step, leave_step : ndarray of int32, shape (rows, cols)
        A cell is on the frontier (the DFS recursion stack, or the BFS queue)
        at step ``k`` when ``enter_step <= k < leave_step``. DFS: a cell enters
        when its call starts (the step it is revealed) and leaves at the step
        after its call returns. BFS: a cell enters at the step of the cell that
        queued it and leaves at the step it is revealed. -1 for cells never
        on the frontier.

    Examples
    --------
    >>> t = trace(["EEE", "EEM"], (0, 0), order="bfs")
    >>> len(t)
    4
    >>> t.visit_step
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
    rows: np.ndarray
    cols: np.ndarray
    depth: np.ndarray
    frontier: np.ndarray
    parent: np.ndarray
    visit_step: np.ndarray
    enter_step: np.ndarray
    leave_step: np.ndarray

    def __len__(self) -> int:
        """The number of steps: how many cells the click revealed."""
        return len(self.rows)

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)`` of the board."""
        return self.board.shape

    @cached_property
    def values(self) -> np.ndarray:
        """The symbol given at each step, shape (steps,)."""
        return self.final[self.rows, self.cols]

    @cached_property
    def children(self) -> np.ndarray:
        """How many cells each step led to directly (calls made, or cells queued)."""
        has_parent = self.parent >= 0
        return np.bincount(self.parent[has_parent], minlength=len(self)).astype(np.int32)

    @cached_property
    def depth_map(self) -> np.ndarray:
        """Each cell's depth (DFS recursion depth, or BFS layer), -1 where not revealed."""
        out = np.full(self.shape, -1, dtype=np.int32)
        out[self.rows, self.cols] = self.depth
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
        return (self.visit_step >= 0) & (self.visit_step <= k)

    def frontier_at(self, k: int) -> np.ndarray:
        """Return a boolean mask of the cells on the stack or in the queue at step `k`."""
        k = self._check_step(k)
        return (self.enter_step >= 0) & (self.enter_step <= k) & (k < self.leave_step)

    def board_at(self, k: int) -> np.ndarray:
        """Return the board as it stands at the end of step `k` (a new array)."""
        return np.where(self.revealed_at(k), self.final, self.board)

    def visit(self, k: int) -> Visit:
        """Return the `Visit` of step `k`, as the generator yielded it."""
        k = self._check_step(k)
        if k < 0:
            raise ValueError("step -1 is before the click: it has no visit")
        p = int(self.parent[k])
        parent = None if p < 0 else (int(self.rows[p]), int(self.cols[p]))
        return Visit(
            k,
            int(self.rows[k]),
            int(self.cols[k]),
            str(self.values[k]),
            int(self.depth[k]),
            int(self.frontier[k]),
            parent,
        )

    def visits(self):
        """Yield every `Visit` of the trace, in order."""
        for k in range(len(self)):
            yield self.visit(k)


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
    >>> t.leave_step   # (0, 0)'s call returns after all four visits
    array([[ 4,  2, -1],
           [ 4,  4, -1]], dtype=int32)
    """
    order = _check_order(order)
    flat, start = _prepare(board, click, neighbors)
    before = flat.to_array()
    # Compact int arrays, not lists: a list would keep an int object per entry.
    log = parent_log, finish_log, index_log = array("q"), array("q"), array("q")
    depth, frontier = array("q"), array("q")
    add_depth, add_frontier = depth.append, frontier.append
    visits = _run(flat, start, order, log)
    if order == "dfs":  # the stack holds depth + 1 calls: no need to record it
        for visit in visits:
            add_depth(visit[4])
    else:
        for _, _, _, _, d, f, _ in visits:
            add_depth(d)
            add_frontier(f)
    depth, parent, index = (
        np.frombuffer(x, dtype=np.int64).astype(np.int32) for x in (depth, parent_log, index_log)
    )
    if order == "dfs":
        frontier = depth + 1
    else:
        frontier = np.frombuffer(frontier, dtype=np.int64).astype(np.int32)
    rows, cols = np.divmod(index, np.int32(flat.width))
    rows -= 1
    cols -= 1
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
    return Trace(
        order=order,
        click=(int(click[0]), int(click[1])),
        neighbors=flat.neighbors,
        board=before,
        final=flat.to_array(),
        rows=rows,
        cols=cols,
        depth=depth,
        frontier=frontier,
        parent=parent,
        visit_step=visit_step,
        enter_step=enter_step,
        leave_step=leave_step,
    )
