"""What every widget shares: a callback that shows its errors, and the control bar's pace."""

from __future__ import annotations

import functools
import traceback

PLAY_SECONDS = 20  # at the default speed, a reveal plays in about this long
FPS = 10  # the default speed, frames a second


def _reports_errors(method):
    """Make a widget callback show its exception in the widget (its `error` trait)."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except Exception:
            self.error = traceback.format_exc()
            return None

    return wrapper


def _playing(steps: int) -> dict:
    """The control bar's traits for a reveal of `steps` steps: it plays in about PLAY_SECONDS."""
    return {
        "controls": True,
        "fps": FPS,
        "per_frame": max(1, round(steps / (PLAY_SECONDS * FPS))),
        "last_step": max(steps - 1, 0),
    }
