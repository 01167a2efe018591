"""The charts are readable on a school laptop: no text under 10 px as a notebook shows it.

A notebook (matplotlib-inline) shows a figure as a PNG at the figure's DPI,
cropped to its drawing ("tight"), and JupyterLab shrinks a picture wider than
the output area to its width. At 1024 x 768 with the file browser open that
area is about 585 CSS px wide (the code area measured in the browser suite's
screenshot, tests/test_notebooks.py; the output area is a little wider, so 585
is the harder case). Each chart is drawn here as the notebooks draw it, at
their figure sizes, and every piece of text is measured as it will be shown.
"""

import io
import struct

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib import pyplot as plt  # noqa: E402
from matplotlib.text import Text  # noqa: E402

import msviz  # noqa: E402
from msviz import plot  # noqa: E402

#: The width of JupyterLab's output area at 1024 x 768 with the file browser open, CSS px.
OUTPUT_WIDTH_PX = 585
#: The smallest text the issue allows, CSS px.
SMALLEST_PX = 10


def shown_text(fig) -> list[tuple[float, str]]:
    """Each text of `fig` with its height in CSS px as the notebook shows it, smallest first."""
    png = io.BytesIO()
    fig.savefig(png, format="png", bbox_inches="tight")  # as matplotlib-inline does
    width = struct.unpack(">I", png.getvalue()[16:20])[0]  # the PNG's IHDR width
    shrink = min(1.0, OUTPUT_WIDTH_PX / width)
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    return sorted((t.get_fontsize() * fig.dpi / 72 * shrink, t.get_text()) for t in texts)


@pytest.fixture(scope="module")
def notebook05():
    """Notebook 05's board and click, and its traces."""
    board = msviz.random_board(12, 16, 20, seed=3, safe=(6, 8))
    return {order: msviz.trace(board, (6, 8), order=order) for order in ("dfs", "bfs")}


def open_board(rows, cols, click=(0, 0), order="dfs"):
    return msviz.trace([["E"] * cols for _ in range(rows)], click, order=order)


def comparison(t):
    plot.compare_orders(t["dfs"], t["bfs"])  # notebook 05, its own figure


def frontier_and_distance(t):
    axes = plt.subplots(1, 2, figsize=(11, 3.8), layout="constrained")[1]  # notebook 05
    plot.frontier_plot(t["dfs"], t["bfs"], ax=axes[0])
    plot.step_vs_distance(t["dfs"], t["bfs"], ax=axes[1])


def two_neighbour_orders(t):
    axes = plt.subplots(1, 2, figsize=(11, 3.6), layout="constrained")[1]  # notebook 05
    plot.visit_order_map(t["dfs"], ax=axes[0], annotate=False)
    plot.visit_order_map(t["bfs"], ax=axes[1], annotate=False)


def big_board(t):
    board = msviz.random_board(200, 200, 1600, seed=11, safe=(100, 100))
    axes = plt.subplots(1, 2, figsize=(11, 4.5), layout="constrained")[1]  # notebook 05
    for ax, order in zip(axes, ("dfs", "bfs")):
        plot.visit_order_map(msviz.trace(board, (100, 100), order=order), ax=ax)


def corridor(t):
    ax = plt.subplots(figsize=(4, 4))[1]  # notebook 05, a 21 x 21 board
    plot.visit_order_map(open_board(21, 21), ax=ax, annotate=False)


def tiny_step_map(t):
    ax = plt.subplots(figsize=(3.6, 3))[1]  # notebook 03
    plot.visit_order_map(open_board(3, 4), ax=ax)


def stack_over_the_steps(t):
    plt.figure()  # notebook 03, the default figure
    plot.frontier_plot(t["dfs"])


def step_and_map(t):
    axes = plt.subplots(1, 2, figsize=(7, 3), layout="constrained")[1]  # notebook 04
    tiny = open_board(3, 4, (1, 1), "bfs")
    plot.draw_step(tiny, 0, ax=axes[0])
    plot.visit_order_map(tiny, ax=axes[1])


def layers(t):
    plt.figure()  # notebook 04, the default figure
    plot.layer_map(t["bfs"])


def corner_layers(t):
    ax = plt.subplots(figsize=(3.8, 3))[1]  # notebook 04
    plot.layer_map(open_board(5, 5, order="bfs"), ax=ax)


def boards_before_and_after(t):
    axes = plt.subplots(1, 2, figsize=(7, 2.8), layout="constrained")[1]  # notebook 02
    plot.draw_board(t["dfs"].board, ax=axes[0])
    plot.draw_board(t["dfs"].final, ax=axes[1])


CHARTS = [
    comparison,
    frontier_and_distance,
    two_neighbour_orders,
    big_board,
    corridor,
    tiny_step_map,
    stack_over_the_steps,
    step_and_map,
    layers,
    corner_layers,
    boards_before_and_after,
]


@pytest.mark.parametrize("chart", CHARTS, ids=lambda f: f.__name__)
def test_no_text_under_10_px_as_a_notebook_shows_it(chart, notebook05):
    plt.close("all")
    chart(notebook05)
    try:
        shown = shown_text(plt.gcf())
    finally:
        plt.close("all")
    assert shown, "the chart has no text to measure"
    smallest, text = shown[0]
    assert smallest >= SMALLEST_PX, f"{text!r} shows at {smallest:.1f} px"


def test_the_measure_sees_small_text():
    fig = plt.figure(figsize=(15, 4))  # 1500 px wide: shown at 585 / 1500 of its size
    fig.text(0.01, 0.5, "small", fontsize=10)
    fig.text(0.9, 0.5, "big", fontsize=30)
    try:
        (small, _), (big, _) = shown_text(fig)
    finally:
        plt.close(fig)
    assert small < SMALLEST_PX <= big


def test_the_comparison_writes_its_steps_where_they_fit():
    board = open_board(5, 6)
    b = msviz.trace(board.board, (0, 0), order="bfs")
    out = plot.compare_orders(board, b)  # big cells: every step written
    big = len(out["dfs"][2])
    plt.close("all")
    out = plot.compare_orders(open_board(30, 40), open_board(30, 40, order="bfs"))  # 6 px cells
    small = len(out["dfs"][2])
    plt.close("all")
    assert (big, small) == (len(board), 0)
    assert np.unique(b.step_map).size == 30
