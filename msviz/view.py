"""The board drawn in the browser: one view for the player, the comparison and the game.

`BoardView` is an anywidget: its JavaScript is plain ES modules (``msviz/js``,
joined into one by `msviz.frontend`) with no build step and nothing fetched from
the network. It draws its own controls (`controls`): no ipywidgets around it,
so it is the same wherever anywidget runs (JupyterLab, Notebook 6 and 7, VS
Code, Colab, Voila, marimo). The kernel sends a reveal once, as binary arrays
in synced traits; the browser draws any step of it by itself, so moving the
`step` trait (by the scrub bar, Play, the keyboard) never waits for the kernel. Since the whole state lives in
traits, a saved notebook or an exported page can rebuild the view without one.

The view draws the finer timeline of `msviz.Trace` (calls and returns, or
enqueues and dequeues); a position of its `step` is a revealed cell in mode
``"visits"`` and an event in mode ``"events"``. Only what the browser cannot
work out cheaply is sent (`msviz.viewstate.view_state`): per cell (row-major),
``start`` and ``final``, uint8 tile codes (`msviz.render.CODES`) before and
after the click; per step, ``step_cell`` (the cell, ``row * cols + col``,
int32) and ``step_hidden`` (its hidden empty neighbours once revealed, uint8,
for the captions) and ``step_turn`` (the neighbour of its caller's loop that
reached it, uint8, for the calls' rows under the code); per event (two a
step), ``event_label`` (uint8). The browser reads the rest from the events:
which step each is, each step's caller and depth, and when each cell is
revealed, enters and leaves the stack or queue.
That is 10 bytes a cell of a reveal that uncovers the whole board: a 500 x 500
board is 2.5 MB. A student's run (`replay`, from
`msviz.Recording.replay`) has a step and one event a write, a cell perhaps
written more than once, so it also sends each write's tile code
(``step_code``, uint8) and the stack's depth (``step_depth``, int32).

Every synced trait and its default is listed once, in `msviz.viewstate.TRAITS`
(which the exported page starts from, and which tests hold this class and the
JavaScript to).

A click on a cell goes to Python as ``(row, col)``: register a callback with
:meth:`BoardView.on_click` (and :meth:`BoardView.on_flag` for a right-click,
or a click with Shift, Ctrl, Alt or Cmd held).
In quiz mode (`quiz`), a click is instead a guess of the next step, judged
in the browser by the rule of `msviz.words.quiz_judge`: the view says right
or wrong, moves `step` on by one and counts the score in `quiz_right` and
`quiz_tries`, which Python reads back.
"""

from __future__ import annotations

import base64
import html

import anywidget
import ipywidgets as widgets
import numpy as np
import traitlets

from . import _checks
from .i18n import get_language, in_own_language
from .render import CODES, png, state_image, tile_size, view_palette
from .trace import Trace
from .trace import checked as checked_trace
from .viewstate import CSS, ESM, board_state, view_state
from .words import fill, view_words

__all__ = ["BoardView", "ESM", "view_state"]


class BoardView(anywidget.AnyWidget):
    """A board drawn in the browser, at any step of one reveal.

    Show a trace with :meth:`show` (or pass it to the constructor), then move
    `step`: the browser redraws the cells that change. Link `step` to a slider
    with ``ipywidgets.jslink`` so that it moves without the kernel.

    Parameters
    ----------
    trace : Trace, optional
        The reveal to show; an empty 1 x 1 board by default.
    **kwargs
        Initial values of the traits (`step`, `title`, `show_frontier`, ...).

    Examples
    --------
    >>> import msviz
    >>> from msviz.view import BoardView
    >>> view = BoardView(msviz.trace(["EEE", "EEM"], (0, 0)), step=1)
    >>> view.rows, view.cols, view.steps
    (2, 3, 4)
    >>> clicked = []
    >>> view.on_click(lambda row, col: clicked.append((row, col)))
    >>> view._handle_message(view, {"event": "click", "row": 1, "col": 2}, [])
    >>> clicked
    [(1, 2)]
    """

    _esm = ESM
    _css = CSS

    rows = traitlets.Int(1).tag(sync=True)
    cols = traitlets.Int(1).tag(sync=True)
    order = traitlets.Unicode("").tag(sync=True)  # "dfs", "bfs", or "" (a game's click)
    click_cell = traitlets.List([0, 0]).tag(sync=True)  # the clicked cell, [row, col]
    start = traitlets.Bytes(b"\x00").tag(sync=True)
    final = traitlets.Bytes(b"\x00").tag(sync=True)
    step_cell = traitlets.Bytes(b"").tag(sync=True)
    event_label = traitlets.Bytes(b"").tag(sync=True)
    replay = traitlets.Bool(False).tag(sync=True)  # a student's run: a step a write, none waiting
    step_code = traitlets.Bytes(b"").tag(sync=True)  # replay only: the tile code written, per step
    step_depth = traitlets.Bytes(b"").tag(sync=True)  # a replay only: the stack's depth at each write
    step_hidden = traitlets.Bytes(b"").tag(sync=True)  # hidden empty neighbours once revealed, uint8
    step_turn = traitlets.Bytes(b"").tag(sync=True)  # the neighbour of the caller's loop that reached it
    #: Changes whenever new arrays are sent; the browser reads them again then.
    generation = traitlets.Int(0).tag(sync=True)

    #: The position shown, -1 (before the click) to the last; larger values show the last.
    step = traitlets.Int(-1).tag(sync=True, echo_update=False)
    #: "visits": a position is a revealed cell; "events": every call and return, or enqueue and dequeue.
    mode = traitlets.Enum(["visits", "events"], "visits").tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    show_frontier = traitlets.Bool(True).tag(sync=True)
    show_caption = traitlets.Bool(True).tag(sync=True)
    show_legend = traitlets.Bool(True).tag(sync=True)
    show_mines = traitlets.Bool(False).tag(sync=True)
    #: One byte per cell, 1 where a flag is planted (the game).
    flags = traitlets.Bytes(b"").tag(sync=True)
    #: Animate each new reveal from its first step to `step` (the game's floods).
    flood = traitlets.Bool(False).tag(sync=True)
    #: Left/right, Home/End and space move the step (a player; not the game).
    keyboard = traitlets.Bool(True).tag(sync=True)
    #: The largest side of a cell, in CSS pixels; cells shrink to fit the width.
    max_cell = traitlets.Int(32).tag(sync=True)
    #: The last step the keyboard goes to; -1 for this reveal's own (a comparison sets the longer side's).
    last_step = traitlets.Int(-1).tag(sync=True)
    #: Frames a second while playing (1 to 60).
    fps = traitlets.Int(10).tag(sync=True)
    #: Draw the control bar above the board (a player, a comparison): Play, steps, a scrub bar, speed.
    controls = traitlets.Bool(False).tag(sync=True)
    #: Whether Play is playing; the browser's own clock moves `step`, and sets this back at the end.
    playing = traitlets.Bool(False).tag(sync=True, echo_update=False)
    #: Steps a Play move takes.
    per_frame = traitlets.Int(1).tag(sync=True)
    #: The other boards beside this one, moved by the same step (a comparison): each a dict of the
    #: traits a board has of its own (its arrays, `title`, `generation`, `code`, `code_lines`).
    others = traitlets.List(traitlets.Dict()).tag(sync=True)
    #: A line of words above the board (the game's), a restart button's words ("" for none), and an
    #: error raised in Python by a click (shown under the board).
    status = traitlets.Unicode("").tag(sync=True)
    restart = traitlets.Unicode("").tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    #: The bar has an "Edit the board" switch (a player in a notebook; a page has no kernel to edit
    #: with), and whether it is on: then a click on a cell goes to Python as an edit (see `on_edit`).
    editable = traitlets.Bool(False).tag(sync=True)
    editing = traitlets.Bool(False).tag(sync=True)
    palette = traitlets.Dict().tag(sync=True)
    words = traitlets.Dict().tag(sync=True)
    #: The source shown beside the board (empty: none), and the line each kind of event runs on.
    code = traitlets.Unicode("").tag(sync=True)
    code_lines = traitlets.Dict().tag(sync=True)
    #: The neighbour order of the reveal shown, as (dr, dc) pairs (the stack's frames need it).
    neighbors = traitlets.List().tag(sync=True)
    #: Quiz mode: a click on a cell is a guess of the next step, judged in the browser
    #: (it does not reach Python); the step then moves on to the true next one.
    quiz = traitlets.Bool(False).tag(sync=True)
    #: The quiz's score, counted in the browser: the guesses that counted, and all guesses.
    quiz_right = traitlets.Int(0).tag(sync=True)
    #: The last step the quiz asks for (-1: the reveal's last); the quiz is over there.
    quiz_last = traitlets.Int(-1).tag(sync=True)
    quiz_tries = traitlets.Int(0).tag(sync=True)
    #: Depth-first: whether the return asked about at this step (its call finished) is answered;
    #: then the question is the next call. False where no call returns before the next one.
    quiz_returned = traitlets.Bool(False).tag(sync=True)
    #: Be the computer (`msviz.simulate`): what its part shows (the rule, the queue or stack, the
    #: buttons and keys, the verdict and score), every word filled in Python; empty for any other view.
    by_hand = traitlets.Dict().tag(sync=True)

    def __init__(self, trace: Trace | None = None, *, board=None, **kwargs):
        kwargs.setdefault("palette", view_palette())
        #: The language the view speaks: the one spoken when it was made (its words, and what
        #: Python says when the browser sends it a click).
        self.language = get_language()
        kwargs.setdefault("words", view_words(self.language))
        # The reveal (or the bare board) is part of the state the widget opens with: an update
        # sent just after the open can be lost by a front end still loading the view's module
        # (seen with a class on a busy hub: a board left at its empty one-cell default).
        if trace is not None:
            trace = checked_trace(trace)
            kwargs.update(self._state(trace.shape, view_state(trace)), generation=1)
            kwargs.setdefault("step", len(trace) - 1)
        elif board is not None:
            board = np.asarray(board)
            kwargs.update(self._state(board.shape, board_state(board)), generation=1, step=-1)
        super().__init__(**kwargs)
        self._click_handlers = widgets.CallbackDispatcher()
        self._flag_handlers = widgets.CallbackDispatcher()
        self._restart_handlers = widgets.CallbackDispatcher()
        self._edit_handlers = widgets.CallbackDispatcher()
        self.on_msg(self._handle_message)
        self.trace = trace

    @property
    def steps(self) -> int:
        """How many steps the reveal shown has."""
        return len(self.step_cell) // 4

    @property
    def positions(self) -> int:
        """How many positions `step` can take in the current mode (steps, or events)."""
        return self.steps if self.mode == "visits" else len(self.event_label)

    def show_code(self, source: str | None) -> None:
        """Show one of `msviz.solutions.SOURCES` beside the board (None: no code)."""
        from .solutions import LINES, SOURCES

        if source is not None and source not in SOURCES:
            raise ValueError(f"code must be one of {sorted(SOURCES)} or None, not {source!r}")
        with self.hold_sync():
            self.code = "" if source is None else SOURCES[source]
            self.code_lines = {} if source is None else LINES[source]

    # What the front end (or a careless user) sets is checked as a trait: a bad
    # value raises TraitError, and traitlets keeps the old one.
    @traitlets.validate("max_cell")
    def _valid_max_cell(self, proposal):
        return _as_trait_error(_checks.px, proposal["value"], name="max_cell")

    @traitlets.validate("step")
    def _valid_step(self, proposal):
        return _as_trait_error(_checks.whole_number, "step", proposal["value"], least=-1)

    @traitlets.validate("rows", "cols")
    def _valid_side(self, proposal):
        return _as_trait_error(_checks.whole_number, proposal["trait"].name, proposal["value"], least=1)

    @traitlets.validate("fps")
    def _valid_fps(self, proposal):
        return _as_trait_error(_checks.whole_number, "fps", proposal["value"], least=1, most=60)

    @traitlets.validate("per_frame")
    def _valid_per_frame(self, proposal):
        return _as_trait_error(_checks.whole_number, "per_frame", proposal["value"], least=1)

    @traitlets.observe("mode")
    def _mode_changed(self, change) -> None:
        """Keep the moment shown when Python switches the mode (the browser's bar does it there)."""
        positions = [_positions(self._board(i), change["new"]) for i in range(1 + len(self.others))]
        with self.hold_sync():
            self.last_step = max(max(positions) - 1, 0)
            if "mode" not in getattr(self, "_property_lock", {}) and self.trace is not None:
                self.step = _same_moment(self.trace, self.step, change["new"])

    def _board(self, index: int):
        """Read a trait of board `index` (0: this view's own; others from `others`, then this view's)."""
        own = {} if index == 0 else self.others[index - 1]
        return lambda name: own[name] if name in own else getattr(self, name)

    @traitlets.validate("quiz_right", "quiz_tries")
    def _valid_score(self, proposal):
        return _as_trait_error(_checks.whole_number, proposal["trait"].name, proposal["value"], least=0)

    def show(self, trace: Trace, *, step: int | None = None) -> None:
        """Send `trace` to the browser (once) and show its `step` (the last by default)."""
        trace = checked_trace(trace)
        self._send_state(trace.shape, view_state(trace), len(trace) - 1 if step is None else step)
        self.trace = trace

    def show_board(self, board) -> None:
        """Show a board with no reveal on it (a new game)."""
        board = np.asarray(board)
        self._send_state(board.shape, board_state(board), -1)
        self.trace = None

    @staticmethod
    def _state(shape, state: dict) -> dict:
        """The arrays of a board of `shape`, after checking it is not too large for the browser."""
        _checks.size(*shape, most=_checks.MAX_VIEW_CELLS, what="a board shown in the browser")
        return state

    def _send_state(self, shape, state: dict, step: int) -> None:
        """Send the arrays of a board of `shape` at once."""
        with self.hold_sync():
            for name, value in self._state(shape, state).items():
                setattr(self, name, value)
            self.step = step
            self.generation += 1

    def on_click(self, callback, remove: bool = False) -> None:
        """Call ``callback(row, col)`` when a cell is clicked in the browser."""
        self._click_handlers.register_callback(callback, remove=remove)

    def on_flag(self, callback, remove: bool = False) -> None:
        """Call ``callback(row, col)`` on a right-click, or a click with a modifier key."""
        self._flag_handlers.register_callback(callback, remove=remove)

    def on_restart(self, callback, remove: bool = False) -> None:
        """Call ``callback()`` when the restart button (see `restart`) is pressed."""
        self._restart_handlers.register_callback(callback, remove=remove)

    def on_edit(self, callback, remove: bool = False) -> None:
        """Call ``callback(row, col, move)`` on a click while `editing`: `move` for a right-click or a
        click with a modifier key (move the click there), else a plain click (put or take away a mine)."""
        self._edit_handlers.register_callback(callback, remove=remove)

    @in_own_language
    def _handle_message(self, _widget, content, _buffers) -> None:
        self._handle(content)

    def _handle(self, content) -> None:
        if not isinstance(content, dict) or content.get("event") not in ("click", "flag", "restart", "edit"):
            return
        if content["event"] == "restart":
            self._restart_handlers()
            return
        row, col = content.get("row"), content.get("col")
        if not (type(row) is int and type(col) is int):  # JSON's true and false are not cells
            return
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            return
        if content["event"] == "edit":
            self._edit_handlers(row, col, content.get("move") is True)
        else:
            handlers = self._click_handlers if content["event"] == "click" else self._flag_handlers
            handlers(row, col)

    # What a page without widgets shows: the board as a PNG.
    def picture(self) -> np.ndarray:
        """Return the position shown as an RGB image (drawn by matplotlib, in the kernel)."""
        return board_picture(self.trace, self._board(0))

    # What a page with no kernel plays: the view's own parts and its traits (msviz.rendition).
    def _offline(self) -> dict:
        """How a page with no kernel answers this view: its kind and table (`msviz.rendition`).
        A player's and a comparison's view asks nothing of a kernel."""
        return {"kind": "stage"}

    def rendition(self, figure: str = "") -> str:
        """Return the HTML that plays this view with no kernel (`msviz.rendition.rendition`): the
        view's traits as they are now, with nothing that needs a kernel (no editing)."""
        from .rendition import rendition
        from .viewstate import TRAITS, page_state

        state = {name: getattr(self, name) for name in TRAITS}
        state.update(editable=False, editing=False, playing=False, error="")
        return rendition(page_state(state), figure=figure, **self._offline())

    @in_own_language
    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        try:
            picture = self.picture()
        except ValueError:  # arrays that do not fit: the live view still shows, without its PNG
            return bundle
        return with_png(bundle, picture, fill("static_note", step=self.step), around=self.rendition)


def _positions(get, mode: str) -> int:
    """How many positions a board (its traits read by `get`) has in `mode`: its steps, or its events."""
    return len(get("step_cell")) // 4 if mode == "visits" else len(get("event_label"))


def _same_moment(t: Trace, k: int, mode: str) -> int:
    """Position `k` of trace `t` in the other mode: a step as its event ("events"), an event as its step."""
    if k < 0:
        return k
    if mode == "events":
        return int(t.visit_event[min(k, len(t) - 1)]) if len(t) else k
    return int(t.event_step[min(k, t.events - 1)]) if t.events else k


def board_picture(t: Trace | None, get) -> np.ndarray:
    """Return the position a board shows as an RGB image: trace `t` (None: a board with no reveal,
    read from its ``start`` trait) at the board's `step` and `mode`, its traits read with ``get(name)``.

    A comparison's second board is drawn from its own trace and the shared traits (its step,
    mode); `BoardView.picture` draws the first.
    """
    rows, cols = get("rows"), get("cols")
    if t is None:
        start = get("start")
        if len(start) != rows * cols:
            raise ValueError(
                f"the view's arrays do not fit its {rows}x{cols} board "
                f"({len(start)} bytes for {rows * cols} cells)"
            )
        codes = np.frombuffer(start, np.uint8).reshape(rows, cols)
        board, current, frontier, p, last = np.array(list(CODES))[codes], None, None, -1, -1
    else:
        events = get("mode") == "events"
        last = (t.events if events else len(t)) - 1
        p = max(-1, min(get("step"), last))
        e = -1 if p < 0 else p if events else int(t.visit_event[p])
        k = -1 if p < 0 else int(t.event_step[e]) if events else p  # the step whose cell is current
        board = t.board if e < 0 else t.board_at_event(e)
        current = None if k < 0 else (int(t.row[k]), int(t.col[k]))
        frontier = t.frontier_at_event(e) if e >= 0 and get("show_frontier") else None
    return state_image(
        board,
        current=current,
        frontier=frontier,
        order=get("order") or "dfs",
        px=tile_size((rows, cols), width_px=480),
        show_mines=get("show_mines") and p == last,
    )


def _as_trait_error(check, *args, **kwargs):
    """Run one of the shared checks; turn its TypeError or ValueError into traitlets' TraitError."""
    try:
        return check(*args, **kwargs)
    except (TypeError, ValueError) as error:
        raise traitlets.TraitError(str(error)) from None


def with_png(bundle, picture: np.ndarray, note: str, *, around=None):
    """Add to a widget's display data what a page with no widgets shows: the picture and a note.

    A renderer that runs no widgets (GitHub, nbviewer, a notebook saved without its widget
    state) shows the richest of the rest: ``text/html`` (the picture and `note`, which says
    the board is interactive where the notebook runs), else ``image/png``, else `note` as
    ``text/plain``. With `around` (a function of the picture's HTML), ``text/html`` is what it
    returns: a rendition that plays the widget with no kernel, and shows the picture where
    scripts do not run (`msviz.rendition`).

    Examples
    --------
    >>> import numpy as np
    >>> data, _ = with_png({"application/vnd.jupyter.widget-view+json": {}}, np.zeros((2, 2, 3)), "a note")
    >>> sorted(data), data["text/plain"]
    (['application/vnd.jupyter.widget-view+json', 'image/png', 'text/html', 'text/plain'], 'a note')
    """
    if bundle is None:
        return None
    data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
    encoded = base64.b64encode(png(picture)).decode("ascii")
    said = html.escape(note)
    page = (
        f'<figure class="msviz-static" style="margin:0">'
        f'<img src="data:image/png;base64,{encoded}" alt="{said}">'
        f"<figcaption><em>{said}</em></figcaption></figure>"
    )
    page = page if around is None else around(page)
    data = {**data, "image/png": encoded, "text/html": page, "text/plain": note}
    return data, metadata
