"""A simulation set handed in as homework (`msviz.simulation_set`), graded by the class command.

Its kept lines are carried out again on the set made afresh from its seed (and
mode and focus): the points are the steps right at the first try of each
simulation's counted attempt; the row also says each simulation's attempts,
time and any misconception its steps follow (`msviz.misconceptions`).
"""

from __future__ import annotations

from ..i18n import _, _n, listed
from ..words import MISCONCEPTIONS, SIMULATE
from .handed import _homework_row, _seeded, _size_said

#: What the class command counts of a simulation's attempts: the best (by default) or the last.
ATTEMPTS = ("best", "last")
#: An attempt faster than this, on average a step, was clicked through rather than carried out.
CLICKING_THROUGH = 0.5
#: The most characters of kept lines a set's attempts may hold, all together (a few hundred attempts).
MOST_CHARACTERS = 2_000_000
#: An attempt with fewer steps than this is too short to be called clicked through.
FEWEST_TIMED = 4


def _set_data(data) -> bool:
    """Whether untrusted `data` is a simulation set's plain data: a seed, 1 to 20 kept lines, and where
    given, each simulation's attempts (at most 50, each a line), a feedback mode and a focus."""
    from ..misconceptions import FOCUS
    from ..simulation import FEEDBACK

    if not _seeded(data, "logs", 20) or not all(_line(log) for log in data["logs"]):
        return False
    attempts = data.get("attempts")
    if attempts is not None and not (
        isinstance(attempts, list)
        and len(attempts) == len(data["logs"])
        and all(isinstance(made, list) and 0 < len(made) <= 50 and all(map(_line, made)) for made in attempts)
    ):
        return False
    lines = data["attempts"] if attempts is not None else [data["logs"]]
    if sum(len(line) for made in lines for line in made) > MOST_CHARACTERS:
        return False
    return data.get("feedback", "fix") in FEEDBACK and data.get("focus") in (None, *FOCUS)


def _line(log) -> bool:
    return isinstance(log, str) and len(log) <= 200_000


def _replayed_set(data, attempts: str, size: int):
    """The set made afresh from `data`'s seed, mode and focus, every attempt's line carried out again;
    each simulation's counted attempt (`attempts`: "best" or "last") its latest. With each simulation's
    attempts made, ``[[Simulation, ...], ...]``."""
    from ..simulation import simulation_set

    sims = simulation_set(
        data["seed"],
        n=min(len(data["logs"]), size),
        feedback=data.get("feedback", "fix"),
        focus=data.get("focus"),
    )
    made = []
    for i, log in enumerate(data["logs"][:size]):
        tried = []
        for line in data["attempts"][i] if data.get("attempts") else [log]:
            try:
                sims.play(i, line)
            except (TypeError, ValueError):  # a line of another mode, or not one: counts for nothing
                continue
            if all(sim is not sims[i] for sim in tried):
                tried.append(sims[i])
        tried = [sim for sim in tried if sim.tried] or tried[-1:]  # an attempt never begun is none
        if tried:
            counted = (
                max(tried, key=lambda sim: (_share(sim), sim.attempt)) if attempts == "best" else tried[-1]
            )
            sims.attempt(i, counted.attempt)
        made.append(tried)
    return sims, made


def _share(sim) -> float:
    from ..simulation import _length

    return sim.right / max(_length(sim), sim.tried, 1)


def set_row(data, out_of: float, attempts: str = "best", size: int | None = None) -> dict:
    """The row's data for a notebook whose simulation set's plain data is `data` (untrusted: a runner's).

    The set is made afresh from its seed (and mode and focus) and each kept
    line of operations is carried out again: the points are the steps right
    at the first try, of each simulation's best attempt (or, with
    ``attempts="last"``, its last), of the first `size` simulations (the
    teacher's; the set's own when None), a missing one earning nothing. The
    row also says each simulation's attempts, time and any misconception
    named (`simulation_facts`).

    Examples
    --------
    >>> from msviz.simulation import simulation_set
    >>> sims = simulation_set("ada", n=1)
    >>> set_row(sims.to_dict(), 1.0)["points"], set_row({"seed": "ada"}, 1.0)["verdict"]
    (0.0, 'not graded')
    >>> set_row(sims.to_dict(), 1.0, size=4)["summary"].split("; ")[-1]
    'it holds 1 simulation of the 4 asked: the missing ones earn nothing'
    """
    if attempts not in ATTEMPTS:
        raise ValueError(f"attempts must be 'best' or 'last', not {attempts!r}")
    sims = None
    if _set_data(data):
        handed = len(data["logs"])
        size = size or handed
        try:
            sims, made = _replayed_set(data, attempts, size)
        except (TypeError, ValueError):
            sims = None
    if sims is None:
        return {"verdict": "not graded", "problem": _("its simulations could not be read"), "notes": []}
    wrong = sorted(sims.wrong_kinds().items(), key=lambda item: (-item[1], item[0]))
    said = _n(
        "simulations for {seed}: {right} of {steps} step right at the first try",
        "simulations for {seed}: {right} of {steps} steps right at the first try",
        sims.steps,
    ).format(seed=repr(sims.seed), right=sims.right, steps=sims.steps)
    if wrong:
        kinds = listed(f"{SIMULATE['kind_' + kind]} ({n})" for kind, n in wrong)
        said = _("{said}; wrong: {kinds}").format(said=said, kinds=kinds)
    sized = _size_said("simulations", handed, size)
    if sized:
        said = _("{said}; {more}").format(said=said, more=sized)
    mistake = SIMULATE["most_wrong"].format(kind=SIMULATE["kind_" + wrong[0][0]]) if wrong else ""
    facts = simulation_facts(sims, made, attempts)
    right = sims.right == sims.steps and handed >= size
    score = sims.score() * len(sims) / size
    row = _homework_row(right, score, out_of, said, sims.seed, mistake=mistake, size_differs=bool(sized))
    row["notes"] += [fact["said"] for fact in facts]
    row["simulations"] = facts
    row["steps"] = [step for tried in made for sim in tried for step in steps_of(sim)]
    return row


def simulation_facts(sims, made: list, attempts: str = "best") -> list[dict]:
    """What the row says of each simulation: its attempts and the one counted, its time, whether it was
    clicked through, and the misconception its counted attempt follows (`msviz.misconceptions`).

    Each is ``{"simulation", "attempts", "counted", "seconds", "per_step", "clicking", "misconception",
    "step", "said"}`` (the simulation counted from 1; `said` in words).
    """
    from ..misconceptions import name_one
    from ..simulation import Simulation

    facts = []
    for i, tried in enumerate(made):
        if not tried:
            continue
        sim = sims[i]
        per_step = sim.seconds / sim.tried if sim.tried else 0.0
        fresh = Simulation(sim.board, sim.click, order=sim.order, feedback=sim.feedback)
        fresh.attempt = sim.attempt
        named = name_one(fresh, sim.log) if sim.tried else {"version": None}
        said = _n(
            "simulation {i}: attempt {attempt} of {n} counted ({which}), {right} of {steps} step right in "
            "{seconds} s",
            "simulation {i}: attempt {attempt} of {n} counted ({which}), {right} of {steps} steps right in "
            "{seconds} s",
            sim.tried,
        ).format(
            i=i + 1,
            attempt=sim.attempt,
            n=len(tried),
            which=_("the best") if attempts == "best" else _("the last"),
            right=sim.right,
            steps=sim.tried,
            seconds=f"{sim.seconds:.1f}",
        )
        clicking = [a.attempt for a in tried if _clicked_through(a)]
        if clicking:
            said += "; " + _n(
                "attempt {attempts} took under {least} s a step: clicked through?",
                "attempts {attempts} took under {least} s a step: clicked through?",
                len(clicking),
            ).format(attempts=", ".join(map(str, clicking)), least=CLICKING_THROUGH)
        if named["version"] is not None:
            said += "; " + MISCONCEPTIONS["follows"].format(
                version=MISCONCEPTIONS[named["version"]], step=named["step"], did=did_words(named["did"])
            )
        facts.append(
            {
                "simulation": i + 1,
                "order": sim.order,
                "feedback": sim.feedback,
                "attempts": len(tried),
                "counted": sim.attempt,
                "seconds": sim.seconds,
                "per_step": round(per_step, 2),
                "clicking": clicking,
                "misconception": named["version"],
                "step": named.get("step"),
                "said": said,
            }
        )
    return facts


def _clicked_through(sim) -> bool:
    return sim.tried >= FEWEST_TIMED and sim.seconds < CLICKING_THROUGH * sim.tried


def did_words(did) -> str:
    """An operation a student tried, in words: "you queued (2, 3)", "you returned", ...

    Examples
    --------
    >>> did_words(("queue", (2, 3))), did_words(("back", None))
    ('you queued (2, 3)', 'you returned')
    """
    name, value = did
    cell = f"({value[0]}, {value[1]})" if isinstance(value, tuple) else ""
    return MISCONCEPTIONS["did_" + name].format(cell=cell, value=value if isinstance(value, str) else "")


def steps_of(sim) -> list[dict]:
    """Every step of an attempt at its first try, as steps.csv lists it (the student's name is added
    by the class command): the simulation (from 1), the attempt, the step (from 1), the operation
    tried (as the kept line writes it), whether it was right, and the seconds it took.

    Examples
    --------
    >>> from msviz.simulation import Simulation, play
    >>> sim = Simulation(["EEE", "EEM"], (0, 0))
    >>> _ = play(sim, "fix:1 t0.0,12 s1,30")
    >>> [(s["step"], s["operation"], s["right"], s["seconds"]) for s in steps_of(sim)]
    [(1, 't0.0', True, 1.2), (2, 's1', False, 1.8)]
    """
    number = sim.home[1] + 1 if sim.home else 1
    return [
        {
            "simulation": number,
            "attempt": sim.attempt,
            "step": step + 1,
            "operation": sim.first_ops[step],
            "right": sim.firsts[step],
            "seconds": sim.spent[step] / 10,
            "kind": sim.kinds[step],
        }
        for step in sorted(sim.firsts)
    ]
