"""The class page's part for simulation sets: the class's misconceptions, each student's time on each
simulation (attempts clicked through flagged), and the steps where the class took longest."""

from __future__ import annotations

import html

from ..i18n import _
from ..words import MISCONCEPTIONS, SIMULATE
from .rows import Row
from .shown import for_html

#: How many of the longest single steps the page lists.
LONGEST = 8


def simulation_part(rows: list[Row]) -> str:
    """The page's section on simulation sets ("" when no row has one).

    Examples
    --------
    >>> row = Row("ada", "ada.ipynb", "wrong")
    >>> row.simulations = [{"simulation": 1, "attempts": 2, "counted": 2, "seconds": 3.0, "per_step": 0.2,
    ...     "clicking": [2], "misconception": "returns_early", "step": 4, "said": "..."}]
    >>> row.steps = [{"simulation": 1, "attempt": 2, "step": 4, "operation": "b", "right": False,
    ...     "seconds": 2.5, "kind": "call"}]
    >>> part = simulation_part([row])
    >>> "returns before a blank" in part and "2.5" in part and simulation_part([]) == ""
    True
    """
    with_sets = [row for row in rows if row.simulations]
    if not with_sets:
        return ""
    return "\n".join(
        [
            "<h2>" + _("Simulations: misconceptions") + "</h2>",
            _misconception_table(with_sets),
            "<h2>" + _("Simulations: time on each") + "</h2>",
            _time_table(with_sets),
            "<h2>" + _("Simulations: where the class took longest") + "</h2>",
            _kind_table(with_sets),
            _longest_table(with_sets),
        ]
    )


def _table(heads: list[str], body: list[list[str]], numeric: set = frozenset()) -> str:
    head = "".join(f'<th scope="col">{html.escape(h)}</th>' for h in heads)
    lines = []
    for cells in body:
        out = [f'<th scope="row">{for_html(cells[0])}</th>']  # a student's name, from a file's name
        out += [
            f'<td class="num">{for_html(c)}</td>' if j + 1 in numeric else f"<td>{for_html(c)}</td>"
            for j, c in enumerate(cells[1:])
        ]
        lines.append("<tr>" + "".join(out) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(lines)}</tbody></table>"


def _misconception_table(rows: list[Row]) -> str:
    counts: dict[str, list[str]] = {}
    for row in rows:
        for fact in row.simulations:
            if fact.get("misconception") in MISCONCEPTIONS:
                counts.setdefault(fact["misconception"], [])
                if row.name not in counts[fact["misconception"]]:
                    counts[fact["misconception"]].append(row.name)
    if not counts:
        return (
            "<p>"
            + _("No misconception named: no student's steps follow a buggy version of the reveal.")
            + "</p>"
        )
    said = _(
        "A misconception is named where a student's steps follow a buggy version of the reveal, carried out "
        "on the same board, at least half of the steps where it goes wrong and at two or more, more often "
        "than random slips would (a chance under 1 in 100)."
    )
    ranked = sorted(counts.items(), key=lambda item: (-len(item[1]), item[0]))
    body = [[MISCONCEPTIONS[key], str(len(names)), ", ".join(names)] for key, names in ranked]
    return f"<p>{said}</p>" + _table([_("misconception"), _("students"), _("who")], body, {1})


def _time_table(rows: list[Row]) -> str:
    body = []
    for row in rows:
        for fact in row.simulations:
            flag = _("clicked through?") if fact["clicking"] else ""
            named = (
                MISCONCEPTIONS[fact["misconception"]] if fact.get("misconception") in MISCONCEPTIONS else ""
            )
            body.append(
                [
                    row.name,
                    str(fact["simulation"]),
                    f"{fact['counted']} / {fact['attempts']}",
                    f"{fact['seconds']:.1f}",
                    f"{fact['per_step']:.1f}",
                    flag,
                    named,
                ]
            )
    heads = [
        _("student"),
        _("simulation"),
        _("attempt counted / made"),
        _("seconds"),
        _("seconds a step"),
        _("under 0.5 s a step"),
        _("misconception"),
    ]
    return _table(heads, body, {1, 2, 3, 4})


def _kind_table(rows: list[Row]) -> str:
    """Each kind of step: how long the class took on it on average, and how often it was right."""
    kinds: dict[str, list] = {}
    for row in rows:
        for step in row.steps:
            kinds.setdefault(step.get("kind", ""), []).append(step)
    body = []
    for kind, steps in sorted(
        kinds.items(), key=lambda item: -sum(s["seconds"] for s in item[1]) / len(item[1])
    ):
        mean = sum(s["seconds"] for s in steps) / len(steps)
        right = sum(bool(s["right"]) for s in steps) / len(steps)
        name = SIMULATE["kind_" + kind] if "kind_" + kind in SIMULATE else kind
        body.append([name, str(len(steps)), f"{mean:.1f}", f"{100 * right:.0f}%"])
    heads = [_("kind of step"), _("steps"), _("mean seconds"), _("right at the first try")]
    return _table(heads, body, {1, 2, 3})


def _longest_table(rows: list[Row]) -> str:
    steps = [(row.name, step) for row in rows for step in row.steps]
    steps.sort(key=lambda item: -item[1]["seconds"])
    body = [
        [
            name,
            str(s["simulation"]),
            str(s["attempt"]),
            str(s["step"]),
            s["operation"],
            _("right") if s["right"] else _("wrong"),
            f"{s['seconds']:.1f}",
        ]
        for name, s in steps[:LONGEST]
    ]
    heads = [
        _("student"),
        _("simulation"),
        _("attempt"),
        _("step"),
        _("operation"),
        _("first try"),
        _("seconds"),
    ]
    return (
        "<p>"
        + _("The longest single steps (every step is in steps.csv):")
        + "</p>"
        + _table(heads, body, {1, 2, 3, 6})
    )
