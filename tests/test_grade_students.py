# ruff: noqa: UP006, UP035  (typing.List on purpose: LeetCode's own template, as students hand it in)
"""The grader on code as students really write it: a corpus of solutions, each with a teacher's verdict.

Every solution here was written for this test, in the styles people hand in:
LeetCode's class form with type hints, recursion, explicit stacks with and
without stale entries, placeholder marks, queues from deque and list.pop(0),
neighbour orders that change from cell to cell. The right ones must be graded
right in their order; each wrong one must be named for its one mistake.
"""

import random
import subprocess
import sys
from collections import deque
from typing import List

import pytest
from conftest import games
from hypothesis import given, settings
from hypothesis import strategies as st

import msviz
from msviz.grade import BUGS, check, record
from msviz.grade.order import order_bug
from msviz.grade.verdict import attempt

EIGHT = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


def inside(board, r, c):
    return 0 <= r < len(board) and 0 <= c < len(board[0])


def mines_around(board, r, c):
    return sum(board[r + dr][c + dc] in "MX" for dr, dc in EIGHT if inside(board, r + dr, c + dc))


# --- Right solutions ------------------------------------------------------------------------


class SolutionRecursive:
    def updateBoard(self, board: List[List[str]], click: List[int]) -> List[List[str]]:
        r, c = click
        if board[r][c] == "M":
            board[r][c] = "X"
            return board
        self.dfs(board, r, c)
        return board

    def dfs(self, board: List[List[str]], r: int, c: int) -> None:
        if not inside(board, r, c) or board[r][c] != "E":
            return
        n = mines_around(board, r, c)
        if n:
            board[r][c] = str(n)
            return
        board[r][c] = "B"
        for dr, dc in EIGHT:
            self.dfs(board, r + dr, c + dc)


class SolutionDeque:
    def updateBoard(self, board: List[List[str]], click: List[int]) -> List[List[str]]:
        r, c = click
        if board[r][c] == "M":
            board[r][c] = "X"
            return board
        q = deque([(r, c)])
        seen = {(r, c)}
        while q:
            x, y = q.popleft()
            n = mines_around(board, x, y)
            board[x][y] = str(n) if n else "B"
            if n:
                continue
            for dx, dy in EIGHT:
                a, b = x + dx, y + dy
                if inside(board, a, b) and board[a][b] == "E" and (a, b) not in seen:
                    seen.add((a, b))
                    q.append((a, b))
        return board


def bfs_list_pop0(board, click):
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board
    queue = [(r, c)]
    visited = set(queue)
    while queue:
        r, c = queue.pop(0)
        n = mines_around(board, r, c)
        board[r][c] = str(n) if n else "B"
        if n == 0:
            for dr, dc in EIGHT:
                nr, nc = r + dr, c + dc
                if inside(board, nr, nc) and board[nr][nc] == "E" and (nr, nc) not in visited:
                    visited.add((nr, nc))
                    queue.append((nr, nc))
    return board


def bfs_placeholder(mark):
    """A queue that marks a cell with a placeholder when it goes in, its symbol when it comes out."""

    def solve(board, click):
        r, c = click
        if board[r][c] == "M":
            board[r][c] = "X"
            return board
        board[r][c] = mark
        q = deque([(r, c)])
        while q:
            r, c = q.popleft()
            n = mines_around(board, r, c)
            board[r][c] = str(n) if n else "B"
            if n:
                continue
            for dr, dc in EIGHT:
                nr, nc = r + dr, c + dc
                if inside(board, nr, nc) and board[nr][nc] == "E":
                    board[nr][nc] = mark
                    q.append((nr, nc))
        return board

    return solve


def bfs_marks_when_leaving(board, click):
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board
    q = deque([(r, c)])
    while q:
        r, c = q.popleft()
        n = mines_around(board, r, c)
        board[r][c] = str(n) if n else "B"
        if not n:
            q.extend(
                (r + dr, c + dc)
                for dr, dc in EIGHT
                if inside(board, r + dr, c + dc) and board[r + dr][c + dc] == "E"
            )
    return board


def calls_itself(board, click):
    return calls_itself(board, click)


def dfs_hash_on_entry(board, click):
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board

    def go(r, c):
        board[r][c] = "#"
        n = mines_around(board, r, c)
        if n:
            board[r][c] = str(n)
            return
        for dr, dc in EIGHT:
            if inside(board, r + dr, c + dc) and board[r + dr][c + dc] == "E":
                go(r + dr, c + dc)
        board[r][c] = "B"

    go(r, c)
    return board


def stack_with_stale_entries(board, click):
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board
    stack = [(r, c)]
    while stack:
        r, c = stack.pop()
        if board[r][c] != "E":
            continue  # a stale entry: revealed since it was pushed
        n = mines_around(board, r, c)
        board[r][c] = str(n) if n else "B"
        if not n:
            for dr, dc in reversed(EIGHT):
                if inside(board, r + dr, c + dc) and board[r + dr][c + dc] == "E":
                    stack.append((r + dr, c + dc))
    return board


def stack_rewriting_stale_entries(board, click):
    """Pops stale entries and writes them again, with the symbol they already have."""
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board
    stack = [(r, c)]
    while stack:
        r, c = stack.pop()
        n = mines_around(board, r, c)
        if board[r][c] not in "EB" + str(n):
            continue
        was = board[r][c]
        board[r][c] = str(n) if n else "B"
        if not n and was == "E":
            for dr, dc in EIGHT:
                if inside(board, r + dr, c + dc) and board[r + dr][c + dc] == "E":
                    stack.append((r + dr, c + dc))
    return board


def dfs_neighbours_from_a_set(board, click):
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board

    def go(r, c):
        around = list({(r + dr, c + dc) for dr, dc in EIGHT if inside(board, r + dr, c + dc)})
        n = sum(board[i][j] == "M" for i, j in around)
        board[r][c] = str(n) if n else "B"
        if n:
            return
        for i, j in around:
            if board[i][j] == "E":
                go(i, j)

    go(r, c)
    return board


def dfs_shuffled(board, click):
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board
    rng = random.Random(len(board) * 31 + r)

    def go(r, c):
        n = mines_around(board, r, c)
        board[r][c] = str(n) if n else "B"
        if n:
            return
        directions = EIGHT[:]
        rng.shuffle(directions)
        for dr, dc in directions:
            if inside(board, r + dr, c + dc) and board[r + dr][c + dc] == "E":
                go(r + dr, c + dc)

    go(r, c)
    return board


class SolutionLeetCodeOrder:
    directions = [(-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1)]

    def updateBoard(self, board, click):
        m, n = len(board), len(board[0])
        i, j = click
        if board[i][j] == "M":
            board[i][j] = "X"
            return board

        def dfs(i, j):
            cnt = 0
            for di, dj in self.directions:
                x, y = i + di, j + dj
                if 0 <= x < m and 0 <= y < n and board[x][y] == "M":
                    cnt += 1
            if cnt:
                board[i][j] = str(cnt)
                return
            board[i][j] = "B"
            for di, dj in self.directions:
                x, y = i + di, j + dj
                if 0 <= x < m and 0 <= y < n and board[x][y] == "E":
                    dfs(x, y)

        dfs(i, j)
        return board


def dfs_big_recursion_limit(board, click):
    sys.setrecursionlimit(10**6)
    return SolutionRecursive().updateBoard(board, click)


# --- Wrong solutions: one mistake each -------------------------------------------------------


def mark_on_push(board, click):
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board
    n = mines_around(board, r, c)
    board[r][c] = str(n) if n else "B"
    stack = [(r, c)] if not n else []
    while stack:
        r, c = stack.pop()
        for dr, dc in EIGHT:
            i, j = r + dr, c + dc
            if inside(board, i, j) and board[i][j] == "E":
                k = mines_around(board, i, j)
                board[i][j] = str(k) if k else "B"
                if not k:
                    stack.append((i, j))
    return board


def recursive_with(*, four=False, zero=False, mine="X", spread=False, digit=str, swap=False, wrap=False):
    offsets = [(-1, 0), (0, -1), (0, 1), (1, 0)] if four else EIGHT

    def solve(board, click):
        r, c = click if not swap else click[::-1]
        if board[r][c] == "M":
            board[r][c] = mine
            return board

        def near(r, c):
            for dr, dc in offsets:
                i, j = r + dr, c + dc
                if (i < len(board) and j < len(board[0])) if wrap else inside(board, i, j):
                    yield i, j

        def go(r, c):
            n = sum(board[i][j] in ("M", "X") for i, j in near(r, c))
            board[r][c] = digit(n) if n else ("0" if zero else "B")
            if n and not spread:
                return
            for i, j in near(r, c):
                if board[i][j] == "E":
                    go(i, j)

        if board[r][c] == "E":
            go(r, c)
        return board

    return solve


def off_by_one_upper(board, click):
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board

    def go(r, c):
        n = 0
        for dr, dc in EIGHT:
            if 0 <= r + dr <= len(board) and 0 <= c + dc <= len(board[0]):  # <= : one past the edge
                n += board[r + dr][c + dc] == "M"
        board[r][c] = str(n) if n else "B"

    go(r, c)
    return board


def into_revealed_cells(board, click):
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board

    def go(r, c):
        n = mines_around(board, r, c)
        board[r][c] = str(n) if n else "B"
        if not n:
            for dr, dc in EIGHT:
                if inside(board, r + dr, c + dc) and board[r + dr][c + dc] != "M":
                    go(r + dr, c + dc)  # also into cells already revealed

    go(r, c)
    return board


def endless(board, click):
    todo = [tuple(click)]
    while todo:
        todo.append(todo.pop())
    return board


def to_a_copy(board, click):
    import copy

    return SolutionRecursive().updateBoard(copy.deepcopy(board), click)


def crashes(board, click):
    raise ValueError("not written yet")


RIGHT = [
    ("class form, recursion, type hints", SolutionRecursive, "dfs"),
    ("bound method Solution().updateBoard", SolutionRecursive().updateBoard, "dfs"),
    ("class form, deque", SolutionDeque, "bfs"),
    ("list.pop(0) queue", bfs_list_pop0, "bfs"),
    ("queue, ' ' placeholder on entry", bfs_placeholder(" "), "bfs"),
    ("queue, '#' placeholder on entry", bfs_placeholder("#"), "bfs"),
    ("queue, 'B' on entry, digit on leaving", bfs_placeholder("B"), "bfs"),
    ("recursion, '#' on entry, symbol after", dfs_hash_on_entry, "dfs"),
    ("explicit stack, stale entries skipped", stack_with_stale_entries, "dfs"),
    ("explicit stack, stale entries rewritten", stack_rewriting_stale_entries, "dfs"),
    ("recursion, neighbours from list(set(...))", dfs_neighbours_from_a_set, "dfs"),
    ("recursion, neighbours shuffled at each cell", dfs_shuffled, "dfs"),
    ("class form, LeetCode's direction list", SolutionLeetCodeOrder, "dfs"),
    ("recursion after sys.setrecursionlimit(10**6)", dfs_big_recursion_limit, "dfs"),
]

WRONG = [
    ("a stack marking cells as it pushes them", mark_on_push, "dfs", "marks on push"),
    ("a queue handed in as depth-first", SolutionDeque, "dfs", "bfs as dfs"),
    ("recursion handed in as breadth-first", SolutionRecursive, "bfs", "dfs as bfs"),
    ("four neighbours", recursive_with(four=True), None, "four neighbours"),
    ("digits that spread", recursive_with(spread=True), None, "digits spread"),
    ("'0' for a blank", recursive_with(zero=True), None, "0 for B"),
    ("a mine left as M", recursive_with(mine="M"), None, "mine left as M"),
    ("chr(n) for a digit", recursive_with(digit=chr), None, "digits as numbers"),
    ("the number n for a digit", recursive_with(digit=int), None, "digits as numbers"),
    ("<= len(board): one past the edge", off_by_one_upper, None, "off by one"),
    ("no >= 0 test: board[-1] read", recursive_with(wrap=True), None, "off by one"),
    ("c, r = click", recursive_with(swap=True), None, "row and column swapped"),
    ("recursion into revealed cells", into_revealed_cells, None, "revisits revealed cells"),
    ("an endless loop", endless, None, "too slow"),
    ("a queue that marks a cell only when it leaves", bfs_marks_when_leaving, "bfs", "queued many times"),
    (
        "calls itself with the same click",
        lambda board, click: calls_itself(board, click),
        None,
        "endless recursion",
    ),
    ("no return", lambda board, click: None, None, "returned nothing"),
    ("msviz's own reveal", lambda board, click: msviz.reveal(board, click), None, "used msviz"),
    ("writes to a deep copy", to_a_copy, "dfs", "writes to a copy"),
    ("an error", crashes, None, "crash"),
]


@pytest.mark.parametrize("style, solution, order", RIGHT, ids=[r[0] for r in RIGHT])
def test_right_solutions_in_every_style_are_graded_right(style, solution, order):
    report = check(solution, order=order, random_boards=60)
    assert report, str(report)
    assert report.points(10) == 10.0 and report.assert_ok() is None


@pytest.mark.parametrize("style, solution, order, bug", WRONG, ids=[w[0] for w in WRONG])
def test_each_wrong_solution_is_named_for_its_mistake(style, solution, order, bug):
    report = check(solution, order=order, random_boards=40, time_limit=0.5)
    assert not report and report.bug == bug, str(report)
    text = str(report)
    assert text.startswith(f"Not yet: {BUGS[bug][0]}.") and BUGS[bug][1] in text
    with pytest.raises(AssertionError, match=BUGS[bug][0].replace("(", r"\(").replace(")", r"\)")):
        report.assert_ok()
    assert 0 <= report.points() < 1


def test_every_named_mistake_has_a_solution_that_makes_it():
    shown_elsewhere = {"not dfs", "not bfs", "wrong neighbour order", "not a board", "wrong answer"}
    shown_elsewhere |= {"recursion limit", "changed the grader"}  # tested below
    shown_elsewhere |= {"ended the process", "crashed", "memory", "C call too long", "waited"}  # isolation
    shown_elsewhere |= {"unreadable"}  # test_grade_trust.py: a forged or garbled message
    shown_elsewhere |= {"refused"}  # test_grade_outside.py: threads, processes, programs, limits
    assert set(BUGS) - shown_elsewhere == {w[3] for w in WRONG}


def test_leetcodes_unbound_method_and_bad_signatures_get_a_one_line_fix():
    with pytest.raises(TypeError, match=r"pass SolutionRecursive\(\)\.updateBoard, or the class"):
        check(SolutionRecursive.updateBoard)

    class NoMethod:
        pass

    with pytest.raises(TypeError, match="no updateBoard method"):
        record(NoMethod, ["E"], (0, 0))
    with pytest.raises(TypeError, match=r"takes \(board\)"):
        check(lambda board: board)


def test_the_recursion_limit_on_a_large_board_is_named():
    board = [["E"] * 60 for _ in range(60)]
    tried = attempt(lambda b, c: recursive_with()(b, c), board, (0, 0), 5.0)
    assert tried.bug == "recursion limit" and "RecursionError" in tried.problem


def test_the_gradebook_reads_points_assertions_and_gradescope():
    report = check(recursive_with(mine="M"), order="dfs", random_boards=30)
    assert not report and report.points(4) == pytest.approx(sum(p / t for p, t in report.results.values()))
    results = report.to_gradescope(out_of=4)
    assert results["score"] == pytest.approx(report.points(4))
    assert sum(t["max_score"] for t in results["tests"]) == pytest.approx(4)
    assert [t["name"].split(":")[0] for t in results["tests"]] == [
        "the problem's examples",
        "tricky boards",
        "random boards",
        "order",
    ]
    assert "a mine click left as M" in results["tests"][0]["output"]


def test_what_the_student_prints_is_kept_not_shown(capsys):
    def chatty(board, click):
        print("looking at", click)
        print("debugging", file=sys.stderr)
        return SolutionRecursive().updateBoard(board, click)

    report = check(chatty, random_boards=2)
    out, err = capsys.readouterr()
    assert out == "" and err == ""
    assert report and "looking at [3, 0]" in report.stdout and "debugging" in report.stdout


# --- The order, as properties ----------------------------------------------------------------


def dfs_with_orders(seed, placeholder=None, rewrite=False):
    """A recursive DFS whose neighbour order is drawn afresh at each cell; optional noise."""
    rng = random.Random(seed)

    def solve(board, click):
        r, c = click
        if board[r][c] == "M":
            board[r][c] = "X"
            return board

        def go(r, c):
            if placeholder:
                board[r][c] = placeholder
            n = mines_around(board, r, c)
            board[r][c] = str(n) if n else "B"
            if rewrite:
                board[r][c] = board[r][c]
            if n:
                return
            order = EIGHT[:]
            rng.shuffle(order)
            for dr, dc in order:
                if inside(board, r + dr, c + dc) and board[r + dr][c + dc] == "E":
                    go(r + dr, c + dc)

        if board[r][c] == "E":
            go(r, c)
        return board

    return solve


def bfs_with_orders(seed, placeholder=None):
    rng = random.Random(seed)

    def solve(board, click):
        r, c = click
        if board[r][c] == "M":
            board[r][c] = "X"
            return board
        if board[r][c] != "E":
            return board
        seen, q = {(r, c)}, deque([(r, c)])
        if placeholder:
            board[r][c] = placeholder
        while q:
            r, c = q.popleft()
            n = mines_around(board, r, c)
            board[r][c] = str(n) if n else "B"
            if n:
                continue
            order = EIGHT[:]
            rng.shuffle(order)
            for dr, dc in order:
                i, j = r + dr, c + dc
                if inside(board, i, j) and board[i][j] == "E" and (i, j) not in seen:
                    seen.add((i, j))
                    if placeholder:
                        board[i][j] = placeholder
                    q.append((i, j))
        return board

    return solve


def order_verdict(solution, board, click, order):
    tried = attempt(solution, board, click, 5.0)
    expected = msviz.reveal(board, click)
    assert tried.board == expected
    return order_bug(board, click, expected, tried.writes, order, None, tried.recursed)


@settings(max_examples=60, deadline=None)
@given(games(), st.integers(0, 10**6), st.sampled_from([None, "#", " "]), st.booleans())
def test_any_dfs_is_depth_first_and_any_bfs_breadth_first_whatever_the_noise(game, seed, mark, rewrite):
    board, click = game
    assert order_verdict(dfs_with_orders(seed, mark, rewrite), board, click, "dfs") is None
    assert order_verdict(bfs_with_orders(seed, mark), board, click, "bfs") is None


@settings(max_examples=40, deadline=None)
@given(games(), st.integers(0, 10**6), st.sampled_from(["#", " "]))
def test_placeholder_noise_never_changes_the_order_verdict(game, seed, mark):
    board, click = game
    for order in ("dfs", "bfs"):
        plain = order_verdict(bfs_with_orders(seed), board, click, order)
        noisy = order_verdict(bfs_with_orders(seed, mark), board, click, order)
        assert plain == noisy


# --- Independent of the machine's load ------------------------------------------------------


def burns_cpu(board, click):
    """A right answer that spends a fixed amount of work on each board."""
    total = 0
    for i in range(60_000):
        total += i
    return SolutionRecursive().updateBoard(board, click)


def test_the_verdict_is_the_same_with_busy_processes_beside_the_grader():
    quiet = check(burns_cpu, random_boards=15, time_limit=0.5)
    busy = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(2)]
    try:
        loaded = check(burns_cpu, random_boards=15, time_limit=0.5)
    finally:
        for p in busy:
            p.kill()
            p.wait()
    assert quiet.results == loaded.results and quiet.ok and loaded.ok


def test_a_whole_check_stops_when_its_cpu_budget_is_spent(monkeypatch):
    import msviz.grade.verdict as verdict

    monkeypatch.setattr(verdict, "CHECK_BUDGET", 0.5)

    def slow(board, click):
        total = 0
        for i in range(400_000):
            total += i
        return SolutionRecursive().updateBoard(board, click)

    report = verdict.check(slow, random_boards=100)
    assert report.passed < report.total and any("CPU time in all" in n for n in report.notes)
