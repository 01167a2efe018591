"""The class command's progress on the terminal: one line, redrawn after each submission.

A row's name and words came from a submission: they go through
`msviz.grade.shown.for_terminal`, so that no escape sequence runs and no
forged line ("[9/9] carol: right") can start.
"""

from __future__ import annotations

import shutil
import sys

from ..i18n import _
from .rows import Row
from .shown import for_terminal
from .vocabulary import VERDICT_WORDS

__all__ = ["Progress"]


class Progress:
    """One line on stderr, redrawn after each submission; a plain line each when not a terminal."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.live = hasattr(self.stream, "isatty") and self.stream.isatty()

    def __call__(self, done: int, total: int, row: Row | None) -> None:
        if row is None:  # the start: an empty bar on a terminal, nothing otherwise
            if self.live:
                self.stream.write(f"\r[{'.' * 30}] 0/{total}")
                self.stream.flush()
            return
        said = for_terminal(row.mistake or row.problem or "")  # a submission's words: no escape runs
        name = for_terminal(row.name)
        verdict = VERDICT_WORDS[row.verdict] if row.verdict in VERDICT_WORDS else row.verdict
        if not self.live:
            line = f"[{done}/{total}] {name}: {verdict}"
            if said:
                line = _("{line} ({said})").format(line=line, said=said)
            print(line, file=self.stream)
            return
        filled = round(30 * done / total)
        line = f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} {name}: {verdict}"
        width = shutil.get_terminal_size().columns - 1
        self.stream.write(line[: width + 1].ljust(width + 1))
        if done == total:
            self.stream.write("\n")
        self.stream.flush()
