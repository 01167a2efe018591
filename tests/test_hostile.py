"""Hostile and careless input: each gives a clear error at the call, quickly, in little memory.

Each row: the call, the error type, words the message must hold (the value or
the rule), and the input that must stay unchanged. Every call must finish
within a second and allocate no more than 50 MB, however large the size asked.
"""

import copy
import time
import tracemalloc

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import msviz  # noqa: E402
from msviz import export, plot, render  # noqa: E402
from msviz.rules import Minesweeper  # noqa: E402

B = [list("EEEEE"), list("EEMEE"), list("EEEEE")]
T = msviz.trace(B, (2, 0))
T_OTHER = msviz.trace(["EEE", "EEM"], (0, 0), order="bfs")
ODD = [(1.7, 0.2)] + list(msviz.READING_ORDER[1:])

HOSTILE = [
    # Boards
    (lambda: msviz.parse_board("[" * 100_000 + "]" * 100_000), ValueError, "nests lists far too deeply"),
    (lambda: msviz.parse_board(b"EEM\nEEE"), TypeError, "not bytes: b'EEM"),
    (lambda: msviz.reveal(bytearray(b"EE"), (0, 0)), TypeError, "not bytes"),
    (lambda: msviz.format_board(B, style=["text"]), ValueError, r"style must be"),
    # Clicks
    (lambda: msviz.reveal(B, np.array(3)), TypeError, r"click must be a pair .* not array\(3\)"),
    (lambda: msviz.reveal(B, np.array([[1, 0]])), TypeError, r"click must be a pair"),
    (lambda: msviz.reveal(B, (1.0, 0)), TypeError, r"whole numbers, not \(1.0, 0\)"),
    (lambda: msviz.reveal(B, (np.True_, 0)), TypeError, r"whole numbers"),
    # Orders and neighbours
    (
        lambda: msviz.reveal(B, (0, 0), order=["dfs"]),
        TypeError,
        r"order must be the string .* list: \['dfs'\]",
    ),
    (lambda: msviz.trace(B, (0, 0), order=None), TypeError, r"order must be the string"),
    (lambda: msviz.reveal(B, (0, 0), order="DFS"), ValueError, r"not 'DFS'"),
    (lambda: msviz.reveal(B, (0, 0), neighbors=ODD), TypeError, r"holds \(1.7, 0.2\)"),
    (
        lambda: msviz.reveal(B, (0, 0), neighbors=["01"] + list(msviz.READING_ORDER[1:])),
        TypeError,
        r"holds '01'",
    ),
    (
        lambda: msviz.reveal(B, (0, 0), neighbors=[(True, False)] + list(msviz.READING_ORDER[1:])),
        TypeError,
        r"holds \(True, False\)",
    ),
    # Sizes nobody should ask for
    (
        lambda: msviz.random_board(10**5, 10**5, 0),
        ValueError,
        r"100000x100000 has 10000000000 cells; the limit is 4000000 cells",
    ),
    (lambda: msviz.random_board(3000, 3000, 0), ValueError, r"the limit is 4000000 cells"),
    (lambda: Minesweeper(100000, 100000, 1), ValueError, r"a game of 100000x100000"),
    (lambda: msviz.random_board(3, 3, 1, seed=1.5), TypeError, r"seed must be a whole number, not float"),
    (lambda: msviz.random_board(3, 3, 1, seed="abc"), TypeError, r"seed must be a whole number"),
    # Mines that cannot fit once the first click is kept safe
    (lambda: Minesweeper(3, 3, 1), ValueError, r"1 mine does not fit on a 3x3 board"),
    (lambda: Minesweeper(9, 9, 80), ValueError, r"80 mines do not fit on a 9x9 board"),
    (lambda: Minesweeper(1, 1, 1), ValueError, r"1 mine does not fit on a 1x1 board"),
    # Pictures
    (lambda: plot.step_image("x", 0), TypeError, r"trace must be a msviz.Trace .* not str: 'x'"),
    (lambda: plot.visit_order_map(None), TypeError, r"trace must be a msviz.Trace .* NoneType"),
    (lambda: plot.layer_map(B), TypeError, r"trace must be a msviz.Trace .* list"),
    (lambda: plot.frontier_plot(T, "bfs"), TypeError, r"not str: 'bfs'"),
    (lambda: plot.tile_size((0, 0)), ValueError, r"rows must be at least 1, not 0"),
    (lambda: plot.compare_orders(T, T_OTHER), ValueError, r"same click on the same board, not a 3x5 .* 2x3"),
    (lambda: render.step_image(T, 99), ValueError, r"step 99 is outside this trace's steps"),
    (lambda: render.board_image(B, px=2000), ValueError, r"px must be at most 64, not 2000"),
    (lambda: render.board_image(B, px=0), ValueError, r"px must be at least 1, not 0"),
    (lambda: render.board_image(B, px=-3), ValueError, r"px must be at least 1, not -3"),
    (lambda: render.board_image(B, px=2.5), TypeError, r"px must be a whole number, not float: 2.5"),
    (lambda: render.board_image(B, px="10"), TypeError, r"px must be a whole number, not str: '10'"),
    (lambda: render.board_image([["E"] * 300] * 300, px=64), ValueError, r"picture of .* pixels"),
    # Export
    (lambda: export.frames(T, stride=0), ValueError, r"stride must be at least 1, not 0"),
    (lambda: export.frames(T, stride="2"), TypeError, r"stride must be a whole number, not str"),
    (lambda: export.frames(5), TypeError, r"expected a msviz.Trace or a list of traces, not int"),
]


@pytest.mark.parametrize("call, error, words", HOSTILE, ids=[f"{i:02d}" for i in range(len(HOSTILE))])
def test_hostile_input_is_refused_clearly_quickly_and_cheaply(call, error, words):
    kept = copy.deepcopy(B)
    tracemalloc.start()
    start = time.process_time()  # CPU time: the same on a quiet and on a loaded machine
    try:
        with pytest.raises(error, match=words):
            call()
    finally:
        seconds = time.process_time() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert seconds < 1.0, f"took {seconds:.2f} s of CPU"
    assert peak < 50 * 2**20, f"allocated {peak / 2**20:.0f} MB"
    assert B == kept


def test_numpy_integers_are_whole_numbers_everywhere():
    assert msviz.random_board(3, 3, 1, seed=np.int64(1)) == msviz.random_board(3, 3, 1, seed=1)
    assert msviz.random_board(np.int32(3), np.int64(3), np.int8(1), seed=1) == msviz.random_board(
        3, 3, 1, seed=1
    )
    assert Minesweeper(9, 9, 10, seed=np.int64(1)).seed == 1
    assert export.frames(T, stride=np.int64(2)) == export.frames(T, stride=2)
    assert render.board_image(B, px=np.int64(8)).shape == (24, 40, 3)


def test_a_trace_cannot_be_changed_through_what_it_hands_out():
    t = msviz.trace(B, (2, 0))
    final = t.board_at(len(t) - 1).copy()
    arrays = {name: value for name, value in vars(t).items() if isinstance(value, np.ndarray)}
    arrays.update({name: getattr(t, name) for name in ("value", "children", "depth_map", "reveal_event_map")})
    for name, array in arrays.items():
        assert not array.flags.writeable, name
        with pytest.raises(ValueError, match="read-only"):
            array[...] = array
    ids = [id(a) for a in arrays.values()]
    assert len(set(ids)) == len(ids) and t.enter_step_map is not t.step_map
    assert not any(
        np.shares_memory(a, b) for i, a in enumerate(arrays.values()) for b in list(arrays.values())[i + 1 :]
    )
    assert np.array_equal(t.board_at(0), msviz.trace(B, (2, 0)).board_at(0))
    assert np.array_equal(t.board_at(len(t) - 1), final)


def test_same_seed_same_board_and_memory_a_small_multiple_of_the_board():
    assert msviz.random_board(5, 7, 9, seed=3) == msviz.random_board(5, 7, 9, seed=3)
    assert msviz.random_board(5, 7, 9, seed=3) != msviz.random_board(5, 7, 9, seed=4)
    tracemalloc.start()
    board = msviz.random_board(1500, 1500, 400_000, seed=1)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    cells = 1500 * 1500
    assert sum(row.count("M") for row in board) == 400_000
    # The board itself holds a pointer a cell (8 bytes); making it may take a few times that.
    assert peak < 40 * cells, f"{peak / cells:.1f} bytes a cell"
    big = msviz.random_board(1100, 1000, 1000, seed=2)  # over a million cells: numpy's generator
    assert big == msviz.random_board(1100, 1000, 1000, seed=2)
