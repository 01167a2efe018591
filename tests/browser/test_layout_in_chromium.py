"""The view fits the room its host gives it: JupyterLab 4 and JupyterLab 3.6 (ipywidgets 7), at 1024x768.

With the file browser open (JupyterLab's own opening), a comparison of a 12 x 16 board
and a player of a 16 x 12 board put in edit mode are shown as a student writes them,
then both again in the pseudo-language (`msviz.set_language("pseudo")`: every word
wrapped in ⟦...⟧ and a third longer, as a translation's may be). Each must stay inside
its output area: no part of it beyond the area's sides, nothing scrolling sideways, each
control of the bar inside the bar (the bar wraps its controls rather than overflow);
and the player in edit mode, its status line grown above it, is arranged again to fit
the notebook's height, its calls' rows in sight with its bar. JupyterLab 3.6 comes from
the environment tests/browser/hosts.py builds (and keeps). Screenshots go to
test-artifacts/screenshots/layout-*.png.
"""

from __future__ import annotations

import contextlib

import pytest
from chromium import PATIENCE, shoot
from hosts import HOSTS, JUPYTER_OUTPUT, OVERFLOW
from labserver import running_lab, write_notebook
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from test_notebooks_in_chromium import _run_all, assert_no_errors

from msviz.i18n import speaking
from msviz.words import fill

#: How long the view may take to settle after a change (ms): past it, it did not fit at all.
REACTION = min(PATIENCE, 60_000)

NOTEBOOK = "layout.ipynb"
CELLS = [
    "import msviz\n"
    "board = msviz.random_board(12, 16, 30, seed=7, safe=(6, 8))\n"
    "tall = msviz.random_board(16, 12, 25, seed=7, safe=(8, 6))",
    "msviz.compare(board, (6, 8))",
    "msviz.player(tall, (8, 6))",
    'msviz.set_language("pseudo")\nmsviz.compare(board, (6, 8))',
    "msviz.player(tall, (8, 6))",
]
#: The cell of each widget: (what it is, whether its words are the pseudo-language's).
SHOWN = {("compare", False): 1, ("player", False): 2, ("compare", True): 3, ("player", True): 4}

#: Whether the output area of a stage was widened by it: the area is as wide as the code above it
#: (JupyterLab 3's output, a flex item, grows to the widest thing it holds, over its prompt, past its cell).
WIDENED = """stage => {
  const area = stage.closest('.jp-OutputArea-output').getBoundingClientRect();
  const code = stage.closest('.jp-Cell').querySelector('.jp-InputArea-editor').getBoundingClientRect();
  return area.left < code.left - 1 || area.right > code.right + 1
    ? [`its output area spans ${Math.round(area.left)}-${Math.round(area.right)} px, ` +
       `the code above it ${Math.round(code.left)}-${Math.round(code.right)} px`] : [];
}"""

#: What of a stage's control bar lies outside the bar sideways, or holds words wider than itself.
OUTSIDE_THE_BAR = """stage => {
  const bar = stage.querySelector('.msviz-controls');
  if (!bar) return ['no control bar'];
  const box = bar.getBoundingClientRect();
  const out = [];
  for (const c of bar.querySelectorAll('*')) {
    const r = c.getBoundingClientRect();
    const name = c.dataset.control || c.tagName.toLowerCase();
    if (r.width === 0 && r.height === 0) continue;  // not shown
    if (r.left < box.left - 1 || r.right > box.right + 1) {
      out.push(`${name} spans ${Math.round(r.left)}-${Math.round(r.right)} px, the bar ` +
               `${Math.round(box.left)}-${Math.round(box.right)} px`);
    }
    if (['BUTTON', 'LABEL', 'OUTPUT'].includes(c.tagName) && c.scrollWidth > c.clientWidth + 1) {
      out.push(`${name}: its words are ${c.scrollWidth} px wide in ${c.clientWidth}`);
    }
  }
  if (bar.scrollWidth > bar.clientWidth + 1) {
    out.push(`the bar scrolls: ${bar.scrollWidth} px in ${bar.clientWidth}`);
  }
  return out;
}"""

#: The stage's height and the notebook's (the panel that scrolls it), and where its calls' rows end
#: below its top: all of it is in sight at once when its top is at the panel's.
HEIGHTS = """stage => {
  const panel = stage.closest('.jp-WindowedPanel-outer, .jp-Notebook');
  const top = stage.getBoundingClientRect().top;
  const bottoms = [...stage.querySelectorAll('.msviz-view')].map(v => v.getBoundingClientRect().bottom - top);
  return {stage: Math.ceil(stage.getBoundingClientRect().height), room: panel.clientHeight,
          view: Math.ceil(Math.max(...bottoms)), cell: stage.querySelector('.msviz-view').msviz.cellSize()};
}"""


@pytest.fixture(scope="module", params=["lab4", "lab3"])
def opened(request, browser, tmp_path_factory):
    """The notebook run in JupyterLab 4 (this environment's) or 3.6 (hosts.py's), at 1024 x 768 with
    the file browser open; yields (host's name, page)."""
    workdir = tmp_path_factory.mktemp(request.param)
    root = workdir / "notebooks"
    root.mkdir()
    write_notebook(root / NOTEBOOK, CELLS)
    if request.param == "lab3":
        host = HOSTS["lab3"]
        serving = host.serve(host.environment.ready(), root, workdir)
    else:
        serving = running_lab(root, workdir)
    with serving as base:
        context = browser.new_context(viewport={"width": 1024, "height": 768})
        context.set_default_timeout(PATIENCE)
        try:
            page = context.new_page()
            _run_all(page, base, NOTEBOOK, "lab")
            assert_no_errors(page, NOTEBOOK)
            page.wait_for_function(
                "n => [...document.querySelectorAll('.msviz-view')]"
                ".filter(v => v.msviz?.step() !== null).length === n",
                arg=6,
            )
            assert page.locator(".jp-FileBrowser").is_visible(), "the file browser is open beside it"
            yield request.param, page
        finally:
            context.close()


def stage_of(page, kind: str, pseudo: bool):
    stage = page.locator(".jp-CodeCell").nth(SHOWN[(kind, pseudo)]).locator(".msviz-stage")
    stage.scroll_into_view_if_needed()
    return stage


def assert_inside_its_output_area(page, stage, what: str) -> None:
    """The output area as wide as its cell's code (not widened by what it shows), nothing of the stage
    beyond its sides, and each control of its bar inside the bar."""
    outside = stage.evaluate(WIDENED)
    outside += page.evaluate(OVERFLOW, [stage.element_handle(), JUPYTER_OUTPUT])
    outside += stage.evaluate(OUTSIDE_THE_BAR)
    assert outside == [], f"{what} does not fit its output area:\n" + "\n".join(outside)


def assert_in_sight_in_edit_mode(page, stage, what: str, status: str) -> dict:
    """Turn the player's edit mode on; once its status line says `status`, the view (bar, board,
    caption, code and calls' rows) fits the notebook's height. Returns the heights."""
    edit = stage.locator("[data-control=edit]")
    edit.click()
    page.wait_for_function(
        "([s, said]) => s.querySelector('.msviz-status').textContent === said",
        arg=[stage.element_handle(), status],
        timeout=REACTION,
    )
    page.evaluate("s => s.scrollIntoView({block: 'start'})", stage.element_handle())
    with contextlib.suppress(PlaywrightTimeout):  # arranged again for the line grown above it
        page.wait_for_function(
            f"s => {{ const h = ({HEIGHTS})(s); return h.stage <= h.room; }}",
            arg=stage.element_handle(),
            timeout=REACTION,
        )
    heights = stage.evaluate(HEIGHTS)
    assert heights["stage"] <= heights["room"], f"{what} is taller than the notebook: {heights}"
    assert heights["view"] <= heights["room"], f"{what}: its calls' rows are below the fold: {heights}"
    return heights


def test_a_comparison_of_a_12x16_board_fits_its_output_area(opened):
    name, page = opened
    stage = stage_of(page, "compare", pseudo=False)
    shoot(stage, f"layout-{name}-compare-12x16")
    assert_inside_its_output_area(page, stage, f"{name}: the comparison")
    boards = stage.locator("canvas.msviz-cells")
    assert boards.count() == 2
    for i in range(2):
        cell = stage.locator(".msviz-view").nth(i).evaluate("v => v.msviz.cellSize()")
        assert cell >= 12, f"{name}: board {i} is drawn with cells of {cell} px"


def test_the_player_in_edit_mode_is_arranged_again_to_stay_in_sight(opened):
    name, page = opened
    stage = stage_of(page, "player", pseudo=False)
    assert_inside_its_output_area(page, stage, f"{name}: the player")
    assert_in_sight_in_edit_mode(page, stage, f"{name}: the player in edit mode", fill("edit_on"))
    shoot(page, f"layout-{name}-player-edit")
    assert_inside_its_output_area(page, stage, f"{name}: the player in edit mode")


def test_longer_words_wrap_in_the_bar_and_the_views_still_fit(opened):
    name, page = opened
    compare = stage_of(page, "compare", pseudo=True)
    assert compare.locator("[data-control=mode]").input_value() == "visits"
    assert compare.locator(".msviz-controls label").first.inner_text().startswith("⟦")  # pseudo-language
    assert_inside_its_output_area(page, compare, f"{name}: the comparison in longer words")
    shoot(compare, f"layout-{name}-compare-pseudo")
    player = stage_of(page, "player", pseudo=True)
    assert_inside_its_output_area(page, player, f"{name}: the player in longer words")
    with speaking("pseudo"):
        status = fill("edit_on")
    assert_in_sight_in_edit_mode(page, player, f"{name}: the player in edit mode in longer words", status)
    shoot(page, f"layout-{name}-player-edit-pseudo")
    assert_inside_its_output_area(page, player, f"{name}: the player in edit mode in longer words")
