"""Bad input: a clear error at the call, naming the value, and the board untouched."""

import numpy as np
import pytest
from conftest import unchanged

import msviz

GOOD = [list("EEM"), list("EEE")]

BAD_BOARDS = [
    ([list("EEM"), list("EE")], ValueError, r"ragged: row 0 has 3 cells but row 1 has 2"),
    ([], ValueError, r"the board is empty"),
    ("", ValueError, r"the board is empty"),
    ([[]], ValueError, r"row 0 of the board is empty"),
    (["EEE", ""], ValueError, r"row 1 of the board is empty"),
    ([list("EEE"), list("EZE")], ValueError, r"cell \(1, 1\) holds 'Z', which is not a board symbol"),
    ([["E", "e"]], ValueError, r"cell \(0, 1\) holds 'e'"),
    ([["E", "EE"]], ValueError, r"cell \(0, 1\) holds 'EE'"),
    ([["E", 1]], TypeError, r"cell \(0, 1\) must be a one-character string, not int: 1"),
    ([["E", None]], TypeError, r"cell \(0, 1\) must be a one-character string, not NoneType"),
    ([["E", ["E"]]], TypeError, r"cell \(0, 1\) must be a one-character string, not list"),
    (["EE", 5], TypeError, r"row 1 of the board must be a string or a list"),
    (5, TypeError, r"a board must be a list of rows, a string or a 2-D numpy array, not int: 5"),
    (None, TypeError, r"not NoneType: None"),
    (np.array(list("EEM")), ValueError, r"must be 2-D, not 1-D"),
    (np.array([[list("EE")]]), ValueError, r"must be 2-D, not 3-D"),
    (np.array([[1, 2]]), TypeError, r"cell \(0, 0\) must be a one-character string, not int"),
    ('[["E", "M"', ValueError, r"looks like JSON but is not"),
]

BAD_CLICKS = [
    ((-1, 0), ValueError, r"click \(-1, 0\) is outside the 2x3 board \(rows 0-1, columns 0-2\)"),
    ((0, -1), ValueError, r"click \(0, -1\) is outside the 2x3 board"),
    ((2, 0), ValueError, r"click \(2, 0\) is outside the 2x3 board"),
    ((0, 3), ValueError, r"click \(0, 3\) is outside"),
    ((1.0, 2), TypeError, r"click must be a pair \(row, col\) of whole numbers, not \(1.0, 2\)"),
    ("ab", TypeError, r"click must be a pair \(row, col\) of whole numbers, not 'ab'"),
    ((1,), TypeError, r"not \(1,\)"),
    ((1, 2, 3), TypeError, r"not \(1, 2, 3\)"),
    (None, TypeError, r"not None"),
    (5, TypeError, r"not 5"),
    ((True, 0), TypeError, r"not \(True, 0\)"),
]

BAD_NEIGHBORS = [
    (msviz.READING_ORDER[:7], ValueError, r"each of the eight offsets .* misses \[\(1, 1\)\]"),
    (msviz.READING_ORDER[:7] + ((0, 1),), ValueError, r"repeated \[\(0, 1\)\]"),
    (msviz.READING_ORDER[:7] + ((2, 0),), ValueError, r"extra or repeated \[\(2, 0\)\]"),
    (msviz.READING_ORDER[:7] + ((0, 0),), ValueError, r"\(0, 0\)"),
    ("udlr", TypeError, r"neighbors must be a sequence of the eight offsets"),
    ([1, 2, 3, 4, 5, 6, 7, 8], TypeError, r"pairs \(dr, dc\) of whole numbers"),
    (None, TypeError, r"not None"),
]

CALLS = {
    "dfs_reveal": lambda b, c=(0, 0), n=msviz.READING_ORDER: msviz.dfs_reveal(b, c, neighbors=n),
    "bfs_reveal": lambda b, c=(0, 0), n=msviz.READING_ORDER: msviz.bfs_reveal(b, c, neighbors=n),
    "reveal dfs": lambda b, c=(0, 0), n=msviz.READING_ORDER: msviz.reveal(b, c, neighbors=n),
    "reveal bfs": lambda b, c=(0, 0), n=msviz.READING_ORDER: msviz.reveal(b, c, order="bfs", neighbors=n),
    "trace": lambda b, c=(0, 0), n=msviz.READING_ORDER: msviz.trace(b, c, neighbors=n),
}


@pytest.mark.parametrize("board, error, message", BAD_BOARDS)
def test_bad_boards(board, error, message):
    before = unchanged(board) if not isinstance(board, np.ndarray) else board.copy()
    with pytest.raises(error, match=message):
        msviz.parse_board(board)
    for call in CALLS.values():
        with pytest.raises(error, match=message):
            call(board)  # generators too: at the call, before any next()
    with pytest.raises(error, match=message):
        msviz.format_board(board)
    if isinstance(board, np.ndarray):
        assert np.array_equal(board, before)
    else:
        assert board == before


@pytest.mark.parametrize("click, error, message", BAD_CLICKS)
@pytest.mark.parametrize("name", list(CALLS))
def test_bad_clicks(name, click, error, message):
    board = unchanged(GOOD)
    with pytest.raises(error, match=message):
        CALLS[name](board, click)
    assert board == GOOD


@pytest.mark.parametrize("neighbors, error, message", BAD_NEIGHBORS)
@pytest.mark.parametrize("name", list(CALLS))
def test_bad_neighbors(name, neighbors, error, message):
    board = unchanged(GOOD)
    with pytest.raises(error, match=message):
        CALLS[name](board, (0, 0), neighbors)
    assert board == GOOD


def test_numpy_integers_are_fine_in_a_click():
    click = (np.int64(1), np.int32(0))
    assert msviz.reveal(GOOD, click) == msviz.reveal(GOOD, (1, 0))
    assert msviz.reveal(GOOD, np.array([1, 0])) == msviz.reveal(GOOD, (1, 0))


@pytest.mark.parametrize("call", [msviz.reveal, msviz.trace])
def test_bad_order(call):
    with pytest.raises(ValueError, match=r"order must be 'dfs' or 'bfs', not 'xyz'"):
        call(GOOD, (0, 0), order="xyz")


def test_bad_format_style():
    with pytest.raises(ValueError, match=r"style must be .* not 'json'"):
        msviz.format_board(GOOD, style="json")


@pytest.mark.parametrize(
    "args, kwargs, error, message",
    [
        ((0, 3, 1), {}, ValueError, r"rows must be at least 1, not 0"),
        ((3, -2, 1), {}, ValueError, r"cols must be at least 1, not -2"),
        ((3, 3, -1), {}, ValueError, r"mines must be at least 0, not -1"),
        ((2.5, 3, 1), {}, TypeError, r"rows must be a whole number, not float: 2.5"),
        ((True, 3, 1), {}, TypeError, r"rows must be a whole number, not bool"),
        ((3, 3, 10), {}, ValueError, r"10 mines do not fit on a 3x3 board: only 9 cells"),
        ((3, 3, 1), {"safe": (1, 1)}, ValueError, r"only 0 cells may hold a mine once \(1, 1\)"),
        ((4, 4, 13), {"safe": (0, 0)}, ValueError, r"13 mines do not fit on a 4x4 board: only 12"),
        ((3, 3, 1), {"safe": (3, 0)}, ValueError, r"safe \(3, 0\) is outside the 3x3 board"),
        ((3, 3, 1), {"safe": "a1"}, TypeError, r"safe must be a pair"),
    ],
)
def test_bad_random_boards(args, kwargs, error, message):
    with pytest.raises(error, match=message):
        msviz.random_board(*args, **kwargs)


def test_bad_steps_of_a_trace():
    t = msviz.trace(GOOD, (1, 0))
    for k, error in [(-2, ValueError), (len(t), ValueError), (1.5, TypeError), ("0", TypeError)]:
        with pytest.raises(error, match=r"step"):
            t.board_at(k)
    with pytest.raises(ValueError, match=r"before the click"):
        t.visit(-1)
