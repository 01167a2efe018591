"""The kit's words: captions of steps and the stack/queue vocabulary, as plain text.

Every phrase is a template defined once, here. Python fills them with
:func:`caption`; the browser view (`msviz.view`) is sent the same templates
and fills them in JavaScript with the same rule (``{name}`` is replaced by the
value called ``name``), so a caption reads the same in a notebook, in the
browser and in an exported page.

Nothing here imports numpy, matplotlib or ipywidgets' display code.
"""

from __future__ import annotations

__all__ = ["TEMPLATES", "LEGEND", "ORDER_NAMES", "TITLES", "WAITING", "fill", "plural", "caption"]

#: Caption templates. ``{s}``-style fields named ``*_s`` are plural endings.
TEMPLATES = {
    "nothing": "the click on {click} reveals nothing: that cell is already uncovered",
    "before": "before the click on {click}",
    "cell": "({row}, {col})",
    "reached": "({row}, {col}), reached from ({parent_row}, {parent_col}),",
    "mine": "step {step}: {where} is a mine: it becomes X and the game is lost",
    "blank": "step {step}: {where} has no adjacent mines, so it becomes B",
    "digit": "step {step}: {where} has {mines} adjacent mine{mines_s}, so it becomes {value}",
    "dfs_children": "; it calls reveal on {children} hidden neighbour{children_s} in turn",
    "bfs_children": "; {children} neighbour{children_s} queued",
    "dfs_frontier": "; stack depth {frontier}",
    "bfs_frontier": "; queue holds {frontier}",
    "finished": " (finished)",
    # The game's status line.
    "game_start": "Click a cell to start. Right-click (or Shift-click) plants a flag.",
    "game_revealed": "({row}, {col}) revealed {cells} cell{cells_s}.",
    "game_lost": "Boom! ({row}, {col}) was a mine.",
    "game_won": "You won! All {safe} safe cells revealed.",
    "game_over": "The game is over: press New game to play again.",
    "game_flags": " Flags: {flags} of {mines} mines.",
}

#: Short names of the two orders.
ORDER_NAMES = {"dfs": "DFS", "bfs": "BFS"}
#: Titles of the two orders, as headings above a board.
TITLES = {"dfs": "Depth-first (stack)", "bfs": "Breadth-first (queue)"}
#: What the outlined cells are, in each order.
WAITING = {"dfs": "calls on the recursion stack", "bfs": "cells waiting in the queue"}
#: The legend under a board: the current cell, then the outlined cells of each order.
LEGEND = {
    "legend_current": "the cell revealed at this step",
    "legend_dfs": "outlined: calls on the recursion stack",
    "legend_bfs": "outlined: cells waiting in the queue",
    "legend_frontier": "outlined: on the stack or in the queue",
}


def plural(n: int) -> str:
    """Return the plural ending for `n` things: ``""`` for one, ``"s"`` otherwise.

    Examples
    --------
    >>> f"{1} mine{plural(1)}, {3} mine{plural(3)}"
    '1 mine, 3 mines'
    """
    return "" if n == 1 else "s"


def fill(name: str, **values) -> str:
    """Return template `name` with its ``{fields}`` filled from `values`.

    A field ``x_s`` is filled with the plural ending of the value ``x``.

    Examples
    --------
    >>> fill("digit", step=3, where="(0, 1)", mines=2, value="2")
    'step 3: (0, 1) has 2 adjacent mines, so it becomes 2'
    """
    for key, value in list(values.items()):
        if isinstance(value, int):
            values[f"{key}_s"] = plural(value)
    return TEMPLATES[name].format(**values)


def caption(t, k: int) -> str:
    """Say in words what happens at step `k` of trace `t`.

    Examples
    --------
    >>> import msviz
    >>> t = msviz.trace(["EEE", "EEM"], (0, 0), order="bfs")
    >>> caption(t, 0)
    'step 0: (0, 0) has no adjacent mines, so it becomes B; 3 neighbours queued; queue holds 3'
    >>> caption(t, 1)
    'step 1: (0, 1), reached from (0, 0), has 1 adjacent mine, so it becomes 1; queue holds 2'
    """
    click = f"({t.click[0]}, {t.click[1]})"
    if len(t) == 0:
        return fill("nothing", click=click)
    if k < 0:
        return fill("before", click=click)
    v = t.visit(k)
    if v.parent is None:
        where = fill("cell", row=v.row, col=v.col)
    else:
        where = fill("reached", row=v.row, col=v.col, parent_row=v.parent[0], parent_col=v.parent[1])
    if v.value == "X":
        return fill("mine", step=k, where=where)
    if v.value == "B":
        said = fill("blank", step=k, where=where)
        said += fill(f"{t.order}_children", children=int(t.children[k]))
    else:
        said = fill("digit", step=k, where=where, mines=int(v.value), value=v.value)
    return said + fill(f"{t.order}_frontier", frontier=v.frontier)
