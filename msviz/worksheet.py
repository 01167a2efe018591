"""A worksheet for paper: a board whose cells students number by hand, and its answer key.

Page 1 shows the board with its mines and the click, twice: "number the cells
in the order a depth-first reveal gives them their symbol", then the same for
breadth-first, with the neighbour order drawn beside them. Page 2, the
answer key, shows both orders and the board after the click. Made with
matplotlib, one PDF, for a quiz or an exercise without computers:

    python -m msviz worksheet --rows 6 --cols 8 --mines 7 --seed 3 -o worksheet.pdf
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from . import _checks
from .board import parse_board
from .render import PALETTE, speaks_in_pictures
from .trace import trace
from .traversal import READING_ORDER
from .words import TITLES, WORKSHEET

__all__ = ["PDF_ONLY", "answer_key", "save_worksheet"]

#: The largest board that still leaves room to write a number in each cell on A4.
MOST_CELLS = 20 * 20
#: What a worksheet's file name must end in, in English (``WORKSHEET["pdf_only"]`` says it in the
#: language spoken, as the function and the command line do).
PDF_ONLY = WORKSHEET.english["pdf_only"]


def answer_key(board, click, *, neighbors=READING_ORDER) -> dict:
    """Return, for each order, the step each cell is revealed at (the click is step 0, as in the
    notebooks), -1 where none.

    Examples
    --------
    >>> key = answer_key(["EEE", "EEM"], (0, 0))
    >>> key["dfs"].tolist(), key["bfs"].tolist()
    ([[0, 1, -1], [2, 3, -1]], [[0, 1, -1], [2, 3, -1]])
    """
    return _key(_traces(board, click, neighbors))


def _traces(board, click, neighbors) -> dict:
    """The depth-first and the breadth-first trace of the click."""
    return {order: trace(board, click, order=order, neighbors=neighbors) for order in ("dfs", "bfs")}


def _key(traces: dict) -> dict:
    """The step each cell is revealed at in each order (the click: 0), -1 where none."""
    return {order: t.step_map for order, t in traces.items()}


def _grid(ax, grid: np.ndarray, click, numbers=None, *, symbols=False) -> None:
    """Draw a plain grid to write in: mines as black discs, the click ringed, optional numbers."""
    rows, cols = grid.shape
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    ax.set_aspect("equal")
    ax.set_xticks(range(cols))
    ax.set_yticks(range(rows))
    ax.tick_params(length=0, labelsize=7, labeltop=True, labelbottom=False)
    for k in range(rows + 1):
        ax.axhline(k - 0.5, color=PALETTE["ink"], lw=0.8)
    for k in range(cols + 1):
        ax.axvline(k - 0.5, color=PALETTE["ink"], lw=0.8)
    for spine in ax.spines.values():
        spine.set_visible(False)
    mines = np.argwhere((grid == "M") | (grid == "X"))
    ax.scatter(mines[:, 1], mines[:, 0], s=220 * 8 / max(rows, cols), color=PALETTE["mine"], zorder=3)
    r, c = click
    ax.add_patch(_ring(c, r))
    if numbers is not None:
        size = max(6, 13 - max(rows, cols) // 3)
        for (i, j), n in np.ndenumerate(numbers):
            if n >= 0:
                ax.text(j, i, str(n), ha="center", va="center", fontsize=size, weight="bold")
    if symbols:
        for (i, j), s in np.ndenumerate(grid):
            if s in "12345678B":
                color = PALETTE.get(s, PALETTE["shadow"])
                ax.text(j + 0.42, i + 0.42, s, ha="right", va="bottom", fontsize=6, color=color)


def _ring(x, y):
    from matplotlib.patches import Circle

    return Circle((x, y), 0.42, fill=False, ec=PALETTE["wrong"], lw=2.5, zorder=4)


def _neighbour_order(ax, neighbors) -> None:
    """Draw the 3 x 3 block around a cell, numbered in the order its neighbours are tried."""
    ax.set_xlim(-1.5, 1.5)
    ax.set_ylim(1.5, -1.5)
    ax.set_aspect("equal")
    ax.axis("off")
    for k in range(4):
        ax.plot([k - 1.5] * 2, [-1.5, 1.5], color=PALETTE["ink"], lw=0.8)
        ax.plot([-1.5, 1.5], [k - 1.5] * 2, color=PALETTE["ink"], lw=0.8)
    ax.text(0, 0, WORKSHEET["cell"], ha="center", va="center", fontsize=8)
    for n, (dr, dc) in enumerate(neighbors, start=1):
        ax.text(dc, dr, str(n), ha="center", va="center", fontsize=11, weight="bold")
    ax.set_title(WORKSHEET["neighbours"], fontsize=9)


@speaks_in_pictures
def save_worksheet(board, click, path, *, neighbors=READING_ORDER, title: str | None = None) -> Path:
    """Write a two-page PDF: the worksheet, then its answer key; return its path.

    Parameters
    ----------
    board, click, neighbors
        As for :func:`msviz.dfs_reveal`; the board has at most 400 cells, so
        that a number fits in each cell on paper.
    path : str or Path
        Where to write; it should end in ``.pdf``.
    title : str, optional
        A heading for both pages.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = save_worksheet(["EEEE", "EEEM", "EEEE"], (0, 0), pathlib.Path(tempfile.mkdtemp()) / "w.pdf")
    >>> path.read_bytes()[:5]
    b'%PDF-'
    """
    path = Path(path)
    if path.suffix.lower() != ".pdf":
        raise ValueError(f"cannot write {str(path)!r}: {WORKSHEET['pdf_only']}")
    grid = np.array(parse_board(board))
    _checks.size(*grid.shape, most=MOST_CELLS, what="a worksheet board")
    click = _checks.click(click, grid.shape)
    traces = _traces(grid, click, neighbors)
    key, final = _key(traces), traces["dfs"].final
    title = title or WORKSHEET["title"]
    with PdfPages(path) as pdf:
        pdf.savefig(_page(grid, click, neighbors, title, None, None))
        pdf.savefig(_page(grid, click, neighbors, WORKSHEET["answer_key"].format(title=title), key, final))
    return path


def _page(grid, click, neighbors, title, key, final) -> Figure:
    """One A4 page: the two grids (empty, or numbered), and the neighbour order."""
    fig = Figure(figsize=(8.27, 11.69), layout="constrained")
    fig.suptitle(title, fontsize=13, weight="bold")
    top, bottom = fig.subfigures(2, 1, height_ratios=[1, 1])
    for sub, order in ((top, "dfs"), (bottom, "bfs")):
        ax, side = sub.subplots(1, 2, width_ratios=[4, 1])
        shown = grid if key is None else final
        _grid(ax, shown, click, None if key is None else key[order], symbols=key is not None)
        name = TITLES[order]
        if key is None:
            ax.set_title(WORKSHEET["number_them"].format(name=name), fontsize=9)
        else:
            ax.set_title(WORKSHEET["numbered"].format(name=name), fontsize=9)
        _neighbour_order(side, neighbors)
    return fig
