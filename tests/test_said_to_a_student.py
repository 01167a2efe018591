"""What a student meets is in their language: the errors for what they type (a board with a wrong
symbol, a click off the board, an answer of the wrong kind), the grader's lists and fence, and
a list or sentences joined as the language joins them. The exception's type stays; English is
the catalog's message id, so an English session reads as before."""

from __future__ import annotations

import re

import pytest

import msviz
from msviz.bank import make_bank
from msviz.i18n import listed, speaking

LANGUAGES = ["zh_CN", "es"]
#: A word each language's message has, and English's lacks.
SAID = {"zh_CN": "棋盘", "es": "tablero", "en": "board"}


def raised(function, language):
    """The exception `function` raises when `language` is spoken."""
    with speaking(language), pytest.raises((TypeError, ValueError)) as caught:
        function()
    return caught.value


STUDENT_MISTAKES = {
    "a wrong symbol": (lambda: msviz.parse_board(["EEE", "EZE"]), ValueError, "'Z'"),
    "a click off the board": (lambda: msviz.reveal(["EEEEE"] * 4, (4, 0)), ValueError, "(4, 0)"),
    "a quiz guess off the board": (
        lambda: msviz.quiz(["EEE", "EEM"], (0, 0)).guess(5, 0),
        ValueError,
        "(5, 0)",
    ),
}


@pytest.mark.parametrize("mistake", STUDENT_MISTAKES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_an_error_for_what_a_student_typed_is_in_their_language(mistake, language):
    function, kind, value = STUDENT_MISTAKES[mistake]
    english, said = raised(function, "en"), raised(function, language)
    assert type(english) is type(said) is kind
    assert value in str(said) and value in str(english)
    assert SAID[language] in str(said) and SAID["en"] not in str(said)
    assert "board" in str(english)


def _question(bank, by):
    return next(i for i, q in enumerate(bank.questions) if q.answered_by == by)


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_answer_of_the_wrong_kind_is_refused_in_the_students_language(language):
    bank = make_bank("Ada Lovelace", n=10)
    cell, choice = _question(bank, "cell"), _question(bank, "choice")
    cases = [
        (lambda: bank.answer(cell, (20, 20)), ValueError),
        (lambda: bank.answer(choice, 3.5), TypeError),
        (lambda: bank.answer(choice, "nothing offered"), ValueError),
    ]
    for function, kind in cases:
        english, said = raised(function, "en"), raised(function, language)
        assert type(english) is type(said) is kind
        assert str(english).startswith(("the answer", "a cell of the answer"))
        assert not re.search(r"\bthe answer\b", str(said)), said
    assert bank.answers == [None] * 10, "a refused answer is not an answer"
    with speaking("zh_CN"):
        message = str(raised(lambda: bank.answer(choice, "nothing offered"), "zh_CN"))
    if len(bank.questions[choice].choices) > 1:
        assert "、" in message and ", " not in message.split("而不是")[0]


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_lists_are_joined_as_the_language_joins_them(language):
    from msviz.grade import sandbox

    with speaking(language):
        layers = sandbox.layers_words(["network", "files"])
        numbers = listed(["3", "5"])
    joined = {
        "en": ("files, network", "3, 5"),
        "es": ("archivos, red", "3, 5"),
        "zh_CN": ("文件、网络", "3、5"),
    }
    assert (layers, numbers) == joined[language]


def test_the_graders_wrong_and_unanswered_questions_are_listed_in_chinese():
    from msviz.grade.homework import bank_row

    bank = make_bank("Ada Lovelace", n=6)  # none answered: questions 1 to 6 are listed
    with speaking("zh_CN"):
        summary = bank_row(bank.to_dict(), 10.0)["summary"]
    assert summary.endswith("未答的题：1、2、3、4、5、6"), summary


def test_the_fence_that_did_not_hold_is_named_in_the_language_of_the_class():
    """The grader's line for a submission whose fence did not hold names the missing layers through
    the catalog, joined as the language joins a list."""
    from msviz.grade import sandbox, schedule
    from msviz.grade.limits import Limits

    class Runner:  # what a runner says first: the layers that held (all but files and network)
        def receive(self):
            return {"fence": [layer for layer in sandbox.LAYERS if layer not in ("files", "network")]}

        def fenced(self, layers):
            self.layers = layers

    settings = {"limits": Limits(), "require": True}
    with speaking("zh_CN"):
        row = schedule._judged(Runner(), "ada", "ada.py", [], settings)
    assert row.verdict == "not graded"
    assert row.problem == "未评分：它的隔离没有生效（文件、网络）"
    with speaking("en"):
        row = schedule._judged(Runner(), "ada", "ada.py", [], settings)
    assert row.problem == "not graded: its fence did not hold (files, network)"


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_the_views_region_label_joins_its_sentences_as_the_language_does(language):
    words = msviz.player(["EE", "EM"], (0, 0), language=language).words
    assert words["sentences"] == {"en": ". ", "es": ". ", "zh_CN": "。"}[language]
    assert words["separator"] == {"en": ", ", "es": ", ", "zh_CN": "、"}[language]


def _text_px(text: str) -> float:
    """`text`'s width at 13 px, measured with the fonts a browser here draws it in (Noto Sans CJK
    writes both Chinese and Latin letters; where it is missing, the page's own estimate)."""
    import subprocess

    from PIL import ImageFont

    from msviz.grade.page import label_px

    try:
        path = subprocess.run(
            ["fc-match", "-f", "%{file}", "Noto Sans CJK SC"], capture_output=True, text=True, check=True
        ).stdout
        return ImageFont.truetype(path, 13).getlength(text)
    except (OSError, subprocess.CalledProcessError):
        return label_px(text)


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_the_class_pages_mistake_labels_fit_left_of_their_bars_in_every_language(language):
    """A label is right-aligned at x; it is cut if it is wider than x (it began at x = -81 px in
    Chinese when a character was taken for 7 px)."""
    from msviz.grade import page
    from msviz.grade.mistakes import name_of
    from msviz.render import PALETTE
    from msviz.words import SIMULATE

    with speaking(language):
        labels = [
            SIMULATE["most_wrong"].format(kind=SIMULATE["kind_queue"]),
            name_of("digits spread"),
            name_of("queued many times"),
        ]
        chart = page._mistake_chart([(label, 3 - i, True) for i, label in enumerate(labels)], PALETTE)
    found = re.findall(r'<text x="(\d+)" y="\d+" text-anchor="end" font-size="13">([^<]+)</text>', chart)
    assert len(found) == 3
    for x, label in found:
        assert _text_px(label) <= int(x), f"{label!r} is {_text_px(label):.0f} px wide, room for {x}"


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_a_simulation_sets_repr_is_in_the_language_spoken(language):
    sims = msviz.simulation_set("ada", n=2)
    with speaking(language):
        said = repr(sims)
    word = {"en": "simulation set", "zh_CN": "模拟集", "es": "conjunto de simulaciones"}[language]
    assert word in said and "'ada'" in said and f"{sims.steps}" in said
