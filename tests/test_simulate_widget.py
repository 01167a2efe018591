"""Be the computer's widget (`msviz.simulate`), headless: the kernel's side.

Each operation, made by a method from Python or by a message as the browser sends it, is
judged by the engine (`msviz.Simulation`) and shown in the traits the browser reads: the
board's arrays (the symbols said, the queue's or the stack's events), and `by_hand` (the
queue or stack, the verdict, the score, the buttons and keys). Anything from the browser
that is not an operation is refused with its reason, counts for nothing and never raises.
What the browser draws of these traits is tested in tests/browser/test_simulate_in_chromium.py.
"""

import numpy as np
import pytest

pytest.importorskip("anywidget")

import msviz  # noqa: E402
from msviz.simulation import Simulation, model  # noqa: E402
from msviz.viewstate import TRAITS  # noqa: E402
from msviz.widgets import Simulate, carried_out  # noqa: E402
from msviz.words import SIMULATE, simulate_fill  # noqa: E402

BOARD = msviz.random_board(6, 6, 6, seed=1, safe=(3, 3))
CLICK = (3, 3)
SYMBOLS = "EMB12345678X"


def operate(target, name, value):
    """Carry out operation `name` on a widget or an engine."""
    return target.back() if name == "back" else getattr(target, name)(value)


def wrong_instead(sim: Simulation, name: str, value):
    """A wrong operation in place of the right one (`name`, `value`), or None where there is none handy."""
    if name == "say":
        return ("say", "1" if value != "1" else "2")
    if name == "take" and len(sim.queue_) > 1:
        return ("take", sim.queue_[1])
    if name == "queue" and len(sim.pending) > 1:
        return ("queue", sim.pending[1])
    if name == "call" and sim.stack:
        return ("back", None)
    if name == "back":
        hidden = [c for c in sim.symbols if sim.symbols[c] != "X" and c not in sim.revealed]
        return ("call", hidden[0]) if hidden else None
    return None


def script(order: str) -> list:
    """The operations of a whole simulation on BOARD: the algorithm's, with a wrong one every fifth."""
    sim = Simulation(BOARD, CLICK, order=order)
    ops = []
    while not sim.over:
        right = sim.expected()
        wrong = wrong_instead(sim, *right) if len(ops) % 5 == 2 else None
        ops.append(wrong or right)
        operate(sim, *ops[-1])
    return ops


def shown_board(w) -> np.ndarray:
    """The symbols the view is sent for each cell (`final`): a cell's own once said, else as it was."""
    return np.array(list(SYMBOLS))[np.frombuffer(w.final, np.uint8)].reshape(w.rows, w.cols)


def waiting_of_the_arrays(w) -> list:
    """The queue (front first) or the stack (from the click up) that the view reads from its events."""
    cells = [divmod(int(i), w.cols) for i in np.frombuffer(w.step_cell, "<i4")]
    labels = np.frombuffer(w.event_label, np.uint8).tolist()
    if w.order == "bfs":
        return cells[labels.count(3) : labels.count(2)]  # enqueued (2) and not yet dequeued (3)
    stack, k = [], 0
    for label in labels:  # a call (0) is the next step; a return (1) takes the top off
        if label == 0:
            stack.append(cells[k])
            k += 1
        else:
            stack.pop()
    return stack


@pytest.mark.parametrize("order", ["bfs", "dfs"])
def test_each_method_returns_the_engines_verdict_and_the_traits_show_the_engines_state(order):
    w = msviz.simulate(BOARD, CLICK, order=order)
    engine = Simulation(BOARD, CLICK, order=order)
    assert w.by_hand["verdict"] == simulate_fill("start") and w.by_hand["tried"] == 0
    wrong = 0
    for n, (name, value) in enumerate(script(order), start=1):
        step, expected = operate(w, name, value), operate(engine, name, value)
        assert step == expected  # the same Step: right, reason, counted, done
        wrong += not step.right
        said = w.by_hand
        start = "Right: " if step.right else "Wrong: "
        assert said["verdict"].startswith(start + step.reason) and said["kind"] == (
            "right" if step.right else "wrong"
        )
        assert (said["right"], said["tried"], said["answered"]) == (engine.right, engine.tried, n)
        assert w.score == (engine.right, engine.tried)
        if engine.over:
            break
        waiting = list(engine.queue_) if order == "bfs" else engine.stack
        assert said["waiting"] == [list(c) for c in waiting] == [list(c) for c in waiting_of_the_arrays(w)]
        assert said["current"] == (None if engine.current is None else list(engine.current))
        assert said["score"] == simulate_fill("score", right=engine.right, tried=engine.tried)
        board = np.array(BOARD)
        for cell, symbol in engine.revealed.items():
            board[cell] = symbol
        assert (shown_board(w) == board).all()  # a cell shows its symbol once said, and not before
        assert w.step == len(w.event_label) - 1 and w.mode == "events" and w.trace is None
    assert engine.over and w.over and wrong >= 5
    steps = model(engine).step
    assert w.by_hand["score"] == simulate_fill("score_over", right=engine.right, steps=steps)
    assert w.by_hand["score"].startswith(f"Done: {steps - wrong} of {steps} steps right at the first try.")


def test_a_wrong_operation_says_why_and_what_was_done_instead():
    w = msviz.simulate(["EEE", "EEM"], (0, 0), order="dfs")
    w.call((0, 0))
    step = w.say("2")
    assert (step.right, step.done) == (False, ("say", "B"))
    assert (
        w.by_hand["verdict"] == "Wrong: (0, 0) shows B, not 2: no mine is around it. Instead: (0, 0) shows B."
    )
    step = w.back()  # too early: (0, 0) still calls its hidden neighbours
    assert not step.right and step.done == ("call", (0, 1))
    assert w.by_hand["verdict"].endswith("Instead: the reveal calls itself on (0, 1).")
    assert w.by_hand["waiting"] == [[0, 0], [0, 1]] and w.by_hand["current"] == [0, 1]


def test_a_message_from_the_browser_is_judged_as_the_same_call_from_python():
    for order in ("bfs", "dfs"):
        by_python = msviz.simulate(BOARD, CLICK, order=order)
        by_browser = msviz.simulate(BOARD, CLICK, order=order)
        for name, value in script(order):
            step = operate(by_python, name, value)
            if name in ("take", "queue", "call"):  # what a click on the cell sends (board.js)
                message = {"event": "click", "row": value[0], "col": value[1]}
            else:  # what a button or a key sends (simulate.js)
                message = {"event": "operation", "name": name, "value": value}
            by_browser._handle_message(by_browser, message, [])
            assert by_browser.by_hand == by_python.by_hand, (order, name, value, step)
            for trait in ("final", "step_cell", "event_label", "step", "generation", "controls"):
                assert getattr(by_browser, trait) == getattr(by_python, trait), trait
        for w in (by_python, by_browser):  # undo, as the button sends it
            w._handle_message(w, {"event": "operation", "name": "undo", "value": None}, [])
        assert by_browser.by_hand == by_python.by_hand and by_browser.by_hand["kind"] == "undone"
        assert by_python.error == by_browser.error == ""


def test_a_click_is_the_operation_it_can_be():
    w = msviz.simulate(["EEE", "EEM"], (0, 0), order="bfs")
    click = {"event": "click", "row": 0, "col": 0}
    w._handle_message(w, click, [])  # the queue's front: taken
    assert w.simulation.current == (0, 0) and w.by_hand["kind"] == "right"
    w._handle_message(w, {"event": "operation", "name": "say", "value": "B"}, [])
    w._handle_message(w, {"event": "click", "row": 1, "col": 0}, [])  # hidden, not queued: queued
    assert w.by_hand["kind"] == "wrong" and "(1, 0) comes later" in w.by_hand["verdict"]
    assert w.by_hand["waiting"] == [[0, 1]]  # set right: (0, 1) was queued first
    w._handle_message(w, {"event": "click", "row": 0, "col": 1}, [])  # in the queue now: a take, too early
    assert "first queue the blank's hidden neighbours, starting with (1, 0)" in w.by_hand["verdict"]


BAD = [
    ({"event": "click", "row": 9, "col": 0}, "cell (9, 0) is outside the 6x6 board"),
    ({"event": "click", "row": -1, "col": 2}, "cell (-1, 2) is outside the 6x6 board"),
    ({"event": "click", "row": True, "col": 0}, "which is not an operation"),
    ({"event": "click", "row": "1", "col": 0}, "which is not an operation"),
    ({"event": "click"}, "which is not an operation"),
    ("nonsense", "the browser sent 'nonsense', which is not an operation"),
    (None, "the browser sent None, which is not an operation"),
    ([1, 2, 3], "which is not an operation"),
    ({"event": "operation", "name": "explode"}, "which is not an operation"),
    (
        {"event": "operation", "name": "say", "value": "Q"},
        "say what the cell shows: B or a digit 1-8, not 'Q'",
    ),
    ({"event": "operation", "name": "say", "value": 3}, "which is not an operation"),
    ({"event": "operation", "name": "say", "value": ["B"] * 100_000}, "which is not an operation"),
    (
        {"event": "operation", "name": "take", "value": [0, 0]},
        "take is not an operation of this reveal (dfs)",
    ),
    ({"event": "operation", "name": "call", "value": [0, 99]}, "cell (0, 99) is outside the 6x6 board"),
    ({"event": "operation", "name": "call", "value": "0,0"}, "which is not an operation"),
    ({"event": "flag", "row": 3, "col": 3.5}, "which is not an operation"),
    ({"event": "operation", "name": "__init__", "value": None}, "which is not an operation"),
]


@pytest.mark.parametrize("message, why", BAD, ids=[str(i) for i in range(len(BAD))])
def test_bad_input_from_the_browser_is_refused_with_its_reason_not_counted_and_never_raises(message, why):
    w = msviz.simulate(BOARD, CLICK, order="dfs")
    w.call(CLICK)
    before = (w.score, w.final, w.event_label, carried_out(w.simulation), w.simulation.expected())
    w._handle_message(w, message, [])
    said = w.by_hand
    assert said["kind"] == "refused" and said["answered"] == 2
    assert said["verdict"].startswith("Not an operation: ") and said["verdict"].endswith(
        "Nothing is counted."
    )
    assert why in said["verdict"] and len(said["verdict"]) < 300  # the garbage is clipped
    assert (w.score, w.final, w.event_label, carried_out(w.simulation), w.simulation.expected()) == before
    assert w.error == ""


def test_a_cell_uncovered_or_being_revealed_and_any_cell_once_over_are_refused():
    w = msviz.simulate(["EEE", "EEM"], (0, 0), order="dfs")
    w.call((0, 0))
    w._handle_message(w, {"event": "click", "row": 0, "col": 0}, [])
    assert w.by_hand["verdict"] == simulate_fill("refused", why="(0, 0) is being revealed: say what it shows")
    w.say("B")
    w._handle_message(w, {"event": "click", "row": 0, "col": 0}, [])
    assert w.by_hand["verdict"] == simulate_fill("refused", why="(0, 0) is uncovered already")
    while not w.over:
        operate(w, *w.simulation.expected())
    tried = w.score
    w._handle_message(w, {"event": "click", "row": 1, "col": 2}, [])  # the mine, still hidden
    assert w.by_hand["verdict"] == simulate_fill("refused", why=SIMULATE["over"]) and w.score == tried
    with pytest.raises(ValueError, match="the reveal is over"):  # from Python, the engine's error
        w.call((1, 2))


def test_a_fault_inside_is_shown_under_the_board_and_not_raised(monkeypatch):
    w = msviz.simulate(BOARD, CLICK)

    def broken(*args):
        raise RuntimeError("the engine broke")

    monkeypatch.setattr(w.simulation, "take", broken)
    w._handle_message(w, {"event": "click", "row": 3, "col": 3}, [])
    assert "RuntimeError: the engine broke" in w.error and w.score == (0, 0)


def test_bad_calls_from_python_raise_the_engines_errors_and_change_nothing():
    w = msviz.simulate(BOARD, CLICK, order="bfs")
    for call, error in [
        (lambda: w.take((9, 9)), ValueError),
        (lambda: w.say("Q"), ValueError),
        (lambda: w.say(True), TypeError),
        (lambda: w.call((0, 0)), ValueError),
        (lambda: w.queue([(3, 2), (9, 9)]), ValueError),  # every cell checked before any is queued
    ]:
        with pytest.raises(error):
            call()
    assert w.score == (0, 0) and w.by_hand["answered"] == 0 and carried_out(w.simulation) == []


def test_queueing_several_cells_shows_the_first_wrong_one_as_the_engine_returns_it():
    w = msviz.simulate(["EEE", "EEM"], (0, 0), order="bfs")
    engine = Simulation(["EEE", "EEM"], (0, 0), order="bfs")
    for target in (w, engine):
        target.take((0, 0))
        target.say("B")
    cells = [(0, 1), (1, 1), (1, 0)]  # (1, 1) before (1, 0): a swapped pair, one wrong step
    step = w.queue(cells)
    assert step == engine.queue(cells) and not step.right and step.reason.startswith("(1, 1) comes later")
    assert w.by_hand["verdict"].startswith("Wrong: (1, 1) comes later") and w.score == (4, 5) == (
        engine.right,
        engine.tried,
    )
    assert w.by_hand["waiting"] == [[0, 1], [1, 0], [1, 1]] == [list(c) for c in engine.queue_]


def test_undo_goes_back_one_operation_and_out_of_the_model_answer():
    w = msviz.simulate(["EEE", "EEM"], (0, 0), order="dfs")
    assert not w.undo().right and w.by_hand["verdict"] == "Nothing to undo."
    w.call((0, 0))
    w.say("1")  # wrong
    step = w.undo()
    assert step.right and not step.counted and step.done == ("undo", ("say", "B"))
    assert w.by_hand["verdict"] == "Undone: (0, 0) shows B. A step keeps its first try."
    assert w.simulation.current == (0, 0) and shown_board(w)[0, 0] == "E" and w.by_hand["kind"] == "undone"
    assert not w.say("B").counted and w.score == (1, 2)
    assert w.by_hand["verdict"] == "Right: (0, 0) shows B. (Not counted: only a step's first try counts.)"
    while not w.over:
        operate(w, *w.simulation.expected())
    # The model answer: the algorithm's own reveal, played event by event with its code.
    t = w.trace
    assert t is not None and t.order == "dfs" and w.mode == "events" and w.step == 0
    assert w.controls and w.playing and w.keyboard and w.show_caption and w.code
    assert w.last_step == t.events - 1 and w.title == "The model answer: Depth-first (stack)"
    assert [b["send"]["name"] for b in w.by_hand["buttons"]] == ["undo"] and w.by_hand["over"]
    assert set(w.by_hand["keys"]) == {"u", "backspace"}
    w.undo()  # back into the simulation, before its last return
    assert w.trace is None and not w.controls and not w.playing and not w.keyboard and w.code == ""
    assert (
        not w.over and w.by_hand["waiting"] == [[0, 0]] and w.title == "Be the computer: Depth-first (stack)"
    )
    assert w.simulation.expected() == ("back", None)


@pytest.mark.parametrize("order", ["bfs", "dfs"])
def test_the_buttons_and_keys_are_the_operations_of_the_order(order):
    said = msviz.simulate(BOARD, CLICK, order=order).by_hand
    sent = [b["send"] for b in said["buttons"]]
    assert sent[:10] == [{"name": "say", "value": v} for v in ("B", *"12345678", "X")]
    assert sent[10:] == ([{"name": "back"}] if order == "dfs" else []) + [{"name": "undo"}, {"name": "model"}]
    assert all(b["label"] and b["text"] for b in said["buttons"])
    keys = said["keys"]
    assert keys["b"] == keys["0"] == {"name": "say", "value": "B"} and keys["7"] == {
        "name": "say",
        "value": "7",
    }
    assert ("r" in keys) == (order == "dfs") and keys["u"] == keys["backspace"] == {"name": "undo"}
    keys_text = simulate_fill(f"keys_{order}") + simulate_fill("keys_model")
    assert said["keys_text"] == keys_text and said["strip"].startswith(
        "The queue, front first (1):"
        if order == "bfs"
        else "The calls on the stack, from the click's up (0):"
    )
    assert "reading order" in said["rule"]
    assert "any order" in msviz.simulate(BOARD, CLICK, order=order, neighbors="any").by_hand["rule"]


def test_a_seed_gives_the_same_board_and_the_board_is_6_to_8_cells_a_side():
    first, again = msviz.simulate(seed=11), msviz.simulate(seed=11, order="dfs")
    assert (first.simulation.board, first.simulation.click) == (
        again.simulation.board,
        again.simulation.click,
    )
    assert msviz.simulate(seed="ada").simulation.board == msviz.simulate(seed="ada").simulation.board
    boards = {str(msviz.simulate(seed=s).simulation.board) for s in range(12)}
    assert len(boards) == 12
    for s in range(12):
        sim = msviz.simulate(seed=s).simulation
        assert 6 <= min(sim.shape) and max(sim.shape) <= 8 and 8 <= len(model(sim).revealed) <= 25
    assert isinstance(msviz.simulate(), Simulate)  # no seed: a board of its own


def test_bad_arguments_fail_at_the_call():
    for kwargs, error, words in [
        ({"seed": 1.5}, TypeError, "seed must be a name"),
        ({"seed": True}, TypeError, "seed must be a name"),
        ({"board": BOARD, "click": CLICK, "seed": 3}, TypeError, "give a board and a click, or a seed"),
        ({"click": CLICK}, TypeError, "a click needs its board"),
        ({"board": BOARD}, TypeError, "a board needs its click"),
        ({"board": BOARD, "click": (9, 9)}, ValueError, "outside"),
        ({"order": "xfs"}, ValueError, "order"),
        ({"max_cell": 0}, ValueError, "max_cell"),
    ]:
        with pytest.raises(error, match=words):
            msviz.simulate(**kwargs)


def test_it_is_one_board_view_with_the_traits_of_the_list_and_a_picture_for_pages_without_widgets():
    import anywidget

    w = msviz.simulate(BOARD, CLICK)
    assert isinstance(w, anywidget.AnyWidget) and set(TRAITS) <= set(w.keys) and "by_hand" in TRAITS
    assert not w.keyboard and not w.show_caption and not w.controls  # the caption would tell a cell's symbol
    data, _ = w._repr_mimebundle_()
    assert {"image/png", "text/html", "application/vnd.jupyter.widget-view+json"} <= set(data)
    before = w.picture()
    w.take(CLICK)
    assert not np.array_equal(before, w.picture())  # the picture is the simulation as it stands
    assert (
        "simulate" in dir(msviz) and "simulate" in msviz.__all__ and msviz.simulate is msviz.widgets.simulate
    )


def test_a_homework_sets_simulation_is_shown_and_carried_out_in_the_view():
    sims = msviz.simulation_set("ada", n=2)
    view = msviz.simulate(sims[0])
    assert view.simulation is sims[0]
    view.take(sims[0].click)
    assert sims[0].tried == 1 and sims.line(0) == f"sims.play(0, {sims[0].log!r})" and "t" in sims[0].log
    with pytest.raises(TypeError, match="a simulation has its own board and click"):
        msviz.simulate(sims[1], (0, 0))


# -- the feedback modes, the model answer, new attempts and the line to keep --------------------------


def test_retry_refuses_a_wrong_step_in_the_view_and_the_board_stays():
    w = msviz.simulate(["EEE", "EEM"], (0, 0), order="bfs", feedback="retry")
    w.take((0, 0))
    step = w.say("1")
    assert step.done is None and w.by_hand["kind"] == "retry"
    assert w.by_hand["verdict"] == "Not right: (0, 0) does not show 1: count the mines around it. Try again."
    assert shown_board(w)[0, 0] == "E" and w.simulation.current == (0, 0)
    assert w.say("B").right and w.score == (1, 2)


def test_end_says_nothing_until_done_then_marks_each_kinds_first_wrong_step():
    w = msviz.simulate(["EEE", "EEM"], (0, 0), order="bfs", feedback="end")
    w.take((0, 0))
    w.say("B")
    w.queue((1, 1))  # (0, 1) comes first: wrong, but nothing is said
    assert w.by_hand["kind"] == "noted" and "Wrong" not in w.by_hand["verdict"]
    assert [b["send"]["name"] for b in w.by_hand["buttons"]][-2:] == ["undo", "done"]
    while not w.over:
        operate(w, *w.simulation.expected())
    w._handle({"event": "operation", "name": "done", "value": None})
    said = w.by_hand["verdict"]
    assert (
        said.startswith("Judged: ") and "queueing a blank's hidden neighbours: first wrong at step 3" in said
    )
    assert w.by_hand["marks"] == [1 * 3 + 1] and w.trace is None  # the student's own board, (1, 1) marked


def test_the_model_answer_is_warned_of_then_plays_and_ends_the_credit():
    w = msviz.simulate(BOARD, CLICK, order="dfs")
    w.call(CLICK)
    assert not w.model_answer() and w.by_hand["kind"] == "warned" and w.trace is None
    assert "ends this attempt's credit" in w.by_hand["verdict"]
    w._handle({"event": "operation", "name": "model", "value": None})
    assert w.trace is not None and w.playing and w.simulation.credit_ended
    w.say(w.simulation.expected()[1])  # back into the reveal: counted for nothing
    assert w.score == (1, 1) and "credit ended" in w.by_hand["score"]


def test_a_new_board_is_the_next_attempt_drawn_from_the_seed_by_click_and_key():
    w = msviz.simulate(seed="ada", order="bfs", feedback="retry")
    first = w.simulation.board
    w._handle({"event": "operation", "name": "new", "value": None})
    second = w.simulation
    assert second.attempt == 2 and second.board != first and second.feedback == "retry"
    assert w.by_hand["verdict"].startswith("Attempt 2") and w.score == (0, 0)
    again = msviz.simulate(seed="ada", order="bfs", feedback="retry")
    assert again.new().board == second.board  # the same seed and attempt: the same board
    assert w.by_hand["keys"]["n"] == {"name": "new"}
    assert "new" not in [b["send"]["name"] for b in msviz.simulate(BOARD, CLICK).by_hand["buttons"]]


def test_a_sets_simulation_shows_the_line_to_keep_under_the_sets_name(monkeypatch):
    import sys
    import types

    from msviz.simulation import simulation_set

    notebook = types.ModuleType("__main__")
    homework = simulation_set("ada", n=2, feedback="retry")
    notebook.homework = homework
    monkeypatch.setitem(sys.modules, "__main__", notebook)
    w = msviz.simulate(homework[1])
    w.call(w.simulation.click)
    line = w.by_hand["line"]
    assert line.startswith("homework.play(1, 'retry:1 c") and w.by_hand["keep"]
    w.new()
    assert w.by_hand["line"].startswith("homework.play(1, 'retry:2") and homework[1] is w.simulation
    fresh = simulation_set("ada", n=2, feedback="retry")
    exec(w.by_hand["line"], {"homework": fresh})
    assert fresh[1].attempt == 2 and fresh[1].board == w.simulation.board
    monkeypatch.setitem(sys.modules, "__main__", types.ModuleType("__main__"))
    assert w.line.startswith("sims.play(1, ") and msviz.simulate(BOARD, CLICK).by_hand["line"] == ""


def test_the_end_modes_own_steps_are_drawn_as_the_student_made_them():
    w = msviz.simulate(["EEEE", "EEEE", "EEEM"], (0, 0), order="bfs", feedback="end")
    w.take((0, 0))
    w.say("B")
    for cell in [(0, 1), (1, 0), (1, 1)]:
        w.queue(cell)
    w.take((1, 1))  # not the front: carried out as given
    w.say("1")
    w.queue((1, 0))  # queued already: carried out as given
    assert w.error == "" and w.simulation.current is None
    assert carried_out(w.simulation)[-3:] == [("take", (1, 1)), ("say", "1"), ("queue", (1, 0))]
    assert w.by_hand["waiting"] == [[0, 1], [1, 0], [1, 0]]
    w.take((0, 1))
    w.say("B")  # said of a cell that is a blank: its hidden neighbours are the student's to queue
    assert w.error == "" and carried_out(w.simulation)[-1] == ("say", "B")


def test_the_end_modes_queue_is_shown_by_the_strip_alone():
    w = msviz.simulate(["EEEE", "EEEE", "EEEM"], (0, 0), order="bfs", feedback="end")
    assert not w.show_frontier and w.by_hand["waiting"] == [[0, 0]]
    w.take((0, 0))
    assert not w.show_frontier and w.by_hand["waiting"] == []
    assert msviz.simulate(["EEEE", "EEEE", "EEEM"], (0, 0), order="bfs").show_frontier
