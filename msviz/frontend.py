"""The front end's source: the ES modules of ``msviz/js`` joined into one.

The board view's JavaScript is written as small ES modules, one job each
(``msviz/js/*.js``: reading a reveal, its words, the tiles, the overlay, the
code panel, the quiz, a simulation's panel, the pointer, one board, the control
bar and its clock, the stage that holds them). anywidget loads one module, and an exported page
embeds one script, so the parts are joined here, when msviz is imported: each
part's own ``import { ... } from "./part.js";`` lines are dropped (every part
is in the joined text already) and the rest is kept as written. Nothing is
built, bundled or fetched: the joined text is the parts, in the order of
`PARTS`.

Examples
--------
>>> from msviz.frontend import ESM, PARTS, part
>>> ESM.count("export default"), len(PARTS) > 5
(1, True)
>>> "import {" in ESM, part("controls.js").startswith("// msviz/js/controls.js")
(False, True)
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = [
    "FOLDER",
    "PARTS",
    "PAGE_PARTS",
    "OFFLINE_PARTS",
    "BANK_PARTS",
    "ESM",
    "BANK_ESM",
    "CSS",
    "part",
    "join",
]

#: Where the parts are.
FOLDER = Path(__file__).with_name("js")
#: The widget's parts, in the order they are joined (a part comes after those it reads at load).
PARTS = (
    "reveal.js",  # one reveal read from the traits, and what any event shows
    "words.js",  # captions and the quiz's verdicts, from Python's templates
    "sprites.js",  # the tiles, drawn once per cell size
    "parts.js",  # a new element, the live region's voice, the pointer
    "code.js",  # the code panel and the stack's frames or the queue
    "quiz.js",  # a click is a guess, judged here
    "simulate.js",  # be the computer: operations sent to Python, its verdicts shown
    "tiles.js",  # the cells on their canvas
    "overlay.js",  # the stack's path, the queue's numbers, the quiz's mark, the cursor
    "layout.js",  # where a board's parts go: board, caption and code all in sight
    "legend.js",  # the legend under a board
    "keys.js",  # a player's keys, the quiz's and the game's cursor
    "board.js",  # one board view, wired
    "controls.js",  # the control bar and its play clock
    "stage.js",  # the widget: its boards, one bar, a status line (export default)
)
#: An exported page's script: the widget's parts, and the page's start (no kernel).
PAGE_PARTS = (*PARTS, "page.js")
#: What a page answers in place of a kernel (a game's clicks looked up, a quiz started again, a
#: bank's and a simulation's practice): joined after `PAGE_PARTS` where a widget needs it.
OFFLINE_PARTS = ("offline.js", "practice.js")
#: The quiz bank's widget (`msviz.homework`): its own part, with `make` from parts.js.
BANK_PARTS = ("parts.js", "bank.js")
#: The view's style sheet (anywidget's _css; an exported page embeds it).
CSS = Path(__file__).with_name("view.css")

_IMPORT = re.compile(r'^import \{[^}]*\} from "\./[a-z]+\.js";\n', re.MULTILINE)
_DEFAULT = re.compile(r"^export default \{[^}]*\};\n?", re.MULTILINE)


def part(name: str) -> str:
    """Return the text of part `name` (a file of ``msviz/js``)."""
    if name not in PAGE_PARTS + BANK_PARTS + OFFLINE_PARTS:
        known = list(dict.fromkeys(PAGE_PARTS + BANK_PARTS + OFFLINE_PARTS))
        raise ValueError(f"no front-end part is named {name!r}; the parts are {known}")
    return (FOLDER / name).read_text(encoding="utf-8")


def join(names=PARTS, *, page: bool = False) -> str:
    """Return the parts `names` as one ES module: each without its imports of the others (and, for
    a `page`'s script, which starts its widget itself, without anywidget's default exports)."""
    text = "\n".join(_IMPORT.sub("", part(name)) for name in names)
    return _DEFAULT.sub("", text) if page else text


#: The widget's ES module: every part of `PARTS`, joined.
ESM = join()
#: The quiz bank's ES module.
BANK_ESM = join(BANK_PARTS)
