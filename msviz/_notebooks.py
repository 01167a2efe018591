"""Make each language's notebooks from the English ones and the notebook catalog (``python3 dev.py words``).

The notebooks are translated as documents are (Sphinx's gettext builder,
sphinx-intl, Jupyter Book): the English notebooks in ``notebooks/`` are the
source, their words are extracted into a catalog, one per language
(``notebooks/locale/<lang>/LC_MESSAGES/notebooks.po``), and each language's
notebooks (``notebooks/<lang>/*.ipynb``) are written from the English ones and
the catalog. Nobody edits a translated notebook by hand.

A message is a block of a markdown cell (a paragraph, a heading, a table, a
list, a fenced block), a comment of a code cell (consecutive comment lines are
one message), a docstring, or a string a code cell shows (printed, a plot's
title or label, the cell's last value). Its context names the notebook, the
cell and the place in the cell: ``03-depth-first/03-02/1``. The code itself is
the English notebook's, so a fix to the code reaches every language at once.

When an English block changes, its translation is kept but marked fuzzy (the
old English beside it, ``#| msgid``): the notebook says that block in English
until a translator has looked at it again. An untranslated or fuzzy message is
said in English and listed by :func:`make`.

Each translated notebook sets its language right after ``import msviz`` and
ends with a check that it speaks it.

Needs Babel (a test dependency), as :mod:`msviz._catalogs` does.
"""

from __future__ import annotations

import ast
import io
import json
import re
import textwrap
import tokenize
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import normalize, read_po, unescape, write_po

from . import i18n
from ._catalogs import DATE

#: Where the English notebooks are (a clone's ``notebooks/``), and their catalogs.
NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
DOMAIN = "notebooks"
#: The widest code line a translated notebook may have (tests/test_notebooks.py's CODE_COLUMNS).
CODE_COLUMNS = 74
#: Calls whose string arguments a student sees (printed, drawn as a title or label).
SHOWN_CALLS = {"print", "title", "set_title", "suptitle", "set_xlabel", "set_ylabel", "text"}
SHOWN_KEYWORDS = {"title", "label", "xlabel", "ylabel"}
#: The phrases a translated notebook adds to the English code: its language set, and checked.
SET_LANGUAGE = ("all/set_language", "the boards, captions and quizzes below speak this language")
SPEAKS = ("all/speaks", "this notebook speaks its language: a caption is not said in English")
_FENCE = re.compile(r"^\s*(```|~~~)")
_WORD = re.compile(r"[A-Za-z]{2,}")
_LITERAL = re.compile(r"^([rRbBuUfF]*)('''|\"\"\"|'|\")(.*)\2$", re.DOTALL)


# -- Where the words of a cell are ----------------------------------------------------------


def markdown_blocks(source: str) -> list[tuple[str, bool]]:
    """`source` cut into its blocks and the blank lines between them: ``(text, is_message)`` pairs
    whose texts, joined, are `source` again. A fenced block is one block, blank lines and all; a
    block with no words outside its HTML tags (``</details>``) is not a message.

    Examples
    --------
    >>> for part in markdown_blocks("# Title\\n\\nA paragraph,\\nin two lines.\\n\\n</details>"):
    ...     print(part)
    ('# Title', True)
    ('\\n\\n', False)
    ('A paragraph,\\nin two lines.', True)
    ('\\n\\n', False)
    ('</details>', False)
    """
    lines = source.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    spans: list[tuple[int, int]] = []  # the first and last line of each block
    fenced, first = False, None
    for n, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
        if line.strip() or fenced:
            first = n if first is None else first
            continue
        if first is not None:
            spans.append((first, n - 1))
            first = None
    if first is not None:
        spans.append((first, len(lines) - 1))
    parts: list[tuple[str, bool]] = []
    at = 0
    for a, b in spans:
        begin, end = starts[a], starts[b + 1] - 1
        if begin > at:
            parts.append((source[at:begin], False))
        text = source[begin:end]
        parts.append((text, bool(_WORD.search(re.sub(r"<[^>]*>", " ", text)))))
        at = end
    if at < len(source):
        parts.append((source[at:], False))
    return parts


def _offsets(source: str) -> list[int]:
    """The character offset where each line of `source` starts (line 1 first)."""
    starts, at = [0], 0
    for line in source.splitlines(keepends=True):
        at += len(line)
        starts.append(at)
    return starts


def _shown_spans(source: str) -> list[tuple[int, int, str]]:
    """The character spans of the expressions in `source` whose strings a student sees, with what
    they are (``"string"``, ``"docstring"``)."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    starts = _offsets(source)

    def at(lineno: int, byte_col: int) -> int:
        line = lines[lineno - 1].encode("utf-8")[:byte_col].decode("utf-8")
        return starts[lineno - 1] + len(line)

    spans = []

    def add(node, kind="string"):
        spans.append((at(node.lineno, node.col_offset), at(node.end_lineno, node.end_col_offset), kind))

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in SHOWN_CALLS:
                for arg in node.args:
                    if isinstance(arg, (ast.Constant, ast.JoinedStr)):
                        add(arg)
            for keyword in node.keywords:
                if keyword.arg in SHOWN_KEYWORDS and isinstance(keyword.value, (ast.Constant, ast.JoinedStr)):
                    add(keyword.value)
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                add(first.value, "docstring")
    if tree.body and isinstance(tree.body[-1], ast.Expr):  # the cell's value, shown under it
        value = tree.body[-1].value
        for shown in value.elts if isinstance(value, ast.Tuple) else [value]:
            if isinstance(shown, (ast.Constant, ast.JoinedStr)):
                add(shown)
    return spans


def code_pieces(source: str) -> list[dict]:
    """The words of a code cell: each comment (consecutive comment lines at one indent are one)
    and each string a student sees, with its place: ``start``/``end`` character offsets in
    `source`, ``text`` (the message), ``kind`` and, for a comment, its ``indent`` and whether it
    ``trails`` code on its line.

    Examples
    --------
    >>> [(p["kind"], p["text"]) for p in code_pieces('# two\\n# lines\\nx = 1  # one\\nprint("hi there")')]
    [('comment', 'two\\nlines'), ('comment', 'one'), ('string', 'hi there')]
    """
    starts = _offsets(source)
    shown = _shown_spans(source)
    pieces: list[dict] = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        (row, col), (end_row, end_col) = token.start, token.end
        start, end = starts[row - 1] + col, starts[end_row - 1] + end_col
        if token.type == tokenize.COMMENT:
            text = token.string[1:].removeprefix(" ")
            trails = bool(token.line[:col].strip())
            last = pieces[-1] if pieces else None
            if (
                last
                and last["kind"] == "comment"
                and not trails
                and not last["trails"]
                and last["indent"] == col
                and source[last["end"] : start].strip() == ""
                and source[last["end"] : start].count("\n") == 1
            ):
                last["text"] += "\n" + text
                last["end"] = end
                continue
            pieces.append(
                {"kind": "comment", "start": start, "end": end, "text": text, "indent": col, "trails": trails}
            )
        elif token.type == tokenize.STRING:
            kind = next((k for a, b, k in shown if a <= start and end <= b), None)
            literal = _LITERAL.match(token.string)
            if kind and literal and _WORD.search(re.sub(r"\{[^}]*\}", " ", literal.group(3))):
                prefix, quote, inner = literal.groups()
                begin = start + len(prefix) + len(quote)
                pieces.append({"kind": kind, "start": begin, "end": begin + len(inner), "text": inner})
    return pieces


# -- The catalog ----------------------------------------------------------------------------


NOTES = {
    "markdown": "a block of a markdown cell: keep its markdown (**bold**, `code`, links, HTML tags)",
    "comment": "a comment in a code cell: a line each, no line over about 60 characters",
    "string": "a string the code shows: keep its {fields}; no quote mark of the string's own kind",
    "docstring": "a function's docstring: keep its indentation",
}


def english(root: Path = NOTEBOOKS) -> list[Path]:
    """The English notebooks, in their order."""
    return sorted(root.glob("[0-9][0-9]-*.ipynb"))


def _read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _pieces(cell: dict) -> list[dict]:
    source = "".join(cell["source"])
    if cell["cell_type"] == "markdown":
        pieces, at = [], 0
        for text, message in markdown_blocks(source):
            if message:
                pieces.append({"kind": "markdown", "start": at, "end": at + len(text), "text": text})
            at += len(text)
        return pieces
    if cell["cell_type"] == "code":
        return code_pieces(source)
    return []


def template(root: Path = NOTEBOOKS) -> Catalog:
    """Every message of the English notebooks in `root`, in the order a student reads them."""
    catalog = Catalog(project="msviz notebooks", domain=DOMAIN, fuzzy=False)
    for context, message in (SET_LANGUAGE, SPEAKS):
        catalog.add(message, context=context, auto_comments=[NOTES["comment"]], locations=[("all", None)])
    for path in english(root):
        for cell in _read(path)["cells"]:
            for i, piece in enumerate(_pieces(cell)):
                catalog.add(
                    piece["text"],
                    context=f"{path.stem}/{cell['id']}/{i}",
                    auto_comments=[NOTES[piece["kind"]]],
                    locations=[(f"{path.name}#{cell['id']}", None)],
                )
    return catalog


def po_path(language: str, root: Path = NOTEBOOKS) -> Path:
    return root / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(language: str, root: Path = NOTEBOOKS) -> Catalog:
    """`language`'s notebook catalog (empty if there is none yet)."""
    path = po_path(language, root)
    if not path.exists():
        return Catalog(locale=language, domain=DOMAIN, fuzzy=False)
    with open(path, "rb") as f:
        catalog = read_po(f, locale=language)
    previous = _previous_ids(path.read_text(encoding="utf-8"))
    for m in catalog:
        if m.id and m.context in previous:
            m.previous_id = [previous[m.context]]
    return catalog


def _previous_ids(text: str) -> dict[str, str]:
    """The old English (``#| msgid``) of each fuzzy message of a catalog's text, by context (Babel
    writes it but does not read it back)."""
    found, lines = {}, []
    for line in text.splitlines():
        if line.startswith("#|"):
            lines.append(line[2:].strip())
        elif line.startswith("msgctxt ") and lines:
            quoted = [part.removeprefix("msgid").strip() for part in lines]
            found[unescape(line[len("msgctxt ") :])] = "".join(unescape(q) for q in quoted)
            lines = []
        elif not line.startswith("#"):
            lines = []
    return found


def update(language: str, pot: Catalog, root: Path = NOTEBOOKS) -> Catalog:
    """`language`'s catalog brought up to the English `pot`: a message whose English is the same keeps
    its translation; one whose English changed keeps it marked fuzzy, the old English beside it; a
    block moved elsewhere keeps its translation; a new one is empty."""
    old = read(language, root)
    by_context = {m.context: m for m in old if m.id}
    by_english = {m.id: m for m in old if m.id and m.string and not m.fuzzy}
    catalog = Catalog(
        locale=language,
        domain=DOMAIN,
        project="msviz notebooks",
        fuzzy=False,
        creation_date=DATE,
        revision_date=DATE,
    )
    catalog.copyright_holder = catalog.last_translator = catalog.language_team = "msviz"
    for m in pot:
        if not m.id:
            continue
        before = by_context.get(m.context)
        string, flags, previous = "", set(), []
        if before is not None and before.id == m.id:
            string, flags, previous = before.string, set(before.flags) & {"fuzzy"}, before.previous_id
        elif m.id in by_english:
            string = by_english[m.id].string
        elif before is not None and before.string:
            string, flags, previous = before.string, {"fuzzy"}, [before.id]
        catalog.add(
            m.id,
            string,
            context=m.context,
            auto_comments=m.auto_comments,
            locations=m.locations,
            flags=flags,
            previous_id=previous if "fuzzy" in flags else [],
        )
    return catalog


def write(language: str, catalog: Catalog, root: Path = NOTEBOOKS) -> None:
    path = po_path(language, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, include_lineno=False, sort_output=False)
    text = buffer.getvalue().decode("utf-8")
    for m in catalog:  # the old English of a fuzzy message, as gettext writes it (#| msgid)
        if m.id and m.fuzzy and m.previous_id:
            lines = normalize(m.previous_id[0], width=100).split("\n")
            said = "\n".join([f"#| msgid {lines[0]}", *(f"#| {line}" for line in lines[1:])])
            context = f"msgctxt {normalize(m.context, width=0)}\n"
            text = text.replace(context, f"{said}\n{context}", 1)
    path.write_text(text, encoding="utf-8")


def said(message) -> str | None:
    """A message's translation as a notebook says it: None when untranslated or fuzzy (English then)."""
    return message.string if message.string and not message.fuzzy else None


def statistics(catalog: Catalog) -> dict:
    """How many messages, how many translated, which need review (fuzzy) and which are untranslated."""
    messages = [m for m in catalog if m.id]
    fuzzy = [m.context for m in messages if m.fuzzy and m.string]
    missing = [m.context for m in messages if not m.string]
    return {
        "messages": len(messages),
        "translated": len(messages) - len(fuzzy) - len(missing),
        "fuzzy": fuzzy,
        "missing": missing,
    }


# -- The translated notebooks ----------------------------------------------------------------


def _comment(text: str, indent: str, width: int) -> list[str]:
    """Comment lines saying `text` (its own lines kept), each no wider than `width` if it can be."""
    lines = []
    for line in text.split("\n"):
        room = max(20, width - len(indent) - 2)
        wrapped = textwrap.wrap(line, room, break_long_words=True, break_on_hyphens=False) or [""]
        lines += [f"{indent}# {part}".rstrip() for part in wrapped]
    return lines


def translate_source(cell: dict, words: dict) -> str:
    """The source of `cell` with each of its messages said as `words` (context: text) has it."""
    source = "".join(cell["source"])
    pieces = _pieces(cell)
    for i in reversed(range(len(pieces))):
        piece = pieces[i]
        text = words.get(i)
        if text is None or text == piece["text"]:
            continue
        if piece["kind"] != "comment":
            source = source[: piece["start"]] + text + source[piece["end"] :]
            continue
        line_start = source.rfind("\n", 0, piece["start"]) + 1
        before = source[line_start : piece["start"]]
        if not piece["trails"]:
            lines = _comment(text, before, CODE_COLUMNS)
            source = source[:line_start] + "\n".join(lines) + source[piece["end"] :]
            continue
        one = f"{before}# {text}"
        if "\n" not in text and len(one) <= CODE_COLUMNS:
            source = source[:line_start] + one + source[piece["end"] :]
            continue
        indent = re.match(r"\s*", before).group(0)
        code = before.rstrip()
        lines = _comment(text, indent, CODE_COLUMNS) + [code]
        source = source[:line_start] + "\n".join(lines) + source[piece["end"] :]
    if cell["cell_type"] == "code":
        try:
            ast.parse(source)
        except SyntaxError as error:
            raise ValueError(f"cell {cell['id']}: its translation is not Python ({error})") from None
    return source


def _lines(source: str) -> list[str]:
    return source.splitlines(keepends=True)


def _setting(language: str, comment: str) -> str:
    line = f'msviz.set_language("{language}")'
    return f"{line}   # {comment}" if len(line) + 5 + len(comment) <= CODE_COLUMNS else line


def _closing(language: str, comment: str) -> str:
    return "\n".join(
        [
            *_comment(comment, "", CODE_COLUMNS),
            f'assert msviz.get_language() == "{language}"',
            'tiny = ["EE", "EM"]',
            'with msviz.i18n.speaking("en"):',
            "    english = msviz.player(tiny, (0, 0)).caption",
            "assert msviz.player(tiny, (0, 0)).caption != english",
        ]
    )


def build_notebook(path: Path, language: str, catalog: Catalog) -> str:
    """The English notebook at `path` in `language`, as its file's text."""
    book = _read(path)
    messages = {m.context: m for m in catalog if m.id}

    def say(context: str, english_text: str) -> str:
        m = messages.get(context)
        return (said(m) if m is not None else None) or english_text

    set_it = False
    for cell in book["cells"]:
        prefix = f"{path.stem}/{cell['id']}/"
        words = {}
        for context, m in messages.items():
            if context.startswith(prefix) and said(m) is not None:
                words[int(context[len(prefix) :])] = said(m)
        source = translate_source(cell, words)
        if cell["cell_type"] == "code" and not set_it and re.search(r"^import msviz$", source, re.M):
            setting = _setting(language, say(*SET_LANGUAGE))
            lines = source.split("\n")
            at = lines.index("import msviz")
            source = "\n".join([*lines[: at + 1], setting, *lines[at + 1 :]])
            set_it = True
        cell["source"] = _lines(source)
    last = book["cells"][-1]
    if last["cell_type"] != "code" or not set_it:
        raise ValueError(f"{path.name}: a notebook to translate imports msviz and ends with a code cell")
    last["source"] = _lines("".join(last["source"]).rstrip("\n") + "\n" + _closing(language, say(*SPEAKS)))
    return json.dumps(book, indent=1, ensure_ascii=False) + "\n"


def build(language: str, root: Path = NOTEBOOKS, catalog: Catalog | None = None) -> dict[Path, str]:
    """Each of `language`'s notebooks (its path, its text), made from the English ones and the catalog."""
    catalog = read(language, root) if catalog is None else catalog
    return {root / language / path.name: build_notebook(path, language, catalog) for path in english(root)}


def make(languages=None, root: Path = NOTEBOOKS) -> dict[str, dict]:
    """Update each language's notebook catalog from the English notebooks, write its notebooks, and
    return its statistics."""
    pot = template(root)
    said_by = {}
    for language in languages or [code for code in i18n.LANGUAGES if code != "en"]:
        catalog = update(language, pot, root)
        write(language, catalog, root)
        for path, text in build(language, root, catalog).items():
            path.parent.mkdir(parents=True, exist_ok=True)
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                path.write_text(text, encoding="utf-8")
        said_by[language] = statistics(catalog)
    return said_by


def report(language: str, stats: dict) -> list[str]:
    """What :func:`make` says of a language: its counts, then what needs a translator."""
    lines = [
        f"{language}: {stats['translated']} of {stats['messages']} notebook messages translated"
        + (f", {len(stats['fuzzy'])} to review" if stats["fuzzy"] else "")
        + (f", {len(stats['missing'])} untranslated" if stats["missing"] else "")
    ]
    if stats["fuzzy"]:
        lines.append(
            f"  English changed, said in English until reviewed (fuzzy): {', '.join(stats['fuzzy'])}"
        )
    if stats["missing"]:
        lines.append(f"  untranslated, said in English: {', '.join(stats['missing'])}")
    return lines


def missing(language: str, root: Path = NOTEBOOKS) -> list[dict]:
    """The messages `language`'s notebooks still say in English, as a translator is given them (a
    fuzzy one with its old English and its old translation)."""
    return [
        {"key": m.context, "english": m.id, "notes": m.auto_comments}
        | ({"was": m.previous_id[0], "translation": m.string} if m.fuzzy and m.previous_id else {})
        for m in read(language, root)
        if m.id and said(m) is None
    ]


def fill(language: str, translations: dict, root: Path = NOTEBOOKS) -> int:
    """Write `translations` (context: text) into `language`'s notebook catalog, marked reviewed; then
    write its notebooks. Return how many were written."""
    catalog = read(language, root)
    written = 0
    for m in catalog:
        if m.id and m.context in translations:
            m.string = translations[m.context]
            m.flags.discard("fuzzy")
            m.previous_id = []
            written += 1
    write(language, catalog, root)
    make([language], root)
    return written


def main(argv: list[str]) -> int:
    """``missing LANG`` prints what LANG's notebooks say in English, as JSON; ``fill LANG FILE.json``
    writes translations in; with no arguments (or languages), make the notebooks and say how much is
    translated."""
    if argv[:1] == ["missing"]:
        print(json.dumps(missing(argv[1]), ensure_ascii=False, indent=1))
        return 0
    if argv[:1] == ["fill"]:
        print(f"{fill(argv[1], json.loads(Path(argv[2]).read_text(encoding='utf-8')))} messages written")
        return 0
    for language, stats in make(argv or None).items():
        print("\n".join(report(language, stats)))
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
