"""The language msviz speaks, and each of its phrases in that language.

English is the source: every phrase is written in English where it is
defined (the tables of :mod:`msviz.words`, or ``_("...")`` in the grader and
the command line), and looked up, when it is said, in a gettext catalog of
the language chosen. The catalogs are compiled ahead (``python3 dev.py
words``) and ship inside the package, in ``msviz/locale``.

The language is, first to last: a ``language=`` argument of one call, then
:func:`set_language`, then the environment variable ``MSVIZ_LANGUAGE`` (a hub
can set it for a class), then the locale's (``LANGUAGE``, ``LC_ALL``,
``LANG``), then English. A phrase missing from a catalog is said in English.

A phrase with a count in it (``{mines}`` adjacent ``mine{mines_s}``) has a
form for each plural kind of the language: the field ``x_s`` in the English
source marks the count ``x`` that chooses the form.

The pseudo-language ``"pseudo"`` wraps every phrase in ``⟦...⟧`` and makes it a
third longer: the tests speak it to find words that escaped the catalog and
layouts that do not hold longer words.

Examples
--------
>>> from msviz.i18n import speaking, get_language
>>> from msviz.words import ACCESS
>>> with speaking("pseudo"):
...     get_language(), ACCESS["play_play"]
('pseudo', '⟦Play~~⟧')
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import gettext
import inspect
import os
import re
import warnings
from collections.abc import Mapping
from pathlib import Path

__all__ = [
    "LANGUAGES",
    "PSEUDO",
    "set_language",
    "get_language",
    "speaking",
    "speaks",
    "in_own_language",
    "checked_language",
    "language_from_environment",
    "html_lang",
    "Phrases",
    "Plural",
    "plural_table",
    "view_words",
    "_",
    "_n",
]

#: The languages msviz speaks: code, and the language's own name for itself.
LANGUAGES = {"en": "English", "es": "Español", "zh_CN": "简体中文"}
#: The test language: every phrase wrapped in ⟦...⟧ and a third longer.
PSEUDO = "pseudo"
#: Each language's tag for HTML's ``lang`` (BCP 47).
_TAGS = {"en": "en", "es": "es", "zh_CN": "zh-CN", PSEUDO: "en-XA"}
#: Other names a locale may give a language msviz speaks.
_ALIASES = {"zh": "zh_CN", "zh_Hans": "zh_CN", "zh_SG": "zh_CN"}
DOMAIN = "msviz"
LOCALE_DIR = Path(__file__).with_name("locale")
#: Counts a view is sent the plural kind of (the browser reads larger counts by their last two digits).
PLURAL_TABLE_SIZE = 200

_chosen: str | None = None  # set_language's
_this_call: contextvars.ContextVar[str | None] = contextvars.ContextVar("msviz_language", default=None)


def _known() -> str:
    return ", ".join(repr(code) for code in LANGUAGES)


def checked_language(language) -> str:
    """Return `language` as msviz names it (``"zh_CN"``), or raise if msviz does not speak it.

    Examples
    --------
    >>> checked_language("es"), checked_language("zh-CN")
    ('es', 'zh_CN')
    >>> checked_language("fr")
    Traceback (most recent call last):
    ...
    ValueError: msviz does not speak 'fr': the languages are 'en', 'es', 'zh_CN'
    """
    if not isinstance(language, str):
        raise TypeError(f"language must be a string such as 'es', not {type(language).__name__}")
    code = _code(language)
    if code is None:
        raise ValueError(f"msviz does not speak {language!r}: the languages are {_known()}")
    return code


def _code(name: str) -> str | None:
    """The code of the language msviz speaks that `name` (a code or a locale) names, or None."""
    name = name.strip().split(".")[0].split("@")[0].replace("-", "_")
    if name == PSEUDO:
        return name
    for code in LANGUAGES:
        if name.lower() == code.lower():
            return code
    if name in _ALIASES:
        return _ALIASES[name]
    base = name.split("_")[0].lower()
    if base == "zh":  # Chinese other than Simplified (zh_TW, zh_HK): not spoken
        return None
    return base if base in LANGUAGES else None


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for: ``MSVIZ_LANGUAGE``, then the locale's, then English.

    A value of ``MSVIZ_LANGUAGE`` msviz does not speak is warned about, and English spoken.

    Examples
    --------
    >>> language_from_environment({"LANG": "es_MX.UTF-8"})
    'es'
    >>> language_from_environment({"LANGUAGE": "fr:zh_CN", "LANG": "C.UTF-8"})
    'zh_CN'
    >>> language_from_environment({})
    'en'
    """
    environ = os.environ if environ is None else environ
    asked = environ.get("MSVIZ_LANGUAGE", "").strip()
    if asked:
        code = _code(asked)
        if code is not None:
            return code
        warnings.warn(
            f"MSVIZ_LANGUAGE={asked!r} is not a language msviz speaks ({_known()}): speaking English",
            stacklevel=2,
        )
    for variable in ("LANGUAGE", "LC_ALL", "LANG"):
        for name in environ.get(variable, "").split(":"):
            if name and name not in ("C", "POSIX") and not name.startswith("C."):
                code = _code(name)
                if code is not None:
                    return code
    return "en"


def set_language(language: str | None) -> str:
    """Speak `language` from now on in this kernel (None: the environment's again); return it.

    Parameters
    ----------
    language : str or None
        ``"en"``, ``"es"`` or ``"zh_CN"`` (a locale such as ``"es_ES"`` names ``"es"``).

    Examples
    --------
    >>> import msviz
    >>> msviz.set_language("zh_CN")
    'zh_CN'
    >>> msviz.set_language("en")
    'en'
    """
    global _chosen
    _chosen = None if language is None else checked_language(language)
    return get_language()


def get_language() -> str:
    """The language msviz speaks now (see the module's order of choice).

    Examples
    --------
    >>> with speaking("es"):
    ...     get_language()
    'es'
    """
    return _this_call.get() or _chosen or language_from_environment()


@contextlib.contextmanager
def speaking(language: str | None):
    """Speak `language` inside the ``with`` block only (None: the language already spoken).

    Examples
    --------
    >>> from msviz.words import ACCESS
    >>> with speaking("zh_CN"):
    ...     ACCESS["play_play"] != "Play"
    True
    """
    if language is None:
        yield get_language()
        return
    token = _this_call.set(checked_language(language))
    try:
        yield _this_call.get()
    finally:
        _this_call.reset(token)


def speaks(function):
    """Give `function` a keyword argument ``language=``: the language it speaks for that call.

    Examples
    --------
    >>> @speaks
    ... def greet():
    ...     return _("Play")
    >>> greet(language="pseudo"), greet(language="en")
    ('⟦Play~~⟧', 'Play')
    """
    signature = inspect.signature(function)
    parameters = list(signature.parameters.values())
    place = next((i for i, p in enumerate(parameters) if p.kind is p.VAR_KEYWORD), len(parameters))
    parameters.insert(place, inspect.Parameter("language", inspect.Parameter.KEYWORD_ONLY, default=None))

    @functools.wraps(function)
    def spoken(*args, language: str | None = None, **kwargs):
        with speaking(language):
            return function(*args, **kwargs)

    spoken.__signature__ = signature.replace(parameters=parameters)
    return spoken


def in_own_language(method):
    """Make a method of an object with a ``language`` (a widget) speak that language, whenever
    it runs: a click handled later, a trait observed, an answer given from Python.

    Examples
    --------
    >>> class Said:
    ...     language = "pseudo"
    ...     @in_own_language
    ...     def play(self):
    ...         return _("Play")
    >>> Said().play()
    '⟦Play~~⟧'
    """

    @functools.wraps(method)
    def spoken(self, *args, **kwargs):
        with speaking(self.language):
            return method(self, *args, **kwargs)

    return spoken


def html_lang(language: str | None = None) -> str:
    """The HTML ``lang`` of `language` (the one spoken now by default).

    Examples
    --------
    >>> html_lang("zh_CN"), html_lang("en")
    ('zh-CN', 'en')
    """
    return _TAGS[get_language() if language is None else checked_language(language)]


class _Pseudo(gettext.NullTranslations):
    """The pseudo-language: each phrase wrapped in ⟦...⟧ and lengthened by a third."""

    @staticmethod
    def _wrap(text: str) -> str:
        if not text.strip():
            return text
        body = text.strip()
        lead, tail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()) :]
        return f"{lead}⟦{body}{'~' * -(-len(body) // 3)}⟧{tail}"

    def gettext(self, message):
        return self._wrap(message)

    def ngettext(self, singular, plural, n):
        return self._wrap(singular if n == 1 else plural)

    def pgettext(self, context, message):
        return self._wrap(message)

    def npgettext(self, context, singular, plural, n):
        return self._wrap(singular if n == 1 else plural)


@functools.cache
def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalog of `language` (English: none, every phrase said as written)."""
    if language == PSEUDO:
        return _Pseudo()
    if language == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[language], fallback=True)


def _spoken() -> gettext.NullTranslations:
    return translations(get_language())


def _(message: str) -> str:
    """`message` in the language spoken now.

    Examples
    --------
    >>> with speaking("pseudo"):  # every phrase wrapped: see the module's notes
    ...     _("Pause")
    '⟦Pause~~⟧'
    """
    return _spoken().gettext(message)


def _n(singular: str, plural: str, n: int) -> str:
    """The form of `singular`/`plural` for count `n` in the language spoken now.

    Examples
    --------
    >>> _n("{n} mine", "{n} mines", 3).format(n=3)
    '3 mines'
    """
    return _spoken().ngettext(singular, plural, n)


_PLURAL_FIELD = re.compile(r"\{(\w+)_s\}")


class Plural(str):
    """A phrase whose words depend on a count: ``format`` picks the form for the count's value.

    As a string it is the form for many. `count` is the name of the field that
    chooses.

    Examples
    --------
    >>> p = Plural("demo", "{n} mine", "{n} mines", "n")
    >>> p.format(n=1), p.format(n=4)
    ('1 mine', '4 mines')
    """

    def __new__(cls, context: str, singular: str, plural: str, count: str, language: str | None = None):
        language = language or get_language()
        self = super().__new__(cls, translations(language).npgettext(context, singular, plural, 2))
        self.context, self.singular, self.plural, self.count = context, singular, plural, count
        self.language = language
        return self

    def form(self, n: int) -> str:
        """The phrase for a count of `n`, its fields not filled."""
        return translations(self.language).npgettext(self.context, self.singular, self.plural, int(n))

    def format(self, *args, **values) -> str:  # noqa: D102
        return self.form(int(values[self.count])).format(*args, **values)

    def forms(self) -> list[str]:
        """The phrase's forms, one for each plural kind of its language (see :func:`plural_table`)."""
        table = plural_table(self.language)
        return [self.form(table.index(kind)) for kind in range(max(table) + 1)]


def english_forms(template: str) -> tuple[str, str, str] | None:
    """A template's English singular and plural, and the count that chooses: None if it has no count.

    Examples
    --------
    >>> english_forms("{n} mine{n_s} left")
    ('{n} mine left', '{n} mines left', 'n')
    >>> english_forms("no count") is None
    True
    """
    counts = set(_PLURAL_FIELD.findall(template))
    if not counts:
        return None
    if len(counts) > 1:
        raise ValueError(
            f"a phrase may have one count that chooses its form, not {sorted(counts)}: {template!r}"
        )
    (count,) = counts
    field = "{" + count + "_s}"
    return template.replace(field, ""), template.replace(field, "s"), count


@functools.cache
def plural_table(language: str) -> tuple[int, ...]:
    """The plural kind (the index of a phrase's form) of each count below 200, in `language`.

    A count of 200 or more has the kind of 100 plus its last two digits.

    Examples
    --------
    >>> plural_table("en")[:3], plural_table("zh_CN")[:3]
    ((1, 0, 1), (0, 0, 0))
    """
    t = translations(language)
    plural = getattr(t, "plural", None)
    if plural is None:  # English, the pseudo-language: one, other
        return tuple(0 if n == 1 else 1 for n in range(PLURAL_TABLE_SIZE))
    return tuple(int(plural(n)) for n in range(PLURAL_TABLE_SIZE))


#: Every table of phrases made, by name (what ``dev.py words`` extracts).
TABLES: dict[str, Phrases] = {}


class Phrases(Mapping):
    """A table of phrases: English templates by key, each read in the language spoken when it is read.

    A phrase's gettext context is ``"<table>.<key>"``, so one English word can
    be said two ways in two places. A phrase that is a list is a list of
    phrases (context ``"<table>.<key>.<i>"``).

    Examples
    --------
    >>> demo = Phrases("demo", {"play": "Play", "left": "{n} mine{n_s} left"})
    >>> demo["play"], demo["left"].format(n=1)
    ('Play', '1 mine left')
    """

    def __init__(self, name: str, english: Mapping):
        self.name = name
        self.english = dict(english)
        for key, value in self.english.items():
            for one in value if isinstance(value, list) else [value]:
                if not isinstance(one, str):
                    raise TypeError(f"phrase {name}.{key} must be a string, not {type(one).__name__}")
                english_forms(one)  # one count at most
        TABLES[name] = self

    def __getitem__(self, key: str):
        value = self.english[key]
        if isinstance(value, list):
            return [say(f"{self.name}.{key}.{i}", one) for i, one in enumerate(value)]
        return say(f"{self.name}.{key}", value)

    def __iter__(self):
        return iter(self.english)

    def __len__(self) -> int:
        return len(self.english)

    def __repr__(self) -> str:
        return f"Phrases({self.name!r}, {len(self)} phrases)"


def say(context: str, template: str) -> str:
    """English `template` (context `context`) in the language spoken now; a `Plural` if it has a count."""
    forms = english_forms(template)
    if forms is not None:
        return Plural(context, *forms)
    return _spoken().pgettext(context, template)


def view_words(*tables: Mapping, language: str | None = None) -> dict:
    """The phrases of `tables` as a browser view is sent them, in `language`.

    A phrase with a count is ``{"forms": [...], "count": name}``; the kind of
    each count below 200 is ``"plural"``, the HTML ``lang`` is ``"lang"``.

    Examples
    --------
    >>> demo = Phrases("demo2", {"left": "{n} mine{n_s} left"})
    >>> words = view_words(demo, language="es")
    >>> words["lang"], words["left"]["count"], len(words["plural"])
    ('es', 'n', 200)
    """
    with speaking(language) as spoken:
        words: dict = {}
        for table in tables:
            for key in table:
                value = table[key]
                words[key] = (
                    {"forms": value.forms(), "count": value.count} if isinstance(value, Plural) else value
                )
        words["plural"] = list(plural_table(spoken))
        words["lang"] = _TAGS[spoken]
    return words


#: How a list of words is joined in each language (Chinese: 、), and sentences one after another
#: (Chinese: 。, with no space).
LISTS = Phrases("lists", {"separator": ", ", "sentences": ". "})


def listed(words) -> str:
    """`words` as a list in the language spoken now: ``a, b, c`` in English, ``a、b、c`` in Chinese.

    Examples
    --------
    >>> listed(["files", "network"])
    'files, network'
    """
    return LISTS["separator"].join(words)
