"""What a notebook hands in, as the class command finds and sizes it: a simulation set or quiz banks
made for a name, the sizes the teacher asks for, and the row's data of homework graded from its seed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import _, _n


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
