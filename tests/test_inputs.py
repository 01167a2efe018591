"""Careless input and a broken front end: one test per class of trouble, each able to fail.

The command line's output (all or nothing, one line per error), copies of a
trace, boards that are not boards, a page's arguments.
"""

import copy
import os
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import msviz
from msviz import export
from msviz.__main__ import main
from msviz.view import BoardView

EXAMPLE = ["EEEEE", "EEMEE", "EEEEE", "EEEEE"]


# --- The command line: every error one line, every file whole or not at all -------------------


@pytest.mark.parametrize(
    "argv, words",
    [
        ([], "the following arguments are required: COMMAND"),
        (["render"], "the following arguments are required: -o/--output"),
        (["render", "--rows", "1e3", "-o", "x.gif"], "argument --rows: invalid int value: '1e3'"),
        (["render", "--fps", "0", "-o", "x.gif"], "argument --fps: must be at least 1"),
        (["paint", "-o", "x.gif"], "invalid choice: 'paint'"),
    ],
)
def test_every_usage_error_is_one_line_and_status_2(capsys, argv, words):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("msviz: error: ") and words in err


def test_outputs_that_are_not_regular_files_are_refused_before_any_work(tmp_path, capsys):
    pipe = tmp_path / "pipe.gif"
    os.mkfifo(pipe)  # writing here would wait for a reader for ever
    full = tmp_path / "full.pdf"
    full.symlink_to("/dev/full")
    assert main(["render", "-o", str(pipe)]) == 2
    assert main(["worksheet", "-o", str(full)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all("not a regular file" in line for line in err)


@pytest.mark.parametrize("trouble", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_a_write_that_fails_half_way_leaves_nothing_behind(tmp_path, capsys, monkeypatch, trouble):
    def half_then_fail(traces, path, **options):
        path.write_bytes(b"GIF89a half")
        raise trouble

    monkeypatch.setattr(export, "save", half_then_fail)
    status = main(["render", "-o", str(tmp_path / "reveal.gif")])
    assert status == (130 if isinstance(trouble, KeyboardInterrupt) else 2)
    assert list(tmp_path.iterdir()) == []  # neither the file nor a part of it
    assert capsys.readouterr().err.count("\n") == 1


def test_a_whole_file_replaces_the_old_one_only_when_complete(tmp_path):
    out = tmp_path / "reveal.html"
    out.write_text("the old page")
    assert main(["render", "--rows", "5", "--cols", "5", "--mines", "2", "--seed", "1", "-o", str(out)]) == 0
    assert out.read_text().startswith("<!DOCTYPE html>") and len(list(tmp_path.iterdir())) == 1


def test_contradictory_options_are_refused(tmp_path, capsys):
    board = tmp_path / "board.txt"
    board.write_text("\n".join(EXAMPLE))
    assert (
        main(["render", "--board", str(board), "--seed", "3", "--mines", "4", "-o", str(tmp_path / "x.gif")])
        == 2
    )
    assert "--mines, --seed would be ignored" in capsys.readouterr().err


# --- A copied trace is as read-only as the original ------------------------------------------


@pytest.mark.parametrize(
    "copier",
    [copy.copy, copy.deepcopy, lambda t: pickle.loads(pickle.dumps(t))],
    ids=["copy", "deepcopy", "pickle"],
)
def test_a_copied_or_unpickled_trace_is_read_only(copier):
    t = msviz.trace(EXAMPLE, (3, 0))
    before = t.board_at(0).copy()
    c = copier(t)
    arrays = [v for v in vars(c).values() if isinstance(v, np.ndarray)]
    assert len(arrays) >= 10 and not any(a.flags.writeable for a in arrays)
    with pytest.raises(ValueError, match="read-only"):
        c.step_map[0, 0] = 99
    assert np.array_equal(c.board_at(0), before) and np.array_equal(c.step_map, t.step_map)


# --- Boards that are not boards --------------------------------------------------------------


def test_a_board_nested_far_too_deep_gets_a_clear_error():
    deep = []
    for _ in range(200_000):
        deep = [deep]
    with pytest.raises(TypeError, match=r"cell \(0, 0\) must be a one-character string") as caught:
        msviz.parse_board(deep)
    assert len(str(caught.value)) < 300


def test_rows_given_as_bytes_are_named():
    with pytest.raises(TypeError, match="row 0 of the board is bytes"):
        msviz.parse_board([b"EEM", b"EEE"])


# --- A page's arguments ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, error, words",
    [
        ({"step": 2.5}, TypeError, "step must be a whole number"),
        ({"step": "3"}, TypeError, "step must be a whole number"),
        ({"step": -1}, ValueError, "step must be at least 0"),
        ({"title": 123}, TypeError, "title must be a string"),
        ({"title": b"x"}, TypeError, "title must be a string"),
    ],
)
def test_a_pages_arguments_are_checked(options, error, words):
    t = msviz.trace(EXAMPLE, (3, 0))
    with pytest.raises(error, match=words):
        export.page_html(t, **options)


def test_a_page_obeys_the_views_cell_limit(monkeypatch):
    t = msviz.trace(["EEE", "EEM"], (0, 0))
    assert export.page_html(t).startswith("<!DOCTYPE html>")
    monkeypatch.setattr(msviz._checks, "MAX_VIEW_CELLS", 5)  # the limit, made small enough to test
    with pytest.raises(ValueError, match="a page's board of 2x3 has 6 cells; the limit is 5 cells"):
        export.page_html(t)


# --- What the front end sends is checked as a trait -------------------------------------------


@pytest.mark.parametrize(
    "name, value",
    [
        ("max_cell", 0),
        ("step", True),
        ("step", -5),
        ("rows", 0),
        ("cols", -3),
        ("fps", 0),
        ("quiz_tries", -3),
    ],
)
def test_bad_values_from_the_front_end_are_refused_and_the_old_kept(name, value):
    import traitlets

    view = BoardView(msviz.trace(EXAMPLE, (3, 0)))
    old = getattr(view, name)
    with pytest.raises(traitlets.TraitError, match=name):
        setattr(view, name, value)
    assert getattr(view, name) == old and type(getattr(view, name)) is int


def test_arrays_that_do_not_fit_the_board_give_words_not_a_numpy_error():
    view = BoardView(board=np.array([list(row) for row in EXAMPLE]))  # a board with no reveal: its arrays
    view.start = b"\x00"
    with pytest.raises(ValueError, match="do not fit its 4x5 board"):
        view.picture()
    data, _ = view._repr_mimebundle_()
    assert "image/png" not in data  # the live view shows; only its PNG stand-in is left out


def test_a_click_message_with_booleans_reaches_no_handler():
    view = BoardView(msviz.trace(EXAMPLE, (3, 0)))
    clicks = []
    view.on_click(lambda r, c: clicks.append((r, c)))
    view._handle_message(view, {"event": "click", "row": True, "col": False}, [])
    view._handle_message(view, {"event": "click", "row": 1, "col": 2}, [])
    assert clicks == [(1, 2)]


@pytest.mark.parametrize(
    "row, col, error",
    [(True, False, TypeError), (1.0, 0, TypeError), ("1", 0, TypeError), (9, 0, ValueError)],
)
def test_a_quiz_guess_names_a_bad_cell(row, col, error):
    quiz = msviz.quiz(EXAMPLE, (3, 0))
    with pytest.raises(error, match="row|outside"):
        quiz.guess(row, col)
    assert quiz.score == (0, 0)


# --- A GIF is written frame by frame, and refused when too long --------------------------------


def test_a_gifs_memory_does_not_grow_with_its_frames(tmp_path):
    import tracemalloc

    t = msviz.trace([["E"] * 10] * 10, (5, 5))
    peaks = []
    for stride in (50, 1):  # 3 frames, then 100
        tracemalloc.start()
        export.save_gif(t, tmp_path / f"every-{stride}.gif", stride=stride)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    frames = [len(export.frames(t, stride=s)) for s in (50, 1)]
    assert frames == [3, 100] and peaks[1] < 1.3 * peaks[0]  # held: one frame, not a hundred


def test_a_gif_too_long_is_refused_before_any_work(tmp_path, monkeypatch):
    monkeypatch.setattr(export, "MAX_GIF_FRAMES", 5)
    t = msviz.trace([["E"] * 4] * 3, (0, 0))
    with pytest.raises(
        ValueError, match=r"a GIF of 12 frames is too long \(the limit is 5\): show one step in 3"
    ):
        export.save_gif(t, tmp_path / "long.gif")
    assert list(tmp_path.iterdir()) == []
    assert export.save_gif(t, tmp_path / "short.gif", stride=3).stat().st_size > 0


# --- Every public function, any odd value for any argument -----------------------------------

ODD_VALUES = st.sampled_from(
    [
        None,
        True,
        False,
        0,
        -1,
        2.5,
        float("nan"),
        10**9,
        "3",
        "",
        b"EE",
        [],
        [1],
        {},
        (0,),
        np.int64(2),
        object(),
    ]
)

#: Each public function with a call that works, its positional arguments named;
#: each argument is then replaced by odd values.
CALLS = {
    "format_board": (msviz.format_board, {"board": EXAMPLE}, {"style": "text"}),
    "mine_counts": (msviz.mine_counts, {"board": EXAMPLE}, {}),
    "parse_board": (msviz.parse_board, {"board": EXAMPLE}, {}),
    "random_board": (msviz.random_board, {"rows": 3, "cols": 4, "mines": 2}, {"seed": 1, "safe": (0, 0)}),
    "trace": (
        msviz.trace,
        {"board": EXAMPLE, "click": (3, 0)},
        {"order": "dfs", "neighbors": msviz.READING_ORDER},
    ),
    "reveal": (
        msviz.reveal,
        {"board": EXAMPLE, "click": (3, 0)},
        {"order": "bfs", "neighbors": msviz.READING_ORDER},
    ),
    "dfs_reveal": (
        lambda *a, **k: list(msviz.dfs_reveal(*a, **k)),
        {"board": EXAMPLE, "click": (3, 0)},
        {"neighbors": msviz.READING_ORDER},
    ),
    "bfs_events": (
        lambda *a, **k: list(msviz.bfs_events(*a, **k)),
        {"board": EXAMPLE, "click": (3, 0)},
        {"neighbors": msviz.READING_ORDER},
    ),
    "check": (
        msviz.check,
        {"update_board": lambda b, c: None},
        {"time_limit": 1, "random_boards": 2, "seed": 1, "show": False},
    ),
    "record": (
        msviz.record,
        {"update_board": lambda b, c: b, "board": EXAMPLE, "click": (3, 0)},
        {"time_limit": 1},
    ),
    "page_html": (
        export.page_html,
        {"traces": msviz.trace(EXAMPLE, (3, 0))},
        {"fps": 5, "step": 1, "title": "t"},
    ),
}

#: What a message may call an argument instead of its own name.
ALSO = {
    "update_board": ["function"],
    "traces": ["Trace"],
    "safe": ["click", "cell"],
    "board": ["row", "cell"],
}


def _names_the_value(message: str, name: str, value) -> bool:
    words = [name, msviz._checks.clip(value), type(value).__name__, *ALSO.get(name, [])]
    return any(word and word in message for word in words)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(CALLS)), st.integers(0, 9), ODD_VALUES)
def test_any_odd_argument_of_a_public_function_is_refused_by_name_or_works(which, position, value):
    function, positional, keywords = CALLS[which]
    names = list(positional) + sorted(keywords)
    name = names[position % len(names)]
    arguments = {**positional, **keywords, name: value}
    args = [arguments[n] for n in positional]
    kwargs = {n: arguments[n] for n in keywords}
    try:
        function(*args, **kwargs)
    except (TypeError, ValueError) as error:
        message = str(error)
        assert len(message) < 400 and _names_the_value(message, name, value), (which, name, value, message)


@pytest.mark.parametrize(
    "guesses, error", [(0, ValueError), (-2, ValueError), ("8", TypeError), (2.5, TypeError)]
)
def test_a_quiz_names_a_bad_number_of_guesses(guesses, error):
    board = copy.deepcopy(EXAMPLE)
    with pytest.raises(error, match="guesses"):
        msviz.quiz(board, (3, 0), guesses=guesses)
    assert board == EXAMPLE
