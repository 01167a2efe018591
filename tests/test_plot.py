"""Pictures: the right colours in the right cells, and steps that differ where they should."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

import msviz  # noqa: E402
from msviz import plot, render  # noqa: E402

PX = 20

# The classic game's colours, written here rather than read from msviz, so a wrong one is caught.
FACE, FLAT, LIGHT, SHADOW, BOOM = (
    (192, 192, 192),
    (214, 214, 214),
    (255, 255, 255),
    (123, 123, 123),
    (255, 40, 40),
)
DIGITS = {
    "1": (0, 0, 255),  # blue
    "2": (0, 128, 0),  # green
    "3": (255, 0, 0),  # red
    "4": (0, 0, 128),  # navy
    "5": (128, 0, 0),  # maroon
    "6": (0, 128, 128),  # teal
    "7": (0, 0, 0),  # black
    "8": (128, 128, 128),  # grey
}


def cell(image, r, c, px=PX):
    return image[r * px : (r + 1) * px, c * px : (c + 1) * px]


def middle(image, r, c, px=PX):
    """The colour at the centre of a cell, away from edges and glyphs' holes."""
    return tuple(int(v) for v in cell(image, r, c, px)[2, px // 2])


def test_hidden_revealed_and_exploded_cells_have_their_colours():
    image = plot.board_image(["EMB", "1XE"], px=PX)
    assert image.shape == (2 * PX, 3 * PX, 3)
    face = FACE
    assert middle(image, 0, 0) == face  # hidden E
    assert np.array_equal(cell(image, 0, 1), cell(image, 0, 0))  # a hidden mine looks hidden
    assert middle(image, 0, 2) == FLAT  # B
    assert tuple(cell(image, 1, 1)[2, 2].tolist()) == BOOM  # X on red
    assert tuple(cell(image, 1, 1)[PX // 2, PX // 2].tolist()) != BOOM  # the mine
    # A hidden cell is raised: lit top-left edge, shaded bottom-right edge.
    hidden = cell(image, 0, 0)
    assert tuple(hidden[0, PX // 2].tolist()) == LIGHT
    assert tuple(hidden[-1, PX // 2].tolist()) == SHADOW


@pytest.mark.parametrize("digit", list("12345678"))
def test_digits_are_drawn_in_their_classic_colours(digit):
    tile = cell(plot.board_image([[digit]], px=24), 0, 0, 24).reshape(-1, 3).astype(int)
    want = np.array(DIGITS[digit])
    # The glyph's darkest-most-saturated pixels are the digit's colour.
    distance = np.abs(tile - want).sum(axis=1)
    assert distance.min() <= 12
    assert (distance <= 40).sum() >= 10  # a real glyph, not one stray pixel


def test_digits_on_a_huge_board_become_colours():
    px = plot.tile_size((200, 200))
    assert px < 12
    tile = cell(plot.board_image(np.full((200, 200), "3"), px=px), 5, 5, px)
    assert tile[px // 2, px // 2, 0] > tile[px // 2, px // 2, 1] + 80  # red stands for 3


def test_legible_tiles_up_to_leetcode_size():
    assert plot.tile_size((50, 50)) >= 12
    assert plot.tile_size((1, 50)) >= 12


def test_step_k_and_k_plus_1_differ_exactly_where_expected():
    board = msviz.random_board(10, 12, 12, seed=4, safe=(5, 6))
    for order in msviz.ORDERS:
        t = msviz.trace(board, (5, 6), order=order)
        assert len(t) > 10
        for k in range(len(t) - 1):
            a, b = plot.step_image(t, k, px=PX), plot.step_image(t, k + 1, px=PX)
            changed = np.zeros(t.shape, bool)
            changed[t.row[k], t.col[k]] = True  # no longer the current cell
            changed[t.row[k + 1], t.col[k + 1]] = True  # revealed now
            changed |= t.frontier_at(k) != t.frontier_at(k + 1)  # outlines on and off
            differs = (a != b).reshape(10, PX, 12, PX, 3).any(axis=(1, 3, 4))
            assert np.array_equal(differs, changed), (order, k)


# the colours as the palette names them, so a new shade there is followed here
AMBER, BLACK, STACK_BLUE, QUEUE_RED = (
    render._rgb(name).tolist() for name in ("current", "current_border", "stack", "queue")
)


@pytest.mark.parametrize("order, outline", [("bfs", QUEUE_RED), ("dfs", STACK_BLUE)])
def test_the_current_cell_is_amber_in_black_and_the_waiting_cells_outlined(order, outline):
    t = msviz.trace(["EEEE", "EEEE", "EEEM"], (0, 0), order=order)
    k = 0 if order == "bfs" else 1
    image = plot.step_image(t, k, px=PX)
    r, c = int(t.row[k]), int(t.col[k])
    current = cell(image, r, c)
    assert current[0, 0].tolist() == BLACK and current[PX // 2, 3].tolist() == AMBER
    waiting = [tuple(x) for x in np.argwhere(t.frontier_at(k)) if tuple(x) != (r, c)]
    assert waiting
    for w in waiting:
        assert cell(image, *w)[0, PX // 2].tolist() == outline
    far = cell(image, 2, 2)
    assert outline not in far.reshape(-1, 3).tolist()


def test_drawing_functions_take_ax_and_return_artists():
    t = msviz.trace(msviz.random_board(8, 8, 6, seed=2, safe=(4, 4)), (4, 4))
    q = msviz.trace(t.board, (4, 4), order="bfs")
    fig = Figure()
    axes = fig.subplots(2, 3)
    image = plot.draw_board(t.final, ax=axes[0, 0], cmap=None)
    assert image.axes is axes[0, 0] and image.get_array().shape[:2] == (8 * 32, 8 * 32)
    step = plot.draw_step(t, 3, ax=axes[0, 1])
    assert np.array_equal(step.get_array(), plot.step_image(t, 3))
    im, bar, texts = plot.visit_order_map(t, ax=axes[0, 2])
    assert im.get_array()[t.row[5], t.col[5]] == 5
    assert texts == []  # six charts in one figure: cells too small for two digits at 10 px
    assert bar is not None
    lines = plot.frontier_plot(t, q, ax=axes[1, 0])
    assert [line.get_label() for line in lines] == ["DFS stack", "BFS queue"]
    assert lines[1].get_ydata().tolist() == q.frontier.tolist()
    points = plot.step_vs_distance(t, q, ax=axes[1, 1])
    assert len(points[0].get_offsets()) == len(t)
    layers, _, _ = plot.layer_map(q, ax=axes[1, 2])
    assert layers.get_array()[4, 4] == 0


def test_compare_orders_shares_one_colour_scale():
    board = msviz.random_board(9, 9, 5, seed=3, safe=(4, 4))
    d = msviz.trace(board, (4, 4))
    b = msviz.trace(board, (4, 4), order="bfs")
    fig = Figure()
    out = plot.compare_orders(d, b, axes=fig.subplots(1, 3))
    assert out["dfs"][0].norm is out["bfs"][0].norm
    diff = out["difference"][0].get_array()
    r, c = int(d.row[7]), int(d.col[7])
    assert diff[r, c] == d.step_map[r, c] - b.step_map[r, c]
