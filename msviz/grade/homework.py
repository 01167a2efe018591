"""A quiz bank handed in as homework (`msviz.quiz_bank`), graded by the class command.

The class command runs a submitted notebook's cells; where they make a quiz bank
(and no `update_board`), the bank's answers are read from its plain data and
given again to a bank made afresh from the same seed, so the points are those
the answers earn by the rules, whatever the notebook's own objects say.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import _, _n, listed
from ..words import MISCONCEPTIONS, SIMULATE


def _made(namespace: dict, name: str, attribute: str, method: str) -> list:
    """The objects of `namespace` with `attribute` and a `method` and a ``to_dict`` (no class), the one
    called `name` first, each once."""
    values = [namespace.get(name)] + [v for k, v in namespace.items() if k != name]
    found = []
    for value in values:
        if isinstance(value, type) or not callable(getattr(value, "to_dict", None)):
            continue
        if hasattr(value, attribute) and callable(getattr(value, method, None)):
            if all(value is not other for other in found):
                found.append(value)
    return found


def find_set(namespace: dict):
    """The simulation set a notebook made: the value named ``sims`` if it is one, else the first found.

    Examples
    --------
    >>> from msviz.simulation import simulation_set
    >>> find_set({"x": 1, "sims": simulation_set("ada", n=1)}).seed
    'ada'
    >>> find_set({"x": 1}) is None
    True
    """
    found = _made(namespace, "sims", "simulations", "play")
    return found[0] if found else None


def _seeded(data, key: str, most: int) -> bool:
    """Whether untrusted `data` is a dict with a seed (a name or number of at most 200 characters) and a
    list `key` of 1 to `most` items."""
    return (
        isinstance(data, dict)
        and isinstance(data.get("seed"), (str, int))
        and len(str(data["seed"])) <= 200
        and isinstance(data.get(key), list)
        and 0 < len(data[key]) <= most
    )


@dataclass(frozen=True)
class Sizes:
    """How many questions a quiz bank, simulations a set and questions each pre- or post-test must have.

    The class command's ``--bank-questions``, ``--simulations`` and
    ``--test-questions``: a hand-in with fewer earns its share of these (1 right
    of 10 asked is 1 point of 10), one with more is graded on the first ones.
    """

    bank: int = 10
    simulations: int = 4
    test: int = 4

    def of(self, test) -> int:
        """The size asked of a bank that is `test` (None: homework, or "pre" / "post")."""
        return self.bank if test is None else self.test


def _size_said(kind: str, handed: int, asked: int) -> str:
    """What a row says when a hand-in's size is not the teacher's ("" when it is)."""
    if handed == asked:
        return ""
    if kind == "simulations":
        said = _n(
            "it holds {handed} simulation of the {asked} asked",
            "it holds {handed} simulations of the {asked} asked",
            handed,
        )
    else:
        said = _n(
            "it holds {handed} question of the {asked} asked",
            "it holds {handed} questions of the {asked} asked",
            handed,
        )
    said = said.format(handed=handed, asked=asked)
    if handed < asked:
        return _("{said}: the missing ones earn nothing").format(said=said)
    return _("{said}: the first {asked} are graded").format(said=said, asked=asked)


def _homework_row(right: bool, score: float, out_of: float, said: str, seed, **more) -> dict:
    """The row's data for homework graded from its seed: right or wrong, the points, `said` as its
    notes and summary, and the name it was made for."""
    return {
        "verdict": "right" if right else "wrong",
        "points": round(score * out_of, 4),
        "score": score,
        "results": {},
        "notes": [said],
        "summary": said,
        "failure": None,
        "problem": None,
        "stdout": "",
        "made_for": str(seed),
        **more,
    }


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


def find_banks(namespace: dict) -> list:
    """Every quiz bank a notebook made (a homework bank, a pre-test, a post-test), ``bank`` first.

    Examples
    --------
    >>> from msviz.bank import make_bank
    >>> [b.seed for b in find_banks({"x": 1, "bank": make_bank("ada", n=2)})], find_banks({"x": 1})
    (['ada'], [])
    """
    return _made(namespace, "bank", "questions", "answer")[:10]


def _by_test(datas) -> dict:
    """The first bank of each kind among untrusted `datas`: None (homework), "pre" and "post"."""
    tests = {}
    for data in datas if isinstance(datas, list) else []:
        if isinstance(data, dict) and data.get("test", None) in (None, "pre", "post"):
            tests.setdefault(data.get("test"), data)
    return tests


def pre_and_post(datas, size: int | None = None) -> dict:
    """Each pre- and post-test's score among a notebook's banks (untrusted plain data), None where there
    is none, and what each test's row said; each graded on its first `size` questions (its own when None).

    Examples
    --------
    >>> from msviz.bank import make_bank
    >>> pre_and_post([make_bank("ada", n=4, test="pre").to_dict()])["pre"]
    0.0
    """
    tests, out = _by_test(datas), {"pre": None, "post": None, "said": []}
    for test in ("pre", "post"):
        scored = bank_row(tests[test], 1.0, size) if test in tests else None
        if scored is not None and scored["verdict"] != "not graded":
            out[test] = scored["points"]
            out["said"] += scored["notes"]
    return out


def banks_row(datas, out_of: float, sizes: Sizes | None = None) -> dict:
    """The row's data for a notebook's banks (untrusted plain data): the homework bank's points (else
    the post-test's, else the pre-test's), and each test's score as ``pre`` and ``post``.

    Examples
    --------
    >>> from msviz.bank import make_bank
    >>> pre, post = make_bank("ada", n=2, test="pre"), make_bank("ada", n=2, test="post")
    >>> row = banks_row([pre.to_dict(), post.to_dict()], 1.0)
    >>> row["pre"], row["post"], row["verdict"]
    (0.0, 0.0, 'wrong')
    """
    return homework_row({"banks": datas}, out_of, sizes)


def homework_row(found: dict, out_of: float, sizes: Sizes | None = None, attempts: str = "best") -> dict:
    """The row's data for a notebook's homework (a runner's untrusted message): its simulation set and
    its quiz bank graded, each an equal share of the points, and its pre- and post-test scores.

    Where the notebook holds only tests, the post-test's score (else the
    pre-test's) is its points. Its notes say what was found. With `sizes`
    None, each hand-in is graded at the size it has; `attempts` says which
    attempt of each simulation counts (`set_row`).

    Examples
    --------
    >>> from msviz.bank import make_bank
    >>> from msviz.simulation import simulation_set
    >>> found = {"simulations": simulation_set("ada", n=4).to_dict(),
    ...          "banks": [make_bank("ada", n=4, test="pre").to_dict()]}
    >>> row = homework_row(found, 10.0, Sizes())
    >>> row["notes"][0], row["pre"], row["made_for"]
    ('found: a simulation set and a pre-test', 0.0, 'ada')
    """
    tests = _by_test(found.get("banks"))
    sims = found.get("simulations")
    parts = []
    if sims is not None:
        parts.append(set_row(sims, out_of, attempts, sizes and sizes.simulations))
    if None in tests:
        parts.append(bank_row(tests[None], out_of, sizes and sizes.bank))
    if not parts:
        main = tests.get("post") or tests.get("pre")
        test = "post" if "post" in tests else "pre"
        parts.append(bank_row(main, out_of, sizes and sizes.of(test)))
    scored = pre_and_post(found.get("banks"), sizes and sizes.test)
    names = [
        name
        for name, here in (
            (_("a simulation set"), sims is not None),
            (_("a quiz bank"), None in tests),
            (_("a pre-test"), "pre" in tests),
            (_("a post-test"), "post" in tests),
        )
        if here
    ]
    graded = [part for part in parts if part["verdict"] != "not graded"]
    if not graded:
        row = dict(parts[0])
    else:
        score = sum(part["score"] for part in graded) / len(parts)
        said = graded[0]["summary"]
        for part in graded[1:]:
            said = _("{said}; {more}").format(said=said, more=part["summary"])
        seeds = list(dict.fromkeys(part["made_for"] for part in graded))
        right = all(part["verdict"] == "right" for part in parts)
        mistake = next((part["mistake"] for part in graded if part.get("mistake")), "")
        row = _homework_row(right, score, out_of, said, ", ".join(seeds), mistake=mistake)
        row["notes"] = [note for part in graded for note in part["notes"]]
        row["size_differs"] = any(part.get("size_differs") for part in graded)
    row["seeds"] = _seeds(found, graded)
    said = _("found: {parts}").format(parts=_listed_and(names))
    tests = [note for note in scored["said"] if note not in row["notes"]]
    row["notes"] = [said, *tests, *row.get("notes", [])]
    if row.get("summary"):
        row["summary"] = _("{said}; {more}").format(said=said, more=row["summary"])
    row["pre"], row["post"] = scored["pre"], scored["post"]
    for part in parts:  # a simulation set's facts of each simulation, and its steps (steps.csv)
        for key in ("simulations", "steps"):
            row.setdefault(key, []).extend(part.get(key, []))
    return row


def _seeds(found: dict, graded: list) -> list[str]:
    """Every name a graded hand-in was made for, each once (a bank's, a set's, the tests')."""
    seeds = [part["made_for"] for part in graded]
    for data in _by_test(found.get("banks")).values():  # the banks graded: not a practice one
        if _seeded(data, "questions", MOST_QUESTIONS):
            seeds.append(str(data["seed"]).strip())
    return list(dict.fromkeys(seed for seed in seeds if seed))


def _listed_and(names: list[str]) -> str:
    """Names as a list whose last two are joined by "and": "a, b and c"."""
    if len(names) < 2:
        return "".join(names)
    return _("{some} and {last}").format(some=listed(names[:-1]), last=names[-1])


def replayed(data: dict, size: int | None = None):
    """A fresh bank from `data`'s seed with `data`'s answers given again (a refused one skipped), of
    its first `size` questions (all when None).

    Examples
    --------
    >>> from msviz.bank import make_bank
    >>> data = make_bank("ada", n=3).to_dict()
    >>> data["questions"][0]["answer"] = [99, 99]  # a cell off the board: refused, scores nothing
    >>> replayed(data).score()
    0.0
    """
    from ..bank import make_bank  # here: a runner without msviz's engine finds banks, never makes one

    questions = data["questions"][: size or None]
    bank = make_bank(data["seed"], n=len(questions), test=data.get("test"))
    for i, question in enumerate(questions):
        given = question.get("answer")
        if given is None:
            continue
        try:
            bank.answer(i, given)  # as JSON has it: a cell [row, col] reads as (row, col)
        except (TypeError, ValueError):
            pass
    return bank


#: The most questions a handed-in bank may hold.
MOST_QUESTIONS = 1000


def bank_row(data, out_of: float, size: int | None = None) -> dict:
    """The row's data for a notebook whose quiz bank's plain data is `data` (untrusted: a runner's),
    graded on its first `size` questions (the teacher's; the bank's own when None), a missing one
    earning nothing.

    Examples
    --------
    >>> from msviz.bank import make_bank
    >>> bank_row({"seed": "ada", "questions": "all right"}, 1.0)["problem"]
    'its quiz bank could not be read'
    >>> bank = make_bank("ada", n=1)
    >>> _ = bank.answer(0, sorted(bank.questions[0]._solution))
    >>> bank_row(bank.to_dict(), 10.0, size=10)["points"]
    1.0
    """
    bank = None
    if (
        _seeded(data, "questions", MOST_QUESTIONS)
        and data.get("test") in (None, "pre", "post")
        and all(isinstance(q, dict) for q in data["questions"])
    ):
        handed = len(data["questions"])
        size = size or handed
        try:
            bank = replayed(data, size)
        except Exception:  # data no bank of msviz's makes
            bank = None
    if bank is None:
        return {"verdict": "not graded", "problem": _("its quiz bank could not be read"), "notes": []}
    data = bank.to_dict()
    wrong = [str(i + 1) for i, a in enumerate(bank.answers) if a is not None and not a[1]]
    unanswered = [str(i + 1) for i, a in enumerate(bank.answers) if a is None]
    which = {"pre": _("pre-test"), "post": _("post-test")}.get(data.get("test"), _("quiz bank"))
    said = _("{which} for {seed}: {right} of {questions} right, {answered} answered").format(
        which=which,
        seed=repr(data["seed"]),
        right=data["right"],
        questions=size,
        answered=data["answered"],
    )
    if wrong:
        said = _n(
            "{said}; wrong: question {numbers}", "{said}; wrong: questions {numbers}", len(wrong)
        ).format(said=said, numbers=listed(wrong), n=len(wrong))
    if unanswered:
        said = _("{said}; not answered: {numbers}").format(said=said, numbers=listed(unanswered))
    sized = _size_said("questions", handed, size)
    if sized:
        said = _("{said}; {more}").format(said=said, more=sized)
    right = data["right"] == size
    return _homework_row(right, data["right"] / size, out_of, said, data["seed"], size_differs=bool(sized))


def nothing_found() -> str:
    """What a row says of a notebook with nothing to grade: what was expected.

    Examples
    --------
    >>> nothing_found().startswith("nothing to grade")
    True
    """
    return _(
        "nothing to grade: no function update_board (or updateBoard, or a class Solution), and no quiz "
        "bank (msviz.quiz_bank) or simulation set (msviz.simulation_set) was made; see the cells that raised"
    )
