"""Code that tries to fool, escape or break the grader: it is reported, never obeyed.

One test per class of attack: reading the answer from the grader's frames,
changing the grader, escaping with a BaseException, hanging in the answer,
leaving the interpreter changed.
"""

import sys
import threading

import pytest

import msviz
import msviz.grade.order
from msviz.grade import BUGS, check, record

EIGHT = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


def right(board, click):
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board
    rows, cols = len(board), len(board[0])

    def go(r, c):
        around = [(r + i, c + j) for i, j in EIGHT if 0 <= r + i < rows and 0 <= c + j < cols]
        n = sum(board[i][j] == "M" for i, j in around)
        board[r][c] = str(n) if n else "B"
        if not n:
            for i, j in around:
                if board[i][j] == "E":
                    go(i, j)

    if board[r][c] == "E":
        go(r, c)
    return board


def test_the_answer_is_in_no_frame_the_students_code_can_reach():
    def peeks(board, click):
        frame = sys._getframe(1)
        while frame is not None:
            for value in frame.f_locals.values():
                if isinstance(value, list) and value and isinstance(value[0], list) and value != board:
                    if len(value) == len(board) and all(len(a) == len(b) for a, b in zip(value, board)):
                        return value  # something board-shaped that is not the board: the answer?
            frame = frame.f_back
        return board

    report = check(peeks, random_boards=20)
    assert not report and report.results["examples"][0] == 0


def test_the_grader_cannot_be_changed_from_inside_and_says_so():
    original = msviz.grade.order.order_bug

    def patches(board, click):
        msviz.grade.order.order_bug = lambda *args, **kwargs: None
        msviz.grade.verdict.name_wrong_answer = lambda *args: "wrong answer"
        return board  # a wrong answer that the patch would hide

    report = check(patches, order="dfs", random_boards=5)
    assert not report and report.bug == "changed the grader" and "order_bug" in report.error
    assert msviz.grade.order.order_bug is original  # put back
    assert check(right, order="dfs", random_boards=5)  # and later checks are not fooled
    assert not check(lambda b, c: b, order="dfs", random_boards=5)

    def recodes(board, click):
        msviz.grade.order.is_depth_first.__code__ = (lambda *a: True).__code__
        return right(board, click)

    assert check(recodes, order="dfs", random_boards=2).bug == "changed the grader"
    assert msviz.grade.order.is_depth_first([["E"]], [["B"]], [(0, 0), (0, 0)]) is False


def test_the_mistakes_table_cannot_be_cleared():
    def clears(board, click):
        msviz.grade.BUGS.clear()
        return board

    report = check(clears, random_boards=2)
    assert report.bug == "crash" and "AttributeError" in report.error
    assert len(BUGS) > 10 and str(report) and report._repr_html_()


@pytest.mark.parametrize(
    "escape",
    [
        lambda: sys.exit(3),
        lambda: exit(),
        lambda: (_ for _ in ()).throw(GeneratorExit),
        lambda: (_ for _ in ()).throw(type("Custom", (BaseException,), {})),
    ],
    ids=["sys.exit", "exit()", "GeneratorExit", "a BaseException of its own"],
)
def test_every_escape_is_reported_and_only_ctrl_c_goes_on(escape):
    def escapes(board, click):
        escape()

    report = check(escapes, random_boards=2)
    assert report.bug == "crash" and report.total == 14
    rec = record(escapes, ["EE"], (0, 0))
    assert rec.problem

    def interrupted(board, click):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        check(interrupted, random_boards=0)


def test_an_answer_that_never_ends_being_read_is_stopped():
    class Endless(list):
        def __len__(self):
            while True:
                pass

    class EndlessRows(list):
        def __iter__(self):
            while True:
                yield "B"

    report = check(lambda b, c: Endless(b), time_limit=0.3, random_boards=3)
    assert report.bug == "too slow"
    report = check(lambda b, c: [EndlessRows(row) for row in b], time_limit=0.3, random_boards=3)
    assert report.bug == "too slow"


def test_the_interpreter_is_left_as_it_was_found():
    limit, threads = sys.getrecursionlimit(), threading.active_count()

    def leaves_a_low_limit(board, click):
        sys.modules["msviz.grade.order"] = None
        depth, frame = 0, sys._getframe()
        while frame is not None:
            depth, frame = depth + 1, frame.f_back
        sys.setrecursionlimit(depth + 20)  # too low for the report's own display, if it stayed
        return right(board, click)

    report = check(leaves_a_low_limit, random_boards=5)
    assert sys.getrecursionlimit() == limit and threading.active_count() == threads
    assert sys.modules["msviz.grade.order"] is msviz.grade.order
    assert report.bug == "changed the grader" and "sys.modules" in report.error
    assert str(report) and report._repr_html_()  # the report's own display still works


def test_a_swallowed_time_out_is_raised_again():
    import weakref

    class Holder:
        pass

    def swallows(board, click):
        while True:
            try:
                holder = Holder()
                weakref.finalize(holder, lambda: None)
                del holder
            except Exception:
                pass

    report = check(swallows, time_limit=0.3, random_boards=1)
    assert report.bug == "too slow"


def test_after_a_time_out_the_interpreter_runs_traced_code_as_before():
    # A time-out withdrawn the wrong way leaves CPython's eval breaker set for
    # good, and the next traced call never returns: run it in a process of its
    # own, so a regression fails here instead of hanging the suite.
    import subprocess
    import textwrap

    script = textwrap.dedent(
        """
        import sys
        from msviz.grade import check

        def endless(board, click):
            while True:
                pass

        assert check(endless, time_limit=0.2, random_boards=1).bug == "too slow"
        sys.settrace(lambda *args: None)
        def f():
            return 1
        f()
        sys.settrace(None)
        print("traced code ran")
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "traced code ran", done.stderr


def test_without_ctypes_the_fallback_still_stops_a_one_line_loop():
    # As on a Python with no PyThreadState_SetAsyncExc. The loop is on one line, so it never
    # reaches a new line to trace, only bytecodes. In a process of its own: a regression
    # fails here instead of hanging the suite.
    import subprocess
    import textwrap

    script = textwrap.dedent(
        """
        import sys
        import msviz.grade.clock as clock
        from msviz.grade import check

        clock._INTERRUPT = None
        namespace = {}
        exec("def endless(board, click):\\n    while True: pass\\n", namespace)
        report = check(namespace["endless"], time_limit=0.2, random_boards=1)
        print(report.bug, sys.gettrace())
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "too slow None", done.stderr


def test_a_row_put_in_place_whole_is_seen_and_said():
    def rows_whole(board, click):
        right(board, click)
        board[0] = list(board[0])  # the same cells, in a new list
        board[1] = ["X"] * len(board[1])  # a row written whole, wrongly
        return board

    rec = record(rows_whole, [list("EEEEE"), list("EEMEE"), list("EEEEE"), list("EEEEE")], (3, 0))
    assert any("row 1 was put in place whole" in n for n in rec.notes)
    assert rec.answer[1] == ["X"] * 5 and rec.after[1] == ["X"] * 5
    assert (1, 0) in rec.cells
