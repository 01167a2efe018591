"""Misconceptions named from a whole attempt (msviz.misconceptions), and the boards a focus draws."""

import random

import pytest

from msviz.misconceptions import (
    FOCUS,
    OTHER_ORDERS,
    VERSIONS,
    carried_out_by,
    explains,
    name_one,
    replay_watched,
    with_slips,
)
from msviz.simulation import Simulation, simulation_set

ORDER_VERSIONS = ("reversed_order", "leetcode_order")


def _fresh(sim: Simulation, feedback: str = "fix") -> Simulation:
    return Simulation(sim.board, sim.click, order=sim.order, feedback=feedback)


def _differing(key: str, sim: Simulation, feedback: str = "fix") -> list[int]:
    """The steps where version `key`, carried out on `sim`'s board, does other than the algorithm."""
    log = carried_out_by(VERSIONS[key], _fresh(sim, feedback))
    seen = replay_watched(_fresh(sim, feedback), log)
    return [s["step"] for s in seen if s["versions"].get(key) not in (None, *s["allowed"])]


def buggy_attempt(key: str, sim: Simulation, rng: random.Random, feedback: str = "fix") -> str:
    """A kept line carrying out version `key` on `sim`'s board, with one or two right steps mixed in where
    the version goes wrong."""
    differ = _differing(key, sim, feedback)
    right_at = set(rng.sample(differ, rng.choice((1, 2))))
    return carried_out_by(VERSIONS[key], _fresh(sim, feedback), right_at=right_at)


def honest_attempt(sim: Simulation, rng: random.Random, slips: int = 3, feedback: str = "fix") -> str:
    """A kept line of the right algorithm with a few random slips (a random cell, or a random symbol)."""
    return with_slips(_fresh(sim, feedback), rng, slips)


def _named(key: str, named: str | None, sim: Simulation, log: str) -> bool:
    """Whether `named` is `key`, or (two other fixed orders) one that explains the attempt equally."""
    if named == key:
        return True
    if key in ORDER_VERSIONS and named in ORDER_VERSIONS:
        seen = replay_watched(_fresh(sim), log)
        mine, theirs = explains(seen, key), explains(seen, named)
        return (mine["matched"], mine["differ"]) == (theirs["matched"], theirs["differ"])
    return False


@pytest.mark.parametrize("key", list(VERSIONS))
def test_an_attempt_carrying_out_a_buggy_version_is_named_as_that_version(key):
    rng = random.Random(key)
    for i in range(6):
        for sim in simulation_set(f"student {i}", n=2, focus=key).simulations:
            log = buggy_attempt(key, sim, rng)
            found = name_one(_fresh(sim), log)
            assert _named(key, found["version"], sim, log), (key, i, found)
            assert found["step"] >= 1 and found["did"] is not None


@pytest.mark.parametrize("feedback", ["fix", "retry", "end"])
def test_the_right_algorithm_with_a_few_random_slips_is_named_as_none(feedback):
    rng = random.Random(5)
    for i in range(30):
        for sim in simulation_set(f"honest {i}", n=2, feedback=feedback).simulations:
            found = name_one(_fresh(sim, feedback), honest_attempt(sim, rng, feedback=feedback))
            assert found["version"] is None, (i, found)


def test_a_buggy_version_is_named_in_the_retry_and_end_modes_too():
    rng = random.Random(9)
    for feedback in ("retry", "end"):
        for key in ("digit_queues", "returns_early", "bfs_as_dfs"):
            sim = simulation_set("ada", n=2, focus=key)[0]
            log = buggy_attempt(key, sim, rng, feedback)
            assert name_one(_fresh(sim, feedback), log)["version"] == key


@pytest.mark.parametrize("focus", list(FOCUS))
def test_every_board_drawn_for_a_focus_holds_its_situation(focus):
    sims = simulation_set("ada", n=4, focus=focus)
    for i in range(4):
        for attempt in (1, 2):
            sim = sims.attempt(i, attempt)
            assert sim.order in FOCUS[focus].orders and FOCUS[focus].holds(sim)
            assert VERSIONS[focus].holds(sim) and len(_differing(focus, sim)) >= 6
            assert 5 <= min(sim.shape) and max(sim.shape) <= 8
            from msviz.simulation import model

            assert 8 <= len(model(sim).revealed) <= 25
    again = simulation_set("ada", n=4, focus=focus)
    assert [s.board for s in again.simulations] == [sims.attempts[i][1].board for i in range(4)]
    assert simulation_set("ada", n=1, focus=focus)[0].board != simulation_set("ada", n=1)[0].board


def test_a_focus_the_rules_do_not_know_is_refused_by_name():
    with pytest.raises(ValueError, match="focus must be one of"):
        simulation_set("ada", focus="queued twice please")
    assert len(OTHER_ORDERS) == 2
