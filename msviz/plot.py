"""Charts of boards and traces, with matplotlib: boards, steps, heatmaps, plots.

The board pictures themselves (tiles, palette, board and step images) come from
`msviz.render`; this module puts them and the per-cell maps on axes.

Every function takes an optional ``ax=`` (the current axes by default), passes
extra keywords to the matplotlib call that draws, and returns its artists.

Text stays readable on a small screen: a notebook shows a figure's picture at
its size in pixels, shrunk to the output's width (`SHOWN_WIDTH_PX` on a
1024 x 768 laptop with JupyterLab's file browser open), so each chart sizes its
text for that, at least `SMALLEST_TEXT_PX` pixels, whatever the figure's size.
Where cells are too small for their numbers, the numbers are left out (the
colour bar reads the colours), and rows and columns are labelled every few.
"""

from __future__ import annotations

import numpy as np
from matplotlib import pyplot as plt

from .board import parse_board
from .render import (
    DIGIT_COLORS,
    PALETTE,
    WAITING_COLOR,
    board_image,
    speaks_in_pictures,
    step_image,
    tile_size,
)
from .trace import checked as checked_trace
from .words import ORDER_NAMES, ORDER_WORDS, PLOT, versus

__all__ = [
    "DIGIT_COLORS",
    "tile_size",
    "board_image",
    "step_image",
    "draw_board",
    "draw_step",
    "visit_order_map",
    "layer_map",
    "compare_orders",
    "frontier_plot",
    "step_vs_distance",
    "ORDER_COLORS",
    "SHOWN_WIDTH_PX",
    "SMALLEST_TEXT_PX",
]

#: The width in CSS pixels at which a notebook shows a figure on a 1024 x 768 screen
#: with JupyterLab's file browser open (its output area); wider pictures are shrunk to it.
SHOWN_WIDTH_PX = 585
#: The smallest text a chart writes, in CSS pixels as the notebook shows it.
SMALLEST_TEXT_PX = 10
#: The size of each kind of text, in CSS pixels as shown (each >= SMALLEST_TEXT_PX).
TEXT_PX = {"number": 11, "tick": 11, "label": 12, "title": 13}


def _axes(ax):
    return plt.gca() if ax is None else ax


def _shrink(fig) -> float:
    """How much a notebook shrinks the figure's picture to fit its width (1 = not at all)."""
    fig = fig.get_figure(root=True)
    return min(1.0, SHOWN_WIDTH_PX / (fig.get_figwidth() * fig.dpi))


def _points(ax, kind: str) -> float:
    """The font size in points of text of `kind` (`TEXT_PX`), as the notebook will show it."""
    fig = ax.get_figure(root=True)
    return TEXT_PX[kind] * 72 / fig.dpi / _shrink(fig)


def _cell_px(ax, shape: tuple[int, int]) -> float:
    """The side of a cell on `ax` as the notebook shows it, in CSS pixels (after the layout)."""
    fig = ax.get_figure(root=True)
    fig.draw_without_rendering()
    box = ax.get_window_extent()
    rows, cols = shape
    return min(box.width / cols, box.height / rows) * _shrink(fig)


def _fits(number_px: float, largest: int, cell_px: float) -> bool:
    """Whether a number up to `largest`, `number_px` high, fits in a cell `cell_px` wide."""
    width = len(str(largest)) * 0.6 * number_px + 3  # digits are about 0.6 em wide
    return cell_px >= max(width, 1.2 * number_px)


def _show(ax, image: np.ndarray, shape: tuple[int, int], indices, **kwargs):
    """Show an RGB board image on `ax`, cell (r, c) centred at (c, r); return the image artist."""
    rows, cols = shape
    kwargs.setdefault("interpolation", "nearest")
    artist = ax.imshow(image, extent=(-0.5, cols - 0.5, rows - 0.5, -0.5), **kwargs)
    _show_ticks(ax, shape, indices)
    for spine in ax.spines.values():
        spine.set_visible(False)
    return artist


def draw_board(board, *, ax=None, show_mines=False, indices=None, px=None, **kwargs):
    """Draw the board as a player sees it; return the image artist.

    Parameters
    ----------
    board : board-like
        Anything :func:`msviz.parse_board` accepts.
    ax : matplotlib Axes, optional
        Where to draw; the current axes by default.
    show_mines : bool
        Draw hidden mines uncovered.
    indices : bool, optional
        Label rows and columns; by default on boards up to 20 x 20.
    px : int, optional
        Pixels per cell in the image.
    **kwargs
        Passed to :meth:`matplotlib.axes.Axes.imshow`.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> artist = draw_board(["EEM", "B1E"])
    >>> artist.get_array().shape[:2]
    (64, 96)
    """
    grid = np.asarray(parse_board(board))
    image = board_image(grid, px=px, show_mines=show_mines)
    return _show(_axes(ax), image, grid.shape, indices, **kwargs)


def draw_step(trace, k, *, ax=None, indices=None, px=None, show_frontier=True, **kwargs):
    """Draw the board at step `k` of `trace`; return the image artist.

    Update a drawn step in place with
    ``artist.set_data(step_image(trace, k2, px=...))``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import msviz
    >>> t = msviz.trace(["EEE", "EEM"], (0, 0))
    >>> artist = draw_step(t, 2)
    """
    image = step_image(trace, k, px=px, show_frontier=show_frontier)  # checks trace and k
    return _show(_axes(ax), image, trace.shape, indices, **kwargs)


# --- Pictures of a whole trace ------------------------------------------------------


def _frontier_name(order: str) -> str:
    """The stack or the queue of `order`, named as a legend says it: "DFS stack", "BFS queue"."""
    return PLOT[f"frontier_{order}"].format(order=ORDER_NAMES[order])


#: Each order's colour in the charts: the board's colour for its waiting cells
#: (the stack's for DFS, the queue's for BFS), apart for every kind of colour vision.
ORDER_COLORS = {order: PALETTE[name] for order, name in WAITING_COLOR.items()}


def _annotate(ax, values: np.ndarray, image, fmt: str = "{}") -> list:
    """Write each non-negative value in its cell, in black or white for contrast."""
    texts = []
    cmap, norm = image.get_cmap(), image.norm
    for (r, c), v in np.ndenumerate(values):
        if v < 0:
            continue
        luminance = np.dot(cmap(norm(v))[:3], (0.299, 0.587, 0.114))
        texts.append(
            ax.text(
                c,
                r,
                fmt.format(v),
                ha="center",
                va="center",
                fontsize=_points(ax, "number"),
                color="black" if luminance > 0.5 else "white",
            )
        )
    return texts


def _cell_map(ax, values, *, label, cmap, norm=None, annotate=None, colorbar=True, **kwargs):
    """Show a per-cell number map (-1 = none, drawn pale); return (image, colorbar, texts).

    The numbers are written in the cells where they fit at a readable size
    (`annotate=None`), or as `annotate` says.
    """
    ax = _axes(ax)
    cmap = plt.get_cmap(cmap).with_extremes(bad=PALETTE["unreached"])
    shown = np.ma.masked_less(values, 0)
    rows, cols = values.shape
    kwargs.setdefault("interpolation", "nearest")
    image = ax.imshow(shown, cmap=cmap, norm=norm, extent=(-0.5, cols - 0.5, rows - 0.5, -0.5), **kwargs)
    bar = _colorbar(ax, image, label) if colorbar else None
    _show_ticks(ax, values.shape)
    if annotate is None:
        annotate = _fits(TEXT_PX["number"], int(values.max()), _cell_px(ax, values.shape))
    texts = _annotate(ax, values, image) if annotate else []
    return image, bar, texts


def _colorbar(ax, image, label: str, *, axes=None):
    """Add a colour bar for `image` beside `axes` (by default `ax`), its text readable."""
    bar = ax.figure.colorbar(image, ax=ax if axes is None else axes, shrink=0.8)
    bar.set_label(label, size=_points(ax, "label"))
    bar.ax.tick_params(labelsize=_points(ax, "tick"))
    return bar


def _show_ticks(ax, shape, indices=None) -> None:
    """Label rows and columns (by default on boards up to 20 x 20), or hide the ticks.

    On cells too small for their labels, every 2nd, 5th, 10th ... row and column is labelled.
    """
    rows, cols = shape
    if indices is None:
        indices = max(shape) <= 20
    if indices:
        every = _label_every(_cell_px(ax, shape), max(shape) - 1)
        ax.set_xticks(range(0, cols, every))
        ax.set_yticks(range(0, rows, every))
        ax.tick_params(length=0, labelsize=_points(ax, "tick"), labeltop=True, labelbottom=False)
    else:
        ax.set_xticks([])
        ax.set_yticks([])


def _label_every(cell_px: float, largest: int) -> int:
    """Label every 1st, 2nd, 5th, 10th ... row and column: the first step whose labels fit.

    Examples
    --------
    >>> _label_every(30.0, 15), _label_every(12.0, 15), _label_every(3.0, 199)
    (1, 2, 10)
    """
    for every in (1, 2, 5, 10, 20, 50, 100, 200, 500):
        if _fits(TEXT_PX["tick"], largest, every * cell_px):
            return every
    return max(1, largest)


@speaks_in_pictures
def visit_order_map(trace, *, ax=None, cmap="viridis", norm=None, annotate=None, colorbar=True, **kwargs):
    """Draw the step at which each cell was revealed, as a heatmap with a colour bar.

    Cells never revealed stay pale. The colour map is perceptually uniform and
    readable with colour-blindness (viridis); where the cells are big enough
    for their numbers at a readable size, each cell also shows its step.

    Returns
    -------
    (AxesImage, Colorbar or None, list of Text)

    Examples
    --------
    >>> import msviz
    >>> from matplotlib.figure import Figure
    >>> image, bar, texts = visit_order_map(msviz.trace(["EEE", "EEM"], (0, 0)), ax=Figure().subplots())
    >>> [t.get_text() for t in texts]
    ['0', '1', '2', '3']
    """
    trace = checked_trace(trace)
    ax = _axes(ax)
    artists = _cell_map(
        ax,
        trace.step_map,
        label=PLOT["step_revealed"],
        cmap=cmap,
        norm=norm,
        annotate=annotate,
        colorbar=colorbar,
        **kwargs,
    )
    ax.set_title(
        PLOT["visit_order"].format(order=ORDER_NAMES[trace.order], n=len(trace)),
        fontsize=_points(ax, "title"),
    )
    return artists


@speaks_in_pictures
def layer_map(trace, *, ax=None, cmap="cividis", annotate=None, colorbar=True, **kwargs):
    """Draw each revealed cell's BFS layer (distance from the click) or DFS depth.

    Returns
    -------
    (AxesImage, Colorbar or None, list of Text)
        As for :func:`visit_order_map`: the image, its colour bar, the numbers in the cells.

    Examples
    --------
    >>> import msviz
    >>> from matplotlib.figure import Figure
    >>> t = msviz.trace(["EEE", "EEM"], (0, 0), order="bfs")
    >>> image, bar, texts = layer_map(t, ax=Figure().subplots())
    >>> [t.get_text() for t in texts]
    ['0', '1', '1', '1']
    """
    trace = checked_trace(trace)
    ax = _axes(ax)
    label = PLOT["layer"] if trace.order == "bfs" else PLOT["depth"]
    artists = _cell_map(
        ax, trace.depth_map, label=label, cmap=cmap, annotate=annotate, colorbar=colorbar, **kwargs
    )
    ax.set_title(
        PLOT["map_title"].format(order=ORDER_NAMES[trace.order], label=label), fontsize=_points(ax, "title")
    )
    return artists


@speaks_in_pictures
def compare_orders(dfs_trace, bfs_trace, *, axes=None, cmap="viridis", diff_cmap="PuOr"):
    """Draw DFS and BFS visit orders side by side on one colour scale, and how they differ.

    The third panel (below the two, in a new figure) shows, for each revealed
    cell, the DFS step minus the BFS step: cells DFS reaches later than BFS in
    one colour, earlier in the other. A new figure is as wide as a notebook
    shows it on a small screen.

    Parameters
    ----------
    dfs_trace, bfs_trace : Trace
        Two traces of the same click.
    axes : three matplotlib Axes, optional
        Where to draw; a new figure of three panels by default.

    Returns
    -------
    dict
        ``"dfs"``, ``"bfs"``, ``"difference"``: each (AxesImage, Colorbar, texts).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import msviz
    >>> board = ["EEEE", "EEEE", "EEEM"]
    >>> drawn = compare_orders(msviz.trace(board, (0, 0)), msviz.trace(board, (0, 0), order="bfs"))
    >>> sorted(drawn)
    ['bfs', 'dfs', 'difference']
    """
    dfs_trace = checked_trace(dfs_trace, name="dfs_trace")
    bfs_trace = checked_trace(bfs_trace, name="bfs_trace")
    if dfs_trace.shape != bfs_trace.shape or dfs_trace.click != bfs_trace.click:
        raise ValueError(
            f"compare_orders needs two traces of the same click on the same board, not a "
            f"{dfs_trace.shape[0]}x{dfs_trace.shape[1]} board clicked at {dfs_trace.click} and a "
            f"{bfs_trace.shape[0]}x{bfs_trace.shape[1]} board clicked at {bfs_trace.click}"
        )
    if axes is None:
        axes = _comparison_axes(dfs_trace.shape)
    from matplotlib.colors import Normalize, TwoSlopeNorm

    n = max(len(dfs_trace), len(bfs_trace), 2)
    shared = Normalize(vmin=0, vmax=n - 1)
    dfs = visit_order_map(dfs_trace, ax=axes[0], cmap=cmap, norm=shared, colorbar=False)
    bfs = visit_order_map(bfs_trace, ax=axes[1], cmap=cmap, norm=shared, colorbar=False)
    bar = _colorbar(axes[1], bfs[0], PLOT["step_revealed"], axes=list(axes[:2]))
    out = {"dfs": (dfs[0], bar, dfs[2]), "bfs": (bfs[0], bar, bfs[2])}
    revealed = dfs_trace.step_map >= 0
    diff = np.where(revealed, dfs_trace.step_map - bfs_trace.step_map, 0)
    limit = max(1, int(np.abs(diff).max()))
    ax = axes[2]
    cm = plt.get_cmap(diff_cmap).with_extremes(bad=PALETTE["unreached"])
    rows, cols = diff.shape
    image = ax.imshow(
        np.ma.masked_where(~revealed, diff),
        cmap=cm,
        norm=TwoSlopeNorm(0, -limit, limit),
        interpolation="nearest",
        extent=(-0.5, cols - 0.5, rows - 0.5, -0.5),
    )
    bar = _colorbar(ax, image, PLOT["difference"].format(dfs=ORDER_NAMES["dfs"], bfs=ORDER_NAMES["bfs"]))
    _show_ticks(ax, diff.shape)
    ax.set_title(PLOT["differ"], fontsize=_points(ax, "title"))
    out["difference"] = (image, bar, [])
    return out


def _comparison_axes(shape: tuple[int, int]) -> list:
    """A new figure as wide as a notebook shows it: DFS and BFS side by side, their difference below."""
    rows, cols = shape
    width = SHOWN_WIDTH_PX / plt.rcParams["figure.dpi"]
    board = (width - 1.6) / 2 * rows / cols  # two boards, their labels and a colour bar across
    height = 2 * (min(board, width / 2) + 0.7)  # two rows, each with a title and labels
    fig = plt.figure(figsize=(width, height), layout="constrained")
    grid = fig.add_gridspec(2, 4)
    return [fig.add_subplot(grid[0, :2]), fig.add_subplot(grid[0, 2:]), fig.add_subplot(grid[1, 1:3])]


@speaks_in_pictures
def frontier_plot(*traces, ax=None, **kwargs):
    """Plot the size of the DFS stack and of the BFS queue over the steps.

    Returns
    -------
    list of Line2D, one per trace

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import msviz
    >>> lines = frontier_plot(msviz.trace(["EEE", "EEM"], (0, 0), order="bfs"))
    >>> lines[0].get_ydata().tolist()
    [3, 2, 1, 0]
    """
    traces = [checked_trace(t) for t in traces]
    ax = _axes(ax)
    lines = []
    for t in traces:
        style = {"color": ORDER_COLORS[t.order], "label": _frontier_name(t.order), "lw": 1.5}
        style.update(kwargs)
        (line,) = ax.plot(np.arange(len(t)), t.frontier, **style)
        lines.append(line)
    names = [_frontier_name(t.order) for t in traces]
    if len(names) == 1:
        title = PLOT["size_title"].format(name=names[0])
    else:
        title = PLOT["waiting_title"].format(names=versus(names))
    _label(ax, PLOT["waiting"], title)
    return lines


def _label(ax, ylabel: str, title: str, **legend) -> None:
    """Finish a chart over the steps: axis labels, title, legend and a light grid."""
    ax.set_xlabel(PLOT["step"], fontsize=_points(ax, "label"))
    ax.set_ylabel(ylabel, fontsize=_points(ax, "label"))
    ax.set_title(title, fontsize=_points(ax, "title"))
    ax.tick_params(labelsize=_points(ax, "tick"))
    ax.legend(frameon=False, fontsize=_points(ax, "label"), **legend)
    ax.grid(alpha=0.3)


@speaks_in_pictures
def step_vs_distance(*traces, ax=None, **kwargs):
    """Plot each visit's step against its distance from the click (in king moves).

    BFS climbs a staircase, ring after ring; DFS wanders far and back.

    Returns
    -------
    list of PathCollection, one per trace

    Examples
    --------
    >>> import msviz
    >>> from matplotlib.figure import Figure
    >>> ax = Figure().subplots()
    >>> points = step_vs_distance(msviz.trace(["EEE", "EEM"], (0, 0), order="bfs"), ax=ax)
    >>> points[0].get_offsets().tolist()
    [[0.0, 0.0], [1.0, 1.0], [2.0, 1.0], [3.0, 1.0]]
    """
    traces = [checked_trace(t) for t in traces]
    ax = _axes(ax)
    points = []
    for t in traces:
        style = {
            "color": ORDER_COLORS[t.order],
            "label": ORDER_NAMES[t.order],
            "s": 6 if len(t) < 2000 else 1,
            "alpha": 0.7,
        }
        style.update(kwargs)
        points.append(ax.scatter(np.arange(len(t)), t.distance, **style))
    _label(ax, PLOT["distance"], PLOT["step_vs_distance"], markerscale=3)
    return points


# ---------------------------------------------------------------------------
# The grader's pictures


@speaks_in_pictures
def draw_failure(failure):
    """Draw a grader's failure: the board and the click, the right answer, the student's; return the figure.

    For an order failure, the middle picture is the order asked for and the
    right one shows the student's cells in the order they were first touched.
    Draws what can be drawn and never raises: an answer that is not a board,
    or a picture that cannot be made, is shown as words.

    Examples
    --------
    >>> from msviz.grade import check
    >>> fig = draw_failure(check(lambda board, click: None, random_boards=0).failure)
    >>> [ax.get_title() for ax in fig.axes][1]
    'expected'
    >>> plt.close(fig)
    """
    try:
        return _failure_figure(failure)
    except Exception as error:  # a last resort: the words, in a figure
        fig = plt.figure(figsize=(6, 2))
        said = PLOT["could_not_draw"].format(name=failure.name, error=type(error).__name__)
        fig.text(0.02, 0.5, said, va="center")
        return fig


def _failure_figure(f):
    import textwrap

    from .render import PALETTE
    from .trace import trace, trace_of_cells

    fig, axes = plt.subplots(1, 3, figsize=(12, 3.8), layout="constrained")
    draw_board(f.case.board, ax=axes[0])
    axes[0].plot(f.case.click[1], f.case.click[0], "o", mfc="none", mec=PALETTE["wrong"], ms=14, mew=2.5)
    axes[0].set_title(PLOT["case"].format(name=f.case.name, click=f.case.click), fontsize=11)
    if f.category == "order":
        asked = f.order or "dfs"
        right = trace(f.case.board, f.case.click, order=asked)
        visit_order_map(right, ax=axes[1], colorbar=False)
        axes[1].set_title(PLOT["an_order"].format(order=ORDER_WORDS[asked]), fontsize=11)
        cells = f.touched
        if cells:
            yours = trace_of_cells(f.case.board, f.case.click, cells, f.after, order=asked)
            visit_order_map(yours, ax=axes[2], colorbar=False)
        name = textwrap.fill(f.name, 40, break_long_words=False)
        axes[2].set_title(PLOT["your_order"].format(name=name), fontsize=11)
        return fig
    draw_board(f.expected, ax=axes[1])
    axes[1].set_title(PLOT["expected"], fontsize=11)
    if isinstance(f.got, list) and f.error is None:
        draw_board(f.got, ax=axes[2])
        for r, row in enumerate(f.expected):
            for c, symbol in enumerate(row):
                if f.got[r][c] != symbol:
                    axes[2].add_patch(
                        plt.Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, ec=PALETTE["wrong"], lw=2.5)
                    )
        name = textwrap.fill(f.name, 40, break_long_words=False)
        axes[2].set_title(PLOT["your_answer"].format(name=name), fontsize=11)
    else:
        axes[2].set_axis_off()
        words = (f.error or f.answer_text).splitlines()[-12:]
        text = "\n".join(textwrap.fill(line, 44, break_long_words=False) for line in words)
        axes[2].text(0, 0.5, text, fontsize=10, family="monospace", va="center")
    return fig
