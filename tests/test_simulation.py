"""Be the computer (msviz.simulation): a reveal carried out by hand, each operation judged at once."""

import random

import pytest

import msviz
from msviz.grade.order import order_bug
from msviz.simulation import Simulation
from msviz.traversal import LEETCODE_ORDER, READING_ORDER


def _boards(count: int, seed: int):
    """Small random boards with a click that opens a few cells (as a simulation would be set)."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        rows, cols = rng.randint(4, 8), rng.randint(4, 8)
        click = (rng.randrange(rows), rng.randrange(cols))
        board = msviz.random_board(
            rows, cols, rng.randint(1, (rows * cols - 9) // 2), seed=rng.randrange(10**6), safe=click
        )
        made += 1
        yield board, click


def _carry_out(sim: Simulation, name: str, value):
    return sim.back() if name == "back" else getattr(sim, name)(value)


def _play(sim: Simulation, choose=lambda allowed: allowed[0]) -> list:
    """Perform the algorithm's own operations (`choose` picks among the valid ones); the verdicts."""
    steps = []
    while not sim.over:
        steps.append(_carry_out(sim, *choose(sim.allowed())))
    return steps


def _board_after(sim: Simulation):
    board = [list(row) for row in sim.board]
    for (r, c), symbol in sim.revealed.items():
        board[r][c] = symbol
    return board


@pytest.mark.parametrize("order", ["bfs", "dfs"])
def test_the_algorithms_own_operations_score_full_marks_on_200_boards(order):
    reveal = msviz.dfs_reveal if order == "dfs" else msviz.bfs_reveal
    for board, click in _boards(200, seed=1 if order == "dfs" else 2):
        sim = Simulation(board, click, order=order)
        steps = _play(sim)
        assert all(s.right and s.counted for s in steps) and sim.score() == 1.0
        visits = list(reveal(board, click))
        assert list(sim.revealed) == [(v.row, v.col) for v in visits]
        assert _board_after(sim) == msviz.reveal(board, click)
        assert sim.board == msviz.parse_board(board)  # the board given is never changed


@pytest.mark.parametrize("order", ["bfs", "dfs"])
def test_any_neighbour_order_is_accepted_and_meets_the_graders_rule(order):
    rng = random.Random(7)
    for board, click in _boards(100, seed=3):
        sim = Simulation(board, click, order=order, neighbors="any")
        steps = _play(sim, choose=rng.choice)
        assert all(s.right for s in steps)
        after = _board_after(sim)
        assert after == msviz.reveal(board, click)
        writes = [(r, c, symbol, 0) for (r, c), symbol in sim.revealed.items()]
        rows = msviz.parse_board(board)
        assert order_bug(rows, click, after, writes, order, None, order == "dfs") is None


def _operations(board, click, order, neighbors) -> list:
    """The operations that make msviz's own reveal with `neighbors`, for a student to perform."""
    visits = list(
        (msviz.dfs_reveal if order == "dfs" else msviz.bfs_reveal)(board, click, neighbors=neighbors)
    )
    ops = []
    if order == "bfs":
        for v in visits:
            ops += [("take", (v.row, v.col)), ("say", v.value)]
            ops += [("queue", (w.row, w.col)) for w in visits if w.parent == (v.row, v.col)]
        return ops
    for v in visits:
        ops += [("back", None)] * (len(ops) and _depth(ops) - v.depth)
        ops += [("call", (v.row, v.col)), ("say", v.value)]
    return ops + [("back", None)] * _depth(ops)


def _depth(ops) -> int:
    return sum(1 if name == "call" else -1 if name == "back" else 0 for name, _ in ops)


@pytest.mark.parametrize("order", ["bfs", "dfs"])
def test_a_shuffled_neighbour_order_is_right_with_any_and_wrong_with_reading_order(order):
    shuffled = list(LEETCODE_ORDER)
    random.Random(5).shuffle(shuffled)
    differed = 0
    for board, click in _boards(60, seed=4):
        ops = _operations(board, click, order, shuffled)
        free = Simulation(board, click, order=order, neighbors="any")
        assert all(_carry_out(free, *op).right for op in ops) and free.over
        fixed = Simulation(board, click, order=order, neighbors=READING_ORDER)
        differed += not all(_carry_out(fixed, *op).right for op in ops if not fixed.over)
    assert differed > 10


def test_a_breadth_first_order_is_refused_in_a_depth_first_exercise():
    sim = Simulation(["EEEEE"] * 5, (2, 2), order="dfs", neighbors="any")
    for name, value in (("call", (2, 2)), ("say", "B"), ("call", (1, 1)), ("say", "B")):
        assert _carry_out(sim, name, value).right
    step = sim.call((3, 3))  # the click's other neighbour, as a queue would take it
    assert not step.right and step.counted
    assert (
        step.reason == "(3, 3) is not a hidden neighbour of (1, 1): depth-first goes on from the latest call"
    )
    assert sim.stack[-1] != (3, 3) and step.done[0] == "call"  # set right: a neighbour of (1, 1)


BOARD = ["EEEE", "EEEE", "EEEM", "EEEE"]


def _until(order, ready):
    """A simulation on BOARD played right until `ready(sim)`."""
    sim = Simulation(BOARD, (0, 0), order=order)
    while not ready(sim):
        assert _carry_out(sim, *sim.expected()).right
    return sim


def _last(sim):
    return next(reversed(sim.revealed))


def _hidden(sim):
    return next(
        c for c in sorted(sim.symbols) if c not in sim.revealed and c not in sim.queued and c != (2, 3)
    )


CASES = {
    "wrong next cell": (
        "bfs",
        lambda sim: sim.expected()[0] == "take" and len(sim.queue_) > 1,
        lambda sim: ("take", sim.queue_[1]),
        lambda sim: f"{_at(sim.queue_[1])} is not next: the queue's front is {_at(sim.queue_[0])}",
    ),
    "wrong digit": (
        "bfs",
        lambda sim: sim.expected() == ("say", "B"),
        lambda sim: ("say", "1"),
        lambda sim: f"{_at(sim.current)} shows B, not 1: no mine is around it",
    ),
    "a digit that queues": (
        "bfs",
        lambda sim: sim.expected()[0] == "take" and sim.revealed and sim.revealed[_last(sim)] != "B",
        lambda sim: ("queue", _hidden(sim)),
        lambda sim: f"{_at(_last(sim))} is a digit: a digit does not queue its neighbours",
    ),
    "queued twice": (
        "bfs",
        lambda sim: sim.expected()[0] == "queue" and sim.queue_,
        lambda sim: ("queue", sim.queue_[-1]),
        lambda sim: f"{_at(sim.queue_[-1])} is queued already: a cell goes into the queue once",
    ),
    "return too early": (
        "dfs",
        lambda sim: sim.expected()[0] == "call" and sim.stack,
        lambda sim: ("back", None),
        lambda sim: f"the call on {_at(sim.stack[-1])} is not done: it still calls {_at(sim.expected()[1])}",
    ),
    "a digit that calls on": (
        "dfs",
        lambda sim: sim.expected()[0] == "back" and sim.revealed[sim.stack[-1]] != "B",
        lambda sim: ("call", _hidden(sim)),
        lambda sim: f"{_at(sim.stack[-1])} is a digit: its call has nothing left to do, so it returns",
    ),
}


def _at(cell):
    return f"({cell[0]}, {cell[1]})"


@pytest.mark.parametrize("case", list(CASES))
def test_each_wrong_operation_is_caught_at_its_step_with_its_reason_then_set_right(case):
    order, ready, wrong, reason = CASES[case]
    sim, right_sim = _until(order, ready), _until(order, ready)
    before, expected, words = sim.tried, sim.expected(), reason(sim)
    step = _carry_out(sim, *wrong(sim))
    assert (step.right, step.reason, step.counted) == (False, words, True)
    assert step.done == expected
    _carry_out(right_sim, *expected)
    assert (sim.revealed, list(sim.queue_), sim.stack, sim.expected()) == (
        right_sim.revealed,
        list(right_sim.queue_),
        right_sim.stack,
        right_sim.expected(),
    )
    assert sim.right == before and sim.tried == before + 1


def test_undo_goes_back_without_a_second_try():
    sim = Simulation(BOARD, (0, 0), order="bfs")
    sim.take((0, 0))
    assert not sim.say("2").right and sim.tried == 2 and sim.right == 1
    assert sim.undo() and sim.expected() == ("say", "B")
    step = sim.say("B")
    assert step.right and not step.counted and (sim.right, sim.tried) == (1, 2)
    while sim.undo():
        pass
    assert sim.expected() == ("take", (0, 0)) and not sim.undo()


def test_bad_operations_are_refused_not_counted_and_the_board_is_left_alone():
    board = [list(row) for row in BOARD]
    sim = Simulation(board, (0, 0), order="dfs")
    with pytest.raises(ValueError, match="cell"):
        sim.call((9, 9))
    with pytest.raises(ValueError, match="take is not an operation of this reveal"):
        sim.take((0, 0))
    sim.call((0, 0))
    with pytest.raises(ValueError, match="B or a digit 1-8"):
        sim.say("Q")
    with pytest.raises(TypeError, match="B or a digit"):
        sim.say(True)
    assert sim.tried == 1 and board == [list(row) for row in BOARD]
    _play(sim)
    with pytest.raises(ValueError, match="the reveal is over"):
        sim.back()
    with pytest.raises(ValueError, match="neighbors"):
        Simulation(BOARD, (0, 0), neighbors=[(0, 0)])


def test_the_same_seed_gives_the_same_set_and_a_kept_line_earns_the_same_score():
    from msviz.simulation import model, simulation_set

    sims, again = simulation_set("ada", n=4), simulation_set("ada", n=2)
    assert [s.board for s in again.simulations] == [s.board for s in sims.simulations[:2]]
    assert [s.board for s in simulation_set("bob", n=2).simulations] != [s.board for s in again.simulations]
    for sim in sims.simulations:
        assert 5 <= min(sim.shape) and max(sim.shape) <= 8 and 8 <= len(model(sim).revealed) <= 25
    _play(sims[0])
    sims[1].call(sims[1].click)
    sims[1].say("7")  # wrong at its first try
    sims[1].undo()
    sims[1].say(sims[1].expected()[1])
    fresh = simulation_set("ada", n=4)
    for i in range(2):
        exec(sims.line(i), {"sims": fresh})
    assert (fresh.right, fresh.steps) == (sims.right, sims.steps)
    assert fresh.right == model(sims[0]).step + 1 and 0 < fresh.score() < 1


@pytest.mark.skipif(__import__("sys").platform != "linux", reason="the class command's limits are Linux's")
def test_the_class_command_grades_a_handed_in_set_by_its_kept_lines(tmp_path):
    from msviz.grade import classroom
    from msviz.simulation import play, simulation_set

    sims = simulation_set("ada", n=2)
    log = " ".join(_code(*op) for op in [sims[0].expected()])
    play(sims[0], log)
    (tmp_path / "ada.py").write_text(
        "from msviz.simulation import simulation_set\n"
        "sims = simulation_set('ada', n=2)\n"
        f"sims.play(0, {log!r})\n"
    )
    (tmp_path / "cheat.py").write_text(  # a set whose data claims every step right, with no operation
        "class Sims:\n"
        "    simulations = ()\n"
        "    def play(self, i, text): pass\n"
        "    def to_dict(self):\n"
        "        return {'seed': 'cheat', 'logs': ['', ''], 'right': 999, 'steps': 1, 'score': 1.0}\n"
        "sims = Sims()\n"
    )
    rows = {r.name: r for r in classroom.grade_class(classroom.find_submissions([tmp_path]))}
    assert rows["ada"].verdict == "wrong" and rows["ada"].points == round(sims.score(), 4) > 0
    assert "1 of" in rows["ada"].summary and rows["ada"].mistake == ""  # nothing wrong, just unfinished
    assert rows["cheat"].points == 0.0 and rows["cheat"].verdict == "wrong"


def _code(name, value):
    from msviz.simulation import _code as code

    return code(name, value)


def test_the_step_kinds_most_often_wrong_are_counted_for_the_class_page():
    from msviz.grade.homework import set_row
    from msviz.simulation import simulation_set

    sims = simulation_set("ben", n=2)
    first, second = sims[0], sims[1]
    first.take(first.click)
    first.say("8" if first.expected()[1] != "8" else "1")  # wrong: say
    second.call((0, 0) if second.click != (0, 0) else (1, 1))  # wrong: call
    second.say("8" if second.expected()[1] != "8" else "1")  # wrong: say
    assert sims.wrong_kinds() == {"say": 2, "call": 1}
    row = set_row(sims.to_dict(), 1.0)
    assert row["mistake"] == "simulation: most often wrong at saying what a cell shows"
    assert "wrong: saying what a cell shows (2), calling the next cell (1)" in row["summary"]


# -- the model answer's neighbour order, a swapped pair, the feedback modes, attempts, times ------------


def _shuffled(rng):
    order = list(LEETCODE_ORDER)
    rng.shuffle(order)
    return order


@pytest.mark.parametrize("order", ["bfs", "dfs"])
def test_the_model_answer_follows_the_simulations_neighbour_order_on_200_boards(order):
    from msviz.simulation import model

    rng = random.Random(11)
    reveal = msviz.dfs_reveal if order == "dfs" else msviz.bfs_reveal
    for board, click in _boards(200, seed=12 if order == "dfs" else 13):
        neighbours = _shuffled(rng)
        made = model(Simulation(board, click, order=order, neighbors=neighbours))
        assert list(made.revealed) == [(v.row, v.col) for v in reveal(board, click, neighbors=neighbours)]
        free = model(Simulation(board, click, order=order, neighbors="any"))
        first = Simulation(board, click, order=order, neighbors="any")
        _play(first)  # the first valid choice each time, as `expected` gives it
        assert list(free.revealed) == list(first.revealed)


@pytest.mark.parametrize("neighbours", ["reading", "shuffled"])
def test_a_swapped_pair_in_one_queue_costs_one_step_on_200_boards(neighbours):
    rng = random.Random(21)
    swapped = 0
    for board, click in _boards(200, seed=22 if neighbours == "reading" else 23):
        order = READING_ORDER if neighbours == "reading" else _shuffled(rng)
        sim = Simulation(board, click, order="bfs", neighbors=order)
        while not sim.over and not (sim.expected()[0] == "queue" and len(sim.pending) >= 2):
            _carry_out(sim, *sim.expected())
        if sim.over:
            continue
        first, second = sim.pending[:2]
        step = sim.queue([second, first])
        assert not step.right and (sim.tried - sim.right) == 1
        _play(sim)
        assert sim.tried - sim.right == 1 and _board_after(sim) == msviz.reveal(board, click)
        swapped += 1
    assert swapped > 100


@pytest.mark.parametrize("feedback", ["fix", "retry", "end"])
@pytest.mark.parametrize("order", ["bfs", "dfs"])
def test_in_each_mode_the_algorithms_own_operations_score_full_marks(feedback, order):
    for board, click in _boards(30, seed=31):
        sim = Simulation(board, click, order=order, feedback=feedback)
        steps = _play(sim)
        assert all(s.right is (None if feedback == "end" else True) for s in steps)
        assert sim.score() == 1.0 and _board_after(sim) == msviz.reveal(board, click)
        if feedback == "end":
            done = sim.finish()
            assert done["score"] == 1.0 and done["first_wrong"] == {} and sim.over


def test_retry_refuses_a_wrong_step_without_the_answer_and_counts_the_first_try_only():
    sim = Simulation(BOARD, (0, 0), order="bfs", feedback="retry")
    sim.take((0, 0))
    step = sim.say("1")
    assert (step.right, step.counted, step.done) == (False, True, None)
    assert step.reason == "(0, 0) does not show 1: count the mines around it" and "B" not in step.reason
    assert sim.current == (0, 0) and not sim.revealed  # nothing moved
    again = sim.say("B")
    assert again.right and not again.counted and (sim.right, sim.tried) == (1, 2)
    step = sim.queue((1, 1))  # (0, 1) comes first in reading order
    assert step.reason == "(1, 1) is not the next to queue: follow the neighbour order"
    assert "(0, 1)" not in step.reason and list(sim.queue_) == []
    _play(sim)
    assert sim.tried - sim.right == 2


def test_end_says_nothing_carries_out_the_students_own_steps_and_judges_at_done():
    sim = Simulation(BOARD, (0, 0), order="bfs", feedback="end")
    sim.take((0, 0))
    step = sim.say("2")  # wrong: (0, 0) is a blank; the student's own digit stands, nothing is queued
    assert (step.right, step.reason) == (None, "noted: judged when you press Done")
    assert sim.revealed == {(0, 0): "2"} and sim.over  # a digit queues nothing: the student's reveal ends
    done = sim.finish()
    assert (done["right"], done["tried"]) == (1, 2) and done["steps"] > 20
    assert done["first_wrong"]["say"]["cell"] == (0, 0)
    with pytest.raises(ValueError, match="over"):
        sim.take((0, 0))
    with pytest.raises(ValueError, match="model answer comes after Done"):
        Simulation(BOARD, (0, 0), feedback="end").ask_model()


def test_a_slip_in_the_end_mode_costs_one_step_judged_from_the_students_own_state():
    sim = Simulation(BOARD, (0, 0), order="bfs", feedback="end")
    sim.take((0, 0)), sim.say("B")
    sim.queue((1, 1))  # reading order queues (0, 1) first: one slip
    _play(sim)
    done = sim.finish()
    assert done["tried"] - done["right"] == 1 and done["first_wrong"]["queue"]["tried"] == ("queue", (1, 1))


def test_asking_for_the_model_answer_ends_the_attempts_credit():
    sim = Simulation(BOARD, (0, 0), order="dfs", feedback="retry")
    sim.call((0, 0))
    sim.ask_model()
    _play(sim)
    assert (sim.right, sim.tried) == (1, 1) and sim.log.split()[2].startswith("m,")


def _ticking(began: float):
    """A clock 0.3 s further on each time it is read."""
    ticks = iter(range(0, 10_000, 3))
    return lambda: began + next(ticks) / 10


def test_a_line_kept_in_one_mode_replays_in_that_mode_only_with_its_times():
    from msviz.simulation import play, simulation_set

    for feedback in ("fix", "retry", "end"):
        sims = simulation_set("ada", n=2, feedback=feedback)
        sim = sims[0]
        sim.clock = _ticking(sim.began)
        sim.take(sim.click), sim.say("8")
        while not sim.over:
            _carry_out(sim, *sim.expected())
        fresh = simulation_set("ada", n=2, feedback=feedback)
        exec(sims.line(0), {"sims": fresh})
        assert (fresh[0].right, fresh[0].tried, fresh[0].times) == (sim.right, sim.tried, sim.times)
        assert fresh[0].seconds == sim.seconds > 0
        other = "fix" if feedback != "fix" else "end"
        with pytest.raises(ValueError, match=f"kept in the {feedback} mode"):
            play(simulation_set("ada", n=2, feedback=other)[0], sim.log)


def test_a_new_attempt_is_another_board_made_again_from_the_name_and_its_number():
    from msviz.simulation import simulation_set

    sims, again = simulation_set("ada", n=2), simulation_set("ada", n=2)
    first = sims[0].board
    boards = [sims.new(0).board for _ in range(5)]
    assert sims[0].attempt == 6 and len({str(b) for b in [first, *boards]}) == 6
    assert [again.new(0).board for _ in range(5)] == boards  # the same name: the same attempts
    assert simulation_set("bob", n=1).new(0).board not in boards
    sims[0].take(sims[0].click)  # the first set is breadth-first
    fresh = simulation_set("ada", n=2)
    exec(sims.line(0), {"sims": fresh})
    assert fresh[0].attempt == 6 and fresh[0].board == boards[-1] and fresh[0].right == 1
    with pytest.raises(ValueError, match="given, not drawn"):
        Simulation(BOARD, (0, 0)).new()


def test_a_return_with_no_call_open_is_one_wrong_step_that_names_the_first_call():
    sim = Simulation(["EEE", "EEM"], (0, 0), order="dfs")
    step = sim.back()
    assert (step.right, step.counted, step.done) == (False, True, ("call", (0, 0)))
    assert step.reason == "no call is open to return from: the reveal goes on with a call on (0, 0)"
    retried = Simulation(["EEE", "EEM"], (0, 0), order="dfs", feedback="retry").back()
    assert (retried.right, retried.done, retried.reason) == (False, None, "no call is open to return from")
