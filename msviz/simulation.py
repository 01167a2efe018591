"""Be the computer: a student carries out the reveal by hand, each operation judged at once.

A `Simulation` holds a board, a click and an order. The student performs the
algorithm's own operations, one call each, and each returns a `Step` verdict:

- breadth-first (the queue): `take` the queue's front, `say` what it shows,
  and, for a blank, `queue` its hidden neighbours not yet queued;
- depth-first (the recursive solution): `call` the next cell, `say` what it
  shows, and `back` (return) when the call has nothing left to do.

A wrong operation is judged wrong, with the reason in words, and then set
right: the simulation goes on from the true state, so one slip costs one
step, not the rest. Only the first try at each step counts (`score`);
`undo` goes back one operation without giving a step a second try.

With ``neighbors="any"`` every valid order of that kind is accepted: any
depth-first order (each call is on a hidden neighbour of the latest blank
that still has one, `msviz.grade.ORDER_RULE`), any breadth-first order in
which each blank's neighbours are queued in any order. Otherwise the
neighbour order is the one given (reading order by default).

The rules live here, in Python, and nowhere else: a widget sends what the
student did and shows the verdict it gets back.

Examples
--------
>>> sim = Simulation(["EEE", "EEM"], (0, 0), order="bfs")
>>> sim.expected()
('take', (0, 0))
>>> sim.take((0, 0)).right, sim.say("B").right
(True, True)
>>> sim.queue((0, 1)).right
True
>>> step = sim.queue((1, 1))
>>> step.right, step.reason
(False, '(1, 1) comes later: in this neighbour order (1, 0) is queued first')
>>> sim.right, sim.tried
(3, 4)
"""

from __future__ import annotations

import copy
import random
from collections import deque
from dataclasses import dataclass

from . import _checks
from ._kept import held_as
from .board import Board, Cell, check_click, mine_counts, parse_board
from .traversal import READING_ORDER
from .words import SIMULATE

__all__ = ["Simulation", "SimulationSet", "Step", "OPERATIONS", "play", "simulation_set", "model"]

#: The operations of each order, as the student performs them.
OPERATIONS = {"bfs": ("take", "say", "queue"), "dfs": ("call", "say", "back")}


@dataclass(frozen=True)
class Step:
    """The verdict on one operation.

    Attributes
    ----------
    right : bool
        Whether the operation was the algorithm's.
    reason : str
        Why, in words (what was done, or what the algorithm does instead).
    counted : bool
        Whether this was the step's first try (only a first try counts).
    done : tuple
        The operation that was carried out: the student's, or the right one in its place.
    """

    right: bool
    reason: str
    counted: bool
    done: tuple


class Simulation:
    """A reveal carried out by hand, judged operation by operation. See the module's documentation.

    Parameters
    ----------
    board, click
        As for :func:`msviz.reveal`; `board` is never changed.
    order : {"bfs", "dfs"}
    neighbors : sequence of (dr, dc) or "any"
        The neighbour order the exercise names (reading order by default),
        or ``"any"`` for every valid order of that kind.
    """

    def __init__(self, board, click, *, order: str = "bfs", neighbors=READING_ORDER):
        self.board: Board = parse_board(board)
        self.shape = (len(self.board), len(self.board[0]))
        self.click: Cell = check_click(click, self.shape)
        self.order = _checks.order(order)
        self.any = isinstance(neighbors, str) and neighbors == "any"
        self.neighbors = READING_ORDER if self.any else _checks.neighbors(neighbors)
        counts = mine_counts(self.board)
        self.symbols = {
            (r, c): "X" if self.board[r][c] == "M" else (str(int(counts[r, c])) if counts[r, c] else "B")
            for r in range(self.shape[0])
            for c in range(self.shape[1])
        }
        self.revealed: dict[Cell, str] = {}  # cell -> symbol, in the order revealed
        self.queue_: deque = deque([self.click]) if self.order == "bfs" else deque()
        self.queued: set = {self.click} if self.order == "bfs" else set()
        self.stack: list[Cell] = []
        self.current: Cell | None = None  # the cell taken or called, until its symbol is said
        self.pending: list[Cell] = []  # breadth-first: the blank's neighbours still to queue
        self.step = 0  # operations carried out so far
        self.firsts: dict[int, bool] = {}  # step -> whether its first try was right
        self.kinds: dict[int, str] = {}  # step -> the operation the algorithm made there
        self.history: list = []
        self.words: list[str] = []  # every operation tried, as `play` reads them

    # -- what the algorithm does next ---------------------------------------------------------

    def _hidden_around(self, cell: Cell) -> list[Cell]:
        r, c = cell
        rows, cols = self.shape
        out = []
        for dr, dc in self.neighbors:
            n = (r + dr, c + dc)
            if 0 <= n[0] < rows and 0 <= n[1] < cols and self.board[n[0]][n[1]] == "E":
                if n not in self.revealed and n not in self.queued:
                    out.append(n)
        return out

    @property
    def over(self) -> bool:
        """Whether the reveal is done."""
        if self.current is not None or self.pending:
            return False
        return not self.queue_ if self.order == "bfs" else bool(self.revealed) and not self.stack

    def expected(self) -> tuple:
        """The algorithm's next operation, ``(name, value)`` (``("over", None)`` when done).

        With ``neighbors="any"``, the first of the valid ones in reading order.
        """
        if self.over:
            return ("over", None)
        if self.current is not None:
            return ("say", self.symbols[self.current])
        if self.order == "bfs":
            return ("queue", self.pending[0]) if self.pending else ("take", self.queue_[0])
        if not self.stack:
            return ("call", self.click)
        top = self.stack[-1]
        later = self._hidden_around(top) if self.revealed[top] == "B" else []
        return ("call", later[0]) if later else ("back", None)

    def allowed(self) -> list[tuple]:
        """Every operation right now: one, or with ``neighbors="any"`` each valid choice."""
        name, value = self.expected()
        if not self.any or name not in ("call", "queue") or (name == "call" and not self.stack):
            return [(name, value)]
        cells = self.pending if name == "queue" else self._hidden_around(self.stack[-1])
        return [(name, cell) for cell in cells]

    @property
    def right(self) -> int:
        """Steps right at the first try."""
        return sum(self.firsts.values())

    @property
    def tried(self) -> int:
        """Steps tried so far."""
        return len(self.firsts)

    def score(self) -> float:
        """The share of steps right at the first try, 0 to 1 (0 before any)."""
        return self.right / self.tried if self.tried else 0.0

    def wrong_kinds(self) -> dict[str, int]:
        """How many steps of each kind (``"take"``, ``"say"``, ...) were wrong at the first try."""
        counts: dict[str, int] = {}
        for step, right in self.firsts.items():
            if not right:
                counts[self.kinds[step]] = counts.get(self.kinds[step], 0) + 1
        return counts

    # -- the operations -----------------------------------------------------------------------

    def take(self, cell) -> Step:
        """Breadth-first: take `cell` from the queue (it must be the front)."""
        return self._operate("take", self._cell(cell))

    def call(self, cell) -> Step:
        """Depth-first: call the reveal on `cell` (a hidden neighbour of the latest blank)."""
        return self._operate("call", self._cell(cell))

    def say(self, value) -> Step:
        """Say what the cell just taken or called shows: ``"B"`` (or 0) or a digit ``"1"``-``"8"``."""
        return self._operate("say", _symbol(value))

    def queue(self, cells) -> Step:
        """Breadth-first: put `cell` (or each of several cells, in turn) into the queue."""
        many = isinstance(cells, (list, tuple)) and cells and isinstance(cells[0], (list, tuple))
        if not many:
            return self._operate("queue", self._cell(cells))
        steps = [self._operate("queue", self._cell(cell)) for cell in cells]
        return next((s for s in steps if not s.right), steps[-1])

    def back(self) -> Step:
        """Depth-first: return from the current call (it has nothing left to do)."""
        return self._operate("back", None)

    def undo(self) -> bool:
        """Go back one operation (its step keeps its first try); False when there is none."""
        if not self.history:
            return False
        self.words.append("u")
        state = self.history.pop()
        for key, value in state.items():
            setattr(self, key, value)
        return True

    @property
    def log(self) -> str:
        """Every operation tried, undos included, as a line `play` carries out again the same way."""
        return " ".join(self.words)

    def _cell(self, cell) -> Cell:
        return _checks.click(cell, self.shape, name="cell")

    def _operate(self, name: str, value) -> Step:
        if self.over:
            raise ValueError(SIMULATE["over"])
        if name not in OPERATIONS[self.order]:
            raise ValueError(SIMULATE["not_this_order"].format(name=name, order=self.order))
        allowed = self.allowed()
        right = (name, value) in allowed
        done = (name, value) if right else allowed[0]
        reason = SIMULATE["right_" + name].format(**self._words(done)) if right else self._why(name, value)
        self.history.append(self._state())
        self.words.append(_code(name, value))
        counted = self.step not in self.firsts
        if counted:
            self.firsts[self.step] = right
            self.kinds[self.step] = done[0]
        self._carry_out(*done)
        self.step += 1
        return Step(right, reason, counted, done)

    def _state(self) -> dict:
        keep = ("revealed", "queue_", "queued", "stack", "current", "pending", "step")
        return {key: copy.copy(getattr(self, key)) for key in keep}

    def _carry_out(self, name: str, value) -> None:
        if name in ("take", "call"):
            if name == "take":
                self.queue_.popleft()
            else:
                self.stack.append(value)
            self.current = value
        elif name == "say":
            cell, self.current = self.current, None
            self.revealed[cell] = value
            if self.order == "bfs" and value == "B":
                self.pending = self._hidden_around(cell)
        elif name == "queue":
            self.pending.remove(value)
            self.queue_.append(value)
            self.queued.add(value)
        else:  # back
            self.stack.pop()

    # -- words --------------------------------------------------------------------------------

    def _words(self, done: tuple) -> dict:
        name, value = done
        cell = self.current if name == "say" else value
        if name == "back":
            cell = self.stack[-1] if self.stack else None
        return {"cell": _at(cell), "value": value if isinstance(value, str) else "", "front": ""}

    def _why(self, name: str, value) -> str:
        """Why operation `name` with `value` is not the algorithm's, in words."""
        want, wanted = self.expected()
        cell = _at(value) if isinstance(value, tuple) else ""
        if want == "say":
            if name != "say":
                return SIMULATE["say_first"].format(cell=_at(self.current))
            return SIMULATE["wrong_symbol"].format(
                cell=_at(self.current), value=value, right=wanted, why=self._symbol_reason(self.current)
            )
        if name == "queue" and self.order == "bfs" and not self.pending:
            last = next(reversed(self.revealed)) if self.revealed else self.click
            if self.revealed.get(last, "B") != "B":
                return SIMULATE["digit_queues"].format(cell=_at(last))
        if name == "queue" and (value in self.queued or value in self.revealed):
            return SIMULATE["queued_twice"].format(cell=cell)
        if name == "back":
            return SIMULATE["back_too_early"].format(cell=_at(self.stack[-1]), next=_at(wanted))
        if want == "back":
            top = self.stack[-1]
            why = "digit_returns" if self.revealed[top] != "B" else "nothing_left"
            return SIMULATE[why].format(cell=_at(top))
        if want == "take":
            return SIMULATE["not_front"].format(cell=cell or name, front=_at(wanted))
        if want == "queue" and name == "queue" and value not in self.pending:
            return SIMULATE["not_a_neighbour"].format(cell=cell, blank=_at(next(reversed(self.revealed))))
        if want == "queue":
            return SIMULATE["queue_later" if name == "queue" else "queue_first"].format(
                cell=cell, next=_at(wanted)
            )
        if name == "call" and self.stack and value not in self._hidden_around(self.stack[-1]):
            return SIMULATE["not_deeper"].format(cell=cell, top=_at(self.stack[-1]))
        return SIMULATE["call_later"].format(cell=cell or name, next=_at(wanted))

    def _symbol_reason(self, cell: Cell) -> str:
        symbol = self.symbols[cell]
        if symbol == "B":
            return SIMULATE["no_mines"]
        if symbol == "X":
            return SIMULATE["a_mine"]
        return SIMULATE["mines_around"].format(n=symbol)

    def __repr__(self) -> str:
        return (
            f"<Simulation {self.order} from {_at(self.click)}: {self.right} of {self.tried} steps right"
            f"{', over' if self.over else ''}>"
        )


def _at(cell) -> str:
    return f"({cell[0]}, {cell[1]})" if cell is not None else ""


def _symbol(value) -> str:
    """What a student says a cell shows, as a symbol: ``"B"`` for blank (0 too), or a digit."""
    if isinstance(value, bool):
        raise TypeError(f"say what the cell shows: B or a digit 1-8, not {value!r}")
    if isinstance(value, int) and 0 <= value <= 8:
        return "B" if value == 0 else str(value)
    if isinstance(value, str) and value.strip().upper() in ("B", "0", "BLANK", "X", *"12345678"):
        said = value.strip().upper()
        return {"0": "B", "BLANK": "B"}.get(said, said)
    raise ValueError(SIMULATE["say_what"].format(value=_checks.clip(value)))


# -- a line to keep, and a set for homework ------------------------------------------------------

_CODES = {"take": "t", "call": "c", "say": "s", "queue": "q", "back": "b"}
_NAMES = {code: name for name, code in _CODES.items()}


def _code(name: str, value) -> str:
    """One operation in a few characters: ``t2.3`` (take (2, 3)), ``sB`` (say B), ``b``, ``u`` (undo)."""
    if isinstance(value, tuple):
        return f"{_CODES[name]}{value[0]}.{value[1]}"
    return _CODES.get(name, name) + (value or "")


def play(sim: Simulation, text: str) -> list:
    """Carry out on `sim` the operations written in `text` (as `Simulation.log` writes them); the verdicts.

    An operation that cannot be read, or is refused, is skipped: it counts for nothing.

    Examples
    --------
    >>> sim = Simulation(["EEE", "EEM"], (0, 0), order="dfs")
    >>> [step.right for step in play(sim, "c0.0 sB c0.1 s2 u s1 b")]
    [True, True, True, False, True, True]
    >>> sim.log
    'c0.0 sB c0.1 s2 u s1 b'
    """
    if not isinstance(text, str):
        raise TypeError(f"the operations must be a str such as 't0.0 sB', not {type(text).__name__}")
    steps = []
    for word in text.split()[:10_000]:
        try:
            if word == "u":
                sim.undo()
                continue
            name, rest = _NAMES[word[0]], word[1:]
            if name == "back":
                steps.append(sim.back())
            elif name == "say":
                steps.append(sim.say(rest))
            else:
                r, c = rest.split(".")
                steps.append(getattr(sim, name)((int(r), int(c))))
        except (KeyError, ValueError, TypeError):
            continue
    return steps


#: The sizes of a homework set's boards, and how many cells its click opens.
SET_SIDES = (5, 8)
SET_OPENS = (8, 25)


class SimulationSet:
    """A student's own simulations for homework: made from a seed, scored by first tries.

    Make one with :func:`simulation_set`. Each simulation is carried out with
    its own methods (``sims[i].take(...)``) or from a kept line,
    ``sims.play(i, "...")``, which `line` gives: the score a teacher reads is
    the one those lines earn from the seed alone.
    """

    def __init__(self, seed: str, simulations: list[Simulation]):
        self.seed = seed
        self.simulations = tuple(simulations)

    def __len__(self) -> int:
        return len(self.simulations)

    def __getitem__(self, i: int) -> Simulation:
        return self.simulations[_checks.whole_number("simulation", i, least=0, most=len(self) - 1)]

    def play(self, i: int, text: str) -> list:
        """Carry out on simulation `i` the operations of a kept line (`line`); the verdicts."""
        return play(self[i], text)

    def line(self, i: int) -> str:
        """The line that carries out simulation `i`'s operations again, for the student to keep."""
        return f"{held_as(self, 'sims')}.play({i}, {self[i].log!r})"

    @property
    def right(self) -> int:
        """Steps right at the first try, in every simulation."""
        return sum(s.right for s in self.simulations)

    @property
    def steps(self) -> int:
        """Every step of every simulation: the algorithm's operations from click to end."""
        return sum(_length(s) for s in self.simulations)

    def score(self) -> float:
        """Steps right at the first try out of all the steps of the set (an unfinished step counts 0)."""
        return self.right / self.steps if self.steps else 0.0

    def wrong_kinds(self) -> dict[str, int]:
        """How many steps of each kind were wrong at the first try, in every simulation of the set."""
        counts: dict[str, int] = {}
        for sim in self.simulations:
            for kind, n in sim.wrong_kinds().items():
                counts[kind] = counts.get(kind, 0) + n
        return counts

    def to_dict(self) -> dict:
        """The set as plain JSON-able data: the seed, each simulation's operations, the score."""
        return {
            "seed": self.seed,
            "n": len(self),
            "logs": [s.log for s in self.simulations],
            "right": self.right,
            "steps": self.steps,
            "score": self.score(),
        }

    def __repr__(self) -> str:
        return (
            f"<simulation set for {self.seed!r}: {len(self)} simulations, {self.right} of {self.steps} steps>"
        )


def model(sim: Simulation) -> Simulation:
    """A fresh copy of `sim` carried out by the algorithm itself, to its end: the model answer."""
    fresh = Simulation(sim.board, sim.click, order=sim.order)
    while not fresh.over:
        fresh._carry_out(*fresh.expected())
        fresh.step += 1
    return fresh


def _length(sim: Simulation) -> int:
    """How many operations the algorithm takes on `sim`'s board, from the click to the end."""
    return model(sim).step


def simulation_set(seed, n: int = 4) -> SimulationSet:
    """Return `n` simulations made from `seed` (a student's name or number), breadth- and depth-first in turn.

    Each board is 5x5 to 8x8 with a click that opens 8 to 25 cells: a few
    minutes each. The same seed gives the same set; a smaller set is the first
    simulations of a larger one.

    Examples
    --------
    >>> sims = simulation_set("ada", n=2)
    >>> [s.order for s in sims.simulations], sims.score()
    (['bfs', 'dfs'], 0.0)
    >>> 8 <= len(model(sims[0]).revealed) <= 25
    True
    """
    if isinstance(seed, bool) or not isinstance(seed, (str, int)):
        raise TypeError(f"seed must be a student's name (str) or number (int), not {type(seed).__name__}")
    seed = str(seed).strip()
    if not seed:
        raise ValueError(f"seed must be a name or number with something in it, not {seed!r}")
    n = _checks.whole_number("n", n, least=1, most=20)
    made = [
        _made(random.Random(f"msviz simulation: {seed}: {i}"), "bfs" if i % 2 == 0 else "dfs")
        for i in range(n)
    ]
    return SimulationSet(seed, made)


def _made(rng: random.Random, order: str) -> Simulation:
    """A board and a click, drawn from `rng` until the click opens `SET_OPENS` cells."""
    from .board import random_board
    from .traversal import reveal

    while True:
        rows, cols = rng.randint(*SET_SIDES), rng.randint(*SET_SIDES)
        click = (rng.randrange(rows), rng.randrange(cols))
        mines = rng.randint(rows * cols // 8, rows * cols // 4)
        board = random_board(rows, cols, mines, seed=rng.randrange(2**31), safe=click)
        opened = sum(a != b for x, y in zip(board, reveal(board, click)) for a, b in zip(x, y))
        if SET_OPENS[0] <= opened <= SET_OPENS[1]:
            return Simulation(board, click, order=order)
