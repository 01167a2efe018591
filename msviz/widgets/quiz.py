"""The quiz: predict the next cell of a reveal."""

from __future__ import annotations

from .. import _checks
from ..i18n import in_own_language, speaks
from ..trace import Trace, trace
from ..trace import checked as checked_trace
from ..traversal import READING_ORDER
from ..view import BoardView
from ..words import (
    PAGE,
    QUIZ_NOT_A_TRY,
    QUIZ_RIGHT,
    fill,
    quiz_asks_return,
    quiz_judge,
    quiz_rule,
    quiz_score,
    quiz_verdict,
)
from ._common import _reports_errors

__all__ = ["Quiz", "quiz"]


class Quiz(BoardView):
    """Predict the next cell: the board shows a reveal before its next step; click the cell you expect.

    Build it with :func:`quiz`. A click on the board is a guess, judged in the
    browser with no round-trip to the kernel: depth-first, only the exact cell
    of the next call counts; breadth-first, any hidden cell of the next cell's
    layer does (the view says which rule applies). Depth-first, when a call
    returns before the next call, the quiz first asks whose call goes on: a
    click on the cell of that call, on the stack's path. The view says right
    or wrong, shows the true next step, and keeps the score, which `score`
    reads back; "Start again" goes back to the first step with a score of 0.

    It is one board view, in quiz mode: `trace` is the reveal, `step` the step
    shown (the guess asked for is the cell of the step after it), and
    :meth:`guess` makes a guess from Python, as a click does in the browser.
    """

    def __init__(self, t: Trace, *, max_cell: int = 32, guesses: int | None = None):
        t = checked_trace(t, name="the reveal")
        first = 0 if len(t) else -1
        #: The last step asked for: the reveal's last, or where `guesses` questions (calls and
        #: returns) are asked.
        self.last_question = len(t) - 1 if guesses is None else _last_step_within(t, first, guesses)
        # The click's own cell is given: the first guess is the step after it. Breadth-first,
        # the queue drawn would give the answer away (its front is the next cell), so it is hidden.
        super().__init__(
            t,
            step=first,
            quiz=True,
            quiz_last=self.last_question,
            keyboard=False,
            max_cell=max_cell,
            show_frontier=t.order == "dfs",
            restart=fill("quiz_start_again"),
        )
        self.on_restart(self._restart)

    @property
    def view(self) -> BoardView:
        """The board view: the quiz itself (kept for code written when the two were apart)."""
        return self

    @property
    def _first(self) -> int:
        """The step shown at the start: the click's own cell (-1 when it reveals nothing)."""
        return 0 if len(self.trace) else -1

    @property
    def score(self) -> tuple[int, int]:
        """The score as ``(right, tries)``: the guesses that counted, and all guesses made."""
        return self.quiz_right, self.quiz_tries

    @property
    def returning(self) -> bool:
        """Whether the question now is whose call goes on after a return (depth-first), not the next call."""
        return not self.over and quiz_asks_return(self.trace, self.step) and not self.quiz_returned

    @property
    @in_own_language
    def question(self) -> str:
        """Say the question asked now: the rule of the next call, or whose call goes on after a return."""
        if not self.returning:
            return quiz_rule(self.trace.order)
        cell = self.trace.visit(self.step)
        return fill("quiz_return_ask", row=cell.row, col=cell.col)

    @property
    def over(self) -> bool:
        """Whether the quiz has no step left to ask (at the end of the reveal, or of its questions)."""
        return self.step >= self.last_question

    @in_own_language
    def guess(self, row: int, col: int) -> str:
        """Guess that cell (row, col) is revealed next, as a click on the board does; return the verdict.

        When the question is a return (`returning`), the guess is the call that
        goes on. A guess of a cell already uncovered (of a hidden cell, for a
        return) is not counted. Once the quiz is over, the final score is
        returned and nothing changes.
        """
        row = _checks.whole_number("row", row)
        col = _checks.whole_number("col", col)
        rows, cols = self.trace.shape
        _checks.click((row, col), (rows, cols), name="cell")  # on the board, or said why not
        right, tries = self.score
        if self.over:
            return quiz_score(right, tries, over=True, cut=self.last_question < len(self.trace) - 1)
        k, returning = self.step, self.returning
        kind = quiz_judge(self.trace, k, row, col, returning=returning)
        if kind not in QUIZ_NOT_A_TRY:
            with self.hold_sync():
                self.quiz_right = right + (kind in QUIZ_RIGHT)
                self.quiz_tries = tries + 1
                self.quiz_returned = returning  # answered; after a call, the next step asks afresh
                if not returning:
                    self.step = k + 1
        return quiz_verdict(self.trace, k, row, col, returning=returning)

    def start_again(self) -> None:
        """Go back to the first step, with a score of 0."""
        with self.hold_sync():
            self.quiz_right = self.quiz_tries = 0
            self.quiz_returned = False
            self.step = self._first

    def _offline(self) -> dict:
        """A page with no kernel judges the guesses as the view does here (quiz.js), and starts again;
        it says that it is practice (nothing answered in a page is marked)."""
        return {"kind": "quiz", "practice": PAGE["practice"]}

    @_reports_errors
    def _restart(self) -> None:
        self.start_again()


def _last_step_within(t: Trace, first: int, guesses: int) -> int:
    """The last step of `t` reached when at most `guesses` questions are asked (a return counts as one)."""
    k, asked = first, 0
    while k < len(t) - 1:
        asked += 1 + quiz_asks_return(t, k)
        if asked > guesses:
            break
        k += 1
    return k


@speaks
def quiz(
    board,
    click,
    *,
    order: str = "dfs",
    neighbors=READING_ORDER,
    max_cell: int = 32,
    guesses: int | None = None,
) -> Quiz:
    """Return a quiz on one click's reveal: predict each next cell, and keep a score.

    Parameters
    ----------
    board, click, neighbors
        As for :func:`msviz.dfs_reveal`. The board is never changed.
    order : {"dfs", "bfs"}
        The traversal to predict: depth-first, the exact next call counts;
        breadth-first, any hidden cell of the next cell's layer.
    max_cell : int
        The largest side of a cell in pixels; cells shrink to fit the width.
    guesses : int, optional
        Ask at most this many questions (a short quiz for class); depth-first,
        each return before a next call is a question too. By default the quiz
        asks up to the reveal's last step.

    Examples
    --------
    >>> import msviz
    >>> short = msviz.quiz(["EEEE", "EEEE", "EEEM"], (0, 0), guesses=2)
    >>> short.guess(0, 1), short.guess(1, 0)[:9], short.over
    ('Right: (0, 1) is next.', 'Not this ', True)
    >>> short.guess(2, 2)
    'That was the last question: you predicted 1 of 2 steps.'
    >>> d = msviz.quiz(["EEE", "EEM"], (0, 0))
    >>> d.guess(0, 1), d.returning  # (0, 1) is a digit: its call returns
    ('Right: (0, 1) is next.', True)
    >>> d.question[:44]
    'The call on (0, 1) has nothing left to call '
    >>> d.guess(0, 0), d.returning, d.score
    ('Right: the calls return to (0, 0), which makes the next call.', False, (2, 2))
    >>> q = msviz.quiz(["EEE", "EEM"], (0, 0), order="bfs")
    >>> q.step, q.score
    (0, (0, 0))
    >>> q.guess(1, 1)  # not the next cell, but of its layer: it counts
    'Right: (1, 1) is in the same layer; the queue takes (0, 1) first.'
    >>> q.guess(0, 2)
    "Not this one: (0, 2) is not in the next cell's layer; the queue takes (1, 0) next."
    >>> q.step, q.score
    (2, (1, 2))
    """
    max_cell = _checks.px(max_cell, name="max_cell")  # before the trace is made
    if guesses is not None:
        guesses = _checks.whole_number("guesses", guesses, least=1)
    return Quiz(trace(board, click, order=order, neighbors=neighbors), max_cell=max_cell, guesses=guesses)
