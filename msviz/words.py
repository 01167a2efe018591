"""The kit's words: captions of steps and the stack/queue vocabulary, as plain text.

Every phrase is a template defined once, here, in English, in a table of
phrases (`msviz.i18n.Phrases`): read from a table, a phrase is said in the
language msviz speaks (`msviz.set_language`), from the catalogs in
``msviz/locale``. Python fills them with :func:`caption`; the browser view
(`msviz.view`) is sent the same templates in the same language and fills them
in JavaScript with the same rule (``{name}`` is replaced by the value called
``name``; a phrase with a count has a form for each plural kind), so a caption
reads the same in a notebook, in the browser and in an exported page.

Nothing here imports numpy, matplotlib or ipywidgets' display code.
"""

from __future__ import annotations

from .i18n import LISTS, Phrases
from .i18n import view_words as _view_words

__all__ = [
    "TEMPLATES",
    "LEGEND",
    "ACCESS",
    "VIEW_TABLES",
    "view_words",
    "RULES",
    "EVENTS_NAMES",
    "ORDER_NAMES",
    "TITLES",
    "fill",
    "plural",
    "count",
    "mines_do_not_fit",
    "caption",
    "event_caption",
    "quiz_rule",
    "quiz_judge",
    "quiz_asks_return",
    "QUIZ_RIGHT",
    "QUIZ_NOT_A_TRY",
    "quiz_verdict",
    "quiz_score",
    "ORDER_RULE",
    "SIMULATE",
    "MISCONCEPTIONS",
]

#: Caption templates. ``{s}``-style fields named ``*_s`` are plural endings.
TEMPLATES = Phrases(
    "view",
    {
        "nothing": "the click on {click} reveals nothing: that cell is already uncovered",
        "before": "before the click on {click}",
        "cell": "({row}, {col})",
        "reached": "({row}, {col}), reached from ({parent_row}, {parent_col}),",
        "mine": "step {step}: {where} is a mine: it becomes X and the game is lost",
        "blank": "step {step}: {where} has no adjacent mines, so it becomes B",
        "digit": "step {step}: {where} has {mines} adjacent mine{mines_s}, so it becomes {value}",
        "dfs_children": "; it will call reveal on its {hidden} hidden neighbour{hidden_s}, one after another"
        " (those still hidden when their turn comes)",
        "dfs_no_children": "; none of its neighbours is hidden, so it returns at once",
        "bfs_children": "; {children} neighbour{children_s} queued",
        "dfs_frontier": "; {frontier} call{frontier_s} on the stack",
        "bfs_frontier": "; queue holds {frontier}",
        "finished": " (finished)",
        # The finer timeline: every call and return, every enqueue and dequeue.
        "event_call": "event {event}: reveal({row}, {col}) is called{by}: ",
        "event_by": " by reveal({parent_row}, {parent_col})",
        "event_call_mine": "it is a mine, so it becomes X and the game is lost",
        "event_call_digit": "it has {mines} adjacent mine{mines_s}, so it becomes {value} and returns",
        "event_call_blank": "it has no adjacent mines, so it becomes B",
        "event_return": "event {event}: reveal({row}, {col}) returns to reveal({parent_row}, {parent_col}),"
        " which goes on with its next neighbour",
        "event_return_last": (
            "event {event}: reveal({row}, {col}) returns: the click is done and the stack is empty"
        ),
        "event_enqueue": "event {event}: ({row}, {col}) is marked as seen and put at the back of the queue",
        "event_dequeue": "event {event}: ({row}, {col}) is taken from the front of the queue: ",
        "event_dequeue_mine": "it is a mine, so it becomes X and the game is lost",
        "event_dequeue_digit": "it has {mines} adjacent mine{mines_s}, so it becomes {value}",
        "event_dequeue_blank": (
            "it has no adjacent mines, so it becomes B; its hidden neighbours go to the back of the queue"
        ),
        "event_stack": "; {frontier} call{frontier_s} on the stack",
        "event_queue": "; queue holds {frontier}",
        # A student's run (msviz.record), a step for every write.
        "wrote_nothing": "your code wrote nothing on the board it was given (writes to a copy cannot be"
        " seen)",
        "write": "write {step}: your code writes {value} in ({row}, {col})",
        "write_mark": "write {step}: your code writes a mark in ({row}, {col}), drawn hidden",
        "write_again": "; written before, it held {before}",
        "write_same": "; it held {before} already: the same symbol again",
        "write_depth": "; {frames} of your calls on the stack",
        "a_mark": "a mark",
        # Beside a widget's picture, for a page that runs no widgets (GitHub, nbviewer).
        "static_note": "An interactive msviz board, shown here as a picture of step {step}: run the notebook"
        " in JupyterLab, Jupyter Notebook, VS Code, Colab or marimo to play it, step it and click it.",
        # A player's board being edited (its status line).
        "edit_on": "Editing: click a hidden cell to put or take away a mine; Shift-click (or right-click)"
        " a hidden cell to click there instead. The reveal follows at once. Done editing leaves.",
        "edit_put": "A mine put on ({row}, {col}).",
        "edit_taken": "The mine on ({row}, {col}) taken away.",
        "edit_moved": "The click moved to ({row}, {col}).",
        "edit_not_hidden": "({row}, {col}) is uncovered already: edit a hidden cell.",
        "edit_not_click": "({row}, {col}) is the click: move the click (Shift-click another cell) before"
        " putting"
        " a mine there.",
        # The game's status line.
        "game_start": "Click a cell to start. Right-click (or Shift-click) plants a flag.",
        "game_revealed": "({row}, {col}) revealed {cells} cell{cells_s}.",
        "game_lost": "Boom! ({row}, {col}) was a mine.",
        "game_won": "You won! All {safe} safe cells revealed.",
        "game_over": "The game is over: press New game to play again.",
        "game_flags": " Flags: {flags} of {mines} mines.",
        "game_new": "New game",
        # The quiz: predict the next cell. The rule of each order, then what a guess gets.
        "quiz_rule_dfs": "Depth-first: click the exact cell the next call reveals.",
        "quiz_rule_bfs": "Breadth-first: any hidden cell in the next cell's layer counts"
        " (a layer: the cells the same number of moves from the click).",
        "quiz_ask": "Which cell is revealed next? Click it.",
        "quiz_right": "Right: ({row}, {col}) is next.",
        "quiz_layer": (
            "Right: ({row}, {col}) is in the same layer; the queue takes ({next_row}, {next_col}) first."
        ),
        "quiz_wrong_dfs": "Not this one: the next call goes to ({next_row}, {next_col}).",
        "quiz_wrong_bfs": "Not this one: ({row}, {col}) is not in the next cell's layer;"
        " the queue takes ({next_row}, {next_col}) next.",
        "quiz_revealed": "({row}, {col}) is already uncovered: click a hidden cell.",
        # Depth-first, when a call returns before the next call: whose call goes on?
        "quiz_return_ask": "The call on ({row}, {col}) has nothing left to call and returns."
        " Whose call goes on to make the next call? Click its cell on the blue path.",
        "quiz_return_right": "Right: the calls return to ({row}, {col}), which makes the next call.",
        "quiz_return_wrong": "Not this one: the calls return to ({next_row}, {next_col}),"
        " the top call with a hidden neighbour left.",
        "quiz_return_hidden": "({row}, {col}) is hidden: click a call that is on the stack (the blue path).",
        "quiz_score": "Score: {right} of {tries}.",
        "quiz_start_again": "Start again",
        "quiz_over": "The reveal is over: you predicted {right} of {tries} step{tries_s}.",
        "quiz_done": "That was the last question: you predicted {right} of {tries} step{tries_s}.",
    },
)

#: Short names of the two orders.
ORDER_NAMES = Phrases("order_names", {"dfs": "DFS", "bfs": "BFS"})

#: How the grader reads a solution's order, in one sentence (the report and notebook 06 say it).
RULES = Phrases(
    "rules",
    {
        "order_rule": "A solution's order is the order in which cells are first touched (first written with"
        " anything "
        "other than what they held): depth-first if each newly touched cell is a neighbour of the most "
        "recent blank whose neighbours are not all touched yet (any neighbour order), breadth-first if "
        "it goes layer by layer from the click."
    },
)
#: How the grader reads a solution's order, in English (``RULES["order_rule"]`` says it in the
#: language spoken).
ORDER_RULE = RULES.english["order_rule"]
#: The two orders in words.
ORDER_WORDS = Phrases("order_words", {"dfs": "depth-first", "bfs": "breadth-first"})

#: How the bank's reveals try a cell's neighbours (msviz.READING_ORDER), said where the order matters.
_READING = (
    " Neighbours are tried in reading order: the row above left to right,"
    " then left, right, then the row below."
)

#: The quiz bank's questions and verdicts (`msviz.bank`, `msviz.quiz_bank`). A cell is written (row, col).
BANK = Phrases(
    "bank",
    {
        "ask_next": "A {order} reveal from the click at {click}. Step {step} has just revealed {shown}"
        " (amber); "
        "the outlined cells are waiting. Which cell is revealed next? Click it." + _READING,
        "ask_last": "A {order} reveal from the click at {click} (amber); the mines are shown. Which cell is "
        "revealed last? Click it." + _READING,
        "ask_digit": "The mines are shown. What does the cell {cell} (amber) show once it is revealed: "
        "B, or a digit?",
        "ask_depth": "A depth-first reveal from the click at {click}: the call on {cell} (amber) has just "
        "revealed it. The click's own call is at depth 0, the calls it makes at depth 1, and so on. At what "
        "depth is the call on {cell}?" + _READING,
        "ask_layer": "A breadth-first reveal from the click at {click}, finished. The click is layer 0, the "
        "cells it queues layer 1, the cells they queue layer 2, and so on. In which layer is {cell} (amber)?",
        "ask_waiting_dfs": "A depth-first reveal from the click at {click}. Step {step} has just revealed "
        "{shown} (amber). Which cells have a call on the stack now, the call on {shown} included? "
        "Click each of them, then Answer." + _READING,
        "ask_waiting_bfs": "A breadth-first reveal from the click at {click}. Step {step} has just taken "
        "{shown} (amber) from the queue and revealed it (a blank also queues those of its hidden neighbours "
        "not yet queued). Which "
        "cells are in the queue now? Click each of them, then Answer." + _READING,
        "ask_order": "This board is part-way through a reveal from the click at {click}: {count} cells are "
        "revealed. Which order made it, depth-first or breadth-first?" + _READING,
        "right": "Right: {reason}",
        "wrong": "Wrong: {reason}",
        "not_counted": " (only your first answer to a question counts)",
        "why_next": "{answer} comes next. {caption}.",
        "why_revealed": "{cell} is revealed already; the next cell is {answer}.",
        "why_last": "{answer} is revealed last, at step {last}.",
        "why_digit": "{cell} has {answer} adjacent mine{answer_s}, so it shows {answer}.",
        "why_blank": "{cell} has no adjacent mines, so it shows B.",
        "why_depth": "the call on {cell} is at depth {answer}: {answer} call{answer_s} below it on the"
        " stack, "
        "from the click's call (depth 0) up.",
        "why_layer": "{cell} is in layer {answer}: it was queued by a cell of layer {before}.",
        "why_waiting_dfs": "at step {step} the stack holds calls on {cells}, from the click's call down.",
        "why_waiting_bfs": "after step {step} the queue holds {cells}, front first.",
        "why_order_dfs": "it is depth-first: after {count} steps, {ahead} is revealed and {behind} is not; "
        "a breadth-first reveal would have revealed {behind}, nearer the click, first.",
        "why_order_bfs": "it is breadth-first: after {count} steps, {ahead} is revealed and {behind} is not; "
        "a depth-first reveal would have gone on from its latest blank to {behind} first.",
        "nothing": "nothing",
        "right_only": "Right.",
        "wrong_only": "Wrong.",
        "refused_revealed": "{cell} is revealed already: choose a hidden cell",
        "refused_empty": "choose at least one cell before answering",
        # The widget's own words.
        "question": "Question {number} of {total}",
        "score": "{right} right of {total}; {answered} answered",
        "answer_cells": "Answer",
        "clear_cells": "Clear",
        "previous": "Previous question",
        "next": "Next question",
        "keep": "Keep this line in the notebook's answers cell, so that your score is the same when it "
        "is run again:",
        "picked": "Chosen: {cells}",
        "group_bank": "Quiz bank for {seed}",
        "group_pre": "Pre-test for {seed}",
        "group_post": "Post-test for {seed}",
        "describe_revealed": "The picture: revealed, {groups}.",
        "shows_at": "{symbol} at {cells}",
        "describe_none": "The picture: no cell is revealed yet.",
        "describe_mines": "Mines shown at {cells}.",
        "describe_waiting_dfs": "Outlined, with a call on the stack: {cells}.",
        "describe_waiting_bfs": "Outlined, in the queue: {cells}.",
        "describe_amber": "Amber: {cell}.",
        "describe_hidden": "Every other cell is hidden.",
        "cell_waiting": "{what}, outlined (waiting)",
        "cell_amber": "{what}, amber",
        "cell_chosen": "{what}, chosen",
        "keys": "Keys: arrows move over the board, Space chooses a cell, Enter answers. For a choice, type "
        "it (0 or B for a blank, D or B for an order), then Enter. N and P: the next and previous question.",
    },
)

#: Be the computer (`msviz.simulation`): what each operation did, or why it was not the algorithm's.
SIMULATE = Phrases(
    "simulate",
    {
        "over": "the reveal is over: nothing is left to do",
        "not_this_order": "{name} is not an operation of this reveal ({order})",
        "right_take": "{cell} is the queue's front: it is taken",
        "right_call": "the reveal calls itself on {cell}",
        "right_say": "{cell} shows {value}",
        "right_queue": "{cell} goes into the queue",
        "right_back": "the call on {cell} has nothing left to do: it returns",
        "say_first": "first say what {cell} shows",
        "wrong_symbol": "{cell} shows {right}, not {value}: {why}",
        "no_mines": "no mine is around it",
        "a_mine": "it is a mine",
        "mines_around": "{n} mine{n_s} around it",
        "digit_queues": "{cell} is a digit: a digit does not queue its neighbours",
        "queued_twice": "{cell} is queued already: a cell goes into the queue once",
        "back_too_early": "the call on {cell} is not done: it still calls {next}",
        "back_no_call": "no call is open to return from: the reveal goes on with a call on {next}",
        "digit_returns": "{cell} is a digit: its call has nothing left to do, so it returns",
        "nothing_left": "{cell} has no hidden neighbour left: its call returns",
        "not_front": "{cell} is not next: the queue's front is {front}",
        "not_a_neighbour": "{cell} is not a hidden neighbour of {blank} still to be queued",
        "queue_later": "{cell} comes later: in this neighbour order {next} is queued first",
        "queue_first": "first queue the blank's hidden neighbours, starting with {next}",
        "not_deeper": "{cell} is not a hidden neighbour of {top}: depth-first goes on from the latest call",
        "call_later": "{cell} is not next: the reveal calls {next} next",
        "say_what": "say what the cell shows: B or a digit 1-8, not {value}",
        # A step's kind, as the class page counts the steps most often wrong.
        "kind_take": "taking the queue's front",
        "kind_say": "saying what a cell shows",
        "kind_queue": "queueing a blank's hidden neighbours",
        "kind_call": "calling the next cell",
        "kind_back": "returning from a call",
        "most_wrong": "simulation: most often wrong at {kind}",
        # The "retry" mode: the same mistakes, said without giving the answer.
        "retry_wrong_symbol": "{cell} does not show {value}: count the mines around it",
        "retry_back_too_early": "the call on {cell} is not done: it still has a hidden neighbour to call",
        "retry_digit_returns": "{cell} is a digit: a digit's call calls none of its neighbours",
        "retry_nothing_left": "{cell} has no hidden neighbour left to call",
        "retry_back_no_call": "no call is open to return from",
        "retry_not_front": "{cell} is not the queue's front",
        "retry_queue_later": "{cell} is not the next to queue: follow the neighbour order",
        "retry_queue_first": "the blank's hidden neighbours go into the queue before anything else",
        "retry_call_later": "{cell} is not the next call: follow the neighbour order",
        # The "end" mode, attempts, the model answer and kept lines.
        "noted": "noted: judged when you press Done",
        "too_many_steps": "this attempt has {n} times the steps the reveal needs: press Done",
        "model_at_end": "in this mode the model answer comes after Done",
        "not_drawn": "this board was given, not drawn: a new attempt needs a board drawn from a name or seed",
        "nothing_to_say": "no cell is being revealed: take or call one first",
        "not_in_queue": "{cell} is not in the queue",
        "no_call": "no call is on the stack",
        "other_mode": "this line was kept in the {mode} mode, attempt {attempt}; this simulation is in the"
        " {feedback} mode, attempt {now}",
    },
)

#: Misconceptions (`msviz.misconceptions`): each buggy version of the reveal, as the class command names
#: it in a student's row and counts it on the class page, and the operation that shows it best.
MISCONCEPTIONS = Phrases(
    "misconceptions",
    {
        "marks_when_taken": "a breadth-first reveal that marks cells only when it takes them (a cell queued"
        " twice)",
        "digit_queues": "a reveal in which a digit goes on to its hidden neighbours, as a blank does",
        "bfs_as_dfs": "a depth-first reveal: the queue used as a stack, its newest cell taken first",
        "dfs_as_bfs": "a breadth-first reveal: the cells called in the breadth-first order",
        "never_returns": "a recursion that does not return until the end",
        "returns_early": "a recursion that returns before a blank's neighbours are called",
        "reversed_order": "another fixed neighbour order (reading order backwards)",
        "leetcode_order": "another fixed neighbour order (right, down, left, up, then the diagonals)",
        "mine_revealed": "a reveal in which a digit's mines are revealed",
        "follows": "your steps follow {version}: at step {step}, {did}",
        "did_take": "you took {cell}",
        "did_queue": "you queued {cell}",
        "did_call": "you called {cell}",
        "did_back": "you returned",
        "did_say": "you said {value}",
    },
)

#: Titles of the two orders, as headings above a board.
TITLES = Phrases(
    "titles", {"dfs": "Depth-first (stack)", "bfs": "Breadth-first (queue)", "yours": "Your code"}
)
#: The legend under a board: the current cell, then the cells waiting in each order.
LEGEND = Phrases(
    "legend",
    {
        "legend_current": "the cell of this step",
        "legend_dfs": "the calls on the stack: the chain from the click to the call on top",
        "legend_bfs": "the queue, numbered from its front (1 is taken out next)",
        "legend_frontier": "waiting on the stack or in the queue",
    },
)

#: What a screen reader is told: the names of the view and its parts, the keys each view
#: takes, and the cell under the keyboard's cursor (named by the tile drawn, in
#: ``msviz.render.CODES`` order, then an uncovered mine of a lost game, then a flag).
ACCESS = Phrases(
    "access",
    {
        "view_name": "Minesweeper board, {rows} rows by {cols} columns",
        "board_name": "the board, {rows} by {cols} cells; the caption below says what this step does",
        "board_name_simulation": "the board, {rows} by {cols} cells; what each operation did is said"
        " below it",
        "code_name": "the code, its running line highlighted",
        "frames_name_dfs": "the stack of calls, top first",
        "frames_name_bfs": "the queue, front first",
        "keys_steps": "Keys: left and right arrows step, Home and End go to the first and last step,"
        " Space plays or pauses, Escape leaves the board",
        "keys_cells": "Keys: arrow keys move the cursor, Enter or Space {act}s the cell under it,"
        " Escape leaves the board",
        "keys_flag": "; F plants or takes away a flag",
        "act_guess": "guess",
        "act_reveal": "reveal",
        "cursor": "({row}, {col}): {what}",
        "tile_names": [
            "hidden",
            "a mine",
            "blank",
            *(f"{d}: {d} adjacent mine{'' if d == 1 else 's'}" for d in range(1, 9)),
            "the mine that exploded",
            "a mine",
            "flagged",
        ],
        "play_play": "Play",
        "play_pause": "Pause",
    },
)

#: What one step of a player is in mode "events", by the order shown (a student's run: "replay").
EVENTS_NAMES = Phrases(
    "events_names",
    {
        "dfs": "every call and return",
        "bfs": "every enqueue and dequeue",
        "replay": "every write",
    },
)

#: The control bar of a player or a comparison: its buttons' and fields' names, its modes, the readout.
CONTROLS = Phrases(
    "controls",
    {
        "controls_name": "the player's controls",
        "control_first": "first step (Home on the board)",
        "control_back": "one step back (left arrow on the board)",
        "control_forward": "one step on (right arrow on the board)",
        "control_last": "last step (End on the board)",
        "control_scrub": "step",
        "control_mode": "what one step is",
        "control_fps": "frames/s",
        "control_per_frame": "steps/frame",
        "mode_visits": "one step per revealed cell",
        **{f"events_{order}": name for order, name in EVENTS_NAMES.english.items()},
        "control_edit": "Edit the board",
        "control_edit_done": "Done editing",
        "readout_visits": "step {k} / {last}",
        "readout_events": "event {k} / {last}",
    },
)

#: Under the code: each call's own variables (depth-first, one row a call on the stack, top first),
#: or the queue's (breadth-first), as Python Tutor's frames show them.
FRAMES = Phrases(
    "frames",
    {
        "frames_stack": "stack, top first ({calls} call{calls_s}):",
        "frames_queue": "queue, front first ({waiting}):",
        "frames_more": "... {more} more",
        "frame_returned": "reveal({row}, {col}) returned: back to its caller",
        "frame_calling": "reveal({row}, {col})  mines around: {mines}  its loop: neighbour {turn} of {of},"
        " calling reveal({child_row}, {child_col})",
        "frame_back": "reveal({row}, {col})  mines around: {mines}  back from neighbour {turn} of {of}:"
        " its loop goes on",
        "frame_blank": "reveal({row}, {col})  mines around: 0  writes B; its loop starts at neighbour 1 of"
        " {of}",
        "frame_digit": "reveal({row}, {col})  mines around: {mines}  writes {mines}; returns now",
        "frame_mine": "reveal({row}, {col})  a mine: writes X; returns now",
        "frame_taken": "taken from the queue: ({row}, {col})  mines around: {mines}  writes {value}",
        "frame_looking": "its loop: neighbour {turn} of {of} is ({child_row}, {child_col}), hidden: queued",
    },
)

#: The tables of every phrase the board view in the browser fills in or shows.
VIEW_TABLES = (TEMPLATES, LEGEND, ACCESS, CONTROLS, FRAMES, LISTS)


def view_words(language: str | None = None) -> dict:
    """Every phrase the board view fills in or shows, in `language`, as the browser is sent them.

    Examples
    --------
    >>> words = view_words("es")
    >>> words["lang"], words["play_play"] != "Play"
    ('es', True)
    """
    return _view_words(*VIEW_TABLES, language=language)


def plural(n: int) -> str:
    """Return the English plural ending for `n` things: ``""`` for one, ``"s"`` otherwise.

    For the English of errors raised to a programmer; what a student is shown
    takes its plural from its phrase (`msviz.i18n.Plural`).

    Examples
    --------
    >>> f"{1} mine{plural(1)}, {3} mine{plural(3)}"
    '1 mine, 3 mines'
    """
    return "" if n == 1 else "s"


def count(n: int, thing: str) -> str:
    """Return `n` and the name of `thing`, plural unless `n` is one.

    Examples
    --------
    >>> count(1, "mine"), count(3, "cell")
    ('1 mine', '3 cells')
    """
    return f"{n} {thing}{plural(n)}"


def mines_do_not_fit(mines: int, rows: int, cols: int) -> str:
    """Return the start of the message for more mines than a board can hold.

    Examples
    --------
    >>> mines_do_not_fit(1, 3, 3)
    '1 mine does not fit on a 3x3 board'
    >>> mines_do_not_fit(80, 9, 9)
    '80 mines do not fit on a 9x9 board'
    """
    return f"{count(mines, 'mine')} {'does' if mines == 1 else 'do'} not fit on a {rows}x{cols} board"


def fill(name: str, **values) -> str:
    """Return template `name` with its ``{fields}`` filled from `values`.

    A phrase with a count (a field ``x_s`` in English) takes the form for the value ``x``.

    Examples
    --------
    >>> fill("digit", step=3, where="(0, 1)", mines=2, value="2")
    'step 3: (0, 1) has 2 adjacent mines, so it becomes 2'
    """
    return TEMPLATES[name].format(**values)


def caption(t, k: int) -> str:
    """Say in words what happens at step `k` of trace `t`.

    Examples
    --------
    >>> import msviz
    >>> t = msviz.trace(["EEE", "EEM"], (0, 0), order="bfs")
    >>> caption(t, 0)
    'step 0: (0, 0) has no adjacent mines, so it becomes B; 3 neighbours queued; queue holds 3'
    >>> caption(t, 1)
    'step 1: (0, 1), reached from (0, 0), has 1 adjacent mine, so it becomes 1; queue holds 2'
    """
    if t.written is not None:
        return write_caption(t, k)
    click = f"({t.click[0]}, {t.click[1]})"
    if len(t) == 0:
        return fill("nothing", click=click)
    if k < 0:
        return fill("before", click=click)
    v = t.visit(k)
    if v.parent is None:
        where = fill("cell", row=v.row, col=v.col)
    else:
        where = fill("reached", row=v.row, col=v.col, parent_row=v.parent[0], parent_col=v.parent[1])
    if v.value == "X":
        return fill("mine", step=k, where=where)
    if v.value == "B":
        said = fill("blank", step=k, where=where)
        if t.order == "bfs":
            said += fill("bfs_children", children=int(t.children[k]))
        else:
            hidden = int(t.hidden_around[k])
            said += fill("dfs_children", hidden=hidden) if hidden else fill("dfs_no_children")
    else:
        said = fill("digit", step=k, where=where, mines=int(v.value), value=v.value)
    return said + fill(f"{t.order}_frontier", frontier=v.frontier)


def write_caption(t, k: int) -> str:
    """Say in words what a student's run (a `Trace` with `written`) does at write `k`.

    Only what the recording saw: the cell, the symbol, whether the cell was
    written before, and the stack depth when the code called itself.

    Examples
    --------
    >>> from msviz.trace import trace_of_writes
    >>> t = trace_of_writes(["EE"], (0, 0), [(0, 0, "#", 0), (0, 1, "1", 1), (0, 0, "B", 0)])
    >>> write_caption(t, 0)
    'write 0: your code writes a mark in (0, 0), drawn hidden; 1 of your calls on the stack'
    >>> write_caption(t, 2)
    'write 2: your code writes B in (0, 0); written before, it held a mark; 1 of your calls on the stack'
    """
    if len(t) == 0:
        return fill("wrote_nothing")
    click = f"({t.click[0]}, {t.click[1]})"
    if k < 0:
        return fill("before", click=click)
    row, col, value = int(t.row[k]), int(t.col[k]), str(t.written[k])
    name = "write_mark" if value == "E" else "write"
    said = fill(name, step=k, row=row, col=col, value=value)
    earlier = [j for j in range(k) if t.row[j] == row and t.col[j] == col]
    if earlier:
        before = str(t.written[earlier[-1]])
        said += fill("write_same" if before == value else "write_again", before=_symbol(before))
    if t.depth.any():  # the code called itself: the recording saw its stack
        said += fill("write_depth", frames=int(t.depth[k]) + 1)
    return said


def _symbol(value: str) -> str:
    """A written symbol in a caption: itself, or "a mark" for one drawn hidden."""
    return fill("a_mark") if value == "E" else value


def event_caption(t, e: int) -> str:
    """Say in words what happens at event `e` of trace `t`'s finer timeline.

    Examples
    --------
    >>> import msviz
    >>> t = msviz.trace(["EEE", "EEM"], (0, 0))
    >>> import textwrap
    >>> print(textwrap.fill(event_caption(t, 0), 88))
    event 0: reveal(0, 0) is called: it has no adjacent mines, so it becomes B; it will call
    reveal on its 3 hidden neighbours, one after another (those still hidden when their turn
    comes); 1 call on the stack
    >>> print(textwrap.fill(event_caption(t, 2), 88))
    event 2: reveal(0, 1) returns to reveal(0, 0), which goes on with its next neighbour; 1
    call on the stack
    """
    if t.written is not None:  # one event a write
        return write_caption(t, e)
    click = f"({t.click[0]}, {t.click[1]})"
    if t.events == 0:
        return fill("nothing", click=click)
    if e < 0:
        return fill("before", click=click)
    event = t.event(e)
    k, row, col = event.step, event.row, event.col
    p = int(t.parent_step[k])
    parent = {} if p < 0 else {"parent_row": int(t.row[p]), "parent_col": int(t.col[p])}
    value = str(t.final[row, col])
    waiting = len(t.waiting_at_event(e))
    if event.label == "call":
        said = fill("event_call", event=e, row=row, col=col, by=fill("event_by", **parent) if parent else "")
        if value == "X":
            said += fill("event_call_mine")
        elif value == "B":
            said += fill("event_call_blank")
            hidden = int(t.hidden_around[k])  # a call is its cell's visit
            said += fill("dfs_children", hidden=hidden) if hidden else fill("dfs_no_children")
        else:
            said += fill("event_call_digit", mines=int(value), value=value)
        return said + fill("event_stack", frontier=waiting)
    if event.label == "return":
        if not parent:
            return fill("event_return_last", event=e, row=row, col=col)
        return fill("event_return", event=e, row=row, col=col, **parent) + fill(
            "event_stack", frontier=waiting
        )
    if event.label == "enqueue":
        return fill("event_enqueue", event=e, row=row, col=col) + fill("event_queue", frontier=waiting)
    said = fill("event_dequeue", event=e, row=row, col=col)
    if value == "X":
        said += fill("event_dequeue_mine")
    elif value == "B":
        said += fill("event_dequeue_blank")
    else:
        said += fill("event_dequeue_digit", mines=int(value), value=value)
    return said + fill("event_queue", frontier=waiting)


# ---- the quiz: predict the next cell --------------------------------------------


def quiz_rule(order: str) -> str:
    """Say which guesses count in `order`: the exact next call (DFS), or any cell of the next layer (BFS).

    Examples
    --------
    >>> quiz_rule("dfs")
    'Depth-first: click the exact cell the next call reveals.'
    """
    if order not in ORDER_NAMES:
        raise ValueError(f"order must be one of {sorted(ORDER_NAMES)}, not {order!r}")
    return fill(f"quiz_rule_{order}")


#: The verdicts that count as right: the next cell, a cell of its layer (BFS), the call that goes on.
QUIZ_RIGHT = frozenset({"quiz_right", "quiz_layer", "quiz_return_right"})
#: The verdicts on a click that cannot be an answer (not counted as a try).
QUIZ_NOT_A_TRY = frozenset({"quiz_revealed", "quiz_return_hidden"})


def quiz_asks_return(t, k: int) -> bool:
    """Whether, depth-first, the call of step `k` returns before the next call is made.

    The quiz then asks a question of its own before the next call's: whose
    call goes on (the top call with a hidden neighbour left, found by
    returning down the stack). Breadth-first it never does.

    Examples
    --------
    >>> import msviz
    >>> t = msviz.trace(["EEE", "EEM"], (0, 0))  # (0, 0) calls (0, 1), which is a digit
    >>> [quiz_asks_return(t, k) for k in range(len(t) - 1)]
    [False, True, False]
    """
    return t.order == "dfs" and 0 <= k < len(t) - 1 and int(t.parent_step[k + 1]) != k


def quiz_judge(t, k: int, row: int, col: int, *, returning: bool = False) -> str:
    """Judge the guess that (row, col) is revealed next, while step `k` of trace `t` is shown.

    Return the name of the verdict's template: ``"quiz_right"`` (the cell of
    step ``k + 1``), ``"quiz_layer"`` (BFS: another hidden cell of the same
    layer, which counts too), ``"quiz_wrong_dfs"`` or ``"quiz_wrong_bfs"``, or
    ``"quiz_revealed"`` (the cell is already uncovered: not counted as a try).

    With `returning` (see :func:`quiz_asks_return`) the guess is instead the
    call that goes on after step `k` returns: ``"quiz_return_right"`` (the
    caller of step ``k + 1``), ``"quiz_return_wrong"``, or
    ``"quiz_return_hidden"`` (a hidden cell, not a call: not counted).

    Examples
    --------
    >>> import msviz
    >>> t = msviz.trace(["EEE", "EEM"], (0, 0), order="bfs")
    >>> [quiz_judge(t, 0, *cell) for cell in [(0, 1), (1, 1), (0, 2), (0, 0)]]
    ['quiz_right', 'quiz_layer', 'quiz_wrong_bfs', 'quiz_revealed']
    >>> t = msviz.trace(["EEE", "EEM"], (0, 0))
    >>> [quiz_judge(t, 1, *cell, returning=True) for cell in [(0, 0), (0, 1), (1, 1)]]
    ['quiz_return_right', 'quiz_return_wrong', 'quiz_return_hidden']
    """
    rows, cols = t.shape
    if not (-1 <= k < len(t) - 1):
        raise ValueError(f"step {k} has no next step to guess: the reveal has steps 0 to {len(t) - 1}")
    if not (0 <= row < rows and 0 <= col < cols):
        raise ValueError(f"cell {(row, col)!r} is outside the {rows}x{cols} board")
    s = int(t.step_map[row, col])  # the step that reveals the cell guessed, -1 for none
    hidden = t.board[row, col] in ("E", "M") and not 0 <= s <= k
    if returning:
        if not quiz_asks_return(t, k):
            raise ValueError(f"the call of step {k} does not return before the next call")
        if hidden:
            return "quiz_return_hidden"
        return "quiz_return_right" if s == t.parent_step[k + 1] else "quiz_return_wrong"
    if not hidden:
        return "quiz_revealed"
    if s == k + 1:
        return "quiz_right"
    if t.order == "dfs":
        return "quiz_wrong_dfs"
    return "quiz_layer" if s >= 0 and t.depth[s] == t.depth[k + 1] else "quiz_wrong_bfs"


def quiz_verdict(t, k: int, row: int, col: int, *, returning: bool = False) -> str:
    """Say what the quiz tells a student who guesses (row, col) while step `k` of `t` is shown
    (`returning`: the call that goes on after step `k` returns; see :func:`quiz_judge`).

    Examples
    --------
    >>> import msviz
    >>> t = msviz.trace(["EEE", "EEM"], (0, 0), order="bfs")
    >>> quiz_verdict(t, 0, 1, 1)
    'Right: (1, 1) is in the same layer; the queue takes (0, 1) first.'
    >>> t = msviz.trace(["EEE", "EEM"], (0, 0))
    >>> quiz_verdict(t, 0, 1, 1)
    'Not this one: the next call goes to (0, 1).'
    >>> quiz_verdict(t, 1, 0, 1, returning=True)
    'Not this one: the calls return to (0, 0), the top call with a hidden neighbour left.'
    """
    kind = quiz_judge(t, k, row, col, returning=returning)
    answer = int(t.parent_step[k + 1]) if returning else k + 1
    return fill(kind, row=row, col=col, next_row=int(t.row[answer]), next_col=int(t.col[answer]))


def quiz_score(right: int, tries: int, *, over: bool = False, cut: bool = False) -> str:
    """Say the score: so far, or (`over`) at the end of the quiz, which is the end of the
    reveal unless the quiz asks fewer questions (`cut`).

    Examples
    --------
    >>> quiz_score(2, 3), quiz_score(1, 1, over=True)
    ('Score: 2 of 3.', 'The reveal is over: you predicted 1 of 1 step.')
    >>> quiz_score(5, 8, over=True, cut=True)
    'That was the last question: you predicted 5 of 8 steps.'
    """
    return fill(("quiz_done" if cut else "quiz_over") if over else "quiz_score", right=right, tries=tries)


#: Be the computer's widget (`msviz.simulate`): every word it shows, filled in Python and sent to the
#: browser (its title, the rule, the queue or stack strip, the buttons and keys, verdicts and score).
#: The verdicts' reasons are `SIMULATE`'s.
SIMULATE_VIEW = Phrases(
    "simulate_view",
    {
        "title": "Be the computer: {order}",
        "title_model": "The model answer: {order}",
        "rule_bfs": "Carry out the breadth-first reveal by hand. Take the queue's front (click it), say what"
        " it"
        " shows (B for a blank, or its digit), and for a blank put its hidden neighbours into the queue"
        " (click each).",
        "rule_dfs": "Carry out the recursive depth-first reveal by hand. Call reveal on the next cell (click"
        " it),"
        " say what it shows (B for a blank, or its digit), and return when a call has nothing left to do.",
        "neighbours_reading": " Neighbours are tried in reading order: the row above left to right, then"
        " left,"
        " right, then the row below.",
        "neighbours_any": " Neighbours may be tried in any order.",
        "neighbours_given": " Neighbours are tried in this order of (row, column) offsets: {order}.",
        "queue": "The queue, front first ({n}):",
        "stack": "The calls on the stack, from the click's up ({n}):",
        "empty": "empty",
        "choices": "What the cell shows, and the operations",
        "say_blank": "Say: blank (B or 0)",
        "say_digit": "Say: {value} (key {value})",
        "say_mine": "Say: a mine (X)",
        "back": "Return",
        "back_name": "Return: the call on top has nothing left to do (R)",
        "undo": "Undo",
        "undo_name": "Undo the last operation (U)",
        "keys_bfs": "Keys: the arrows move a cursor over the board, Enter or Space clicks its cell; B or 0"
        " says"
        " blank, 1 to 8 a digit, X a mine; U or Backspace undoes; Escape leaves the board.",
        "keys_dfs": "Keys: the arrows move a cursor over the board, Enter or Space clicks its cell; B or 0"
        " says"
        " blank, 1 to 8 a digit, X a mine; R returns; U or Backspace undoes; Escape leaves the board.",
        "start": "Your first operation?",
        "right": "Right: {reason}.",
        "wrong": "Wrong: {reason}. Instead: {done}.",
        "not_counted": " (Not counted: only a step's first try counts.)",
        "refused": "Not an operation: {why}. Nothing is counted.",
        "uncovered": "{cell} is uncovered already",
        "being_revealed": "{cell} is being revealed: say what it shows",
        "not_a_message": "the browser sent {what}, which is not an operation",
        "off_board": "cell ({row}, {col}) is outside the {rows}x{cols} board",
        "undone": "Undone: {done}. A step keeps its first try.",
        "nothing_to_undo": "Nothing to undo.",
        "score": "{right} of {tried} step{tried_s} right at the first try.",
        "score_over": "Done: {right} of {steps} step{steps_s} right at the first try. The model answer now"
        " plays on the board, the algorithm's own operations one at a time; Undo goes back into your reveal.",
        "wrong_retry": "Not right: {reason}. Try again.",
        "noted": "Step {n} noted: nothing is judged until you press Done.",
        "score_end": "{tried} step{tried_s} done. Press Done when your reveal is over.",
        "judged": "Judged: {right} of {steps} step{steps_s} right at the first try.",
        "first_wrong": " {kind}: first wrong at step {step}: {reason}.",
        "done": "Done",
        "done_name": "Done: judge my reveal (D)",
        "done_only_at_end": "Done is for the end mode, where nothing is judged until the end",
        "model": "Model answer",
        "model_name": "Model answer: the algorithm's own reveal (M)",
        "model_warning": "The model answer ends this attempt's credit: no later step counts. Press Model"
        " answer again to see it, or go on.",
        "model_playing": "The model answer plays on the board. This attempt's credit has ended.",
        "credit_ended": " This attempt's credit ended when the model answer was asked for.",
        "new": "New board",
        "new_name": "New board: another attempt on another board (N)",
        "new_attempt": "Attempt {attempt}: a new board. Your first operation?",
        "keep": "Keep this line in a cell of your notebook: run, it does this attempt again.",
        "keys_model": " M plays the model answer.",
        "keys_done": " D: Done, judge the reveal.",
        "keys_new": " N draws a new board.",
    },
)

__all__ += ["SIMULATE_VIEW", "simulate_fill"]


def simulate_fill(name: str, **values) -> str:
    """Return phrase `name` of `SIMULATE_VIEW` with its ``{fields}`` filled (``x_s``: the count x's form).

    Examples
    --------
    >>> simulate_fill("score", right=3, tried=4)
    '3 of 4 steps right at the first try.'
    """
    return SIMULATE_VIEW[name].format(**values)


#: An exported page (`msviz.export.page_html`) and the titles of a GIF's or a PNG's frames.
PAGE = Phrases(
    "page",
    {
        "title": "{orders} reveal from {click}",
        "versus": "{first} vs {second}",
        "keys": "Keys: left/right one step, Home/End first/last, space play/pause (click a board first)."
        " The board cannot be edited here: a page has no Python to work out a new reveal; in the notebook,"
        ' the player\'s "Edit the board" does it. Made with msviz.',
        "frame_nothing": "{order}: nothing to reveal",
        "frame_dfs": "{order} step {step} / {last}   stack {waiting}",
        "frame_bfs": "{order} step {step} / {last}   queue {waiting}",
        # The lesson as a website (msviz.site), and a practice played in a page with no kernel.
        "site_title": "Minesweeper's reveal, depth-first and breadth-first: the lesson",
        "site_intro": "Each notebook of the lesson, run once and saved as a page: its boards play in the"
        " browser, with nothing to install and no network. Answers given in these pages are practice;"
        " marks come from the notebooks run in Jupyter.",
        "site_notebook": "the notebook",
        "practice": "Practice: the answers are in this page, so nothing you answer here is marked."
        " Marks come from the notebook run in Jupyter, with Python.",
    },
)

#: The charts (`msviz.plot`): titles, axis labels, colour bars and legends.
PLOT = Phrases(
    "plot",
    {
        "step_revealed": "step revealed",
        "visit_order": "{order} visit order ({n} step{n_s})",
        "layer": "distance from the click (layer)",
        "depth": "recursion depth",
        "map_title": "{order}: {label}",
        "difference": "{dfs} step − {bfs} step",
        "differ": "where the orders differ",
        "frontier_dfs": "{order} stack",
        "frontier_bfs": "{order} queue",
        "waiting": "cells waiting",
        "waiting_title": "{names}: cells waiting",
        "size_title": "{name} size",
        "step": "step",
        "distance": "distance from the click (king moves)",
        "step_vs_distance": "visit step against distance",
        # The grader's pictures of a failure.
        "could_not_draw": "{name}\n(could not draw: {error})",
        "case": "{name}: click {click}",
        "an_order": "a {order} order",
        "your_order": "your order:\n{name}",
        "expected": "expected",
        "your_answer": "your answer:\n{name}",
    },
)

#: A worksheet for paper (`msviz.worksheet`).
WORKSHEET = Phrases(
    "worksheet",
    {
        "title": "Minesweeper: in which order are the cells revealed?",
        "answer_key": "Answer key. {title}",
        "number_them": "{name}: write 0 in the clicked cell (ringed: step 0), then number the\n"
        "cells 1, 2, 3, ... in the order they are revealed. Mines are the black discs.",
        "numbered": "{name}: the step each cell is revealed at (small: the symbol it gets)",
        "cell": "cell",
        "neighbours": "neighbours are tried\nin this order",
        "pdf_only": "a worksheet is a PDF, so the file must end in .pdf",
    },
)

__all__ += ["PAGE", "PLOT", "WORKSHEET", "versus"]


def versus(names) -> str:
    """Say `names` (two or more) one against the next: ``"DFS vs BFS"``.

    Examples
    --------
    >>> versus(["DFS", "BFS"]), versus(["DFS"])
    ('DFS vs BFS', 'DFS')
    """
    names = list(names)
    said = names[0]
    for name in names[1:]:
        said = PAGE["versus"].format(first=said, second=name)
    return said
