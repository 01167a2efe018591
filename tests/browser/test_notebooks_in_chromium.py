"""The notebooks' widgets in a real browser: JupyterLab driven by headless Chromium.

nbval proves the notebooks run; this proves a student sees them work: every
notebook is opened and run in JupyterLab, no output shows an error or a widget
that failed to render, the player's picture and caption follow its scrub bar,
buttons and Play, the comparison's two pictures follow one bar, and a click
on the game's board changes the board. Screenshots go to test-artifacts/screenshots/.

Needs Debian's ``chromium`` (``apt-get install chromium``; .ci/run installs it)
and the Python package ``playwright`` (no browser download: Chromium is given
by path).
"""

from __future__ import annotations

import contextlib
import re
import shutil

import pytest
from axe_playwright_python.sync_playwright import Axe
from chromium import CANVAS_PIXELS, DRAWN, FRAMES, PATIENCE, ROOT, serious, shoot
from labserver import TOKEN, running_lab, wait_for_kernel, write_notebook

# A notebook of the tests' own, for the game: its second cell prints the kernel's board.
GAME_NOTEBOOK = [
    "import msviz\ng = msviz.game(16, 30, 25, seed=3)\ng",
    "print('BOARD', ''.join(''.join(row) for row in g.board), g.lost)",
]
# And one for editing a player's board: its second cell prints the board and click the kernel holds.
EDIT_BOARD = ["EEEEEE", "EEEEEE", "EEEEEE", "EEEEEM"]
EDIT_NOTEBOOK = [
    f"import msviz\nmine = {EDIT_BOARD!r}\np = msviz.player(mine, (0, 0))\np",
    "print('BOARD', ''.join(''.join(row) for row in p.board), p.click, mine == " + repr(EDIT_BOARD) + ")",
]

# And one for the calls' own variables: the first official example, depth-first, at its event 1,
# where two calls are active (reveal(3, 0) has called reveal(2, 0)).
FRAMES_NOTEBOOK = [
    'import msviz\np = msviz.player(["EEEEE", "EEMEE", "EEEEE", "EEEEE"], (3, 0))\n'
    'p.mode = "events"\np.step = 1\np'
]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on 127.0.0.1, rooted at a temporary copy of notebooks/; stopped whatever happens."""
    workdir = tmp_path_factory.mktemp("lab")
    root = workdir / "notebooks"
    shutil.copytree(ROOT / "notebooks", root)
    write_notebook(root / "game-test.ipynb", GAME_NOTEBOOK)
    write_notebook(root / "edit-test.ipynb", EDIT_NOTEBOOK)
    write_notebook(root / "frames-test.ipynb", FRAMES_NOTEBOOK)
    with running_lab(root, workdir) as base:
        yield base


@contextlib.contextmanager
def ran_notebook(browser, lab: str, name: str, viewport=(1400, 1000), ui: str = "lab"):
    """Open notebook `name` in JupyterLab (or `ui="notebook"`: Notebook 7), run all cells, wait until
    every cell has run; yield the page."""
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    page.set_default_timeout(PATIENCE)  # clicks and locators too wait on state, as long as a load needs
    try:
        yield _run_all(page, lab, name, ui)
    finally:
        page.close()


def _run_all(page, lab: str, name: str, ui: str = "lab"):
    # The notebook's code cells, as the server has them: the page adds its cells a few at a time.
    cells = page.request.get(f"{lab}/api/contents/{name}?token={TOKEN}").json()["content"]["cells"]
    n_code = sum(c["cell_type"] == "code" for c in cells)
    # A cell whose source is hidden shows no prompt: the cells after it show theirs once it has run.
    n_shown = sum(
        c["cell_type"] == "code" and not c["metadata"].get("jupyter", {}).get("source_hidden") for c in cells
    )
    where = {"lab": f"lab/tree/{name}?token={TOKEN}&reset", "notebook": f"notebooks/{name}?token={TOKEN}"}
    # The kernel's indicator says "idle" before it connects, then "connecting" (or "starting"),
    # then "idle" again: it is up once it has been something else and is idle again.
    page.goto(f"{lab}/{where[ui]}")
    page.wait_for_function(
        "n => document.querySelectorAll('.jp-Notebook .jp-CodeCell').length === n", arg=n_code
    )
    page.wait_for_function(  # the page's kernel indicator says idle...
        "() => document.querySelector('.jp-Notebook-ExecutionIndicator')?.dataset.status === 'idle'"
    )
    wait_for_kernel(
        page, lab, name, PATIENCE
    )  # ...and the server says the kernel is idle with the page connected
    page.click(".lm-MenuBar-item:has-text('Run')")
    page.click(".lm-Menu-item:not(.lm-mod-disabled):has-text('Run All Cells')")  # once it can run
    page.wait_for_function(
        """n => [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')]
            .filter(p => /\\[\\d+\\]/.test(p.textContent)).length === n""",
        arg=n_shown,
        timeout=PATIENCE,
    )
    page.wait_for_function(  # widgets render after their outputs arrive
        """() => [...document.querySelectorAll(
            '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.widget-view+json"]')]
            .every(o => o.querySelector('.jupyter-widgets, .msviz-view, .msviz-bank'))""",
        timeout=PATIENCE,
    )
    return page


def assert_no_errors(page, name: str):
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    texts = [errors.nth(i).inner_text() for i in range(errors.count())]
    bad = [t for t in texts if "Traceback" in t or "Error" in t]
    assert not bad, f"{name}: an output shows an error:\n" + "\n---\n".join(bad)[:3000]
    body = page.locator(".jp-Notebook").inner_text()
    assert "Error displaying widget" not in body, f"{name}: a widget failed to render"
    assert "Traceback" not in body, f"{name}: a traceback is shown"


def drawn_step(view) -> int:
    """The step the view drew last (it draws in an animation frame)."""
    return view.evaluate("root => root.msviz.step()")


def wait_drawn(page, view, k: int):
    page.wait_for_function(
        "([root, k]) => root.msviz.step() === k", arg=[view.element_handle(), k], timeout=PATIENCE
    )


NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
WITH_WIDGETS = {
    "01-start-here.ipynb",
    "03-depth-first.ipynb",
    "04-breadth-first.ipynb",
    "05-comparing-orders.ipynb",
    "08-be-the-computer.ipynb",
}


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_every_notebook_runs_in_the_browser_without_errors(browser, lab, name):
    with ran_notebook(browser, lab, name) as page:
        assert_no_errors(page, name)
        if name in WITH_WIDGETS:
            assert page.locator(".msviz-view canvas.msviz-cells").count() > 0, f"{name}: no board was drawn"
        shoot(page, name)


@pytest.mark.parametrize("name", sorted(WITH_WIDGETS))
def test_every_notebook_draws_its_boards_in_notebook_7(browser, lab, name):
    """Notebook 7's interface, which many hubs open by default: the same notebooks, every view drawn."""
    with ran_notebook(browser, lab, name, viewport=(1024, 768), ui="notebook") as page:
        assert page.locator(".jp-LabShell").count() == 0, "JupyterLab's page, not Notebook 7's"
        assert_no_errors(page, name)
        views = page.locator(".msviz-view")
        assert views.count() > 0, f"{name}: no board in Notebook 7"
        drawn = "v => v.msviz && v.msviz.step() !== null"
        page.wait_for_function(f"() => [...document.querySelectorAll('.msviz-view')].every({drawn})")
        shoot(page, f"nb7-{name}")


def scrub_to(widget, k: int):
    """Move a player's scrub bar to step `k`, as a student dragging it does (its input event)."""
    widget.locator("[data-control=scrub]").evaluate(
        "(bar, k) => { bar.value = String(k); bar.dispatchEvent(new Event('input', {bubbles: true})); }", k
    )


def test_the_player_follows_its_scrub_bar_buttons_keyboard_and_play(browser, lab):
    with ran_notebook(browser, lab, "03-depth-first.ipynb") as page:
        player = page.locator(".msviz-stage:has(.msviz-controls)").first
        player.scroll_into_view_if_needed()
        view = player.locator(".msviz-view").first
        assert drawn_step(view) == 0 and view.evaluate(DRAWN)["caption"].startswith("step 0:")
        pictures = [view.evaluate(CANVAS_PIXELS)]
        readout = player.locator("[data-control=readout]")

        player.locator("[data-control=forward]").click()  # the step button
        wait_drawn(page, view, 1)
        pictures.append(view.evaluate(CANVAS_PIXELS))
        assert view.evaluate(DRAWN)["caption"].startswith("step 1:")

        scrub_to(player, 12)
        wait_drawn(page, view, 12)
        pictures.append(view.evaluate(CANVAS_PIXELS))

        view.focus()  # the keyboard on the board: right, left, End, Home
        page.keyboard.press("ArrowRight")
        wait_drawn(page, view, 13)
        assert readout.inner_text().startswith("step 13 /"), "the bar did not follow the keyboard"
        page.keyboard.press("ArrowLeft")
        wait_drawn(page, view, 12)
        assert view.evaluate(CANVAS_PIXELS) == pictures[2], "one step on and back is not the same picture"
        page.keyboard.press("End")
        last = int(player.locator("[data-control=scrub]").get_attribute("max"))
        wait_drawn(page, view, last)
        page.keyboard.press("Home")
        wait_drawn(page, view, 0)
        assert view.evaluate(CANVAS_PIXELS) == pictures[0]
        assert len({p[2] for p in pictures}) == 3, "the picture did not change with the step"

        play = player.locator("[data-control=play]")
        assert play.get_attribute("aria-label") == "Play"
        play.click()
        page.wait_for_function("root => root.msviz.step() > 5", arg=view.element_handle(), timeout=PATIENCE)
        assert play.get_attribute("aria-label") == "Pause", "the button says what it does now"
        moving = drawn_step(view)
        page.wait_for_function(  # still playing a moment later, by the browser's own clock
            "([root, k]) => root.msviz.step() > k", arg=[view.element_handle(), moving], timeout=PATIENCE
        )
        assert view.evaluate(CANVAS_PIXELS) != pictures[0], "Play moved the step but not the picture"
        assert re.match(r"step \d+:", view.evaluate(DRAWN)["caption"])
        view.focus()
        page.keyboard.press(" ")  # space pauses: the button says Play again, and the step stays
        page.wait_for_function("b => b.getAttribute('aria-label') === 'Play'", arg=play.element_handle())
        paused = drawn_step(view)
        page.evaluate(FRAMES, 30)
        assert drawn_step(view) == paused, "space did not pause Play"
        shoot(player, "player")

        # Play from near the end stops on the last step by itself, and the bar says so.
        scrub_to(player, last - 5)
        wait_drawn(page, view, last - 5)
        play.click()
        page.wait_for_function("b => b.getAttribute('aria-label') === 'Play'", arg=play.element_handle())
        wait_drawn(page, view, last)
        assert readout.inner_text() == f"step {last} / {last}"

        # A deep step, for the screenshot: the path, the current cell and the code line.
        import msviz

        t = msviz.trace(msviz.random_board(12, 16, 20, seed=3, safe=(6, 8)), (6, 8))  # as in the notebook
        deep = int(t.depth.argmax())
        scrub_to(player, deep)
        wait_drawn(page, view, deep)
        assert len(view.evaluate("r => r.msviz.waiting()")) == t.depth[deep] + 1  # the whole call chain
        assert view.evaluate("r => r.msviz.line()") in (7, 9)  # the line writing its digit or its B
        shoot(player, "03-deep-dfs-step")

        # Every call and return: the same moment as an event; a return makes the path one call shorter.
        player.locator("[data-control=mode]").select_option(label="every call and return")
        page.wait_for_function(
            "([root, e]) => root.msviz.event() === e && root.msviz.step() === e",
            arg=[view.element_handle(), int(t.visit_event[deep])],
            timeout=PATIENCE,
        )
        e = next(
            e
            for e in range(1, t.events)
            if t.event(e).label == "return"
            and t.parent_step[t.event(e).step] >= 0
            and len(t.waiting_at_event(e - 1)) > 2
        )
        for k in (e - 1, e):
            scrub_to(player, k)
            wait_drawn(page, view, k)
            if k == e - 1:
                before = len(view.evaluate("r => r.msviz.waiting()"))
        assert len(view.evaluate("r => r.msviz.waiting()")) == before - 1, "a return should shorten the path"


def test_one_bar_drives_both_sides_of_the_comparison(browser, lab):
    with ran_notebook(browser, lab, "05-comparing-orders.ipynb") as page:
        widget = page.locator(".msviz-stage:has(.msviz-controls)").first
        widget.scroll_into_view_if_needed()
        views = widget.locator(".msviz-view")
        assert views.count() == 2
        assert widget.locator(".msviz-controls").count() == 1, "one control bar for both boards"
        before = [views.nth(i).evaluate(CANVAS_PIXELS) for i in range(2)]
        forward = widget.locator("[data-control=forward]")
        for _ in range(3):
            forward.click()
        for i in range(2):
            wait_drawn(page, views.nth(i), 3)
        after = [views.nth(i).evaluate(CANVAS_PIXELS) for i in range(2)]
        assert after[0] != before[0] and after[1] != before[1], "both pictures must follow the one bar"
        captions = [views.nth(i).evaluate(DRAWN)["caption"] for i in range(2)]
        assert "on the stack" in captions[0] and "queue holds" in captions[1]
        shoot(widget, "compare")


def kernel_board(page) -> tuple[str, bool]:
    """Run the game notebook's second cell and read the board the kernel holds."""
    _, cells, lost = kernel_says(page, r"BOARD \S+ (True|False)").split()
    return cells, lost == "True"


def kernel_says(page, pattern: str) -> str:
    """Run the notebook's second cell again and return what it prints, once it matches `pattern`."""
    cell = page.locator(".jp-CodeCell").nth(1)
    before = cell.locator(".jp-InputPrompt").text_content()
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Control+Enter")
    # Wait for this run's output, not the last one's: the prompt gets a new number when it is done.
    page.wait_for_function(
        "([el, before, pattern]) => new RegExp(pattern).test(el.textContent)"
        " && /\\[\\d+\\]/.test(el.querySelector('.jp-InputPrompt').textContent)"
        " && el.querySelector('.jp-InputPrompt').textContent !== before",
        arg=[cell.element_handle(), before, pattern],
        timeout=PATIENCE,
    )
    return cell.locator(".jp-OutputArea-output").last.inner_text()


def assert_screen_is_board(page, view):
    """Once the view has drawn the kernel's last change, each drawn cell is what the kernel's board says.

    The kernel's board is read after the click was handled (messages reach the kernel in
    order); the view may still be receiving or animating that click's change, so the test
    waits for the view to settle on the kernel's board, and fails if it settles on another.
    """
    cells, lost = kernel_board(page)
    codes = {"E": 0, "M": 12 if lost else 0, "B": 2, "X": 11, **{str(d): 2 + d for d in range(1, 9)}}
    want = [codes[c] for c in cells]
    settled = """([root, want]) => !root.msviz.animating()
        && JSON.stringify(root.msviz.sprites()) === JSON.stringify(want)"""
    try:
        page.wait_for_function(settled, arg=[view.element_handle(), want], timeout=PATIENCE)
    except Exception:
        pass  # it never settled there: the assertion below says how the screen differs
    drawn = view.evaluate(DRAWN)["sprites"]
    assert drawn == want, "the screen disagrees with game.board"
    return cells


@pytest.mark.parametrize("viewport", [(1400, 1000), (1024, 768), (819, 614)], ids=["1400", "1024", "819"])
def test_the_game_reveals_on_click_and_stays_in_agreement_with_its_board(browser, lab, viewport):
    with ran_notebook(browser, lab, "game-test.ipynb", viewport=viewport) as page:
        game = page.locator(".msviz-stage:has(.msviz-view)").first
        view = game.locator(".msviz-view").first
        canvas = view.locator("canvas.msviz-cells")
        box = canvas.bounding_box()
        cell = box["width"] / 30

        def at(row, col):
            return {"x": (col + 0.5) * cell, "y": (row + 0.5) * box["height"] / 16}

        before = view.evaluate(CANVAS_PIXELS)
        canvas.click(position=at(8, 15))  # the first click is safe and floods
        page.wait_for_function("root => root.msviz.animating()", arg=view.element_handle(), timeout=PATIENCE)
        canvas.click(position=at(0, 0))  # a click during the flood: it finishes, then applies
        cells = assert_screen_is_board(page, view)
        assert view.evaluate(CANVAS_PIXELS) != before and cells.count("E") + cells.count("M") < 16 * 30
        shoot(game, "game")
        shoot(page, f"game-{viewport[0]}x{viewport[1]}")  # as a student sees it, the file browser open

        canvas.click(position=at(15, 29), button="right")  # a flag, if that cell is still hidden
        game.locator("[data-control=restart]").click()
        canvas.click(position=at(8, 15))
        page.wait_for_function("root => root.msviz.animating()", arg=view.element_handle(), timeout=PATIENCE)
        game.locator("[data-control=restart]").click()  # a new game during the flood
        cells = assert_screen_is_board(page, view)
        assert set(cells) <= {"E", "M"} and set(view.evaluate(DRAWN)["sprites"]) == {0}

        canvas.click(position=at(3, 4), button="right")  # on a new game: a flag, and no menu of any kind
        page.wait_for_function("root => root.msviz.sprites()[3 * 30 + 4] === 13", arg=view.element_handle())
        assert not page.locator(".lm-Menu").is_visible(), "a right-click opened JupyterLab's menu"
        assert "Flags: 1 of 25" in game.inner_text()
        canvas.click(position=at(3, 4), button="right")  # and a second one takes it away
        page.wait_for_function("root => root.msviz.sprites()[3 * 30 + 4] === 0", arg=view.element_handle())


#: Where a player's parts are, once its output's top is scrolled to the top of the notebook's panel.
PLAYER_BOXES = r"""root => new Promise(done => {
  const output = root.closest('.jp-OutputArea-output');
  const scroller = root.closest('.jp-WindowedPanel-outer') || root.closest('.jp-Notebook');
  // The output's top to the top of the notebook's panel (again each frame: cells above may still grow).
  const toTop = () => {
    const gap = output.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
    const before = scroller.scrollTop;
    scroller.scrollTop += gap;
    return Math.abs(gap) < 2 || scroller.scrollTop === before;
  };
  const box = el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const slider = output.querySelector('[data-control=scrub]');
  // The code lines that wrap between two letters of a word (the letters either side of the break).
  const brokenInWords = code => {
    const text = code.firstChild, found = [];
    let top = null;
    for (let i = 0; text && i < text.length; i++) {
      const range = document.createRange();
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      const rect = range.getClientRects()[0];
      if (!rect) continue;
      if (top !== null && rect.top > top + 2 && /\S\S/.test(text.data.slice(i - 1, i + 1))) {
        found.push(text.data.slice(i - 6, i) + '|' + text.data.slice(i, i + 6));
      }
      top = rect.top;
    }
    return found;
  };
  const measure = () => ({
    area: box(scroller),
    board: box(root.querySelector('canvas.msviz-cells')),
    slider: slider && box(slider),
    line: (on => on && box(on))(root.querySelector('.msviz-code > span.msviz-on')),
    code: box(root.querySelector('.msviz-code')),
    midword: [...root.querySelectorAll('.msviz-code code')].flatMap(brokenInWords),
    sideways: [...root.querySelectorAll('.msviz-code, .msviz-frames')]
     .map(e => e.scrollWidth - e.clientWidth),
  });
  // Frames, not time: the view redraws within a few frames of coming into sight.
  let frames = 0;
  const look = () => {
    const at = measure();
    const settled = toTop() && (!at.line || (at.line[1] >= at.code[1] - 1 && at.line[3] <= at.code[3] + 1));
    if (settled || ++frames > 30) done(at); else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})"""


#: What one step of a player's scrub bar can be, as its picker names it.
STEP_KINDS = ("one step per revealed cell", "every call and return", "every enqueue and dequeue")


def inside(inner, outer, slack=1.0) -> bool:
    """Whether box `inner` (left, top, right, bottom) lies within box `outer`."""
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


@pytest.mark.parametrize("viewport", [(1024, 768), (819, 614)], ids=["1024x768", "819x614-zoomed"])
@pytest.mark.parametrize("name", ["03-depth-first.ipynb", "04-breadth-first.ipynb"])
def test_each_player_has_its_board_bar_and_running_line_in_sight_at_once(browser, lab, name, viewport):
    """A laptop's screen (and at 125% zoom), the file browser open: no scrolling to follow the code."""
    with ran_notebook(browser, lab, name, viewport=viewport) as page:
        assert page.locator(".jp-FileBrowser").first.is_visible(), "the file browser should be open"
        players = page.locator(".jp-OutputArea-output:has(.msviz-code > span) .msviz-view")
        assert players.count() >= 1
        for i in range(players.count()):
            view = players.nth(i)
            # a player has a picker of steps; a quiz shows its code with no picker
            select = view.evaluate_handle(
                "root => root.closest('.jp-OutputArea-output').querySelector('[data-control=mode]')"
            ).as_element()
            shown = (
                select.evaluate("s => [...s.options].map(o => o.text.replace(/\\s/g, ' '))") if select else []
            )
            modes = [m for m in STEP_KINDS if m in shown]
            for mode in modes or [None]:
                if mode:
                    select.select_option(label=mode)
                if not mode:  # a quiz: its board and code in sight, no line runs before a guess
                    at = view.evaluate(PLAYER_BOXES)
                    shoot(page, f"{name[:2]}-quiz{i}-{viewport[0]}x{viewport[1]}")
                    assert inside(at["board"], at["area"]), (
                        f"{name}, quiz {i}: the board is not in sight: {at}"
                    )
                    assert max(at["sideways"]) <= 0, f"{name}, quiz {i}: the code scrolls sideways"
                    continue
                page.wait_for_function("root => root.msviz.line() > 0", arg=view.element_handle())
                at = view.evaluate(PLAYER_BOXES)
                where = f"{name}, player {i}, {mode} of {shown}, at {viewport}: {at}"
                shoot(page, f"{name[:2]}-player{i}-{mode}-{viewport[0]}x{viewport[1]}")
                assert inside(at["board"], at["area"]), f"{where}: the board is not all in sight"
                assert inside(at["slider"], at["area"]), f"{where}: the scrub bar is not in sight"
                assert inside(at["line"], at["area"]), f"{where}: the running line is not in sight"
                assert inside(at["line"], at["code"]), (
                    f"{where}: the running line is scrolled out of the code"
                )
                assert max(at["sideways"]) <= 0, f"{where}: the code or the frames scroll sideways"
                assert not at["midword"], f"{where}: code lines break inside a word"


#: Whether an element is on the screen, whole, and painted (a frame has passed).
IN_VIEW = """el => new Promise(done => requestAnimationFrame(() => {
  const r = el.getBoundingClientRect();
  done(r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth);
}))"""


@pytest.mark.parametrize("name", ["03-depth-first.ipynb", "05-comparing-orders.ipynb"])
def test_boards_fit_a_small_screen_with_the_file_browser_open(browser, lab, name):
    with ran_notebook(browser, lab, name, viewport=(1024, 768)) as page:
        assert page.locator(".jp-FileBrowser").first.is_visible(), "the file browser should be open"
        views = page.locator(".msviz-view")
        assert views.count() > 0
        for i in range(views.count()):
            view = views.nth(i)
            view.scroll_into_view_if_needed()
            canvas = view.locator("canvas.msviz-cells").bounding_box()
            area = view.locator(
                "xpath=ancestor::div[contains(@class, 'jp-OutputArea-output')]"
            ).first.bounding_box()
            assert canvas["x"] >= area["x"] - 0.5, "the board is clipped on the left"
            assert canvas["x"] + canvas["width"] <= area["x"] + area["width"] + 0.5, (
                "the board is clipped on the right"
            )
            cols, rows = view.evaluate("r => [r.msviz.cols(), r.msviz.rows()]")
            assert abs(canvas["width"] / cols - canvas["height"] / rows) < 0.01, "cells are not square"
        widget = page.locator(".msviz-stage:has(.msviz-view)").first
        board = widget.locator("canvas.msviz-cells").first
        board.scroll_into_view_if_needed()
        # The screenshot waits until the first board is painted on the screen, whole.
        page.wait_for_function(IN_VIEW, arg=board.element_handle(), timeout=PATIENCE)
        shoot(page, f"{name[:2]}-at-1024x768")


def test_axe_finds_no_serious_violation_in_the_players_and_the_quiz(browser, lab):
    """Notebook 03's players and quiz, with their controls, for a screen reader and a keyboard."""
    with ran_notebook(browser, lab, "03-depth-first.ipynb", viewport=(1024, 768)) as page:
        outputs = page.locator(".jp-OutputArea-output:has(.msviz-view)")
        assert outputs.count() >= 3
        results = Axe().run(page, context={"include": [".jp-OutputArea-output:has(.msviz-view)"]})
        found = serious(results)
        assert found == [], "\n".join(found)
        # Each control bar's buttons and fields have names, as the view gives them.
        names = page.locator(".msviz-controls button, .msviz-controls input, .msviz-controls select")
        said = names.evaluate_all(
            "cs => cs.map(c => c.getAttribute('aria-label') || c.closest('label')?.textContent"
            " || c.textContent.trim())"  # a button named by its own words ("Edit the board")
        )
        assert said and all(said), said


def test_editing_a_players_board_in_the_view_redraws_it_with_the_new_reveal(browser, lab):
    """A click puts a mine, a Shift-click moves the click: the kernel works out the new reveal, the view
    draws it, and the student's own list is never changed."""
    import msviz
    from msviz.render import _SHOWN_MINE, CODES

    with ran_notebook(browser, lab, "edit-test.ipynb", viewport=(1024, 768)) as page:
        player = page.locator(".msviz-stage:has(.msviz-controls)").first
        view = player.locator(".msviz-view").first
        canvas = view.locator("canvas.msviz-cells")
        edit = player.locator("[data-control=edit]")
        assert edit.inner_text() == "Edit the board"
        edit.click()
        page.wait_for_function("b => b.textContent === 'Done editing'", arg=edit.element_handle())
        assert "Done editing leaves" in player.locator(".msviz-status").inner_text()
        box = canvas.bounding_box()

        def at(row, col):
            return {"x": (col + 0.5) * box["width"] / 6, "y": (row + 0.5) * box["height"] / 4}

        def drawn_final(board, click):
            """Wait until the view, at its last step, draws the reveal of `click` on `board`: every mine
            uncovered while the board is edited, so that a student sees what a click changes."""
            t = msviz.trace(board, click)
            want = [_SHOWN_MINE if s == "M" else CODES[s] for s in t.final.ravel()]
            player.locator("[data-control=last]").click()
            page.wait_for_function(
                "([root, want]) => JSON.stringify(root.msviz.sprites()) === JSON.stringify(want)",
                arg=[view.element_handle(), want],
                timeout=PATIENCE,
            )
            return t

        canvas.click(position=at(1, 2))  # a mine on (1, 2): the flood stops short of it
        edited = [row[:] for row in map(list, EDIT_BOARD)]
        edited[1][2] = "M"
        t = drawn_final(edited, (0, 0))
        assert len(t) < len(msviz.trace(EDIT_BOARD, (0, 0)))
        canvas.click(position=at(3, 0), modifiers=["Shift"])  # the click moves to (3, 0)
        drawn_final(edited, (3, 0))
        said = kernel_says(page, r"BOARD \S+ \(3, 0\) (True|False)")
        assert said.split()[1] == "".join("".join(row) for row in edited)
        assert said.split()[-1] == "True", "the student's own list was changed"
        shoot(player, "edit-mode")


def test_the_frames_panel_shows_two_active_calls_in_sight_at_1024x768(browser, lab):
    """The first official example at event 1: the rows of the two calls, as worked out by hand
    (tests/browser/test_frontend_in_chromium.py), in the panel under the code, in sight with the
    file browser open once the player's top is scrolled to."""
    with ran_notebook(browser, lab, "frames-test.ipynb", viewport=(1024, 768)) as page:
        assert_no_errors(page, "frames-test.ipynb")
        player = page.locator(".msviz-stage:has(.msviz-controls)").first
        frames = player.locator(".msviz-frames")
        page.wait_for_function(
            "el => el.textContent.includes('reveal(2, 0)')", arg=frames.element_handle(), timeout=PATIENCE
        )
        text = frames.inner_text()
        assert "stack, top first (2 calls):" in text
        assert "reveal(2, 0)  mines around: 0  writes B; its loop starts at neighbour 1 of 8" in text
        assert "reveal(3, 0)  mines around: 0  its loop: neighbour 2 of 8, calling reveal(2, 0)" in text
        player.evaluate("el => el.scrollIntoView({block: 'start'})")
        box, window = frames.bounding_box(), page.viewport_size
        assert box["x"] >= 0 and box["x"] + box["width"] <= window["width"]
        assert box["y"] >= 0 and box["y"] + box["height"] <= window["height"], "the frames are out of sight"
        shoot(page, "frames-example-1-1024x768")
