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
from .shown import for_csv


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
    if any(row.steps for row in rows):
        write_atomically(folder / "steps.csv", steps_table(rows))
    return [table, data, page]


#: The columns of steps.csv: every step of every simulation attempt handed in, at its first try.
STEP_COLUMNS = ("student", "simulation", "attempt", "step", "operation", "right_at_first_try", "seconds")


def steps_table(rows: list[Row]) -> str:
    """steps.csv: one line a step of every attempt of every student's simulations (the table a teacher
    or a researcher analyses); no cell read as a formula.

    Examples
    --------
    >>> row = Row("ada", "ada.ipynb", "wrong")
    >>> row.steps = [{"simulation": 1, "attempt": 2, "step": 1, "operation": "t0.0", "right": True,
    ...               "seconds": 1.5}]
    >>> steps_table([row]).splitlines()
    ['student,simulation,attempt,step,operation,right_at_first_try,seconds', 'ada,1,2,1,t0.0,1,1.5']
    """
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(STEP_COLUMNS)
    for row in rows:
        name = for_csv(row.name)
        for s in row.steps:
            writer.writerow(
                [
                    name,
                    s["simulation"],
                    s["attempt"],
                    s["step"],
                    for_csv(s["operation"]),
                    int(s["right"]),
                    s["seconds"],
                ]
            )
    return text.getvalue()


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
        "simulations": row.simulations or None,
        "first_wrong_board": row.failure,
        "stdout": row.stdout,
    }
