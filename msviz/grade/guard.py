"""What the student's code may not change: msviz's modules, builtins and `sys.modules`."""

from __future__ import annotations

import builtins
import itertools
import operator
import os
import sys
import types


def _watched_modules() -> list[types.ModuleType]:
    """The modules whose names the grader relies on: msviz's own, and builtins."""
    return [m for name, m in list(sys.modules.items()) if name == "msviz" or name.startswith("msviz.")] + [
        builtins
    ]


def _ignored(module, name: str) -> bool:
    """Names that change on their own: dunders (a warning adds ``__warningregistry__``), builtins' ``_``."""
    return name.startswith("__") or (module is builtins and name.startswith("_"))


class Guard:
    """What the student's code may not change: msviz's modules, builtins and `sys.modules`.

    Made once before the student's code runs; `restore` after each call
    checks, fast, that every name still holds the same object (and every
    function the same code), and puts back whatever changed.
    """

    def __init__(self):
        self.spaces = []
        self.functions = []
        for module in _watched_modules():
            names = {k: v for k, v in vars(module).items() if not _ignored(module, k)}
            self.spaces.append((module, vars(module), len(vars(module)), tuple(names), tuple(names.values())))
            for k, v in names.items():
                if isinstance(v, types.FunctionType):
                    self.functions.append(
                        (f"{module.__name__}.{k}", v, v.__code__, v.__defaults__, v.__kwdefaults__)
                    )
        self.modules = dict(sys.modules)

    def _intact(self) -> bool:
        same = operator.is_
        for _, space, size, keys, values in self.spaces:
            if len(space) != size or not all(map(same, map(space.get, keys), values)):
                return False
        codes = (
            f.__code__ is c and f.__defaults__ is d and f.__kwdefaults__ is k
            for _, f, c, d, k in self.functions
        )
        return all(codes) and all(map(same, map(sys.modules.get, self.modules), self.modules.values()))

    def restore(self) -> list[str]:
        """Put back what changed; return the names that had changed (none, almost always)."""
        if self._intact():
            return []
        changed = []
        for name, module in self.modules.items():
            if sys.modules.get(name) is not module:
                sys.modules[name] = module
                changed.append(f"sys.modules[{name!r}]")
        for module, space, _, keys, values in self.spaces:
            for name, value in zip(keys, values):
                if space.get(name) is not value:
                    setattr(module, name, value)
                    changed.append(f"{module.__name__}.{name}")
            for name in [n for n in space if n not in set(keys) and not _ignored(module, n)]:
                delattr(module, name)
                changed.append(f"{module.__name__}.{name}")
        for name, function, code, defaults, kwdefaults in self.functions:
            now = (function.__code__, function.__defaults__, function.__kwdefaults__)
            if any(a is not b for a, b in zip(now, (code, defaults, kwdefaults))):
                function.__code__, function.__defaults__, function.__kwdefaults__ = code, defaults, kwdefaults
                changed.append(name)
        return changed


def msviz_uses() -> int:
    """How many reveals msviz's engine has started so far (each takes one number), and how many times
    the code asked for the engine where it is not loaded (a class command's runner, `engine_refused`)."""
    traversal = sys.modules.get("msviz.traversal")
    started = next(traversal.STARTED) if hasattr(traversal, "STARTED") else next(_CALLS)
    return started + ASKED["engine"]


_CALLS = itertools.count()
#: What the code in this process tried that a runner refuses, by kind, counted: ``"engine"`` (msviz's
#: engine, where it is not loaded), ``"thread"``, ``"process"``, ``"program"``, ``"limit"``.
ASKED = dict.fromkeys(("engine", "thread", "process", "program", "limit"), 0)


def _counted(kind: str, function, when=None):
    """`function`, counting each call (each for which ``when(*args)`` is true) in ``ASKED[kind]``."""

    def counted(*args, **kwargs):
        if when is None or when(*args, **kwargs):
            ASKED[kind] += 1
        return function(*args, **kwargs)

    counted.__name__ = getattr(function, "__name__", kind)
    counted.__doc__ = getattr(function, "__doc__", None)
    return counted


def count_spawning() -> None:
    """Count, in `ASKED`, each thread, process, program and limit the code in this process asks for.

    Done once in a runner, whose fence refuses each of them (`msviz.grade.sandbox.refuse_spawning`):
    the count names the attempt (a thread started through ctypes is refused all the same, unnamed).
    """
    import _thread
    import resource
    import threading

    places = [(_thread, "start_new_thread", "thread"), (threading, "_start_new_thread", "thread")]
    places += [(_thread, "start_joinable_thread", "thread"), (threading, "_start_joinable_thread", "thread")]
    places += [(os, name, "process") for name in ("fork", "forkpty", "posix_spawn", "posix_spawnp", "system")]
    places += [(os, name, "program") for name in ("execv", "execve")]
    try:
        import _posixsubprocess

        places.append((_posixsubprocess, "fork_exec", "process"))
    except ImportError:
        pass
    if "subprocess" in sys.modules:  # its own name for fork_exec, taken when it was imported
        places.append((sys.modules["subprocess"], "_fork_exec", "process"))
    places.append((resource, "setrlimit", "limit"))
    for module, name, kind in places:
        if callable(getattr(module, name, None)):
            setattr(module, name, _counted(kind, getattr(module, name)))
    if callable(getattr(resource, "prlimit", None)):
        resource.prlimit = _counted("limit", resource.prlimit, lambda *args: len(args) > 2)
