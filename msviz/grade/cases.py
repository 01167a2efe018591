"""The boards the grader tries: the problem's examples, tricky boards, random ones; and smaller ones.

Random boards come from a seeded `random.Random`, so the same seed tries the
same boards on every machine. A random board is kept as its `Recipe` (size,
mines, earlier clicks) so that the shrinker can make it smaller.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from ..board import Board, Cell
from ..i18n import _
from ..traversal import reveal

__all__ = ["Recipe", "Case", "cases", "smaller"]


@dataclass(frozen=True)
class Recipe:
    """How a random board is made: its size, its mines, and the safe clicks made before."""

    rows: int
    cols: int
    mines: tuple[Cell, ...]
    opened: tuple[Cell, ...] = ()

    def board(self) -> Board:
        """Return the board: hidden cells and mines, after the earlier clicks."""
        board = [["E"] * self.cols for _row in range(self.rows)]
        for r, c in self.mines:
            board[r][c] = "M"
        for cell in self.opened:
            if board[cell[0]][cell[1]] == "E":
                board = reveal(board, cell)
        return board


@dataclass(frozen=True)
class Case:
    """One board to try: a name, the board, the click, its category and (random boards) its recipe."""

    name: str
    board: Board
    click: Cell
    category: str = "tricky"
    recipe: Recipe | None = None

    @property
    def size(self) -> str:
        return f"{len(self.board)}x{len(self.board[0])}"


#: The few mines of the largest open board: work that grows faster than the cells shows on it.
LARGE_MINES = ((10, 30), (20, 5), (33, 44), (41, 17), (47, 47))


def _open_board(size: int, mines) -> list[str]:
    """A square board of hidden cells with a few mines: one click opens nearly all of it."""
    return ["".join("M" if (r, c) in mines else "E" for c in range(size)) for r in range(size)]


def _fixed(name: str, rows, click, category: str = "tricky") -> Case:
    return Case(name, [list(row) for row in rows], click, category)


def cases(*, random_boards: int = 200, seed: int = 529) -> list[Case]:
    """Return the boards :func:`check` tries: the examples, tricky ones, random ones.

    Their names are said in the language spoken.

    Examples
    --------
    >>> tries = cases(random_boards=3)
    >>> [c.category for c in tries].count("tricky"), tries[0].name
    (10, 'LeetCode example 1')
    """
    out = [
        _fixed(_("LeetCode example 1"), ["EEEEE", "EEMEE", "EEEEE", "EEEEE"], (3, 0), "examples"),
        _fixed(_("LeetCode example 2"), ["B1E1B", "B1M1B", "B111B", "BBBBB"], (1, 2), "examples"),
        _fixed(_("a single hidden cell"), ["E"], (0, 0)),
        _fixed(_("a single mine"), ["M"], (0, 0)),
        _fixed(_("a click on a digit's cell"), ["EEE", "EEM"], (1, 1)),
        _fixed(_("a board with no mines at all"), ["EEEE"] * 3, (2, 3)),
        _fixed(_("one row"), ["EEEMEEEEME"], (0, 0)),
        _fixed(_("one column"), list("EEMEEE"), (5, 0)),
        _fixed(_("a mine in every corner"), ["MEEEM", "EEEEE", "EEEEE", "MEEEM"], (1, 2)),
        _fixed(
            _("a digit wall with hidden cells behind it"),
            ["EEEEE", "MMMME", "EEEEE", "EMMMM", "EEEEE"],
            (0, 0),
        ),
        _fixed(_("a {n}x{n} open board").format(n=12), _open_board(12, ((2, 9), (9, 3))), (11, 11)),
        _fixed(_("a 50x50 open board, LeetCode's largest"), _open_board(50, LARGE_MINES), (0, 0)),
    ]
    rng = random.Random(seed)
    for i in range(random_boards):
        rows, cols = rng.randint(1, 12), rng.randint(1, 12)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        mines = tuple(sorted(rng.sample(cells, rng.randint(0, rows * cols // 4))))
        opened = tuple(rng.choice(cells) for _click in range(2)) if i % 3 == 2 else ()  # mid-game
        recipe = Recipe(rows, cols, mines, opened)
        board = recipe.board()
        hidden = [(r, c) for r, c in cells if board[r][c] in "ME"]
        if hidden:
            out.append(Case(_("random board {i}").format(i=i), board, rng.choice(hidden), "random", recipe))
    return out


def smaller(case: Case):
    """Cases one step smaller than `case`: fewer earlier clicks, rows, columns or mines."""
    recipe, (cr, cc) = case.recipe, case.click
    candidates = []
    if recipe.opened:
        candidates.append((replace(recipe, opened=()), (cr, cc)))
    for r in range(recipe.rows):
        if r != cr and recipe.rows > 1:
            candidates.append(_without_row(recipe, r, (cr, cc)))
    for c in range(recipe.cols):
        if c != cc and recipe.cols > 1:
            flipped = _without_row(_transpose(recipe), c, (cc, cr))
            candidates.append((_transpose(flipped[0]), flipped[1][::-1]))
    for mine in recipe.mines:
        if mine != (cr, cc):
            candidates.append((replace(recipe, mines=tuple(m for m in recipe.mines if m != mine)), (cr, cc)))
    for recipe, click in candidates:
        board = recipe.board()
        if board[click[0]][click[1]] in "ME":
            yield Case(
                _("{rows}x{cols} board").format(rows=recipe.rows, cols=recipe.cols),
                board,
                click,
                "random",
                recipe,
            )


def _without_row(recipe: Recipe, r: int, click: Cell) -> tuple[Recipe, Cell]:
    def moved(cells):
        return tuple((i - (i > r), j) for i, j in cells if i != r)

    return Recipe(recipe.rows - 1, recipe.cols, moved(recipe.mines), moved(recipe.opened)), moved([click])[0]


def _transpose(recipe: Recipe) -> Recipe:
    def swap(cells):
        return tuple((j, i) for i, j in cells)

    return Recipe(recipe.cols, recipe.rows, swap(recipe.mines), swap(recipe.opened))
