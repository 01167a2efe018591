"""The results files: results.csv and results.json (one row per student), and class.html beside them.

Each file is written by the judge alone, to a new file of its own in the
output folder and then renamed over the old one: a link planted there is
replaced, never written through, and an interrupted run leaves the last
complete results whole.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from pathlib import Path

from .limits import Limits
from .page import class_page
from .rows import COLUMNS, Row, gain


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path`: a new file beside it (never through a link), then renamed over it.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> where = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> write_atomically(where, "hello"); where.read_text()
    'hello'
    """
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(name, 0o644)
        os.replace(name, path)
    except BaseException:
        try:
            os.unlink(name)
        except OSError:
            pass
        raise


def write_results(
    rows: list[Row],
    folder: Path,
    *,
    order: str | None,
    limits: Limits,
    fence: list[str] | None = None,
    out_of: float = 1.0,
) -> list[Path]:
    """Write results.csv, results.json and class.html into `folder`; return their paths.

    `fence` lists the layers that fenced the submissions (`msviz.grade.sandbox.LAYERS`).
    """
    from .sandbox import layers_words

    folder.mkdir(parents=True, exist_ok=True)
    table, data, page = folder / "results.csv", folder / "results.json", folder / "class.html"
    held = layers_words(fence or [])
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=COLUMNS)
    writer.writeheader()
    writer.writerows(row.as_csv() for row in rows)
    document = {
        "order": order,
        "gain": gain(rows),
        "limits": {"cpu_seconds": limits.cpu, "memory_mb": limits.memory, "wall_seconds": limits.wall},
        "fence": {"layers": [layer for layer in (fence or [])], "words": held},
        "students": [_json_row(row) for row in rows],
    }
    write_atomically(table, text.getvalue())
    write_atomically(data, json.dumps(document, indent=1) + "\n")
    write_atomically(page, class_page(rows, order=order, fence=held, out_of=out_of))
    return [table, data, page]


def _json_row(row: Row) -> dict:
    return {
        "name": row.name,
        "file": row.file,
        "verdict": row.verdict,
        "points": row.points,
        "results": {name: list(pair) for name, pair in row.results.items()},
        "mistake": row.mistake or None,
        "hint": row.hint or None,
        "problem": row.problem or None,
        "notes": row.notes,
        "summary": row.summary or None,
        "made_for": row.made_for or None,
        "copies": row.copies,
        "raised": row.raised,
        "pre": row.pre,
        "post": row.post,
        "first_wrong_board": row.failure,
        "stdout": row.stdout,
    }
