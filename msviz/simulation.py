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
from collections import deque
from dataclasses import dataclass

from . import _checks
from .board import Board, Cell, check_click, mine_counts, parse_board
from .traversal import READING_ORDER
from .words import SIMULATE

__all__ = ["Simulation", "Step", "OPERATIONS"]

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
        self.history: list = []

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
        state = self.history.pop()
        for key, value in state.items():
            setattr(self, key, value)
        return True

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
        counted = self.step not in self.firsts
        if counted:
            self.firsts[self.step] = right
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
        return SIMULATE["mines_around"].format(n=symbol, s="" if symbol == "1" else "s")

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
    raise ValueError(f"say what the cell shows: B or a digit 1-8, not {_checks.clip(value)}")
