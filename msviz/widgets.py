"""The widgets: a step-through player, DFS vs BFS side by side, a game, a quiz.

Each is one `msviz.view.BoardView` (an anywidget) that draws its own controls
in the browser: Play and Pause, steps back and on, first and last, a scrub bar
with the step number, speed, steps a frame and what one step is (a revealed
cell, or every event). Play runs on the browser's own clock, so it keeps its
pace with no kernel, and there are no ipywidgets around the board: the same
widget shows in JupyterLab, Notebook 6 and 7, VS Code, Colab, Voila and marimo
(``mo.ui.anywidget(msviz.player(t))``). The step, speed, mode and whether it
plays are traits that Python reads and sets (``p.step = 40`` moves the view);
``ipywidgets.jslink`` to a slider still works where ipywidgets run.

Errors raised inside a callback (a cell clicked, the restart button) are shown
in the widget itself, under the board (its `error` trait).
"""

from __future__ import annotations

import functools
import traceback

import numpy as np
import traitlets

from . import _checks
from .i18n import in_own_language, speaks
from .rules import Minesweeper
from .trace import Trace, trace
from .trace import checked as checked_trace
from .traversal import READING_ORDER
from .view import BoardView, board_picture
from .viewstate import view_state
from .words import TITLES, caption, event_caption, fill

__all__ = ["Player", "Compare", "Game", "player", "compare", "game", "caption"]

PLAY_SECONDS = 20  # at the default speed, a reveal plays in about this long
FPS = 10  # the default speed, frames a second


def _reports_errors(method):
    """Make a widget callback show its exception in the widget (its `error` trait)."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except Exception:
            self.error = traceback.format_exc()
            return None

    return wrapper


def _playing(steps: int) -> dict:
    """The control bar's traits for a reveal of `steps` steps: it plays in about PLAY_SECONDS."""
    return {
        "controls": True,
        "fps": FPS,
        "per_frame": max(1, round(steps / (PLAY_SECONDS * FPS))),
        "last_step": max(steps - 1, 0),
    }


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
    from .solutions import DEFAULT, ORDER_OF, SOURCES

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

    @_reports_errors
    def _clicked(self, r: int, c: int) -> None:
        self.click(r, c)

    @_reports_errors
    def _flagged(self, r: int, c: int) -> None:
        self.flag(r, c)

    @_reports_errors
    def _restart(self) -> None:
        self.new_game()


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


# ---- the quiz: predict the next cell ----------------------------------------------

from .words import (  # noqa: E402
    QUIZ_NOT_A_TRY,
    QUIZ_RIGHT,
    quiz_asks_return,
    quiz_judge,
    quiz_rule,
    quiz_score,
    quiz_verdict,
)

__all__ += ["Quiz", "quiz"]


class Quiz(BoardView):
    """Predict the next cell: the board shows a reveal before its next step; click the cell you expect.

    Build it with :func:`quiz`. A click on the board is a guess, judged in the
    browser with no round-trip to the kernel: depth-first, only the exact cell
    of the next call counts; breadth-first, any hidden cell of the next cell's
    layer does (the view says which rule applies). Depth-first, when a call
    returns before the next call, the quiz first asks whose call goes on: a
    click on the cell of that call, on the stack's path. The view says right
    or wrong, shows the true next step, and keeps the score, which `score`
    reads back; "Start again" goes back to the first step with a score of 0.

    It is one board view, in quiz mode: `trace` is the reveal, `step` the step
    shown (the guess asked for is the cell of the step after it), and
    :meth:`guess` makes a guess from Python, as a click does in the browser.
    """

    def __init__(self, t: Trace, *, max_cell: int = 32, guesses: int | None = None):
        t = checked_trace(t, name="the reveal")
        first = 0 if len(t) else -1
        #: The last step asked for: the reveal's last, or where `guesses` questions (calls and
        #: returns) are asked.
        self.last_question = len(t) - 1 if guesses is None else _last_step_within(t, first, guesses)
        # The click's own cell is given: the first guess is the step after it. Breadth-first,
        # the queue drawn would give the answer away (its front is the next cell), so it is hidden.
        super().__init__(
            t,
            step=first,
            quiz=True,
            quiz_last=self.last_question,
            keyboard=False,
            max_cell=max_cell,
            show_frontier=t.order == "dfs",
            restart=fill("quiz_start_again"),
        )
        self.on_restart(self._restart)

    @property
    def view(self) -> BoardView:
        """The board view: the quiz itself (kept for code written when the two were apart)."""
        return self

    @property
    def _first(self) -> int:
        """The step shown at the start: the click's own cell (-1 when it reveals nothing)."""
        return 0 if len(self.trace) else -1

    @property
    def score(self) -> tuple[int, int]:
        """The score as ``(right, tries)``: the guesses that counted, and all guesses made."""
        return self.quiz_right, self.quiz_tries

    @property
    def returning(self) -> bool:
        """Whether the question now is whose call goes on after a return (depth-first), not the next call."""
        return not self.over and quiz_asks_return(self.trace, self.step) and not self.quiz_returned

    @property
    @in_own_language
    def question(self) -> str:
        """Say the question asked now: the rule of the next call, or whose call goes on after a return."""
        if not self.returning:
            return quiz_rule(self.trace.order)
        cell = self.trace.visit(self.step)
        return fill("quiz_return_ask", row=cell.row, col=cell.col)

    @property
    def over(self) -> bool:
        """Whether the quiz has no step left to ask (at the end of the reveal, or of its questions)."""
        return self.step >= self.last_question

    @in_own_language
    def guess(self, row: int, col: int) -> str:
        """Guess that cell (row, col) is revealed next, as a click on the board does; return the verdict.

        When the question is a return (`returning`), the guess is the call that
        goes on. A guess of a cell already uncovered (of a hidden cell, for a
        return) is not counted. Once the quiz is over, the final score is
        returned and nothing changes.
        """
        row = _checks.whole_number("row", row)
        col = _checks.whole_number("col", col)
        rows, cols = self.trace.shape
        if not (0 <= row < rows and 0 <= col < cols):
            raise ValueError(f"cell ({row}, {col}) is outside the {rows}x{cols} board")
        right, tries = self.score
        if self.over:
            return quiz_score(right, tries, over=True, cut=self.last_question < len(self.trace) - 1)
        k, returning = self.step, self.returning
        kind = quiz_judge(self.trace, k, row, col, returning=returning)
        if kind not in QUIZ_NOT_A_TRY:
            with self.hold_sync():
                self.quiz_right = right + (kind in QUIZ_RIGHT)
                self.quiz_tries = tries + 1
                self.quiz_returned = returning  # answered; after a call, the next step asks afresh
                if not returning:
                    self.step = k + 1
        return quiz_verdict(self.trace, k, row, col, returning=returning)

    def start_again(self) -> None:
        """Go back to the first step, with a score of 0."""
        with self.hold_sync():
            self.quiz_right = self.quiz_tries = 0
            self.quiz_returned = False
            self.step = self._first

    @_reports_errors
    def _restart(self) -> None:
        self.start_again()


def _last_step_within(t: Trace, first: int, guesses: int) -> int:
    """The last step of `t` reached when at most `guesses` questions are asked (a return counts as one)."""
    k, asked = first, 0
    while k < len(t) - 1:
        asked += 1 + quiz_asks_return(t, k)
        if asked > guesses:
            break
        k += 1
    return k


@speaks
def quiz(
    board,
    click,
    *,
    order: str = "dfs",
    neighbors=READING_ORDER,
    max_cell: int = 32,
    guesses: int | None = None,
) -> Quiz:
    """Return a quiz on one click's reveal: predict each next cell, and keep a score.

    Parameters
    ----------
    board, click, neighbors
        As for :func:`msviz.dfs_reveal`. The board is never changed.
    order : {"dfs", "bfs"}
        The traversal to predict: depth-first, the exact next call counts;
        breadth-first, any hidden cell of the next cell's layer.
    max_cell : int
        The largest side of a cell in pixels; cells shrink to fit the width.
    guesses : int, optional
        Ask at most this many questions (a short quiz for class); depth-first,
        each return before a next call is a question too. By default the quiz
        asks up to the reveal's last step.

    Examples
    --------
    >>> import msviz
    >>> short = msviz.quiz(["EEEE", "EEEE", "EEEM"], (0, 0), guesses=2)
    >>> short.guess(0, 1), short.guess(1, 0)[:9], short.over
    ('Right: (0, 1) is next.', 'Not this ', True)
    >>> short.guess(2, 2)
    'That was the last question: you predicted 1 of 2 steps.'
    >>> d = msviz.quiz(["EEE", "EEM"], (0, 0))
    >>> d.guess(0, 1), d.returning  # (0, 1) is a digit: its call returns
    ('Right: (0, 1) is next.', True)
    >>> d.question[:44]
    'The call on (0, 1) has nothing left to call '
    >>> d.guess(0, 0), d.returning, d.score
    ('Right: the calls return to (0, 0), which makes the next call.', False, (2, 2))
    >>> q = msviz.quiz(["EEE", "EEM"], (0, 0), order="bfs")
    >>> q.step, q.score
    (0, (0, 0))
    >>> q.guess(1, 1)  # not the next cell, but of its layer: it counts
    'Right: (1, 1) is in the same layer; the queue takes (0, 1) first.'
    >>> q.guess(0, 2)
    "Not this one: (0, 2) is not in the next cell's layer; the queue takes (1, 0) next."
    >>> q.step, q.score
    (2, (1, 2))
    """
    max_cell = _checks.px(max_cell, name="max_cell")  # before the trace is made
    if guesses is not None:
        guesses = _checks.whole_number("guesses", guesses, least=1)
    return Quiz(trace(board, click, order=order, neighbors=neighbors), max_cell=max_cell, guesses=guesses)


# ---- be the computer: the reveal carried out by hand, each operation judged in the kernel ----------

import random  # noqa: E402

from .render import state_image, tile_size  # noqa: E402
from .simulation import Simulation, Step, _made  # noqa: E402
from .viewstate import simulation_state  # noqa: E402
from .words import SIMULATE, simulate_fill  # noqa: E402

__all__ += ["Simulate", "simulate", "carried_out"]

#: The sides of a random simulation's board (`simulate` with no board): 6 x 6 to 8 x 8.
SIDES = (6, 8)
#: What a key says a cell shows (B or 0: a blank; X: a mine), and the other operations' keys.
SAY_KEYS = {"b": "B", "0": "B", **{d: d for d in "12345678"}, "x": "X"}
OPERATION_KEYS = {"r": "back", "u": "undo", "backspace": "undo"}
#: The model answer plays at this many events a second once the simulation is over.
MODEL_FPS = 4


def _at(cell) -> str:
    return f"({cell[0]}, {cell[1]})" if cell is not None else ""


def _between(before: dict, after: dict) -> tuple:
    """The one operation that took a simulation from state `before` to state `after`."""
    if len(after["revealed"]) > len(before["revealed"]):
        return ("say", next(reversed(after["revealed"].values())))
    if len(after["stack"]) != len(before["stack"]):
        return ("call", after["stack"][-1]) if len(after["stack"]) > len(before["stack"]) else ("back", None)
    if len(after["queue_"]) > len(before["queue_"]):
        return ("queue", after["queue_"][-1])
    return ("take", before["queue_"][0])


def carried_out(sim: Simulation) -> list[tuple]:
    """The operations carried out on `sim` so far (undone ones gone), in order, as ``(name, value)``.

    Read from its history, so that the view follows the simulation however it was driven.

    Examples
    --------
    >>> from msviz.simulation import Simulation
    >>> sim = Simulation(["EEE", "EEM"], (0, 0), order="bfs")
    >>> sim.take((0, 0)).right, sim.say(2).right, sim.queue((0, 1)).right
    (True, False, True)
    >>> carried_out(sim)
    [('take', (0, 0)), ('say', 'B'), ('queue', (0, 1))]
    """
    now = {"revealed": sim.revealed, "queue_": sim.queue_, "stack": sim.stack}
    states = [*sim.history, now]
    return [_between(a, b) for a, b in zip(states, states[1:])]


def _done_words(done: tuple, current, top) -> str:
    """Say operation `done` as the engine says a right one; `current` is the cell a say is about,
    `top` the call a return ends (each as it was before the operation)."""
    name, value = done
    cell = current if name == "say" else top if name == "back" else value
    return SIMULATE["right_" + name].format(
        cell=_at(cell), value=value if isinstance(value, str) else "", front=""
    )


class Simulate(BoardView):
    """Be the computer: the student carries out the reveal by hand, each operation judged by the kernel.

    Build it with :func:`simulate`. It is one board view: the board shows the
    simulation's true state (a cell shows its symbol once it has been said), the
    queue numbered from its front or the stack's path from the click, and under
    the board the queue or the stack as a strip, the choices of what a cell
    shows, Return (depth-first) and Undo, the verdict and the score.

    A click on a cell is the operation it can be: breadth-first, a cell in the
    queue is taken, any other hidden cell is queued; depth-first, a hidden cell
    is called. The keys say what a cell shows (B or 0, 1 to 8, X), return (R)
    and undo (U or Backspace); the arrows move a cursor whose Enter clicks.
    Every operation is judged here, in Python, by `simulation` (a
    `msviz.Simulation`): a wrong one is said wrong with its reason and set
    right. Once the reveal is over the view plays the model answer: the
    algorithm's own reveal, event by event, with its code; Undo goes back.

    Each operation is also a method, returning the `msviz.simulation.Step`
    the view shows: :meth:`take`, :meth:`say`, :meth:`queue`, :meth:`call`,
    :meth:`back`, :meth:`undo`.
    """

    def __init__(self, simulation: Simulation, *, max_cell: int = 32):
        if not isinstance(simulation, Simulation):
            raise TypeError(f"a Simulate needs a msviz.Simulation, not {type(simulation).__name__}")
        #: The rules engine: the state of the reveal, and the judge of every operation.
        self.simulation = simulation
        #: How many operations (and refusals) the view has answered.
        self.answered = 0
        #: The verdict shown, and its kind ("right", "wrong", "refused", "undone"; "" before any).
        self.verdict, self.kind = simulate_fill("start"), ""
        self._model_shown = False
        state = self._state(simulation.shape, simulation_state(simulation, []))
        super().__init__(
            **state,
            generation=1,
            step=len(state["event_label"]) - 1,
            keyboard=False,  # the keys move a cursor and say: see `by_hand`
            show_caption=False,  # a caption would tell what a cell shows before it is said
            max_cell=max_cell,
            title=self._title("title"),
        )
        self.mode = "events"  # an operation is an event: a call or return, an enqueue or dequeue
        self._publish()

    # ---- what the student does -------------------------------------------------------------------

    @in_own_language
    def take(self, cell) -> Step:
        """Breadth-first: take `cell` from the queue (it must be the front); return the verdict."""
        return self._operate("take", cell)

    @in_own_language
    def call(self, cell) -> Step:
        """Depth-first: call the reveal on `cell`; return the verdict."""
        return self._operate("call", cell)

    @in_own_language
    def say(self, value) -> Step:
        """Say what the cell taken or called shows: ``"B"`` (or 0) or a digit; return the verdict."""
        return self._operate("say", value)

    @in_own_language
    def back(self) -> Step:
        """Depth-first: return from the call on top (it has nothing left to do); return the verdict."""
        return self._operate("back", None)

    @in_own_language
    def queue(self, cells) -> Step:
        """Breadth-first: put `cells` (a cell, or several in turn) into the queue; return the verdict
        shown: the first wrong one, else the last. Every cell is checked before any is queued."""
        many = isinstance(cells, (list, tuple)) and len(cells) > 0 and not _checks.is_integer(cells[0])
        if not many:
            return self._operate("queue", cells)
        cells = [_checks.click(cell, self.simulation.shape, name="cell") for cell in cells]
        judged = [self._judge("queue", cell) for cell in cells]
        step, verdict = next((j for j in judged if not j[0].right), judged[-1])
        self._answer("right" if step.right else "wrong", verdict, moved=True)
        return step

    @in_own_language
    def undo(self) -> Step:
        """Take back the last operation (its step keeps its first try); return what the view says.

        The Step is right when an operation was taken back; its `done` is ``("undo", operation)``.
        """
        sim = self.simulation
        ops = carried_out(sim)
        if not sim.undo():
            step = Step(False, simulate_fill("nothing_to_undo"), False, ("undo", None))
            self._answer("refused", step.reason, moved=False)
            return step
        top = sim.stack[-1] if sim.stack else None
        reason = simulate_fill("undone", done=_done_words(ops[-1], sim.current, top))
        step = Step(True, reason, False, ("undo", ops[-1]))
        self._answer("undone", reason, moved=True)
        return step

    # ---- how it stands ---------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the reveal is done (the view then plays the model answer)."""
        return self.simulation.over

    @property
    def score(self) -> tuple[int, int]:
        """``(right, tried)``: the steps right at the first try, and the steps tried."""
        return self.simulation.right, self.simulation.tried

    # ---- judged here -----------------------------------------------------------------------------

    def _judge(self, name: str, value) -> tuple[Step, str]:
        """Carry out one operation on the simulation; return its Step and the verdict in words."""
        sim = self.simulation
        current, top = sim.current, (sim.stack[-1] if sim.stack else None)
        step = sim.back() if name == "back" else getattr(sim, name)(value)
        words = simulate_fill(
            "right" if step.right else "wrong",
            reason=step.reason,
            done=_done_words(step.done, current, top),
        )
        return step, words + ("" if step.counted else simulate_fill("not_counted"))

    def _operate(self, name: str, value) -> Step:
        step, verdict = self._judge(name, value)
        self._answer("right" if step.right else "wrong", verdict, moved=True)
        return step

    def _handle(self, content) -> None:
        """An operation from the browser, judged as the same call from Python is. Anything that is
        not one (a cell off the board, an operation of the other order, garbage) is refused with the
        reason shown in the view and counts for nothing; nothing raises in the kernel."""
        try:
            name, value = self._read(content)
            if name == "undo":
                self.undo()
            else:
                self._operate(name, value)
        except (TypeError, ValueError) as refused:
            self._answer("refused", simulate_fill("refused", why=str(refused)), moved=False)
        except Exception:  # a fault of msviz's own: shown under the board, never raised in the kernel
            self.error = traceback.format_exc()

    def _read(self, content) -> tuple[str, object]:
        """The operation a message from the browser asks for, ``(name, value)``; ValueError if none."""
        garbage = ValueError(simulate_fill("not_a_message", what=_checks.clip(content)))
        if not isinstance(content, dict):
            raise garbage
        event = content.get("event")
        if event in ("click", "flag"):  # a cell: the operation a click on it can be
            row, col = content.get("row"), content.get("col")
            if not (type(row) is int and type(col) is int):  # JSON's true and false are not cells
                raise garbage
            return self._operation_at(self._on_board(row, col))
        name, value = content.get("name"), content.get("value")
        if event != "operation" or name not in ("take", "call", "queue", "say", "back", "undo"):
            raise garbage
        if name in ("take", "call", "queue"):
            if not (isinstance(value, list) and len(value) == 2 and all(type(x) is int for x in value)):
                raise garbage
            return name, self._on_board(*value)
        if name == "say" and not isinstance(value, str):
            raise garbage
        return name, value

    def _on_board(self, row: int, col: int) -> tuple[int, int]:
        """Cell (row, col) of a message from the browser; ValueError, said in the view, if off the board."""
        rows, cols = self.simulation.shape
        if not (0 <= row < rows and 0 <= col < cols):
            raise ValueError(simulate_fill("off_board", row=row, col=col, rows=rows, cols=cols))
        return row, col

    def _operation_at(self, cell) -> tuple[str, tuple]:
        """What a click on `cell` does: take it from the queue or queue it (breadth-first), call it
        (depth-first). A cell uncovered, or being revealed, is no operation (ValueError)."""
        sim = self.simulation
        if sim.over:
            raise ValueError(SIMULATE["over"])
        if cell == sim.current:
            raise ValueError(simulate_fill("being_revealed", cell=_at(cell)))
        if cell in sim.revealed:
            raise ValueError(simulate_fill("uncovered", cell=_at(cell)))
        if sim.order == "dfs":
            return "call", cell
        return ("take" if cell in sim.queue_ else "queue"), cell

    # ---- shown -----------------------------------------------------------------------------------

    def _answer(self, kind: str, verdict: str, *, moved: bool) -> None:
        """Show a verdict of `kind`, and (`moved`) the simulation's new state, all at once."""
        self.answered += 1
        self.verdict, self.kind = verdict, kind
        with self.hold_sync():
            if self.over and not self._model_shown:
                self._show_model()
            elif moved and not self.over:
                self._show_simulation()
            self._publish()

    def _title(self, name: str) -> str:
        return simulate_fill(name, order=TITLES[self.simulation.order])

    def _show_simulation(self) -> None:
        """The board as the simulation stands: its operations drawn as a reveal's events."""
        sim = self.simulation
        state = simulation_state(sim, carried_out(sim))
        self.playing = self.controls = self.keyboard = self.show_caption = False
        self.show_code(None)
        self._send_state(sim.shape, state, len(state["event_label"]) - 1)
        self.trace = None
        self.title = self._title("title")
        self._model_shown = False

    def _show_model(self) -> None:
        """The model answer: the algorithm's own reveal, played event by event with its code."""
        sim = self.simulation
        t = trace(sim.board, sim.click, order=sim.order, neighbors=sim.neighbors)
        self.show(t, step=0)
        self.show_code(_check_code(None, sim.order))
        self.title = self._title("title_model")
        self.show_caption = self.keyboard = True
        self.fps, self.per_frame, self.last_step = MODEL_FPS, 1, max(t.events - 1, 0)
        self.controls = self.playing = True
        self._model_shown = True

    def _rule(self) -> str:
        sim = self.simulation
        if sim.any:
            order = simulate_fill("neighbours_any")
        elif tuple(sim.neighbors) == tuple(READING_ORDER):
            order = simulate_fill("neighbours_reading")
        else:
            order = simulate_fill("neighbours_given", order=", ".join(map(str, sim.neighbors)))
        return simulate_fill(f"rule_{sim.order}") + order

    def _buttons(self) -> tuple[list, dict]:
        """The buttons the view draws, and its keys: each a message the view sends as it is."""
        sim = self.simulation
        buttons, keys = [], {}
        if not sim.over:
            for key, symbol in SAY_KEYS.items():
                keys[key] = {"name": "say", "value": symbol}
            for symbol in ("B", *"12345678", "X"):
                name = "say_blank" if symbol == "B" else "say_mine" if symbol == "X" else "say_digit"
                label = simulate_fill(name, value=symbol)
                buttons.append({"text": symbol, "label": label, "send": {"name": "say", "value": symbol}})
            if sim.order == "dfs":
                buttons.append(
                    {
                        "text": simulate_fill("back"),
                        "label": simulate_fill("back_name"),
                        "send": {"name": "back"},
                    }
                )
                keys["r"] = {"name": "back"}
        buttons.append(
            {"text": simulate_fill("undo"), "label": simulate_fill("undo_name"), "send": {"name": "undo"}}
        )
        keys.update({key: {"name": "undo"} for key, name in OPERATION_KEYS.items() if name == "undo"})
        return buttons, keys

    def _publish(self) -> None:
        """Send what the view's simulation part shows (`by_hand`): every word filled here."""
        sim = self.simulation
        waiting = list(sim.queue_) if sim.order == "bfs" else list(sim.stack)
        buttons, keys = self._buttons()
        right, tried = self.score
        score = (
            simulate_fill("score_over", right=right, steps=sim.step)
            if sim.over
            else simulate_fill("score", right=right, tried=tried)
        )
        self.by_hand = {
            "order": sim.order,
            "rule": "" if sim.over else self._rule(),  # the model answer has the room
            "strip": simulate_fill("queue" if sim.order == "bfs" else "stack", n=len(waiting)),
            "waiting": [list(cell) for cell in waiting],
            "empty": simulate_fill("empty"),
            "current": None if sim.current is None else list(sim.current),
            "group": simulate_fill("choices"),
            "buttons": buttons,
            "keys": keys,
            "keys_text": simulate_fill(f"keys_{sim.order}"),
            "verdict": self.verdict,
            "kind": self.kind,
            "score": score,
            "right": right,
            "tried": tried,
            "over": sim.over,
            "answered": self.answered,
        }

    def picture(self) -> np.ndarray:
        """The position shown as an RGB image: the model answer's step, or the simulation as it stands."""
        if self.trace is not None:
            return super().picture()
        sim = self.simulation
        board = np.array(sim.board)
        frontier = np.zeros(sim.shape, dtype=bool)
        for cell, symbol in sim.revealed.items():
            board[cell] = symbol
        for cell in sim.queue_ if sim.order == "bfs" else sim.stack:
            frontier[cell] = True
        px = tile_size(sim.shape, width_px=480)
        return state_image(board, current=sim.current, frontier=frontier, order=sim.order, px=px)


def _random_simulation(seed, order: str, neighbors) -> Simulation:
    """A simulation on a random board of `SIDES` whose click opens 8 to 25 cells, drawn from `seed`."""
    order = _checks.order(order)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (str, int))):
        raise TypeError(f"seed must be a name (str) or a number (int), not {type(seed).__name__}")
    rng = random.Random(None if seed is None else f"msviz simulate: {seed}")
    while True:
        made = _made(rng, order)  # a board of 5 x 5 to 8 x 8 whose click opens SET_OPENS cells
        if min(made.shape) >= SIDES[0] and max(made.shape) <= SIDES[1]:
            return Simulation(made.board, made.click, order=order, neighbors=neighbors)


@speaks
def simulate(
    board=None, click=None, *, order: str = "bfs", neighbors=READING_ORDER, seed=None, max_cell: int = 32
) -> Simulate:
    """Return "Be the computer": the student carries out the reveal by hand, each operation judged at once.

    Breadth-first, the student takes the queue's front (a click on it), says
    what it shows (B or a digit: a button or a key) and, for a blank, queues
    its hidden neighbours (a click on each). Depth-first, the recursive
    solution: the student calls the next cell (a click), says what it shows,
    and returns (R, or Return) when a call has nothing left to do. The kernel
    judges each operation with `msviz.Simulation`; a wrong one is said wrong,
    with the reason, and set right. At the end the view shows the steps right
    at the first try out of all, and plays the model answer.

    Parameters
    ----------
    board, click
        As for :func:`msviz.reveal` (the board is never changed). With neither,
        a random board of 6 x 6 to 8 x 8 whose click opens 8 to 25 cells. Or,
        alone, a `msviz.Simulation` to show as it is, such as one of a
        homework set's (``msviz.simulate(sims[0])``, `msviz.simulation_set`):
        what is done in the view is done in it, and ``sims.line(0)`` is then
        the line to keep.
    order : {"bfs", "dfs"}
    neighbors : sequence of (dr, dc) or "any"
        The neighbour order of the exercise (reading order by default), or
        ``"any"`` to accept every order of that kind.
    seed : int or str, optional
        The random board's seed: the same seed gives the same board (for
        either order). Only without a board.
    max_cell : int
        The largest side of a cell in pixels; cells shrink to fit.

    Examples
    --------
    >>> import msviz
    >>> sim = msviz.simulate(["EEE", "EEM"], (0, 0), order="bfs")
    >>> sim.take((0, 0)).reason
    "(0, 0) is the queue's front: it is taken"
    >>> step = sim.say(1)
    >>> step.right, step.reason
    (False, '(0, 0) shows B, not 1: no mine is around it')
    >>> sim.by_hand["verdict"]
    'Wrong: (0, 0) shows B, not 1: no mine is around it. Instead: (0, 0) shows B.'
    >>> sim.queue([(0, 1), (1, 0), (1, 1)]).right, sim.by_hand["waiting"]
    (True, [[0, 1], [1, 0], [1, 1]])
    >>> sim.score
    (4, 5)
    >>> msviz.simulate(seed=7).simulation.board == msviz.simulate(seed=7, order="dfs").simulation.board
    True
    """
    max_cell = _checks.px(max_cell, name="max_cell")
    if isinstance(board, Simulation):  # one of a homework set's (msviz.simulation_set): shown as it is
        if click is not None or seed is not None:
            raise TypeError("a simulation has its own board and click: give it alone")
        return Simulate(board, max_cell=max_cell)
    if board is None:
        if click is not None:
            raise TypeError("a click needs its board: give both, or neither for a random board")
        return Simulate(_random_simulation(seed, order, neighbors), max_cell=max_cell)
    if seed is not None:
        raise TypeError("seed draws a random board: give a board and a click, or a seed, not both")
    if click is None:
        raise TypeError("a board needs its click: simulate(board, (row, col))")
    return Simulate(Simulation(board, click, order=order, neighbors=neighbors), max_cell=max_cell)
