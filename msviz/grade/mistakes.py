"""The mistakes the grader knows by name, and how a wrong answer is matched to one.

Each mistake has a key, a short name and a hint for the student. A wrong
answer is named by re-running a simple reveal with a known mistake switched
on (`variant`) and comparing: the mistake whose answer matches is the one made.
"""

from __future__ import annotations

from collections import deque
from types import MappingProxyType

from ..board import Board, Cell
from ..i18n import Phrases

__all__ = ["BUGS", "name_of", "hint_of", "variant", "name_wrong_answer"]

_ENGLISH = {
    "bfs as dfs": (
        "a breadth-first order handed in as depth-first",
        "Your cells are revealed layer by layer, as a queue does. Depth-first goes as deep as it "
        "can first: reveal a blank's first hidden neighbour, and everything it leads to, before "
        "its second.",
    ),
    "dfs as bfs": (
        "a depth-first order handed in as breadth-first",
        "Your flood goes deep before it goes wide, as a stack or recursion does. Breadth-first "
        "reveals every cell one step from the click before any two steps away: take cells from "
        "the front of a queue (collections.deque, popleft).",
    ),
    "marks on push": (
        "a stack that marks cells when it pushes them",
        "Your stack marks all of a blank's hidden neighbours as it pushes them, so they are "
        "taken neither depth-first nor breadth-first. Depth-first: mark a cell when it is "
        "popped (skip it if it is already revealed), or call the reveal on each hidden "
        "neighbour in turn (notebook 03). Breadth-first: use a queue (collections.deque).",
    ),
    "not dfs": (
        "not a depth-first order",
        "A depth-first reveal finishes everything a neighbour leads to before it tries the next "
        "neighbour: each new cell is a hidden neighbour of the latest blank that still has one.",
    ),
    "not bfs": (
        "not a breadth-first order",
        "A breadth-first reveal goes layer by layer: every cell one step from the click, then "
        "every cell two steps away, and so on.",
    ),
    "wrong neighbour order": (
        "not the neighbour order asked for",
        "The order is a fine one, but not with the neighbours tried in the order given: follow "
        "that list of (dr, dc) at every cell.",
    ),
    "writes to a copy": (
        "writes to a copy",
        "The order could not be seen: your function wrote into a copy of the board "
        "(np.array(board), [row[:] for row in board], copy.deepcopy(board), ...). Write into "
        "the board you are given, board[r][c] = ..., and return it.",
    ),
    "digits spread": (
        "digits that spread",
        "A digit stops the flood: only a blank (B), a cell with no mines around it, reveals its neighbours.",
    ),
    "four neighbours": (
        "4 neighbours instead of 8",
        "A cell has eight neighbours: the four diagonal ones count too, for the mines and for the flood.",
    ),
    "mine left as M": (
        "a mine click left as M",
        "Clicking a mine ends the game, and the mine shows as X: board[r][c] = 'X'.",
    ),
    "0 for B": (
        "0 instead of B",
        "A cell with no mines around it becomes 'B' (blank), not '0'.",
    ),
    "digits as numbers": (
        "digits that are not the characters '1' to '8'",
        "A digit cell holds a one-letter string: str(mines), such as '3'. Not the number 3, "
        "and not chr(3), which is an invisible control character.",
    ),
    "off by one": (
        "a neighbour past the edge of the board",
        "Check both ends before you read a neighbour: 0 <= r < len(board) and "
        "0 <= c < len(board[0]). The last row is len(board) - 1, and board[-1] is the last "
        "row, not a cell above the first one.",
    ),
    "row and column swapped": (
        "the click read as (column, row)",
        "The click is [row, col]: r, c = click, then board[r][c].",
    ),
    "revisits revealed cells": (
        "calls on cells already revealed",
        "Your function goes back into cells it has already revealed, again and again. Reveal "
        "only hidden cells: return at once unless board[r][c] == 'E', and mark a cell (B) "
        "before you go on to its neighbours.",
    ),
    "endless recursion": (
        "endless recursion",
        "Your function calls itself again and again and never gets anywhere: the same call "
        "(return update_board(board, click)), or calls that go back and forth between cells "
        "without revealing them. Each call must make progress: reveal the cell first "
        "(board[r][c] = 'B' or its digit), call on a neighbour only while it is 'E', and return "
        "the board once nothing is left.",
    ),
    "queued many times": (
        "cells queued many times",
        "Too slow on a large open board: the same cells go into your queue (or stack) many "
        "times, so the work grows exponentially with the board. Mark a cell when it goes in "
        "(board[i][j] = 'B', or a set of cells seen), and never add a cell already marked.",
    ),
    "too slow": (
        "too slow: probably an endless loop",
        "Your function was stopped after its time limit (CPU time). Look for a loop that never "
        "ends: a cell put back on the stack or queue again and again because it was never marked.",
    ),
    "recursion limit": (
        "Python's recursion limit",
        "Python stops at sys.getrecursionlimit() nested calls (1000 by default), and a "
        "recursive reveal can go as deep as the board has cells (notebook 03). Use an "
        "explicit stack for large boards.",
    ),
    "used msviz": (
        "msviz's own reveal used",
        "Your function called msviz's reveal (or its traces or generators): the exercise is "
        "to write the reveal yourself.",
    ),
    "refused": (
        "started a thread or a process",
        "Your function started a thread or a process, ran a program or changed its limits. The grader "
        "runs your function alone, on one thread, under its own limits, and refuses all of these: "
        "do the reveal's work in the function itself.",
    ),
    "changed the grader": (
        "your code changed the grader",
        "Your function replaced or changed part of msviz or of Python's builtins while it ran. "
        "The grader put it back; a solution only reads and writes the board it is given.",
    ),
    "ended the process": (
        "your function ended the process",
        "Your function ended the Python process it ran in (os._exit, or a library that exits). "
        "A function returns its answer: return board, and never call os._exit or exit().",
    ),
    "crashed": (
        "your function crashed Python",
        "Python itself crashed while your function ran (a segmentation fault, an abort): "
        "this comes from ctypes or a library written in C, not from Python code. "
        "Write the reveal with plain lists and loops.",
    ),
    "memory": (
        "too much memory",
        "Your function used more memory than it may (1 GB): a list or queue that grows without end, "
        "or a copy of the board for every cell. Mark a cell when you reveal it, so that it is never "
        "added again, and change the board in place.",
    ),
    "C call too long": (
        "one call into C ran past the time limit",
        "A single call that Python runs in C (sum over a huge range, sorted, a library call) went on "
        "past the time limit, and could only be stopped from outside; a bare except: that catches "
        "the time-out does the same. A reveal needs no such call: visit each cell a few times at most.",
    ),
    "waited": (
        "waited for ever",
        "Your function stopped computing and waited (time.sleep, input(), a lock): a reveal needs "
        "none of them. Remove them, and return the board.",
    ),
    "unreadable": (
        "sent something the grader cannot read",
        "Your code wrote to the grader's own channel, or sent it more than an answer. The grader "
        "reads only what your function returns: return the board, and write nowhere else.",
    ),
    "crash": (
        "an error",
        "Your function raised an error: read the last lines of the traceback.",
    ),
    "returned nothing": (
        "returned None",
        "Return the board at the end of your function: return board.",
    ),
    "not a board": (
        "not a board",
        "Return the board: a list of rows, each a list of one-letter strings.",
    ),
    "wrong answer": (
        "a wrong board",
        "Compare your answer with the expected one, cell by cell.",
    ),
}

#: Each mistake's short name and hint, as a table of phrases (read in the language spoken).
_BUGS = Phrases("mistakes", {key: list(words) for key, words in _ENGLISH.items()})
#: The mistakes the grader recognises: a short name, and a hint for the student, in the language
#: spoken. Read-only: code being graded cannot change or clear it.
BUGS = MappingProxyType(_BUGS)


def name_of(bug: str) -> str:
    """The short name of mistake `bug`.

    Examples
    --------
    >>> name_of("0 for B")
    '0 instead of B'
    """
    return _BUGS[bug][0]


def hint_of(bug: str) -> str:
    """The hint for mistake `bug`."""
    return _BUGS[bug][1]


_EIGHT = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
_FOUR = ((-1, 0), (0, -1), (0, 1), (1, 0))


def variant(
    board: Board,
    click: Cell,
    *,
    spread=False,
    count4=False,
    flood4=False,
    zero=False,
    mine_stays=False,
    wrap=False,
) -> Board:
    """Return the answer of a simple reveal with known mistakes switched on (none: the right answer).

    `wrap` is the missing ``>= 0`` test: a neighbour at -1 is read as the
    last row or column, as Python's negative indices do.

    Examples
    --------
    >>> variant([["E", "E", "M"]], (0, 0), zero=False)
    [['B', '1', 'M']]
    >>> variant([["E", "E", "M"]], (0, 0), wrap=True)  # the mine counted twice, through index -1
    [['2', 'E', 'M']]
    """
    rows, cols = len(board), len(board[0])
    out = [list(row) for row in board]
    low = -1 if wrap else 0

    def around(r, c, offsets):
        cells = []
        for dr, dc in offsets:
            i, j = r + dr, c + dc
            if low <= i < rows and low <= j < cols:
                cells.append((i % rows, j % cols))
        return cells

    r, c = click
    if out[r][c] == "M":
        out[r][c] = "M" if mine_stays else "X"
        return out
    todo, seen = deque([(r, c)]), {(r, c)}
    while todo:
        r, c = todo.popleft()
        if out[r][c] != "E":
            continue
        mines = sum(out[i][j] in "MX" for i, j in around(r, c, _FOUR if count4 else _EIGHT))
        out[r][c] = str(mines) if mines else ("0" if zero else "B")
        if mines and not spread:
            continue
        for cell in around(r, c, _FOUR if flood4 else _EIGHT):
            if cell not in seen and out[cell[0]][cell[1]] == "E":
                seen.add(cell)
                todo.append(cell)
    return out


_MUTANTS = (
    ("digits spread", {"spread": True}),
    ("four neighbours", {"count4": True, "flood4": True}),
    ("four neighbours", {"flood4": True}),
    ("four neighbours", {"count4": True}),
    ("0 for B", {"zero": True}),
    ("mine left as M", {"mine_stays": True}),
    ("off by one", {"wrap": True}),
)


def _digits_not_characters(expected: Board, got: Board) -> bool:
    """Whether every wrong cell is a digit written as something other than '1'-'8' (chr(n) and the like)."""
    wrong = [(e, g) for erow, grow in zip(expected, got) for e, g in zip(erow, grow) if e != g]
    return bool(wrong) and all(e in "12345678" and g not in "12345678" for e, g in wrong)


def name_wrong_answer(board: Board, click: Cell, expected: Board, got: Board) -> str:
    """Name the mistake that gives `got` on this board, one mistake or two at once; else "wrong answer".

    Examples
    --------
    >>> name_wrong_answer([["E", "E"]], (0, 0), [["B", "B"]], [["0", "0"]])
    '0 for B'
    """
    for name, switches in _MUTANTS:
        if variant(board, click, **switches) == got:
            return name
    for i, (name, one) in enumerate(_MUTANTS):
        for _, other in _MUTANTS[i + 1 :]:
            if other.keys() & one.keys():
                continue
            if variant(board, click, **one, **other) == got:
                return name
    if _digits_not_characters(expected, got):
        return "digits as numbers"
    r, c = click
    if (c, r) != (r, c) and c < len(board) and r < len(board[0]) and variant(board, (c, r)) == got:
        return "row and column swapped"
    if any("0" in row for row in got):
        return "0 for B"
    if board[r][c] == "M" and got[r][c] == "M":
        return "mine left as M"
    return "wrong answer"
