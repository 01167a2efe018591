"""The catalogs of msviz's words: complete in each language, every field kept, made from today's code.

The statistics are Babel's reading of each ``msviz.po``; the compiled ``.mo``
is what msviz reads, so it is checked to say what its ``.po`` says.
"""

from __future__ import annotations

import gettext
import re

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

import msviz
from msviz import _catalogs, i18n

LANGUAGES = [code for code in i18n.LANGUAGES if code != "en"]


catalog = _catalogs.read


@pytest.fixture(scope="module")
def template():
    return _catalogs.template()


def _one(text):
    """A phrase or its forms, as one comparable value."""
    return text if isinstance(text, str) else tuple(text)


def _ids(messages) -> set:
    return {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in messages if m.id}


def test_the_template_holds_every_phrase_of_todays_code(template):
    with open(_catalogs.TEMPLATE, "rb") as f:
        committed = read_po(f)
    new, gone = _ids(template) - _ids(committed), _ids(committed) - _ids(template)
    assert not new and not gone, (
        f"msviz/locale/msviz.pot is out of date: run python3 dev.py words (new: {sorted(new, key=str)[:5]},"
        f" gone: {sorted(gone, key=str)[:5]})"
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_catalog_is_complete(language, template):
    said = _catalogs.statistics(catalog(language))
    assert _ids(catalog(language)) == _ids(template), f"{language}: run python3 dev.py words"
    assert said["phrases"] == len(_ids(template)) > 300
    assert said["translated"] == said["phrases"], f"{language} lacks {said['missing'][:10]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_translation_keeps_the_fields_of_its_english(language):
    assert _catalogs.fields_that_differ(catalog(language)) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalog_says_what_its_source_says(language):
    with open(_catalogs.po_path(language).with_suffix(".mo"), "rb") as f:
        compiled = read_mo(f)
    source = catalog(language)

    def changed(messages):  # a phrase said as in English may be left out, or written as its English
        return {
            (m.context, _one(m.id), _one(m.string)) for m in messages if m.id and _one(m.id) != _one(m.string)
        }

    pairs = changed(m for m in source if _catalogs._translated(m))
    assert pairs and pairs == changed(compiled), "the .mo is older than its .po: run python3 dev.py words"


def test_the_catalog_tool_finds_a_missing_phrase_and_a_lost_field(tmp_path):
    """The checks above can fail: a phrase left empty is counted missing, a dropped field found."""
    from babel.messages.catalog import Catalog

    made = Catalog(locale="es")
    made.add("{n} cells", "{n} casillas", context="demo.kept")
    made.add("{n} cells", "casillas", context="demo.lost")
    made.add("Play", "", context="demo.empty")
    said = _catalogs.statistics(made)
    assert (said["phrases"], said["translated"], said["missing"]) == (3, 2, ["demo.empty"])
    assert _catalogs.fields_that_differ(made) == ["demo.lost"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_phrase_with_a_count_has_a_form_for_each_plural_kind(language):
    source = catalog(language)
    counted = [m for m in source if m.id and isinstance(m.id, (list, tuple))]
    assert counted, "the catalog has no phrase with a count"
    for m in counted:
        assert len(m.string) == source.num_plurals, m.context


def test_the_browser_is_told_the_same_plural_kinds_as_gettext():
    for language in LANGUAGES:
        compiled = gettext.translation(i18n.DOMAIN, i18n.LOCALE_DIR, languages=[language])
        table = i18n.plural_table(language)
        for n in (0, 1, 2, 5, 11, 21, 101, 111, 199):
            assert table[n] == compiled.plural(n)
        for n in (200, 1001, 12345):  # the browser reads a larger count by its last two digits
            assert table[100 + n % 100] == compiled.plural(n)


def test_a_language_msviz_does_not_speak_is_refused_by_name():
    with pytest.raises(ValueError, match=r"does not speak 'fr'.*'en', 'es', 'zh_CN'"):
        msviz.set_language("fr")
    with pytest.raises(TypeError, match="language must be a string"):
        msviz.set_language(7)
    assert msviz.get_language() == i18n.language_from_environment()


def test_a_phrase_missing_from_a_catalog_is_said_in_english(monkeypatch):
    class Partial(gettext.NullTranslations):
        def pgettext(self, context, message):
            return "¡Juega!" if context == "access.play_play" else message

    monkeypatch.setattr(i18n, "translations", lambda language: Partial())
    from msviz.words import ACCESS

    with i18n.speaking("es"):
        assert (ACCESS["play_play"], ACCESS["play_pause"]) == ("¡Juega!", "Pause")


def test_the_pseudo_language_wraps_and_lengthens_every_phrase_keeping_its_fields():
    from msviz.words import TEMPLATES

    with i18n.speaking("pseudo"):
        said = TEMPLATES["digit"].format(step=3, where="(0, 1)", mines=2, value="2")
    assert re.fullmatch(r"⟦step 3: \(0, 1\) has 2 adjacent mines, so it becomes 2~+⟧", said)
    english = "step 3: (0, 1) has 2 adjacent mines, so it becomes 2"
    assert len(said) - 2 >= len(english) * 4 // 3 - 4


def test_every_phrase_written_in_the_code_is_in_the_template(template):
    """A ``_("...")`` the extractor cannot see (inside an f-string, say) would be English in every
    language: each one written in msviz's code must be a phrase of the template."""
    import ast

    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    unseen, seen = [], 0
    for path in sorted(_catalogs.PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            called = isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            if (
                called
                and node.func.id in ("_", "_n")
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                seen += 1
                if node.args[0].value not in ids:
                    unseen.append(f"{path.name}:{node.lineno}: {node.args[0].value}")
    assert seen > 100
    assert unseen == [], unseen
