"""The lesson's notebooks in Chinese and Spanish, in JupyterLab at 1024x768 with the file browser open.

Each translated notebook of the lesson with widgets runs top to bottom with no error, each of its
widgets lies within its output area and says its language (``lang``), its prose has no English
sentence left outside code, and Chinese is drawn with a CJK font's glyphs. A screenshot of the
first widget of 03 and 08 in each language is saved (test-artifacts/screenshots/nb-<lang>-<nn>.png).
"""

from __future__ import annotations

import re

import pytest
from chromium import FRAMES, PATIENCE, shoot
from hosts import OVERFLOW
from test_languages_in_chromium import MEASURE, WRONG_LANG, fonts_drawing
from test_notebooks_in_chromium import IN_VIEW, assert_no_errors, lab, ran_notebook  # noqa: F401

from msviz.i18n import html_lang

NOTEBOOKS = [
    "03-depth-first.ipynb",
    "04-breadth-first.ipynb",
    "05-comparing-orders.ipynb",
    "08-be-the-computer.ipynb",
]
LANGUAGES = ["zh_CN", "es"]

#: The prose of the notebook's markdown cells, its code spans left out.
PROSE = """() => [...document.querySelectorAll('.jp-MarkdownCell .jp-RenderedMarkdown')]
  .map(m => { const c = m.cloneNode(true); c.querySelectorAll('code, pre').forEach(e => e.remove());
              return c.innerText; }).join('\\n')"""


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_a_translated_lesson_notebook_runs_fits_and_speaks_its_language(browser, lab, language, name):  # noqa: F811
    lang = html_lang(language)
    with ran_notebook(browser, lab, f"{language}/{name}", viewport=(1024, 768)) as page:
        assert_no_errors(page, f"{language}/{name}")
        assert page.locator(".jp-FileBrowser").first.is_visible(), "the file browser should be open"
        stages = page.locator(".jp-OutputArea-output .msviz-stage")
        assert stages.count() > 0
        problems = []
        for i in range(stages.count()):
            stage = stages.nth(i)
            stage.scroll_into_view_if_needed()
            page.evaluate(FRAMES, 2)
            output = stage.locator("xpath=ancestor::div[contains(@class, 'jp-OutputArea-output')]").first
            at = page.evaluate(MEASURE, [output.element_handle(), stage.element_handle()])
            if at["stage"][2] > at["output"][2] + 1:
                problems.append(f"widget {i}: right edge {at['stage'][2]} px, its output's {at['output'][2]}")
            problems += [
                f"widget {i}: {o}"
                for o in page.evaluate(OVERFLOW, [stage.element_handle(), ".jp-OutputArea-output"])
            ]
            problems += [
                f"widget {i}: {o}" for o in page.evaluate(WRONG_LANG, [stage.element_handle(), lang])
            ]
        prose = page.evaluate(PROSE)
        if language == "zh_CN":
            # three English words in a row: a sentence left untranslated (names are one or two)
            english = re.findall(r"[A-Za-z]{3,}(?:\s+[A-Za-z]{3,}){2,}", prose)
            problems += [f"English left in the prose: {w!r}" for w in english]
            stage = stages.first
            stage.scroll_into_view_if_needed()
            drawn = fonts_drawing(page, stage, "深度优先")
            cjk = sum(n for family, n in drawn["fonts"].items() if "CJK" in family or "Hei" in family)
            assert cjk == 4, f"Chinese is not drawn with a Chinese font's glyphs: {drawn}"
        assert "**" not in prose, "bold left as asterisks"
        if name[:2] in ("03", "08"):
            first = stages.first
            first.scroll_into_view_if_needed()
            page.wait_for_function(
                IN_VIEW, arg=first.locator("canvas").first.element_handle(), timeout=PATIENCE
            )
            page.evaluate(FRAMES, 3)
            shoot(page, f"nb-{language}-{name[:2]}")
        assert problems == [], "\n".join(problems)
