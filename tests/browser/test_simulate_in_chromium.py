"""Be the computer in JupyterLab, in headless Chromium: a 6 x 6 reveal carried out by hand.

At 1024 x 768 with the file browser open, as a student does: the breadth-first reveal by the
mouse alone (cells clicked on the board, what a cell shows and Undo clicked on their buttons),
the depth-first one by the keys alone (a cursor moved with the arrows, Enter, B or 0 and the
digits, R to return, U to undo). A few operations are wrong on purpose. Each verdict shown is the
kernel's, and is the one the engine (`msviz.Simulation`) run here on the same board gives; after
each operation the board drawn is the engine's true state (a cell shows its symbol once said) and
the strip is its queue or stack. At the end the view says the steps right at the first try out
of all and plays the model answer; the kernel reads the same scores. The widget fits its output
area, and axe-core finds no serious violation. Screenshots go to test-artifacts/screenshots/;
the time of each whole simulation, by the suite's clicks and keys, is printed.
"""

from __future__ import annotations

import time

import pytest
from chromium import FRAMES, PATIENCE, serious, shoot
from hosts import cell_position
from labserver import running_lab, write_notebook
from test_notebooks_in_chromium import assert_no_errors, ran_notebook
from test_simulate_widget import wrong_instead

import msviz
from msviz.simulation import Simulation, model

BOARD = msviz.random_board(6, 6, 6, seed=1, safe=(3, 3))
CLICK = (3, 3)
CODES = {"B": 2, "X": 11, **{str(d): 2 + d for d in range(1, 9)}}
NOTEBOOK = [
    "import msviz\n"
    "BOARD = msviz.random_board(6, 6, 6, seed=1, safe=(3, 3))\n"
    "bfs = msviz.simulate(BOARD, (3, 3), order='bfs')\n"
    "bfs",
    "dfs = msviz.simulate(BOARD, (3, 3), order='dfs')\ndfs",
    "print('SCORES', *bfs.score, *dfs.score, bfs.over, dfs.over)",
]


#: A simulation in each feedback mode: "retry" and "end" on the board above, "fix" from a homework set.
MODES = [
    "import msviz\n"
    "from msviz.simulation import simulation_set\n"
    "BOARD = msviz.random_board(6, 6, 6, seed=1, safe=(3, 3))\n"
    "retry = msviz.simulate(BOARD, (3, 3), order='bfs', feedback='retry')\n"
    "retry",
    "end = msviz.simulate(BOARD, (3, 3), order='dfs', feedback='end')\nend",
    "hw = simulation_set('ada', n=2)\nhomework = msviz.simulate(hw[0])\nhomework",
]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on 127.0.0.1 serving one notebook: a breadth-first and a depth-first simulation."""
    workdir = tmp_path_factory.mktemp("simulate-lab")
    root = workdir / "notebooks"
    root.mkdir()
    write_notebook(root / "simulate-test.ipynb", NOTEBOOK)
    write_notebook(root / "simulate-modes.ipynb", MODES)
    with running_lab(root, workdir) as base:
        yield base


class Student:
    """One simulation's widget in the page, driven as a student does; the engine run here alongside."""

    def __init__(self, page, index: int, order: str):
        self.page = page
        self.output = page.locator(".jp-OutputArea-output:has(.msviz-view)").nth(index)
        self.view = self.output.locator(".msviz-view")
        self.engine = Simulation(BOARD, CLICK, order=order)
        self.answered = 0
        self.view.locator("canvas.msviz-cells").wait_for()

    # ---- what the student does ----------------------------------------------------------------------

    def click_cell(self, cell) -> None:
        canvas = self.view.locator("canvas.msviz-cells")
        canvas.click(position=cell_position(canvas, 6, 6, *cell))

    def click_button(self, control: str) -> None:
        self.output.locator(f"[data-control='{control}']").click()

    def key_to_cell(self, cell) -> None:
        """Move the keyboard's cursor to `cell` with the arrows, and press Enter."""
        self.view.focus()
        if self.view.evaluate("root => root.msviz.cursor()") < 0:
            self.view.press("ArrowUp")  # the first arrow shows the cursor where it starts
        row, col = divmod(self.view.evaluate("root => root.msviz.cursor()"), 6)
        for _ in range(abs(cell[0] - row)):
            self.view.press("ArrowDown" if cell[0] > row else "ArrowUp")
        for _ in range(abs(cell[1] - col)):
            self.view.press("ArrowRight" if cell[1] > col else "ArrowLeft")
        assert self.view.evaluate("root => root.msviz.cursor()") == cell[0] * 6 + cell[1]
        self.view.press("Enter")

    def act(self, name: str, value, *, keys: bool) -> None:
        """Make operation (name, value) in the page: by the mouse, or (`keys`) by the keys alone."""
        if name in ("take", "queue", "call"):
            self.key_to_cell(value) if keys else self.click_cell(value)
        elif name == "say" and keys:
            self.view.press({"B": "0" if self.answered % 2 else "b"}.get(value, value))
        elif keys:
            self.view.press({"back": "r", "undo": "u"}[name])
        else:
            self.click_button(f"say-{value}" if name == "say" else name)

    # ---- what the page then shows -------------------------------------------------------------------

    def shown(self) -> dict:
        """Wait until the kernel has answered this operation and the view has drawn it; what it shows."""
        self.answered += 1
        self.page.wait_for_function(
            "([root, n]) => root.msviz.byHand().answered === n",
            arg=[self.view.element_handle(), self.answered],
            timeout=PATIENCE,
        )
        self.view.evaluate(f"root => ({FRAMES})(2)")  # the board is drawn in the next frame
        return self.view.evaluate("root => ({...root.msviz.byHand(), sprites: root.msviz.sprites()})")

    def operate(self, name: str, value, *, keys: bool) -> dict:
        """Make one operation in the page and the same on the engine; check the page shows the engine's
        verdict and state. Return what the page shows."""
        self.act(name, value, keys=keys)
        shown = self.shown()
        engine = self.engine
        if name == "undo":
            assert engine.undo() and shown["kind"] == "undone" and shown["verdict"].startswith("Undone: ")
        else:
            step = engine.back() if name == "back" else getattr(engine, name)(value)
            start = "Right: " if step.right else "Wrong: "
            assert shown["verdict"].startswith(start + step.reason + "."), (name, value, shown["verdict"])
            assert shown["kind"] == ("right" if step.right else "wrong")
        if not engine.over:  # the board and the strip are the engine's state
            want = [CODES.get(engine.revealed.get(divmod(i, 6)), 0) for i in range(36)]
            assert shown["sprites"] == want, (name, value)
            waiting = list(engine.queue_) if engine.order == "bfs" else engine.stack
            assert shown["strip"] == ([f"({r},\u00a0{c})" for r, c in waiting] or ["empty"])
        return shown

    def run(self, *, keys: bool, shots: str) -> tuple[int, float]:
        """Carry out the whole simulation, a wrong operation every seventh and one undone; return the
        operations made and the seconds they took."""
        made, undone, started = 0, False, time.perf_counter()
        while not self.engine.over:
            right = self.engine.expected()
            wrong = wrong_instead(self.engine, *right) if made % 7 == 3 else None
            shown = self.operate(*(wrong or right), keys=keys)
            made += 1
            if wrong and not undone:  # take the slip back, and do it right: it counts for nothing now
                shoot(self.output, f"{shots}-wrong-1024x768")
                self.operate("undo", None, keys=keys)
                redone = self.operate(*right, keys=keys)
                assert redone["verdict"].endswith("(Not counted: only a step's first try counts.)")
                made, undone = made + 2, True
        assert undone and shown["kind"] in ("right", "wrong")
        return made, time.perf_counter() - started

    def check_the_end(self, shots: str) -> None:
        """The score of first tries out of all, then the model answer playing in the same view."""
        steps = model(self.engine).step
        score = self.view.evaluate("root => root.msviz.byHand().score")
        assert score.startswith(f"Done: {self.engine.right} of {steps} steps right at the first try.")
        assert self.engine.right < steps  # the wrong ones counted
        self.output.locator("[data-control=play]").wait_for()
        title = self.view.evaluate("root => root.querySelector('.msviz-title').textContent")
        assert title == f"The model answer: {msviz.words.TITLES[self.engine.order]}"
        self.page.wait_for_function(  # it plays: the steps move on by themselves
            "root => root.msviz.step() > 2", arg=self.view.element_handle(), timeout=PATIENCE
        )
        self.output.evaluate("out => out.querySelector('.msviz-stage').scrollIntoView({block: 'start'})")
        shoot(self.page, f"{shots}-model-answer-1024x768")
        fits(self.output)


def fits(output) -> None:
    """The widget fits its output area (nothing wider, nothing to scroll sideways) and, scrolled to its
    top, is all in sight in the notebook's window."""
    output.evaluate("out => out.querySelector('.msviz-stage').scrollIntoView({block: 'start'})")
    at = output.evaluate(
        """out => { const stage = out.querySelector('.msviz-stage');
            const view = stage.querySelector('.msviz-view');
            const window = out.closest('.jp-WindowedPanel-outer') || out.closest('.jp-Notebook');
            const [s, o, w] = [stage, out, window].map(e => e.getBoundingClientRect());
            return {right: s.right - o.right, sideways: view.scrollWidth - view.clientWidth,
                    top: s.top - w.top, bottom: s.bottom - w.bottom}; }"""
    )
    assert at["right"] <= 1 and at["sideways"] <= 1, f"the widget is wider than its output area: {at}"
    assert at["top"] >= -1 and at["bottom"] <= 1, f"the widget is not all in sight at 1024 x 768: {at}"


def kernel_scores(page) -> list:
    """Run the notebook's last cell: the scores and the ends as the kernel reads them."""
    cell = page.locator(".jp-CodeCell").nth(2)
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Control+Enter")
    page.wait_for_function(
        "el => /SCORES( \\S+){6}/.test(el.textContent)", arg=cell.element_handle(), timeout=PATIENCE
    )
    return cell.locator(".jp-OutputArea-output").last.inner_text().split()[1:]


def test_a_student_carries_out_both_reveals_by_clicks_and_by_keys_each_judged_by_the_kernel(browser, lab):
    with ran_notebook(browser, lab, "simulate-test.ipynb", viewport=(1024, 768)) as page:
        assert_no_errors(page, "simulate-test.ipynb")
        assert page.locator(".jp-FileBrowser").first.is_visible(), "the file browser should be open"
        bfs = Student(page, 0, "bfs")
        fits(bfs.output)
        shoot(bfs.output, "simulate-bfs-start-1024x768")
        made, seconds = bfs.run(keys=False, shots="simulate-bfs")
        print(
            f"\n6x6 breadth-first simulation by the suite's clicks: {made} operations in {seconds:.2f} s "
            f"({1000 * seconds / made:.0f} ms an operation, each until its verdict is drawn)"
        )
        bfs.check_the_end("simulate-bfs")

        dfs = Student(page, 1, "dfs")
        fits(dfs.output)
        made, seconds = dfs.run(keys=True, shots="simulate-dfs")
        print(f"6x6 depth-first simulation by the suite's keys: {made} operations in {seconds:.2f} s")
        dfs.check_the_end("simulate-dfs")

        assert kernel_scores(page) == [
            str(bfs.engine.right),
            str(bfs.engine.tried),
            str(dfs.engine.right),
            str(dfs.engine.tried),
            "True",
            "True",
        ]
        assert page.locator(".msviz-stage .msviz-error:visible").count() == 0
        assert_no_errors(page, "simulate-test.ipynb")


def test_axe_finds_no_serious_violation_and_the_simulation_has_words_for_a_screen_reader(browser, lab):
    from axe_playwright_python.sync_playwright import Axe

    with ran_notebook(browser, lab, "simulate-test.ipynb", viewport=(1024, 768)) as page:
        student = Student(page, 1, "dfs")
        student.operate("call", CLICK, keys=True)  # the cursor shown, a verdict said
        student.operate("say", "1", keys=True)  # a wrong one, in its colour
        results = Axe().run(page, context={"include": [".jp-OutputArea-output:has(.msviz-view)"]})
        found = serious(results)
        assert found == [], "\n".join(found)
        view = student.view
        label = view.get_attribute("aria-label")
        assert msviz.words.simulate_fill("keys_dfs") in label and "6 rows by 6 columns" in label
        said = student.output.locator(".msviz-sim-said")
        assert said.get_attribute("aria-live") == "polite" and said.inner_text().startswith("Wrong: ")
        buttons = student.output.locator(".msviz-sim-buttons")
        assert buttons.get_attribute("role") == "group" and buttons.get_attribute("aria-label")
        names = buttons.locator("button").evaluate_all("bs => bs.map(b => b.getAttribute('aria-label'))")
        assert (
            names[0] == "Say: blank (B or 0)"
            and "Return: the call on top has nothing left to do (R)" in names
        )


def _wrong_symbol(engine: Simulation) -> str:
    return "1" if engine.expected()[1] != "1" else "2"


def test_each_feedback_mode_and_a_new_attempt_by_clicks_and_by_keys(browser, lab):
    from msviz.simulation import simulation_set

    with ran_notebook(browser, lab, "simulate-modes.ipynb", viewport=(1024, 768)) as page:
        assert_no_errors(page, "simulate-modes.ipynb")
        # "retry", by clicks: a wrong symbol is refused, the board stays, the second try is right.
        retry = Student(page, 0, "bfs")
        retry.engine = Simulation(BOARD, CLICK, order="bfs", feedback="retry")
        fits(retry.output)
        retry.act("take", CLICK, keys=False)
        assert retry.shown()["kind"] == "right" and retry.engine.take(CLICK).right
        wrong = _wrong_symbol(retry.engine)
        retry.act("say", wrong, keys=False)
        shown = retry.shown()
        step = retry.engine.say(wrong)
        assert shown["kind"] == "retry" and shown["verdict"] == f"Not right: {step.reason}. Try again."
        assert shown["sprites"][CLICK[0] * 6 + CLICK[1]] == 0  # still hidden: the answer is not shown
        shoot(retry.output, "simulate-retry-1024x768")
        right = retry.engine.expected()[1]
        retry.act("say", right, keys=False)
        assert retry.shown()["verdict"].endswith("(Not counted: only a step's first try counts.)")
        # The model answer: warned of, then played.
        retry.click_button("model")
        assert "ends this attempt's credit" in retry.shown()["verdict"]
        retry.click_button("model")
        assert retry.shown()["kind"] == "model"
        retry.page.wait_for_function(
            "root => root.msviz.step() > 2", arg=retry.view.element_handle(), timeout=PATIENCE
        )

        # "end", by keys: nothing judged until Done (D), then each kind's first wrong step marked.
        end = Student(page, 1, "dfs")
        end.engine = Simulation(BOARD, CLICK, order="dfs", feedback="end")
        fits(end.output)
        end.act("call", CLICK, keys=True)
        assert end.shown()["kind"] == "noted"
        end.engine.call(CLICK)
        wrong = _wrong_symbol(end.engine)
        end.act("say", wrong, keys=True)
        shown = end.shown()
        assert shown["kind"] == "noted" and "Wrong" not in shown["verdict"]
        end.engine.say(wrong)
        while not end.engine.over:  # the student's own reveal goes on from the digit said
            name, value = end.engine.expected()
            end.act(name, value, keys=True)
            end.shown()
            end.engine.back() if name == "back" else getattr(end.engine, name)(value)
        end.view.press("d")
        shown = end.shown()
        judged = end.engine.finish()
        assert shown["verdict"].startswith(f"Judged: {judged['right']} of {judged['steps']} steps")
        assert shown["marks"] == [CLICK[0] * 6 + CLICK[1]]
        shoot(end.output, "simulate-end-judged-1024x768")

        # A homework set's simulation ("fix"): a few steps by clicks, a new board by the key N, the line
        # to keep as the page shows it, which earns in a fresh set the score the page says.
        homework = Student(page, 2, "bfs")
        sims = simulation_set("ada", n=2)
        fits(homework.output)
        homework.view.press("n")
        shown = homework.shown()
        homework.engine = sims.new(0)
        assert shown["verdict"].startswith("Attempt 2: a new board") and shown["line"].startswith(
            "hw.play(0, 'fix:2"  # the set's own name in the notebook
        )
        rows, cols = homework.engine.shape
        for _ in range(3):
            name, value = homework.engine.expected()
            if name in ("take", "queue"):
                canvas = homework.view.locator("canvas.msviz-cells")
                canvas.click(position=cell_position(canvas, rows, cols, *value))
            else:
                homework.click_button(f"say-{value}")
            homework.shown()
            getattr(homework.engine, name)(value)
        line = homework.output.locator(".msviz-sim-line").inner_text()
        assert homework.output.locator(".msviz-sim-keep").is_visible()
        shoot(homework.output, "simulate-homework-line-1024x768")
        fresh = simulation_set("ada", n=2)
        exec(line, {"hw": fresh})
        said = homework.view.evaluate("root => root.msviz.byHand()")
        assert (
            (fresh[0].attempt, fresh[0].right, fresh[0].tried)
            == (2, said["right"], said["tried"])
            == (2, 3, 3)
        )
        assert page.locator(".msviz-stage .msviz-error:visible").count() == 0
        assert_no_errors(page, "simulate-modes.ipynb")
