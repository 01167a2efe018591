"""The game: a playable board whose clicks flood as the rules say."""

from __future__ import annotations

import numpy as np

from ..board import random_board
from ..i18n import in_own_language, speaks
from ..render import tile_codes
from ..rendition import game_table
from ..rules import Minesweeper
from ..trace import Trace
from ..view import BoardView
from ..words import fill
from ._common import _reports_errors

__all__ = ["Game", "game"]


class Game(BoardView):
    """A playable board: click a hidden cell, watch its flood fill; right-click plants a flag.

    Build it with :func:`game`. `click(row, col)` does what clicking the cell
    does and `flag(row, col)` what a right-click does; `board` is the current
    board (hidden mines as ``M``); `lost`, `won` and `status` (the line above
    the board) tell how the game stands; `rules` is the `msviz.rules.Minesweeper`
    the view paints. "New game" (`new_game`) starts again.

    A click on the board while a flood is still animating first finishes the
    flood on screen, then is applied; "New game" drops the animation. The
    screen is always painted from `rules`, so it never disagrees with `board`.
    """

    def __init__(self, rows: int, cols: int, mines: int, *, seed=None, board=None, animate=True):
        self.rules = Minesweeper(rows, cols, mines, seed=seed, board=board)
        super().__init__(
            board=np.array(self.rules.board),  # the widget opens with it (see BoardView)
            show_frontier=False,
            show_caption=False,
            show_legend=False,
            keyboard=False,
            flood=animate,
            max_cell=28,
            restart=fill("game_new"),
        )
        self.on_click(self._clicked)
        self.on_flag(self._flagged)
        self.on_restart(self._restart)
        self.new_game()

    @property
    def view(self) -> BoardView:
        """The board view: the game itself (kept for code written when the two were apart)."""
        return self

    # What the game holds: all of it in `rules` (its size is the view's `rows` and `cols`).
    mines = property(lambda self: self.rules.mines)
    board = property(lambda self: self.rules.board, doc="The current board (a new list; hidden mines as M).")
    lost = property(lambda self: self.rules.lost)
    won = property(lambda self: self.rules.won)

    @in_own_language
    def new_game(self) -> None:
        """Start again: the given board, or (after the first click) a new random one."""
        self.rules.new_game()
        self._paint(None)
        self._say(fill("game_start"))

    @in_own_language
    def click(self, row: int, col: int) -> None:
        """Click cell (row, col), as a player would."""
        if self.rules.over:
            self._say(fill("game_over"))
            return
        t = self.rules.click(row, col)
        if t is None:
            return
        self._paint(t)
        if self.rules.lost:
            self._say(fill("game_lost", row=row, col=col))
        elif self.rules.won:
            self._say(fill("game_won", safe=self.rows * self.cols - self.mines))
        else:
            self._say(fill("game_revealed", row=row, col=col, cells=len(t)))

    @in_own_language
    def flag(self, row: int, col: int) -> None:
        """Plant or lift a flag on cell (row, col), as a right-click does."""
        self.rules.flag(row, col)
        self.flags = self.rules.flags.astype(np.uint8).tobytes()
        self._say(self._said)

    def _say(self, words: str) -> None:
        """Show `words` as the status, with the flags planted so far."""
        self._said = words
        n = int(self.rules.flags.sum())
        self.status = words + (
            fill("game_flags", flags=n, mines=self.mines) if n and not self.rules.over else ""
        )

    def _paint(self, t: Trace | None) -> None:
        """Show the board of `rules`, animating `t` (the click just made) if there is one."""
        with self.hold_sync():
            self.flags = self.rules.flags.astype(np.uint8).tobytes()
            self.show_mines = self.rules.lost
            if t is None:
                self.show_board(np.array(self.rules.board))
            else:
                self.show(t)

    def _offline(self) -> dict:
        """A page with no kernel plays this game by looking each click up (`game_table`): the
        board in play, and for a new game the same board again (a random board: the one Python
        lays for each first click, while the board has at most `FIRST_CLICKS_MOST` cells)."""
        rules = self.rules
        if rules._given is not None:
            boards, first = [_hidden(rules._given)], None
        else:
            n = rules.rows * rules.cols
            middle = divmod(n // 2, rules.cols)
            laid = [divmod(i, rules.cols) for i in range(n)] if n <= FIRST_CLICKS_MOST else [middle]
            boards = [
                random_board(rules.rows, rules.cols, rules.mines, seed=rules.seed, safe=c) for c in laid
            ]
            first = list(range(n)) if n <= FIRST_CLICKS_MOST else [0] * n
        board = 0 if rules._given is not None else -1
        if rules.started and rules._given is None:
            boards.append(_hidden(rules.board))
            board = len(boards) - 1
        table = {
            "boards": [game_table(b) for b in boards],
            "first": first,
            "board": board,
            "now": tile_codes(np.array(rules.board)).ravel().tolist(),
            "flags": rules.flags.astype(int).ravel().tolist(),
            "lost": rules.lost,
            "won": rules.won,
            "mines": rules.mines,
            "said": self._said,
        }
        return {"kind": "game", "table": table}

    @_reports_errors
    def _clicked(self, r: int, c: int) -> None:
        self.click(r, c)

    @_reports_errors
    def _flagged(self, r: int, c: int) -> None:
        self.flag(r, c)

    @_reports_errors
    def _restart(self) -> None:
        self.new_game()


#: The most cells of a random game whose page carries a board for every first click (the first
#: click is safe, so the mines depend on it); a larger one carries the board laid for its middle cell.
FIRST_CLICKS_MOST = 100


def _hidden(board) -> list[str]:
    """A board as it was before any click: every uncovered cell hidden again (a mine as M)."""
    return ["".join("M" if s in "MX" else "E" for s in row) for row in board]


@speaks
def game(rows: int = 9, cols: int = 9, mines: int = 10, *, seed=None, board=None, animate=True) -> Game:
    """Return a playable board.

    Parameters
    ----------
    rows, cols, mines : int
        The size of a random board and its number of mines (the classic
        beginner's 9 x 9 with 10 by default; expert is 16 x 30 with 99). The
        mines are laid at the first click, which is always safe.
    seed : int, optional
        The same seed gives the same mines for the same first click.
    board : board-like, optional
        Play this board instead (its size and mines are used).
    animate : bool
        Animate each click's flood fill in the browser.

    Examples
    --------
    >>> import msviz
    >>> g = msviz.game(board=["EEE", "EEM"], animate=False)
    >>> g.click(0, 0)
    >>> g.board
    [['B', '1', 'E'], ['B', '1', 'M']]
    """
    return Game(rows, cols, mines, seed=seed, board=board, animate=animate)
