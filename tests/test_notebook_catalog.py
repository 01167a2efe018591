"""The notebooks in each language are made from the English ones and the notebook catalog, and are
what that makes: nobody keeps a translated notebook by hand (msviz._notebooks)."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from msviz import _notebooks, i18n

LANGUAGES = [code for code in i18n.LANGUAGES if code != "en"]


def _ids(catalog) -> set:
    return {(m.context, m.id) for m in catalog if m.id}


@pytest.fixture(scope="module")
def template():
    return _notebooks.template()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalog_holds_the_words_of_todays_english_notebooks(language, template):
    catalog = _notebooks.read(language)
    new, gone = _ids(template) - _ids(catalog), _ids(catalog) - _ids(template)
    assert not new and not gone, (
        f"{language}: the notebook catalog is older than the English notebooks: run python3 dev.py words"
        f" (new: {sorted(new)[:3]}, gone: {sorted(gone)[:3]})"
    )
    assert len(template) > 300


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_notebook_message_is_translated_and_reviewed(language):
    said = _notebooks.statistics(_notebooks.read(language))
    assert said["fuzzy"] == [], f"{language}: English changed, to review: {said['fuzzy'][:10]}"
    assert said["missing"] == [], f"{language}: untranslated: {said['missing'][:10]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_translated_notebook_is_what_the_english_and_the_catalog_make(language):
    made = _notebooks.build(language)
    assert len(made) == len(_notebooks.english()) >= 8
    for path, text in made.items():
        assert path.exists(), f"{path.name} in {language} is missing: run python3 dev.py words"
        assert path.read_text(encoding="utf-8") == text, (
            f"notebooks/{language}/{path.name} is not what the English and the catalog make:"
            " run python3 dev.py words (and translate in the catalog, not in the notebook)"
        )
    kept = sorted(p.name for p in (_notebooks.NOTEBOOKS / language).glob("*.ipynb"))
    assert kept == sorted(p.name for p in made), f"{language}: a notebook with no English one"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_translation_keeps_the_fields_of_its_english(language):
    field = re.compile(r"\{[^{}]*\}")
    for m in _notebooks.read(language):
        if m.id and m.auto_comments and m.auto_comments[0].startswith("a string"):
            assert sorted(field.findall(m.string)) == sorted(field.findall(m.id)), m.context


def _copy(tmp_path):
    """The English notebooks and their catalogs, in a folder of their own."""
    root = tmp_path / "notebooks"
    root.mkdir()
    for path in _notebooks.english():
        shutil.copy(path, root / path.name)
    shutil.copytree(_notebooks.NOTEBOOKS / "locale", root / "locale")
    return root


def test_a_changed_english_block_marks_its_translation_for_review_and_is_said_in_english(tmp_path):
    root = _copy(tmp_path)
    path = root / "03-depth-first.ipynb"
    book = json.loads(path.read_text(encoding="utf-8"))
    cell = next(c for c in book["cells"] if c["id"] == "03-11")
    english = "".join(cell["source"])
    changed = english.replace("about 1000", "about 3000")
    assert changed != english
    cell["source"] = changed.splitlines(keepends=True)
    path.write_text(json.dumps(book, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")

    said = _notebooks.make(["es"], root)["es"]

    context = "03-depth-first/03-11/1"
    assert said["fuzzy"] == [context] and said["missing"] == []
    entry = next(m for m in _notebooks.read("es", root) if m.context == context)
    assert entry.fuzzy and "1000" in entry.previous_id[0] and "about 3000" in entry.id
    assert "1000" in entry.string  # the old translation, kept for the translator to mend
    made = json.loads((root / "es" / "03-depth-first.ipynb").read_text(encoding="utf-8"))
    shown = "".join(next(c for c in made["cells"] if c["id"] == "03-11")["source"])
    assert "about 3000" in shown and "## Ampliación" in shown  # English until reviewed; the rest translated
    assert any("to review" in line for line in _notebooks.report("es", said))


def test_a_fix_to_english_code_reaches_every_language(tmp_path):
    root = _copy(tmp_path)
    path = root / "02-the-rules.ipynb"
    book = json.loads(path.read_text(encoding="utf-8"))
    cell = next(c for c in book["cells"] if c["id"] == "02-10")
    cell["source"] = ["after2 = msviz.reveal(after1, (1, 2), order='bfs')"]
    path.write_text(json.dumps(book, indent=1) + "\n", encoding="utf-8")
    for language in LANGUAGES:
        made = json.loads(_notebooks.build(language, root)[root / language / path.name])
        (code,) = [c["source"] for c in made["cells"] if c["id"] == "02-10"]
        assert code == ["after2 = msviz.reveal(after1, (1, 2), order='bfs')"]


def test_the_words_of_a_code_cell_are_its_comments_docstrings_and_the_strings_it_shows():
    source = (
        "def f(x):\n"
        '    """Twice x."""\n'
        "    # the answer\n"
        "    # in two lines\n"
        "    return 2 * x  # doubled\n"
        'print("cells:", f(2), style="leetcode")\n'
        'ax.set_title(f"step {k} of the run")\n'
        'key = "not shown"\n'
        '"the cell\'s value"'
    )
    pieces = _notebooks.code_pieces(source)
    assert [(p["kind"], p["text"]) for p in pieces] == [
        ("docstring", "Twice x."),
        ("comment", "the answer\nin two lines"),
        ("comment", "doubled"),
        ("string", "cells:"),
        ("string", "step {k} of the run"),
        ("string", "the cell's value"),
    ]
    cell = {"cell_type": "code", "id": "x", "source": source}
    said = _notebooks.translate_source(cell, {1: "la respuesta", 2: "doble " * 20, 4: "paso {k}"})
    assert "    # la respuesta\n    # doble" in said  # two lines said in one
    assert 'ax.set_title(f"paso {k}")' in said
    lines = said.splitlines()
    at = lines.index("    return 2 * x")  # a comment too long for its line goes above it
    assert lines[at - 1].startswith("    # doble") and all(len(line) <= 74 for line in lines)


def test_a_translation_that_breaks_the_code_is_refused():
    cell = {"cell_type": "code", "id": "c1", "source": 'print("hello there")'}
    with pytest.raises(ValueError, match="cell c1: its translation is not Python"):
        _notebooks.translate_source(cell, {0: 'hola "ahí'})


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_bold_or_emphasis_is_left_as_asterisks_in_a_translated_notebook(language):
    """CommonMark closes ``**`` after a punctuation mark only before a space or another mark:
    ``**核心课，8 分钟。**最后`` shows its asterisks. Rendered, no cell keeps one."""
    from markdown_it import MarkdownIt

    render = MarkdownIt("commonmark").render
    left = []
    for path in sorted((_notebooks.NOTEBOOKS / language).glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "markdown":
                html = re.sub(r"<code>.*?</code>", "", render("".join(cell["source"])), flags=re.S)
                left += [f"{path.name} {cell['id']}" for line in html.splitlines() if "*" in line]
    assert left == []
