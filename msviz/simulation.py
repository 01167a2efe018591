"""Be the computer: a student carries out the reveal by hand, each operation judged at once.

A `Simulation` holds a board, a click and an order. The student performs the
algorithm's own operations, one call each, and each returns a `Step` verdict:

- breadth-first (the queue): `take` the queue's front, `say` what it shows,
  and, for a blank, `queue` its hidden neighbours not yet queued;
- depth-first (the recursive solution): `call` the next cell, `say` what it
  shows, and `back` (return) when the call has nothing left to do.

The teacher's feedback mode (`FEEDBACK`) says what a wrong operation does:

- ``"fix"``: it is judged wrong, with the reason in words, and then set
  right: the simulation goes on from the true state, so one slip costs one
  step, not the rest;
- ``"retry"``: it is refused and said wrong with a reason that does not give
  the answer; nothing moves and the student tries again;
- ``"end"``: nothing is said (each Step's `right` is None); the operation is
  carried out as the student gave it and judged from the state the student
  made, so one slip still costs one step; `finish` (Done) gives the score
  and the first step of each kind that was wrong.

In every mode only the first try at each step counts (`score`); `undo`
goes back one operation without giving a step a second try. Asking for the
model answer (`ask_model`, "fix" and "retry") ends the attempt's credit:
no later step counts. Each operation keeps its time since the attempt began,
to a tenth of a second, and `log` writes the mode, the attempt and the times
into the line `play` carries out again.

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
import time
from collections import deque
from dataclasses import dataclass

from . import _checks
from ._kept import held_as
from .board import Board, Cell, check_click, mine_counts, parse_board
from .i18n import _n
from .traversal import READING_ORDER
from .words import SIMULATE, SIMULATE_VIEW

__all__ = [
    "Simulation",
    "SimulationSet",
    "Step",
    "OPERATIONS",
    "FEEDBACK",
    "play",
    "simulation_set",
    "model",
]

#: The operations of each order, as the student performs them.
OPERATIONS = {"bfs": ("take", "say", "queue"), "dfs": ("call", "say", "back")}
#: The "end" mode carries out the student's own steps: at most this many times the algorithm's.
MOST_STEPS = 3
#: The feedback modes: a wrong operation set right, refused and tried again, or judged only at the end.
FEEDBACK = ("fix", "retry", "end")


def _feedback(value) -> str:
    if value not in FEEDBACK:
        raise ValueError(
            f"feedback must be one of {', '.join(map(repr, FEEDBACK))}, not {_checks.clip(value)}"
        )
    return value


@dataclass(frozen=True)
class Step:
    """The verdict on one operation.

    Attributes
    ----------
    right : bool or None
        Whether the operation was the algorithm's (None in the "end" mode: not said until the end).
    reason : str
        Why, in words (what was done, or what the algorithm does instead).
    counted : bool
        Whether this was the step's first try (only a first try counts).
    done : tuple or None
        The operation that was carried out: the student's, or the right one in its place (None when
        it was refused, in the "retry" mode).
    """

    right: bool | None
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
    feedback : {"fix", "retry", "end"}
        What a wrong operation does (see the module's documentation).
    """

    #: Where the time of each operation is read (seconds; a test may set its own).
    clock = staticmethod(time.monotonic)

    def __init__(self, board, click, *, order: str = "bfs", neighbors=READING_ORDER, feedback: str = "fix"):
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
        self.feedback = _feedback(feedback)
        #: Which attempt this is (1 the first); `new` draws the next where the board was drawn.
        self.attempt = 1
        self._maker = None  # attempt -> a Simulation drawn afresh, where the board was drawn
        self.home = None  # (the SimulationSet, its index) for one of a homework set's
        self.began = self.clock()
        self.tenths: dict[int, int] = {}  # step -> its first try's time since the attempt began, 0.1 s
        self.credit_ended = False  # the model answer was asked for: no later step counts
        self.finished = False  # the "end" mode's Done was pressed
        self.wrong_at: dict[int, tuple] = {}  # step -> (operation tried, reason key, its fields)
        self.watch = None  # called before each counted step with (sim, name, value): misconceptions
        self.times: list[int] = []  # each word's time since the attempt began, in tenths of a second
        self.spent: dict[int, int] = {}  # step -> tenths from the operation before to its first try
        self.first_ops: dict[int, str] = {}  # step -> its first try, as the kept line writes it
        self._given = None  # the time `play` read from a kept line, for the operation it carries out
        self._steps_needed = None  # the algorithm's own steps, once worked out (`_needs`)

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
        """Whether the reveal is done (or, in the "end" mode, the student pressed Done)."""
        if self.finished:
            return True
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
        """Breadth-first: put `cell` (or each of several cells, in turn) into the queue.

        With several, the verdict is the first wrong one's, else the last's. A
        pair given in swapped order costs one step: where a wrong cell was set
        right with a cell named later in the list, that later place stands for
        the wrong cell.
        """
        many = isinstance(cells, (list, tuple)) and cells and isinstance(cells[0], (list, tuple))
        if not many:
            return self._operate("queue", self._cell(cells))
        steps = queue_in_turn([self._cell(cell) for cell in cells], lambda cell: self._operate("queue", cell))
        return next((s for s in steps if s.right is False), steps[-1])

    def back(self) -> Step:
        """Depth-first: return from the current call (it has nothing left to do)."""
        return self._operate("back", None)

    def undo(self) -> bool:
        """Go back one operation (its step keeps its first try); False when there is none."""
        if not self.history or self.finished:
            return False
        self._write("u")
        state = self.history.pop()
        for key, value in state.items():
            setattr(self, key, value)
        return True

    def ask_model(self) -> Simulation:
        """The model answer (`model`), asked for in the "fix" or "retry" mode: no later step counts.

        Examples
        --------
        >>> sim = Simulation(["EEE", "EEM"], (0, 0), order="dfs")
        >>> sim.call((0, 0)).counted, len(sim.ask_model().revealed), sim.call((0, 0)).counted
        (True, 4, False)
        """
        if self.feedback == "end" and not self.finished:
            raise ValueError(SIMULATE["model_at_end"])
        if not self.credit_ended:
            self.credit_ended = True
            self._write("m")
        return model(self)

    def finish(self) -> dict:
        """Done: end the attempt (the "end" mode's judgement); its score and each kind of wrong step.

        Returns ``{"right", "tried", "steps", "score", "first_wrong"}``: `first_wrong`
        maps each kind of step wrong at the first try (``"say"``, ...) to its
        first occurrence, ``{"step", "tried", "cell", "reason"}``.

        Examples
        --------
        >>> sim = Simulation(["EEE", "EEM"], (0, 0), order="bfs", feedback="end")
        >>> sim.take((0, 0)).right, sim.say(1).right
        (None, None)
        >>> done = sim.finish()
        >>> done["right"], done["steps"], done["first_wrong"]["say"]["reason"]
        (1, 11, '(0, 0) shows B, not 1: no mine is around it')
        """
        if not self.finished:
            self.finished = True
            self._write("d")
        first: dict = {}
        for step in sorted(self.wrong_at):
            tried, key, fields = self.wrong_at[step]
            kind = self.kinds[step]
            if kind not in first:
                cell = tried[1] if isinstance(tried[1], tuple) else fields.get("at")
                reason = SIMULATE[key].format(**{k: v for k, v in fields.items() if k != "at"})
                first[kind] = {"step": step, "tried": tried, "cell": cell, "reason": reason}
        steps = max(_length(self), self.tried)
        return {
            "right": self.right,
            "tried": self.tried,
            "steps": steps,
            "score": self.right / steps,
            "first_wrong": first,
        }

    def new(self) -> Simulation:
        """The next attempt: another board drawn from the same name (or seed) and the attempt's number.

        Only for a board that was drawn (`simulation_set`, or `msviz.simulate` with no board).

        Examples
        --------
        >>> sims = simulation_set("ada", n=1)
        >>> again = sims[0].new()
        >>> again.attempt, again.board != sims.attempts[0][1].board, sims[0] is again
        (2, True, True)
        """
        if self._maker is None:
            raise ValueError(SIMULATE["not_drawn"])
        return self._maker(self.attempt + 1)

    def fresh(self, **changes) -> Simulation:
        """A new simulation of the same board, click, order, neighbours, mode and attempt, nothing done
        (`changes` as the constructor's keywords: ``order="dfs"``, ...)."""
        given = {
            "order": self.order,
            "neighbors": "any" if self.any else self.neighbors,
            "feedback": self.feedback,
            **changes,
        }
        made = Simulation(self.board, self.click, **given)
        made.attempt = self.attempt
        return made

    def play(self, text: str) -> list:
        """Carry out the operations of a kept line (`log`) on this simulation; the verdicts (`play`)."""
        return play(self, text)

    @property
    def log(self) -> str:
        """Every operation tried, undos included, as a line `play` carries out again the same way:
        the mode and attempt first (``fix:1``), each operation then with its time (``t0.0,12``: at 1.2 s)."""
        return " ".join([f"{self.feedback}:{self.attempt}", *self.words])

    @property
    def seconds(self) -> float:
        """The time from the attempt's start to its last operation, in seconds (to 0.1 s)."""
        return (self.times[-1] if self.times else 0) / 10

    def _cell(self, cell) -> Cell:
        return _checks.click(cell, self.shape, name="cell")

    def _now(self) -> int:
        """Tenths of a second since the attempt began (as `play` gives them, when it replays a line)."""
        if self._given is not None:
            return self._given
        return max(0, round((self.clock() - self.began) * 10))

    def _write(self, word: str) -> None:
        now = max(self._now(), self.times[-1] if self.times else 0)
        self.words.append(f"{word},{now}")
        self.times.append(now)

    def _operate(self, name: str, value) -> Step:
        if self.over:
            raise ValueError(SIMULATE["over"])
        if name not in OPERATIONS[self.order]:
            raise ValueError(SIMULATE["not_this_order"].format(name=name, order=self.order))
        if self.feedback == "end" and self.step >= MOST_STEPS * self._needs():
            raise ValueError(SIMULATE["too_many_steps"].format(n=MOST_STEPS))
        allowed = self.allowed()
        right = (name, value) in allowed
        if self.feedback == "end":
            self._possible(name, value)
            done = (name, value)
        else:
            done = (name, value) if right else allowed[0]
        key, fields = ("right_" + name, self._words(done)) if right else self._why(name, value)
        counted = self.step not in self.firsts and not self.credit_ended
        if counted and self.watch is not None:
            self.watch(self, name, value)
        before = self.times[-1] if self.times else 0
        self._write(_code(name, value))
        if counted:
            self.firsts[self.step] = right
            self.kinds[self.step] = allowed[0][0]
            self.spent[self.step] = self.times[-1] - before
            self.first_ops[self.step] = _code(name, value)
            if not right:
                self.wrong_at[self.step] = ((name, value), key, fields)
        if not right and self.feedback == "retry":  # refused: nothing moves, the student tries again
            key = RETRY.get(key, key)
            shown = {k: v for k, v in fields.items() if k != "at"}
            return Step(False, SIMULATE[key].format(**shown), counted, None)
        self.history.append(self._state())
        self._carry_out(*done) if self.feedback != "end" else self._carry_out_own(*done)
        self.step += 1
        if self.feedback == "end":
            return Step(None, SIMULATE["noted"], counted, done)
        reason = SIMULATE[key].format(**{k: v for k, v in fields.items() if k != "at"})
        return Step(right, reason, counted, done)

    def _needs(self) -> int:
        """The algorithm's own steps on this board (`_length`), worked out once."""
        if self._steps_needed is None:
            self._steps_needed = _length(self)
        return self._steps_needed

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

    def _possible(self, name: str, value) -> None:
        """The "end" mode: whether the student's own operation can be carried out on the state they
        made (ValueError, counted for nothing, when not: a step has to be possible to be judged)."""
        if self.current is not None and name != "say":
            raise ValueError(SIMULATE["say_first"].format(cell=_at(self.current)))
        if name == "say" and self.current is None:
            raise ValueError(SIMULATE["nothing_to_say"])
        if name == "take" and value not in self.queue_:
            raise ValueError(SIMULATE["not_in_queue"].format(cell=_at(value)))
        if name in ("queue", "call") and value in self.revealed:
            raise ValueError(SIMULATE_VIEW["uncovered"].format(cell=_at(value)))
        if name == "back" and not self.stack:
            raise ValueError(SIMULATE["no_call"])

    def _carry_out_own(self, name: str, value) -> None:
        """The "end" mode: the student's operation carried out as given, right or not."""
        if name == "take":
            self.queue_.remove(value)
            self.pending = []  # the blank's neighbours left unqueued stay so
            self.current = value
        elif name == "queue":
            if value in self.pending:
                self.pending.remove(value)
            self.queue_.append(value)
            self.queued.add(value)
        else:
            self._carry_out(name, value)

    # -- words --------------------------------------------------------------------------------

    def _words(self, done: tuple) -> dict:
        name, value = done
        cell = self.current if name == "say" else value
        if name == "back":
            cell = self.stack[-1] if self.stack else None
        return {"cell": _at(cell), "value": value if isinstance(value, str) else "", "front": ""}

    def _why(self, name: str, value) -> tuple[str, dict]:
        """Why operation `name` with `value` is not the algorithm's: a phrase of `SIMULATE` and its fields
        (``at``: the cell the reason is about, where the operation names none)."""
        want, wanted = self.expected()
        cell = _at(value) if isinstance(value, tuple) else ""
        if want == "say":
            if name != "say":
                return "say_first", {"cell": _at(self.current), "at": self.current}
            why = self._symbol_reason(self.current)
            return "wrong_symbol", {
                "cell": _at(self.current),
                "value": value,
                "right": wanted,
                "why": why,
                "at": self.current,
            }
        if name == "queue" and self.order == "bfs" and not self.pending:
            last = next(reversed(self.revealed)) if self.revealed else self.click
            if self.revealed.get(last, "B") != "B":
                return "digit_queues", {"cell": _at(last)}
        if name == "queue" and (value in self.queued or value in self.revealed):
            return "queued_twice", {"cell": cell}
        if name == "back" and not self.stack:
            return "back_no_call", {"next": _at(wanted)}
        if name == "back":
            top = self.stack[-1]
            return "back_too_early", {"cell": _at(top), "next": _at(wanted), "at": top}
        if want == "back":
            top = self.stack[-1]
            return ("digit_returns" if self.revealed[top] != "B" else "nothing_left"), {"cell": _at(top)}
        if want == "take":
            return "not_front", {"cell": cell or name, "front": _at(wanted)}
        if want == "queue" and name == "queue" and value not in self.pending:
            return "not_a_neighbour", {"cell": cell, "blank": _at(next(reversed(self.revealed)))}
        if want == "queue":
            return ("queue_later" if name == "queue" else "queue_first"), {"cell": cell, "next": _at(wanted)}
        if name == "call" and self.stack and value not in self._hidden_around(self.stack[-1]):
            return "not_deeper", {"cell": cell, "top": _at(self.stack[-1])}
        return "call_later", {"cell": cell or name, "next": _at(wanted)}

    def _symbol_reason(self, cell: Cell) -> str:
        symbol = self.symbols[cell]
        if symbol == "B":
            return SIMULATE["no_mines"]
        if symbol == "X":
            return SIMULATE["a_mine"]
        return SIMULATE["mines_around"].format(n=symbol)

    def __repr__(self) -> str:
        return (
            f"<Simulation {self.order} ({self.feedback}, attempt {self.attempt}) from {_at(self.click)}: "
            f"{self.right} of {self.tried} steps right"
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

#: The "retry" mode's reasons: the same mistake, said without the answer (a phrase not here says none).
RETRY = {
    "wrong_symbol": "retry_wrong_symbol",
    "back_too_early": "retry_back_too_early",
    "back_no_call": "retry_back_no_call",
    "digit_returns": "retry_digit_returns",
    "nothing_left": "retry_nothing_left",
    "not_front": "retry_not_front",
    "queue_later": "retry_queue_later",
    "queue_first": "retry_queue_first",
    "call_later": "retry_call_later",
}


def _code(name: str, value) -> str:
    """One operation in a few characters: ``t2.3`` (take (2, 3)), ``sB`` (say B), ``b``, ``u`` (undo)."""
    if isinstance(value, tuple):
        return f"{_CODES[name]}{value[0]}.{value[1]}"
    return _CODES.get(name, name) + (value or "")


def queue_in_turn(cells: list, operate) -> list:
    """Queue `cells` one by one with `operate(cell)` (a Step); where a wrong cell was set right with a
    cell named later in the list, that later place stands for the wrong cell: a swapped pair costs one
    step. The Steps, in turn.

    Examples
    --------
    >>> sim = Simulation(["EEE", "EEM"], (0, 0), order="bfs")
    >>> _ = sim.take((0, 0)), sim.say("B")
    >>> [s.right for s in queue_in_turn([(1, 0), (0, 1), (1, 1)], sim.queue)]
    [False, True, True]
    """
    cells, steps = list(cells), []
    while cells:
        cell = cells.pop(0)
        step = operate(cell)
        steps.append(step)
        if step.right is False and step.done and step.done[0] == "queue" and step.done[1] in cells:
            cells[cells.index(step.done[1])] = cell
    return steps


def _header(word: str):
    """A kept line's first word, ``mode:attempt``, as ``(mode, attempt)``; None if it is not one."""
    mode, _, attempt = word.partition(":")
    if mode in FEEDBACK and attempt.isdigit() and 0 < len(attempt) < 6:
        return mode, int(attempt)
    return None


def play(sim: Simulation, text: str) -> list:
    """Carry out on `sim` the operations written in `text` (as `Simulation.log` writes them); the verdicts.

    The line's mode and attempt (``fix:1``) must be `sim`'s: a line kept in one
    mode is not graded as another (ValueError). A line without them is a first
    attempt in the "fix" mode. An operation that cannot be read, or is refused,
    is skipped: it counts for nothing. Each operation's time is the line's.

    Examples
    --------
    >>> sim = Simulation(["EEE", "EEM"], (0, 0), order="dfs")
    >>> [step.right for step in play(sim, "fix:1 c0.0,5 sB,9 c0.1,20 s2,31 u,33 s1,40 b,41")]
    [True, True, True, False, True, True]
    >>> sim.log, sim.seconds
    ('fix:1 c0.0,5 sB,9 c0.1,20 s2,31 u,33 s1,40 b,41', 4.1)
    >>> play(Simulation(["EEE", "EEM"], (0, 0), feedback="retry"), "fix:1 t0.0,5")
    Traceback (most recent call last):
    ...
    ValueError: this line was kept in the fix mode, attempt 1; this simulation is in the retry mode, attempt 1
    """
    if not isinstance(text, str):
        raise TypeError(
            f"the operations must be a str such as 'fix:1 t0.0,5 sB,9', not {type(text).__name__}"
        )
    words = text.split()[:10_000]
    mode, attempt = _header(words[0]) if words and _header(words[0]) else ("fix", 1)
    if words and _header(words[0]):
        words = words[1:]
    if (mode, attempt) != (sim.feedback, sim.attempt):
        raise ValueError(
            SIMULATE["other_mode"].format(mode=mode, attempt=attempt, feedback=sim.feedback, now=sim.attempt)
        )
    steps = []
    for word in words:
        word, _, tenths = word.partition(",")
        sim._given = int(tenths) if tenths.isdigit() and len(tenths) < 8 else None
        try:
            steps += _play_word(sim, word)
        except (KeyError, ValueError, TypeError, IndexError):
            continue
        finally:
            sim._given = None
    return steps


def _play_word(sim: Simulation, word: str) -> list:
    """Carry out one word of a kept line; its Step, in a list (none for an undo, a model asked, Done)."""
    if word in ("u", "m", "d"):
        {"u": sim.undo, "m": sim.ask_model, "d": sim.finish}[word]()
        return []
    name, rest = _NAMES[word[0]], word[1:]
    if name == "back":
        return [sim.back()]
    if name == "say":
        return [sim.say(rest)]
    r, c = rest.split(".")
    return [getattr(sim, name)((int(r), int(c)))]


#: The sizes of a homework set's boards, and how many cells its click opens.
SET_SIDES = (5, 8)
SET_OPENS = (8, 25)


class SimulationSet:
    """A student's own simulations for homework: made from a seed, scored by first tries.

    Make one with :func:`simulation_set`. Each simulation is carried out with
    its own methods (``sims[i].take(...)``) or from a kept line,
    ``sims.play(i, "...")``, which `line` gives: the score a teacher reads is
    the one those lines earn from the seed alone. ``sims.new(i)`` draws
    simulation `i`'s next attempt; every attempt is kept (`attempts`), and
    ``sims[i]`` is the latest.
    """

    def __init__(self, seed: str, simulations: list[Simulation], *, feedback: str = "fix", focus=None):
        self.seed = seed
        self.feedback = feedback
        self.focus = focus
        #: Each simulation's attempts, by number (1 the first).
        self.attempts = [{1: sim} for sim in simulations]
        self._latest = [1] * len(simulations)
        for i, sim in enumerate(simulations):
            sim._maker, sim.home = self._maker(i), (self, i)

    @property
    def simulations(self) -> tuple:
        """Each simulation's latest attempt."""
        return tuple(self.attempts[i][a] for i, a in enumerate(self._latest))

    def __len__(self) -> int:
        return len(self.attempts)

    def __getitem__(self, i: int) -> Simulation:
        i = _checks.whole_number("simulation", i, least=0, most=len(self) - 1)
        return self.attempts[i][self._latest[i]]

    def _maker(self, i: int):
        return lambda attempt: self.attempt(i, attempt)

    def attempt(self, i: int, attempt: int, *, fresh: bool = False) -> Simulation:
        """Simulation `i`'s attempt number `attempt` (drawn from the seed and the number), now the latest."""
        i = _checks.whole_number("simulation", i, least=0, most=len(self) - 1)
        attempt = _checks.whole_number("attempt", attempt, least=1, most=10_000)
        if fresh or attempt not in self.attempts[i]:
            sim = _drawn(self.seed, i, attempt, self.feedback, self.focus)
            sim._maker, sim.home = self._maker(i), (self, i)
            self.attempts[i][attempt] = sim
        self._latest[i] = attempt
        return self.attempts[i][attempt]

    def new(self, i: int) -> Simulation:
        """Simulation `i`'s next attempt: another board, drawn from the seed and the attempt's number."""
        return self.attempt(i, max(self.attempts[_checks.whole_number("simulation", i, least=0)]) + 1)

    def play(self, i: int, text: str) -> list:
        """Carry out the operations of a kept line (`line`) on a fresh copy of the attempt it names; the
        verdicts. Played again, a line gives the same: a cell run twice does not count twice."""
        if not isinstance(text, str):
            raise TypeError(f"the operations must be a str such as 'fix:1 t0.0,5', not {type(text).__name__}")
        first = text.split()[:1]
        head = _header(first[0]) if first else None
        return play(self.attempt(i, head[1] if head else 1, fresh=True), text)

    def line(self, i: int, name: str | None = None) -> str:
        """The line that carries out simulation `i`'s latest attempt again, for the student to keep;
        `name` is the set's variable in the notebook (by default the name the notebook holds it under)."""
        return f"{name or held_as(self, 'sims')}.play({i}, {self[i].log!r})"

    @property
    def right(self) -> int:
        """Steps right at the first try, in every simulation."""
        return sum(s.right for s in self.simulations)

    @property
    def steps(self) -> int:
        """Every step of every simulation: the algorithm's operations from click to end (or the steps
        tried, in the "end" mode, where more were)."""
        return sum(max(_length(s), s.tried) for s in self.simulations)

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
        """The set as plain JSON-able data: the seed, mode and focus, each simulation's operations (the
        latest attempt's, and every attempt's), the score."""
        return {
            "seed": self.seed,
            "n": len(self),
            "feedback": self.feedback,
            "focus": self.focus,
            "logs": [s.log for s in self.simulations],
            "attempts": [[made[a].log for a in sorted(made)] for made in self.attempts],
            "right": self.right,
            "steps": self.steps,
            "score": self.score(),
        }

    def __repr__(self) -> str:
        """The set as the language spoken says it: its seed, how many simulations, the score.

        Examples
        --------
        >>> from msviz.i18n import speaking
        >>> sims = simulation_set("ada", n=2)
        >>> with speaking("en"):
        ...     print(repr(sims))
        <simulation set for 'ada', simulations: 2; 0 of 71 steps right at the first try>
        """
        said = _n(
            "<simulation set for {seed}, simulations: {n}; {right} of {steps} step right at the first try>",
            "<simulation set for {seed}, simulations: {n}; {right} of {steps} steps right at the first try>",
            self.steps,
        )
        return said.format(seed=repr(self.seed), n=len(self), right=self.right, steps=self.steps)


def model(sim: Simulation) -> Simulation:
    """A fresh copy of `sim` carried out by the algorithm itself, to its end: the model answer.

    It follows `sim`'s neighbour order (with ``neighbors="any"``, the first
    valid choice at each step, as `Simulation.expected` gives it).

    Examples
    --------
    >>> from msviz.traversal import READING_ORDER
    >>> sim = Simulation(["EEE", "EEM"], (0, 0), order="bfs", neighbors=READING_ORDER[::-1])
    >>> list(model(sim).revealed)
    [(0, 0), (1, 1), (1, 0), (0, 1)]
    """
    fresh = sim.fresh(feedback="fix")
    while not fresh.over:
        fresh._carry_out(*fresh.expected())
        fresh.step += 1
    return fresh


def _length(sim: Simulation) -> int:
    """How many operations the algorithm takes on `sim`'s board, from the click to the end."""
    return model(sim).step


def simulation_set(seed, n: int = 4, *, feedback: str = "fix", focus=None) -> SimulationSet:
    """Return `n` simulations made from `seed` (a student's name or number), breadth- and depth-first in turn.

    Each board is 5x5 to 8x8 with a click that opens 8 to 25 cells: a few
    minutes each. The same seed gives the same set; a smaller set is the first
    simulations of a larger one.

    Parameters
    ----------
    seed : str or int
        The student's name or number.
    n : int
        How many simulations (1 to 20).
    feedback : {"fix", "retry", "end"}
        The teacher's feedback mode (see `msviz.simulation`).
    focus : str, optional
        A misconception (`msviz.misconceptions.FOCUS`): every board then holds
        the situation it goes wrong in, and every simulation is of the order
        it belongs to. The set stays reproducible from the seed, the focus and
        each attempt's number.

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
    feedback = _feedback(feedback)
    if focus is not None:
        from .misconceptions import FOCUS

        if focus not in FOCUS:
            raise ValueError(f"focus must be one of {', '.join(sorted(FOCUS))}, not {_checks.clip(focus)}")
    made = [_drawn(seed, i, 1, feedback, focus) for i in range(n)]
    return SimulationSet(seed, made, feedback=feedback, focus=focus)


def _drawn(seed: str, i: int, attempt: int, feedback: str, focus) -> Simulation:
    """Simulation `i` of `seed`'s set, attempt `attempt`: its board drawn from all four (and `focus`)."""
    key = f"msviz simulation: {seed}: {i}" if attempt == 1 else f"msviz simulation: {seed}: {i}: {attempt}"
    if focus is not None:
        key = f"msviz simulation: {seed}: focus {focus}: {i}: {attempt}"
    order = "bfs" if i % 2 == 0 else "dfs"
    if focus is not None:
        from .misconceptions import FOCUS

        order = FOCUS[focus].orders[i % len(FOCUS[focus].orders)]
        made = _made(random.Random(key), order, FOCUS[focus].holds)
    else:
        made = _made(random.Random(key), order)
    sim = Simulation(made.board, made.click, order=order, feedback=feedback)
    sim.attempt = attempt
    return sim


def _made(rng: random.Random, order: str, holds=None) -> Simulation:
    """A board and a click, drawn from `rng` until the click opens `SET_OPENS` cells (and, with `holds`,
    until ``holds(simulation)``)."""
    from .board import random_board
    from .traversal import reveal

    while True:
        rows, cols = rng.randint(*SET_SIDES), rng.randint(*SET_SIDES)
        click = (rng.randrange(rows), rng.randrange(cols))
        mines = rng.randint(rows * cols // 8, rows * cols // 4)
        board = random_board(rows, cols, mines, seed=rng.randrange(2**31), safe=click)
        opened = sum(a != b for x, y in zip(board, reveal(board, click)) for a, b in zip(x, y))
        if SET_OPENS[0] <= opened <= SET_OPENS[1]:
            made = Simulation(board, click, order=order)
            if holds is None or holds(made):
                return made
