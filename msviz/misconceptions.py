"""Misconceptions: buggy versions of the reveal a student may carry out instead of the algorithm.

Every ``sim`` here is a `msviz.simulation.Simulation` (read, never changed, except where said).

Each version is a few lines in `VERSIONS`: the operation it does next on a
simulation's state (None where it does what the algorithm does), the order
it belongs to, and the situation on a board where it goes wrong (for
``simulation_set(..., focus=...)``). A teacher adds one by adding an entry
and its words in `msviz.words.MISCONCEPTIONS`.

`name_one` replays a student's attempt and, at each step's first try, asks
every version what it would do from the state the student was in. A
version is *named* when it explains the student's mistakes better than
chance (`explains`):

- it differs from the algorithm at some steps, and at ``m`` >= 2 of them the
  student did what it does, at least half of those steps;
- a student who slipped at random would match it that often with a
  probability under 1 in 1000: at each step where the version differs,
  a random wrong operation is the version's with probability ``1 / (k - 1)``,
  ``k`` the operations possible there (the ten symbols to say, or a cell
  to take, queue or call, or a return), and the chance of ``m`` or more
  matches is worked out exactly (a Poisson binomial tail).

Of the versions named, the one matching the most steps is the student's.

Examples
--------
>>> from msviz.simulation import Simulation
>>> sim = Simulation(["EEEE", "EEEE", "EEEM"], (0, 0), order="bfs")
>>> log = carried_out_by(VERSIONS["bfs_as_dfs"], sim)
>>> name_one(Simulation(sim.board, sim.click, order="bfs"), log)["version"]
'bfs_as_dfs'
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass

from .traversal import LEETCODE_ORDER, READING_ORDER

__all__ = ["Version", "VERSIONS", "FOCUS", "name_one", "explains", "carried_out_by"]


@dataclass(frozen=True)
class Version:
    """One buggy version: `does(sim)` is its next operation (None: as the algorithm), `orders` the orders
    it is a version of, `holds(sim)` whether `sim`'s board has the situation it goes wrong in."""

    does: Callable
    orders: tuple
    holds: Callable


# -- what the state holds ---------------------------------------------------------------------------


def _around(sim, cell, order=None, *, kinds=("E",)) -> list:
    """`cell`'s neighbours on the board that are of `kinds` ("E" hidden empty, "M" a mine), in `order`."""
    rows, cols = sim.shape
    out = []
    for dr, dc in order or sim.neighbors:
        r, c = cell[0] + dr, cell[1] + dc
        if 0 <= r < rows and 0 <= c < cols and sim.board[r][c] in kinds:
            out.append((r, c))
    return out


def _since_say(sim) -> int:
    """How many operations were carried out since the last `say`."""
    n, k = len(sim.revealed), 0
    for state in reversed(sim.history):
        if len(state["revealed"]) < n:
            return k
        k += 1
    return k


def _last_said(sim):
    """The cell said last and what was said, or (None, None); only while no cell waits to be said."""
    if sim.current is not None or not sim.revealed:
        return None, None
    cell = next(reversed(sim.revealed))
    return cell, sim.revealed[cell]


def _kth(sim, cells: list, name: str = "queue"):
    """The `k`-th of `cells`, `k` the operations since the last say: a list carried out one a step."""
    k = _since_say(sim)
    return (name, cells[k]) if k < len(cells) else None


def _top(sim):
    """The call on top of the stack, while no cell waits to be said (else None)."""
    return sim.stack[-1] if sim.stack and sim.current is None else None


def _fresh(sim, cells) -> list:
    return [c for c in cells if c not in sim.revealed and c not in sim.stack and c != sim.current]


# -- the versions: what each does next -----------------------------------------------------------------


def _marks_when_taken(sim):
    """Breadth-first, a cell marked when taken, not when queued: a blank queues every hidden neighbour
    not yet revealed, those in the queue already too."""
    cell, said = _last_said(sim)
    if sim.order == "bfs" and said == "B":
        return _kth(sim, [c for c in _around(sim, cell) if c not in sim.revealed])
    return None


def _digit_queues(sim):
    """A digit treated as a blank: breadth-first it queues its hidden neighbours, depth-first it calls
    them."""
    if sim.order == "dfs":
        top = _top(sim)
        if top is not None and sim.revealed.get(top, "B") not in ("B", "X"):
            later = _fresh(sim, _around(sim, top))
            return ("call", later[0]) if later else None
        return None
    cell, said = _last_said(sim)
    if said not in (None, "B", "X"):
        return _kth(sim, [c for c in _around(sim, cell) if c not in sim.revealed and c not in sim.queued])
    return None


def _bfs_as_dfs(sim):
    """Breadth-first carried out depth-first: the queue used as a stack, its newest cell taken first."""
    name, _ = sim.expected()
    return ("take", sim.queue_[-1]) if name == "take" and len(sim.queue_) > 1 else None


def _dfs_as_bfs(sim):
    """Depth-first carried out breadth-first: the cells called in the breadth-first reveal's order."""
    name, _ = sim.expected()
    if name not in ("call", "back") or not sim.stack:
        return None
    later = [c for c in _breadth_first(sim) if c not in sim.revealed and c not in sim.stack]
    return ("call", later[0]) if later else None


def _breadth_first(sim) -> list:
    from .traversal import bfs_reveal

    return [(v.row, v.col) for v in bfs_reveal(sim.board, sim.click, neighbors=sim.neighbors)]


def _never_returns(sim):
    """A recursion that does not return until the end: where a call returns, the next call instead."""
    if sim.expected()[0] != "back":
        return None
    ahead = copy.copy(sim)
    ahead.stack = list(sim.stack)
    while ahead.stack and ahead.expected()[0] == "back":
        ahead.stack.pop()
    name, cell = ahead.expected() if ahead.stack else ("over", None)
    return ("call", cell) if name == "call" else None


def _returns_early(sim):
    """A recursion that returns early: a blank's call returns before it calls its hidden neighbours."""
    name, _ = sim.expected()
    return ("back", None) if name == "call" and sim.stack else None


def _other_order(order):
    """Another fixed neighbour order: the next neighbour queued or called is the first in `order`."""

    def does(sim):
        name, _ = sim.expected()
        if name == "queue" and len(sim.pending) > 1:
            return (
                "queue",
                next(c for c in _around(sim, next(reversed(sim.revealed)), order) if c in sim.pending),
            )
        top = _top(sim)
        if name == "call" and top is not None:
            later = _fresh(sim, [c for c in _around(sim, top, order) if c not in sim.revealed])
            return ("call", later[0]) if later else None
        return None

    return does


def _mine_revealed(sim):
    """A digit's mines revealed: after a digit, breadth-first queues, depth-first calls, the mines
    around it."""
    if sim.order == "dfs":
        top = _top(sim)
        if top is not None and sim.revealed.get(top, "B") not in ("B", "X"):
            mines = _fresh(sim, _around(sim, top, kinds=("M",)))
            return ("call", mines[0]) if mines else None
        return None
    cell, said = _last_said(sim)
    if said not in (None, "B", "X"):
        return _kth(sim, [c for c in _around(sim, cell, kinds=("M",)) if c not in sim.queued])
    return None


# -- the situations a focused set's boards hold (on the algorithm's own run) ------------------------


def _run(sim):
    """`sim`'s board revealed by the algorithm itself (`msviz.simulation.model`)."""
    done = sim.fresh(feedback="fix")
    while not done.over:
        done._carry_out(*done.expected())
        done.step += 1
    return done


def _next_to_two_blanks(sim) -> bool:
    """Breadth-first, a cell still in the queue when a second blank next to it is said (twice over)."""
    ahead, twice = sim.fresh(order="bfs", feedback="fix"), 0
    while not ahead.over:
        name, value = ahead.expected()
        if name == "say" and value == "B":
            waiting = [
                n for n in _around(ahead, ahead.current) if n in ahead.queued and n not in ahead.revealed
            ]
            twice += bool(waiting)
        ahead._carry_out(name, value)
    return twice >= 2


def _digit_beside_blank(sim) -> bool:
    done = _run(sim)
    return any(
        said not in ("B", "X")
        and any(done.revealed.get(n) == "B" for n in _around(done, cell))
        and any(n not in done.revealed for n in _around(done, cell))
        for cell, said in done.revealed.items()
    )


def _digit_beside_mine(sim) -> bool:
    done = _run(sim)
    return sum(said not in ("B", "X") for said in done.revealed.values()) >= 3


def _long_returns(sim, least: int = 3) -> bool:
    """Depth-first, a chain of `least` returns one after the other before the reveal calls again."""
    ahead = sim.fresh(order="dfs", feedback="fix")
    run = 0
    while not ahead.over:
        name, value = ahead.expected()
        if name == "call" and run >= least:
            return True
        run = run + 1 if name == "back" else 0 if name == "call" else run
        ahead._carry_out(name, value)
    return False


def _apart(order):
    """The reveal in neighbour `order` is in another order than in reading order and than in every other
    order of `OTHER_ORDERS`."""

    def holds(sim) -> bool:
        def revealed(neighbours):
            return list(_run(sim.fresh(neighbors=neighbours)).revealed)

        mine = revealed(order)
        return all(mine != revealed(other) for other in (READING_ORDER, *OTHER_ORDERS) if other != order)

    return holds


#: The other fixed neighbour orders a student may follow: reading order backwards, LeetCode's.
OTHER_ORDERS = (tuple(READING_ORDER[::-1]), tuple(LEETCODE_ORDER))


def _orders_differ(sim) -> bool:
    bfs, dfs = sim.fresh(order="bfs"), sim.fresh(order="dfs")
    return list(_run(bfs).revealed)[:6] != list(_run(dfs).revealed)[:6]


#: The buggy versions, by name: what each does, the orders it is a version of, its situation.
VERSIONS: dict[str, Version] = {
    "marks_when_taken": Version(_marks_when_taken, ("bfs",), _next_to_two_blanks),
    "digit_queues": Version(_digit_queues, ("bfs", "dfs"), _digit_beside_blank),
    "bfs_as_dfs": Version(_bfs_as_dfs, ("bfs",), _orders_differ),
    "dfs_as_bfs": Version(_dfs_as_bfs, ("dfs",), _orders_differ),
    "never_returns": Version(_never_returns, ("dfs",), _long_returns),
    "returns_early": Version(_returns_early, ("dfs",), _long_returns),
    "reversed_order": Version(_other_order(OTHER_ORDERS[0]), ("bfs", "dfs"), _apart(OTHER_ORDERS[0])),
    "leetcode_order": Version(_other_order(OTHER_ORDERS[1]), ("bfs", "dfs"), _apart(OTHER_ORDERS[1])),
    "mine_revealed": Version(_mine_revealed, ("bfs", "dfs"), _digit_beside_mine),
}

#: A focused set's board has its version's situation, and there the version goes wrong this often.
FOCUS_LEAST = 6


@dataclass(frozen=True)
class Focus:
    """What ``simulation_set(..., focus=name)`` draws for: the orders, and `holds(sim)`."""

    key: str
    orders: tuple

    def holds(self, sim) -> bool:
        """Whether `sim`'s board has the situation, and the version carried out there differs from the
        algorithm at `FOCUS_LEAST` steps or more."""
        version = VERSIONS[self.key]
        if not version.holds(sim):
            return False
        log = carried_out_by(version, sim.fresh())
        seen = replay_watched(sim.fresh(), log)
        return explains(seen, self.key)["differ"] >= FOCUS_LEAST


#: What ``simulation_set(..., focus=name)`` draws for, by the name of each version.
FOCUS = {key: Focus(key, version.orders) for key, version in VERSIONS.items()}


# -- naming the version a student followed ------------------------------------------------------------


def _choices(sim) -> int:
    """How many operations a student could try now: the ten symbols to say, or a cell to take, queue or
    call (any hidden one), or a return."""
    if sim.current is not None:
        return 10
    hidden = sum(1 for cell in sim.symbols if cell not in sim.revealed)
    return max(2, hidden + (sim.order == "dfs"))


def _tail(chances: list[float], m: int) -> float:
    """The chance that `m` or more of independent events with probabilities `chances` happen."""
    dist = [1.0]
    for p in chances:
        dist = [a * (1 - p) + b * p for a, b in zip(dist + [0.0], [0.0] + dist)]
    return sum(dist[m:])


def replay_watched(sim, log: str) -> list[dict]:
    """Carry out `log` on `sim`; at each step's first try what the student did, what the algorithm
    allowed, and what each version of `sim`'s order would have done, ``{"step", "did", "allowed",
    "versions", "choices"}``."""
    seen = []

    def watch(state, name, value):
        versions = {}
        for key, version in VERSIONS.items():
            if state.order in version.orders:
                versions[key] = version.does(state)
        allowed = state.allowed()
        seen.append(
            {
                "step": state.step,
                "did": (name, value),
                "allowed": allowed,
                "versions": versions,
                "choices": _choices(state),
            }
        )

    sim.watch = watch
    try:
        sim.play(log)
    finally:
        sim.watch = None
    return seen


#: A version is named only where random slips would match it this rarely.
CHANCE = 0.01


def explains(seen: list[dict], key: str) -> dict:
    """How version `key` explains a replayed attempt (`replay_watched`): the steps where it differs from
    the algorithm, those where the student did what it does, their chance, and whether it is named."""
    differ = [
        s for s in seen if s["versions"].get(key) is not None and s["versions"][key] not in s["allowed"]
    ]
    matched = [s for s in differ if s["did"] == s["versions"][key]]
    chance = _tail([1 / max(1, s["choices"] - 1) for s in differ], len(matched))
    named = len(matched) >= 2 and 2 * len(matched) >= len(differ) and chance < CHANCE
    best = max(matched, key=lambda s: s["choices"]) if matched else None
    return {"differ": len(differ), "matched": len(matched), "chance": chance, "named": named, "best": best}


def name_one(sim, log: str) -> dict:
    """The version of the reveal a student's attempt `log` follows, carried out on a fresh `sim`.

    Returns ``{"version", "matched", "differ", "chance", "step", "did"}``:
    `version` is None where no version explains the mistakes better than
    chance; `step` (counted from 1) and `did` are the matched step where a
    random slip was least likely to land.
    """
    seen = replay_watched(sim, log)
    found = {key: explains(seen, key) for key in VERSIONS if sim.order in VERSIONS[key].orders}
    named = [(key, e) for key, e in found.items() if e["named"]]
    if not named:
        return {"version": None, "matched": 0, "differ": 0, "chance": 1.0, "step": None, "did": None}
    key, e = max(named, key=lambda item: (2 * item[1]["matched"] - item[1]["differ"], -item[1]["chance"]))
    return {
        "version": key,
        "matched": e["matched"],
        "differ": e["differ"],
        "chance": e["chance"],
        "step": e["best"]["step"] + 1,
        "did": e["best"]["did"],
    }


def carried_out_by(version: Version, sim, *, right_at=(), undo=False) -> str:
    """The kept line of an attempt that carries out `version` on `sim` (the algorithm where the version
    does as it does, and at the steps `right_at`): a student who holds that misconception.

    Examples
    --------
    >>> from msviz.simulation import Simulation
    >>> sim = Simulation(["EEE", "EEM"], (0, 0), order="dfs")
    >>> carried_out_by(VERSIONS["returns_early"], sim).split()[:4]
    ['fix:1', 'c0.0,0', 'sB,0', 'b,0']
    """
    while not sim.over:
        did = None if sim.step in right_at else version.does(sim)
        try:
            step = _do(sim, *(did or sim.allowed()[0]))
        except ValueError:  # not possible in the "end" mode: the algorithm's instead
            step = None
        if step is None or step.done is None:  # refused ("retry"): the student tries the algorithm's
            _do(sim, *sim.allowed()[0])
    return sim.log


def _do(sim, name: str, value):
    return sim.back() if name == "back" else getattr(sim, name)(value)


def with_slips(sim, rng, slips: int = 3, *, within: int = 40) -> str:
    """The kept line of an attempt that carries out the right algorithm on `sim` with `slips` random
    slips (a random hidden cell, or a random symbol) among its first `within` steps: an honest
    student, whom no misconception should be named for.

    Examples
    --------
    >>> import random
    >>> from msviz.simulation import Simulation
    >>> sim = Simulation(["EEE", "EEM"], (0, 0), order="bfs")
    >>> line = with_slips(sim, random.Random(1), slips=1, within=4)
    >>> sim.over, sim.tried - sim.right
    (True, 1)
    """
    at = set(rng.sample(range(min(within, 2 * len(sim.symbols))), slips))
    while not sim.over:
        if sim.step in at:
            at.discard(sim.step)
            if sim.current is not None:
                sim.say(rng.choice("B12345678"))
            else:
                hidden = [c for c in sorted(sim.symbols) if c not in sim.revealed]
                getattr(sim, "call" if sim.order == "dfs" else "queue")(rng.choice(hidden))
            continue
        _do(sim, *sim.allowed()[0])
    return sim.log
