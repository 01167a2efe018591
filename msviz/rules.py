"""The game's rules and state, with no UI: what a click does, flags, won and lost.

`Minesweeper` holds one board, the true one (hidden mines as ``M``). A click
runs the reveal and returns its `Trace`, which a view may animate; the board
itself changes at once, so what a screen should show is always derived from
the board and the last trace, never stored beside them.

(Named ``rules`` rather than ``game`` so that ``msviz.game`` stays the function
that makes the game widget: a submodule of that name would shadow it.)
"""

from __future__ import annotations

import numpy as np

from . import _checks
from .board import check_click, parse_board, random_board
from .trace import Trace, trace
from .words import mines_do_not_fit

__all__ = ["Minesweeper"]


class Minesweeper:
    """A game of Minesweeper: the first click is always safe, as in the real game.

    Parameters
    ----------
    rows, cols, mines : int
        The size of a random board and its number of mines. The mines are laid
        at the first click, away from it and its neighbours.
    seed : int, optional
        The same seed gives the same mines for the same first click.
    board : board-like, optional
        Play this board instead (its size and mines are used; the first click
        is then not moved away from a mine).

    Examples
    --------
    >>> g = Minesweeper(board=["EEE", "EEM"])
    >>> t = g.click(0, 0)
    >>> len(t), g.board, g.lost, g.won
    (4, [['B', '1', 'E'], ['B', '1', 'M']], False, False)
    >>> g.click(0, 2) is not None, g.won
    (True, True)
    """

    def __init__(self, rows: int = 9, cols: int = 9, mines: int = 10, *, seed=None, board=None):
        if board is not None:
            self._given = parse_board(board)
            rows, cols = len(self._given), len(self._given[0])
            mines = sum(row.count("M") + row.count("X") for row in self._given)
        else:
            self._given = None
            rows, cols = _checks.size(rows, cols, what="a game")
            mines = _checks.whole_number("mines", mines, least=0)
            room = rows * cols - min(3, rows) * min(3, cols)
            if mines > room:
                raise ValueError(
                    f"{mines_do_not_fit(mines, rows, cols)}: a first click keeps itself and its "
                    f"neighbours safe, which leaves room for at most {room}"
                )
        self.rows, self.cols, self.mines, self.seed = rows, cols, mines, _checks.seed(seed)
        self.new_game()

    def new_game(self) -> None:
        """Start again: the given board, or a new random one laid at the first click."""
        self._board = None if self._given is None else [row[:] for row in self._given]
        self.flags = np.zeros((self.rows, self.cols), bool)
        self.last = None  # the trace of the last click that revealed something
        self.lost = self.won = False

    @property
    def started(self) -> bool:
        """Whether the mines are laid (after the first click, or from the start on a given board)."""
        return self._board is not None

    @property
    def board(self) -> list[list[str]]:
        """The current board in LeetCode symbols (a new list; hidden mines as ``M``)."""
        if self._board is None:
            return [["E"] * self.cols for _ in range(self.rows)]
        return [row[:] for row in self._board]

    @property
    def over(self) -> bool:
        """Whether the game is won or lost."""
        return self.lost or self.won

    @property
    def hidden(self) -> int:
        """How many safe cells are still hidden."""
        return sum(row.count("E") for row in self.board)

    def click(self, row: int, col: int) -> Trace | None:
        """Click cell (row, col), as a player would; return the reveal, or None if nothing happens.

        Nothing happens on a revealed or flagged cell, or once the game is over.
        """
        r, c = check_click((row, col), (self.rows, self.cols))
        if self.over or self.flags[r, c]:
            return None
        if self._board is None:  # the first click is safe, as in the real game
            self._board = random_board(self.rows, self.cols, self.mines, seed=self.seed, safe=(r, c))
        if self._board[r][c] not in "ME":
            return None
        t = trace(self._board, (r, c))
        self._board = t.final.tolist()
        self.last = t
        self.flags &= t.step_map < 0  # a revealed cell carries no flag
        self.lost = bool(self._board[r][c] == "X")
        self.won = not self.lost and self.hidden == 0
        return t

    def flag(self, row: int, col: int) -> bool:
        """Plant or lift a flag on hidden cell (row, col); return whether it now has one."""
        r, c = check_click((row, col), (self.rows, self.cols))
        if self.over or self.board[r][c] not in "ME":
            return False
        self.flags[r, c] = not self.flags[r, c]
        return bool(self.flags[r, c])
