"""Every catalog entry keeps to the glossary (docs/languages.md): one vocabulary in each language.

A third reader of the catalogs, beside the completeness test (tests/test_catalogs.py) and the
pseudo-language (English outside the catalogs): where an entry's English says a word of the
glossary, its translation says the glossary's word for it, in the widgets' catalog and in the
notebooks' alike.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from msviz import _catalogs, _notebooks

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "languages.md"

#: The glossary's words a test can find: the glossary row (its English cell starts so), the English
#: words, and each language's word as the glossary writes it and as a pattern that finds its forms.
TERMS = [
    ("board", r"\bboards?\b", ("棋盘", "棋盘"), ("tablero", r"tablero")),
    (
        "depth-first (DFS)",
        r"\bdepth-first\b",
        ("深度优先", "深度优先"),
        ("en profundidad", r"en profundidad"),
    ),
    ("breadth-first (BFS)", r"\bbreadth-first\b", ("广度优先", "广度优先"), ("en anchura", r"en anchura")),
    ("stack", r"\bstacks?\b", ("栈", "栈"), ("pila", r"pila")),
    ("queue", r"\bqueues?\b", ("队列", "队"), ("cola", r"cola|encol")),
    ("reveal", r"\breveal(s|ed|ing)?\b", ("揭开", "揭开|reveal"), ("revelar", r"revel|recorrido|reveal")),
    ("cell; hidden cell", r"\bhidden\b", ("未揭开", "未揭开"), ("oculta", r"ocult")),
    ("cell; hidden cell", r"\bcells?\b", ("格子", "格"), ("casilla", r"casilla")),
    ("blank (B)", r"\bblanks?\b", ("空白格", "空白"), ("en blanco", r"en blanco")),
    ("digit", r"\bdigits?\b", ("数字", "数字"), ("dígito", r"dígito")),
    ("mine", r"\bmines?\b", ("地雷", "雷"), ("mina", r"mina")),
    ("neighbour", r"\bneighbou?rs?\b", ("相邻格子", "相邻"), ("vecina", r"vecin")),
    ("layer", r"\blayers?\b", ("层", "层"), ("capa", r"capa")),
    ("flag", r"\bflags?\b", ("旗子", "旗"), ("bandera", r"bandera")),
]
COLUMN = {"zh_CN": 2, "es": 3}

#: What an English phrase says that is not the glossary's word: code (`...`, reveal(r, c),
#: board[r][c], return board), a {field}, and a notebook's own cells (run the next cell).
NOT_WORDS = [
    r"`[^`]*`",
    r"\{[^{}]*\}",
    r"[\w.]+[(\[]\S*",
    r"\breturn board\b",
    r"\b(code|this|that|next|two|answers|a|the) cells?\b(?! (of|on|in|is revealed|around))",
    r"\bcells? (below|above)\b",
    r"\bcells? of (your|the|this|a) notebook\b",
    r"\bhas no cells\b",
]


def words_of(english: str) -> str:
    english = " ".join(english.split())  # a markdown block's English wraps anywhere in a phrase
    for pattern in NOT_WORDS:
        english = re.sub(pattern, " ", english)
    return english


def disagreements(catalog: Catalog, language: str) -> list[str]:
    """The entries of `catalog` whose English says a glossary word and whose translation does not
    say the glossary's word for it (fuzzy and untranslated entries are the other tests' business)."""
    found = []
    for m in catalog:
        if not m.id or m.fuzzy or not m.string:
            continue
        english = words_of(m.id if isinstance(m.id, str) else m.id[-1])
        said = [m.string] if isinstance(m.string, str) else list(m.string)
        for row, pattern, *forms in TERMS:
            word, wanted = forms[COLUMN[language] - 2]
            if re.search(pattern, english, re.IGNORECASE):
                for one in said:
                    if not re.search(wanted, " ".join(one.split()), re.IGNORECASE):
                        found.append(f"{m.context or m.id}: {row!r} is {word!r}, not in {one[:60]!r}")
    return found


def glossary() -> dict[str, list[str]]:
    """The glossary's rows, by their English cell."""
    text = GUIDE.read_text(encoding="utf-8").split("## Glossary", 1)[1].split("\n## ", 1)[0]
    rows = [line.strip("|").split("|") for line in text.splitlines() if line.startswith("| ")]
    return {cells[0].strip(): [c.strip() for c in cells] for cells in rows}


def test_the_terms_checked_are_the_glossarys():
    rows = glossary()
    for row, _, (zh, _), (es, _) in TERMS:
        (cells,) = [cells for english, cells in rows.items() if english.startswith(row)]
        assert zh in cells[1] and es in cells[2], f"the glossary's row {row!r} says {cells[1:]}"
    assert "un recorrido" in rows["a reveal (the noun: one traversal of the board)"][2]


@pytest.mark.parametrize("language", ["zh_CN", "es"])
@pytest.mark.parametrize("which", ["msviz", "notebooks"])
def test_every_entry_keeps_to_the_glossary(language, which):
    catalog = _catalogs.read(language) if which == "msviz" else _notebooks.read(language)
    assert len(catalog) > 300
    assert disagreements(catalog, language) == []


def test_an_entry_that_strays_from_the_glossary_is_found():
    made = Catalog(locale="es")
    made.add("the queue holds {n} cells", "la fila tiene {n} casillas", context="demo.queue")
    made.add("the queue holds {n} cells", "la cola tiene {n} casillas", context="demo.kept")
    made.add("a reveal from {click}", "un revelado desde {click}", context="demo.reveal_noun")
    made.add("run the next cell", "ejecuta la celda siguiente", context="demo.notebook_cell")
    made.add("into a cell of\nyour notebook", "en una celda de tu notebook", context="demo.wrapped")
    assert [d.split(":")[0] for d in disagreements(made, "es")] == ["demo.queue"]
    zh = Catalog(locale="zh_CN")
    zh.add("Space plays, on the board", "Space 播放，在板上", context="demo.board")
    assert [d.split(":")[0] for d in disagreements(zh, "zh_CN")] == ["demo.board"]


def test_spanish_says_un_recorrido_not_un_revelado():
    """The noun "reveal" is a traversal (un recorrido); "un revelado" is a photograph's developing."""
    wrong = [
        m.context or m.id
        for catalog in (_catalogs.read("es"), _notebooks.read("es"))
        for m in catalog
        if m.id
        for said in ([m.string] if isinstance(m.string, str) else m.string)
        if re.search(r"\b(un|el|los|tu|cada|este) revelados?\b", said, re.IGNORECASE)
    ]
    assert wrong == []
