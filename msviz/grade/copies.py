"""Copies named: rows that hand in one name's homework, another student's name, or the same code.

The class command gives no penalty for any of these: it names them on each
row concerned (results.csv's ``copies`` column, results.json, class.html) so
that the teacher sees them and decides.

- **The same seed.** A quiz bank or simulation set is made from a name: two
  notebooks that hand in homework made for one name are named on both rows
  ("the same seed ('leo') as leo.ipynb").
- **Another's name.** A file whose homework was made for a name that is not
  its student's (the name the class page gives the file) is named.
- **The same code.** Files whose code is the same once comments, blank lines
  and whitespace are taken out are named on each other's rows.
"""

from __future__ import annotations

import hashlib
import io
import re
import tokenize
from pathlib import Path

from ..i18n import _, listed
from .rows import Row

__all__ = ["name_copies", "plain_code", "same_person"]

#: A file larger than this is not read for its code (the runner refuses it too).
MOST_BYTES = 20 * 1024 * 1024


def plain_code(source: str) -> str:
    """`source` without its comments, blank lines and whitespace: what two copies share.

    Examples
    --------
    >>> plain_code("x = 1  # mine\\n\\n# a note\\nif x:\\n    y = [x, 2]\\n")
    'x=1ifx:y=[x,2]'
    >>> plain_code("a  =  '# kept'") == plain_code("a='# kept'")
    True
    """
    try:
        tokens = [
            t.string
            for t in tokenize.generate_tokens(io.StringIO(source).readline)
            if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT)
            and t.type not in (tokenize.DEDENT, tokenize.ENDMARKER)
        ]
    except (tokenize.TokenError, SyntaxError, ValueError):  # not Python: its lines, comments dropped
        tokens = [line.split("#", 1)[0] for line in source.splitlines()]
    return re.sub(r"\s+", "", "".join(tokens))


def _code_of_file(path: Path) -> str:
    """The plain code (`plain_code`) of a .py file or of a notebook's code cells, "" if unreadable."""
    from .submissions import _code_of

    try:
        if path.stat().st_size > MOST_BYTES:
            return ""
        return "".join(plain_code(source) for _where, _file, source in _code_of(path))
    except (OSError, ValueError):
        return ""


def _words(name: str) -> list[str]:
    return re.findall(r"[^\W_]+", str(name).casefold())


def same_person(seed: str, name: str) -> bool:
    """Whether a hand-in made for `seed` may be the student called `name` (their file's name): the
    same words, ignoring case and punctuation, one name's words among the other's.

    Examples
    --------
    >>> same_person("Ada Lovelace", "ada_lovelace"), same_person("ada", "ada"), same_person("leo", "ada")
    (True, True, False)
    >>> same_person("Ada Lovelace", "ada")
    True
    """
    a, b = _words(seed), _words(name)
    if not a or not b:
        return False
    return "".join(a) == "".join(b) or set(a) <= set(b) or set(b) <= set(a)


def _shown(rows: list[Row]) -> dict[int, str]:
    """How each row's file is named on other rows: its file's name, with the student's name where
    several files share one file name."""
    names = [Path(row.file).name for row in rows]
    shared = {name for name in names if names.count(name) > 1}
    return {i: f"{names[i]} ({row.name})" if names[i] in shared else names[i] for i, row in enumerate(rows)}


def name_copies(rows: list[Row]) -> list[Row]:
    """Name on each row what it shares with others (`Row.copies`); return the rows.

    Examples
    --------
    >>> rows = [Row(who, f"a/{who}.ipynb", "right", seeds=["leo"]) for who in ("ada", "leo")]
    >>> for row in name_copies(rows):
    ...     print(row.copies)
    ["made for 'leo', not for ada", "the same seed ('leo') as leo.ipynb"]
    ["the same seed ('leo') as ada.ipynb"]
    """
    shown = _shown(rows)
    by_seed: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        for seed in dict.fromkeys(str(s).strip().casefold() for s in row.seeds):
            by_seed.setdefault(seed, []).append(i)
    by_code: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        code = _code_of_file(Path(row.file))
        if code:
            by_code.setdefault(hashlib.sha256(code.encode()).hexdigest(), []).append(i)
    for i, row in enumerate(rows):
        said = [
            _("made for {seed}, not for {name}").format(seed=repr(seed), name=row.name)
            for seed in dict.fromkeys(row.seeds)
            if not same_person(seed, row.name)
        ]
        for seed in dict.fromkeys(row.seeds):
            others = [shown[j] for j in by_seed[str(seed).strip().casefold()] if j != i]
            if others:
                same = _("the same seed ({seed}) as {files}")
                said.append(same.format(seed=repr(seed), files=listed(others)))
        for files in by_code.values():
            if i in files and len(files) > 1:
                others = [shown[j] for j in files if j != i]
                said.append(_("the same code as {files}").format(files=listed(others)))
        row.copies = said
    return rows
