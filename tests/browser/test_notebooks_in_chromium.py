"""The notebooks' widgets in a real browser: JupyterLab driven by headless Chromium.

nbval proves the notebooks run; this proves a student sees them work: every
notebook is opened and run in JupyterLab, no output shows an error or a widget
that failed to render, the player's picture and caption follow its slider,
buttons and Play, the comparison's two pictures follow one slider, and a click
on the game's board changes the board. Screenshots go to test-artifacts/screenshots/.

Needs Debian's ``chromium`` (``apt-get install chromium``; .ci/run installs it)
and the Python package ``playwright`` (no browser download: Chromium is given
by path).
"""

from __future__ import annotations

import contextlib
import re
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from labserver import TOKEN, running_lab  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def chromium_path() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.fail(
        "Chromium was not found, so the browser tests cannot run. Install it with "
        "'sudo apt-get install chromium' (Debian/Ubuntu), or run 'bash .ci/run', which installs it.",
        pytrace=False,
    )


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on 127.0.0.1, rooted at a temporary copy of notebooks/; stopped whatever happens."""
    workdir = tmp_path_factory.mktemp("lab")
    root = workdir / "notebooks"
    shutil.copytree(ROOT / "notebooks", root)
    with running_lab(root, workdir) as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    executable = chromium_path()
    playwright = pytest.importorskip("playwright.sync_api")  # installed by the test extra
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def ran_notebook(browser, lab: str, name: str):
    """Open notebook `name` in JupyterLab, run all cells, wait until every cell has run; yield the page."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        yield _run_all(page, lab, name)
    finally:
        page.close()


def _run_all(page, lab: str, name: str):
    page.goto(f"{lab}/lab/tree/{name}?token={TOKEN}&reset")
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
    page.wait_for_selector(".jp-StatusBar-Widget:has-text('Idle')", timeout=60_000)  # the kernel is up
    page.wait_for_timeout(1000)
    page.click(".lm-MenuBar-item:has-text('Run')")
    page.click(".lm-Menu-item:has-text('Run All Cells')")
    n_code = page.locator(".jp-CodeCell").count()
    page.wait_for_function(
        """n => {
            const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')];
            return prompts.length === n && prompts.every(p => /\\[\\d+\\]/.test(p.textContent));
        }""",
        arg=n_code,
        timeout=120_000,
    )
    page.wait_for_timeout(1500)  # widgets render after their outputs arrive
    return page


def assert_no_errors(page, name: str):
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    texts = [errors.nth(i).inner_text() for i in range(errors.count())]
    bad = [t for t in texts if "Traceback" in t or "Error" in t]
    assert not bad, f"{name}: an output shows an error:\n" + "\n---\n".join(bad)[:3000]
    body = page.locator(".jp-Notebook").inner_text()
    assert "Error displaying widget" not in body, f"{name}: a widget failed to render"
    assert "Traceback" not in body, f"{name}: a traceback is shown"


def shoot(target, name: str):
    """Save a screenshot of a page or of one widget in the artefacts folder."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(SHOTS / f"{Path(name).stem}.png"))


def image_src(locator) -> str:
    return locator.get_attribute("src") or ""


NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
WITH_WIDGETS = {"01-start-here.ipynb", "03-depth-first.ipynb", "04-breadth-first.ipynb", "05-comparing-orders.ipynb"}


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_every_notebook_runs_in_the_browser_without_errors(browser, lab, name):
    with ran_notebook(browser, lab, name) as page:
        assert_no_errors(page, name)
        if name in WITH_WIDGETS:
            assert page.locator(".jupyter-widgets.widget-image img, .widget-image").count() > 0 or \
                page.locator(".widget-gridbox").count() > 0, f"{name}: no widget was drawn"
        shoot(page, name)


def test_the_player_follows_slider_buttons_and_play(browser, lab):
    with ran_notebook(browser, lab, "03-depth-first.ipynb") as page:
        player = page.locator(".widget-vbox:has(.widget-play)").first
        player.scroll_into_view_if_needed()
        image = player.locator("img").first
        caption = player.locator(".widget-html:has-text('step')").first
        assert caption.inner_text().startswith("step 0:")
        before = image_src(image)

        player.locator("button:has(.fa-step-forward)").click()
        page.wait_for_function("el => el.textContent.startsWith('step 1:')", arg=caption.element_handle())
        assert image_src(image) != before, "the picture did not change with the step button"

        readout = player.locator(".widget-readout").first  # type a step into the slider's readout
        readout.click()
        page.keyboard.press("Control+A")
        page.keyboard.type("12")
        page.keyboard.press("Enter")
        page.wait_for_function("el => el.textContent.startsWith('step 12:')", arg=caption.element_handle())
        at_12 = image_src(image)
        assert at_12 != before

        player.locator(".widget-play button").first.click()  # Play
        page.wait_for_function("el => !el.textContent.startsWith('step 12:')", arg=caption.element_handle(),
                               timeout=30_000)
        assert image_src(image) != at_12, "Play moved the caption but not the picture"
        assert re.match(r"step \d+:", caption.inner_text())
        shoot(player, "player")


def test_one_slider_drives_both_sides_of_the_comparison(browser, lab):
    with ran_notebook(browser, lab, "05-comparing-orders.ipynb") as page:
        view = page.locator(".widget-vbox:has(.widget-play)").first
        view.scroll_into_view_if_needed()
        images = view.locator("img")
        assert images.count() == 2
        before = [image_src(images.nth(i)) for i in range(2)]
        forward = view.locator("button:has(.fa-step-forward)").first
        for _ in range(3):
            forward.click()
        captions = view.locator(".widget-html:has-text('step')")
        page.wait_for_function(  # both captions reach step 3 once the kernel has answered
            "els => els.length === 2 && els.every(el => el.textContent.startsWith('step 3:'))",
            arg=[captions.nth(i).element_handle() for i in range(2)], timeout=30_000,
        )
        page.wait_for_timeout(500)
        after = [image_src(images.nth(i)) for i in range(2)]
        assert after[0] != before[0] and after[1] != before[1], "both pictures must follow the one slider"
        shoot(view, "compare")


def test_a_click_on_the_game_board_changes_it(browser, lab):
    with ran_notebook(browser, lab, "01-start-here.ipynb") as page:
        grid = page.locator(".widget-gridbox").first
        grid.scroll_into_view_if_needed()
        cells = grid.locator("button")
        assert cells.count() == 81
        before = grid.inner_html()
        cells.nth(40).click()  # the middle cell: the first click is safe
        game = page.locator(".widget-vbox:has(.widget-gridbox)").first
        status = game.locator(".widget-html").first
        page.wait_for_function(  # the kernel answers, then the flood animates
            "el => /revealed|won/.test(el.textContent)", arg=status.element_handle(), timeout=30_000
        )
        page.wait_for_timeout(2000)
        assert grid.inner_html() != before, "clicking a hidden cell did not change the board"
        shoot(page.locator(".widget-vbox:has(.widget-gridbox)").first, "game")
