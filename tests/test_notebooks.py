"""The notebooks are committed clean: no outputs, no saved widget state."""

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


def test_there_are_six_notebooks():
    assert [p.name[:2] for p in NOTEBOOKS] == ["01", "02", "03", "04", "05", "06"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_committed_without_outputs(path):
    book = json.loads(path.read_text(encoding="utf-8"))
    for cell in book["cells"]:
        if cell["cell_type"] == "code":
            assert cell.get("outputs") == [], f"{path.name}: a cell has outputs"
            assert cell.get("execution_count") is None, f"{path.name}: a cell has an execution count"
    assert "widgets" not in book.get("metadata", {}), f"{path.name}: saved widget state"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_prose_first(path):
    book = json.loads(path.read_text(encoding="utf-8"))
    assert book["cells"][0]["cell_type"] == "markdown"
    source = book["cells"][0]["source"]
    assert "".join(source).startswith("# ")
