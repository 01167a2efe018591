"""The notebooks are committed clean: no outputs, no saved widget state."""

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))
#: The copies in another language, one folder a language (notebooks/zh_CN, notebooks/es): held to
#: the English ones' form here, and run by nbval as they are (not JupyterLab's .ipynb_checkpoints).
TRANSLATED = [
    p
    for p in sorted((Path(__file__).parent.parent / "notebooks").glob("*/*.ipynb"))
    if not p.parent.name.startswith(".")
]


def shown(path: Path) -> str:
    """A notebook's name in a test's id: its language folder too, for a translated copy."""
    return path.name if path.parent.name == "notebooks" else f"{path.parent.name}/{path.name}"


def test_there_are_eight_notebooks():
    assert [p.name[:2] for p in NOTEBOOKS] == ["01", "02", "03", "04", "05", "06", "07", "08"]


@pytest.mark.parametrize("path", NOTEBOOKS + TRANSLATED, ids=shown)
def test_committed_without_outputs(path):
    book = json.loads(path.read_text(encoding="utf-8"))
    for cell in book["cells"]:
        if cell["cell_type"] == "code":
            assert cell.get("outputs") == [], f"{path.name}: a cell has outputs"
            assert cell.get("execution_count") is None, f"{path.name}: a cell has an execution count"
    assert "widgets" not in book.get("metadata", {}), f"{path.name}: saved widget state"
    ids = [cell["id"] for cell in book["cells"]]
    assert len(ids) == len(set(ids)), f"{path.name}: two cells share an id"


#: The code area at 1024 x 768 with the file browser open holds 74 characters of
#: JupyterLab's 13 px monospace font (585 px, measured in the browser suite's screenshot).
CODE_COLUMNS = 74


@pytest.mark.parametrize("path", NOTEBOOKS + TRANSLATED, ids=shown)
def test_code_lines_fit_a_small_screen_without_scrolling_sideways(path):
    book = json.loads(path.read_text(encoding="utf-8"))
    long = [
        line
        for cell in book["cells"]
        if cell["cell_type"] == "code"
        for line in "".join(cell["source"]).splitlines()
        if len(line) > CODE_COLUMNS
    ]
    assert long == [], f"{path.name}: lines longer than {CODE_COLUMNS} characters"


@pytest.mark.parametrize("path", NOTEBOOKS + TRANSLATED, ids=shown)
def test_prose_first(path):
    book = json.loads(path.read_text(encoding="utf-8"))
    assert book["cells"][0]["cell_type"] == "markdown"
    source = book["cells"][0]["source"]
    assert "".join(source).startswith("# ")


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def text(cell: dict) -> str:
    return "".join(cell["source"])


def by_prefix(prefix: str) -> Path:
    (path,) = [p for p in NOTEBOOKS if p.name.startswith(prefix)]
    return path


# The lesson plan (docs/teaching.md): the parts each notebook holds, and the core lesson's minutes.
PARTS = {
    "01": {"Core"},
    "02": {"Core", "Extension"},
    "03": {"Core", "Extension"},
    "04": {"Core"},
    "05": {"Core", "Extension"},
    "06": {"Homework"},
    "07": {"Homework"},
    "08": {"Extension"},
}
GUIDE = Path(__file__).parent.parent / "docs" / "teaching.md"


def guide_minutes() -> dict[str, int]:
    """The core minutes of each notebook, from the guide's table of the path."""
    rows = re.findall(r"^\| core \| `(\d\d)-[\w-]+`[^|]*\| (\d+) \|", GUIDE.read_text(), re.MULTILINE)
    return {number: int(minutes) for number, minutes in rows}


def guide_asks() -> dict[str, int]:
    """The questions the guide has the teacher ask (a minute each) in each notebook's core part."""
    paragraphs = re.finditer(
        r"^\*\*\d+-\d+: [^(]*\(`(\d\d)-[^`]*`(?:.+\n?)*", GUIDE.read_text(), re.MULTILINE
    )
    return {found.group(1): found.group(0).count("*Ask:*") for found in paragraphs}


def reading_minutes(path: Path) -> float:
    """The minutes a class needs for a notebook's core sections, by the guide's model: prose at
    200 words a minute, visible code at 20 lines a minute, a minute a predict prompt, 15 s a quiz
    question (answers folded away are read in the prompt's minute)."""
    part, words, code, prompts, questions = "Core", 0, 0, 0, 0
    for cell in cells(path):
        body = text(cell)
        heading = re.match(r"##\s+(\w+)", body) if cell["cell_type"] == "markdown" else None
        part = heading.group(1) if heading else part
        if part != "Core" or body.startswith("<details>") or source_hidden(cell):
            continue
        if cell["cell_type"] == "markdown":
            words += len(re.findall(r"[A-Za-z0-9']+", re.sub(r"<[^>]+>", " ", body)))
            prompts += body.count("**Predict")
        else:
            code += sum(1 for line in body.splitlines() if line.strip() and not line.strip().startswith("#"))
            if "msviz.quiz(" in body:
                asked = re.search(r"guesses=(\d+)", body)
                assert asked, f"{path.name}: a core quiz without guesses= asks every step"
                questions += int(asked.group(1))
    return words / 200 + code / 20 + prompts + questions * 15 / 60


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_first_cell_says_what_the_student_will_be_able_to_do_and_how_long_it_takes(path):
    first = text(cells(path)[0])
    assert "You will be able to" in first, f"{path.name}: the first cell should say what the student will do"
    assert re.search(r"\b\d+ minutes\b", first), f"{path.name}: the first cell should say how long it takes"
    assert re.search(r"core lesson|extension|homework", first, re.IGNORECASE), (
        f"{path.name}: the first cell should say which part of the path it is"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_section_headings_mark_the_path(path):
    headings = [line for c in cells(path) if c["cell_type"] == "markdown" for line in text(c).splitlines()]
    parts = {m.group(1) for line in headings if (m := re.match(r"## (Core|Extension|Homework)\b", line))}
    assert parts == PARTS[path.name[:2]], f"{path.name}: sections headed {sorted(parts)}"


def test_the_core_lesson_takes_about_50_minutes():
    minutes = {}
    for path in NOTEBOOKS:
        found = re.search(r"Core lesson, (\d+) minutes", text(cells(path)[0]))
        if found:
            minutes[path.name[:2]] = int(found.group(1))
    assert minutes == guide_minutes() and sum(minutes.values()) == 50


def test_the_reading_model_fits_each_notebook_in_the_minutes_the_guide_gives():
    stated, asks = guide_minutes(), guide_asks()
    needed = {number: reading_minutes(by_prefix(number)) + asks[number] for number in stated}
    over = {n: round(needed[n], 1) for n in stated if needed[n] > stated[n]}
    assert over == {}, f"the model needs more than the guide gives: {over} (guide: {stated})"
    assert sum(needed.values()) <= 50
    assert min(needed.values()) > 0.5 * min(stated.values())  # the model reads the notebooks


def is_answer(cell: dict) -> bool:
    """A hidden answer (a collapsed <details>) or a quiz, whose answers the browser keeps."""
    if cell["cell_type"] == "markdown":
        body = text(cell)
        return body.startswith("<details><summary>") and body.rstrip().endswith("</details>")
    return "msviz.quiz(" in text(cell)


def asserts(cell: dict) -> int:
    return len(re.findall(r"^\s*assert\b", text(cell), re.MULTILINE)) if cell["cell_type"] == "code" else 0


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_predict_prompts_keep_their_answers_hidden_and_are_checked(path):
    book = cells(path)
    prompts = [i for i, c in enumerate(book) if c["cell_type"] == "markdown" and "**Predict" in text(c)]
    assert len(prompts) >= 2, f"{path.name}: {len(prompts)} predict prompts"
    for n, i in enumerate(prompts):
        after = book[i + 1 : i + 3]
        assert any(is_answer(c) for c in after), f"{path.name}: prompt {n + 1} has no hidden answer after it"
        if any("msviz.quiz(" in text(c) for c in after):
            continue  # a quiz: checked in the closing cell, below
        end = prompts[n + 1] if n + 1 < len(prompts) else len(book)
        checked = sum(asserts(c) for c in book[i + 1 : end])
        assert checked, f"{path.name}: prompt {n + 1}'s answer is not checked before the next prompt"
    assert sum(asserts(c) for c in book) >= len(prompts)
    if any("msviz.quiz(" in text(c) for c in book):
        closing = book[-1]
        assert ".guess(" in text(closing) and asserts(closing), f"{path.name}: the quiz is not checked"


def test_notebook_05_measures_what_it_costs():
    book = cells(by_prefix("05"))
    (start,) = [i for i, c in enumerate(book) if text(c).startswith("## Extension: what it costs")]
    end = next(i for i in range(start + 1, len(book)) if text(book[i]).startswith("## "))
    section = book[start:end]
    prose = "\n".join(text(c) for c in section if c["cell_type"] == "markdown")
    code = "\n".join(text(c) for c in section if c["cell_type"] == "code")
    assert "O(rows x cols) time" in prose
    for measured in ('order="dfs"', 'order="bfs"', "frontier.max()", "depth.max() + 1", "perf_counter"):
        assert measured in code, f"the cost section does not measure with {measured}"
    assert "n * n" in code and "8 * d" in code, "measurements are compared with the bound and the ring"
    assert sum(asserts(c) for c in section) >= 6
    assert "plt.show()" in code, "the measurements get a picture"


def test_where_widgets_cannot_run_a_saved_notebook_shows_the_board_as_a_png():
    """nbviewer, GitHub and nbconvert without widget state fall back to the view's PNG."""
    import base64
    import io

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
    assert "An interactive msviz board" in page, "and say that the board is interactive where it runs"
    picture = Image.open(io.BytesIO(base64.b64decode(images[0])))
    assert picture.size[0] >= 9 * 12 and picture.size[0] == picture.size[1]  # a square 9 x 9 board


def source_hidden(cell: dict) -> bool:
    return bool(cell.get("metadata", {}).get("jupyter", {}).get("source_hidden"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_checks_of_an_answer_are_not_in_sight_of_its_question(path):
    """The code cells right after a hidden answer may check it, but only in a cell whose source is
    hidden (JupyterLab shows it folded) and that holds nothing but the checks, so no code is hidden."""
    book = cells(path)
    checks = 0
    for i, cell in enumerate(book):
        if not (cell["cell_type"] == "markdown" and text(cell).startswith("<details><summary>")):
            continue
        j = i + 1
        while j < len(book) and book[j]["cell_type"] == "code":
            source = text(book[j])
            if asserts(book[j]):
                checks += 1
                assert source_hidden(book[j]), (
                    f"{path.name}: cell {j} shows the answer's check: {source[:60]}"
                )
            if source_hidden(book[j]):
                statements = [
                    line for line in source.splitlines() if line.strip() and not line.strip().startswith("#")
                ]
                code = [line for line in statements if not re.match(r"\s*assert\b|\s+", line)]
                assert code == [], f"{path.name}: cell {j} hides code, not only checks: {code}"
            j += 1
    assert checks >= 1, f"{path.name}: no answer is checked"


def english_asserts(cell: dict) -> list[str]:
    """The assert lines of a code cell, their comments taken off."""
    lines = text(cell).splitlines() if cell["cell_type"] == "code" else []
    return [line.split("  #")[0].rstrip() for line in lines if line.lstrip().startswith("assert")]


@pytest.mark.parametrize("path", TRANSLATED, ids=shown)
def test_a_translated_copy_has_the_english_cells_and_checks_it_speaks_its_language(path):
    """The same cells in the same order, every check of the English one, the language set after
    `import msviz` in the first code cell, and a closing cell that fails if it is not spoken."""
    import msviz

    language = path.parent.name
    assert language in msviz.LANGUAGES and language != "en", f"{shown(path)}: not a language msviz speaks"
    english, book = cells(path.parent.parent / path.name), cells(path)
    assert [(c["id"], c["cell_type"]) for c in book] == [(c["id"], c["cell_type"]) for c in english]
    for mine, theirs in zip(book, english):
        kept = english_asserts(mine)
        missing = [line for line in english_asserts(theirs) if line not in kept]
        assert missing == [], f"{shown(path)}: cell {mine['id']} lost checks: {missing}"
    first = next(text(c) for c in book if c["cell_type"] == "code").splitlines()
    at = first.index("import msviz")
    assert first[at + 1].startswith(f'msviz.set_language("{language}")'), f"{shown(path)}: no set_language"
    closing = text(book[-1])
    assert "assert msviz.get_language() " in closing and f'== "{language}"' in closing
    assert 'msviz.i18n.speaking("en")' in closing, f"{shown(path)}: no phrase compared with English"
