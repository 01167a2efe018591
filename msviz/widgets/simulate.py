"""Be the computer: the reveal carried out by hand, each operation judged in the kernel."""

from __future__ import annotations

import random
import traceback

import numpy as np

from .. import _checks
from ..i18n import in_own_language, speaks
from ..render import state_image, tile_size
from ..simulation import Simulation, Step, _feedback, _made, queue_in_turn
from ..trace import trace
from ..traversal import READING_ORDER
from ..view import BoardView
from ..viewstate import simulation_state
from ..words import SIMULATE, TITLES, simulate_fill
from .player import _check_code

__all__ = ["Simulate", "simulate", "carried_out"]

#: The sides of a random simulation's board (`simulate` with no board): 6 x 6 to 8 x 8.
SIDES = (6, 8)
#: What a key says a cell shows (B or 0: a blank; X: a mine), and the other operations' keys.
SAY_KEYS = {"b": "B", "0": "B", **{d: d for d in "12345678"}, "x": "X"}
OPERATION_KEYS = {"r": "back", "u": "undo", "backspace": "undo", "m": "model", "d": "done", "n": "new"}
#: What the browser may ask for: an operation, or undo, the model answer, Done, a new board.
MESSAGES = ("take", "call", "queue", "say", "back", "undo", "model", "done", "new")
#: The buttons beyond the operations and Undo, each with its key said in the keys' words.
MORE = ("model", "done", "new")
#: The model answer plays at this many events a second once the simulation is over.
MODEL_FPS = 4


def _at(cell) -> str:
    return f"({cell[0]}, {cell[1]})" if cell is not None else ""


def _between(before: dict, after: dict) -> tuple:
    """The one operation that took a simulation from state `before` to state `after` (in the "end" mode
    too, where a cell may be taken from anywhere in the queue, or said again)."""
    if before["current"] is not None and after["current"] is None:
        return ("say", after["revealed"][before["current"]])
    if len(after["stack"]) != len(before["stack"]):
        return ("call", after["stack"][-1]) if len(after["stack"]) > len(before["stack"]) else ("back", None)
    if len(after["queue_"]) > len(before["queue_"]):
        return ("queue", after["queue_"][-1])
    return ("take", after["current"])


def carried_out(sim: Simulation) -> list[tuple]:
    """The operations carried out on `sim` so far (undone ones gone), in order, as ``(name, value)``.

    Read from its history, so that the view follows the simulation however it was driven.

    Examples
    --------
    >>> from msviz.simulation import Simulation
    >>> sim = Simulation(["EEE", "EEM"], (0, 0), order="bfs")
    >>> sim.take((0, 0)).right, sim.say(2).right, sim.queue((0, 1)).right
    (True, False, True)
    >>> carried_out(sim)
    [('take', (0, 0)), ('say', 'B'), ('queue', (0, 1))]
    """
    now = {"revealed": sim.revealed, "queue_": sim.queue_, "stack": sim.stack, "current": sim.current}
    states = [*sim.history, now]
    return [_between(a, b) for a, b in zip(states, states[1:])]


def _done_words(done: tuple, current, top) -> str:
    """Say operation `done` as the engine says a right one; `current` is the cell a say is about,
    `top` the call a return ends (each as it was before the operation)."""
    name, value = done
    cell = current if name == "say" else top if name == "back" else value
    return SIMULATE["right_" + name].format(
        cell=_at(cell), value=value if isinstance(value, str) else "", front=""
    )


def _kind(step: Step) -> str:
    """The kind of verdict a Step is shown as: right, wrong (set right), refused (retry), noted (end)."""
    if step.right is None:
        return "noted"
    return "right" if step.right else "wrong" if step.done is not None else "retry"


class Simulate(BoardView):
    """Be the computer: the student carries out the reveal by hand, each operation judged by the kernel.

    Build it with :func:`simulate`. It is one board view: the board shows the
    simulation's true state (a cell shows its symbol once it has been said), the
    queue numbered from its front or the stack's path from the click, and under
    the board the queue or the stack as a strip, the choices of what a cell
    shows, Return (depth-first) and Undo, the verdict and the score.

    A click on a cell is the operation it can be: breadth-first, a cell in the
    queue is taken, any other hidden cell is queued; depth-first, a hidden cell
    is called. The keys say what a cell shows (B or 0, 1 to 8, X), return (R)
    and undo (U or Backspace); the arrows move a cursor whose Enter clicks.
    Every operation is judged here, in Python, by `simulation` (a
    `msviz.Simulation`): a wrong one is said wrong with its reason and set
    right. Once the reveal is over the view plays the model answer: the
    algorithm's own reveal, event by event, with its code; Undo goes back.

    Each operation is also a method, returning the `msviz.simulation.Step`
    the view shows: :meth:`take`, :meth:`say`, :meth:`queue`, :meth:`call`,
    :meth:`back`, :meth:`undo`.

    The simulation's feedback mode decides what a wrong operation does: set
    right ("fix"), refused with a reason that does not give the answer
    ("retry"), or nothing said until Done (D, :meth:`done`; "end"), when the
    score and each kind of wrong step's first cell, marked on the board, are
    shown. Model answer (M, :meth:`model_answer`) warns that it ends the
    attempt's credit, then plays. New board (N, :meth:`new`) draws the next
    attempt where the board was drawn. A homework set's simulation shows the
    line to keep (:attr:`line`).
    """

    def __init__(self, simulation: Simulation, *, max_cell: int = 32):
        if not isinstance(simulation, Simulation):
            raise TypeError(f"a Simulate needs a msviz.Simulation, not {type(simulation).__name__}")
        #: The rules engine: the state of the reveal, and the judge of every operation.
        self.simulation = simulation
        #: How many operations (and refusals) the view has answered.
        self.answered = 0
        #: The verdict shown, and its kind ("right", "wrong", "refused", "undone"; "" before any).
        self.verdict, self.kind = simulate_fill("start"), ""
        self._model_shown = False
        self._warned = False  # the model answer's warning was shown: asked again, it plays
        self._marks: list = []  # cells marked on the board: the "end" mode's first wrong steps
        state = self._state(simulation.shape, simulation_state(simulation, []))
        super().__init__(
            **state,
            generation=1,
            step=len(state["event_label"]) - 1,
            keyboard=False,  # the keys move a cursor and say: see `by_hand`
            show_caption=False,  # a caption would tell what a cell shows before it is said
            show_frontier=not (simulation.feedback == "end" and simulation.order == "bfs"),
            max_cell=max_cell,
            title=self._title("title"),
        )
        self.mode = "events"  # an operation is an event: a call or return, an enqueue or dequeue
        self._publish()

    # ---- what the student does -------------------------------------------------------------------

    @in_own_language
    def take(self, cell) -> Step:
        """Breadth-first: take `cell` from the queue (it must be the front); return the verdict."""
        return self._operate("take", cell)

    @in_own_language
    def call(self, cell) -> Step:
        """Depth-first: call the reveal on `cell`; return the verdict."""
        return self._operate("call", cell)

    @in_own_language
    def say(self, value) -> Step:
        """Say what the cell taken or called shows: ``"B"`` (or 0) or a digit; return the verdict."""
        return self._operate("say", value)

    @in_own_language
    def back(self) -> Step:
        """Depth-first: return from the call on top (it has nothing left to do); return the verdict."""
        return self._operate("back", None)

    @in_own_language
    def queue(self, cells) -> Step:
        """Breadth-first: put `cells` (a cell, or several in turn) into the queue; return the verdict
        shown: the first wrong one, else the last. Every cell is checked before any is queued."""
        many = isinstance(cells, (list, tuple)) and len(cells) > 0 and not _checks.is_integer(cells[0])
        if not many:
            return self._operate("queue", cells)
        cells = [_checks.click(cell, self.simulation.shape, name="cell") for cell in cells]
        judged = []
        queue_in_turn(cells, lambda cell: judged.append(self._judge("queue", cell)) or judged[-1][0])
        step, verdict = next((j for j in judged if j[0].right is False), judged[-1])
        self._answer(_kind(step), verdict, moved=True)
        return step

    @in_own_language
    def undo(self) -> Step:
        """Take back the last operation (its step keeps its first try); return what the view says.

        The Step is right when an operation was taken back; its `done` is ``("undo", operation)``.
        """
        sim = self.simulation
        ops = carried_out(sim)
        if not sim.undo():
            step = Step(False, simulate_fill("nothing_to_undo"), False, ("undo", None))
            self._answer("refused", step.reason, moved=False)
            return step
        top = sim.stack[-1] if sim.stack else None
        reason = simulate_fill("undone", done=_done_words(ops[-1], sim.current, top))
        step = Step(True, reason, False, ("undo", ops[-1]))
        self._answer("undone", reason, moved=True)
        return step

    @in_own_language
    def new(self) -> Simulation:
        """New board: the next attempt, drawn from the same name (or seed) and the attempt's number; it
        is shown at once and returned. Only for a board that was drawn (ValueError otherwise)."""
        fresh = self.simulation.new()
        self.simulation, self._warned = fresh, False
        self._marks = []
        self._answer("new", simulate_fill("new_attempt", attempt=fresh.attempt), moved=True, fresh=True)
        return fresh

    @in_own_language
    def model_answer(self) -> bool:
        """The model answer, in the "fix" and "retry" modes: asked once, the view says that it ends the
        attempt's credit; asked again, it plays. True when it plays."""
        sim = self.simulation
        if sim.feedback == "end" and not sim.finished:
            self._answer("refused", simulate_fill("refused", why=SIMULATE["model_at_end"]), moved=False)
            return False
        if not (sim.credit_ended or sim.finished or sim.over) and not self._warned:
            self._warned = True
            self._answer("warned", simulate_fill("model_warning"), moved=False)
            return False
        sim.ask_model()
        with self.hold_sync():
            self._show_model()
            self._answer("model", simulate_fill("model_playing"), moved=False)
        return True

    @in_own_language
    def done(self) -> dict:
        """Done, in the "end" mode: the attempt is judged; the score and each kind of wrong step with its
        first occurrence are shown, that step's cell marked on the board. Returns `Simulation.finish`'s."""
        sim = self.simulation
        if sim.feedback != "end":
            raise ValueError(simulate_fill("done_only_at_end"))
        judged = sim.finish()
        kinds = [
            simulate_fill(
                "first_wrong", kind=SIMULATE["kind_" + kind], step=first["step"] + 1, reason=first["reason"]
            )
            for kind, first in judged["first_wrong"].items()
        ]
        self._marks = [list(f["cell"]) for f in judged["first_wrong"].values() if f["cell"] is not None]
        words = simulate_fill("judged", right=judged["right"], steps=judged["steps"]) + "".join(kinds)
        self._answer("judged", words, moved=True)
        return judged

    # ---- how it stands ---------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the reveal is done (the view then plays the model answer)."""
        return self.simulation.over

    @property
    def score(self) -> tuple[int, int]:
        """``(right, tried)``: the steps right at the first try, and the steps tried."""
        return self.simulation.right, self.simulation.tried

    # ---- judged here -----------------------------------------------------------------------------

    def _judge(self, name: str, value) -> tuple[Step, str]:
        """Carry out one operation on the simulation; return its Step and the verdict in words."""
        sim = self.simulation
        current, top = sim.current, (sim.stack[-1] if sim.stack else None)
        step = sim.back() if name == "back" else getattr(sim, name)(value)
        if step.right is None:  # the "end" mode: nothing is said until Done
            return step, simulate_fill("noted", n=sim.step)
        if step.done is None:  # the "retry" mode: refused, without the answer
            return step, simulate_fill("wrong_retry", reason=step.reason) + (
                "" if step.counted else simulate_fill("not_counted")
            )
        words = simulate_fill(
            "right" if step.right else "wrong",
            reason=step.reason,
            done=_done_words(step.done, current, top),
        )
        counted = step.counted or sim.credit_ended
        return step, words + ("" if counted else simulate_fill("not_counted"))

    def _operate(self, name: str, value) -> Step:
        step, verdict = self._judge(name, value)
        self._answer(_kind(step), verdict, moved=step.done is not None)
        return step

    def _handle(self, content) -> None:
        """An operation from the browser, judged as the same call from Python is. Anything that is
        not one (a cell off the board, an operation of the other order, garbage) is refused with the
        reason shown in the view and counts for nothing; nothing raises in the kernel."""
        try:
            name, value = self._read(content)
            if name in ("undo", "new", "done"):
                getattr(self, name)()
            elif name == "model":
                self.model_answer()
            else:
                self._operate(name, value)
        except (TypeError, ValueError) as refused:
            self._answer("refused", simulate_fill("refused", why=str(refused)), moved=False)
        except Exception:  # a fault of msviz's own: shown under the board, never raised in the kernel
            self.error = traceback.format_exc()

    def _read(self, content) -> tuple[str, object]:
        """The operation a message from the browser asks for, ``(name, value)``; ValueError if none."""
        garbage = ValueError(simulate_fill("not_a_message", what=_checks.clip(content)))
        if not isinstance(content, dict):
            raise garbage
        event = content.get("event")
        if event in ("click", "flag"):  # a cell: the operation a click on it can be
            row, col = content.get("row"), content.get("col")
            if not (type(row) is int and type(col) is int):  # JSON's true and false are not cells
                raise garbage
            return self._operation_at(self._on_board(row, col))
        name, value = content.get("name"), content.get("value")
        if event != "operation" or name not in MESSAGES:
            raise garbage
        if name in ("take", "call", "queue"):
            if not (isinstance(value, list) and len(value) == 2 and all(type(x) is int for x in value)):
                raise garbage
            return name, self._on_board(*value)
        if name == "say" and not isinstance(value, str):
            raise garbage
        return name, value

    def _on_board(self, row: int, col: int) -> tuple[int, int]:
        """Cell (row, col) of a message from the browser; ValueError, said in the view, if off the board."""
        rows, cols = self.simulation.shape
        if not (0 <= row < rows and 0 <= col < cols):
            raise ValueError(simulate_fill("off_board", row=row, col=col, rows=rows, cols=cols))
        return row, col

    def _operation_at(self, cell) -> tuple[str, tuple]:
        """What a click on `cell` does: take it from the queue or queue it (breadth-first), call it
        (depth-first). A cell uncovered, or being revealed, is no operation (ValueError)."""
        sim = self.simulation
        if sim.over:
            raise ValueError(SIMULATE["over"])
        if cell == sim.current:
            raise ValueError(simulate_fill("being_revealed", cell=_at(cell)))
        if cell in sim.revealed:
            raise ValueError(simulate_fill("uncovered", cell=_at(cell)))
        if sim.order == "dfs":
            return "call", cell
        return ("take" if cell in sim.queue_ else "queue"), cell

    # ---- shown -----------------------------------------------------------------------------------

    def _answer(self, kind: str, verdict: str, *, moved: bool, fresh: bool = False) -> None:
        """Show a verdict of `kind`, and (`moved`) the simulation's new state, all at once."""
        self.answered += 1
        self.verdict, self.kind = verdict, kind
        end = self.simulation.feedback == "end"
        with self.hold_sync():
            if self.over and not self._model_shown and not end:
                self._show_model()
            elif (moved and not self.over) or (moved and end) or fresh:
                self._show_simulation()
            self._publish()

    def _title(self, name: str) -> str:
        return simulate_fill(name, order=TITLES[self.simulation.order])

    def _show_simulation(self) -> None:
        """The board as the simulation stands: its operations drawn as a reveal's events."""
        sim = self.simulation
        state = simulation_state(sim, carried_out(sim))
        self.playing = self.controls = self.keyboard = self.show_caption = False
        # The board numbers the queue first in, first out; the "end" mode's own steps may take a cell
        # from anywhere in it, so there the strip under the board, the engine's own, alone shows it.
        self.show_frontier = not (sim.feedback == "end" and sim.order == "bfs")
        self.show_code(None)
        self._send_state(sim.shape, state, len(state["event_label"]) - 1)
        self.trace = None
        self.title = self._title("title")
        self._model_shown = False

    def _show_model(self) -> None:
        """The model answer: the algorithm's own reveal, played event by event with its code."""
        sim = self.simulation
        t = trace(sim.board, sim.click, order=sim.order, neighbors=sim.neighbors)
        self.show_frontier = True
        self.show(t, step=0)
        self.show_code(_check_code(None, sim.order))
        self.title = self._title("title_model")
        self.show_caption = self.keyboard = True
        self.fps, self.per_frame, self.last_step = MODEL_FPS, 1, max(t.events - 1, 0)
        self.controls = self.playing = True
        self._model_shown = True

    def _rule(self) -> str:
        sim = self.simulation
        if sim.any:
            order = simulate_fill("neighbours_any")
        elif tuple(sim.neighbors) == tuple(READING_ORDER):
            order = simulate_fill("neighbours_reading")
        else:
            order = simulate_fill("neighbours_given", order=", ".join(map(str, sim.neighbors)))
        return simulate_fill(f"rule_{sim.order}") + order

    def _buttons(self) -> tuple[list, dict]:
        """The buttons the view draws, and its keys: each a message the view sends as it is."""
        sim = self.simulation
        buttons, keys = [], {}
        if not sim.over:
            for key, symbol in SAY_KEYS.items():
                keys[key] = {"name": "say", "value": symbol}
            for symbol in ("B", *"12345678", "X"):
                name = "say_blank" if symbol == "B" else "say_mine" if symbol == "X" else "say_digit"
                label = simulate_fill(name, value=symbol)
                buttons.append({"text": symbol, "label": label, "send": {"name": "say", "value": symbol}})
            if sim.order == "dfs":
                buttons.append(
                    {
                        "text": simulate_fill("back"),
                        "label": simulate_fill("back_name"),
                        "send": {"name": "back"},
                    }
                )
                keys["r"] = {"name": "back"}
        more = ["undo"]
        if sim.feedback == "end" and not sim.finished:
            more.append("done")
        elif not sim.over or sim.feedback == "end":  # once over, it plays by itself (but after Done)
            more.append("model")
        if sim._maker is not None:
            more.append("new")
        for name in more:
            buttons.append(
                {"text": simulate_fill(name), "label": simulate_fill(name + "_name"), "send": {"name": name}}
            )
        keys.update({key: {"name": name} for key, name in OPERATION_KEYS.items() if name in more})
        return buttons, keys

    def _publish(self) -> None:
        """Send what the view's simulation part shows (`by_hand`): every word filled here."""
        sim = self.simulation
        waiting = list(sim.queue_) if sim.order == "bfs" else list(sim.stack)
        buttons, keys = self._buttons()
        right, tried = self.score
        if sim.feedback == "end" and not sim.finished:
            score = simulate_fill("score_end", tried=tried)
        elif sim.feedback == "end":
            score = ""  # the verdict says it all
        elif sim.over:
            score = simulate_fill("score_over", right=right, steps=sim.step)
        else:
            score = simulate_fill("score", right=right, tried=tried)
        if sim.credit_ended and sim.feedback != "end":
            score += simulate_fill("credit_ended")
        self.by_hand = {
            "order": sim.order,
            "rule": "" if sim.over else self._rule(),  # the model answer has the room
            "strip": simulate_fill("queue" if sim.order == "bfs" else "stack", n=len(waiting)),
            "waiting": [list(cell) for cell in waiting],
            "empty": simulate_fill("empty"),
            "current": None if sim.current is None else list(sim.current),
            "group": simulate_fill("choices"),
            "buttons": buttons,
            "keys": keys,
            "keys_text": simulate_fill(f"keys_{sim.order}")
            + "".join(
                simulate_fill("keys_" + b["send"]["name"]) for b in buttons if b["send"]["name"] in MORE
            ),
            "verdict": self.verdict,
            "kind": self.kind,
            "score": score,
            "right": right,
            "tried": tried,
            "over": sim.over,
            "answered": self.answered,
            "feedback": sim.feedback,
            "attempt": sim.attempt,
            "marks": [r * sim.shape[1] + c for r, c in self._marks],
            "keep": simulate_fill("keep") if self.line else "",
            "line": self.line,
        }

    @property
    def line(self) -> str:
        """The line to keep in the notebook, for a homework set's simulation (``""`` for any other): it
        carries out this attempt again, under the set's name in the notebook where it has one."""
        home = self.simulation.home
        if home is None:
            return ""
        sims, i = home
        return sims.line(i)

    def _offline(self) -> dict:
        """A page with no kernel runs this simulation as practice (`msviz.widgets.practice`)."""
        from ..words import PAGE
        from .practice import simulation_table

        table = simulation_table(
            self, say=SAY_KEYS, model_fps=MODEL_FPS, done_words=_done_words, carried_out=carried_out
        )
        return (
            {"kind": "simulate", "table": table, "practice": PAGE["practice"]} if table else {"kind": "stage"}
        )

    def picture(self) -> np.ndarray:
        """The position shown as an RGB image: the model answer's step, or the simulation as it stands."""
        if self.trace is not None:
            return super().picture()
        sim = self.simulation
        board = np.array(sim.board)
        frontier = np.zeros(sim.shape, dtype=bool)
        for cell, symbol in sim.revealed.items():
            board[cell] = symbol
        for cell in sim.queue_ if sim.order == "bfs" else sim.stack:
            frontier[cell] = True
        px = tile_size(sim.shape, width_px=480)
        return state_image(board, current=sim.current, frontier=frontier, order=sim.order, px=px)


def _random_simulation(seed, order: str, neighbors, feedback: str = "fix", attempt: int = 1) -> Simulation:
    """A simulation on a random board of `SIDES` whose click opens 8 to 25 cells, drawn from `seed` and
    the attempt's number (each `Simulation.new` the next)."""
    order = _checks.order(order)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (str, int))):
        raise TypeError(f"seed must be a name (str) or a number (int), not {type(seed).__name__}")
    key = f"msviz simulate: {seed}" if attempt == 1 else f"msviz simulate: {seed}: {attempt}"
    rng = random.Random(None if seed is None else key)
    while True:
        made = _made(rng, order)  # a board of 5 x 5 to 8 x 8 whose click opens SET_OPENS cells
        if min(made.shape) >= SIDES[0] and max(made.shape) <= SIDES[1]:
            sim = Simulation(made.board, made.click, order=order, neighbors=neighbors, feedback=feedback)
            sim.attempt = attempt
            sim._maker = lambda next_attempt: _random_simulation(
                seed, order, neighbors, feedback, next_attempt
            )
            return sim


@speaks
def simulate(
    board=None,
    click=None,
    *,
    order: str = "bfs",
    neighbors=READING_ORDER,
    feedback: str = "fix",
    seed=None,
    max_cell: int = 32,
) -> Simulate:
    """Return "Be the computer": the student carries out the reveal by hand, each operation judged at once.

    Breadth-first, the student takes the queue's front (a click on it), says
    what it shows (B or a digit: a button or a key) and, for a blank, queues
    its hidden neighbours (a click on each). Depth-first, the recursive
    solution: the student calls the next cell (a click), says what it shows,
    and returns (R, or Return) when a call has nothing left to do. The kernel
    judges each operation with `msviz.Simulation`; a wrong one is said wrong,
    with the reason, and set right. At the end the view shows the steps right
    at the first try out of all, and plays the model answer.

    Parameters
    ----------
    board, click
        As for :func:`msviz.reveal` (the board is never changed). With neither,
        a random board of 6 x 6 to 8 x 8 whose click opens 8 to 25 cells. Or,
        alone, a `msviz.Simulation` to show as it is, such as one of a
        homework set's (``msviz.simulate(sims[0])``, `msviz.simulation_set`):
        what is done in the view is done in it, and ``sims.line(0)`` is then
        the line to keep.
    order : {"bfs", "dfs"}
    neighbors : sequence of (dr, dc) or "any"
        The neighbour order of the exercise (reading order by default), or
        ``"any"`` to accept every order of that kind.
    feedback : {"fix", "retry", "end"}
        The teacher's feedback mode: a wrong step set right with its reason
        (in class), refused and tried again (homework), or nothing judged
        until Done (an exam). See `msviz.simulation`.
    seed : int or str, optional
        The random board's seed: the same seed gives the same board (for
        either order). Only without a board.
    max_cell : int
        The largest side of a cell in pixels; cells shrink to fit.

    Examples
    --------
    >>> import msviz
    >>> sim = msviz.simulate(["EEE", "EEM"], (0, 0), order="bfs")
    >>> sim.take((0, 0)).reason
    "(0, 0) is the queue's front: it is taken"
    >>> step = sim.say(1)
    >>> step.right, step.reason
    (False, '(0, 0) shows B, not 1: no mine is around it')
    >>> sim.by_hand["verdict"]
    'Wrong: (0, 0) shows B, not 1: no mine is around it. Instead: (0, 0) shows B.'
    >>> sim.queue([(0, 1), (1, 0), (1, 1)]).right, sim.by_hand["waiting"]
    (True, [[0, 1], [1, 0], [1, 1]])
    >>> sim.score
    (4, 5)
    >>> msviz.simulate(seed=7).simulation.board == msviz.simulate(seed=7, order="dfs").simulation.board
    True
    """
    max_cell = _checks.px(max_cell, name="max_cell")
    feedback = _feedback(feedback)
    if isinstance(board, Simulation):  # one of a homework set's (msviz.simulation_set): shown as it is
        if click is not None or seed is not None:
            raise TypeError("a simulation has its own board and click: give it alone")
        return Simulate(board, max_cell=max_cell)
    if board is None:
        if click is not None:
            raise TypeError("a click needs its board: give both, or neither for a random board")
        return Simulate(_random_simulation(seed, order, neighbors, feedback), max_cell=max_cell)
    if seed is not None:
        raise TypeError("seed draws a random board: give a board and a click, or a seed, not both")
    if click is None:
        raise TypeError("a board needs its click: simulate(board, (row, col))")
    made = Simulation(board, click, order=order, neighbors=neighbors, feedback=feedback)
    return Simulate(made, max_cell=max_cell)
