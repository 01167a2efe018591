"""A class handing in simulation sets, graded by the class command: attempts, times, misconceptions."""

import csv
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from simulation_class import CLASS, CLICKER, make_class, named_share  # noqa: E402

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the class command's limits are Linux's")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    from msviz.grade import classroom
    from msviz.grade.limits import Limits
    from msviz.grade.results import write_results

    folder = tmp_path_factory.mktemp("simulation-class")
    buggy = make_class(folder / "class")
    rows = classroom.grade_class(classroom.find_submissions([folder / "class"]), jobs=2)
    write_results(rows, folder / "out", order=None, limits=Limits())
    return buggy, {row.name: row for row in rows}, folder / "out"


def test_each_buggy_attempt_is_named_as_its_version_and_no_honest_one_is(graded):
    buggy, rows, out = graded
    right, total, lines = named_share(buggy, json.loads((out / "results.json").read_text()))
    assert total == 13 and right == total, lines
    for name, versions in CLASS.items():
        for fact in rows[name].simulations:
            if versions[fact["simulation"] - 1] is None:
                assert fact["misconception"] is None, (name, fact)
    said = " ".join(rows["dara"].notes)
    assert (
        "your steps follow a recursion that returns before a blank's neighbours are called: at step" in said
    )


def test_the_best_attempt_counts_the_clicked_through_one_is_flagged_and_the_page_says_so(graded):
    _buggy, rows, out = graded
    fact = rows[CLICKER].simulations[0]
    assert (fact["attempts"], fact["counted"], fact["clicking"]) == (2, 2, [1])
    assert "attempt 2 of 2 counted (the best)" in " ".join(rows[CLICKER].notes)
    assert "took under 0.5 s a step: clicked through?" in " ".join(rows[CLICKER].notes)
    assert all(not f["clicking"] for name, row in rows.items() if name != CLICKER for f in row.simulations)
    page = (out / "class.html").read_text()
    for heading in (
        "Simulations: misconceptions",
        "Simulations: time on each",
        "where the class took longest",
    ):
        assert heading in page
    assert page.count("clicked through?") == 1 and "a recursion that does not return until the end" in page


def test_steps_csv_lists_every_step_of_every_attempt(graded):
    _buggy, rows, out = graded
    with open(out / "steps.csv", newline="") as table:
        lines = list(csv.DictReader(table))
    assert list(lines[0]) == [
        "student",
        "simulation",
        "attempt",
        "step",
        "operation",
        "right_at_first_try",
        "seconds",
    ]
    assert len(lines) == sum(len(row.steps) for row in rows.values())
    jia = [line for line in lines if line["student"] == CLICKER and line["simulation"] == "1"]
    assert {line["attempt"] for line in jia} == {"1", "2"}
    fast = [float(line["seconds"]) for line in jia if line["attempt"] == "1"]
    assert max(fast) <= 0.3 and all(line["right_at_first_try"] in ("0", "1") for line in lines)


def test_the_last_attempt_is_counted_when_asked(tmp_path):
    from msviz.grade.homework import set_row
    from msviz.simulation import simulation_set

    sims = simulation_set("ada", n=1)
    first = sims[0]
    while not first.over:  # a full first attempt
        name, value = first.expected()
        first.back() if name == "back" else getattr(first, name)(value)
    sims.new(0).take(sims[0].click)  # a second, barely begun
    data = sims.to_dict()
    best, last = set_row(data, 1.0), set_row(data, 1.0, attempts="last")
    assert best["points"] == 1.0 and best["simulations"][0]["counted"] == 1
    assert 0 < last["points"] < 0.1 and last["simulations"][0]["counted"] == 2
    with pytest.raises(ValueError, match="best' or 'last"):
        set_row(data, 1.0, attempts="first")


def test_a_line_kept_in_one_mode_is_not_graded_as_another():
    from msviz.grade.homework import set_row
    from msviz.simulation import simulation_set

    sims = simulation_set("ada", n=1, feedback="end")
    sims[0].take(sims[0].click)
    data = sims.to_dict()
    assert set_row(data, 1.0)["simulations"][0]["feedback"] == "end"
    data["feedback"] = "fix"  # the line says "end": replayed as "fix" it counts for nothing
    assert set_row(data, 1.0)["points"] == 0.0


def _timed_line(sims, pace_tenths: int) -> str:
    """Simulation 0 of `sims` carried out right, one step every `pace_tenths` tenths of a second."""
    sim = sims[0]
    ticks = iter(range(pace_tenths, 100_000, pace_tenths))
    sim.clock = lambda: sim.began + next(ticks) / 10
    while not sim.over:
        name, value = sim.expected()
        sim.back() if name == "back" else getattr(sim, name)(value)
    return sim.log


@pytest.mark.parametrize("pace, flagged", [(1, True), (30, False)])
def test_an_attempt_at_a_tenth_of_a_second_a_step_is_flagged_and_one_at_3_s_is_not(pace, flagged):
    from msviz.grade.homework import set_row
    from msviz.simulation import simulation_set

    sims = simulation_set("ada", n=1)
    line = _timed_line(sims, pace)
    fact = set_row(sims.to_dict(), 1.0)["simulations"][0]
    assert fact["per_step"] == pace / 10 and fact["clicking"] == ([1] if flagged else [])
    fresh = simulation_set("ada", n=1)
    exec(f"sims.play(0, {line!r})", {"sims": fresh})
    assert (fresh[0].right, fresh[0].seconds) == (sims[0].right, sims[0].seconds)  # the times replay


def test_a_hostile_end_mode_line_is_cut_at_three_times_the_steps_needed():
    from msviz.grade.homework import set_row
    from msviz.simulation import MOST_STEPS, _length, simulation_set

    sims = simulation_set("ada", n=1, feedback="end")
    sim = sims[0]
    cell = next(c for c in sorted(sim.symbols) if c != sim.click and sim.board[c[0]][c[1]] == "E")
    words = ["end:1", f"t{sim.click[0]}.{sim.click[1]},1", "sB,2"] + [f"q{cell[0]}.{cell[1]},3"] * 5000
    data = sims.to_dict()
    data["logs"] = data["attempts"][0] = [" ".join(words)]
    row = set_row(data, 1.0)
    assert len(row["steps"]) == MOST_STEPS * _length(sim) and row["points"] < 0.05


def test_an_attempt_never_begun_is_not_counted_as_one():
    from msviz.grade.homework import set_row
    from msviz.simulation import simulation_set

    sims = simulation_set("ada", n=1)
    sims.new(0).take(sims[0].click)  # attempt 1 left untouched, attempt 2 begun
    fact = set_row(sims.to_dict(), 1.0)["simulations"][0]
    assert (fact["attempts"], fact["counted"]) == (1, 2)


@pytest.mark.parametrize(
    "change",
    [
        {"attempts": "all of them"},
        {"attempts": [["fix:1"], ["fix:1"], ["fix:1"]]},
        {"attempts": [[1.5]]},
        {"attempts": [["fix:1"] * 51]},
        {"feedback": "lenient"},
        {"focus": "__import__('os')"},
        {"logs": ["x" * 2_000_001]},
        {"attempts": [["x" * 200_000] * 11]},
    ],
)
def test_set_data_not_of_msvizs_making_is_not_graded_and_raises_nothing(change):
    from msviz.grade.homework import set_row
    from msviz.simulation import simulation_set

    data = {**simulation_set("ada", n=1).to_dict(), **change}
    row = set_row(data, 1.0)
    assert row["verdict"] == "not graded" and row["problem"] == "its simulations could not be read"
