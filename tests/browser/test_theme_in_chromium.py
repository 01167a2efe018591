"""The view's words can be read in the host's theme: at least 4.5:1 against their background.

The view takes its colours from where it is shown (msviz/view.css): JupyterLab's CSS
variables, VS Code's, marimo's dark mode, or, with no host, the reader's system. Here
notebooks 03 and 05 (and a game of the tests' own) are run in JupyterLab with its Light
theme and with its Dark theme, and every element that shows text of its own inside an
output that holds a board is measured: the colour the browser computed for it, over the
background it is drawn on (its own, or its nearest painted ancestor's, semi-transparent
layers blended), by WCAG 2's contrast ratio. That is the title, the caption, the legend,
the code and its running line, the frames or the queue, the quiz's rule, verdict (right
and wrong) and score, the controls and the status line. The exported page is measured
too, with the reader's system light and dark, and as a dark VS Code or marimo would show
it. Screenshots of notebook 03's player in each theme, at 1024x768 with the file browser
open, go to test-artifacts/screenshots/.
"""

from __future__ import annotations

import re
import shutil

import pytest
from chromium import ROOT, shoot
from labserver import quiet_settings, running_lab, write_notebook
from test_notebooks_in_chromium import GAME_NOTEBOOK, PLAYER_BOXES, ran_notebook

import msviz
from msviz.words import fill

#: WCAG 2's least contrast for text (level AA, text under 18pt).
LEAST = 4.5
THEMES = ["JupyterLab Light", "JupyterLab Dark"]
BOARD = msviz.random_board(12, 16, 20, seed=3, safe=(6, 8))  # as in notebooks 03 and 05
QUIZ_BOARD, QUIZ_CLICK = msviz.random_board(6, 8, 7, seed=5, safe=(3, 4)), (3, 4)  # notebook 03's quiz


# --- WCAG 2's contrast, from the colours the browser computed ---------------------------------------


def parse_color(text: str) -> tuple[float, float, float, float]:
    """Red, green and blue (0-255) and alpha (0-1) of a colour as getComputedStyle writes it:
    ``rgb(...)``, ``rgba(...)`` or ``color(srgb r g b [/ a])`` (what color-mix in srgb gives)."""
    text = text.strip()
    if m := re.fullmatch(r"rgba?\(([^)]*)\)", text):
        parts = [p for p in re.split(r"[\s,/]+", m.group(1)) if p]
        r, g, b = (float(p) for p in parts[:3])
        return r, g, b, _alpha(parts[3]) if len(parts) > 3 else 1.0
    if m := re.fullmatch(r"color\(srgb ([^)]*)\)", text):
        parts = [p for p in re.split(r"[\s/]+", m.group(1)) if p]
        r, g, b = (min(max(float(p), 0.0), 1.0) * 255 for p in parts[:3])
        return r, g, b, _alpha(parts[3]) if len(parts) > 3 else 1.0
    raise ValueError(f"not a colour this test can read: {text!r}")


def _alpha(part: str) -> float:
    return float(part[:-1]) / 100 if part.endswith("%") else float(part)


def over(top, bottom) -> tuple[float, float, float, float]:
    """Colour `top` (r, g, b, alpha) painted over the opaque colour `bottom`."""
    a = top[3]
    return (*(top[i] * a + bottom[i] * (1 - a) for i in range(3)), 1.0)


def luminance(color) -> float:
    """WCAG 2's relative luminance of an opaque colour (r, g, b in 0-255)."""

    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in color[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    """WCAG 2's contrast ratio of two opaque colours, from 1 (the same) to 21 (black and white)."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def hex_color(text: str) -> tuple[float, float, float, float]:
    text = text.lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    return (*(int(text[i : i + 2], 16) for i in (0, 2, 4)), 1.0)


WHITE = (255.0, 255.0, 255.0, 1.0)


def seen(sample: dict) -> tuple[float, tuple, tuple]:
    """The contrast of a measured text, and its text and background as drawn (opaque).

    `sample["layers"]` are the background colours from the element up to the first opaque one
    (white under them all if none is: the canvas of a page with no colour scheme); the text's
    colour is drawn over them at its own alpha times the opacity of the element and its ancestors.
    """
    background = WHITE
    for layer in reversed(sample["layers"]):
        background = over(parse_color(layer), background)
    r, g, b, a = parse_color(sample["color"])
    text = over((r, g, b, a * sample["opacity"]), background)
    return contrast(text, background), text, background


def test_the_contrast_formula_gives_wcags_known_ratios():
    black, white = hex_color("#000"), hex_color("#fff")
    assert contrast(black, white) == pytest.approx(21.0)
    assert contrast(white, black) == contrast(black, white)
    assert contrast(hex_color("#777"), white) == pytest.approx(4.48, abs=0.005)  # just under AA
    assert contrast(hex_color("#767676"), white) == pytest.approx(4.54, abs=0.005)  # just over
    assert contrast(hex_color("#595959"), white) == pytest.approx(7.0, abs=0.01)
    assert contrast(hex_color("#1a7f37"), hex_color("#1a7f37")) == 1.0
    # The colours as the browser writes them, and text with alpha blended over its background.
    assert parse_color("rgb(17, 17, 17)") == (17, 17, 17, 1.0)
    assert parse_color("rgba(0, 0, 0, 0.87)") == (0, 0, 0, 0.87)
    assert parse_color("color(srgb 1 0.5 0 / 50%)") == (255, 127.5, 0, 0.5)
    assert over(parse_color("rgba(0, 0, 0, 0.5)"), white)[:3] == (127.5, 127.5, 127.5)
    light = {"color": "rgba(0, 0, 0, 0.54)", "layers": ["rgba(0, 0, 0, 0)", "rgb(255, 255, 255)"]}
    assert seen({**light, "opacity": 1})[0] == pytest.approx(4.6, abs=0.05)  # JupyterLab's quiet grey
    assert seen({**light, "opacity": 0.5})[0] < 2  # faded by its element's opacity
    assert seen({"color": "rgb(0, 0, 0)", "layers": ["rgba(0, 0, 0, 0)"], "opacity": 1})[0] == 21  # on white
    with pytest.raises(ValueError):
        parse_color("oklch(0.5 0.1 200)")


def test_the_views_own_colour_names_are_not_the_palettes():
    """view.js sets --msviz-<name> on the view from the palette: the theme's names must differ."""
    from msviz.render import PALETTE

    css = (ROOT / "msviz" / "view.css").read_text(encoding="utf-8")
    defined = set(re.findall(r"(--msviz-[\w-]+)\s*:", css))
    assert {"--msviz-text", "--msviz-bg"} <= defined
    clashes = sorted(name for name in defined if name.removeprefix("--msviz-") in PALETTE)
    assert clashes == [], f"view.css defines names the palette sets inline, which would win: {clashes}"


# --- What a page shows: every element with text of its own, and what it is drawn on ----------------

#: For each element with text of its own under `root` (a form control: its value or its option),
#: drawn and larger than a dot: where it is, its words, its colour, the background colours from it
#: up to the first opaque one, the product of the opacities on the way, whether it is disabled.
TEXTS = r"""root => {
  const up = n => n.parentElement || (n.getRootNode() instanceof ShadowRoot ? n.getRootNode().host : null);
  const ownText = el => {
    if (el.matches('input[type=range], input[type=checkbox], input[type=radio], option, optgroup')) return '';
    if (el.matches('input, textarea')) return el.value;
    if (el.matches('select')) return el.selectedOptions[0] ? el.selectedOptions[0].text : '';
    return [...el.childNodes].filter(n => n.nodeType === Node.TEXT_NODE).map(n => n.data).join('');
  };
  const opaque = c => !c.startsWith('rgba') && !c.includes('/') && c !== 'transparent';
  const named = el => el.tagName.toLowerCase()
    + [...el.classList].filter(c => /^(msviz|widget|jupyter|jp)-/.test(c)).map(c => '.' + c).join('')
    + (el.dataset.control ? `[data-control=${el.dataset.control}]` : '');
  const found = [];
  for (const el of root.querySelectorAll('*')) {
    const text = ownText(el).replace(/\s+/g, ' ').trim();
    if (!text) continue;
    const box = el.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) continue;  // a screen reader's region, drawn as nothing
    if (!el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
    const layers = [], path = [];
    let opacity = 1;
    for (let n = el; n; n = up(n)) {
      const s = getComputedStyle(n);
      opacity *= parseFloat(s.opacity);
      layers.push(s.backgroundColor);
      if (opaque(s.backgroundColor)) break;
    }
    for (let n = el; n && n !== root; n = up(n)) path.unshift(named(n));
    const classes = [];
    for (let n = el; n && n !== root.parentElement; n = up(n)) classes.push(...n.classList);
    found.push({
      where: path.filter((p, i) => i === path.length - 1 || /msviz-|widget-/.test(p)).slice(-3).join(' > '),
      text: text.slice(0, 50), color: getComputedStyle(el).color, layers, opacity,
      disabled: el.matches(':disabled'), classes: [...new Set(classes)],
    });
  }
  return found;
}"""

#: The focused element's outline, and the backgrounds it is drawn over (from its parent up).
FOCUS_RING = r"""() => {
  const el = document.activeElement, s = getComputedStyle(el), layers = [];
  for (let n = el.parentElement; n; n = n.parentElement) {
    const c = getComputedStyle(n).backgroundColor;
    layers.push(c);
    if (!c.startsWith('rgba') && !c.includes('/')) break;
  }
  return {visible: el.matches(':focus-visible'), style: s.outlineStyle, width: parseFloat(s.outlineWidth),
          color: s.outlineColor, layers, control: el.dataset.control};
}"""

#: The outputs that hold a board (in JupyterLab; in an exported page, its whole body).
OUTPUTS = ".jp-OutputArea-output:has(.msviz-view, .msviz-stage)"


def measure(page, selector: str = OUTPUTS) -> list[dict]:
    """Every text under each element of `selector`, with its contrast (`ratio`) and output (`output`)."""
    samples = []
    roots = page.locator(selector)
    for i in range(roots.count()):
        for sample in roots.nth(i).evaluate(TEXTS):
            ratio, text, background = seen(sample)
            samples.append({**sample, "output": i, "ratio": ratio, "drawn": (text, background)})
    return samples


def rgb(color) -> str:
    return "#" + "".join(f"{round(c):02x}" for c in color[:3])


def failures(samples: list[dict], where: str) -> list[str]:
    """A line for each text under 4.5:1 (controls that are disabled are exempt, as WCAG has it)."""
    return [
        f"{where}, output {s['output']}: {s['where']} {s['text']!r} is {s['ratio']:.2f}:1"
        f" ({rgb(s['drawn'][0])} on {rgb(s['drawn'][1])}; computed {s['color']} on {s['layers']})"
        for s in samples
        if s["ratio"] < LEAST and not s["disabled"]
    ]


def lowest(samples: list[dict]) -> str:
    s = min(samples, key=lambda s: s["ratio"])
    return f"{s['ratio']:.2f}:1 at {s['where']} {s['text']!r}"


def measured(samples: list[dict], css_class: str) -> list[dict]:
    """The samples inside (or of) an element of `css_class`."""
    return [s for s in samples if css_class in s["classes"]]


# --- JupyterLab, Light and Dark ---------------------------------------------------------------------

#: A quiz bank with its first question answered (wrong: a stack or queue of one cell), so that its
#: verdict and the line to keep are shown too.
BANK_NOTEBOOK = ['import msviz\nbank = msviz.quiz_bank("ada", n=10)\nbank', "bank.answer(0, [(0, 0)])"]


@pytest.fixture(scope="module", params=THEMES, ids=["light", "dark"])
def themed_lab(request, tmp_path_factory):
    """JupyterLab with a settings folder of its own that chooses `request.param` as its theme,
    serving copies of notebooks 03 and 05 and a game; yields (base URL, theme)."""
    theme = request.param
    workdir = tmp_path_factory.mktemp("themed-lab")
    root = workdir / "notebooks"
    root.mkdir()
    for name in ("03-depth-first.ipynb", "05-comparing-orders.ipynb"):
        shutil.copy(ROOT / "notebooks" / name, root / name)
    write_notebook(root / "game-test.ipynb", GAME_NOTEBOOK)
    write_notebook(root / "bank-test.ipynb", BANK_NOTEBOOK)
    settings = quiet_settings(workdir / "themed-settings")
    themes = settings / "@jupyterlab" / "apputils-extension" / "themes.jupyterlab-settings"
    themes.write_text(f'{{"theme": "{theme}"}}')
    with running_lab(root, workdir, extra=(f"--LabApp.user_settings_dir={settings}",)) as base:
        yield base, theme


def in_theme(page, theme: str):
    """Wait until JupyterLab shows `theme` (it says so on its body), and every board is drawn."""
    page.wait_for_function("name => document.body.dataset.jpThemeName === name", arg=theme)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.msviz-view')].every(v => v.msviz && v.msviz.step() !== null)"
    )
    # A view draws its caption, code line and frames with its step: once drawn, its words are in place.


def slug(theme: str) -> str:
    return theme.split()[-1].lower()


def test_notebook_03s_words_are_readable_in_the_theme(browser, themed_lab):
    """Players and quiz: every text at least 4.5:1, the running line and the quiz's verdicts too."""
    base, theme = themed_lab
    name = "03-depth-first.ipynb"
    with ran_notebook(browser, base, name, viewport=(1024, 768)) as page:
        in_theme(page, theme)
        samples = measure(page)
        for part in (
            "msviz-caption",
            "msviz-legend",
            "msviz-code",
            "msviz-on",
            "msviz-frames",
            "msviz-quiz-rule",
        ):
            assert measured(samples, part), f"{theme}, {name}: nothing measured in .{part}"
        if page.locator(".msviz-controls").count():
            assert measured(samples, "msviz-controls"), f"{theme}, {name}: the control bar was not measured"

        # The player as a student sees it: its output at the top of the notebook, the file browser open.
        assert page.locator(".jp-FileBrowser").first.is_visible(), "the file browser should be open"
        player = page.locator(".jp-OutputArea-output:has(.msviz-code > span.msviz-on) .msviz-view").first
        at = player.evaluate(PLAYER_BOXES)
        assert at["line"], f"{theme}: the player shows no running line"
        shoot(page, f"03-player-{slug(theme)}-1024x768")

        # Its control bar: buttons of at least 24 px, and a focus ring that shows (3:1) from the keyboard.
        bar = page.locator(".jp-OutputArea-output:has(.msviz-code > span.msviz-on) .msviz-controls").first
        if bar.count():
            buttons = bar.locator("button")
            sizes = buttons.evaluate_all("bs => bs.map(b => [b.offsetWidth, b.offsetHeight])")
            assert sizes and min(min(size) for size in sizes) >= 24, f"{theme}: a button under 24 px: {sizes}"
            buttons.first.focus()
            page.keyboard.press("Tab")
            ring = page.evaluate(FOCUS_RING)
            assert ring["visible"] and ring["style"] != "none" and ring["width"] >= 2, f"{theme}: {ring}"
            behind = seen({"color": ring["color"], "layers": ring["layers"], "opacity": 1})
            assert behind[0] >= 3, f"{theme}: the focus ring is {behind[0]:.2f}:1 against the bar: {ring}"

        # The quiz: a right guess, then a wrong one; each verdict is measured in its own colour.
        t = msviz.quiz(QUIZ_BOARD, QUIZ_CLICK, order="dfs").trace
        quiz = page.locator(".msviz-view:has(.msviz-quiz-rule)").filter(
            has=page.locator(".msviz-quiz-said:visible")
        )
        assert quiz.count() == 1, f"{theme}: one quiz expected, found {quiz.count()}"
        quiz.scroll_into_view_if_needed()
        verdicts = []
        for k, cell in ((0, (int(t.row[1]), int(t.col[1]))), (1, (int(t.row[-1]), int(t.col[-1])))):
            box = quiz.locator("canvas.msviz-cells").bounding_box()
            rows, cols = t.shape
            quiz.locator("canvas.msviz-cells").click(
                position={
                    "x": (cell[1] + 0.5) * box["width"] / cols,
                    "y": (cell[0] + 0.5) * box["height"] / rows,
                }
            )
            page.wait_for_function(
                "([v, n]) => v.msviz.quiz().tries === n", arg=[quiz.element_handle(), k + 1]
            )
            page.wait_for_function(  # drawn: the verdict's words are on the screen
                "([v, said]) => v.querySelector('.msviz-quiz-verdict').textContent === said",
                arg=[quiz.element_handle(), quiz.evaluate("v => v.msviz.quiz().verdict")],
            )
            after = measure(page)
            verdict = measured(after, "msviz-quiz-verdict")
            assert verdict, f"{theme}: the quiz's verdict was not measured"
            verdicts.append(verdict[0])
            samples += after
        assert verdicts[0]["text"].startswith("Right") and verdicts[1]["text"].startswith("Not this one")
        assert measured(samples, "msviz-quiz-score"), f"{theme}: the quiz's score was not measured"
        shoot(page, f"03-quiz-{slug(theme)}-1024x768")

    print(f"\n{theme}, {name}: {len(samples)} texts, lowest {lowest(samples)}")
    bad = failures(samples, f"{theme}, {name}")
    assert not bad, f"{len(bad)} texts under {LEAST}:1:\n" + "\n".join(sorted(set(bad)))


@pytest.mark.parametrize("name", ["05-comparing-orders.ipynb", "game-test.ipynb"])
def test_the_comparisons_and_the_games_words_are_readable_in_the_theme(browser, themed_lab, name):
    base, theme = themed_lab
    with ran_notebook(browser, base, name, viewport=(1024, 768)) as page:
        in_theme(page, theme)
        if name.startswith("game"):  # its status line may come just after its first picture
            page.wait_for_function(
                "said => [...document.querySelectorAll('.jp-OutputArea-output')]"
                ".some(o => o.textContent.includes(said))",
                arg=fill("game_start"),
            )
        samples = measure(page)
        if name.startswith("05"):
            for part in ("msviz-title", "msviz-caption", "msviz-legend"):
                assert measured(samples, part), f"{theme}, {name}: nothing measured in .{part}"
        else:  # the game's status line: what it says of the game
            said = fill("game_start")
            assert any(said.startswith(s["text"]) for s in samples), f"{theme}: no status measured"
        if name.startswith("05"):
            shoot(page.locator(OUTPUTS).first, f"05-compare-{slug(theme)}")
    print(f"\n{theme}, {name}: {len(samples)} texts, lowest {lowest(samples)}")
    bad = failures(samples, f"{theme}, {name}")
    assert not bad, f"{len(bad)} texts under {LEAST}:1:\n" + "\n".join(sorted(set(bad)))


def test_the_quiz_banks_words_are_readable_in_the_theme(browser, themed_lab):
    base, theme = themed_lab
    with ran_notebook(browser, base, "bank-test.ipynb", viewport=(1024, 768)) as page:
        in_theme(page, theme)
        page.wait_for_function(
            "() => document.querySelector('.msviz-bank-verdict')?.textContent.startsWith('Wrong: ')"
        )
        samples = measure(page)
        for part in ("msviz-bank-prompt", "msviz-bank-verdict", "msviz-bank-line", "msviz-bank-keys"):
            assert measured(samples, part), f"{theme}: nothing measured in .{part}"
        shoot(page.locator(OUTPUTS).first, f"bank-{slug(theme)}")
    print(f"\n{theme}, the quiz bank: {len(samples)} texts, lowest {lowest(samples)}")
    bad = failures(samples, f"{theme}, the quiz bank")
    assert not bad, f"{len(bad)} texts under {LEAST}:1:\n" + "\n".join(sorted(set(bad)))


# --- The exported page: no host (the reader's system light or dark), and hosts that say dark --------

#: How each case is shown: the reader's system's scheme, and what the host adds to the page. A dark
#: VS Code (its body's class and its colours, as its notebook's output frame has them) and marimo's
#: dark mode (its body's class and data-theme) are shown with the system light: the host wins.
HOSTS = {
    "system-light": ("light", ""),
    "system-dark": ("dark", ""),
    "vscode-dark": (
        "light",
        """document.body.classList.add('vscode-dark');
           const s = document.documentElement.style;
           s.setProperty('--vscode-editor-background', '#1e1e1e');
           s.setProperty('--vscode-editor-foreground', '#d4d4d4');
           s.setProperty('--vscode-focusBorder', '#007fd4');""",
    ),
    "marimo-dark": ("light", "document.body.classList.add('dark'); document.body.dataset.theme = 'dark';"),
}


@pytest.mark.parametrize("host", list(HOSTS))
def test_the_exported_pages_words_are_readable_with_or_without_a_host(open_page, host):
    """With no host, the whole page follows the system; in a host, the part that is msviz's follows
    the host (the page around it stands for the host's own, which is not msviz's to colour)."""
    scheme, script = HOSTS[host]
    page = open_page([msviz.trace(BOARD, (6, 8), order=o) for o in ("dfs", "bfs")], name=f"page-{host}")
    page.emulate_media(color_scheme=scheme)
    if script:
        page.evaluate(f"() => {{ {script} }}")
    view = page.locator(".msviz-view").first
    view.focus()
    for _ in range(5):  # a few steps on: a longer stack under the code
        page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.msviz-view')]"
        ".every(v => v.msviz.step() === 5 && v.msviz.line() > 0)"
    )
    ours = "body" if host.startswith("system") else "[data-msviz-frame]"
    samples = measure(page, ours)
    for part in ("msviz-title", "msviz-caption", "msviz-on", "msviz-frames", "msviz-controls"):
        assert measured(samples, part), f"{host}: nothing measured in .{part}"
    layers = page.locator(ours).first.evaluate(
        "el => { const c = getComputedStyle(el).backgroundColor; return c; }"
    )
    background = seen({"color": "rgb(0, 0, 0)", "layers": [layers], "opacity": 1})[2]
    shoot(page, f"page-{host}")
    print(f"\n{host}: {len(samples)} texts, lowest {lowest(samples)}")
    assert (luminance(background) < 0.2) == (host != "system-light"), f"{host}: {ours} is {rgb(background)}"
    bad = failures(samples, host)
    assert not bad, f"{len(bad)} texts under {LEAST}:1:\n" + "\n".join(sorted(set(bad)))
