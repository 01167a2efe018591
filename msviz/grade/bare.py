"""A runner without msviz's engine: where a function is graded, msviz's reveal is not there to use.

The class command starts the runner that grades a function with `BARE`:
msviz's two packages (``msviz``, ``msviz.grade``) are made empty modules,
their ``__init__`` never runs, and only the runner's own modules are loaded
(its board reader, its clock, its guard: none reveals a cell). Its fence
then hides msviz's folder (`msviz.grade.sandbox.enter`'s ``hidden``), and
`refuse_engine` makes every name or module asked of msviz a refusal,
counted in `msviz.grade.guard.ASKED`: the runner reports it, and the judge
names the mistake "msviz's own reveal used". That msviz did no work is so
not a count the submission could patch: the engine is not in the process.

Examples
--------
>>> BARE[0]
'-c'
"""

from __future__ import annotations

import os
import sys
import types

from .guard import ASKED

__all__ = ["BARE", "ENGINE_REFUSED", "refuse_engine", "count_engine_read"]

#: msviz's folder, which the fence of a runner without the engine hides.
FOLDER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: The command line that starts a runner without msviz's engine: msviz's two packages are made empty
#: (their ``__init__`` does not run), so that only what the runner needs is loaded; its fence then
#: hides msviz's folder, and a submission that asks for the engine is refused and named.
BARE = (
    "-c",
    "import importlib.util, sys, types\n"
    "where = list(importlib.util.find_spec('msviz').submodule_search_locations)\n"
    "for name, path in (('msviz', where), ('msviz.grade', [p + '/grade' for p in where])):\n"
    "    sys.modules[name] = types.ModuleType(name)\n"
    "    sys.modules[name].__path__ = path\n"
    "from msviz.grade.runner import entry\n"
    "entry()",
)


class _Refused(types.ModuleType):
    """msviz, as a runner without its engine shows it: each name asked for is counted and refused."""

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        ASKED["engine"] += 1
        raise AttributeError(ENGINE_REFUSED)


class _EngineFinder:
    """Refuses (and counts) every module of msviz's not loaded already."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name == "msviz" or name.startswith("msviz."):
            ASKED["engine"] += 1
            raise ModuleNotFoundError(ENGINE_REFUSED, name=name)
        return None


#: What a submission that asks for msviz's engine in a runner without it is told.
ENGINE_REFUSED = "msviz's engine is not loaded where your function is graded: write the reveal yourself"


def refuse_engine() -> None:
    """In a runner started by `BARE`: msviz's packages answer no name, and load no module more."""
    for name in ("msviz", "msviz.grade"):
        module = sys.modules[name]
        module.__class__ = _Refused
        module.__path__ = []
    sys.meta_path.insert(0, _EngineFinder)


def count_engine_read(error: BaseException) -> None:
    """Count, as an attempt on msviz's engine, an error of reading a file in msviz's folder (which the
    fence hides from a runner without the engine: its source read to be run).

    Examples
    --------
    >>> before = ASKED["engine"]
    >>> count_engine_read(PermissionError(13, "Permission denied", FOLDER + "/traversal.py"))
    >>> ASKED["engine"] - before
    1
    >>> ASKED["engine"] -= 1
    """
    name = getattr(error, "filename", None)
    if isinstance(error, OSError) and isinstance(name, str):
        if os.path.commonpath([os.path.abspath(name), FOLDER]) == FOLDER:
            ASKED["engine"] += 1
