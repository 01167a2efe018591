"""msviz's widgets in the other hosts a student opens a notebook in, in headless Chromium at 1024x768.

JupyterLab 3.6 with ipywidgets 7 (standing in for Colab), the classic Notebook 6.5 with ipywidgets 7
(older hubs), Voila, and marimo (``marimo run`` of notebooks/marimo/01_start_here.py), each
served from an environment of its own (tests/browser/hosts.py: built the first time, about a
minute each, then kept in .cache/hosts/). In each, a player, a comparison and a game are shown
and checked as a student would meet them: nothing shows an error, every board is drawn, each
widget fits its output area, a click on the game reveals cells, the arrow key and the scrub
bar step the player, Play plays, and (where the notebook has one) a quiz bank's question is
answered and judged. One page per host serves all of its tests.
"""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass

import pytest
from chromium import FRAMES, PATIENCE, shoot
from hosts import (
    BOARDS,
    BOARDS_DRAWN,
    BOARDS_WITH_SIMULATION,
    FAILED_WORDS,
    HOSTS,
    MARIMO_NOTEBOOK,
    OPENED,
    OVERFLOW,
    Host,
    Problems,
    cell_position,
    failures_shown,
    hidden_cells,
)
from test_bank import solution
from test_notebooks_in_chromium import drawn_step, wait_drawn

from msviz.bank import make_bank

#: How long a student's action may take to show (ms): a click, a key, a move of the scrub bar.
#: Long for a loaded machine; past it the widget is broken for the student, however loaded.
REACTION = min(PATIENCE, 60_000)
#: How long Play may take to draw more than five steps at its 10 a second (ms): a few seconds.
PLAY_MS = min(PATIENCE, 10_000)


@dataclass
class Opened:
    host: Host
    page: object
    problems: Problems

    def stages(self):
        """The board views' stages (the quiz bank's widget is a stage of its own, with no board view;
        the simulation's is told apart by its panel)."""
        return self.page.locator(".msviz-stage:not(.msviz-bank):not(:has(.msviz-sim[data-on=true]))")

    def stage(self, kind: str):
        """The player's, the comparison's or the game's stage: told apart by their bar and boards."""
        found = []
        for i in range(self.stages().count()):
            stage = self.stages().nth(i)
            bar = stage.locator(".msviz-controls").count() > 0
            boards = stage.locator(".msviz-view").count()
            found.append({(True, 1): "player", (True, 2): "compare", (False, 1): "game"}.get((bar, boards)))
        assert found.count(kind) == 1, f"{self.host.name}: one {kind} expected among the widgets {found}"
        return self.stages().nth(found.index(kind))

    def assert_quiet(self, since: int = 0):
        assert self.problems.since(since) == [], f"{self.host.name}: the page reported errors"


@pytest.fixture(scope="module", params=list(HOSTS))
def opened(request, browser, tmp_path_factory):
    """One host's page with the player, the comparison and the game shown, every board drawn."""
    host = HOSTS[request.param]
    started = time.monotonic()
    python = host.environment.ready()  # built the first time, used again after
    print(f"\n{host.name}: environment ready in {time.monotonic() - started:.0f} s", end=" ")
    workdir = tmp_path_factory.mktemp(host.name)
    root = workdir / "notebooks"
    root.mkdir()
    host.prepare(root)
    with host.serve(python, root, workdir) as base:
        context = browser.new_context(viewport={"width": 1024, "height": 768})
        context.set_default_timeout(PATIENCE)
        try:
            page = context.new_page()
            problems = Problems()
            problems.watch(page)
            opening = time.monotonic()
            host.open(page, base)
            try:  # until the boards are drawn, or the page shows why they are not
                boards = BOARDS if host.name == "marimo" else BOARDS_WITH_SIMULATION
                page.wait_for_function(OPENED, arg=[boards, FAILED_WORDS, host.error_outputs])
            finally:
                shoot(page, f"host-{host.name}")
            shown = failures_shown(page, host.error_outputs)
            assert shown == [], f"{host.name}: the notebook shows an error:\n" + "\n".join(shown)[:3000]
            print(f"(page open, boards drawn, in {time.monotonic() - opening:.0f} s)", end=" ")
            yield Opened(host, page, problems)
        finally:
            context.close()


def test_every_board_is_drawn_and_nothing_shows_an_error(opened):
    page, host = opened.page, opened.host
    assert failures_shown(page, host.error_outputs) == [], f"{host.name}: the page shows an error"
    opened.assert_quiet()
    assert opened.stages().count() == 3, f"{host.name}: a player, a comparison and a game are shown"
    for kind in ("player", "compare", "game"):
        opened.stage(kind)
    views = page.locator(".msviz-view")
    for i in range(views.count()):
        drawn = views.nth(i).evaluate(
            "r => ({rows: r.msviz.rows(), cols: r.msviz.cols(), caption: r.msviz.caption(),"
            " hidden: r.msviz.sprites().filter(s => s === 0).length})"
        )
        shapes = ((10, 14), (9, 9), (2, 3))  # the player's and comparison's, the game's, the simulation's
        assert (drawn["rows"], drawn["cols"]) in shapes, f"{host.name}: board {i}: {drawn}"
    for kind in ("player", "compare"):
        view = opened.stage(kind).locator(".msviz-view").first
        assert drawn_step(view) == 0, f"{host.name}: the {kind} opens on the click's own step"
        assert view.evaluate("r => r.msviz.caption()").startswith("step 0:")


def test_each_widget_fits_its_output_area(opened):
    page, host = opened.page, opened.host
    stages = opened.stages()
    for i in range(stages.count()):
        stage = stages.nth(i)
        stage.scroll_into_view_if_needed()
        outside = page.evaluate(OVERFLOW, [stage.element_handle(), host.outputs])
        if outside:
            shoot(stage, f"host-{host.name}-widget{i}-overflow")
        assert outside == [], f"{host.name}: widget {i} does not fit its output area:\n" + "\n".join(outside)


def test_a_click_on_a_hidden_cell_of_the_game_reveals_cells(opened):
    page, host = opened.page, opened.host
    errors = len(opened.problems.seen)
    game = opened.stage("game")
    view = game.locator(".msviz-view")
    canvas = view.locator("canvas.msviz-cells")
    canvas.scroll_into_view_if_needed()
    rows, cols = view.evaluate("r => [r.msviz.rows(), r.msviz.cols()]")
    before = hidden_cells(view)
    assert before == rows * cols, f"{host.name}: a new game shows every cell hidden"
    status = game.locator(".msviz-status").inner_text()
    canvas.click(position=cell_position(canvas, rows, cols, rows // 2, cols // 2))  # the first click floods
    page.wait_for_function(
        "([root, n]) => !root.msviz.animating() && root.msviz.sprites().filter(s => s === 0).length < n",
        arg=[view.element_handle(), before],
        timeout=REACTION,
    )
    after = hidden_cells(view)
    shoot(game, f"host-{host.name}-game")
    # The first click is safe and has no mine around it: it opens at least itself and its 8 neighbours.
    assert before - after >= 9, f"{host.name}: the click revealed {before - after} cells"
    page.wait_for_function(
        "([el, was]) => el.textContent !== was", arg=[game.locator(".msviz-status").element_handle(), status]
    )
    assert failures_shown(page, host.error_outputs) == []
    opened.assert_quiet(errors)


def test_the_arrow_key_and_the_scrub_bar_step_the_player(opened):
    page, host = opened.page, opened.host
    errors = len(opened.problems.seen)
    player = opened.stage("player")
    view = player.locator(".msviz-view")
    scrub = player.locator("input[type=range][data-control=scrub]")
    view.scroll_into_view_if_needed()
    player.locator("button[data-control=first]").click()
    wait_drawn(page, view, 0)
    before = drawn_step(view)
    view.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "([root, k]) => root.msviz.step() === k", arg=[view.element_handle(), before + 1], timeout=REACTION
    )
    assert scrub.input_value() == str(before + 1), f"{host.name}: the scrub bar did not follow the key"
    scrub.fill("12")  # as a student drags it: its input event
    wait_drawn(page, view, 12)
    assert view.evaluate("r => r.msviz.caption()").startswith("step 12:")
    shoot(player, f"host-{host.name}-player")
    opened.assert_quiet(errors)


def test_the_quiz_bank_is_answered_and_judged_by_the_kernel(opened):
    """The bank's widget (an anywidget of its own) where the notebook has one: a question answered by
    clicks on its picture and its Answer button, the verdict the kernel's, the next question sent."""
    page, host = opened.page, opened.host
    bank = page.locator(".msviz-bank")
    if host.name == "marimo":  # marimo's notebook is notebook 01's: it shows no bank
        assert bank.count() == 0
        return
    errors = len(opened.problems.seen)
    bank.wait_for(state="visible", timeout=REACTION)  # the notebook's last widget
    assert bank.count() == 1, f"{host.name}: the quiz bank is not shown"
    made = make_bank("ada", n=3)
    first, second = made.questions[:2]
    assert first.answered_by == "cells"  # the stack or the queue: cells chosen, then Answer
    picture = bank.locator(".msviz-bank-picture")
    picture.scroll_into_view_if_needed()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=picture.element_handle())
    assert bank.locator(".msviz-bank-prompt").inner_text() == first.prompt
    outside = page.evaluate(OVERFLOW, [bank.element_handle(), host.outputs])
    assert outside == [], f"{host.name}: the bank does not fit its output area:\n" + "\n".join(outside)
    right = solution(first)
    rows, cols = len(first.board), len(first.board[0])
    for cell in right:
        picture.click(position=cell_position(picture, rows, cols, *cell))
    bank.locator("[data-control=answer]").click()
    said = str(made.answer(0, right))
    page.wait_for_function(
        "([el, said]) => el.textContent === said",
        arg=[bank.locator(".msviz-bank-verdict").element_handle(), said],
        timeout=REACTION,
    )
    bank.locator("[data-control=next]").click()
    page.wait_for_function(
        "([el, said]) => el.textContent === said",
        arg=[bank.locator(".msviz-bank-prompt").element_handle(), second.prompt],
        timeout=REACTION,
    )
    shoot(bank, f"host-{host.name}-bank")
    assert failures_shown(page, host.error_outputs) == []
    opened.assert_quiet(errors)


def test_the_simulation_is_carried_out_and_judged_by_the_kernel(opened):
    """Be the computer where the notebook has it: the queue's front taken by a click on the board, what
    it shows said by a key; each verdict the kernel's; the widget inside its output area."""
    from msviz.simulation import Simulation

    page, host = opened.page, opened.host
    sim = page.locator(".msviz-stage:has(.msviz-sim[data-on=true])")
    if host.name == "marimo":  # marimo's notebook is notebook 01's: it has no simulation
        assert sim.count() == 0
        return
    errors = len(opened.problems.seen)
    assert sim.count() == 1, f"{host.name}: the simulation is not shown"
    sim.scroll_into_view_if_needed()
    outside = page.evaluate(OVERFLOW, [sim.element_handle(), host.outputs])
    assert outside == [], f"{host.name}: the simulation does not fit its output area:\n" + "\n".join(outside)
    judge = Simulation(["EEE", "EEM"], (0, 0), order="bfs")
    canvas = sim.locator("canvas.msviz-cells")
    canvas.click(position=cell_position(canvas, 2, 3, 0, 0))
    verdict = sim.locator(".msviz-sim-verdict")
    said = f"Right: {judge.take((0, 0)).reason}."
    page.wait_for_function("([el, s]) => el.textContent === s", arg=[verdict.element_handle(), said])
    view = sim.locator(".msviz-view").first
    view.focus()
    view.press("b")
    said = f"Right: {judge.say('B').reason}."
    page.wait_for_function(
        "([el, s]) => el.textContent === s", arg=[verdict.element_handle(), said], timeout=REACTION
    )
    shoot(sim, f"host-{host.name}-simulate")
    assert failures_shown(page, host.error_outputs) == []
    opened.assert_quiet(errors)


def test_play_plays_the_player_and_pauses(opened):
    page, host = opened.page, opened.host
    errors = len(opened.problems.seen)
    player = opened.stage("player")
    view = player.locator(".msviz-view")
    play = player.locator("button[data-control=play]")
    view.scroll_into_view_if_needed()
    player.locator("button[data-control=first]").click()
    wait_drawn(page, view, 0)
    assert play.get_attribute("aria-label") == "Play"
    play.click()
    page.wait_for_function("root => root.msviz.step() > 5", arg=view.element_handle(), timeout=PLAY_MS)
    assert play.get_attribute("aria-label") == "Pause", f"{host.name}: the button says what it does now"
    moving = drawn_step(view)
    page.wait_for_function(  # still moving a moment later
        "([root, k]) => root.msviz.step() > k", arg=[view.element_handle(), moving], timeout=PLAY_MS
    )
    play.click()
    page.wait_for_function(
        "b => b.getAttribute('aria-label') === 'Play'", arg=play.element_handle(), timeout=REACTION
    )
    paused = drawn_step(view)
    page.evaluate(FRAMES, 30)
    assert drawn_step(view) == paused, f"{host.name}: Play did not pause"
    opened.assert_quiet(errors)


#: A page of the checks' own: widgets that fit their output areas and one that does not (in a shadow
#: root, as marimo shows them), boards drawn and one whose handle lacks a function, and errors shown.
CHECKED_PAGE = """<body>
<div class="out" id="fits" style="width: 400px"><div class="msviz-stage" style="width: 300px">
  <div class="msviz-view"><canvas class="msviz-cells" width="90" height="90"></canvas></div>
  <pre class="msviz-error"></pre></div></div>
<div class="out" id="wide" style="width: 400px"><div id="host"></div></div>
<div class="out" id="scrolls" style="width: 400px; overflow-x: auto"><div class="msviz-stage">
  <div class="msviz-controls" style="width: 600px; height: 20px"></div></div></div>
<script>
  const root = document.getElementById('host').attachShadow({mode: 'open'});
  root.innerHTML = '<div class="msviz-stage" style="width: 500px"><div class="msviz-view">'
    + '<canvas class="msviz-cells" width="90" height="90"></canvas></div></div>';
  const handle = {step: () => 0, caption: () => '', rows: () => 3, cols: () => 3,
                  sprites: () => new Array(9).fill(0)};
  document.querySelector('.msviz-view').msviz = root.querySelector('.msviz-view').msviz = handle;
</script></body>"""


def test_the_checks_see_what_they_look_for(browser):
    """Each check of a host's page fails where it should: a widget wider than its output, in a shadow
    root too; an output that scrolls sideways; a board not drawn; an error shown; a script's error."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    try:
        page = context.new_page()
        problems = Problems()
        problems.watch(page)
        page.set_content(CHECKED_PAGE)
        stages = [page.locator(f"#{name} .msviz-stage") for name in ("fits", "wide", "scrolls")]
        outside = [page.evaluate(OVERFLOW, [stage.element_handle(), ".out"]) for stage in stages]
        assert outside[0] == []
        assert outside[1] and outside[1][0].startswith("div.msviz-stage spans"), outside[1]
        assert outside[1][-1] == "the output scrolls sideways: 500 px in 400", outside[1]
        assert outside[2] == [
            "div.msviz-controls spans 8-608 px, its output 8-408 px",
            "the output scrolls sideways: 600 px in 400",
        ], outside[2]
        assert page.evaluate(OVERFLOW, [stages[0].element_handle(), ".nowhere"])[0].startswith("no output")

        assert page.evaluate(BOARDS_DRAWN, 2) and not page.evaluate(BOARDS_DRAWN, 3)
        assert page.evaluate(OPENED, [2, FAILED_WORDS, ".out .err"])
        page.evaluate("() => { delete document.querySelector('.msviz-view').msviz; }")
        assert not page.evaluate(BOARDS_DRAWN, 2), "a board with no handle counts as drawn"
        assert not page.evaluate(OPENED, [2, FAILED_WORDS, ".out .err"])

        assert failures_shown(page, ".out .err") == [] and problems.seen == []
        page.evaluate(
            """() => {
            document.querySelector('.msviz-error').textContent = 'ValueError: no such cell';
            document.body.insertAdjacentHTML('beforeend',
              '<div class="out"><pre class="err">Traceback (most recent call last)</pre></div>'
              + '<link rel="stylesheet" href="http://127.0.0.2:9/font.css">');
            console.error('Could not create a view for model id 1234');
            setTimeout(() => { throw new Error('a widget failed'); });
        }"""
        )
        page.wait_for_function("() => document.querySelector('.msviz-error').textContent !== ''")
        assert page.evaluate(OPENED, [2, FAILED_WORDS, ""]), "a page that shows a failure is not waited on"
        shown = failures_shown(page, ".out .err")
        assert len(shown) == 3, shown
        assert shown[0] == "Traceback (most recent call last)"  # the host's error output
        assert shown[1].startswith("the page says 'Traceback': ...") and shown[1].endswith(
            "most recent call last)"
        )
        assert shown[2] == "the widget's error line: ValueError: no such cell"
        page.wait_for_function("() => new Promise(done => setTimeout(() => done(true), 0))")
        assert "console error: Could not create a view for model id 1234 (at no script)" in problems.seen
        assert "uncaught: a widget failed" in problems.seen
    finally:
        context.close()


def test_the_marimo_notebook_is_one_marimo_reads_without_a_warning():
    """`marimo check --strict`: the file is a marimo notebook, with nothing marimo warns about."""
    python = HOSTS["marimo"].environment.ready()
    checked = subprocess.run(
        [str(python), "-m", "marimo", "check", "--strict", str(MARIMO_NOTEBOOK)],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
