"""The results files: results.csv and results.json (one row per student), and class.html beside them."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from .limits import Limits
from .page import class_page
from .rows import COLUMNS, Row


def write_results(rows: list[Row], folder: Path, *, order: str | None, limits: Limits) -> list[Path]:
    """Write results.csv, results.json and class.html into `folder`; return their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    table, data, page = folder / "results.csv", folder / "results.json", folder / "class.html"
    with open(table, "w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(row.as_csv() for row in rows)
    document = {
        "order": order,
        "limits": {"cpu_seconds": limits.cpu, "memory_mb": limits.memory, "wall_seconds": limits.wall},
        "students": [_json_row(row) for row in rows],
    }
    data.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    page.write_text(class_page(rows, order=order), encoding="utf-8")
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
        "first_wrong_board": row.failure,
        "stdout": row.stdout,
    }
