"""Controls around the board view: a step-through player, DFS vs BFS side by side, a game.

The board is a `msviz.view.BoardView`, drawn in the browser from the trace sent
once. The controls are core ipywidgets (`Play`, `IntSlider`, `Button`),
linked to the view's step in the browser with ``jslink``: dragging the slider,
pressing Play, or the keyboard (left/right, Home/End, space on the board) never
waits for the kernel. Speed goes up to 60 frames a second, and several steps a
frame make a long reveal play in under a minute.

Errors raised inside a callback (a button pressed, a cell clicked) are shown in
the widget itself, in an output area under the controls.
"""

from __future__ import annotations

import functools
import traceback

import ipywidgets as widgets
import numpy as np
import traitlets

from . import _checks
from .grade import Recording
from .render import PALETTE
from .rules import Minesweeper
from .trace import Trace, trace
from .trace import checked as checked_trace
from .traversal import READING_ORDER
from .view import BoardView, with_png
from .words import TITLES, caption, event_caption, fill

__all__ = ["Player", "Compare", "Game", "player", "compare", "game", "caption"]

PLAY_SECONDS = 20  # at the default speed, a reveal plays in about this long
_EVENTS_NAME = {
    frozenset({"dfs"}): "every call and return",
    frozenset({"bfs"}): "every enqueue and dequeue",
    frozenset({"dfs", "bfs"}): "every call and return / enqueue and dequeue",
}


def _reports_errors(method):
    """Make a widget callback show its exception in the widget's `errors` area."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except Exception:
            self.errors.layout.display = None
            self.errors.append_stdout(traceback.format_exc())
            return None

    return wrapper


def _errors_area() -> widgets.Output:
    return widgets.Output(layout=widgets.Layout(display="none", border=f"1px solid {PALETTE['error']}"))


class _Play(widgets.Play):
    """A Play whose moves the kernel does not echo back to the browser.

    While Play runs, the browser sends its moves to the kernel only twice a
    second (see `msviz.view.BoardView.linked`); an echo of an older move
    arriving after a newer local one would set the older one back.
    """

    value = traitlets.CInt(0).tag(sync=True, echo_update=False)
    playing = traitlets.Bool(False).tag(sync=True, echo_update=False)


class _Slider(widgets.IntSlider):
    """An IntSlider whose moves the kernel does not echo back (see `_Play`)."""

    value = traitlets.CInt(0).tag(sync=True, echo_update=False)


class _Stepping:
    """What the player and the comparison share: Play, a slider, step buttons, speed."""

    def _wire(self, views, steps: int) -> widgets.Box:
        """Make the controls, link them to `views` in the browser, and return them as one bar."""
        last = max(steps - 1, 0)
        fps = 10
        per_frame = max(1, round(steps / (PLAY_SECONDS * fps)))
        self.play = _Play(
            min=0,
            max=last,
            step=per_frame,
            interval=1000 // fps,
            description="Play",
            show_repeat=False,
            layout=widgets.Layout(width="88px"),
        )
        self.slider = _Slider(
            min=0,
            max=last,
            description="step",
            continuous_update=True,
            layout=widgets.Layout(flex="1 1 220px", min_width="220px"),
            style={"description_width": "initial"},
        )
        self.back = widgets.Button(
            icon="step-backward",
            tooltip="one step back (left arrow on the board)",
            layout=widgets.Layout(width="40px"),
        )
        self.forward = widgets.Button(
            icon="step-forward",
            tooltip="one step on (right arrow on the board)",
            layout=widgets.Layout(width="40px"),
        )
        self.speed = widgets.IntSlider(
            value=fps,
            min=1,
            max=60,
            description="frames/s",
            layout=widgets.Layout(width="170px"),
            style={"description_width": "initial"},
        )
        self.per_frame = widgets.IntSlider(
            value=per_frame,
            min=1,
            max=max(10, 2 * per_frame),
            description="steps/frame",
            layout=widgets.Layout(width="190px"),
            style={"description_width": "initial"},
        )
        self.links = [
            widgets.jslink((self.play, "value"), (self.slider, "value")),
            widgets.jslink((self.per_frame, "value"), (self.play, "step")),
        ]
        self._views = views
        for view in views:
            view.last_step = last
            self.links.append(widgets.jslink((self.slider, "value"), (view, "step")))
        self.links.append(widgets.jslink((self.speed, "value"), (views[0], "fps")))
        # The first view sets Play's speed, makes it end on the last step, and keeps the
        # kernel out of the loop while it plays.
        views[0].play = self.play
        views[0].linked = [self.play, self.slider, *views]
        for control in (self.play, self.slider, self.back, self.forward, self.speed, self.per_frame):
            control.disabled = steps == 0
        self.back.on_click(self._back)
        self.forward.on_click(self._forward)
        orders = {v.order for v in views}
        self.mode = widgets.Dropdown(
            options=[("one step per revealed cell", "visits"), (_EVENTS_NAME[frozenset(orders)], "events")],
            value="visits",
            disabled=steps == 0,
            tooltip="what one step of the slider is: a revealed cell, or one event of the traversal",
            layout=widgets.Layout(width="190px"),
        )
        self.mode.observe(self._switch, names="value")
        wrap = widgets.Layout(flex_flow="row wrap", align_items="center")
        return widgets.VBox(
            [
                # On a narrow screen the slider goes to a row of its own, as wide as the view.
                widgets.Box([self.play, self.back, self.forward, self.mode, self.slider], layout=wrap),
                widgets.Box([self.speed, self.per_frame], layout=wrap),
            ]
        )

    @_reports_errors
    def _switch(self, change) -> None:
        """Show the same moment in the other mode: a step as its event, an event as the step it belongs to."""
        t = self._traces[0]
        k = self.slider.value
        if change["new"] == "events":
            k = int(t.visit_event[min(k, len(t) - 1)]) if len(t) else 0
        elif t.events:
            k = int(t.event_step[min(k, t.events - 1)])
        for view in self._views:
            view.mode = change["new"]
        last = max(max(v.positions for v in self._views) - 1, 0)
        for view in self._views:
            view.last_step = last
        self.play.max = self.slider.max = last
        self.step = min(k, last)

    @property
    def step(self) -> int:
        """The step shown."""
        return self.slider.value

    @step.setter
    def step(self, k: int) -> None:
        # In a browser the links move the views too; set them here as well, so
        # that the kernel's copy agrees without one (and the PNG fallback shows k).
        with self.slider.hold_sync():
            self.slider.value = k
        for view in self._views:
            view.step = self.slider.value

    @_reports_errors
    def _back(self, _button) -> None:
        self.step = max(self.slider.min, self.slider.value - 1)

    @_reports_errors
    def _forward(self, _button) -> None:
        self.step = min(self.slider.max, self.slider.value + 1)


class Player(_Stepping, widgets.VBox):
    """Step through one reveal: Play, a slider, step buttons, speed, and the board with its caption.

    Build it with :func:`player`. The parts are attributes: `trace`, `view`
    (the board, drawn in the browser), `slider`, `play`, `back`, `forward`,
    `speed`, `per_frame`, `errors`; `step` reads or sets the step shown and
    `caption` says it in words.
    """

    def __init__(self, t: Trace, *, max_cell: int = 32, code=None):
        self.trace = t = checked_trace(t, name="the reveal")
        self.view = BoardView(t, step=0 if len(t) else -1, max_cell=max_cell)
        self.view.show_code(_check_code(code, t.order))
        self.errors = _errors_area()
        self._traces = [t]
        bar = self._wire([self.view], len(t))
        super().__init__([bar, self.view, self.errors])

    @property
    def caption(self) -> str:
        """What happens at the position shown, in words (the caption under the board)."""
        return _caption(self.trace, self.mode.value, self.step)

    def _repr_mimebundle_(self, **kwargs):
        return with_png(super()._repr_mimebundle_(**kwargs), self.view.picture())


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
        return Player(shown, max_cell=max_cell, code=False if isinstance(board, Recording) else code)
    return Player(trace(board, click, order=order, neighbors=neighbors), max_cell=max_cell, code=code)


def _recorded(run, click):
    """The trace of `run` when it is a Trace or a Recording (then with no click); else None."""
    if not isinstance(run, (Trace, Recording)):
        return None
    if click is not None:
        raise TypeError(f"a {type(run).__name__} needs no click: it has its own, {run.click}")
    return run if isinstance(run, Trace) else run.replay


class Compare(_Stepping, widgets.VBox):
    """DFS and BFS of one click, driven by one slider, side by side.

    Build it with :func:`compare`. Attributes: `dfs`, `bfs` (the traces),
    `views`, `slider`, `play`, `back`, `forward`, `speed`, `per_frame`,
    `errors`. A side whose reveal is shorter holds its last step.
    """

    def __init__(self, dfs: Trace, bfs: Trace, *, max_cell: int = 24, titles=None):
        self.dfs, self.bfs = dfs, bfs
        side = widgets.Layout(flex="1 1 0", min_width="0", margin="0 8px 0 0")
        titles = titles or (TITLES[dfs.order], TITLES[bfs.order])
        self.views = tuple(
            BoardView(t, step=0 if len(t) else -1, title=title, max_cell=max_cell, layout=side)
            for t, title in zip((dfs, bfs), titles)
        )
        self.errors = _errors_area()
        self._traces = [dfs, bfs]
        bar = self._wire(self.views, max(len(dfs), len(bfs)))
        super().__init__([bar, widgets.HBox(list(self.views)), self.errors])

    @property
    def captions(self) -> tuple[str, str]:
        """What happens at the step shown on each side, in words."""
        return tuple(_caption(t, self.mode.value, self.step) for t in (self.dfs, self.bfs))

    def _repr_mimebundle_(self, **kwargs):
        left, right = (v.picture() for v in self.views)
        height = max(left.shape[0], right.shape[0])
        pad = [
            np.pad(x, ((0, height - x.shape[0]), (0, 12), (0, 0)), constant_values=255) for x in (left, right)
        ]
        return with_png(super()._repr_mimebundle_(**kwargs), np.hstack(pad))


def compare(board, click=None, *, neighbors=READING_ORDER, max_cell: int = 24) -> Compare:
    """Return a widget showing DFS and BFS of the same click, driven by one slider.

    Given a student's run recorded by :func:`msviz.record` in place of the
    board and click, show it beside the textbook reveal of the same order
    (the recursive depth-first one, or the queue's breadth-first one).

    Examples
    --------
    >>> import msviz
    >>> c = msviz.compare(["EEE", "EEM"], (0, 0))
    >>> c.slider.max, c.views[0].order, c.views[1].order
    (3, 'dfs', 'bfs')
    """
    if isinstance(board, Recording):
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


class Game(widgets.VBox):
    """A playable board: click a hidden cell, watch its flood fill; right-click plants a flag.

    Build it with :func:`game`. `click(row, col)` does what clicking the cell
    does and `flag(row, col)` what a right-click does; `board` is the current
    board (hidden mines as ``M``); `lost`, `won` and `status` tell how the game
    stands; `rules` is the `msviz.rules.Minesweeper` the view paints.

    A click on the board while a flood is still animating first finishes the
    flood on screen, then is applied; "New game" drops the animation. The
    screen is always painted from `rules`, so it never disagrees with `board`.
    """

    def __init__(self, rows: int, cols: int, mines: int, *, seed=None, board=None, animate=True):
        self.rules = Minesweeper(rows, cols, mines, seed=seed, board=board)
        self.view = BoardView(
            board=np.array(self.rules.board),  # the widget opens with it (see BoardView)
            show_frontier=False,
            show_caption=False,
            show_legend=False,
            keyboard=False,
            flood=animate,
            max_cell=28,
        )
        self.view.on_click(self._clicked)
        self.view.on_flag(self._flagged)
        self.errors = _errors_area()
        self.status = widgets.HTML()
        restart = widgets.Button(description="New game", icon="refresh")
        restart.on_click(self._restart)
        super().__init__([widgets.HBox([restart, self.status]), self.view, self.errors])
        self.new_game()

    # What the game holds: all of it in `rules`.
    rows = property(lambda self: self.rules.rows)
    cols = property(lambda self: self.rules.cols)
    mines = property(lambda self: self.rules.mines)
    board = property(lambda self: self.rules.board, doc="The current board (a new list; hidden mines as M).")
    lost = property(lambda self: self.rules.lost)
    won = property(lambda self: self.rules.won)

    def new_game(self) -> None:
        """Start again: the given board, or (after the first click) a new random one."""
        self.rules.new_game()
        self._paint(None)
        self._say(fill("game_start"))

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
            self._say("<b>" + fill("game_lost", row=row, col=col) + "</b>")
        elif self.rules.won:
            self._say("<b>" + fill("game_won", safe=self.rows * self.cols - self.mines) + "</b>")
        else:
            self._say(fill("game_revealed", row=row, col=col, cells=len(t)))

    def flag(self, row: int, col: int) -> None:
        """Plant or lift a flag on cell (row, col), as a right-click does."""
        self.rules.flag(row, col)
        self.view.flags = self.rules.flags.astype(np.uint8).tobytes()
        self._say(self._said)

    def _say(self, words: str) -> None:
        """Show `words` as the status, with the flags planted so far."""
        self._said = words
        n = int(self.rules.flags.sum())
        self.status.value = words + (
            fill("game_flags", flags=n, mines=self.mines) if n and not self.rules.over else ""
        )

    def _paint(self, t: Trace | None) -> None:
        """Show the board of `rules`, animating `t` (the click just made) if there is one."""
        with self.view.hold_sync():
            self.view.flags = self.rules.flags.astype(np.uint8).tobytes()
            self.view.show_mines = self.rules.lost
            if t is None:
                self.view.show_board(np.array(self.rules.board))
            else:
                self.view.show(t)

    @_reports_errors
    def _clicked(self, r: int, c: int) -> None:
        self.click(r, c)

    @_reports_errors
    def _flagged(self, r: int, c: int) -> None:
        self.flag(r, c)

    @_reports_errors
    def _restart(self, _button) -> None:
        self.new_game()

    def _repr_mimebundle_(self, **kwargs):
        return with_png(super()._repr_mimebundle_(**kwargs), self.view.picture())


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


class Quiz(widgets.VBox):
    """Predict the next cell: the board shows a reveal before its next step; click the cell you expect.

    Build it with :func:`quiz`. A click on the board is a guess, judged in the
    browser with no round-trip to the kernel: depth-first, only the exact cell
    of the next call counts; breadth-first, any hidden cell of the next cell's
    layer does (the view says which rule applies). Depth-first, when a call
    returns before the next call, the quiz first asks whose call goes on: a
    click on the cell of that call, on the stack's path. The view says right
    or wrong, shows the true next step, and keeps the score, which `score`
    reads back; "Start again" goes back to the first step with a score of 0.

    The parts are attributes: `trace`, `view` (the board, in quiz mode),
    `restart` (the button) and `errors`. :meth:`guess` makes a guess from
    Python, as a click does in the browser.
    """

    def __init__(self, t: Trace, *, max_cell: int = 32, guesses: int | None = None):
        self.trace = t = checked_trace(t, name="the reveal")
        #: The last step asked for: the reveal's last, or where `guesses` questions (calls and
        #: returns) are asked.
        self.last_question = len(t) - 1 if guesses is None else self._last_step_within(guesses)
        # The click's own cell is given: the first guess is the step after it. Breadth-first,
        # the queue drawn would give the answer away (its front is the next cell), so it is hidden.
        self.view = BoardView(
            t,
            step=self._first,
            quiz=True,
            quiz_last=self.last_question,
            keyboard=False,
            max_cell=max_cell,
            show_frontier=t.order == "dfs",
        )
        self.errors = _errors_area()
        self.restart = widgets.Button(
            description="Start again", icon="refresh", tooltip="back to the first step, with a score of 0"
        )
        self.restart.on_click(self._restart)
        super().__init__([self.restart, self.view, self.errors])

    def _last_step_within(self, guesses: int) -> int:
        """The last step reached when at most `guesses` questions are asked (a return counts as one)."""
        k, asked = self._first, 0
        while k < len(self.trace) - 1:
            asked += 1 + quiz_asks_return(self.trace, k)
            if asked > guesses:
                break
            k += 1
        return k

    @property
    def _first(self) -> int:
        """The step shown at the start: the click's own cell (-1 when it reveals nothing)."""
        return 0 if len(self.trace) else -1

    @property
    def score(self) -> tuple[int, int]:
        """The score as ``(right, tries)``: the guesses that counted, and all guesses made."""
        return self.view.quiz_right, self.view.quiz_tries

    @property
    def step(self) -> int:
        """The step shown: the guess asked for is the cell of the step after it."""
        return max(-1, min(self.view.step, len(self.trace) - 1))

    @property
    def returning(self) -> bool:
        """Whether the question now is whose call goes on after a return (depth-first), not the next call."""
        return not self.over and quiz_asks_return(self.trace, self.step) and not self.view.quiz_returned

    @property
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
            with self.view.hold_sync():
                self.view.quiz_right = right + (kind in QUIZ_RIGHT)
                self.view.quiz_tries = tries + 1
                self.view.quiz_returned = returning  # answered; after a call, the next step asks afresh
                if not returning:
                    self.view.step = k + 1
        return quiz_verdict(self.trace, k, row, col, returning=returning)

    def start_again(self) -> None:
        """Go back to the first step, with a score of 0."""
        with self.view.hold_sync():
            self.view.quiz_right = self.view.quiz_tries = 0
            self.view.quiz_returned = False
            self.view.step = self._first

    @_reports_errors
    def _restart(self, _button) -> None:
        self.start_again()

    def _repr_mimebundle_(self, **kwargs):
        return with_png(super()._repr_mimebundle_(**kwargs), self.view.picture())


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
