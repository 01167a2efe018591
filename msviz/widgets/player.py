"""The player: step through one reveal, with its own controls, caption and code."""

from __future__ import annotations

import traitlets

from .. import _checks
from ..i18n import in_own_language, speaks
from ..trace import Trace, trace
from ..trace import checked as checked_trace
from ..traversal import READING_ORDER
from ..view import BoardView
from ..words import caption, event_caption, fill
from ._common import _playing, _reports_errors

__all__ = ["Player", "player", "caption"]


class Player(BoardView):
    """Step through one reveal: its own controls, and the board with its caption and code.

    Build it with :func:`player`. It is the board view itself: `step` reads or
    sets the step shown, `mode` what one step is, `fps` and `per_frame` the
    speed, `playing` whether it plays; `trace` is the reveal and `caption`
    says the step in words.
    """

    def __init__(self, t: Trace, *, max_cell: int = 32, code=None):
        t = checked_trace(t, name="the reveal")
        # A student's run cannot be edited: its reveal comes from their code, not from the rules.
        editable = t.written is None
        super().__init__(
            t, step=0 if len(t) else -1, max_cell=max_cell, editable=editable, **_playing(len(t))
        )
        self.show_code(_check_code(code, t.order))
        self.on_edit(self._edited)

    # ---- the board and the click, which Python and the "Edit the board" switch may change
    @property
    def board(self) -> list[list[str]]:
        """The board before the click (a new list each time). Setting it shows the new board's
        reveal from the same click, at the same step where it has one; a bad board raises the
        ValueError or TypeError `msviz.trace` would, and the player keeps its last good one.
        The list given is never changed."""
        return self.trace.board.tolist()

    @board.setter
    def board(self, board) -> None:
        self._reveal(board, self.trace.click)

    @property
    def click(self) -> tuple[int, int]:
        """The cell clicked, ``(row, col)``. Setting it shows the reveal from the new click."""
        return self.trace.click

    @click.setter
    def click(self, click) -> None:
        self._reveal(self.trace.board, click)

    def _reveal(self, board, click) -> None:
        """Show the reveal of `click` on `board` (the rules in Python), at the step shown if it has it."""
        if self.trace.written is not None:
            raise ValueError("a student's run cannot be edited: record their code again on the new board")
        t = trace(board, click, order=self.trace.order, neighbors=self.trace.neighbors)  # checks both
        last = (t.events if self.mode == "events" else len(t)) - 1  # a step or an event, as the mode has it
        with self.hold_sync():
            self.show(t, step=min(self.step, last))
            self.last_step = max(last, 0)

    @traitlets.observe("editing")
    @in_own_language
    def _editing_changed(self, change) -> None:
        self.status = fill("edit_on") if change["new"] else ""

    @_reports_errors
    @in_own_language
    def _edited(self, row: int, col: int, move: bool) -> None:
        """An edit from the browser: put or take away a mine on a hidden cell, or (`move`) click there."""
        board = self.trace.board.copy()
        if board[row, col] not in ("E", "M"):
            self.status = fill("edit_not_hidden", row=row, col=col)
            return
        if move:
            self.click = (row, col)
            said = "edit_moved"
        elif (row, col) == self.trace.click:  # its X would hide under the click's dot
            self.status = fill("edit_on") + " " + fill("edit_not_click", row=row, col=col)
            return
        else:
            board[row, col] = "M" if board[row, col] == "E" else "E"
            said = "edit_put" if board[row, col] == "M" else "edit_taken"
            self.board = board
        self.status = fill("edit_on") + " " + fill(said, row=row, col=col)

    @property
    def view(self) -> BoardView:
        """The board view: the player itself (kept for code written when the two were apart)."""
        return self

    @property
    @in_own_language
    def caption(self) -> str:
        """What happens at the position shown, in words (the caption under the board)."""
        return _caption(self.trace, self.mode, self.step)


def _caption(t: Trace, mode: str, position: int) -> str:
    """The caption of `position` in `mode` ("visits" or "events") of trace `t`."""
    if mode == "events":
        return event_caption(t, min(position, t.events - 1))
    return caption(t, min(position, len(t) - 1))


def _check_code(code, order: str):
    """Return the source to show for `order`: `code` checked, or the default one."""
    from ..solutions import DEFAULT, ORDER_OF, SOURCES

    if code is None or code is True:
        return DEFAULT[order]
    if code is False:
        return None
    if code not in SOURCES:
        raise ValueError(f"code must be one of {sorted(SOURCES)}, True or False, not {code!r}")
    if ORDER_OF[code] != order:
        raise ValueError(f"code {code!r} shows a {ORDER_OF[code]} reveal, not {order!r}")
    return code


@speaks
def player(
    board, click=None, *, order: str = "dfs", neighbors=READING_ORDER, max_cell: int = 32, code=None
) -> Player:
    """Return a widget that steps through one click's reveal.

    Parameters
    ----------
    board, click, neighbors
        As for :func:`msviz.dfs_reveal`. The board is never changed. Or, in
        place of the board and click, a `msviz.Trace`, or a student's run
        recorded by :func:`msviz.record` (shown with no code beside it).
    order : {"dfs", "bfs"}
        The traversal to show.
    max_cell : int
        The largest side of a cell in pixels; cells shrink to fit the width.
    code : {"recursive", "stack", "queue"} or bool, optional
        The solution shown beside the board, its running line highlighted:
        by default the recursive one for DFS and the queue one for BFS;
        ``"stack"`` for the explicit-stack DFS; False for none.

    Examples
    --------
    >>> import msviz
    >>> p = msviz.player(["EEE", "EEM"], (0, 0), order="bfs")
    >>> p.step = 2
    >>> p.view.step
    2
    >>> print(p.caption.replace("; ", ";\\n"))
    step 2: (1, 0), reached from (0, 0), has no adjacent mines, so it becomes B;
    0 neighbours queued;
    queue holds 1
    """
    max_cell = _checks.px(max_cell, name="max_cell")  # before the trace is made
    shown = _recorded(board, click)
    if shown is not None:
        return Player(shown, max_cell=max_cell, code=False if _replay_of(board) else code)
    return Player(trace(board, click, order=order, neighbors=neighbors), max_cell=max_cell, code=code)


def _replay_of(run) -> Trace | None:
    """A student's run as made, when `run` is one (what `msviz.record` gives: it has a `replay`
    trace); else None. Read by what it holds: the drawing side imports nothing of the grader."""
    replay = getattr(run, "replay", None) if not isinstance(run, (str, list, tuple, Trace)) else None
    return replay if isinstance(replay, Trace) else None


def _recorded(run, click):
    """The trace of `run` when it is a Trace or a student's recorded run (then with no click); else None."""
    shown = run if isinstance(run, Trace) else _replay_of(run)
    if shown is not None and click is not None:
        raise TypeError(f"a {type(run).__name__} needs no click: it has its own, {run.click}")
    return shown
