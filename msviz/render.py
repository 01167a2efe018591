"""The board as the game draws it: one palette, tiles, and board and step images.

Hidden cells are raised and grey, revealed cells flat, digits in the classic
colours, mines black, the exploded mine on red. A whole board is composed from
small pre-drawn tiles with numpy into one RGB image, so a picture of any step
costs O(cells). The same palette is sent to the browser view (`msviz.view`),
which draws the same tiles on a canvas: each colour is defined here, once.

This module draws with matplotlib's Agg renderer only (for the digits' glyphs);
it never opens a window.
"""

from __future__ import annotations

import functools
from functools import lru_cache

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Circle

from . import _checks
from .board import parse_board
from .trace import checked as checked_trace

__all__ = [
    "PALETTE",
    "DIGIT_COLORS",
    "CODES",
    "tile_size",
    "board_image",
    "step_image",
    "state_image",
    "marked_image",
    "tile_codes",
    "png",
]

#: Every colour of the board, by name; the browser view is sent the same table.
PALETTE = {
    "face": "#c0c0c0",  # a hidden cell
    "light": "#ffffff",  # its lit edges
    "shadow": "#7b7b7b",  # its shaded edges
    "flat": "#d6d6d6",  # a revealed cell
    "grid": "#969696",  # the lines between revealed cells
    "boom": "#ff2828",  # behind the exploded mine
    "mine": "#000000",  # a mine
    "flag": "#e00000",  # a flag planted on a hidden cell (the game)
    # What a step shows on top of the board. Chosen so that each stays apart from the
    # tiles and from each other under normal vision and simulated protanopia,
    # deuteranopia and tritanopia (tests/test_palette.py checks the figures).
    "current": "#c88400",  # the cell of this step: a dark amber fill (1.5:1 from both tiles) ...
    "current_border": "#000000",  # ... with a black border
    "stack": "#1a3fb0",  # the DFS call chain: a path of arrows, cells outlined
    "queue": "#9a3300",  # the BFS queue: cells outlined and numbered from the front
    "wrong": "#e6007e",  # a mistake: the grader's marks, a quiz guess that does not count
    "right": "#1a7f37",  # a quiz guess that counts
    # Charts and paper.
    "unreached": "#eeeeee",  # a cell the reveal never reaches, on a chart
    "ink": "#555555",  # lines on the paper worksheet, quiet words on a page
    "control": "#f4f4f4",  # a page's buttons ...
    "control_edge": "#999999",  # ... their border
    "control_ink": "#222222",  # ... and their icons
    "error": "#dd3333",  # the border of a widget's error box
    # The view's code panel and focus ring (as CSS custom properties, --msviz-<name>).
    "code_paper": "#f7f7f7",  # behind the code
    "code_edge": "#dddddd",  # its border
    "code_on": "#ffe7a8",  # the line that runs
    "focus": "#1a73e8",  # the ring round a view that has the keyboard
    # The classic colours of the digits 1-8.
    "1": "#0000ff",  # blue
    "2": "#008000",  # green
    "3": "#ff0000",  # red
    "4": "#000080",  # dark blue
    "5": "#800000",  # dark red
    "6": "#008080",  # teal
    "7": "#000000",  # black
    "8": "#808080",  # grey
}
#: The classic colours of the digits 1-8 (a view of `PALETTE`).
DIGIT_COLORS = {d: PALETTE[d] for d in "12345678"}
DIGIT_BLEND = 0.65  # on cells too small for a glyph, how much of the cell the digit's colour covers


def _rgb(name: str) -> np.ndarray:
    """Return palette colour `name` as three uint8s."""
    color = PALETTE[name]
    return np.array([int(color[i : i + 2], 16) for i in (1, 3, 5)], np.uint8)


_FACE, _LIGHT, _SHADOW, _FLAT, _GRID, _BOOM, _CURRENT, _BORDER = (
    _rgb(n) for n in ("face", "light", "shadow", "flat", "grid", "boom", "current", "current_border")
)
#: The colour that marks the cells waiting, in each order.
WAITING_COLOR = {"dfs": "stack", "bfs": "queue"}


def view_palette() -> dict:
    """Return the palette as the browser view is sent it (with the blend it needs)."""
    return {**PALETTE, "digit_blend": DIGIT_BLEND}


#: Tile order: the code of each symbol in a board image.
#: The code of each symbol: the tile drawn for it here and in the browser view.
CODES = {s: i for i, s in enumerate("EMB12345678X")}
_CODES = CODES
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
    rows, cols = _checks.size(shape[0], shape[1], most=_checks.MAX_CELLS * 4, what="a board")
    width_px = _checks.whole_number("width_px", width_px, least=1)
    side = max(rows, cols)
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
    for digit in DIGIT_COLORS:
        rgb = _rgb(digit)
        if glyphs is None:  # too small to read: the cell takes the digit's colour
            tile = np.empty_like(flat)
            tile[:] = ((1 - DIGIT_BLEND) * _FLAT + DIGIT_BLEND * rgb).astype(np.uint8)
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
    rgba = np.asarray(fig.canvas.buffer_rgba())[:big, : big * len(names)]
    coverage = 1 - rgba[..., :3].mean(axis=2) / 255
    coverage = coverage.reshape(px, scale, px * len(names), scale).mean(axis=(1, 3))
    masks = {name: coverage[:, i * px : (i + 1) * px] for i, name in enumerate(names)}
    # The mine's glint.
    g = max(1, px // 8)
    c = int(px * 0.38)
    masks["mine"] = masks["mine"].copy()
    masks["mine"][c : c + g, c : c + g] = 0
    return masks


def tile_codes(board: np.ndarray, show_mines: bool = False) -> np.ndarray:
    """Return the tile code (`CODES`) of every cell of an array of symbols.

    Examples
    --------
    >>> tile_codes(np.array([["E", "M", "B", "X"]])).tolist()
    [[0, 1, 2, 11]]
    """
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
    px = _side(grid.shape, px)
    return _compose(tile_codes(grid, show_mines), px)


def _side(shape: tuple[int, int], px) -> int:
    """The side of a cell in pixels: `px` checked, or chosen for the board; the picture's size checked."""
    px = _checks.px(px)
    px = tile_size(shape) if px is None else px
    _checks.pixels(shape, px)
    return px


def step_image(trace, k: int, *, px: int | None = None, show_frontier: bool = True) -> np.ndarray:
    """Return the board at step `k` of `trace` as an RGB array.

    The cell revealed at step `k` is filled amber with a black border; the
    cells waiting on the DFS stack are outlined in the stack's blue, those in the
    BFS queue in the queue's brown; cells not yet reached are still hidden.
    The cost is O(cells): no step is replayed.

    Examples
    --------
    >>> import msviz
    >>> t = msviz.trace(["EEE", "EEM"], (0, 0))
    >>> step_image(t, 1, px=16).shape
    (32, 48, 3)
    """
    trace = checked_trace(trace)
    board = trace.board_at(k)  # checks k
    current = (int(trace.row[k]), int(trace.col[k])) if k >= 0 else None
    frontier = trace.frontier_at(k) if show_frontier else None
    return state_image(board, current=current, frontier=frontier, px=px, order=trace.order)


def state_image(board, *, current=None, frontier=None, px=None, show_mines=False, order="dfs") -> np.ndarray:
    """Return a board with a current cell (amber, black border) and outlined cells, as RGB.

    Parameters
    ----------
    board : ndarray of str
        The symbols shown.
    current : (int, int), optional
        The cell filled amber.
    frontier : ndarray of bool, optional
        The cells outlined.
    px : int, optional
        Pixels per cell; by default from :func:`tile_size`.
    show_mines : bool
        Draw hidden mines uncovered.
    order : {"dfs", "bfs"}
        The colour of the outlines: the stack's or the queue's.

    Examples
    --------
    >>> import numpy as np
    >>> state_image(np.array([["E", "B"]]), current=(0, 1), px=8).shape
    (8, 16, 3)
    """
    board = np.asarray(board)
    px = _side(board.shape, px)
    image = _compose(tile_codes(board, show_mines), px).copy()
    if frontier is not None:
        _outline(image, frontier, px, _rgb(WAITING_COLOR[order]))
    if current is not None:
        r, c = current
        image[r * px : (r + 1) * px, c * px : (c + 1) * px] = _current_tile(str(board[r, c]), px)
    return image


def marked_image(board, marks=None, *, px: int | None = None, show_mines: bool = False) -> np.ndarray:
    """Return a board with some cells outlined in the mistake colour (``PALETTE["wrong"]``), as RGB.

    What the grader's pages draw: a student's answer with the cells unlike the
    right answer outlined, or a board with its click.

    Parameters
    ----------
    board : board-like
        Anything :func:`msviz.parse_board` accepts.
    marks : array-like of bool, optional
        The cells outlined, the board's shape.
    px : int, optional
        Pixels per cell; by default from :func:`tile_size`.
    show_mines : bool
        Draw hidden mines uncovered.

    Examples
    --------
    >>> image = marked_image(["EB", "1M"], [[False, True], [False, False]], px=8)
    >>> image.shape, tuple(image[0, 8]) == tuple(_rgb("wrong"))
    ((16, 16, 3), True)
    """
    grid = np.asarray(parse_board(board))
    px = _side(grid.shape, px)
    image = _compose(tile_codes(grid, show_mines), px).copy()
    if marks is not None:
        marks = np.asarray(marks, bool)
        if marks.shape != grid.shape:
            raise ValueError(f"marks of shape {marks.shape} for a board of shape {grid.shape}")
        _outline(image, marks, px, _rgb("wrong"))
    return image


def _current_tile(symbol: str, px: int) -> np.ndarray:
    """Return the tile of the current cell: its symbol on an amber fill, in a black border."""
    tile = np.empty((px, px, 3), np.uint8)
    tile[:] = _CURRENT
    glyphs = _glyph_masks(px) if px >= _LEGIBLE_PX else None
    if glyphs is not None and symbol in DIGIT_COLORS:
        tile = _blend(tile, _LIGHT, _halo(glyphs[symbol], max(1, px // 12)))  # legible on the fill
        tile = _blend(tile, _rgb(symbol), glyphs[symbol])
    elif glyphs is not None and symbol == "X":
        tile = _blend(tile, _rgb("mine"), glyphs["mine"])
    w = max(1, px // 8)
    tile[:w, :] = tile[-w:, :] = tile[:, :w] = tile[:, -w:] = _BORDER
    return tile


def _halo(coverage: np.ndarray, width: int) -> np.ndarray:
    """Return `coverage` grown by `width` pixels each way: the glyph's halo."""
    out = coverage.copy()
    for dy in range(-width, width + 1):
        for dx in range(-width, width + 1):
            out = np.maximum(out, np.roll(coverage, (dy, dx), axis=(0, 1)))
    return out


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


def png(image: np.ndarray) -> bytes:
    """Return an RGB image (as from :func:`step_image`) as PNG bytes.

    Examples
    --------
    >>> png(board_image(["EB"], px=8))[:4]
    b'\\x89PNG'
    """
    import io

    from matplotlib.image import imsave

    buffer = io.BytesIO()
    imsave(buffer, image, format="png")
    return buffer.getvalue()


# ---- words in pictures: a font for the language spoken ------------------------------------------

#: Fonts that write each language's own letters, tried in this order (Debian's fonts-noto-cjk,
#: then those of macOS, Windows and other Linux systems). A language not named needs none.
LANGUAGE_FONTS = {
    "zh_CN": (
        "Noto Sans CJK SC",
        "Noto Sans CJK JP",
        "Source Han Sans SC",
        "PingFang SC",
        "Microsoft YaHei",
        "WenQuanYi Zen Hei",
        "SimHei",
    )
}


@functools.cache
def _installed_fonts() -> frozenset:
    from matplotlib import font_manager

    return frozenset(font.name for font in font_manager.fontManager.ttflist)


def language_fonts(language: str) -> list[str]:
    """The fonts installed here that write `language`'s letters, best first (none: none needed or found).

    Examples
    --------
    >>> language_fonts("en")
    []
    """
    return [name for name in LANGUAGE_FONTS.get(language, ()) if name in _installed_fonts()]


def speaks_in_pictures(function):
    """Give a drawing function a ``language=`` argument (`msviz.i18n.speaks`), and have its words
    drawn in a font with the language's letters: where the language needs one, its fonts are added
    at the end of matplotlib's sans-serif fonts, so each letter comes from the first font that has
    it (text matplotlib's own fonts can write looks as before).

    Examples
    --------
    >>> import matplotlib
    >>> from matplotlib.figure import Figure
    >>> @speaks_in_pictures
    ... def title(ax):
    ...     return ax.set_title("深度优先")
    >>> text = title(Figure().subplots(), language="zh_CN")
    >>> set(language_fonts("zh_CN")) <= set(matplotlib.rcParams["font.sans-serif"])
    True
    """
    from .i18n import get_language, speaks

    @speaks
    @functools.wraps(function)
    def drawn(*args, **kwargs):
        fonts = language_fonts(get_language())
        if fonts:
            import matplotlib

            known = matplotlib.rcParams["font.sans-serif"]
            matplotlib.rcParams["font.sans-serif"] = [*known, *(f for f in fonts if f not in known)]
        return function(*args, **kwargs)

    return drawn
