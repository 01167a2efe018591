"""msviz benchmark: every figure is a ratio against a baseline timed in the same run.

Run it with ``python3 dev.py bench`` (or ``.venv/bin/python benchmarks/run.py``).
Options: ``--size N`` for an N x N board (default 1000), ``--repeat R``
rounds (default 5), ``--quick`` for a 300 x 300 board and one round.

Measured, on an N x N board with 1% mines and a click on a cell with no mine
around it (about N*N visits):

* ``bfs_reveal`` and ``dfs_reveal``, read visit by visit, against the plain
  textbook solutions that yield nothing (a queue BFS; a recursive DFS with the
  recursion limit raised, in a thread with a large stack). Target: <= 0.75x.
* ``trace`` against the generator loop of the same order. Target: <= 1.5x.
* Peak memory of building the trace (tracemalloc). Target: < 200 MB.
* The grader running a student's right solution (recording every write with
  its depth, under the CPU-time limit, reading the answer) against the same
  solution run bare, on a 200 x 200 board. Target: <= 1.5x. The time of a
  whole ``msviz.check`` (200 small boards, the right answers and the order
  worked out too) is printed beside, per board.

The ratios hold on a busy machine far better than the seconds do (on the
shared machines here, the same run's CPU time varies by half from one run to
the next). Runs are interleaved in rounds, every case once a round, so that a
slow spell hits both sides of a ratio alike; the time is this process's CPU
time; as in timeit, the garbage collector waits while a run is timed, so that
one case's garbage is not collected in another's time, and the fastest run of
each case counts (the machine's noise only ever slows a run down). The
slowest runs, and the range of each round's own ratio, are printed beside, to
show how noisy the machine was.
"""

from __future__ import annotations

import argparse
import copy
import gc
import sys
import threading
import time
import tracemalloc
from collections import deque

import msviz

DIRECTIONS = msviz.READING_ORDER


# --- The textbook solutions: the baselines --------------------------------------


def textbook_bfs(board, click):
    """The classic queue solution, in place, yielding nothing."""
    rows, cols = len(board), len(board[0])
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board
    queue = deque([(r, c)])
    seen = {(r, c)}
    while queue:
        r, c = queue.popleft()
        mines = 0
        for dr, dc in DIRECTIONS:
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols and board[nr][nc] in "MX":
                mines += 1
        if mines:
            board[r][c] = str(mines)
            continue
        board[r][c] = "B"
        for dr, dc in DIRECTIONS:
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols and board[nr][nc] == "E" and (nr, nc) not in seen:
                seen.add((nr, nc))
                queue.append((nr, nc))
    return board


def textbook_dfs(board, click):
    """The classic recursive solution, in place, yielding nothing."""
    rows, cols = len(board), len(board[0])

    def dfs(r, c):
        mines = 0
        for dr, dc in DIRECTIONS:
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols and board[nr][nc] in "MX":
                mines += 1
        if mines:
            board[r][c] = str(mines)
            return
        board[r][c] = "B"
        for dr, dc in DIRECTIONS:
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols and board[nr][nc] == "E":
                dfs(nr, nc)

    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
    elif board[r][c] == "E":
        dfs(r, c)
    return board


def in_big_stack(fn, *args):
    """Run `fn(*args)` in a thread with a deep recursion limit and a large C stack."""
    result = {}
    old_limit, old_size = sys.getrecursionlimit(), threading.stack_size()
    sys.setrecursionlimit(10_000_000)
    threading.stack_size(1 << 30)
    try:
        thread = threading.Thread(target=lambda: result.setdefault("value", fn(*args)))
        thread.start()
        thread.join()
    finally:
        threading.stack_size(old_size)
        sys.setrecursionlimit(old_limit)
    return result["value"]


# --- What is measured --------------------------------------------------------------


def read_every_visit(reveal, board, click):
    """Read every visit a generator yields; return how many."""
    n = 0
    for _visit in reveal(board, click):
        n += 1
    return n


def timed(fn, *args):
    """CPU seconds `fn(*args)` takes (this process's, not the machine's), the garbage collected before."""
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        fn(*args)
        return time.process_time() - start
    finally:
        gc.enable()


def measure(cases, repeat):
    """Time each named case `repeat` times, interleaved; return each case's times, one a round."""
    times = {name: [] for name in cases}
    for _ in range(repeat):
        for name, (fn, make_args) in cases.items():
            args = make_args()
            times[name].append(timed(fn, *args))
    return times


def peak_trace_memory(board, click, order):
    """Peak bytes allocated while building a trace (numpy's arrays included)."""
    tracemalloc.start()
    try:
        msviz.trace(board, click, order=order)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def random_board_memory(size):
    """Peak bytes allocated while making a size x size board with 20% mines, and the bytes the board keeps."""
    tracemalloc.start()
    try:
        board = msviz.random_board(size, size, size * size // 5, seed=1)
        kept = tracemalloc.get_traced_memory()[0]
        return tracemalloc.get_traced_memory()[1], kept
    finally:
        del board
        tracemalloc.stop()


def report(label, ratio, target, unit="x", note=""):
    verdict = "ok" if ratio <= target else "MISSED"
    print(f"  {label:<44} {ratio:7.3f}{unit}   target <= {target}{unit}   {verdict}{note}")
    return ratio <= target


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1000, help="board side (default 1000)")
    parser.add_argument("--repeat", type=int, default=5, help="rounds, each case once a round (default 5)")
    parser.add_argument("--quick", action="store_true", help="a 300x300 board, one round")
    args = parser.parse_args(argv)
    size, repeat = (300, 1) if args.quick else (args.size, args.repeat)

    click = (size // 2, size // 2)
    board = msviz.random_board(size, size, size * size // 100, seed=529, safe=click)
    visits = read_every_visit(msviz.bfs_reveal, board, click)
    print(f"msviz benchmark: {size}x{size} board, 1% mines, click {click}: {visits:,} visits")
    print(f"  Python {sys.version.split()[0]}, {repeat} interleaved round(s)\n")

    fresh = lambda: (copy.deepcopy(board), click)  # noqa: E731  the textbook works in place
    same = lambda: (board, click)  # noqa: E731  msviz copies for itself
    # In this order, the two sides of every ratio are timed one right after the other.
    cases = {
        "textbook BFS": (textbook_bfs, fresh),
        "bfs_reveal loop": (lambda b, c: read_every_visit(msviz.bfs_reveal, b, c), same),
        "trace bfs": (lambda b, c: msviz.trace(b, c, order="bfs"), same),
        "textbook DFS": (lambda b, c: in_big_stack(textbook_dfs, b, c), fresh),
        "dfs_reveal loop": (lambda b, c: read_every_visit(msviz.dfs_reveal, b, c), same),
        "trace dfs": (lambda b, c: msviz.trace(b, c, order="dfs"), same),
    }
    times = measure(cases, repeat)
    print(f"  {'':<44} {'fastest':>7}   slowest")
    for name, ts in times.items():
        print(f"  {name:<44} {min(ts):7.3f} s {max(ts):7.3f} s")
    print()

    def timed_ratio(case, baseline, target):
        """Report the ratio of the fastest runs, and the range of each round's own ratio."""
        ratios = [a / b for a, b in zip(times[case], times[baseline])]
        spread = f"   rounds {min(ratios):.2f}-{max(ratios):.2f}" if len(ratios) > 1 else ""
        return report(f"{case} / {baseline}", min(times[case]) / min(times[baseline]), target, note=spread)

    ok = all(
        [
            timed_ratio("bfs_reveal loop", "textbook BFS", 0.75),
            timed_ratio("dfs_reveal loop", "textbook DFS", 0.75),
            timed_ratio("trace bfs", "bfs_reveal loop", 1.5),
            timed_ratio("trace dfs", "dfs_reveal loop", 1.5),
        ]
    )
    t = {name: min(ts) for name, ts in times.items()}
    print()
    for order in msviz.ORDERS:
        peak = peak_trace_memory(board, click, order) / 2**20
        ok &= report(f"peak memory of trace {order} ({size * size:,} cells)", peak, 200, " MB")
    peak, kept = random_board_memory(size)
    ok &= report(f"random_board peak / the board it returns ({size}x{size})", peak / kept, 4.0)
    print()
    ok &= view_benchmark(board, click, repeat, {"dfs": t["trace dfs"], "bfs": t["trace bfs"]})
    print()
    ok &= grader_benchmark(repeat)
    print("\nall targets met" if ok else "\nsome targets MISSED")
    return 0 if ok else 1


# --- The board view: what the kernel does once per reveal -----------------------------


def view_benchmark(board, click, repeat, trace_seconds):
    """Time packing a trace into the view's binary traits, against building the trace.

    This is all the kernel does for a player: the browser draws every step
    (benchmarks/browser.py measures that side, in Chromium).
    """
    from msviz.view import view_state

    ok = True
    for order in msviz.ORDERS:
        t = msviz.trace(board, click, order=order)
        seconds = min(timed(view_state, t) for _ in range(repeat))
        sent = sum(len(v) for v in view_state(t).values() if isinstance(v, bytes))
        print(
            f"  view_state {order}: {seconds:.3f} s, {sent / 2**20:.1f} MB sent once"
            f" ({sent / t.board.size:.1f} bytes a cell)"
        )
        ok &= report(f"view_state {order} / trace {order}", seconds / trace_seconds[order], 0.25)
    return ok


# --- The grader: a student's right solution run under it, against the same run bare ---------


def grader_benchmark(repeat):
    """Time `msviz.grade.run.attempt` on the textbook BFS against the bare call; print a check's time."""
    from msviz.grade import check
    from msviz.grade.run import Guard
    from msviz.grade.verdict import attempt

    size = 200
    click = (size // 2, size // 2)
    board = msviz.random_board(size, size, size * size // 100, seed=529, safe=click)
    guard = Guard()
    cases = {
        "textbook BFS, bare (200x200)": (textbook_bfs, lambda: (copy.deepcopy(board), list(click))),
        "textbook BFS under the grader": (
            lambda b, c: attempt(textbook_bfs, b, c, 60.0, guard),
            lambda: (board, click),
        ),
    }
    times = measure(cases, repeat)
    bare, graded = (min(ts) for ts in times.values())
    ratios = [a / b for a, b in zip(*reversed(list(times.values())))]
    spread = f"   rounds {min(ratios):.2f}-{max(ratios):.2f}" if len(ratios) > 1 else ""
    ok = report("grader / bare, one 200x200 board", graded / bare, 1.5, note=spread)
    whole = timed(lambda: check(textbook_bfs, order="bfs", show=False))
    print(
        f"  a whole check of the textbook BFS (200 boards, order too): {whole:.2f} s, "
        f"{whole / 200 * 1000:.2f} ms a board"
    )
    return ok


if __name__ == "__main__":
    sys.exit(main())
