"""What the grader found: a `Report` a notebook shows and a gradebook reads.

A report is true only when every board was right (and in the order asked);
`Report.points` gives partial credit by category, `Report.assert_ok` is a test
cell's one line, and `Report.to_gradescope` is Gradescope's ``results.json``.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field

from ..i18n import _, _n, listed, speaking
from .failure import WRITES_KEPT as WRITES_KEPT
from .failure import Failure as Failure
from .failure import board_text as board_text
from .failure import failure_text
from .shown import for_html, for_terminal
from .vocabulary import CATEGORIES, ORDER_WORDS, OUTPUT_KEPT

__all__ = ["CATEGORIES", "Failure", "Report"]


def _weights(results: dict) -> dict:
    """Each graded category's share of the points: the same for each."""
    graded = [name for name, (_, tried) in results.items() if tried]
    return {name: 1 / len(graded) for name in graded}


@dataclass(repr=False)
class Report:
    """What :func:`check` found. True when every board was right (and in the order asked).

    Attributes
    ----------
    results : dict
        For each category (``"examples"``, ``"tricky"``, ``"random"``, and
        ``"order"`` when an order was asked for): ``(passed, tried)``.
    failures : list of Failure
        The first failure of each category that failed.
    order : str or None
        The order graded, if any.
    notes : list of str
        Remarks that cost no points (placeholders, cells written twice, a
        numpy array returned, boards not tried).
    show : bool
        Whether the report draws its first failure when a notebook shows it.
    stdout : str
        What the student's code printed (it is kept here, not shown).
    cpu : float
        CPU seconds the student's code used in all.
    language : str or None
        The language the report is said in (:func:`check`'s; None: the one spoken when it is read).
    """

    results: dict
    failures: list = field(default_factory=list)
    order: str | None = None
    notes: list = field(default_factory=list)
    show: bool = True
    stdout: str = ""
    cpu: float = 0.0
    language: str | None = None

    def __post_init__(self):
        for failure in self.failures:
            if failure.language is None:
                failure.language = self.language

    @property
    def ok(self) -> bool:
        """Whether every board was answered right (and in the right order, if asked)."""
        return not self.failures

    def __bool__(self) -> bool:
        return self.ok

    @property
    def passed(self) -> int:
        """Boards answered right, all categories but the order."""
        return sum(p for name, (p, _) in self.results.items() if name != "order")

    @property
    def total(self) -> int:
        """Boards tried, all categories but the order."""
        return sum(t for name, (_, t) in self.results.items() if name != "order")

    @property
    def failure(self) -> Failure | None:
        """The first failure (examples first, the order last), or None."""
        return self.failures[0] if self.failures else None

    # The first failure's parts, by their short names.
    case = property(lambda self: self.failure and self.failure.case, doc="The board of the first failure.")
    expected = property(lambda self: self.failure and self.failure.expected, doc="Its right answer.")
    got = property(lambda self: self.failure and self.failure.got, doc="The answer given.")
    error = property(lambda self: self.failure and self.failure.error, doc="What went wrong, in words.")
    bug = property(lambda self: self.failure and self.failure.bug, doc="The mistake's key in BUGS.")

    def points(self, out_of: float = 1.0) -> float:
        """Partial credit: each graded category weighs the same, scored by the share of its boards right.

        The categories are the problem's examples, the tricky boards, the
        random boards and, when an order was asked for, the order.

        Examples
        --------
        >>> Report({"examples": (2, 2), "tricky": (4, 8)}).points(10)
        7.5
        """
        from .._checks import real_number

        out_of = real_number("out_of", out_of, least=0)
        return out_of * sum(
            w * self.results[n][0] / self.results[n][1] for n, w in _weights(self.results).items()
        )

    def assert_ok(self) -> None:
        """Return None when every board was right; else raise AssertionError naming the mistake and its hint.

        For a test cell of nbgrader or otter: ``msviz.check(update_board).assert_ok()``.

        Examples
        --------
        >>> Report({"examples": (2, 2)}).assert_ok()
        """
        if not self.ok:
            f = self.failure
            raise AssertionError(f"{f.name}: {f.hint}\n{self.summary()}")

    def to_gradescope(self, out_of: float = 1.0) -> dict:
        """Gradescope's ``results.json``: the score, the CPU time, and a test per category.

        Examples
        --------
        >>> Report({"examples": (2, 2), "tricky": (4, 8)}).to_gradescope(10)["score"]
        7.5
        """
        with speaking(self.language):
            return self._gradescope(out_of)

    def _gradescope(self, out_of: float) -> dict:
        total = self.points(out_of)
        tests = []
        for name, weight in _weights(self.results).items():
            passed, tried = self.results[name]
            failure = next((f for f in self.failures if f.category == name), None)
            tests.append(
                {
                    "name": _("{category}: {passed}/{tried} right").format(
                        category=CATEGORIES[name], passed=passed, tried=tried
                    ),
                    "score": out_of * weight * passed / tried,
                    "max_score": out_of * weight,
                    "output": failure_text(failure) if failure else _("All right."),
                }
            )
        return {
            "score": total,
            "execution_time": round(self.cpu, 3),
            "output": str(self),
            "tests": tests,
        }

    def to_dict(self, out_of: float = 1.0) -> dict:
        """The report as plain JSON-able data; `from_dict` reads it back.

        The keys: ``ok``, ``points`` (out of `out_of`), ``order``, ``results``
        (each category's ``passed`` and ``tried``), ``bug``, ``mistake`` and
        ``hint`` (the first failure's; None when right), ``notes``, ``summary``,
        ``failures`` (each category's first failure: its board, click,
        expected and given answer, as rows of text, the error and the
        writes), ``cpu`` (CPU seconds of the student's code), ``stdout`` and ``show``.

        Examples
        --------
        >>> data = Report({"examples": (2, 2), "tricky": (7, 8)}).to_dict()
        >>> data["ok"], data["points"], data["results"]["tricky"]
        (True, 0.9375, {'passed': 7, 'tried': 8})
        >>> Report.from_dict(data).results
        {'examples': (2, 2), 'tricky': (7, 8)}
        """
        with speaking(self.language):
            return self._data(out_of)

    def _data(self, out_of: float) -> dict:
        first = self.failure
        return {
            "ok": self.ok,
            "points": self.points(out_of),
            "order": self.order,
            "results": {name: {"passed": p, "tried": t} for name, (p, t) in self.results.items()},
            "bug": first and first.bug,
            "mistake": first and first.name,
            "hint": first and first.hint,
            "notes": [str(note) for note in self.notes],
            "summary": self.summary(),
            "failures": [f.to_dict() for f in self.failures],
            "cpu": round(self.cpu, 6),
            "stdout": self.stdout[:OUTPUT_KEPT],
            "show": self.show,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Report:
        """The report that `to_dict` made `data` from."""
        return cls(
            {name: (r["passed"], r["tried"]) for name, r in data["results"].items()},
            [Failure.from_dict(f) for f in data.get("failures", ())],
            data.get("order"),
            list(data.get("notes", ())),
            data.get("show", True),
            data.get("stdout", ""),
            data.get("cpu", 0.0),
        )

    def __repr__(self) -> str:
        return f"<Report: {self.summary()}>"

    def summary(self) -> str:
        """One line: boards right in each category.

        Examples
        --------
        >>> Report({"examples": (2, 2), "tricky": (7, 8)}).summary()
        "Boards right: the problem's examples 2/2, tricky boards 7/8."
        """
        with speaking(self.language):
            parts = [
                _("{category} {passed}/{tried}").format(category=CATEGORIES[name], passed=p, tried=t)
                for name, (p, t) in self.results.items()
                if name != "order"
            ]
            if "order" in self.results:
                p, t = self.results["order"]
                order = ORDER_WORDS[self.order] if self.order in ORDER_WORDS else "?"
                parts.append(_("order ({order}) {passed}/{tried}").format(order=order, passed=p, tried=t))
            return _("Boards right: {categories}.").format(categories=listed(parts))

    def __str__(self) -> str:
        with speaking(self.language):
            return for_terminal(self._text(), lines=True)  # what the code raised: no escape runs

    def _text(self) -> str:
        if self.ok:
            n = self.total
            if self.order:
                said = _n(
                    "All {n} board right, in {order} order. Well done!",
                    "All {n} boards right, in {order} order. Well done!",
                    n,
                ).format(n=n, order=ORDER_WORDS[self.order])
            else:
                said = _n("All {n} board right. Well done!", "All {n} boards right. Well done!", n).format(
                    n=n
                )
            return "\n".join([said, self.summary(), *self.notes])
        first = self.failure
        lines = [
            _("Not yet: {mistake}.").format(mistake=first.name),
            _("Hint: {hint}").format(hint=first.hint),
            self.summary(),
        ]
        for f in self.failures:
            lines += ["", failure_text(f)]
        if self.notes:
            lines += ["", *self.notes]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        text = f'<pre style="white-space: pre-wrap">{for_html(str(self))}</pre>'
        if self.show and not self.ok:
            picture = _figure_png(self.draw())
            if picture:
                with speaking(self.language):
                    alt = html.escape(_("the first wrong board: {mistake}").format(mistake=self.failure.name))
                text += f'<img alt="{alt}" src="data:image/png;base64,{picture}">'
        return text

    def draw(self, failure: Failure | None = None):
        """Draw a failure (the first by default): the board, the right answer, yours; return the figure.

        Draws what can be drawn and never raises: an answer that is not a
        board is shown as text. Returns None when there is no failure.
        """
        failure = failure or self.failure
        if failure is None:
            return None
        from ..plot import draw_failure

        return draw_failure(failure)


def _figure_png(fig) -> str | None:
    """The figure as base64 PNG text, then closed; None if it cannot be drawn."""
    import base64
    import io

    import matplotlib.pyplot as plt

    if fig is None:
        return None
    try:
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=80)
        return base64.b64encode(buffer.getvalue()).decode("ascii")
    except Exception:
        return None
    finally:
        plt.close(fig)
