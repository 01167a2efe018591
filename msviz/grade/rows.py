"""A student's row, plain data: the verdict, the counts, the mistake, what went wrong."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .shown import for_csv
from .vocabulary import CATEGORIES

#: A row's verdict: graded and right, graded and wrong, stopped by a limit, or not graded at all.
VERDICTS = ("right", "wrong", "stopped", "not graded")


#: The columns of results.csv, in order.
COLUMNS = (
    ["name", "file", "verdict", "points"]
    + [f"{name}_{part}" for name in CATEGORIES for part in ("passed", "tried")]
    + ["mistake", "hint", "problem", "notes", "pre", "post", "made_for", "copies"]
)


STDOUT_KEPT = 2000  # characters of a submission's output kept in results.json


@dataclass
class Row:
    """One student's row: the data the worker sent, or what stopped it."""

    name: str
    file: str
    verdict: str
    points: float = 0.0
    results: dict = field(default_factory=dict)
    mistake: str = ""
    hint: str = ""
    problem: str = ""
    notes: list = field(default_factory=list)
    failure: dict | None = None
    summary: str = ""
    stdout: str = ""
    made_for: str = ""  # homework: the name (seed) the bank or simulations were made from
    pre: float | None = None  # a lesson's pre-test score, 0 to 1, when one was handed in
    post: float | None = None  # and its post-test score
    simulations: list = field(default_factory=list)  # a simulation set: what is said of each simulation
    steps: list = field(default_factory=list)  # and every step of every attempt, as steps.csv lists them
    seeds: list = field(default_factory=list)  # every name its hand-ins were made for (bank, set, tests)
    raised: list = field(default_factory=list)  # what its cells raised while the notebook was run
    copies: list = field(default_factory=list)  # what it shares with other files, in words (`copies`)

    def as_csv(self) -> dict:
        """The row as results.csv has it: a count per column, notes joined, no cell read as a formula.

        Examples
        --------
        >>> row = Row("=ada", "ada.py", "right", 1.0, {"examples": (2, 2)}).as_csv()
        >>> row["name"], row["examples_passed"], row["order_tried"]
        ("'=ada", 2, '')
        """
        out = {"name": self.name, "file": self.file, "verdict": self.verdict, "points": round(self.points, 4)}
        for name in CATEGORIES:
            passed, tried = self.results.get(name, ("", ""))
            out[f"{name}_passed"], out[f"{name}_tried"] = passed, tried
        out.update(mistake=self.mistake, hint=self.hint, problem=self.problem, notes="; ".join(self.notes))
        out.update(pre="" if self.pre is None else self.pre, post="" if self.post is None else self.post)
        out.update(made_for=self.made_for, copies="; ".join(self.copies))
        # What a submission wrote is made safe: no control character, no cell a spreadsheet runs.
        return {k: for_csv(v) for k, v in out.items()}


#: Where a problem's first words end: a colon or an opening bracket, in any language's punctuation.
_FIRST_WORDS = re.compile(r"[:：]| \(|（")


def mistake_counts(rows: list[Row]) -> list[tuple[str, int, bool]]:
    """How many students made each named mistake (their first), then what stopped the others' code.

    Each item is ``(what, students, named)``: `named` is False for what
    stopped a submission before it was graded (its problem's first words).

    Examples
    --------
    >>> rows = [Row("a", "a.py", "wrong", mistake="0 instead of B"), Row("b", "b.py", "right")]
    >>> rows.append(Row("c", "c.py", "stopped", problem="ran out of CPU time (the limit is 1 s)"))
    >>> mistake_counts(rows + [Row("d", "d.py", "wrong", mistake="0 instead of B")])
    [('0 instead of B', 2, True), ('ran out of CPU time', 1, False)]
    """
    counts: dict[tuple[str, bool], int] = {}
    for row in rows:
        what = row.mistake or (_FIRST_WORDS.split(row.problem)[0].strip() if row.problem else "")
        if what:
            key = (what, bool(row.mistake))
            counts[key] = counts.get(key, 0) + 1
    ranked = sorted(counts.items(), key=lambda item: (not item[0][1], -item[1], item[0][0].casefold()))
    return [(what, n, named) for (what, named), n in ranked]


def gain(rows: list[Row]) -> dict | None:
    """The class's normalized gain over the students with a pre- and a post-test: (post - pre) / (1 - pre)
    of the class's mean scores (Hake's g), or None when no student has both.

    Examples
    --------
    >>> rows = [Row("a", "a.py", "right", pre=0.2, post=0.6), Row("b", "b.py", "wrong", pre=0.4, post=0.6)]
    >>> gain(rows)
    {'students': 2, 'pre': 0.3, 'post': 0.6, 'gain': 0.4286}
    """
    both = [row for row in rows if row.pre is not None and row.post is not None]
    if not both:
        return None
    pre = sum(row.pre for row in both) / len(both)
    post = sum(row.post for row in both) / len(both)
    g = None if pre >= 1 else round((post - pre) / (1 - pre), 4)
    return {"students": len(both), "pre": round(pre, 4), "post": round(post, 4), "gain": g}


def with_tests(graded: Row, read: Row) -> Row:
    """A function's row (`graded`, without msviz's engine) with the pre- and post-test scores, and the
    names they were made for, of its notebook read again with the engine (`read`)."""
    if read.made_for:  # its homework was read: a lesson's tests beside the code
        graded.pre, graded.post, graded.seeds = read.pre, read.post, read.seeds
        graded.made_for = graded.made_for or read.made_for
        graded.notes += [note for note in read.notes if note not in graded.notes]
    return graded
