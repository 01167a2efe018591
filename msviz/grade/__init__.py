"""Grade a student's ``update_board(board, click)``, and record it to watch it run.

:func:`check` runs the function on the problem's two examples, on tricky boards
and on many random ones, mid-game ones included, and returns a `Report`: true
only when every board was right, how many boards of each kind were answered
right, the first wrong one (shrunk to the smallest board that fails the same
way), the mistake by name and a hint, partial credit (`Report.points`) and
Gradescope's ``results.json`` (`Report.to_gradescope`). With ``order="dfs"`` or
``"bfs"`` it also grades the order (`ORDER_RULE`).

:func:`record` runs the function once on a recording board, a list of rows
that log every write, and returns a `Recording`: the student's own run, which
:func:`msviz.player` and :func:`msviz.compare` show step by step.

Nothing the student's function does (raise, exit, loop for ever, recurse
without end, print, return anything at all, look for the answer, patch the
grader, write a forged report) makes :func:`check` or `Report.draw` raise or
fooled. The grader is split where trust ends: a *runner* only calls the
student's function and says what happened; a *judge*, which never runs
student code, reads that as untrusted data and decides. The parts:

- the runner's side: `runner` (the call, reported as plain data), `sandbox`
  and `seccomp` (the fence it puts on itself), `bare` (a runner without
  msviz's engine), `answers`, `writes`, `clock`, `guard`;
- the judge's side: `judge` (reading a runner's account), `remote` (a
  runner process as the judge sees it), `child` (`check`'s forked runner),
  `cases` (the boards tried), `mistakes`, `order`, `verdict` (`check` and
  the shrinker), `report` (the `Report`), `record`; `classroom`,
  `schedule` and `progress`: the class command, ``python -m msviz grade``;
  `shown`: what a submission wrote, made safe where a person sees it.
"""

from __future__ import annotations

from ..words import ORDER_RULE
from .cases import Case, Recipe, cases
from .mistakes import BUGS
from .record import Recording, record
from .report import CATEGORIES, Failure, Report
from .verdict import CHECK_BUDGET, check

__all__ = [
    "BUGS",
    "CATEGORIES",
    "CHECK_BUDGET",
    "ORDER_RULE",
    "Case",
    "Failure",
    "Recipe",
    "Recording",
    "Report",
    "cases",
    "check",
    "record",
]
