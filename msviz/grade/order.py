"""The order of a solution, as a teacher means it.

A solution's order is the order in which cells are first touched: first
written with anything other than what they held. A placeholder written when
a cell is found (``'#'``, ``' '``, ``'B'`` before its digit), a cell written
again with the symbol it already has, or a cell written twice are fine: they
are noted, never counted against the order.

- Depth-first: each newly touched cell is a hidden neighbour of the most
  recent blank whose neighbours are not all touched yet, the neighbours taken
  in any order, even one that changes from cell to cell (exactly the order
  given, when one is given).
- Breadth-first: layer by layer from the click (every cell one step away
  before any two steps away).
"""

from __future__ import annotations

from collections import deque

from ..board import SYMBOLS, Board, Cell
from ..i18n import _n
from ..trace import trace
from ..traversal import cells_around

__all__ = ["first_touches", "is_depth_first", "is_breadth_first", "order_bug", "order_notes"]


def first_touches(board: Board, writes) -> tuple[list[Cell], dict[Cell, int], set[Cell]]:
    """The cells in the order first touched; how often each was changed; the cells rewritten as they were.

    Examples
    --------
    >>> first_touches([["E", "E"]], [(0, 1, "#", 0), (0, 0, "B", 0), (0, 1, "1", 0), (0, 1, "1", 0)])
    ([(0, 1), (0, 0)], {(0, 1): 2, (0, 0): 1}, {(0, 1)})
    """
    held = {}
    order, changes, idle = [], {}, set()
    for r, c, value, _ in writes:
        cell = (r, c)
        before = held.get(cell, board[r][c] if 0 <= r < len(board) and 0 <= c < len(board[0]) else None)
        if value == before if isinstance(value, str) else False:
            idle.add(cell)
            continue
        held[cell] = value
        if cell not in changes:
            order.append(cell)
            changes[cell] = 0
        changes[cell] += 1
    return order, changes, idle


def is_depth_first(board: Board, answer: Board, cells: list[Cell]) -> bool:
    """Whether `cells` is a depth-first order of the reveal, with any neighbour order at each cell.

    Examples
    --------
    >>> board = [list("EEE"), list("EEE")]
    >>> answer = [list("BBB"), list("BBB")]
    >>> is_depth_first(board, answer, [(0, 0), (1, 1), (0, 2), (1, 2), (0, 1), (1, 0)])
    True
    """
    shape = (len(board), len(board[0]))
    untouched = {(r, c) for r in range(shape[0]) for c in range(shape[1]) if board[r][c] == "E"}
    blanks: list[Cell] = []  # the blanks revealed so far, the latest last
    for k, cell in enumerate(cells):
        if k:
            while blanks and not any(n in untouched for n, _ in cells_around(blanks[-1], shape)):
                blanks.pop()
            if not blanks or cell not in untouched:
                return False
            if cell not in {n for n, _ in cells_around(blanks[-1], shape)}:
                return False
        untouched.discard(cell)
        if answer[cell[0]][cell[1]] == "B":
            blanks.append(cell)
    return True


def is_breadth_first(board: Board, answer: Board, cells: list[Cell], click: Cell) -> bool:
    """Whether `cells` go layer by layer from the click (each layer's cells before the next's).

    Examples
    --------
    >>> is_breadth_first([list("EEE")], [list("BBB")], [(0, 1), (0, 2), (0, 0)], (0, 1))
    True
    """
    if not cells or cells[0] != tuple(click):
        return False
    shape = (len(board), len(board[0]))
    layer, todo = {tuple(click): 0}, deque([tuple(click)])
    while todo:
        u = todo.popleft()
        if answer[u[0]][u[1]] != "B":
            continue
        for n, _ in cells_around(u, shape):
            if n not in layer and board[n[0]][n[1]] == "E":
                layer[n] = layer[u] + 1
                todo.append(n)
    layers = [layer.get(cell, -1) for cell in cells]
    return -1 not in layers and all(a <= b for a, b in zip(layers, layers[1:]))


def order_bug(board: Board, click: Cell, expected: Board, writes, order: str, neighbors, recursed: bool):
    """Name what is wrong with the order of the writes (a key of BUGS), or None if it is right."""
    cells, _, _ = first_touches(board, writes)
    if not cells:  # nothing touched: right when there was nothing to reveal
        return None if expected == board else "writes to a copy"
    depth_first = is_depth_first(board, expected, cells)
    breadth_first = is_breadth_first(board, expected, cells, click)
    if neighbors is not None and (depth_first if order == "dfs" else breadth_first):
        right = trace(board, click, order=order, neighbors=neighbors)
        same = cells == list(zip(right.row.tolist(), right.col.tolist()))
        return None if same else "wrong neighbour order"
    if order == "dfs":
        if depth_first:
            return None
        if breadth_first:
            return "bfs as dfs"
        return "not dfs" if recursed else "marks on push"
    if breadth_first:
        return None
    return "dfs as bfs" if depth_first else "not bfs"


def order_notes(board: Board, writes, order: str | None) -> list[str]:
    """What a teacher would remark on the writes, costing no points: placeholders, rewrites.

    Examples
    --------
    >>> order_notes([["E", "E"]], [(0, 0, "B", 0), (0, 1, "1", 0), (0, 1, "1", 0)], "bfs")
    ['1 cell written twice: mark a cell when it goes into the queue']
    """
    _cells, changes, idle = first_touches(board, writes)
    notes = []
    twice = sum(n > 1 for n in changes.values())
    if twice:
        said = _n(
            "{n} cell given a mark first, then the symbol: fine (the order counts the first mark)",
            "{n} cells given a mark first, then the symbol: fine (the order counts the first mark)",
            twice,
        )
        notes.append(said.format(n=twice))
    if idle:
        if order == "bfs":
            said = _n(
                "{n} cell written twice: mark a cell when it goes into the queue",
                "{n} cells written twice: mark a cell when it goes into the queue",
                len(idle),
            )
        else:
            said = _n(
                "{n} cell written twice: reveal a cell only while it is still hidden (E)",
                "{n} cells written twice: reveal a cell only while it is still hidden (E)",
                len(idle),
            )
        notes.append(said.format(n=len(idle)))
    return notes


def after_writes(board: Board, writes) -> Board:
    """The board after the writes seen, with any symbol a board cannot hold shown as hidden."""
    out = [list(row) for row in board]
    for r, c, value, _ in writes:
        if 0 <= r < len(out) and 0 <= c < len(out[0]):
            out[r][c] = value if isinstance(value, str) and value in SYMBOLS else "E"
    return out
