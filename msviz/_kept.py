"""The name a student gave an object, so that a line to keep (``pre.answer(0, (4, 4))``) calls it by it.

A quiz bank or a simulation set shows the line of code that gives an answer
again; pasted into the notebook, that line must name the variable the
student made (``pre``, ``post``, ``bank``, ``sims``), whatever it is.
"""

from __future__ import annotations

import os
import sys

__all__ = ["held_as"]

_HERE = os.path.dirname(os.path.abspath(__file__))


def _names_of(value, namespace) -> list[str]:
    """The public names `namespace` binds to `value` itself (not IPython's ``_``, ``_3`` outputs)."""
    try:
        items = list(namespace.items())
    except Exception:  # a namespace that cannot be read: nothing found there
        return []
    return [k for k, v in items if v is value and isinstance(k, str) and k.isidentifier() and k[0] != "_"]


def held_as(value, default: str) -> str:
    """The name a notebook (or a script) holds `value` under, else `default`.

    Looked for in ``__main__`` (a notebook's names, in Jupyter), then in the
    module-level names of the code calling msviz (a script, a cell run by
    ``exec``, a grader running a notebook's cells).

    Examples
    --------
    >>> sims = object()
    >>> held_as(sims, "x")
    'sims'
    >>> held_as(object(), "bank")
    'bank'
    """
    main = sys.modules.get("__main__")
    found = _names_of(value, getattr(main, "__dict__", {}))
    frame = sys._getframe(1)
    while frame is not None and not found:
        if not os.path.abspath(frame.f_code.co_filename).startswith(_HERE):
            found = _names_of(value, frame.f_globals)
            if not found and frame.f_code.co_name == "<module>":
                found = _names_of(value, frame.f_locals)
        frame = frame.f_back
    return found[0] if found else default
