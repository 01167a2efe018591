"""Pictures of boards and traces, with matplotlib.

The board is drawn as the game draws it: hidden cells raised and grey, revealed
cells flat, digits in the classic colours, mines, the exploded mine on red. A
whole board is composed from small pre-drawn tiles with numpy into one RGB
image, so a picture of any step costs O(cells) and updating a figure is one
``set_data`` on one image.

Every function takes an optional ``ax=`` (the current axes by default), passes
extra keywords to the matplotlib call that draws, and returns its artists.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from matplotlib import pyplot as plt
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Circle

from .board import parse_board

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
    "chebyshev_distance",
]

#: The classic colours of the digits 1-8.
DIGIT_COLORS = {
    "1": "#0000ff",  # blue
    "2": "#008000",  # green
    "3": "#ff0000",  # red
    "4": "#000080",  # dark blue
    "5": "#800000",  # dark red
    "6": "#008080",  # teal
    "7": "#000000",  # black
    "8": "#808080",  # grey
}

_FACE = np.array([192, 192, 192], np.uint8)  # a hidden cell
_LIGHT = np.array([255, 255, 255], np.uint8)  # its lit edges
_SHADOW = np.array([123, 123, 123], np.uint8)  # its shaded edges
_FLAT = np.array([214, 214, 214], np.uint8)  # a revealed cell
_GRID = np.array([150, 150, 150], np.uint8)  # the lines between revealed cells
_BOOM = np.array([255, 40, 40], np.uint8)  # behind the exploded mine
_CURRENT = np.array([255, 214, 10], np.uint8)  # the cell revealed at this step
_FRONTIER = np.array([230, 0, 126], np.uint8)  # outline of cells on the stack or queue

#: Tile order: the code of each symbol in a board image.
_CODES = {s: i for i, s in enumerate("EMB12345678X")}
_SHOWN_MINE = len(_CODES)  # a hidden mine drawn uncovered (a lost game)
_N_TILES = _SHOWN_MINE + 1
_LEGIBLE_PX = 12  # below this, digits are drawn as colours


def tile_size(shape: tuple[int, int], *, width_px: int = 600) -> int:
    """Return the side in pixels of one cell for a board of `shape`.

    Boards up to 50 x 50 (LeetCode's largest) get at least 12 pixels a cell, so
    digits stay legible; larger boards shrink to fit `width_px`.

    Examples
    --------
    >>> tile_size((4, 5)), tile_size((50, 50)), tile_size((200, 200))
    (32, 12, 3)
    """
    side = max(shape)
    px = max(1, min(32, width_px // side))
    return max(px, _LEGIBLE_PX) if side <= 50 else px


@lru_cache(maxsize=16)
def _tiles(px: int) -> np.ndarray:
    """Return the RGB tile of every code, shape (tiles, px, px, 3), drawn once per size."""
    tiles = np.empty((_N_TILES, px, px, 3), np.uint8)
    edge = max(1, px // 8)
    # Hidden: raised, lit from the top left.
    hidden = np.empty((px, px, 3), np.uint8)
    hidden[:] = _FACE
    if px >= 4:
        hidden[:edge, :] = _LIGHT
        hidden[:, :edge] = _LIGHT
        for i in range(edge):  # the shadow, cut on the diagonal at two corners
            hidden[px - 1 - i, i + 1 :] = _SHADOW
            hidden[i + 1 :, px - 1 - i] = _SHADOW
    flat = np.empty((px, px, 3), np.uint8)
    flat[:] = _FLAT
    if px >= 4:
        flat[0, :] = _GRID
        flat[:, 0] = _GRID
    tiles[_CODES["E"]] = hidden
    tiles[_CODES["M"]] = hidden
    tiles[_CODES["B"]] = flat
    glyphs = _glyph_masks(px) if px >= _LEGIBLE_PX else None
    for digit, color in DIGIT_COLORS.items():
        rgb = np.array([int(color[i : i + 2], 16) for i in (1, 3, 5)], np.uint8)
        if glyphs is None:  # too small to read: the cell takes the digit's colour
            tile = np.empty_like(flat)
            tile[:] = (0.35 * _FLAT + 0.65 * rgb).astype(np.uint8)
            if px >= 4:
                tile[0, :] = _GRID
                tile[:, 0] = _GRID
        else:
            tile = _blend(flat, rgb, glyphs[digit])
        tiles[_CODES[digit]] = tile
    black = np.zeros(3, np.uint8)
    mine = glyphs["mine"] if glyphs is not None else _disc_mask(px)
    boom = np.empty_like(flat)
    boom[:] = _BOOM
    tiles[_CODES["X"]] = _blend(boom, black, mine)
    tiles[_SHOWN_MINE] = _blend(flat, black, mine)
    return tiles


def _blend(base: np.ndarray, rgb: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """Return `base` with colour `rgb` painted over it with coverage `alpha` (0-1)."""
    a = alpha[..., None]
    return (base * (1 - a) + rgb * a).round().astype(np.uint8)


def _disc_mask(px: int) -> np.ndarray:
    """Return a filled disc covering the middle of a px x px tile, as coverage 0-1."""
    y, x = np.mgrid[0:px, 0:px] + 0.5
    return (np.hypot(x - px / 2, y - px / 2) <= px * 0.3).astype(float)


@lru_cache(maxsize=8)
def _glyph_masks(px: int) -> dict:
    """Return the coverage (0-1) of each digit and of a mine in a px x px tile.

    The glyphs are drawn once with matplotlib's Agg renderer, all in one row,
    and cut apart.
    """
    names = list(DIGIT_COLORS) + ["mine"]
    scale = 4  # draw larger, then average down: smooth edges
    big = px * scale
    fig = Figure(figsize=(big * len(names) / 100, big / 100), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, len(names))
    ax.set_ylim(0, 1)
    ax.axis("off")
    for i, name in enumerate(names[:-1]):
        ax.text(
            i + 0.5,
            0.47,
            name,
            ha="center",
            va="center",
            fontsize=big * 0.62 * 72 / 100,
            fontweight="bold",
            family="DejaVu Sans",
        )
    m = len(names) - 0.5  # the mine: a disc with spikes
    ax.add_patch(Circle((m, 0.5), 0.24, color="black"))
    for angle in range(0, 180, 45):
        dx, dy = 0.36 * np.cos(np.radians(angle)), 0.36 * np.sin(np.radians(angle))
        ax.plot([m - dx, m + dx], [0.5 - dy, 0.5 + dy], color="black", lw=big * 0.06 * 0.72)
    fig.canvas.draw()
    rgba = np.asarray(fig.canvas.buffer_rgba())[: big, : big * len(names)]
    coverage = 1 - rgba[..., :3].mean(axis=2) / 255
    coverage = coverage.reshape(px, scale, px * len(names), scale).mean(axis=(1, 3))
    masks = {name: coverage[:, i * px : (i + 1) * px] for i, name in enumerate(names)}
    # The mine's glint.
    g = max(1, px // 8)
    c = int(px * 0.38)
    masks["mine"] = masks["mine"].copy()
    masks["mine"][c : c + g, c : c + g] = 0
    return masks


def _codes(board: np.ndarray, show_mines: bool) -> np.ndarray:
    """Return the tile code of every cell of an array of symbols."""
    codes = np.zeros(board.shape, np.intp)
    for symbol, code in _CODES.items():
        codes[board == symbol] = code
    if show_mines:
        codes[board == "M"] = _SHOWN_MINE
    return codes


def _compose(codes: np.ndarray, px: int) -> np.ndarray:
    """Return the RGB image of a board of tile codes, px pixels a cell."""
    rows, cols = codes.shape
    tiles = _tiles(px)[codes]  # (rows, cols, px, px, 3)
    return tiles.transpose(0, 2, 1, 3, 4).reshape(rows * px, cols * px, 3)


def board_image(board, *, px: int | None = None, show_mines: bool = False) -> np.ndarray:
    """Return the board drawn as the game draws it, as an RGB array.

    Parameters
    ----------
    board : board-like or ndarray of str
        Anything :func:`msviz.parse_board` accepts.
    px : int, optional
        Pixels per cell; by default from :func:`tile_size`.
    show_mines : bool
        Draw hidden mines uncovered, as a lost game does.

    Returns
    -------
    ndarray of uint8, shape (rows * px, cols * px, 3)

    Examples
    --------
    >>> board_image(["EB", "1X"], px=16).shape
    (32, 32, 3)
    """
    grid = np.asarray(parse_board(board))
    px = tile_size(grid.shape) if px is None else px
    return _compose(_codes(grid, show_mines), px)


def step_image(trace, k: int, *, px: int | None = None, show_frontier: bool = True) -> np.ndarray:
    """Return the board at step `k` of `trace` as an RGB array.

    The cell revealed at step `k` is tinted gold; the cells waiting on the DFS
    stack or in the BFS queue are outlined in magenta; cells not yet reached
    are still hidden. The cost is O(cells): no step is replayed.

    Examples
    --------
    >>> import msviz
    >>> t = msviz.trace(["EEE", "EEM"], (0, 0))
    >>> step_image(t, 1, px=16).shape
    (32, 48, 3)
    """
    board = trace.board_at(k)
    px = tile_size(board.shape) if px is None else px
    image = _compose(_codes(board, False), px).copy()
    if k >= 0:
        r, c = int(trace.rows[k]), int(trace.cols[k])
        cell = image[r * px : (r + 1) * px, c * px : (c + 1) * px]
        cell[:] = (0.55 * cell + 0.45 * _CURRENT).astype(np.uint8)
    if show_frontier:
        _outline(image, trace.frontier_at(k), px, _FRONTIER)
    return image


def _outline(image: np.ndarray, mask: np.ndarray, px: int, rgb: np.ndarray) -> None:
    """Draw a border inside every cell of `mask` in `image` (in place)."""
    if not mask.any():
        return
    w = max(1, px // 6)
    rows, cols = mask.shape
    view = image.reshape(rows, px, cols, px, 3)
    rr, cc = np.nonzero(mask)
    border = np.zeros((px, px), bool)
    border[:w, :] = border[-w:, :] = border[:, :w] = border[:, -w:] = True
    by, bx = np.nonzero(border)
    view[rr[:, None], by[None, :], cc[:, None], bx[None, :]] = rgb


def _axes(ax):
    return plt.gca() if ax is None else ax


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
    image = step_image(trace, k, px=px, show_frontier=show_frontier)
    return _show(_axes(ax), image, trace.shape, indices, **kwargs)


# --- Pictures of a whole trace ------------------------------------------------------

ORDER_NAMES = {"dfs": "DFS", "bfs": "BFS"}
FRONTIER_NAMES = {"dfs": "DFS stack", "bfs": "BFS queue"}
ORDER_COLORS = {"dfs": "#d55e00", "bfs": "#0072b2"}  # colour-blind-safe pair (Okabe-Ito)


def _annotate(ax, values: np.ndarray, image, fmt: str = "{}") -> list:
    """Write each non-negative value in its cell, in black or white for contrast."""
    texts = []
    cmap, norm = image.get_cmap(), image.norm
    for (r, c), v in np.ndenumerate(values):
        if v < 0:
            continue
        luminance = np.dot(cmap(norm(v))[:3], (0.299, 0.587, 0.114))
        texts.append(
            ax.text(c, r, fmt.format(v), ha="center", va="center", fontsize=7,
                    color="black" if luminance > 0.5 else "white")
        )
    return texts


def _cell_map(ax, values, *, label, cmap, norm=None, annotate=None, colorbar=True, **kwargs):
    """Show a per-cell number map (-1 = none, drawn pale); return (image, colorbar, texts)."""
    ax = _axes(ax)
    cmap = plt.get_cmap(cmap).with_extremes(bad="#eeeeee")
    shown = np.ma.masked_less(values, 0)
    rows, cols = values.shape
    kwargs.setdefault("interpolation", "nearest")
    image = ax.imshow(shown, cmap=cmap, norm=norm,
                      extent=(-0.5, cols - 0.5, rows - 0.5, -0.5), **kwargs)
    if annotate is None:
        annotate = max(values.shape) <= 16
    texts = _annotate(ax, values, image) if annotate else []
    _show_ticks(ax, values.shape)
    bar = ax.figure.colorbar(image, ax=ax, label=label, shrink=0.8) if colorbar else None
    return image, bar, texts


def _show_ticks(ax, shape, indices=None) -> None:
    """Label rows and columns (by default on boards up to 20 x 20), or hide the ticks."""
    rows, cols = shape
    if indices is None:
        indices = max(shape) <= 20
    if indices:
        ax.set_xticks(range(cols))
        ax.set_yticks(range(rows))
        ax.tick_params(length=0, labelsize=8, labeltop=True, labelbottom=False)
    else:
        ax.set_xticks([])
        ax.set_yticks([])


def visit_order_map(trace, *, ax=None, cmap="viridis", norm=None, annotate=None,
                    colorbar=True, **kwargs):
    """Draw the step at which each cell was revealed, as a heatmap with a colour bar.

    Cells never revealed stay pale. The colour map is perceptually uniform and
    readable with colour-blindness (viridis); on boards up to 16 x 16 each cell
    also shows its step.

    Returns
    -------
    (AxesImage, Colorbar or None, list of Text)

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import msviz
    >>> image, bar, texts = visit_order_map(msviz.trace(["EEE", "EEM"], (0, 0)))
    >>> [t.get_text() for t in texts]
    ['0', '1', '2', '3']
    """
    ax = _axes(ax)
    artists = _cell_map(ax, trace.visit_step, label="step revealed", cmap=cmap, norm=norm,
                        annotate=annotate, colorbar=colorbar, **kwargs)
    ax.set_title(f"{ORDER_NAMES[trace.order]} visit order ({len(trace)} steps)")
    return artists


def layer_map(trace, *, ax=None, cmap="cividis", annotate=None, colorbar=True, **kwargs):
    """Draw each revealed cell's BFS layer (distance from the click) or DFS depth.

    Returns
    -------
    (AxesImage, Colorbar or None, list of Text)
    """
    ax = _axes(ax)
    label = "distance from the click (layer)" if trace.order == "bfs" else "recursion depth"
    artists = _cell_map(ax, trace.depth_map, label=label, cmap=cmap, annotate=annotate,
                        colorbar=colorbar, **kwargs)
    ax.set_title(f"{ORDER_NAMES[trace.order]}: {label}")
    return artists


def compare_orders(dfs_trace, bfs_trace, *, axes=None, cmap="viridis", diff_cmap="PuOr"):
    """Draw DFS and BFS visit orders side by side on one colour scale, and how they differ.

    The third panel shows, for each revealed cell, the DFS step minus the BFS
    step: cells DFS reaches later than BFS in one colour, earlier in the other.

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
    """
    if axes is None:
        fig = plt.figure(figsize=(15, 4.2), layout="constrained")
        axes = fig.subplots(1, 3)
    from matplotlib.colors import Normalize, TwoSlopeNorm

    n = max(len(dfs_trace), len(bfs_trace), 2)
    shared = Normalize(vmin=0, vmax=n - 1)
    out = {
        "dfs": visit_order_map(dfs_trace, ax=axes[0], cmap=cmap, norm=shared, colorbar=False),
        "bfs": visit_order_map(bfs_trace, ax=axes[1], cmap=cmap, norm=shared),
    }
    revealed = dfs_trace.visit_step >= 0
    diff = np.where(revealed, dfs_trace.visit_step - bfs_trace.visit_step, 0)
    limit = max(1, int(np.abs(diff).max()))
    ax = axes[2]
    cm = plt.get_cmap(diff_cmap).with_extremes(bad="#eeeeee")
    rows, cols = diff.shape
    image = ax.imshow(np.ma.masked_where(~revealed, diff), cmap=cm,
                      norm=TwoSlopeNorm(0, -limit, limit), interpolation="nearest",
                      extent=(-0.5, cols - 0.5, rows - 0.5, -0.5))
    _show_ticks(ax, diff.shape)
    bar = ax.figure.colorbar(image, ax=ax, shrink=0.8, label="DFS step − BFS step")
    ax.set_title("where the orders differ")
    out["difference"] = (image, bar, [])
    return out


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
    ax = _axes(ax)
    lines = []
    for t in traces:
        style = {"color": ORDER_COLORS[t.order], "label": FRONTIER_NAMES[t.order], "lw": 1.5}
        style.update(kwargs)
        (line,) = ax.plot(np.arange(len(t)), t.frontier, **style)
        lines.append(line)
    ax.set_xlabel("step")
    ax.set_ylabel("cells waiting")
    ax.set_title("frontier size: stack vs queue")
    ax.legend(frameon=False)
    ax.grid(alpha=0.3)
    return lines


def chebyshev_distance(trace) -> np.ndarray:
    """Return each step's distance from the click in king moves: max(|dr|, |dc|)."""
    r0, c0 = trace.click
    return np.maximum(np.abs(trace.rows - r0), np.abs(trace.cols - c0))


def step_vs_distance(*traces, ax=None, **kwargs):
    """Plot each visit's step against its distance from the click (in king moves).

    BFS climbs a staircase, ring after ring; DFS wanders far and back.

    Returns
    -------
    list of PathCollection, one per trace
    """
    ax = _axes(ax)
    points = []
    for t in traces:
        style = {"color": ORDER_COLORS[t.order], "label": ORDER_NAMES[t.order],
                 "s": 6 if len(t) < 2000 else 1, "alpha": 0.7}
        style.update(kwargs)
        points.append(ax.scatter(np.arange(len(t)), chebyshev_distance(t), **style))
    ax.set_xlabel("step")
    ax.set_ylabel("distance from the click (king moves)")
    ax.set_title("visit step against distance")
    ax.legend(frameon=False, markerscale=3)
    ax.grid(alpha=0.3)
    return points
