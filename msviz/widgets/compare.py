"""The comparison: depth-first and breadth-first of one click side by side, one control bar."""

from __future__ import annotations

import numpy as np

from ..i18n import in_own_language, speaks
from ..trace import Trace, trace
from ..trace import checked as checked_trace
from ..traversal import READING_ORDER
from ..view import BoardView, board_picture
from ..viewstate import view_state
from ..words import TITLES
from ._common import _playing

__all__ = ["Compare", "compare"]
from .player import _caption, _replay_of


class Compare(BoardView):
    """DFS and BFS of one click side by side, driven by one control bar.

    Build it with :func:`compare`. It is one board view whose first board is
    `dfs` and whose second (in `others`) is `bfs`; `step`, `mode`, `fps`,
    `per_frame` and `playing` move both. A side whose reveal is shorter holds
    its last step.
    """

    def __init__(self, dfs: Trace, bfs: Trace, *, max_cell: int = 24, titles=None):
        self.dfs, self.bfs = dfs, bfs = checked_trace(dfs), checked_trace(bfs)
        titles = titles or (TITLES[dfs.order], TITLES[bfs.order])
        steps = max(len(dfs), len(bfs))
        second = {**self._state(bfs.shape, view_state(bfs)), "title": titles[1], "generation": 1}
        super().__init__(
            dfs,
            step=0 if steps else -1,
            title=titles[0],
            max_cell=max_cell,
            others=[second],
            **_playing(steps),
        )

    @property
    def traces(self) -> tuple[Trace, Trace]:
        """The two reveals shown, left and right."""
        return self.dfs, self.bfs

    @property
    @in_own_language
    def captions(self) -> tuple[str, str]:
        """What happens at the step shown on each side, in words."""
        return tuple(_caption(t, self.mode, self.step) for t in (self.dfs, self.bfs))

    def picture(self) -> np.ndarray:
        """Both boards at the position shown, side by side, as one RGB image."""
        left = super().picture()
        right = board_picture(self.bfs, self._board(1))
        height = max(left.shape[0], right.shape[0])
        pad = [
            np.pad(x, ((0, height - x.shape[0]), (0, 12), (0, 0)), constant_values=255) for x in (left, right)
        ]
        return np.hstack(pad)


@speaks
def compare(board, click=None, *, neighbors=READING_ORDER, max_cell: int = 24) -> Compare:
    """Return a widget showing DFS and BFS of the same click, driven by one control bar.

    Given a student's run recorded by :func:`msviz.record` in place of the
    board and click, show it beside the textbook reveal of the same order
    (the recursive depth-first one, or the queue's breadth-first one).

    Examples
    --------
    >>> import msviz
    >>> c = msviz.compare(["EEE", "EEM"], (0, 0))
    >>> c.last_step, c.order, c.others[0]["order"]
    (3, 'dfs', 'bfs')
    >>> c.step = 2
    >>> c.captions[1][:21]
    'step 2: (1, 0), reach'

    """
    if _replay_of(board) is not None:
        if click is not None:
            raise TypeError(f"a Recording needs no click: it has its own, {board.click}")
        textbook = trace(board.board, board.click, order=board.order, neighbors=neighbors)
        return Compare(
            board.replay, textbook, max_cell=max_cell, titles=(TITLES["yours"], TITLES[board.order])
        )
    return Compare(
        trace(board, click, order="dfs", neighbors=neighbors),
        trace(board, click, order="bfs", neighbors=neighbors),
        max_cell=max_cell,
    )
