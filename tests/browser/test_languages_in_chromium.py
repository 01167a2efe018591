"""msviz's widgets in Chinese, Spanish and the pseudo-language, in a real browser.

In JupyterLab 4 at 1024x768 with the file browser open, a notebook per language makes the
player, the comparison, the quiz, the quiz bank, the game and the simulation. Each widget lies
within its output area (the longer words of a language must not push it wider), every control
of a bar lies inside its bar, the view's root says the language its words are in (``lang``),
axe-core finds no serious or critical violation, and a screenshot of each is saved
(test-artifacts/screenshots/lang-<language>-<widget>.png). Chinese needs a CJK font: one is
looked for, and Chinese text is checked to be drawn with real glyphs, not boxes.

The pseudo-language (every phrase in ⟦...⟧, a third longer) finds English left in the
JavaScript: every text and every aria-label, title, alt and placeholder inside a view, after
steps, Play and a change of mode, has its Latin letters inside ⟦...⟧, but for the board's own
letters, cells written (2, 3), and the code panel's source.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from axe_playwright_python.sync_playwright import Axe
from chromium import FRAMES, PATIENCE, cursor_to_next_cell, serious, shoot
from hosts import OVERFLOW
from labserver import running_lab, write_notebook
from test_notebooks_in_chromium import _run_all, assert_no_errors, drawn_step, scrub_to, wait_drawn

import msviz
from msviz.i18n import html_lang, speaking

#: The widgets each language's notebook makes, one cell each, in this order.
WIDGETS = {
    "player": "msviz.player(msviz.random_board(10, 14, 20, seed=3, safe=(5, 7)), (5, 7))",
    "compare": "msviz.compare(msviz.random_board(12, 16, 30, seed=7, safe=(6, 8)), (6, 8))",
    "quiz": "msviz.quiz(msviz.random_board(9, 9, 10, seed=2, safe=(4, 4)), (4, 4))",  # QUIZ_BOARD
    "bank": 'msviz.quiz_bank("ada", n=4)',
    "game": "msviz.game(seed=3)",
    "simulate": "msviz.simulate(['EEEE', 'EEME', 'EEEE'], (0, 0), order='bfs')",
}
LANGUAGES = ["zh_CN", "es"]
QUIZ_BOARD, QUIZ_CLICK = msviz.random_board(9, 9, 10, seed=2, safe=(4, 4)), (4, 4)


def notebook_name(language: str) -> str:
    return f"languages-{language}.ipynb"


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab 4 serving one notebook per language: msviz.set_language, then a widget a cell."""
    workdir = tmp_path_factory.mktemp("lab-languages")
    root = workdir / "notebooks"
    root.mkdir()
    for language in [*LANGUAGES, "pseudo"]:
        cells = [f"import msviz\nmsviz.set_language({language!r})", *WIDGETS.values()]
        write_notebook(root / notebook_name(language), cells)
    with running_lab(root, workdir) as base:
        yield base


@pytest.fixture
def ran(browser, lab):
    """Open a language's notebook in JupyterLab at 1024x768 (the file browser open) and run it."""
    pages = []

    def run(language):
        page = browser.new_page(viewport={"width": 1024, "height": 768})
        page.set_default_timeout(PATIENCE)
        pages.append(page)
        name = notebook_name(language)
        _run_all(page, lab, name)
        assert_no_errors(page, name)
        assert page.locator(".jp-FileBrowser").first.is_visible(), "the file browser should be open"
        return page

    yield run
    for page in pages:
        page.close()


def widget_stage(page, i: int):
    """The widget of code cell `i` + 1 (the first cell sets the language): its stage, in its output."""
    output = page.locator(".jp-Notebook .jp-CodeCell").nth(i + 1).locator(".jp-OutputArea-output")
    return output, output.locator(".msviz-stage").first


#: Each control (button, select, input) of a widget against the bar it is in (or the widget's stage).
CONTROLS_OUTSIDE = """stage => {
  const bars = '.msviz-controls, .msviz-head, .msviz-sim-buttons, .msviz-bank-cells, .msviz-bank-choices';
  const name = e => e.tagName.toLowerCase()
    + (typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\\s+/).join('.') : '')
    + (e.dataset.control ? `[${e.dataset.control}]` : '');
  const out = [];
  for (const c of stage.querySelectorAll('button, select, input')) {
    const r = c.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;  // not shown
    const bar = c.closest(bars) || stage;
    const b = bar.getBoundingClientRect();
    if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) {
      out.push(`${name(c)} "${(c.getAttribute('aria-label') || c.textContent).trim()}" at `
        + `${[r.left, r.top, r.right, r.bottom].map(Math.round)} outside ${name(bar)} at `
        + `${[b.left, b.top, b.right, b.bottom].map(Math.round)}`);
    }
  }
  return out;
}"""

#: The widget's box and its output area's, and how wide the output area scrolls.
MEASURE = """([output, stage]) => {
  const box = e => (r => [r.left, r.top, r.right, r.bottom].map(Math.round))(e.getBoundingClientRect());
  return {output: box(output), stage: box(stage), scrollWidth: output.scrollWidth,
          clientWidth: output.clientWidth};
}"""

#: Text of the widget whose nearest `lang` is not the one its words are in (the page's own is "en").
WRONG_LANG = """([stage, lang]) => {
  const out = [];
  const walker = document.createTreeWalker(stage, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.data.trim();
    if (!text || !/\\p{L}/u.test(text)) continue;
    const said = n.parentElement.closest('[lang]')?.getAttribute('lang');
    if (said !== lang) out.push(`${n.parentElement.className || n.parentElement.tagName}: `
      + `${JSON.stringify(text.slice(0, 40))} is in lang=${said}`);
  }
  return [...new Set(out)].slice(0, 12);
}"""


def test_a_cjk_font_is_installed():
    if shutil.which("fc-list") is None:
        pytest.fail("fc-list is missing: install fontconfig and a CJK font (.ci/run installs fonts-noto-cjk)")
    found = subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True).stdout.strip()
    assert found, "no Chinese font is installed (fc-list :lang=zh is empty): .ci/run installs fonts-noto-cjk"


#: A probe of `text` in the widget (its font, its lang), 20 px: its width in em, and its id.
PROBE = """([stage, text]) => {
  const probe = document.createElement('span');
  probe.id = 'msviz-language-probe';
  probe.style.cssText = 'position:absolute;opacity:0;pointer-events:none;white-space:nowrap;font-size:20px';
  probe.textContent = text;
  stage.append(probe);
  return {em: probe.getBoundingClientRect().width / 20, font: getComputedStyle(probe).fontFamily,
          lang: probe.closest('[lang]')?.getAttribute('lang')};
}"""


def fonts_drawing(page, stage, text: str) -> dict:
    """How Chromium draws `text` in the widget: its width in em and the fonts its glyphs come from
    (DevTools' CSS.getPlatformFontsForNode: the fonts really used, fallbacks included)."""
    drawn = page.evaluate(PROBE, [stage.element_handle(), text])
    page.evaluate(FRAMES, 2)  # painted: the fonts used are known once the text is drawn
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
        probe = cdp.send("DOM.querySelector", {"nodeId": root, "selector": "#msviz-language-probe"})["nodeId"]
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": probe})["fonts"]
    finally:
        cdp.detach()
        page.evaluate("() => document.getElementById('msviz-language-probe').remove()")
    return {**drawn, "fonts": {f["familyName"]: f["glyphCount"] for f in fonts}}


@pytest.mark.parametrize("language", [*LANGUAGES, "pseudo"])  # pseudo: every phrase a third longer
def test_each_widget_fits_speaks_its_language_and_passes_axe_at_1024x768(ran, language):
    page = ran(language)
    lang = html_lang(language)
    problems = []
    for i, kind in enumerate(WIDGETS):
        output, stage = widget_stage(page, i)
        stage.scroll_into_view_if_needed()
        page.evaluate(FRAMES, 3)  # a view lays itself out again as it comes into sight
        where = f"{language}, the {kind}"
        at = page.evaluate(MEASURE, [output.element_handle(), stage.element_handle()])
        print(f"\n{where}: {at}", end="")
        shoot(stage, f"lang-{language}-{kind}")
        # (a) within its output area, no sideways scrolling; each control inside its bar
        outside = page.evaluate(OVERFLOW, [stage.element_handle(), ".jp-OutputArea-output"])
        if at["stage"][2] > at["output"][2] + 1:
            outside.append(f"its right edge {at['stage'][2]} px, its output's {at['output'][2]} px")
        problems += [f"{where} does not fit its output area: {o}" for o in outside]
        problems += [f"{where}: {o}" for o in stage.evaluate(CONTROLS_OUTSIDE)]
        # (b) the language of its words
        roots = stage.locator(".msviz-view") if kind != "bank" else stage
        for j in range(roots.count()):
            said = roots.nth(j).get_attribute("lang")
            if said != lang:
                problems.append(f"{where}: its view's root has lang={said!r}, not {lang!r}")
        problems += [f"{where}: {o}" for o in page.evaluate(WRONG_LANG, [stage.element_handle(), lang])]
        # (c) axe-core, in its output area only
        output.evaluate("(o, i) => o.setAttribute('data-msviz-language-test', String(i))", i)
        results = Axe().run(page, context={"include": [f"[data-msviz-language-test='{i}']"]})
        problems += [f"{where}, axe: {found}" for found in serious(results)]
    if language == "zh_CN":
        _, stage = widget_stage(page, 0)
        stage.scroll_into_view_if_needed()  # a cell out of sight is not painted (JupyterLab's windowing)
        drawn = fonts_drawing(page, stage, "深度优先")
        print(f"\n深度优先 in the player: {drawn}")
        cjk = sum(n for family, n in drawn["fonts"].items() if "CJK" in family or "Hei" in family)
        assert drawn["em"] > 3 and cjk == 4, (
            f"深度优先 is not drawn with a Chinese font's glyphs (.ci/run installs fonts-noto-cjk): {drawn}"
        )
    shoot(page, f"lang-{language}-page")
    assert problems == [], "\n".join(problems)


# --- the pseudo-language: English left outside the catalogs ---------------------------------------


#: Every run of Latin letters outside ⟦...⟧ in the texts and names inside the roots, with where it is.
#: Allowed outside: the board's letters (M, E, B, X) alone, cells (2, 3) and digits, and the code
#: panel's source (its text; its name is checked).
UNWRAPPED = r"""roots => {
  const found = [];
  const outside = text => {
    let depth = 0, plain = '';
    for (const ch of text) {
      if (ch === '⟦') depth++;
      else if (ch === '⟧') depth = Math.max(0, depth - 1);
      else if (depth === 0) plain += ch;
      else plain += ' ';
    }
    return (plain.match(/[A-Za-z]+/g) || []).filter(w => !/^[MEBX]$/.test(w));
  };
  const name = e => `<${e.tagName.toLowerCase()}`
    + ` class="${typeof e.className === 'string' ? e.className : ''}"`
    + (e.getAttribute('role') ? ` role="${e.getAttribute('role')}"` : '')
    + (e.dataset.control ? ` data-control="${e.dataset.control}"` : '') + '>';
  const check = (e, what, text) => {
    const words = outside(text);
    if (!words.length) return;
    found.push(`${name(e)} ${what} ${JSON.stringify(text.slice(0, 160))}: ${words.join(' ')}`);
  };
  const deep = (root, visit) => {
    visit(root);
    for (const e of root.querySelectorAll('*')) visit(e);
  };
  for (const root of roots) {
    deep(root, e => {
      for (const a of ['aria-label', 'title', 'alt', 'placeholder']) {
        if (e.hasAttribute(a)) check(e, a, e.getAttribute(a));
      }
      if (e.closest('.msviz-code') || ['SCRIPT', 'STYLE'].includes(e.tagName)) return;
      for (const n of e.childNodes) {
        if (n.nodeType === Node.TEXT_NODE && n.data.trim()) check(e, 'text', n.data);
      }
    });
  }
  return [...new Set(found)];
}"""


def unwrapped(page, selector: str = ".msviz-stage") -> list[str]:
    return page.evaluate(UNWRAPPED, page.locator(selector).element_handles())


def the_words_seen(page, seen: set, selector: str = ".msviz-stage"):
    seen.update(unwrapped(page, selector))


BOARD = msviz.random_board(12, 16, 20, seed=3, safe=(6, 8))
CLICK = (6, 8)


def test_the_pseudo_language_leaves_no_english_on_an_exported_page(open_page):
    with speaking("pseudo"):
        page = open_page([msviz.trace(BOARD, CLICK, order=o) for o in ("dfs", "bfs")], name="pseudo")
    assert page.locator(".msviz-view").first.get_attribute("lang") == "en-XA"
    seen: set = set()
    the_words_seen(page, seen)
    for k in (1, 5, 12):
        page.evaluate(f"window.msvizPage.show({k})")
        page.evaluate(FRAMES, 2)
        the_words_seen(page, seen)
    page.locator("button[data-control=play]").click()
    page.wait_for_function("() => window.msvizPage.isPlaying()")
    the_words_seen(page, seen)
    page.locator("button[data-control=play]").click()
    page.wait_for_function("() => !window.msvizPage.isPlaying()")
    select = page.locator("[data-control=mode]")
    if select.count():
        for value in select.first.evaluate("s => [...s.options].map(o => o.value)"):
            select.first.select_option(value)
            page.evaluate(FRAMES, 2)
            page.evaluate("window.msvizPage.show(3)")
            page.evaluate(FRAMES, 2)
            the_words_seen(page, seen)
    page.evaluate("window.msvizPage.show(window.msvizPage.last())")
    page.evaluate(FRAMES, 2)
    the_words_seen(page, seen)
    shoot(page, "lang-pseudo-exported-page")
    assert page.problems == [], page.problems
    assert not seen, "English outside the catalogs on the exported page:\n" + "\n".join(sorted(seen))


def test_the_pseudo_language_leaves_no_english_in_the_quiz(open_quiz):
    with speaking("pseudo"):
        q = msviz.quiz(BOARD, CLICK, order="dfs")
        page = open_quiz(q)
    seen: set = set()
    the_words_seen(page, seen)
    t = q.trace
    view, target = cursor_to_next_cell(page, t, CLICK)
    the_words_seen(page, seen)  # the cursor's cell, said
    page.keyboard.press("Enter")  # a guess, and its verdict
    page.wait_for_function("root => root.msviz.quiz().tries === 1", arg=view.element_handle())
    page.evaluate(FRAMES, 2)
    the_words_seen(page, seen)
    shoot(page, "lang-pseudo-quiz-page")
    assert not seen, "English outside the catalogs in the quiz:\n" + "\n".join(sorted(seen))


def test_the_pseudo_language_leaves_no_english_in_the_widgets_in_jupyterlab(ran):
    """Every widget, in JupyterLab: stepped, played, its modes switched, edited, clicked."""
    page = ran("pseudo")
    seen: set = set()
    the_words_seen(page, seen)
    # the player and the comparison: steps, Play, every mode, the edit mode
    for i in (0, 1):
        _, stage = widget_stage(page, i)
        stage.scroll_into_view_if_needed()
        view = stage.locator(".msviz-view").first
        for k in (1, 4, 9):
            scrub_to(stage, k)
            wait_drawn(page, view, k)
            the_words_seen(page, seen)
        play = stage.locator("[data-control=play]")
        play.click()
        page.wait_for_function("root => root.msviz.step() > 10", arg=view.element_handle())
        the_words_seen(page, seen)
        play.click()
        page.evaluate(FRAMES, 2)
        select = stage.locator("[data-control=mode]")
        for value in select.evaluate("s => [...s.options].map(o => o.value)"):
            select.select_option(value)
            page.evaluate(FRAMES, 2)
            scrub_to(stage, 2)
            page.evaluate(FRAMES, 2)
            the_words_seen(page, seen)
        edit = stage.locator("[data-control=edit]")
        if edit.count() and edit.is_visible():
            before = edit.inner_text()
            edit.click()
            page.wait_for_function("([b, t]) => b.textContent !== t", arg=[edit.element_handle(), before])
            the_words_seen(page, seen)
            edit.click()
            page.wait_for_function("([b, t]) => b.textContent === t", arg=[edit.element_handle(), before])
        shoot(stage, f"lang-pseudo-{list(WIDGETS)[i]}")
    assert drawn_step(widget_stage(page, 0)[1].locator(".msviz-view").first) >= 0
    # the quiz: a guess
    _, stage = widget_stage(page, 2)
    stage.scroll_into_view_if_needed()
    view = stage.locator(".msviz-view").first
    canvas = view.locator("canvas.msviz-cells")
    box = canvas.bounding_box()
    t = msviz.trace(QUIZ_BOARD, QUIZ_CLICK)  # the quiz's, as its cell makes it: its next cell is a guess
    row, col = int(t.row[1]), int(t.col[1])
    canvas.click(position={"x": box["width"] * (col + 0.5) / 9, "y": box["height"] * (row + 0.5) / 9})
    page.wait_for_function("root => root.msviz.quiz().tries >= 1", arg=view.element_handle())
    the_words_seen(page, seen)
    shoot(stage, "lang-pseudo-quiz")
    # the game: a first click
    _, stage = widget_stage(page, 4)
    stage.scroll_into_view_if_needed()
    view = stage.locator(".msviz-view").first
    canvas = view.locator("canvas.msviz-cells")
    status = stage.locator(".msviz-status").inner_text()
    box = canvas.bounding_box()
    canvas.click(position={"x": box["width"] / 2, "y": box["height"] / 2})
    page.wait_for_function(
        "([el, was]) => el.textContent !== was", arg=[stage.locator(".msviz-status").element_handle(), status]
    )
    the_words_seen(page, seen)
    shoot(stage, "lang-pseudo-game")
    # the simulation: the queue's front taken
    _, stage = widget_stage(page, 5)
    stage.scroll_into_view_if_needed()
    verdict = stage.locator(".msviz-sim-verdict")
    was = verdict.text_content()
    canvas = stage.locator("canvas.msviz-cells")
    box = canvas.bounding_box()
    canvas.click(position={"x": box["width"] / 8, "y": box["height"] / 6})
    page.wait_for_function("([el, was]) => el.textContent !== was", arg=[verdict.element_handle(), was])
    the_words_seen(page, seen)
    shoot(stage, "lang-pseudo-simulate")
    _, stage = widget_stage(page, 3)
    stage.scroll_into_view_if_needed()
    the_words_seen(page, seen)
    shoot(stage, "lang-pseudo-bank")
    assert not seen, "English outside the catalogs in the widgets:\n" + "\n".join(sorted(seen))
