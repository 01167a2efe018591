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


def test_where_widgets_cannot_run_a_saved_notebook_shows_the_board_as_a_png():
    """nbviewer, GitHub and nbconvert without widget state fall back to the view's PNG."""
    import base64
    import io
    import re

    import nbformat
    from nbconvert import HTMLExporter
    from nbconvert.preprocessors import ExecutePreprocessor
    from PIL import Image

    code = "import msviz\nmsviz.player(msviz.random_board(9, 9, 10, seed=1, safe=(4, 4)), (4, 4))"
    book = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    ExecutePreprocessor(store_widget_state=False, timeout=120, kernel_name="python3").preprocess(book)
    (output,) = book.cells[0].outputs
    assert {"application/vnd.jupyter.widget-view+json", "image/png"} <= set(output["data"])
    page, _ = HTMLExporter().from_notebook_node(book)
    images = re.findall(r'<img [^>]*src="data:image/png;base64,([^"]+)"', page)
    assert len(images) == 1, "the page should show the board's PNG in place of the widget"
    picture = Image.open(io.BytesIO(base64.b64decode(images[0])))
    assert picture.size[0] >= 9 * 12 and picture.size[0] == picture.size[1]  # a square 9 x 9 board
