"""Be the computer as practice in a page with no kernel: every verdict worked out here, looked up there.

With a fixed neighbour order, a simulation has one right operation at each step, and a
wrong one is set right (`msviz.Simulation`): whatever the student does, the states follow
one path. So Python walks that path once, and at each state judges every operation the
page can send (each symbol said, Return, a click on each cell) with the simulation's own
rules and the widget's own words; the page (``msviz/js/practice.js``) only looks them up,
and at the end plays the model answer, as the widget does. Marks come from a notebook with
a kernel (`msviz.simulation_set`): a page says it is practice.
"""

from __future__ import annotations

import copy

import numpy as np

from ..i18n import view_words
from ..simulation import Simulation
from ..solutions import DEFAULT, LINES, SOURCES
from ..trace import trace
from ..viewstate import BINARY, simulation_state, view_state
from ..words import SIMULATE, SIMULATE_VIEW, simulate_fill

__all__ = ["simulation_table"]

#: The operations a page answers with no kernel.
PAGE_OPERATIONS = ("say", "back", "undo")


def _shown(widget_class):
    """A stand-in for `widget_class` (msviz.widgets.simulate.Simulate) at one state of a simulation:
    its `by_hand` made by the widget's own methods, and nothing sent anywhere."""

    class Shown:
        _buttons = widget_class._buttons
        _rule = widget_class._rule
        _publish = widget_class._publish
        score = widget_class.score

        def __init__(self, simulation: Simulation):
            self.simulation = simulation
            self.verdict, self.kind, self.answered = "", "", 0
            self._marks, self.line = (), ""  # practice marks no step and keeps no line

    return Shown


def _arrays(state: dict) -> dict:
    """A view's traits with its binary arrays as lists of numbers (int32 for cells and depths)."""
    out = dict(state)
    for name in BINARY:
        if name in out:
            kind = "<i4" if name in ("step_cell", "step_depth") else np.uint8
            out[name] = np.frombuffer(bytes(out[name]), dtype=kind).tolist()
    return out


def _judged(sim: Simulation, name: str, value, done_words) -> tuple[str, str]:
    """The verdict the widget shows for operation (`name`, `value`) on `sim`, as a first try, and its
    kind: "right", "wrong" or "refused" (`sim` is a copy: it may be changed)."""
    current, top = sim.current, (sim.stack[-1] if sim.stack else None)
    try:
        step = sim.back() if name == "back" else getattr(sim, name)(value)
    except (TypeError, ValueError) as refused:
        return simulate_fill("refused", why=str(refused)), "refused"
    except Exception:  # a fault of the engine's (the widget shows it under the board; its verdict stays)
        return "", "error"
    words = simulate_fill(
        "right" if step.right else "wrong", reason=step.reason, done=done_words(step.done, current, top)
    )
    return words, "right" if step.right else "wrong"


def _at(cell) -> str:
    return f"({cell[0]}, {cell[1]})"


def _clicked(sim: Simulation, cell) -> tuple[str, object] | str:
    """The operation a click on `cell` is (the widget's rule), or why it is none."""
    if sim.over:
        return SIMULATE["over"]
    if cell == sim.current:
        return simulate_fill("being_revealed", cell=_at(cell))
    if cell in sim.revealed:
        return simulate_fill("uncovered", cell=_at(cell))
    if sim.order == "dfs":
        return "call", cell
    return ("take" if cell in sim.queue_ else "queue"), cell


def _verdicts(sim: Simulation, said: dict, say: dict, done_words) -> dict:
    """Every operation the page can send at `sim`'s state, and its verdict: ``key -> [words, kind]``
    (words as an index into `said`, a table of distinct phrases)."""

    def index(words: str) -> int:
        return said.setdefault(words, len(said))

    out = {}
    for symbol in dict.fromkeys(say.values()):
        words, kind = _judged(copy.deepcopy(sim), "say", symbol, done_words)
        out[f"say:{symbol}"] = [index(words), kind]
    if sim.order == "dfs":
        words, kind = _judged(copy.deepcopy(sim), "back", None, done_words)
        out["back"] = [index(words), kind]
    rows, cols = sim.shape
    for r in range(rows):
        for c in range(cols):
            operation = _clicked(sim, (r, c))
            if isinstance(operation, str):
                words, kind = simulate_fill("refused", why=operation), "refused"
            else:
                words, kind = _judged(copy.deepcopy(sim), *operation, done_words)
            out[f"cell:{r * cols + c}"] = [index(words), kind]
    return out


def _model(sim: Simulation, fps: int) -> dict:
    """The traits that play the model answer (the widget's `_show_model`)."""
    t = trace(sim.board, sim.click, order=sim.order, neighbors=sim.neighbors)
    source = DEFAULT[sim.order]
    return {
        **_arrays(view_state(t)),
        "step": 0,
        "code": SOURCES[source],
        "code_lines": LINES[source],
        "title": simulate_fill("title_model", order=_title_order(sim)),
        "show_caption": True,
        "keyboard": True,
        "fps": fps,
        "per_frame": 1,
        "last_step": max(t.events - 1, 0),
        "controls": True,
        "playing": True,
    }


def _title_order(sim: Simulation) -> str:
    from ..words import TITLES

    return TITLES[sim.order]


def simulation_table(widget, *, say: dict, model_fps: int, done_words, carried_out) -> dict | None:
    """What a page with no kernel needs to run `widget`'s simulation as practice: each state on the
    path of right operations (its board's traits and what the simulation's part shows), every
    operation's verdict at each state, the words of each undo, and the model answer; None where the
    neighbour order is not fixed (then more than one path is right).

    The page opens at the state the widget shows, with its score. The widget's module gives
    what it says with: `say` (its keys of each symbol), `model_fps` (the model answer's speed),
    `done_words` (an operation in words) and `carried_out` (a simulation's operations so far).

    Examples
    --------
    >>> import msviz
    >>> widget = msviz.simulate(["EEE", "EEM"], (0, 0), order="bfs")
    >>> table = widget._offline()["table"]
    >>> len(table["states"]), table["at"], table["verdicts"][0]["cell:0"][1]
    (12, 0, 'right')
    >>> table["words"][table["verdicts"][0]["cell:1"][0]][:6]
    'Wrong:'
    """
    shown = widget.simulation
    if shown.any or shown.feedback != "fix":  # one path of states: a fixed order, each slip set right
        return None
    sim = Simulation(shown.board, shown.click, order=shown.order, neighbors=shown.neighbors)
    said: dict[str, int] = {}
    states, verdicts, undo = [], [], [None]
    shown_as = _shown(type(widget))
    while True:
        view = simulation_state(sim, carried_out(sim))
        states.append({"view": _arrays(view), "by_hand": _by_hand(shown_as(sim))})
        if sim.over:
            break
        verdicts.append(_verdicts(sim, said, say, done_words))
        current, top = sim.current, (sim.stack[-1] if sim.stack else None)
        done = sim.expected()
        getattr(sim, done[0])(*(() if done[0] == "back" else (done[1],)))
        undo.append(said.setdefault(simulate_fill("undone", done=done_words(done, current, top)), len(said)))
    for words in (simulate_fill("nothing_to_undo"), simulate_fill("refused", why=SIMULATE["over"])):
        said.setdefault(words, len(said))
    return {
        "at": shown.step,
        "firsts": [[step, right] for step, right in shown.firsts.items()],
        "states": states,
        "verdicts": verdicts,
        "undo": undo,
        "words": list(said),
        "nothing_to_undo": said[simulate_fill("nothing_to_undo")],
        "over": said[simulate_fill("refused", why=SIMULATE["over"])],
        "model": _model(sim, model_fps),
        "simulation": {"title": simulate_fill("title", order=_title_order(sim))},
        "phrases": view_words(SIMULATE_VIEW),
    }


def _by_hand(shown) -> dict:
    """What the simulation's part shows at a state (`shown`: a stand-in of the widget), but the
    verdict and the score."""
    shown._publish()
    said = {
        k: v
        for k, v in shown.by_hand.items()
        if k not in ("verdict", "kind", "score", "answered", "right", "tried")
    }
    # The page answers what its table holds: each symbol, Return and Undo (the model answer plays
    # at the end by itself; a new board needs Python).
    said["buttons"] = [b for b in said["buttons"] if b["send"]["name"] in PAGE_OPERATIONS]
    said["keys"] = {k: v for k, v in said["keys"].items() if v["name"] in PAGE_OPERATIONS}
    said["keys_text"] = simulate_fill(f"keys_{shown.simulation.order}")
    return said
