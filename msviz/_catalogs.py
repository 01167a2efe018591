"""Make the catalogs of msviz's words: extract, update, compile (``python3 dev.py words``).

The phrases are found in two places: the tables of phrases (`msviz.i18n.Phrases`,
read from the imported modules; a phrase's context is ``table.key``) and the
calls ``_("...")`` and ``_n("...", "...", n)`` in the code (Babel's extractor).
Together they make the template ``msviz/locale/msviz.pot``; each language's
``msviz.po`` is updated from it (new phrases empty, gone ones dropped), then
compiled to ``msviz.mo``, which is what ships and is read.

Needs Babel (a test dependency); a kit that is only used never imports this.
"""

from __future__ import annotations

import datetime
import importlib
import pkgutil
import re
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from . import i18n

PACKAGE = Path(__file__).parent
TEMPLATE = i18n.LOCALE_DIR / f"{i18n.DOMAIN}.pot"
KEYWORDS = {"_": None, "_n": (1, 2)}
#: The date the catalogs say they were made (fixed: a catalog changes only when its phrases do).
DATE = datetime.datetime(2026, 11, 27, tzinfo=datetime.timezone.utc)
#: Plural forms where gettext's usual ones are simpler than CLDR's (Spanish: one and other, as GNU
#: gettext has it; CLDR's "many", for a million and its multiples, would say the same words).
PLURAL_FORMS = {"es": "nplurals=2; plural=(n != 1);"}
_FIELD = re.compile(r"\{(\w*)\}")


def _import_all() -> None:
    """Import every module of msviz, so that every table of phrases is made."""
    for module in pkgutil.walk_packages([str(PACKAGE)], "msviz."):
        if module.name.split(".")[-1] not in ("__main__", "_catalogs", "_notebooks"):
            importlib.import_module(module.name)


def template() -> Catalog:
    """Every phrase msviz says, in English: the catalog the languages are translated from."""
    _import_all()
    catalog = Catalog(
        project="msviz", domain=i18n.DOMAIN, fuzzy=False, creation_date=DATE, revision_date=DATE
    )
    for name, table in sorted(i18n.TABLES.items()):
        if name.startswith("demo"):  # the doctests' own
            continue
        for key, value in table.english.items():
            for i, one in enumerate(value if isinstance(value, list) else [value]):
                context = f"{name}.{key}" + (f".{i}" if isinstance(value, list) else "")
                forms = i18n.english_forms(one)
                message = one if forms is None else forms[:2]
                comments = [f"the count that chooses the form: {{{forms[2]}}}"] if forms else []
                catalog.add(
                    message, context=context, auto_comments=comments, locations=[(f"msviz.{name}", 0)]
                )
    for path, line, message, comments, context in extract_from_dir(
        PACKAGE, method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
    ):
        catalog.add(message, locations=[(f"msviz/{path}", line)], auto_comments=comments, context=context)
    return catalog


def po_path(language: str) -> Path:
    return i18n.LOCALE_DIR / language / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"


def update(language: str, pot: Catalog) -> Catalog:
    """Language `language`'s catalog brought up to `pot`: its translations kept, new phrases empty."""
    path = po_path(language)
    if path.exists():
        catalog = read(language)
    else:
        catalog = Catalog(
            locale=language, domain=i18n.DOMAIN, project="msviz", fuzzy=False, creation_date=DATE
        )
    catalog.update(pot, no_fuzzy_matching=True)
    catalog.revision_date = DATE
    catalog.copyright_holder = catalog.last_translator = catalog.language_team = "msviz"
    if language in PLURAL_FORMS:
        catalog.mime_headers = [("Plural-Forms", PLURAL_FORMS[language])]
    catalog.obsolete.clear()
    return catalog


def statistics(catalog: Catalog) -> dict:
    """How many phrases `catalog` has, how many are translated, and which are not (their contexts)."""
    phrases = [m for m in catalog if m.id]
    missing = [m.context or str(m.id) for m in phrases if not _translated(m)]
    return {"phrases": len(phrases), "translated": len(phrases) - len(missing), "missing": missing}


def _translated(message) -> bool:
    strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
    return not message.fuzzy and all(strings)


def fields_that_differ(catalog: Catalog) -> list[str]:
    """The phrases whose translation has other ``{fields}`` than their English (a mistake to mend)."""
    wrong = []
    for m in catalog:
        if not m.id or not _translated(m):
            continue
        ids = m.id if isinstance(m.id, (list, tuple)) else [m.id]
        strings = m.string if isinstance(m.string, (list, tuple)) else [m.string]
        english = set(_FIELD.findall(ids[-1]))
        if any(set(_FIELD.findall(s)) != english for s in strings):
            wrong.append(m.context or str(ids[0]))
    return wrong


def read(language: str) -> Catalog:
    """`language`'s catalog as its ``msviz.po`` has it."""
    with open(po_path(language), "rb") as f:
        return read_po(f, locale=language)


def write(language: str, catalog: Catalog) -> None:
    """Write `catalog` as `language`'s ``msviz.po``, and compiled beside it as its ``msviz.mo``."""
    path = po_path(language)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        write_po(f, catalog, width=100, include_previous=False, include_lineno=False)
    with open(path.with_suffix(".mo"), "wb") as f:
        compile_to(f, catalog)


def compile_to(f, catalog: Catalog) -> None:
    """Write `catalog` compiled to the open file `f`, its untranslated phrases left out (so that they
    are said in English: Babel would write a phrase with a count in English forms chosen by the
    language's plural rule, the singular for every count in Chinese)."""
    kept = Catalog(locale=catalog.locale, domain=catalog.domain, fuzzy=False)
    kept.mime_headers = catalog.mime_headers
    for m in catalog:
        if m.id and _translated(m):
            kept.add(m.id, m.string, context=m.context)
    write_mo(f, kept, use_fuzzy=False)


def make(languages=None) -> dict[str, dict]:
    """Write the template, update and compile each language; return each language's statistics."""
    pot = template()
    TEMPLATE.parent.mkdir(parents=True, exist_ok=True)
    with open(TEMPLATE, "wb") as f:
        write_po(f, pot, width=100, omit_header=False, sort_output=False, include_lineno=False)
    said = {}
    for language in languages or [code for code in i18n.LANGUAGES if code != "en"]:
        catalog = update(language, pot)
        write(language, catalog)
        said[language] = statistics(catalog)
    return said


def _key(message) -> str:
    """What names a phrase in `missing` and `fill`: its context, or its English."""
    return message.context or (message.id[0] if isinstance(message.id, (list, tuple)) else message.id)


def missing(language: str) -> list[dict]:
    """The phrases `language`'s catalog does not translate yet, as a translator is given them."""
    catalog = read(language)
    return [
        {"key": _key(m), "english": m.id, "notes": m.auto_comments, "forms": catalog.num_plurals}
        if isinstance(m.id, (list, tuple))
        else {"key": _key(m), "english": m.id, "notes": m.auto_comments}
        for m in catalog
        if m.id and not _translated(m)
    ]


def fill(language: str, translations: dict) -> int:
    """Write `translations` (key: a phrase's translation, or its list of forms) into `language`'s
    catalog and compile it; return how many were written."""
    catalog = read(language)
    written = 0
    for m in catalog:
        if m.id and _key(m) in translations:
            m.string = translations[_key(m)]
            if isinstance(m.id, (list, tuple)) and isinstance(m.string, str):
                m.string = [m.string] * catalog.num_plurals
            m.flags.discard("fuzzy")
            written += 1
    write(language, catalog)
    return written


def main(argv: list[str]) -> int:
    """Make the catalogs (of the languages named in `argv`, or all) and print their statistics.

    ``missing LANG`` prints what LANG lacks as JSON; ``fill LANG FILE.json`` writes translations in.
    """
    import json

    if argv[:1] == ["missing"]:
        print(json.dumps(missing(argv[1]), ensure_ascii=False, indent=1))
        return 0
    if argv[:1] == ["fill"]:
        with open(argv[2], encoding="utf-8") as f:
            print(f"{fill(argv[1], json.load(f))} phrases written")
        return 0
    for language, said in make(argv or None).items():
        print(f"{language}: {said['translated']} of {said['phrases']} phrases translated")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
