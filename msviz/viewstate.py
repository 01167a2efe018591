"""The arrays a board view is sent: a trace (or a bare board) packed as bytes.

Pure numpy, so that an exported page (`msviz.export`) needs neither
ipywidgets nor anywidget: the notebook widget (`msviz.view.BoardView`) and
the page are given the same state, and run the same front end (`msviz.frontend`).
"""

from __future__ import annotations

import numpy as np

from .frontend import CSS, ESM
from .render import tile_codes
from .trace import Trace
from .traversal import EVENT_LABELS

__all__ = ["ESM", "CSS", "TRAITS", "BINARY", "view_state", "board_state", "page_state", "simulation_state"]

#: Every trait a board view shares with the browser, and its default: the one list of
#: them. `msviz.view.BoardView` declares each (its comments say what each means; a test
#: holds the two equal), an exported page starts each board from these, and the front end
#: (``msviz/js``) reads no other name (tested too).
TRAITS = {
    # The reveal: its board and arrays (see `view_state`).
    "rows": 1,
    "cols": 1,
    "order": "",
    "click_cell": [0, 0],
    "start": b"\x00",
    "final": b"\x00",
    "step_cell": b"",
    "event_label": b"",
    "replay": False,
    "step_code": b"",
    "step_depth": b"",
    "step_hidden": b"",
    "step_turn": b"",
    "generation": 0,
    # What is shown, and how.
    "step": -1,
    "mode": "visits",
    "title": "",
    "show_frontier": True,
    "show_caption": True,
    "show_legend": True,
    "show_mines": False,
    "flags": b"",
    "flood": False,
    "keyboard": True,
    "max_cell": 32,
    "last_step": -1,
    "fps": 10,
    # The stage around the boards: its control bar, a second board, a status line.
    "controls": False,
    "playing": False,
    "per_frame": 1,
    "others": [],
    "status": "",
    "restart": "",
    "error": "",
    "editable": False,
    "editing": False,
    "palette": {},
    "words": {},
    "code": "",
    "code_lines": {},
    "neighbors": [],
    # The quiz.
    "quiz": False,
    "quiz_right": 0,
    "quiz_last": -1,
    "quiz_tries": 0,
    "quiz_returned": False,
    # Be the computer (msviz.simulate): what its part shows, filled in Python ({} for none).
    "by_hand": {},
}

#: The traits that are binary arrays: sent as buffers by a kernel, and gzip'd in base64 on a page.
BINARY = tuple(name for name, default in TRAITS.items() if isinstance(default, bytes))


def page_state(state: dict, **shown) -> dict:
    """Return every trait of a board on an exported page: the defaults, then `state`, then `shown`.

    Examples
    --------
    >>> import msviz
    >>> board = page_state(view_state(msviz.trace(["EEE", "EEM"], (0, 0))), step=2)
    >>> sorted(board) == sorted(TRAITS), board["step"], board["quiz_returned"]
    (True, 2, False)
    """
    unknown = sorted(set(state) - set(TRAITS) | set(shown) - set(TRAITS))
    if unknown:
        raise ValueError(f"not traits of a board view: {unknown}")
    return {**TRAITS, **state, **shown}


def _codes(board: np.ndarray) -> bytes:
    """Return a board of symbols as one uint8 tile code per cell."""
    return tile_codes(board).astype(np.uint8).tobytes()


def _int32(values) -> bytes:
    return np.ascontiguousarray(values, dtype="<i4").tobytes()


def view_state(t: Trace) -> dict:
    """Return the traits that show trace `t` in a board view (arrays as bytes).

    Only what the browser cannot work out cheaply is sent: the board before and after
    the click (``start``, ``final``: one tile code a cell), the cell of each step
    (``step_cell``), the kind of each event (``event_label``: a call or return, an
    enqueue or dequeue, in the order they happen) and what the captions count of each
    step's cell (``step_hidden``: its hidden empty neighbours once revealed). Steps enter
    the stack or the queue in order, so the browser reads from the events alone which
    step each event is, each step's caller and depth (or layer), and when each cell is
    revealed, enters and leaves (msviz/js/reveal.js, ``readTimeline``). A student's run
    also sends the code each write puts and the stack's depth at each write.

    Examples
    --------
    >>> import msviz
    >>> state = view_state(msviz.trace(["EEE", "EEM"], (0, 0)))
    >>> state["rows"], state["cols"], len(state["start"])
    (2, 3, 6)
    >>> len(state["step_cell"]), len(state["event_label"])
    (16, 8)
    """
    rows, cols = t.shape
    return {
        "rows": rows,
        "cols": cols,
        "order": t.order,
        "click_cell": list(t.click),
        "start": _codes(t.board),
        "final": _codes(t.final),
        "step_cell": _int32(t.row.astype(np.int64) * cols + t.col),
        "event_label": np.ascontiguousarray(t.event_label, dtype=np.uint8).tobytes(),
        "neighbors": [list(d) for d in t.neighbors],
        # What the captions say of each step's cell, worked out here by the game's rules.
        "step_hidden": np.ascontiguousarray(t.hidden_around, dtype=np.uint8).tobytes(),
        # The call frames' own variables: the neighbour of its caller's loop that reached each step.
        "step_turn": turns(t).tobytes(),
        **_replay_state(t),
    }


def turns(t: Trace) -> np.ndarray:
    """Return, for each step of `t`, which neighbour of its caller's loop reached it: 1 to 8 in the
    order of ``t.neighbors`` (0 for the click itself, and for a student's run), uint8.

    It is where the caller's ``for dr, dc in NEIGHBOURS`` loop stands while that step runs, and
    where it goes on from once that step returns (depth-first) or is queued (breadth-first).

    Examples
    --------
    >>> import msviz
    >>> t = msviz.trace(["EEE", "EEM"], (0, 0))  # reading order: (-1,-1) (-1,0) (-1,1) (0,-1) (0,1) ...
    >>> turns(t).tolist()  # (0, 1) is (0, +1) from the click: the 5th; (1, 0) is (+1, 0): the 7th
    [0, 5, 7, 5]
    """
    parent = t.parent_step
    known = parent >= 0
    out = np.zeros(len(t), dtype=np.uint8)
    if t.written is not None or not known.any():
        return out
    # An offset (dr, dc) as one number 0-8, and that number's place in the loop (1-based).
    place = np.zeros(9, dtype=np.uint8)
    for i, (dr, dc) in enumerate(t.neighbors):
        place[(dr + 1) * 3 + (dc + 1)] = i + 1
    dr = t.row[known] - t.row[parent[known]]
    dc = t.col[known] - t.col[parent[known]]
    out[known] = place[(dr + 1) * 3 + (dc + 1)]
    return out


def _replay_state(t: Trace) -> dict:
    """What only a student's run has: the code written at each write (its depth is the stack's)."""
    if t.written is None:
        return {"replay": False, "step_code": b"", "step_depth": b""}
    return {"replay": True, "step_code": _codes(t.written), "step_depth": _int32(t.depth)}


def board_state(board: np.ndarray) -> dict:
    """Return the traits that show a board with no reveal on it."""
    rows, cols = board.shape
    steps = ("step_cell", "event_label", "replay", "step_code", "step_depth", "step_hidden", "step_turn")
    return {
        "rows": rows,
        "cols": cols,
        "order": "",
        "click_cell": [0, 0],
        "start": _codes(board),
        "final": _codes(board),
        **{name: TRAITS[name] for name in steps},  # no steps: the defaults
    }


#: The events of a simulation's operations, as msviz.EVENT_LABELS codes them (a say is no event).
_SIMULATION_EVENTS = {
    op: list(EVENT_LABELS).index(label)
    for op, label in (("call", "call"), ("back", "return"), ("queue", "enqueue"), ("take", "dequeue"))
}


def simulation_state(sim, done) -> dict:
    """Return the traits that show `sim` (a `msviz.Simulation`) after its operations `done`.

    The operations are drawn as the events of a reveal (a call or a return, an enqueue or a
    dequeue), so the view draws the stack's path or the queue's numbers as it does for any
    reveal; a cell shows its symbol once the student has said it (``final`` holds only the
    symbols said), so a cell taken or called is drawn hidden until then. `done` is the list of
    ``(name, value)`` operations carried out, in order; breadth-first, the click is queued
    before the first.

    Examples
    --------
    >>> from msviz.simulation import Simulation
    >>> sim = Simulation(["EEE", "EEM"], (0, 0), order="dfs")
    >>> done = [("call", (0, 0)), ("say", "B"), ("call", (0, 1))]
    >>> for name, value in done:
    ...     step = getattr(sim, name)(value)
    >>> state = simulation_state(sim, done)
    >>> list(state["event_label"]), np.frombuffer(state["step_cell"], "<i4").tolist()
    ([0, 0], [0, 1])
    >>> list(state["final"])  # (0, 0) shows B; (0, 1), called, is still drawn hidden
    [2, 0, 0, 0, 0, 1]
    """
    rows, cols = sim.shape
    board = np.array(sim.board)
    shown = board.copy()
    for (r, c), symbol in sim.revealed.items():
        shown[r, c] = symbol
    steps = [sim.click] if sim.order == "bfs" else []
    labels = [_SIMULATION_EVENTS["queue"]] if sim.order == "bfs" else []
    for name, value in done:
        if name in ("call", "queue"):
            steps.append(value)
        if name in _SIMULATION_EVENTS:
            labels.append(_SIMULATION_EVENTS[name])
    n = len(steps)
    return {
        "rows": rows,
        "cols": cols,
        "order": sim.order,
        "click_cell": list(sim.click),
        "start": _codes(board),
        "final": _codes(shown),
        "step_cell": _int32([r * cols + c for r, c in steps]),
        "event_label": np.asarray(labels, dtype=np.uint8).tobytes(),
        "neighbors": [list(d) for d in sim.neighbors],
        "step_hidden": bytes(n),  # for the captions, which a simulation does not show
        "step_turn": bytes(n),  # for the code's frames, likewise
        "replay": False,
        "step_code": b"",
        "step_depth": b"",
    }
