"""A quiz bank handed in as homework (`msviz.quiz_bank`), graded by the class command.

The class command runs a submitted notebook's cells; where they make a quiz bank
(and no `update_board`), the bank's answers are read from its plain data and
given again to a bank made afresh from the same seed, so the points are those
the answers earn by the rules, whatever the notebook's own objects say.
"""

from __future__ import annotations

from ..i18n import _, _n, listed
from .handed import Sizes, _homework_row, _made, _seeded, _size_said, find_set
from .simulations import set_row

__all__ = [
    "Sizes",
    "find_set",
    "find_banks",
    "set_row",
    "bank_row",
    "banks_row",
    "homework_row",
    "nothing_found",
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
