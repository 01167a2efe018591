"""The widgets: a step-through player, DFS vs BFS side by side, a game, a quiz, "Be the computer".

Each is one `msviz.view.BoardView` (an anywidget) that draws its own controls
in the browser: Play and Pause, steps back and on, first and last, a scrub bar
with the step number, speed, steps a frame and what one step is (a revealed
cell, or every event). Play runs on the browser's own clock, so it keeps its
pace with no kernel, and there are no ipywidgets around the board: the same
widget shows in JupyterLab, Notebook 6 and 7, VS Code, Colab, Voila and marimo
(``mo.ui.anywidget(msviz.player(t))``). The step, speed, mode and whether it
plays are traits that Python reads and sets (``p.step = 40`` moves the view);
``ipywidgets.jslink`` to a slider still works where ipywidgets run.

One module a widget: `player`, `compare`, `game`, `quiz`, `simulate`; what
they share is in `_common`. Errors raised inside a callback (a cell clicked,
the restart button) are shown in the widget itself, under the board (its
`error` trait).
"""

from .compare import Compare, compare
from .game import Game, game
from .player import Player, caption, player
from .quiz import Quiz, quiz
from .simulate import Simulate, carried_out, simulate

__all__ = [
    "Player",
    "Compare",
    "Game",
    "Quiz",
    "Simulate",
    "player",
    "compare",
    "game",
    "quiz",
    "simulate",
    "caption",
    "carried_out",
]
