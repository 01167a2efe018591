"""A quiz bank handed in as homework (`msviz.quiz_bank`), graded by the class command.

The class command runs a submitted notebook's cells; where they make a quiz bank
(and no `update_board`), the bank's answers are read from its plain data and
given again to a bank made afresh from the same seed, so the points are those
the answers earn by the rules, whatever the notebook's own objects say.
"""

from __future__ import annotations

from ..i18n import _, _n, listed
from ..words import SIMULATE


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


def _homework_row(right: bool, score: float, out_of: float, said: str, seed, **more) -> dict:
    """The row's data for homework graded from its seed: right or wrong, the points, `said` as its
    notes and summary, and the name it was made for."""
    return {
        "verdict": "right" if right else "wrong",
        "points": round(score * out_of, 4),
        "results": {},
        "notes": [said],
        "summary": said,
        "failure": None,
        "problem": None,
        "stdout": "",
        "made_for": str(seed),
        **more,
    }


def set_row(data, out_of: float) -> dict:
    """The row's data for a notebook whose simulation set's plain data is `data` (untrusted: a runner's).

    The set is made afresh from its seed and each kept line of operations is
    carried out again: the points are the steps right at the first try.

    Examples
    --------
    >>> from msviz.simulation import simulation_set
    >>> sims = simulation_set("ada", n=1)
    >>> set_row(sims.to_dict(), 1.0)["points"], set_row({"seed": "ada"}, 1.0)["verdict"]
    (0.0, 'not graded')
    """
    from ..simulation import simulation_set

    sims = None
    if _seeded(data, "logs", 20) and all(
        isinstance(log, str) and len(log) <= 200_000 for log in data["logs"]
    ):
        try:
            sims = simulation_set(data["seed"], n=len(data["logs"]))
            for i, log in enumerate(data["logs"]):
                sims.play(i, log)
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
    mistake = SIMULATE["most_wrong"].format(kind=SIMULATE["kind_" + wrong[0][0]]) if wrong else ""
    return _homework_row(sims.right == sims.steps, sims.score(), out_of, said, sims.seed, mistake=mistake)


def find_banks(namespace: dict) -> list:
    """Every quiz bank a notebook made (a homework bank, a pre-test, a post-test), ``bank`` first.

    Examples
    --------
    >>> from msviz.bank import make_bank
    >>> [b.seed for b in find_banks({"x": 1, "bank": make_bank("ada", n=2)})], find_banks({"x": 1})
    (['ada'], [])
    """
    return _made(namespace, "bank", "questions", "answer")[:10]


def banks_row(datas, out_of: float) -> dict:
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
    tests = {}
    for data in datas if isinstance(datas, list) else []:
        if isinstance(data, dict) and data.get("test", None) in (None, "pre", "post"):
            tests.setdefault(data.get("test"), data)
    main = tests.get(None) or tests.get("post") or tests.get("pre")
    row = bank_row(main, out_of)
    for test in ("pre", "post"):
        scored = bank_row(tests[test], 1.0) if test in tests else None
        row[test] = None if scored is None or scored["verdict"] == "not graded" else scored["points"]
    return row


def replayed(data: dict):
    """A fresh bank from `data`'s seed with `data`'s answers given again (a refused one skipped).

    Examples
    --------
    >>> from msviz.bank import make_bank
    >>> data = make_bank("ada", n=3).to_dict()
    >>> data["questions"][0]["answer"] = [99, 99]  # a cell off the board: refused, scores nothing
    >>> replayed(data).score()
    0.0
    """
    from ..bank import make_bank  # here: a runner without msviz's engine finds banks, never makes one

    bank = make_bank(data["seed"], n=len(data["questions"]), test=data.get("test"))
    for i, question in enumerate(data["questions"]):
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


def bank_row(data, out_of: float) -> dict:
    """The row's data for a notebook whose quiz bank's plain data is `data` (untrusted: a runner's).

    Examples
    --------
    >>> from msviz.bank import make_bank
    >>> bank_row({"seed": "ada", "questions": "all right"}, 1.0)["problem"]
    'its quiz bank could not be read'
    """
    bank = None
    if (
        _seeded(data, "questions", MOST_QUESTIONS)
        and data.get("test") in (None, "pre", "post")
        and all(isinstance(q, dict) for q in data["questions"])
    ):
        try:
            bank = replayed(data)
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
        questions=len(bank),
        answered=data["answered"],
    )
    if wrong:
        said = _n(
            "{said}; wrong: question {numbers}", "{said}; wrong: questions {numbers}", len(wrong)
        ).format(said=said, numbers=", ".join(wrong), n=len(wrong))
    if unanswered:
        said = _("{said}; not answered: {numbers}").format(said=said, numbers=", ".join(unanswered))
    return _homework_row(data["right"] == len(bank), bank.score(), out_of, said, data["seed"])
