"""Widgets for the classroom: a step-through player, DFS vs BFS side by side, a game.

Everything here uses core ipywidgets only, so it works in JupyterLab 4,
Notebook 7 and VS Code with no other front-end extension. Pictures are PNG bytes
in an ``ipywidgets.Image``, redrawn in place: each widget builds one matplotlib
figure once and updates its image artist, so the page neither flickers nor
jumps. A step's picture comes from the `Trace` arrays in O(cells); nothing is
replayed.

Errors raised inside a callback (a slider moved, a button pressed) are shown in
the widget itself, in an output area under the controls.
"""

from __future__ import annotations

import functools
import io
import traceback

import ipywidgets as widgets
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .board import check_click, parse_board, random_board
from .plot import DIGIT_COLORS, step_image, tile_size
from .trace import Trace, trace
from .traversal import READING_ORDER, reveal

__all__ = ["Player", "Compare", "Game", "player", "compare", "game", "caption"]

LEGEND = (
    "<span style='background:#ffd60a;padding:0 4px'>gold</span> the cell revealed at this step"
    " &nbsp; <span style='border:2px solid #e6007e;padding:0 4px'>magenta</span> {waiting}"
)
WAITING = {"dfs": "calls on the recursion stack", "bfs": "cells waiting in the queue"}


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


def caption(t: Trace, k: int) -> str:
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
    if len(t) == 0:
        return f"the click on {t.click} reveals nothing: that cell is already uncovered"
    if k < 0:
        return f"before the click on {t.click}"
    v = t.visit(k)
    where = f"({v.row}, {v.col})"
    if v.parent is not None:
        where += f", reached from {v.parent},"
    if v.value == "X":
        return f"step {k}: {where} is a mine: it becomes X and the game is lost"
    if v.value == "B":
        said = f"step {k}: {where} has no adjacent mines, so it becomes B"
        n = int(t.children[k])
        if t.order == "dfs":
            said += f"; it calls reveal on {n} hidden neighbour{'s' if n != 1 else ''} in turn"
        else:
            said += f"; {n} neighbour{'s' if n != 1 else ''} queued"
    else:
        mines = int(v.value)
        said = f"step {k}: {where} has {mines} adjacent mine{'s' if mines != 1 else ''}, so it becomes {v.value}"
    if t.order == "dfs":
        return said + f"; stack depth {v.frontier}"
    return said + f"; queue holds {v.frontier}"


class _Picture:
    """One pixel-exact matplotlib figure whose image artist is updated in place."""

    def __init__(self, image: np.ndarray, dpi: int = 100):
        height, width = image.shape[:2]
        self.figure = Figure(figsize=(width / dpi, height / dpi), dpi=dpi)
        FigureCanvasAgg(self.figure)
        ax = self.figure.add_axes((0, 0, 1, 1))
        ax.set_axis_off()
        self.artist = ax.imshow(image, interpolation="nearest")
        self.width, self.height = width, height

    def png(self, image: np.ndarray) -> bytes:
        """Return the PNG bytes of the figure with `image` shown."""
        self.artist.set_data(image)
        buffer = io.BytesIO()
        self.figure.savefig(buffer, format="png", dpi=self.figure.dpi, pil_kwargs={"compress_level": 1})
        return buffer.getvalue()


def _image_widget(picture: _Picture) -> widgets.Image:
    return widgets.Image(
        format="png",
        layout=widgets.Layout(width=f"{picture.width}px", height=f"{picture.height}px"),
    )


def _errors_area() -> widgets.Output:
    return widgets.Output(layout=widgets.Layout(display="none", border="1px solid #d33"))


def _controls(last_step: int):
    """Return (play, slider, back, forward, speed, links), linked in the browser."""
    play = widgets.Play(min=0, max=max(last_step, 0), step=1, interval=300, description="Play")
    slider = widgets.IntSlider(
        min=0, max=max(last_step, 0), description="step", continuous_update=True,
        layout=widgets.Layout(width="420px"),
    )
    back = widgets.Button(icon="step-backward", tooltip="one step back", layout=widgets.Layout(width="40px"))
    forward = widgets.Button(icon="step-forward", tooltip="one step on", layout=widgets.Layout(width="40px"))
    speed = widgets.IntSlider(
        value=300, min=30, max=1500, step=10, description="ms/step", readout=True,
        layout=widgets.Layout(width="260px"),
    )
    links = (
        widgets.jslink((play, "value"), (slider, "value")),
        widgets.jslink((speed, "value"), (play, "interval")),
    )
    for control in (play, slider, back, forward, speed):
        control.disabled = last_step < 0
    return play, slider, back, forward, speed, links


class _Stepping:
    """What the player and the comparison share: controls that move one step, and a redraw."""

    def _wire(self, last_step: int) -> widgets.HBox:
        """Make the controls, connect them to `_show`, and return them as one bar."""
        self.play, self.slider, self.back, self.forward, self.speed, self.links = _controls(last_step)
        self.back.on_click(self._back)
        self.forward.on_click(self._forward)
        self.slider.observe(self._moved, names="value")
        return widgets.HBox([self.play, self.back, self.forward, self.slider, self.speed])

    @property
    def step(self) -> int:
        """The step shown."""
        return self.slider.value

    @step.setter
    def step(self, k: int) -> None:
        self.slider.value = k

    @_reports_errors
    def _moved(self, change) -> None:
        self._show(change["new"])

    @_reports_errors
    def _back(self, _button) -> None:
        self.slider.value = max(self.slider.min, self.slider.value - 1)

    @_reports_errors
    def _forward(self, _button) -> None:
        self.slider.value = min(self.slider.max, self.slider.value + 1)


class Player(_Stepping, widgets.VBox):
    """Step through one reveal: Play, a slider, step buttons, the picture, a caption.

    Build it with :func:`player`. The parts are attributes: `trace`, `slider`,
    `play`, `back`, `forward`, `speed`, `image`, `caption`, `errors`; `step`
    reads or sets the step shown.
    """

    def __init__(self, t: Trace, *, px: int | None = None):
        self.trace = t
        self.px = tile_size(t.shape) if px is None else px
        self._picture = _Picture(step_image(t, 0 if len(t) else -1, px=self.px))
        self.image = _image_widget(self._picture)
        self.caption = widgets.HTML()
        self.errors = _errors_area()
        bar = self._wire(len(t) - 1)
        legend = widgets.HTML(LEGEND.format(waiting=WAITING[t.order]))
        super().__init__([bar, self.image, self.caption, legend, self.errors])
        self._show(0 if len(t) else -1)

    def _show(self, k: int) -> None:
        self.image.value = self._picture.png(step_image(self.trace, k, px=self.px))
        self.caption.value = f"<b>{caption(self.trace, k)}</b>"


def player(board, click, *, order: str = "dfs", neighbors=READING_ORDER, px: int | None = None) -> Player:
    """Return a widget that steps through one click's reveal.

    Parameters
    ----------
    board, click, neighbors
        As for :func:`msviz.dfs_reveal`. The board is never changed.
    order : {"dfs", "bfs"}
        The traversal to show.
    px : int, optional
        Pixels per cell in the picture.

    Examples
    --------
    >>> import msviz
    >>> p = msviz.player(["EEE", "EEM"], (0, 0), order="bfs")
    >>> p.step = 2
    >>> p.caption.value
    '<b>step 2: (1, 0), reached from (0, 0), has no adjacent mines, so it becomes B; 0 neighbours queued; queue holds 1</b>'
    """
    return Player(trace(board, click, order=order, neighbors=neighbors), px=px)


class Compare(_Stepping, widgets.VBox):
    """DFS and BFS of one click, driven by one slider, side by side.

    Build it with :func:`compare`. Attributes: `dfs`, `bfs` (the traces),
    `slider`, `play`, `back`, `forward`, `speed`, `images`, `captions`, `errors`.
    A side whose reveal is shorter holds its last step.
    """

    def __init__(self, dfs: Trace, bfs: Trace, *, px: int | None = None):
        self.dfs, self.bfs = dfs, bfs
        self.px = tile_size(dfs.shape, width_px=420) if px is None else px
        last = max(len(dfs), len(bfs)) - 1
        self._pictures = tuple(_Picture(step_image(t, min(0, len(t) - 1), px=self.px)) for t in (dfs, bfs))
        self.images = tuple(_image_widget(p) for p in self._pictures)
        self.captions = (widgets.HTML(), widgets.HTML())
        self.errors = _errors_area()
        bar = self._wire(last)
        sides = [
            widgets.VBox([widgets.HTML(f"<h4>{title}</h4>"), image, text], layout=widgets.Layout(width=f"{p.width + 20}px"))
            for title, image, text, p in zip(
                ("Depth-first (stack)", "Breadth-first (queue)"), self.images, self.captions, self._pictures
            )
        ]
        legend = widgets.HTML(LEGEND.format(waiting="on the stack (left) or in the queue (right)"))
        super().__init__([bar, widgets.HBox(sides), legend, self.errors])
        self._show(0)

    def _show(self, k: int) -> None:
        for t, picture, image, text in zip((self.dfs, self.bfs), self._pictures, self.images, self.captions):
            own = min(k, len(t) - 1)
            image.value = picture.png(step_image(t, own, px=self.px))
            text.value = caption(t, own) + ("" if own == k else " (finished)")


def compare(board, click, *, neighbors=READING_ORDER, px: int | None = None) -> Compare:
    """Return a widget showing DFS and BFS of the same click, driven by one slider.

    Examples
    --------
    >>> import msviz
    >>> c = msviz.compare(["EEE", "EEM"], (0, 0))
    >>> c.slider.max
    3
    """
    return Compare(
        trace(board, click, order="dfs", neighbors=neighbors),
        trace(board, click, order="bfs", neighbors=neighbors),
        px=px,
    )


# --- The game ----------------------------------------------------------------------

_CELL = "28px"
_HIDDEN_STYLE = {"button_color": "#c0c0c0", "text_color": "#000000"}
_FLAT_COLOR = "#e4e4e4"
_HIDDEN_BORDER = "3px outset #f2f2f2"
_FLAT_BORDER = "1px solid #a0a0a0"


class Game(widgets.VBox):
    """A playable board: click a hidden cell, watch its flood fill.

    Build it with :func:`game`. `click(row, col)` does what clicking the cell
    does; `board` is the current board (hidden mines as ``M``); `lost`, `won`
    and `status` tell how the game stands.
    """

    def __init__(self, rows: int, cols: int, mines: int, *, seed=None, board=None, animate=True):
        self.rows, self.cols, self.mines, self.seed = rows, cols, mines, seed
        self.animate = animate
        self._given = None if board is None else parse_board(board)
        self.errors = _errors_area()
        self.status = widgets.HTML()
        self._buttons = [
            [self._button(r, c) for c in range(cols)] for r in range(rows)
        ]
        grid = widgets.GridBox(
            [b for row in self._buttons for b in row],
            layout=widgets.Layout(
                grid_template_columns=f"repeat({cols}, {_CELL})", grid_gap="0px", width="max-content"
            ),
        )
        self._play = widgets.Play(min=0, max=0, interval=40, layout=widgets.Layout(display="none"))
        self._play.observe(self._animate_to, names="value")
        self._trace = None
        self._shown = None
        restart = widgets.Button(description="New game", icon="refresh")
        restart.on_click(self._restart)
        super().__init__([widgets.HBox([restart, self.status]), grid, self._play, self.errors])
        self.new_game()

    # What the game holds.
    def new_game(self) -> None:
        """Start again: the given board, or (after the first click) a new random one."""
        self._board = None if self._given is None else [row[:] for row in self._given]
        self.lost = self.won = False
        self._shown = np.full((self.rows, self.cols), "E") if self._board is None else np.array(self._board)
        if self._board is not None:
            self._shown[self._shown == "M"] = "E"
        self._paint_all()
        self.status.value = "Click a cell to start."

    @property
    def board(self) -> list[list[str]]:
        """The current board in LeetCode symbols (a new list; hidden mines as ``M``)."""
        if self._board is None:
            return [["E"] * self.cols for _ in range(self.rows)]
        return [row[:] for row in self._board]

    def click(self, row: int, col: int) -> None:
        """Click cell (row, col), as a player would."""
        r, c = check_click((row, col), (self.rows, self.cols))
        if self.lost or self.won:
            self.status.value = "The game is over: press <b>New game</b> to play again."
            return
        if self._board is None:  # the first click is safe, as in the real game
            self._board = random_board(self.rows, self.cols, self.mines, seed=self.seed, safe=(r, c))
        if self._board[r][c] not in "ME":
            return
        t = trace(self._board, (r, c))
        self._board = t.final.tolist()
        self._trace = t
        self.lost = bool(self._board[r][c] == "X")
        hidden = sum(row.count("E") for row in self._board)
        self.won = not self.lost and hidden == 0
        if self.animate and len(t) > 1:
            self._play.value = 0
            self._play.max = len(t) - 1
            self._play.playing = True
        else:
            self._reveal_up_to(len(t) - 1)
        self._say(r, c)

    # Drawing.
    def _button(self, r: int, c: int) -> widgets.Button:
        button = widgets.Button(
            description=" ", layout=widgets.Layout(width=_CELL, height=_CELL, padding="0", margin="0")
        )
        button.style.font_weight = "bold"
        button.on_click(functools.partial(self._clicked, r, c))
        return button

    def _paint(self, r: int, c: int, symbol: str) -> None:
        button = self._buttons[r][c]
        if symbol in "EM":
            button.description, color, text = " ", _HIDDEN_STYLE["button_color"], "#000000"
        elif symbol == "B":
            button.description, color, text = " ", _FLAT_COLOR, "#000000"
        elif symbol == "X":
            button.description, color, text = "✹", "#ff2828", "#000000"
        elif symbol == "*":  # a mine shown after the game is lost
            button.description, color, text = "✹", _FLAT_COLOR, "#000000"
        else:
            button.description, color, text = symbol, _FLAT_COLOR, DIGIT_COLORS[symbol]
        button.style.button_color = color
        button.style.text_color = text
        # Raised while hidden, flat with a thin grid line once uncovered, as in the game.
        button.layout.border = _HIDDEN_BORDER if symbol in "EM" else _FLAT_BORDER

    def _paint_all(self) -> None:
        for (r, c), symbol in np.ndenumerate(self._shown):
            self._paint(r, c, symbol)

    def _reveal_up_to(self, k: int) -> None:
        """Show the current click's reveal up to its step k (only the cells that change)."""
        t = self._trace
        target = np.where((t.visit_step >= 0) & (t.visit_step <= k), t.final, self._shown)
        if k == len(t) - 1 and self.lost:
            target = np.where(np.array(self._board) == "M", "*", target)
        for r, c in zip(*np.nonzero(target != self._shown)):
            self._paint(int(r), int(c), str(target[r, c]))
        self._shown = target

    def _say(self, r: int, c: int) -> None:
        if self.lost:
            self.status.value = f"<b>Boom!</b> ({r}, {c}) was a mine."
        elif self.won:
            safe = self.rows * self.cols - self.mines
            self.status.value = f"<b>You won!</b> All {safe} safe cells revealed."
        else:
            n = len(self._trace)
            self.status.value = f"({r}, {c}) revealed {n} cell{'s' if n != 1 else ''}."

    @_reports_errors
    def _clicked(self, r: int, c: int, _button) -> None:
        self.click(r, c)

    @_reports_errors
    def _animate_to(self, change) -> None:
        if self._trace is not None:
            self._reveal_up_to(change["new"])

    @_reports_errors
    def _restart(self, _button) -> None:
        self.new_game()


def game(rows: int = 9, cols: int = 9, mines: int = 10, *, seed=None, board=None, animate=True) -> Game:
    """Return a playable board.

    Parameters
    ----------
    rows, cols, mines : int
        The size of a random board and its number of mines (the classic
        beginner's 9 x 9 with 10 by default). The mines are laid at the first
        click, which is always safe.
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
    if board is not None:
        grid = parse_board(board)
        rows, cols = len(grid), len(grid[0])
        mines = sum(row.count("M") for row in grid)
    else:
        random_board(rows, cols, mines, seed=seed)  # checks the arguments now, not at the first click
    return Game(rows, cols, mines, seed=seed, board=board, animate=animate)
