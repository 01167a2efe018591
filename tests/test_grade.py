"""The grader: check() on right answers, named mistakes, odd returns, endless loops; record()."""

import copy
import time
from collections import deque
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from conftest import games, neighbour_orders  # noqa: E402
from hypothesis import given, settings  # noqa: E402

import msviz  # noqa: E402
from msviz.grade import BUGS, Report, cases, check, record  # noqa: E402
from msviz.solutions import update_board as shown_solution  # noqa: E402

EIGHT = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
FOUR = [(-1, 0), (0, -1), (0, 1), (1, 0)]


def around(board, r, c, offsets=EIGHT):
    return [
        (r + dr, c + dc) for dr, dc in offsets if 0 <= r + dr < len(board) and 0 <= c + dc < len(board[0])
    ]


def count(board, r, c, offsets=EIGHT):
    return sum(board[i][j] in "MX" for i, j in around(board, r, c, offsets))


# --- Solutions a student might hand in: right ones, and one mistake each --------------------


def recursive(board, click, offsets=EIGHT, zero=False, mine="X", spread=False):
    """The recursive solution, with switches for the classic mistakes."""
    r, c = click
    if board[r][c] == "M":
        board[r][c] = mine
        return board

    def dfs(r, c):
        k = count(board, r, c, offsets)
        board[r][c] = str(k) if k or zero else "B"
        if k and not spread:
            return
        for i, j in around(board, r, c, offsets):
            if board[i][j] == "E":
                dfs(i, j)

    if board[r][c] == "E":
        dfs(r, c)
    return board


def queue(board, click, mark_when_leaving=False):
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board
    if board[r][c] != "E":
        return board
    todo, seen = deque([(r, c)]), {(r, c)}
    while todo:
        r, c = todo.popleft()
        k = count(board, r, c)
        board[r][c] = str(k) if k else "B"
        if k:
            continue
        for i, j in around(board, r, c):
            if board[i][j] == "E" and (mark_when_leaving or (i, j) not in seen):
                seen.add((i, j))
                todo.append((i, j))
    return board


def stack_marking_when_pushed(board, click):
    """A stack that reveals all of a blank's neighbours at once: not the order calls make."""
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board

    def give(r, c):
        k = count(board, r, c)
        board[r][c] = str(k) if k else "B"

    give(r, c)
    stack = [(r, c)]
    while stack:
        r, c = stack.pop()
        if board[r][c] != "B":
            continue
        for i, j in around(board, r, c):
            if board[i][j] == "E":
                give(i, j)
                stack.append((i, j))
    return board


def blank_first_then_digit(board, click):
    """Right board, right order, but each digit cell is written twice ('B', then its digit)."""
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board

    def dfs(r, c):
        board[r][c] = "B"
        k = count(board, r, c)
        if k:
            board[r][c] = str(k)
            return
        for i, j in around(board, r, c):
            if board[i][j] == "E":
                dfs(i, j)

    if board[r][c] == "E":
        dfs(r, c)
    return board


MUTANTS = [
    ("digits spread", lambda b, c: recursive(b, c, spread=True), None),
    ("four neighbours", lambda b, c: recursive(b, c, offsets=FOUR), None),
    ("mine left as M", lambda b, c: recursive(b, c, mine="M"), None),
    ("0 for B", lambda b, c: recursive(b, c, zero=True), None),
    ("bfs as dfs", queue, "dfs"),
    ("dfs as bfs", recursive, "bfs"),
    ("marks on push", stack_marking_when_pushed, "dfs"),
    ("writes to a copy", lambda b, c: recursive([row[:] for row in b], c), "dfs"),
    ("returned nothing", lambda b, c: None, None),
    ("used msviz", lambda b, c: msviz.reveal(b, c), None),
]


def test_cells_written_twice_or_with_a_mark_first_are_notes_not_mistakes():
    leaving = check(lambda b, c: queue(b, c, mark_when_leaving=True), order="bfs", random_boards=30)
    # Right on small boards, where the cells written twice are only noted; on the 50x50 open
    # board the same cells go into the queue again and again, and the work grows exponentially.
    assert leaving.bug == "queued many times" and leaving.case.size == "50x50"
    assert leaving.results["examples"] == (2, 2)
    assert any("written twice: mark a cell when it goes into the queue" in n for n in leaving.notes)
    marked = check(blank_first_then_digit, order="dfs", random_boards=30)
    assert marked.ok and any("given a mark first" in n for n in marked.notes)
    assert marked.points() == 1.0


@pytest.mark.parametrize("bug, solution, order", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_each_classic_mistake_is_caught_and_named(bug, solution, order):
    report = check(solution, order=order, random_boards=30)
    assert not report.ok
    assert report.bug == bug
    assert BUGS[bug][0] in str(report) and BUGS[bug][1] in str(report)


def test_right_answers_in_any_neighbour_order_pass_in_their_own_order():
    for order, solution in [
        ("dfs", recursive),
        ("bfs", queue),
        ("dfs", msviz.solutions.update_board("stack")),
    ]:
        report = check(solution, order=order)
        assert report.ok, str(report)
        assert report.results["order"] == (report.total, report.total) and report.total > 150


@settings(max_examples=12, deadline=None)
@given(neighbour_orders())
def test_the_shown_solutions_pass_with_their_neighbour_order(neighbors):
    for source, order in [("recursive", "dfs"), ("stack", "dfs"), ("queue", "bfs")]:
        report = check(shown_solution(source, neighbors), order=order, neighbors=neighbors, random_boards=20)
        assert report.ok, (source, str(report))


def test_another_neighbour_order_than_the_one_asked_is_named():
    report = check(
        shown_solution("recursive", msviz.LEETCODE_ORDER), order="dfs", neighbors=msviz.READING_ORDER
    )
    assert report.bug == "wrong neighbour order"


def test_the_model_solutions_of_the_exercises_pass():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[1] / "notebooks" / "solutions" / "update_board.py"
    spec = importlib.util.spec_from_file_location("model_solutions", path)
    model = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(model)
    assert check(model.update_board_dfs, order="dfs").ok
    assert check(model.update_board_bfs, order="bfs").ok
    assert check(model.update_board_recursive, order="dfs").ok


def test_results_are_per_category_for_partial_credit():
    report = check(lambda b, c: recursive(b, c, mine="M"), order="dfs", random_boards=40)
    examples, tricky, rand, order = (report.results[k] for k in ("examples", "tricky", "random", "order"))
    assert examples == (1, 2)  # example 2 clicks a mine
    assert tricky == (9, 10)  # of the tricky boards, only "a single mine" has a mine clicked
    assert 0 < rand[0] < rand[1] and order[1] == report.total
    assert report.passed == examples[0] + tricky[0] + rand[0]
    assert [f.category for f in report.failures] == ["examples", "tricky", "random"]
    assert order[0] < order[1]  # a wrong board cannot be in the right order
    assert all(f.bug == "mine left as M" for f in report.failures[:3])


@pytest.mark.parametrize(
    "returned, words",
    [
        (lambda b, c: np.array(recursive(b, c)), None),
        (lambda b, c: [np.array(row) for row in recursive(b, c)], None),
        (lambda b, c: [tuple(row) for row in recursive(b, c)], None),
        (lambda b, c: tuple(recursive(b, c)), None),
        (lambda b, c: ["".join(row) for row in recursive(b, c)], "is a string"),
        (lambda b, c: "BBB", "returned a string"),
        (lambda b, c: (row for row in b), "generator"),
        (lambda b, c: b[:-1] or [], "rows; the board has"),
        (lambda b, c: [row + ["E"] for row in b], "columns"),
        (lambda b, c: [[0] * len(row) for row in b], "is the number 0"),
        (lambda b, c: None, "returned None"),
        (lambda b, c: 42, "returned int 42"),
        (lambda b, c: {"board": b}, "not a board"),
        (lambda b, c: np.zeros((2, 2, 2)), "3-dimensional"),
    ],
)
def test_whatever_comes_back_is_reported_never_raised(returned, words):
    report = check(returned, random_boards=10)
    if words is None:  # readable as a board: the cells are compared
        assert report.ok and report.notes
    else:
        assert not report.ok and words in report.error
    assert str(report) and report._repr_html_()
    figure = report.draw()
    assert report.ok == (figure is None)
    assert "<img" in report._repr_html_() or report.ok


def test_an_endless_loop_is_stopped_at_the_time_limit():
    def forever(board, click):
        while True:
            pass

    start = time.process_time()  # CPU time: the limit holds on a loaded machine too
    report = check(forever, time_limit=0.3, random_boards=50)
    assert time.process_time() - start < 3
    assert report.bug == "too slow" and "0.3 s" in report.error
    assert (
        report.passed == 0 and report.total == len(cases(random_boards=50)) and "not tried" in report.notes[0]
    )
    # The next check is not disturbed by the interruption.
    assert check(recursive, random_boards=5).ok


def test_endless_recursion_is_a_lesson_not_a_crash():
    def no_marking(board, click):
        def dfs(r, c):
            for i, j in around(board, r, c):
                if board[i][j] == "E":
                    dfs(i, j)

        dfs(*click)
        return board

    report = check(no_marking, random_boards=0)
    # Calls back and forth between two cells, never revealing either: no progress, named as such.
    assert report.bug == "endless recursion" and "RecursionError" in report.error
    assert "0 cells written" in report.error and "make progress" in report.failure.hint

    def calls_itself(board, click):
        return calls_itself(board, click)

    report = check(calls_itself)
    assert report.bug == "endless recursion" and report.failure.name == "endless recursion"
    assert report.results["tricky"] == (0, 10) and "the endless recursion" in report.notes[-1]


def test_a_crash_is_reported_with_the_students_own_lines():
    def crashes(board, click):
        return board[0][0] + 1

    report = check(crashes, random_boards=0)
    assert report.bug == "crash" and "TypeError" in report.error and "crashes" in report.error
    # Only the student's lines: no frame of msviz's own files (wherever the clone is, whatever its name).
    package = str(Path(msviz.__file__).parent)
    assert package not in report.error and 'File "' + __file__ in report.error


def test_a_wrong_random_board_is_shrunk_to_a_smaller_one_that_still_fails():
    def wrong_on_wide_boards(board, click):  # right, but spreads digits on boards wider than 6
        return recursive(board, click, spread=len(board[0]) > 6)

    report = check(wrong_on_wide_boards, random_boards=100)
    failure = next(f for f in report.failures if f.category == "random")
    found, small = failure.found, failure.case
    assert found is not None and failure.bug == "digits spread"
    assert len(small.board) <= len(found.board) and len(small.board[0]) <= len(found.board[0])
    assert len(small.board) * len(small.board[0]) < len(found.board) * len(found.board[0])
    assert len(small.board[0]) == 7 and len(small.board) <= 2  # no smaller board fails
    again = wrong_on_wide_boards(copy.deepcopy(small.board), list(small.click))
    assert again != msviz.reveal(small.board, small.click)  # it really fails
    assert "shrunk from" in str(report)


def test_the_fixed_boards_come_first_and_are_the_same_each_time():
    first = cases(random_boards=5)
    assert [c.name for c in first[:2]] == ["LeetCode example 1", "LeetCode example 2"]
    assert cases(random_boards=5) == first


def test_check_draws_only_when_asked(monkeypatch):
    import matplotlib.pyplot as plt

    monkeypatch.setattr(plt, "show", lambda *a, **k: pytest.fail("check() must not show figures"))
    plt.close("all")
    report = check(lambda b, c: recursive(b, c, spread=True), random_boards=3)
    assert isinstance(report, Report) and not plt.get_fignums()
    fig = report.draw()
    assert len(fig.axes) == 3 and "digits that spread" in fig.axes[2].get_title()


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: check("update_board"), TypeError, "check needs a function"),
        (lambda: check(recursive, time_limit=10**400), ValueError, "time_limit"),
        (lambda: check(recursive, time_limit="2"), TypeError, "time_limit"),
        (lambda: check(recursive, time_limit=float("inf")), ValueError, "time_limit"),
        (lambda: check(recursive, random_boards=True), TypeError, "random_boards"),
        (lambda: check(recursive, random_boards=-5), ValueError, "random_boards"),
        (lambda: check(recursive, random_boards=2.5), TypeError, "random_boards"),
        (lambda: check(recursive, random_boards=10**8), ValueError, "random_boards"),
        (lambda: check(recursive, seed="abc"), TypeError, "seed"),
        (lambda: check(recursive, seed=True), TypeError, "seed"),
        (lambda: check(recursive, show="yes"), TypeError, "show"),
        (lambda: record(recursive, ["EE"], (0, 0), time_limit=-1), ValueError, "time_limit"),
        (lambda: check(recursive, order="depth"), ValueError, "order"),
        (lambda: check(recursive, neighbors=msviz.READING_ORDER), ValueError, "give order= too"),
        (lambda: check(recursive, time_limit=0), ValueError, "time_limit"),
        (lambda: record(recursive, ["EE"], (0, 5)), ValueError, "outside"),
        (lambda: record(None, ["EE"], (0, 0)), TypeError, "record needs a function"),
    ],
)
def test_bad_arguments_are_refused_at_the_call(call, error, words):
    with pytest.raises(error, match=words):
        call()


# --- record ----------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(games(), neighbour_orders())
def test_record_sees_the_textbook_order(game, neighbors):
    board, click = game
    kept = copy.deepcopy(board)
    for source, order in [("recursive", "dfs"), ("stack", "dfs"), ("queue", "bfs")]:
        rec = record(shown_solution(source, neighbors), board, click, order=order)
        t = msviz.trace(board, click, order=order, neighbors=neighbors)
        assert rec.cells == list(zip(t.row.tolist(), t.col.tolist()))
        assert rec.answer == msviz.reveal(board, click)
        assert rec.order == order
        for name in (
            "parent_step",
            "depth",
            "frontier",
            "event_label",
            "event_step",
            "enter_event_map",
            "leave_event_map",
        ):
            assert np.array_equal(getattr(rec.trace, name), getattr(t, name)), name
    assert board == kept


def test_record_says_when_writes_go_to_a_copy():
    def on_a_copy(board, click):
        board = [row[:] for row in board]
        return recursive(board, click)

    rec = record(on_a_copy, [list("EEEEE"), list("EEMEE")], (0, 0))
    assert rec.cells == [] and rec.answer == msviz.reveal([list("EEEEE"), list("EEMEE")], (0, 0))
    assert any("copy" in note for note in rec.notes)


def test_record_copes_with_repeated_writes_odd_symbols_and_numpy():
    rec = record(lambda b, c: recursive(b, c, zero=True), ["EEE", "EEM"], (0, 0))
    assert any("'0'" in note for note in rec.notes) and len(rec.trace) == len(rec.cells)
    rec = record(blank_first_then_digit, ["EEE", "EEM"], (0, 0))
    assert any("given a mark first" in note for note in rec.notes)
    rec = record(lambda b, c: np.array(recursive(b, c)), ["EEE", "EEM"], (0, 0))
    assert rec.answer == [["B", "1", "E"], ["B", "1", "M"]] and len(rec.cells) == 4


def test_a_recording_plays_in_the_player_and_beside_the_textbook():
    rec = record(queue, [list("EEEEE"), list("EEMEE"), list("EEEEE"), list("EEEEE")], (3, 0))
    player = msviz.player(rec)
    assert player.trace is rec.replay and player.view.steps == len(rec.writes)
    side = msviz.compare(rec)
    (textbook,) = side.others
    assert side.steps == len(rec.writes) and side.replay and not textbook["replay"]
    assert [side.title, textbook["title"]] == ["Your code", "Breadth-first (queue)"]
    assert len(textbook["step_cell"]) // 4 == len(msviz.trace(rec.board, rec.click, order="bfs"))


def test_a_recording_is_read_as_the_order_it_is():
    example = [list("EEEEE"), list("EEMEE"), list("EEEEE"), list("EEEEE")]
    assert record(recursive, example, (3, 0)).order == "dfs"  # it calls itself
    assert record(shown_solution("stack"), example, (3, 0)).order == "dfs"  # no calls, but deep first
    assert record(queue, example, (3, 0)).order == "bfs"  # layer by layer
    assert record(queue, example, (3, 0), order="dfs").order == "dfs"  # as asked


def test_a_cell_written_twice_is_seen_twice():
    example = [list("EEEEE"), list("EEMEE"), list("EEEEE"), list("EEEEE")]
    rec = record(blank_first_then_digit, example, (3, 0))
    t = rec.replay
    written = list(zip(t.row.tolist(), t.col.tolist()))
    assert written == [(r, c) for r, c, _, _ in rec.writes] and len(t) > len(rec.cells)
    twice = next(cell for cell in written if written.count(cell) == 2)  # a digit: 'B', then its digit
    first, again = (k for k, cell in enumerate(written) if cell == twice)
    assert t.board_at(first)[twice] == "B" and t.board_at(again)[twice] == rec.answer[twice[0]][twice[1]]
    assert t.board_at(again - 1)[twice] == "B"  # it still shows the mark between its two writes
    assert "written before, it held B" in msviz.words.caption(t, again)
    assert "written before" not in msviz.words.caption(t, first)
    assert (t.board_at(len(t) - 1) == np.array(rec.answer)).all()
    player = msviz.player(rec)
    player.step = again
    assert player.caption == msviz.words.caption(t, again) and player.view.step == again


def test_captions_of_a_run_state_only_the_depth_the_recording_saw():
    example = [list("EEEEE"), list("EEMEE"), list("EEEEE"), list("EEEEE")]
    flat = record(queue, example, (3, 0))  # no calls: nothing about a stack or a queue
    said = [msviz.words.caption(flat.replay, k) for k in range(len(flat.replay))]
    said += [msviz.words.event_caption(flat.replay, e) for e in range(flat.replay.events)]
    assert said and not any("depth" in s or "queue" in s or "stack" in s for s in said)
    assert not flat.replay.frontier.any() and (flat.replay.parent_step == -1).all()
    deep = record(recursive, example, (3, 0))  # its own calls: the depth of each write, as recorded
    for k, (_, _, _, depth) in enumerate(deep.writes):
        assert msviz.words.caption(deep.replay, k).endswith(f"; {depth + 1} of your calls on the stack")
    assert msviz.words.caption(record(lambda b, c: b, example, (3, 0)).replay, 0).startswith(
        "your code wrote nothing"
    )


# --- The report as plain data ----------------------------------------------------------------


def _returns_a_number(board, click):
    return 3


@pytest.mark.parametrize(
    "solution, order",
    [
        (lambda board, click: recursive(board, click, zero=True), "dfs"),  # a shrunk random board
        (lambda board, click: recursive(board, click), "bfs"),  # an order failure, with its writes
        (_returns_a_number, None),  # an answer that is not a board
    ],
)
def test_a_report_goes_through_json_and_back_unchanged(solution, order):
    import json

    report = check(solution, order=order, random_boards=20)
    assert not report.ok
    data = json.loads(json.dumps(report.to_dict(out_of=4)))
    back = Report.from_dict(data)
    assert back.to_dict(out_of=4) == data
    assert str(back) == str(report) and back.points(4) == report.points(4) == data["points"]
    assert back.results == report.results and back.failure.name == data["mistake"] == report.failure.name
    assert data["hint"] == report.failure.hint and data["ok"] is False
    first = data["failures"][0]
    assert first["board"] == ["".join(row) for row in report.case.board]
    assert first["click"] == list(report.case.click)
    assert first["expected"] == ["".join(row) for row in report.expected]
    assert back.draw() is not None  # drawing reads the data back as well as the report itself
