"""A widget that plays with no kernel: its rendition, one self-contained piece of HTML.

Beside the live widget and its picture, each widget's display data holds a
``text/html`` rendition: the board view's own ES parts (`msviz.frontend`), its
style sheet and the widget's state, inline. It asks for nothing (no CDN, no
request of any kind), so it plays from ``file://``, in an ``<iframe>`` and
offline: in a notebook converted by nbconvert, on a course website, on a phone.
The exported page (`msviz.export.page_html`) is this rendition with a heading
around it: one code path.

Where a front end shows the live widget (JupyterLab, Notebook, VS Code, Colab,
Voila, marimo) it shows that, and nothing here runs. Where scripts are stripped
(GitHub, nbviewer without trust) the picture and its note stay: the rendition
starts with them, and its script hides them once the board is drawn.

The rules stay in Python: a game carries each cell's reveal on its board
(`game_table`), a quiz bank every verdict (`msviz.homework`); the page only
looks them up.

Examples
--------
>>> import msviz
>>> from msviz.viewstate import page_state, view_state
>>> piece = rendition(page_state(view_state(msviz.trace(["EEE", "EEM"], (0, 0)))))
>>> piece.startswith('<div class="msviz-rendition"'), "http" in piece, piece.count("<script")
(True, False, 2)
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import html
import json

import numpy as np

from .frontend import CSS, OFFLINE_PARTS, PAGE_PARTS, join
from .render import tile_codes
from .viewstate import BINARY

__all__ = ["rendition", "packed", "game_table", "KINDS"]

#: What a rendition shows, and the parts its script joins: a stage of boards (a player, a
#: comparison, a page), a game (its reveals looked up), a quiz, a quiz bank, a simulation in practice.
KINDS = {
    "stage": PAGE_PARTS,
    "game": (*PAGE_PARTS, "offline.js"),
    "quiz": (*PAGE_PARTS, "offline.js"),
    "bank": (*PAGE_PARTS, "bank.js", "offline.js"),
    "simulate": (*PAGE_PARTS, *OFFLINE_PARTS),
}

#: The script that starts one rendition: it finds its own holder (the first of its id not yet
#: started: two identical outputs each start one), reads its data and draws it.
_START = """
{
  const holders = document.querySelectorAll('[data-msviz-rendition="%s"]');
  const holder = [...holders].find((h) => !h.dataset.msvizStarted);
  if (holder) {
    holder.dataset.msvizStarted = "";
    const data = JSON.parse(holder.querySelector('script[type="application/json"]').textContent);
    const handle = await startRendition({ holder, ...data });
    (window.msvizRenditions ||= []).push(handle);
    window.msvizPage ||= handle;
  }
}
"""


def packed(board: dict, shared: dict | None = None) -> dict:
    """Return a board's traits with each binary array gzip'd and in base64 (the browser's own
    DecompressionStream opens them), and each board of `others` likewise (what it lacks is the
    first board's, `shared`).

    A reveal's ``step_cell`` (four bytes a step, which gzip hardly shrinks) is sent as ``None``
    where each step's cell is its caller's moved by the neighbour in ``step_turn`` (`follows_turns`):
    the page works the cells out again from the events and turns it has anyway (page.js), and a
    big page is a quarter of the size.

    Examples
    --------
    >>> packed({"start": b"\\x00\\x01", "rows": 1})["start"][:4]
    'H4sI'
    >>> import msviz
    >>> from msviz.viewstate import view_state
    >>> packed(view_state(msviz.trace(["EEE", "EEM"], (0, 0))))["step_cell"] is None
    True
    """
    out = dict(board)
    both = {**(shared or {}), **board}
    for name in BINARY:
        if name in out:
            value = out[name]
            out[name] = base64.b64encode(gzip.compress(bytes(value), mtime=0)).decode("ascii")
    if "step_cell" in board and follows_turns(both):
        out["step_cell"] = None
    if "others" in out:
        out["others"] = [packed(other, both) for other in out["others"]]
    return out


#: The codes of the event labels, in the order of ``msviz.EVENT_LABELS``.
CALL, RETURN, ENQUEUE, DEQUEUE = range(4)


def follows_turns(board: dict) -> bool:
    """Whether each step's cell in `board` (its traits) is the click for the first step, and for
    each other its caller's cell moved by neighbour ``step_turn`` of ``neighbors``: the caller
    being the call open when it is called (depth-first), or the cell taken out of the queue last
    when it is queued (breadth-first). Not for a student's run (it has no turns).

    Examples
    --------
    >>> import msviz
    >>> from msviz.viewstate import view_state
    >>> state = view_state(msviz.trace(["EEE", "EEM"], (0, 0), order="bfs"))
    >>> follows_turns(state), follows_turns({**state, "step_turn": bytes(4)})
    (True, False)
    """
    if board.get("replay") or not board.get("neighbors") or "click_cell" not in board:
        return False
    label = np.frombuffer(bytes(board.get("event_label", b"")), np.uint8)
    turn = np.frombuffer(bytes(board.get("step_turn", b"")), np.uint8).astype(np.int64)
    cells = np.frombuffer(bytes(board["step_cell"]), "<i4").astype(np.int64)
    cols, (row, col) = board["cols"], board["click_cell"]
    enters = np.flatnonzero((label == CALL) | (label == ENQUEUE))
    if (
        len(cells) == 0
        or len(turn) != len(cells)
        or len(enters) != len(cells)
        or cells[0] != row * cols + col
    ):
        return False
    if turn[0] != 0 or not ((turn[1:] >= 1) & (turn[1:] <= len(board["neighbors"]))).all():
        return False
    offset = np.array([0] + [dr * cols + dc for dr, dc in board["neighbors"]], np.int64)
    caller = _callers(label, enters)
    return bool((caller[1:] >= 0).all() and np.array_equal(cells[1:], cells[caller[1:]] + offset[turn[1:]]))


def _callers(label: np.ndarray, enters: np.ndarray) -> np.ndarray:
    """The caller of each step (-1 for none) from the events alone: depth-first the latest call
    one level up before its own; breadth-first the step taken out of the queue last."""
    if (label[enters] == ENQUEUE).all():
        return np.cumsum(label == DEQUEUE)[enters] - 1
    open_ = np.cumsum(label == CALL) - np.cumsum(label == RETURN)
    depth = open_[enters] - 1  # the calls open under it
    key = depth * (len(label) + 1) + enters  # by depth, then by event
    by_key = np.argsort(key)
    up = np.searchsorted(key[by_key], (depth - 1) * (len(label) + 1) + enters) - 1
    caller = np.where(depth > 0, by_key[np.clip(up, 0, None)], -1)
    return caller


def _script(kind: str) -> str:
    """The joined parts of `kind`, as one module's text (checked not to close its tag)."""
    script = join(KINDS[kind], page=True)
    if "</script" in script.lower():
        raise RuntimeError("a rendition's script contains '</script', which would end its tag early")
    return script


def rendition(
    stage: dict,
    *,
    kind: str = "stage",
    table=None,
    figure: str = "",
    practice: str = "",
    data_id: str | None = None,
) -> str:
    """Return the HTML that plays a widget with no kernel: `stage` (every trait of its board view,
    `msviz.viewstate.page_state`; binary arrays as bytes), drawn by the view's own parts.

    Parameters
    ----------
    stage : dict
        The traits of the widget's view.
    kind : str
        One of `KINDS`: how the page answers what the view sends (a game's clicks, a quiz's
        start again, a bank's answers).
    table : JSON-able, optional
        What Python computed for the page to look up (`game_table`, a bank's verdicts).
    figure : str
        The still picture and its note (what a host with no scripts shows); hidden once
        the board is drawn.
    practice : str
        A line said above a practice (its answers are in the page; marks come from a notebook).
    data_id : str, optional
        The id of the data's script tag (an exported page's, which tests read).
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {sorted(KINDS)}, not {kind!r}")
    if table is not None:  # gzip'd JSON in base64: a game's tables shrink to a tenth
        table = base64.b64encode(gzip.compress(json.dumps(table).encode(), mtime=0)).decode("ascii")
    data = json.dumps({"kind": kind, "stage": packed(stage), "binary": list(BINARY), "table": table})
    data = data.replace("</", "<\\/")  # nothing inside may close the script tag
    key = hashlib.sha1(f"{kind}\n{data}".encode()).hexdigest()[:16]
    said = f'<p class="msviz-practice" role="note">{html.escape(practice)}</p>' if practice else ""
    ident = f' id="{data_id}"' if data_id else ""
    return (
        f'<div class="msviz-rendition" data-msviz-rendition="{key}">'
        f'{figure}{said}<div class="msviz-holder"></div>'
        f"<style>{CSS.read_text(encoding='utf-8')}</style>"
        f'<script{ident} type="application/json">{data}</script>'
        f'<script type="module">\n{_script(kind)}\n{_START % key}</script></div>'
    )


# ---- the game: every click's reveal, worked out by the rules ------------------------------------


def game_table(board) -> dict:
    """Return what a click on each cell of hidden `board` (``M`` and ``E``, as rows) reveals: the
    page of a game looks a click up here.

    ``hidden`` and ``final`` are a tile code a cell (`msviz.render.CODES`): the board before
    any click, and each cell once revealed (a mine as ``X``). ``group`` is each cell's group:
    a click on a cell reveals its group's cells, group g being ``cells[starts[g]:starts[g + 1]]``
    in the order the reveal reaches them. A blank's group is its whole blank region and the
    digits around it (worked out by `msviz.trace`); a digit's or a mine's, the cell alone. A
    cell already revealed stays as it is (the page skips it).

    Examples
    --------
    >>> table = game_table(["EEE", "EEM"])
    >>> table["group"], table["cells"], table["starts"]
    ([0, 1, 2, 0, 3, 4], [0, 1, 3, 4, 1, 2, 4, 5], [0, 4, 5, 6, 7, 8])
    >>> table["final"] == [2, 3, 3, 2, 3, 11]  # B 1 1 / B 1 X
    True
    """
    from .board import mine_counts
    from .trace import trace

    board = np.array([list(row) for row in board])
    rows, cols = board.shape
    counts = np.asarray(mine_counts(board.tolist()))
    shown = np.where(board == "M", "X", np.where(counts > 0, counts.astype(str), "B"))
    shown = np.where((board == "M") | (board == "E"), shown, board)  # a cell uncovered stays as it is
    group = np.full(rows * cols, -1, dtype=np.int64)
    cells: list[int] = []
    starts = [0]
    for i in range(rows * cols):
        if group[i] >= 0:
            continue
        if shown.flat[i] == "B":  # every blank of the region reveals the same cells
            t = trace(board, divmod(i, cols))
            reached = (t.row.astype(np.int64) * cols + t.col).tolist()
            group[[k for k in reached if shown.flat[k] == "B"]] = len(starts) - 1
        else:
            reached = [i]
        group[i] = len(starts) - 1
        cells.extend(reached)
        starts.append(len(cells))
    return {
        "hidden": tile_codes(board).ravel().tolist(),
        "final": tile_codes(shown).ravel().tolist(),
        "group": group.tolist(),
        "cells": cells,
        "starts": starts,
    }
