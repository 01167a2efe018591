"""`check`: run the student's function on every board, grade answers and order, shrink a failure.

The verdict depends on the student's code alone, never on how busy the
machine is: each board's limit is CPU time, the whole check has a budget of
CPU time, and the shrinker stops after a number of tries, not a number of
seconds.
"""

from __future__ import annotations

import os
from dataclasses import replace

from .. import _checks
from ..board import Board
from ..i18n import _, _n, get_language, speaks
from ..traversal import reveal
from . import child, runner, sandbox
from .cases import Case, cases, smaller
from .child import FORK, GRADER_CPU, INTERRUPTED, how_it_ended
from .judge import read_raw
from .mistakes import name_wrong_answer
from .order import order_bug, order_notes
from .remote import Stopped
from .report import CATEGORIES, Failure, Report
from .run import Attempt, Guard, as_function
from .runner import raw
from .vocabulary import MOST_TIME_LIMIT, OUTPUT_KEPT

__all__ = ["check", "judge_all", "attempt", "CHECK_BUDGET", "MOST_TIME_LIMIT", "MOST_RANDOM_BOARDS"]

#: CPU seconds the student's code may use in one whole check; the boards left
#: after it is spent are not tried. One board may go past it by its own time
#: limit at most, so with the grader's own work a check ends well inside a
#: notebook grader's 30 s for a cell.
CHECK_BUDGET = 20.0
#: The most random boards one check tries.
MOST_RANDOM_BOARDS = 10_000
#: The mistakes after which no more boards are tried: each would cost as much again.
STOPS = ("too slow", "revisits revealed cells", "memory", "endless recursion", "queued many times")


def in_process() -> str:
    """Said in a report where the function ran in the notebook's own process."""
    return _(
        "your function ran in this process, not in a process of its own (this platform has no fork): "
        "a crash, os._exit or a long call into C would have stopped the notebook"
    )


#: The most boards the shrinker tries, and the CPU seconds of the student's code it may use.
SHRINK_TRIES = 150
SHRINK_BUDGET = 5.0


def _grade(run, case: Case, order, neighbors, limit) -> tuple[Attempt, Board, str | None, str | None]:
    """Have one board run (``run(board, click, limit)``, an `Attempt`); then judge it.

    The answer is worked out only after the run: it is in no frame, and no
    process, the student's code can see. Returns the attempt, the right
    answer, and what is wrong with the answer and with the order. `Stopped`
    goes on up when the runner ended without answering.
    """
    tried = run(case.board, case.click, limit)
    expected = reveal(case.board, case.click)
    if tried.problem is not None:
        return tried, expected, tried.bug, None
    if tried.board != expected:
        return tried, expected, name_wrong_answer(case.board, case.click, expected, tried.board), None
    if order is None:
        return tried, expected, None, None
    bug = order_bug(case.board, case.click, expected, tried.writes, order, neighbors, tried.recursed)
    return tried, expected, None, bug


def _failure(category, case, tried: Attempt, expected, bug, order) -> Failure:
    got = tried.board if tried.board is not None else tried.returned
    error = tried.problem if category != "order" else None
    return Failure(category, case, expected, got, bug, error, None, tried.writes, order, tried.returned_text)


def _shrink(run, failure: Failure, order, neighbors, limit) -> Failure:
    """Return the failure on the smallest board found that fails with the same mistake.

    Tries, greedily: no earlier clicks, a row or a column fewer, a mine fewer;
    at most `SHRINK_TRIES` boards and `SHRINK_BUDGET` CPU seconds of the
    student's code, so the same function always shrinks to the same board.
    """
    if failure.case.recipe is None or failure.bug in STOPS:
        return failure
    best, tries, cpu, progress = failure, 0, 0.0, True
    while progress and tries < SHRINK_TRIES and cpu < SHRINK_BUDGET:
        progress = False
        for case in smaller(best.case):
            if tries >= SHRINK_TRIES or cpu >= SHRINK_BUDGET:
                break
            tries += 1
            try:
                tried, expected, answer_bug, bug_of_order = _grade(run, case, order, neighbors, limit)
            except Stopped:  # the runner died on a smaller board: keep the smallest found so far
                progress = False
                break
            cpu += tried.cpu
            bug = bug_of_order if failure.category == "order" else answer_bug
            if bug == failure.bug and (failure.category != "order" or answer_bug is None):
                best = _failure(failure.category, case, tried, expected, bug, order)
                progress = True
                break
    return failure if best is failure else replace(best, found=failure.case)


def _arguments(order, neighbors, time_limit, random_boards, seed, show):
    """Check `check`'s own arguments (before any work); return them in the form used."""
    if order is not None:
        order = _checks.order(order)
    if neighbors is not None:
        if order is None:
            raise ValueError("neighbors= is the neighbour order the solution must follow: give order= too")
        neighbors = _checks.neighbors(neighbors)
    time_limit = _checks.real_number("time_limit", time_limit, above=0, most=MOST_TIME_LIMIT)
    random_boards = _checks.whole_number("random_boards", random_boards, least=0, most=MOST_RANDOM_BOARDS)
    seed = _checks.whole_number("seed", seed)
    if not isinstance(show, bool):
        raise TypeError(f"show must be True or False, not {type(show).__name__}: {_checks.clip(show)}")
    return order, neighbors, time_limit, random_boards, seed


@speaks
def check(
    update_board,
    *,
    order=None,
    neighbors=None,
    time_limit: float = 2.0,
    random_boards: int = 200,
    seed: int = 529,
    show: bool = True,
) -> Report:
    """Run `update_board(board, click)` on many boards; return a `Report`, true when all were right.

    The function may change the board it is given and return it, or return a
    new one; it is given a fresh copy each time. A click is passed as a list
    ``[row, col]``, as LeetCode does. LeetCode's class form works too: pass
    the class ``Solution`` (or ``Solution().updateBoard``). Every board is
    tried, so the report can give each category its score; a random board
    answered wrong is then shrunk to the smallest board that fails with the
    same mistake.

    The order, with ``order=``, is the order in which cells are first touched
    (first written with anything other than what they held); see
    `msviz.grade.ORDER_RULE`. Placeholders and cells written twice are noted,
    never counted against it.

    The function runs in a process of its own, forked from this one (the
    function comes along as it is) and fenced where Linux allows it
    (`msviz.grade.sandbox`); it only reports what each board's call returned
    and wrote, and this process judges that report as untrusted data. So
    nothing the function sends can be taken for a verdict, and whatever it
    does, this process (a notebook's kernel) lives on with all its variables: ``os._exit``, a segfault, more
    than 1 GB of memory, a call into C that never returns, each comes back
    as a report naming it. Where there is no fork (Windows), it runs here,
    and the report says so.

    The verdict does not depend on the machine: `time_limit` is CPU time of
    the student's code on one board, and the whole check stops trying boards
    once the code has used `CHECK_BUDGET` seconds of CPU time. A watcher
    thread stops Python code by raising an exception in it (CPython's
    ``PyThreadState_SetAsyncExc``; without ctypes a CPU-time timer), again
    and again until the code is left, so ``while True: pass`` stops too. This
    process reads the child's CPU time from outside (every thread, every
    process): a single call into C is stopped half a second past the limit,
    and a board answered past it is too slow whatever the child says. A child
    that uses no CPU time for `msviz.grade.limits.IDLE_SECONDS` is stopped (it
    was waiting); a wall-clock backstop stays behind. After the first time-out the
    remaining boards are not tried. What the code prints is kept in
    `Report.stdout`, not shown.

    Parameters
    ----------
    update_board : callable or class
        The student's solution: a function, a bound method, or a class with
        an ``updateBoard`` (or ``update_board``) method.
    order : {"dfs", "bfs"}, optional
        Also grade the order: depth-first (any neighbour order, even one that
        changes from cell to cell) or breadth-first (layer by layer).
    neighbors : sequence of (dr, dc), optional
        With `order`, the exact neighbour order the solution must follow.
    time_limit : float
        CPU seconds allowed for one board (at most 60).
    random_boards : int
        How many random boards to try after the ten fixed ones (at most 10000).
    seed : int
        The same seed tries the same boards.
    show : bool
        Whether the report, shown in a notebook, draws its first failure.
    language : str, optional
        The language the report speaks (``"es"``, ``"zh_CN"``; by default the one spoken now).

    Examples
    --------
    >>> def update_board(board, click):
    ...     r, c = click
    ...     if board[r][c] == "M":
    ...         board[r][c] = "X"
    ...         return board
    ...     rows, cols = len(board), len(board[0])
    ...     around = [(r + i, c + j) for i in (-1, 0, 1) for j in (-1, 0, 1)
    ...               if (i or j) and 0 <= r + i < rows and 0 <= c + j < cols]
    ...     mines = sum(board[i][j] == "M" for i, j in around)
    ...     board[r][c] = str(mines) if mines else "B"
    ...     for i, j in around if not mines else []:
    ...         if board[i][j] == "E":
    ...             update_board(board, [i, j])
    ...     return board
    >>> report = check(update_board, order="dfs")
    >>> bool(report), report.results
    (True, {'examples': (2, 2), 'tricky': (10, 10), 'random': (190, 190), 'order': (202, 202)})
    >>> report = check(update_board, order="bfs")
    >>> bool(report), report.failure.name
    (False, 'a depth-first order handed in as breadth-first')
    """
    function = as_function(update_board, "check")
    order, neighbors, time_limit, random_boards, seed = _arguments(
        order, neighbors, time_limit, random_boards, seed, show
    )
    tries = cases(random_boards=random_boards, seed=seed)
    if not FORK or runner.in_child:
        guard = Guard()
        report, _stopped = judge_all(
            lambda board, click, limit: attempt(function, board, click, limit, guard),
            tries,
            order,
            neighbors,
            time_limit,
            show,
        )
        if not FORK:
            report.notes.append(in_process())
        return _said(report)
    cpu = CHECK_BUDGET + SHRINK_BUDGET + time_limit + GRADER_CPU
    wall = max(60.0, 3 * cpu)
    before = child.resident()
    remote = child.start(function, cpu=cpu, wall=wall)
    try:
        report, stopped = judge_all(remote.attempt, tries, order, neighbors, time_limit, show)
    except BaseException:  # Ctrl-C in the notebook: the runner goes too
        remote.finish("interrupted")
        raise
    ended = remote.finish()
    if not remote.fence:
        report.notes.append(sandbox.no_fence())
    if stopped is not None and os.WIFEXITED(ended.status) and os.WEXITSTATUS(ended.status) == INTERRUPTED:
        raise KeyboardInterrupt
    if stopped is not None:
        report.failures[0] = _named_death(report.failures[0], *how_it_ended(ended, cpu, wall, before))
    report.stdout = (report.stdout + ended.output)[-OUTPUT_KEPT:]
    return _said(report)


def _said(report: Report) -> Report:
    """`report`, said from now on in the language spoken now (the one `check` was asked for)."""
    report.language = get_language()
    for failure in report.failures:
        failure.language = report.language
    return report


def attempt(function, board, click, limit: float, guard=None) -> Attempt:
    """Run the student's function once here, in this process, and judge what happened.

    The runner's account goes through the judge's reading as a child's would.
    Used where there is no process of its own to run in (no fork; a runner's own
    process). Never raises but KeyboardInterrupt.

    Examples
    --------
    >>> def fill(board, click):
    ...     board[0][0] = "B"
    ...     return board
    >>> a = attempt(fill, [["E"]], (0, 0), 1.0)
    >>> a.board, a.writes, a.problem
    ([['B']], ((0, 0, 'B', 0),), None)
    """
    return read_raw(raw(function, board, click, limit, guard), board, limit)


def _named_death(failure: Failure, bug: str, words: str) -> Failure:
    return replace(failure, bug=bug, error=words)


def judge_all(run, tries, order, neighbors, time_limit, show) -> tuple[Report, Stopped | None]:
    """Judge every board of `tries`, each run by ``run(board, click, limit)``; the report, and how
    the runner stopped if it ended before the last board (its failure then names the board, with
    the mistake ``"ended the process"`` until the caller names the death).

    `run` is the only way the judge reaches the student's code: in a runner
    process (`msviz.grade.remote.Remote.attempt`) or here (`msviz.grade.judge.attempt`).
    """
    results = {name: [0, 0] for name in ("examples", "tricky", "random")}
    if order:
        results["order"] = [0, 0]
    first: dict[str, Failure] = {}
    notes: dict[str, None] = {}
    printed, cpu, stopped = [], 0.0, None
    for i, case in enumerate(tries):
        try:
            tried, expected, answer_bug, bug_of_order = _grade(run, case, order, neighbors, time_limit)
        except Stopped as error:
            stopped = error
            died = Failure(
                case.category,
                case,
                reveal(case.board, case.click),
                None,
                "ended the process",
                "",
                order=order,
            )
            _untried(results, tries[i:], order)
            if len(tries) - i > 1:
                left = len(tries) - i - 1
                said = _n(
                    "after that, the other {n} board was not tried",
                    "after that, the other {n} boards were not tried",
                    left,
                )
                notes[said.format(n=left)] = None
            break
        cpu += tried.cpu
        printed.append(tried.output)
        notes.update(dict.fromkeys(tried.notes))
        if answer_bug is None:
            notes.update(dict.fromkeys(order_notes(case.board, tried.writes, order)))
        results[case.category][1] += 1
        results[case.category][0] += answer_bug is None
        if answer_bug is not None and case.category not in first:
            first[case.category] = _failure(case.category, case, tried, expected, answer_bug, order)
        if order:
            results["order"][1] += 1
            results["order"][0] += answer_bug is None and bug_of_order is None
            if bug_of_order is not None and "order" not in first:
                first["order"] = _failure("order", case, tried, expected, bug_of_order, order)
        stop = answer_bug in STOPS[2:] or (
            answer_bug in STOPS and not tried.problem.startswith("RecursionError")
        )
        if stop or cpu >= CHECK_BUDGET:
            left = len(tries) - i - 1
            if left:
                notes[_stopped_early(answer_bug if stop else None, left)] = None
            _untried(results, tries[i + 1 :], order)
            break
    if stopped is not None:  # the death first: it is what the student must see
        failures = [died] + [f for name, f in first.items() if name not in (case.category, "order")]
    else:
        failures = [first[name] for name in CATEGORIES if name in first]
        failures = [
            _shrink(run, f, order, neighbors, time_limit) if f.case.category == "random" else f
            for f in failures
        ]
    results = {name: tuple(v) for name, v in results.items()}
    return Report(results, failures, order, list(notes), show, "".join(printed), cpu), stopped


def _stopped_early(bug: str | None, left: int) -> str:
    """The note on the `left` boards not tried after mistake `bug` (None: after the check's CPU budget)."""
    if bug is None:
        said = _n(
            "after {seconds} s of CPU time in all, the other {n} board was not tried",
            "after {seconds} s of CPU time in all, the other {n} boards were not tried",
            left,
        )
    elif bug == "memory":
        said = _n(
            "after running out of memory, the other {n} board was not tried",
            "after running out of memory, the other {n} boards were not tried",
            left,
        )
    elif bug == "endless recursion":
        said = _n(
            "after the endless recursion, the other {n} board was not tried",
            "after the endless recursion, the other {n} boards were not tried",
            left,
        )
    else:
        said = _n(
            "after the time-out, the other {n} board was not tried",
            "after the time-out, the other {n} boards were not tried",
            left,
        )
    return said.format(n=left, seconds=f"{CHECK_BUDGET:g}")


def _untried(results: dict, later, order) -> None:
    """Count boards not tried as tried and not passed."""
    for case in later:
        results[case.category][1] += 1
        if order:
            results["order"][1] += 1
