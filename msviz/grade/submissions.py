"""Finding and loading submissions: files and notebooks, their function, and what cannot be read."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..i18n import _
from .vocabulary import FUNCTION_NAMES, clip


@dataclass(frozen=True)
class Submission:
    """One student's file, and the name their row is given."""

    name: str
    path: Path


def find_submissions(paths) -> list[Submission]:
    """Return the submissions among `paths`: ``.py`` files and notebooks, folders searched through.

    A student is named after their file's stem. When files share a stem, as
    in nbgrader's ``submitted/alice/ps1/hw.ipynb`` and
    ``submitted/bob/ps1/hw.ipynb``, after the first folder under the one
    given (``alice``, ``bob``) or, if that is shared too, their path under it.

    Examples
    --------
    >>> find_submissions(["no/such/file.py"])
    Traceback (most recent call last):
    ...
    ValueError: no such file or folder: 'no/such/file.py'
    """
    found: list[tuple[Path, Path]] = []  # (file, the folder it was found under)
    for given in map(Path, paths):
        if given.is_dir():
            files = sorted(f for f in given.rglob("*") if _is_submission(f, given))
            if not files:
                raise ValueError(f"no submission in {str(given)!r}: no .py file or notebook (.ipynb) in it")
            found += [(f, given) for f in files]
        elif given.is_file():
            if given.suffix not in (".py", ".ipynb"):
                raise ValueError(f"{str(given)!r} is not a submission: give .py files, notebooks or folders")
            found.append((given, given.parent))
        else:
            raise ValueError(f"no such file or folder: {str(given)!r}")
    if not found:
        raise ValueError("no submission given: name .py files, notebooks or folders")
    unique = list(dict.fromkeys(found))
    names = [f.stem for f, _rest in unique]
    for stem in {n for n in names if names.count(n) > 1}:
        shared = [i for i, n in enumerate(names) if n == stem]
        paths = [unique[i][0].relative_to(unique[i][1]) for i in shared]
        firsts = [p.parts[0] if len(p.parts) > 1 else p.stem for p in paths]
        if len(set(firsts)) < len(firsts):
            firsts = [p.with_suffix("").as_posix() for p in paths]
        for i, name in zip(shared, firsts):
            names[i] = name
    return [Submission(name, f) for name, (f, _rest) in zip(names, unique)]


def _is_submission(path: Path, top: Path) -> bool:
    parts = path.relative_to(top).parts
    hidden = any(p.startswith((".", "__")) for p in parts)  # .ipynb_checkpoints, __pycache__, __init__.py
    return path.is_file() and path.suffix in (".py", ".ipynb") and not hidden


def could_not_be_read(why: str) -> str:
    """What a row says of a file that is not Python or not a notebook."""
    return _("could not be read: {why}").format(why=why)


def load_code(path: Path) -> tuple[dict, list[str]]:
    """Run a ``.py`` file or a notebook's code cells in one namespace; return it and notes.

    An error in a cell (or in the file) is noted, and the cells after it run
    all the same, so a function defined before a broken cell is still graded.
    IPython's ``%magic`` and ``!shell`` lines are skipped.

    Raises
    ------
    ValueError
        When the file cannot be read at all: not UTF-8, not a notebook, a syntax error.
    """
    # A notebook's cells run as Jupyter runs them, as __main__; a file's `if __name__ == "__main__":`
    # block (its own tests, input()) does not run, as when it is imported.
    name = "__main__" if path.suffix == ".ipynb" else "__submission__"
    namespace = {"__name__": name, "__file__": str(path), "display": _display}
    notes = []
    for where, filename, source in _code_of(path):
        try:
            code = compile(source, filename, "exec")
        except SyntaxError as error:
            if path.suffix == ".py":
                raise ValueError(f"SyntaxError: {error.msg} (line {error.lineno})") from None
            said = _("{where} was not run: {error} (line {line})")
            notes.append(said.format(where=where, error=f"SyntaxError: {error.msg}", line=error.lineno))
            continue
        try:
            exec(code, namespace)
        except MemoryError:
            raise
        except BaseException as error:  # SystemExit too: a notebook's exit() ends one cell
            said = _("{where} raised {error}").format(
                where=where, error=f"{type(error).__name__}: {clip(str(error), 100)}"
            )
            notes.append(said)
    return namespace, notes


def _display(*objects, **options) -> None:
    """Stands in for IPython's display() when a notebook's cells are run outside Jupyter."""


def _code_of(path: Path):
    """Yield (where, filename, source) for the file, or for each code cell of a notebook."""
    import linecache

    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError(_("it is not UTF-8 text")) from None
    except OSError as error:
        raise ValueError(error.strerror or str(error)) from None
    if path.suffix != ".ipynb":
        yield _("the file"), str(path), text
        return
    try:
        cells = json.loads(text)["cells"]
    except (ValueError, KeyError, TypeError):
        raise ValueError(_("it is not a notebook (.ipynb): its JSON has no cells")) from None
    number = 0
    for cell in cells:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        number += 1
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        if source.lstrip().startswith("%%"):  # a cell magic: the whole cell is not Python
            continue
        source = "\n".join(
            "pass  # " + line if line.lstrip().startswith(("%", "!")) else line
            for line in source.splitlines()
        )
        filename = f"<{path.name} cell {number}>"
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        yield _("code cell {number}").format(number=number), filename, source


def find_function(namespace: dict, name: str | None = None):
    """Return the student's function and what it is called, or (None, None).

    Looked for, in order: `name` if given, then ``update_board``,
    ``updateBoard``, then ``Solution().updateBoard`` (LeetCode's form).

    Examples
    --------
    >>> class Solution:
    ...     def updateBoard(self, board, click):
    ...         return board
    >>> find_function({"Solution": Solution})[1]
    'Solution().updateBoard'
    """
    for candidate in ((name,) if name else ()) + FUNCTION_NAMES:
        function = namespace.get(candidate)
        if callable(function) and not isinstance(function, type):
            return function, candidate
    solution = namespace.get("Solution")
    if isinstance(solution, type) and callable(getattr(solution, "updateBoard", None)):
        return solution().updateBoard, "Solution().updateBoard"
    return None, None
