"""The board player in a real browser: JupyterLab driven by headless Chromium.

Run it with ``.venv/bin/python benchmarks/browser.py`` (about 5 minutes), or
add ``--quick`` for fewer samples and shorter Play runs (about 2 minutes).
Needs Debian's Chromium at /usr/bin/chromium (``--chromium PATH`` for another)
and the Python package ``playwright`` (no browser download).

For each board (50 x 50, 200 x 200 and 500 x 500, 1% mines, a click in the
middle that floods most of the board) one notebook shows two widgets, one
under the other, in one page:

* ``player``: ``msviz.player`` at its fastest (60 frames/s, 1 step a frame),
  the board drawn on a canvas by the browser;
* ``baseline``: the kit's previous player, defined in the notebook itself: an
  ``ipywidgets.Image`` that the kernel redraws as a PNG
  (``msviz.render.step_image`` + ``msviz.render.png``) on every change of an
  ``IntSlider``, with a ``Play`` jslinked to the slider at 30 ms a step.

What is measured, all against the baseline in the same page and run (no
absolute timing passes or fails):

1. Latency from a slider move to a new picture, in animation frames of the
   page. A requestAnimationFrame loop counts frames; a capture-phase
   keydown/pointerdown listener on the document notes the count at the input;
   a MutationObserver notes it when the picture changes (the view root's
   ``data-step``, set inside the frame that draws it; or the baseline image's
   ``src``, plus one frame, as the image is painted at the next frame at the
   earliest). The difference is the latency "counted". A draw that takes
   longer than a frame makes that frame long but still counts once, so the
   same wait is also measured "by the clock": the milliseconds from the input
   to the start of the frame after the picture's, in frames of the idle page
   (measured first, for 1 s), less that last frame. With frames of even
   length the two agree; each target is checked both ways.
   Single steps are ArrowRight on the focused slider handle, from the middle
   of the reveal (where the DFS stack is deep); jumps are mouse clicks at
   random points of the slider's track. Samples of the two widgets are
   interleaved, so that a slow spell of the machine hits both.
2. Play at its fastest, from the middle of the reveal: the steps asked for
   (distinct values in the slider's readout) and the pictures shown (distinct
   steps drawn; new image sources for the baseline) per second, and
   shown/asked; and the median and 90th percentile of the page's frame
   intervals over all of a widget's measurements. The WebSocket messages to
   and from the kernel per step are kept in the JSON.
3. The kernel's CPU while playing, as a share of one core (psutil on the
   kernel process, over the same Play run as 2: 10 s, 4 s with ``--quick``).

Before the boards, at a million cells (``--page-size`` for another side):

4. The exported page (``msviz.export``) against a bare page as big that draws
   one canvas: its first picture, its longest task, a full redraw against the
   page's own frame, and the size of the default two-board 300 x 300 page
   (``--page-only`` runs only this).
5. One player in JupyterLab: the milliseconds from Shift+Enter on its cell
   (the trace is made in the cell before) to its first picture, and the
   browser memory the view holds (JavaScript heap and array buffers after a
   full garbage collection, before and after) against the bytes the kernel
   sent (``--big-only`` runs 4 and 5 only).

The table printed at the end gives every figure and each target with OK or
MISS; the figures also go to ``test-artifacts/benchmark-browser.json``. The
exit status is 0 even when a target is missed (this is a benchmark), and
non-zero when something breaks: a widget not drawn, an error in an output, the
page or JupyterLab not answering.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import nbformat
import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from labserver import CHROMIUM_FLAGS, TOKEN, running_lab  # noqa: E402

OUT = ROOT / "test-artifacts" / "benchmark-browser.json"
SIZES = (50, 200, 500)
CHROMIUM = "/usr/bin/chromium"
VIEWPORT = {"width": 1400, "height": 1000}
WIDGETS = ("player", "baseline")  # the order of the table's rows
SAMPLE_TIMEOUT_MS = 5_000  # a picture not shown by then is a missed sample
SETTLE_TIMEOUT_MS = 120_000  # the baseline's kernel may have a backlog of pictures to work through

# Full run and --quick: single steps and jumps per widget, seconds of Play.
FULL = {"steps": 40, "jumps": 20, "play_s": 10.0}
QUICK = {"steps": 12, "jumps": 6, "play_s": 4.0}

# --- the notebook ----------------------------------------------------------------------------

SETUP_CELL = """\
import ipywidgets as widgets
import msviz
from msviz.render import png, step_image

N = {n}
click = (N // 2, N // 2)
board = msviz.random_board(N, N, max(1, N * N // 100), seed=1, safe=click)"""

PLAYER_CELL = """\
# The player under test, at its fastest.
p = msviz.player(board, click, order="dfs")
p.speed.value = 60
p.per_frame.value = 1
p.add_class("bench-player")
p"""

BASELINE_CELL = """\
# The baseline: the kit's previous player, a PNG drawn by the kernel at every step.
t = p.trace
last = len(t) - 1
image = widgets.Image(value=png(step_image(t, 0)), format="png")
slider = widgets.IntSlider(min=0, max=last, description="step", continuous_update=True,
                           layout=widgets.Layout(width="600px"))
play = widgets.Play(min=0, max=last, step=1, interval=30, description="Play", show_repeat=False)
widgets.jslink((play, "value"), (slider, "value"))

def redraw(change):
    image.value = png(step_image(t, change["new"]))

slider.observe(redraw, names="value")
baseline = widgets.VBox([widgets.HBox([play, slider]), image])
baseline.add_class("bench-baseline")
baseline"""


BIG_CELLS = [
    """\
import msviz
from msviz.viewstate import view_state

N = {n}
click = (N // 2, N // 2)
t = msviz.trace(msviz.random_board(N, N, N * N // 100, seed=1, safe=click), click)
sent = sum(len(v) for v in view_state(t).values() if isinstance(v, bytes))
print("SENT", sent)""",
    """\
# The cell measured: a player of the big reveal, from the run to its first picture.
p = msviz.player(t)
p.add_class("bench-big")
p""",
]


def write_big_notebook(folder: Path, n: int) -> str:
    """Write the notebook of one n x n player (its trace made in a cell before); return its name."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c.format(n=n)) for c in BIG_CELLS])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    name = f"bench-big-{n}.ipynb"
    nbformat.write(nb, folder / name)
    return name


def write_notebook(folder: Path, n: int) -> str:
    """Write the notebook for an n x n board into `folder`; return its name."""
    cells = [SETUP_CELL.format(n=n), PLAYER_CELL, BASELINE_CELL]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    name = f"bench-{n}.ipynb"
    nbformat.write(nb, folder / name)
    return name


# --- what runs in the page ---------------------------------------------------------------------

# Installed once in the page as window.__bench. `sample` is the latency sample
# under way: the frame count at the input and at the picture change. `play` is
# the Play run under way: the steps asked for and the pictures shown.
INSTRUMENT = """() => {
  if (window.__bench) return;
  const B = window.__bench = {
    frames: 0, lastTime: null, active: null, intervals: {}, sample: null, play: null,
    lastChange: {}, widgets: {},
  };
  // The frame counter: the first animation-frame callback of every frame, as it
  // is always requested in the previous frame, before any input asks the view
  // for a redraw.
  function tick(t) {
    B.frames++;
    if (B.lastTime !== null && B.active) (B.intervals[B.active] ||= []).push(t - B.lastTime);
    B.lastTime = t;
    const s = B.sample;
    if (s && s.changeFrame !== null && s.shownTime === null && B.frames > s.changeFrame) s.shownTime = t;
    requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
  // The input: noted before any widget sees it (capture phase on the document).
  const onInput = () => {
    const s = B.sample;
    if (s && s.inputFrame === null) { s.inputFrame = B.frames; s.inputTime = performance.now(); }
  };
  document.addEventListener("keydown", onInput, true);
  document.addEventListener("pointerdown", onInput, true);

  /** Watch widget `name`: its picture (attribute `attr` of `picture`; `extra`
   *  frames until it is on screen) and the readout of its step slider. */
  B.watch = (name, picture, attr, extra, readout) => {
    B.widgets[name] = { picture, attr, readout };
    B.lastChange[name] = performance.now();
    new MutationObserver((records) => {
      const value = picture.getAttribute(attr);
      if (!records.some((r) => r.oldValue !== value)) return; // redrawn, not changed
      B.lastChange[name] = performance.now();
      const s = B.sample;
      if (s && s.widget === name && s.inputFrame !== null && s.changeFrame === null) {
        s.changeFrame = B.frames + extra;
        s.value = value;
        s.readout = readout.textContent;
      }
      const p = B.play;
      if (p && p.widget === name && p.running) p.shown.add(value);
    }).observe(picture, { attributes: true, attributeFilter: [attr], attributeOldValue: true });
    new MutationObserver(() => {
      B.lastChange[name] = performance.now();
      const p = B.play;
      if (p && p.widget === name && p.running) p.asked.add(readout.textContent);
    }).observe(readout, { childList: true, characterData: true, subtree: true });
  };

  /** Start a latency sample of widget `name`: the next input counts. */
  B.arm = (name) => {
    B.active = name;
    B.sample = { widget: name, inputFrame: null, inputTime: null, changeFrame: null, shownTime: null,
                 value: null, readout: null };
  };
  /** The sample, once its picture is on screen; null before. */
  B.done = () => {
    const s = B.sample;
    if (!s || s.shownTime === null) return null;
    return { frames: s.changeFrame - s.inputFrame, ms: s.shownTime - s.inputTime,
             value: s.value, readout: s.readout };
  };
  B.playStart = (name) => {
    B.active = name;
    B.sample = null;
    B.play = { widget: name, running: true, asked: new Set(), shown: new Set(), t0: performance.now() };
  };
  B.playStop = () => {
    const p = B.play;
    p.running = false;
    const seconds = (performance.now() - p.t0) / 1000;
    // For the player the steps drawn are numbers that were asked for; the
    // baseline's pictures are new image sources, each one step's PNG.
    const shown = B.widgets[p.widget].attr === "data-step"
      ? [...p.shown].filter((v) => p.asked.has(v)).length : p.shown.size;
    return { seconds, asked: p.asked.size, shown };
  };
  /** Milliseconds since widget `name`'s picture or readout last changed. */
  B.quietFor = (name) => performance.now() - B.lastChange[name];
  /** The median and 90th percentile of the intervals between animation frames
      while widget `name` was measured. */
  B.frameMs = (name) => {
    const xs = (B.intervals[name] || []).slice().sort((a, b) => a - b);
    return xs.length ? [xs[Math.floor(xs.length / 2)], xs[Math.ceil(0.9 * xs.length) - 1]] : [null, null];
  };
  /** The median interval between animation frames over `ms` milliseconds of an idle page: one frame. */
  B.idleFrameMs = (ms) => new Promise((done) => {
    const times = [];
    const t0 = performance.now();
    const next = (t) => {
      times.push(t);
      if (t - t0 < ms) return requestAnimationFrame(next);
      const xs = times.slice(1).map((x, i) => x - times[i]).sort((a, b) => a - b);
      done(xs[Math.floor(xs.length / 2)]);
    };
    requestAnimationFrame(next);
  });
}"""

# The picture of each widget, the attribute that changes with it, and the
# frames from that change to the screen.
PICTURES = {
    "player": (".bench-player .msviz-view", "data-step", 0),
    "baseline": (".bench-baseline img.widget-image", "src", 1),
}
CONTAINERS = {"player": ".bench-player", "baseline": ".bench-baseline"}


class Widget:
    """One of the two widgets in the page: its slider, its Play button, its readout."""

    def __init__(self, page, name: str):
        self.page, self.name = page, name
        box = page.locator(CONTAINERS[name]).first
        self.box = box
        self.slider = box.locator(".widget-slider").first  # the step slider comes first in both
        self.handle = self.slider.locator(".noUi-handle").first
        self.track = self.slider.locator(".noUi-base").first
        self.target = self.slider.locator(".noUi-target").first
        self.readout = self.slider.locator(".widget-readout").first
        self.play_button = box.locator(".widget-play button").first
        self.last = int(float(self.handle.get_attribute("aria-valuemax")))

    def value(self) -> int:
        return int(self.readout.inner_text())

    def show(self) -> None:
        """Scroll the widget to the top of the notebook's view, unless it is there; wait for two frames."""
        self.box.evaluate("""el => new Promise(done => {
            const top = el.getBoundingClientRect().top;
            if (top >= 0 && top < innerHeight / 3) return done();
            el.scrollIntoView({block: 'start'});
            requestAnimationFrame(() => requestAnimationFrame(() => done()));
        })""")

    def watch(self) -> None:
        """Start watching the widget's picture and readout (window.__bench.watch)."""
        selector, attr, extra = PICTURES[self.name]
        picture = self.page.locator(selector).first
        self.page.evaluate(
            "([name, pic, attr, extra, out]) => window.__bench.watch(name, pic, attr, extra, out)",
            [self.name, picture.element_handle(), attr, extra, self.readout.element_handle()],
        )

    def settle(self, quiet_ms: int = 800) -> None:
        """Wait until nothing has moved for `quiet_ms` and the kernel is idle."""
        self.page.wait_for_function(
            """([name, quiet]) => window.__bench.quietFor(name) > quiet
                 && [...document.querySelectorAll('.jp-StatusBar-Widget')]
                      .some(e => e.textContent.includes('Idle'))""",
            arg=[self.name, quiet_ms],
            timeout=SETTLE_TIMEOUT_MS,
            polling=100,
        )

    def goto(self, k: int) -> None:
        """Put the slider on step k (typed into its readout) and wait until the page is quiet."""
        if self.value() != k:
            self.readout.click()
            self.page.keyboard.press("Control+A")
            self.page.keyboard.type(str(k))
            self.page.keyboard.press("Enter")
        self.page.wait_for_function(
            "([el, k]) => el.textContent.trim() === k",
            arg=[self.readout.element_handle(), str(k)],
            timeout=10_000,
        )
        self.settle()

    def sample(self, act) -> dict | None:
        """Arm a latency sample, do `act()` (the input), wait for the picture; None if missed."""
        self.page.evaluate("name => window.__bench.arm(name)", self.name)
        act()
        try:
            return self.page.wait_for_function(
                "() => window.__bench.done()", timeout=SAMPLE_TIMEOUT_MS, polling="raf"
            ).json_value()
        except Exception as error:  # Playwright's TimeoutError: the picture never came
            if "Timeout" not in type(error).__name__:
                raise
            state = self.page.evaluate("() => window.__bench.sample")
            seen = "seen" if state["inputFrame"] is not None else "NOT seen"
            print(
                f"    missed sample: {self.name}, input {seen}, slider now at {self.readout.inner_text()}",
                flush=True,
            )
            return None

    def step(self) -> dict | None:
        """One step on: ArrowRight on the focused slider handle."""
        self.handle.focus()
        return self.sample(lambda: self.page.keyboard.press("ArrowRight"))

    def jump(self, rng: random.Random) -> dict | None:
        """A jump: a mouse click on the slider's track, at least a tenth of it away from the handle."""
        box = self.track.bounding_box()
        now = self.value() / max(self.last, 1)
        while True:
            frac = rng.uniform(0.03, 0.97)
            if abs(frac - now) > 0.1:
                break
        x, y = box["x"] + frac * box["width"], box["y"] + box["height"] / 2
        on_track = self.page.evaluate(
            "([x, y, track]) => { const e = document.elementFromPoint(x, y); return !!e && track.contains(e)"
            " && !e.closest('.noUi-handle'); }",
            [x, y, self.track.element_handle()],
        )
        if not on_track:
            raise RuntimeError(f"{self.name}: the slider's track is covered at ({x:.0f}, {y:.0f})")
        # noUiSlider ignores a tap on the track for 300 ms after the last one (while it
        # animates the handle): wait for that, or the click would not move the slider.
        self.page.wait_for_function(
            "el => !el.classList.contains('noUi-state-tap')", arg=self.target.element_handle(), timeout=10_000
        )
        return self.sample(lambda: self.page.mouse.click(x, y))


# --- measuring -----------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of `values`; missed samples count as infinite."""
    xs = sorted(values)
    return xs[min(len(xs) - 1, max(0, math.ceil(q / 100 * len(xs)) - 1))]


def summary(samples: list[dict | None], frame_ms: float) -> dict:
    """Median and 90th percentile of the latency samples, in counted frames, in frames of time, in ms.

    Counted frames are those the page's frame counter went through; a long frame
    (a slow draw) counts as one. Frames of time measure the same wait by the
    clock: the milliseconds from the input to the start of the frame after the
    picture's, in frames of the idle page (`frame_ms`), less the one frame
    that follows the picture. With frames of even length the two agree.
    """
    frames = [s["frames"] if s else math.inf for s in samples]
    ms = [s["ms"] if s else math.inf for s in samples]
    timed = [x / frame_ms - 1 for x in ms]
    return {
        "n": len(samples),
        "missed": sum(s is None for s in samples),
        "median_frames": statistics.median(frames),
        "p90_frames": percentile(frames, 90),
        "median_time_frames": statistics.median(timed),
        "p90_time_frames": percentile(timed, 90),
        "median_ms": statistics.median(ms),
        "p90_ms": percentile(ms, 90),
        "frames": frames,
        "ms": [round(x, 1) for x in ms],
    }


def kernel_process(base: str, notebook: str) -> tuple[str, psutil.Process]:
    """The id and the process of the kernel of `notebook`."""
    with urllib.request.urlopen(f"{base}/api/sessions?token={TOKEN}", timeout=10) as answer:
        sessions = json.load(answer)
    session = next(s for s in sessions if s["path"].endswith(notebook))
    kernel_id = session["kernel"]["id"]
    for proc in psutil.process_iter(["cmdline"]):
        if any(f"kernel-{kernel_id}.json" in part for part in proc.info["cmdline"] or []):
            return session["id"], proc
    raise RuntimeError(f"no process found for the kernel {kernel_id} of {notebook}")


def stop_session(base: str, session_id: str) -> None:
    """Shut the notebook's kernel down, so that it takes no CPU from the next board."""
    request = urllib.request.Request(
        f"{base}/api/sessions/{session_id}", method="DELETE", headers={"Authorization": f"token {TOKEN}"}
    )
    try:
        urllib.request.urlopen(request, timeout=20).read()
    except OSError as error:
        print(f"  (could not stop the kernel: {error})", flush=True)


def cpu_seconds(proc: psutil.Process) -> float:
    times = proc.cpu_times()
    return times.user + times.system


class Traffic:
    """Count the WebSocket messages between the page and its kernels (what the kernel has to handle)."""

    def __init__(self, page):
        self.sent = self.received = 0
        page.on("websocket", self._opened)

    def _opened(self, ws) -> None:
        if "/api/kernels/" in ws.url:
            ws.on("framesent", self._sent)
            ws.on("framereceived", self._received)

    def _sent(self, _payload) -> None:
        self.sent += 1

    def _received(self, _payload) -> None:
        self.received += 1


def play_run(
    page, widget: Widget, kernel: psutil.Process, traffic: Traffic, start: int, seconds: float
) -> dict:
    """Press Play at step `start` for `seconds`.

    Returns the steps asked and pictures shown per second, the kernel's CPU and its messages.
    """
    widget.show()
    widget.goto(start)
    sent0, received0 = traffic.sent, traffic.received
    cpu0, wall0 = cpu_seconds(kernel), time.monotonic()
    page.evaluate("name => window.__bench.playStart(name)", widget.name)
    widget.play_button.click()
    page.wait_for_timeout(seconds * 1000)
    counts = page.evaluate("() => window.__bench.playStop()")
    cpu1, wall1 = cpu_seconds(kernel), time.monotonic()
    sent, received = traffic.sent - sent0, traffic.received - received0
    widget.play_button.click()  # pause
    page.wait_for_function(
        "el => el.querySelector('.fa-play')", arg=widget.play_button.element_handle(), timeout=10_000
    )
    drained = time.monotonic()
    widget.settle()  # the baseline's kernel works through the steps it was sent
    return {
        "asked_per_s": counts["asked"] / counts["seconds"],
        "shown_per_s": counts["shown"] / counts["seconds"],
        "shown_over_asked": counts["shown"] / counts["asked"] if counts["asked"] else 0.0,
        "kernel_cpu": (cpu1 - cpu0) / (wall1 - wall0),
        "seconds": counts["seconds"],
        # Messages to and from the kernel for each step asked for.
        "to_kernel_per_step": sent / counts["asked"] if counts["asked"] else None,
        "from_kernel_per_step": received / counts["asked"] if counts["asked"] else None,
        "backlog_s": time.monotonic() - drained,
    }


def check_outputs(page, notebook: str) -> None:
    """Raise if an output shows an error."""
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    texts = [errors.nth(i).inner_text() for i in range(errors.count())]
    bad = [t for t in texts if "Traceback" in t or "Error" in t]
    body = page.locator(".jp-Notebook").inner_text()
    if bad or "Error displaying widget" in body or "Traceback" in body:
        raise RuntimeError(f"{notebook}: an output shows an error:\n" + ("\n---\n".join(bad) or body)[:3000])


def check_page(page, notebook: str) -> None:
    """Raise if an output shows an error or a widget was not drawn."""
    check_outputs(page, notebook)
    if page.locator(".bench-player .msviz-view canvas").count() == 0:
        raise RuntimeError(f"{notebook}: the player's board was not drawn")
    if page.locator(".bench-baseline img.widget-image").count() != 1:
        raise RuntimeError(f"{notebook}: the baseline's image was not shown")


def open_notebook(page, base: str, notebook: str) -> None:
    """Open `notebook`, run all its cells, and wait until both widgets have drawn step 0."""
    page.goto(f"{base}/lab/tree/{notebook}?token={TOKEN}&reset")
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
    page.wait_for_selector(".jp-StatusBar-Widget:has-text('Idle')", timeout=60_000)
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
        timeout=180_000,
    )
    try:
        page.wait_for_function(
            """() => document.querySelector('.bench-player .msviz-view')?.dataset.step === '0'
                     && document.querySelector('.bench-baseline img.widget-image')?.src""",
            timeout=60_000,
        )
    except Exception:
        check_page(page, notebook)  # says what is wrong, if it can
        raise
    check_page(page, notebook)
    hide_toasts(page)


def hide_toasts(page) -> None:
    """Hide JupyterLab's notifications (such as the one asking about news): they may cover a slider."""
    page.add_style_tag(content=".Toastify { display: none !important; }")


def measure_board(page, base: str, n: int, notebook: str, plan: dict) -> dict:
    """Every figure for one board; both widgets measured in the same page."""
    t0 = time.monotonic()
    traffic = Traffic(page)
    open_notebook(page, base, notebook)
    print(f"  {n}x{n}: notebook ran in {time.monotonic() - t0:.0f} s", flush=True)
    session_id, kernel = kernel_process(base, notebook)
    page.evaluate(INSTRUMENT)
    widgets = {name: Widget(page, name) for name in WIDGETS}
    for w in widgets.values():
        w.watch()
    if widgets["player"].last != widgets["baseline"].last:
        raise RuntimeError("the two widgets do not show the same reveal")
    steps = widgets["player"].last + 1
    frame_ms = page.evaluate("() => window.__bench.idleFrameMs(1000)")
    # Single steps and Play start in the middle of the reveal, where the DFS
    # stack is deep (a reveal spends most of its steps deep in it).
    middle = steps // 2

    # 1. Latency, one sample of each widget in turn.
    for w in widgets.values():
        w.show()
        w.goto(middle)
    latency = {name: {"steps": [], "jumps": []} for name in WIDGETS}
    mismatched = 0
    for _ in range(plan["steps"]):
        for name, w in widgets.items():
            w.show()
            result = w.step()
            latency[name]["steps"].append(result)
            if name == "player" and result and result["value"] != result["readout"]:
                mismatched += 1
    rng = random.Random(n)
    for _ in range(plan["jumps"]):
        for name, w in widgets.items():
            w.show()
            result = w.jump(rng)
            latency[name]["jumps"].append(result)
            if name == "player" and result and result["value"] != result["readout"]:
                mismatched += 1
    if mismatched:
        print(
            f"  {n}x{n}: the player drew another step than its slider shows in {mismatched} samples",
            flush=True,
        )
    print(f"  {n}x{n}: latency measured ({time.monotonic() - t0:.0f} s)", flush=True)

    # 2 and 3. Play at its fastest, with the kernel's CPU.
    playing = {
        name: play_run(page, w, kernel, traffic, middle, plan["play_s"]) for name, w in widgets.items()
    }
    print(f"  {n}x{n}: Play measured ({time.monotonic() - t0:.0f} s)", flush=True)
    check_page(page, notebook)

    result = {"steps": steps, "start": middle, "idle_frame_ms": frame_ms, "widgets": {}}
    for name in WIDGETS:
        median, p90 = page.evaluate("name => window.__bench.frameMs(name)", name)
        result["widgets"][name] = {
            "step": summary(latency[name]["steps"], frame_ms),
            "jump": summary(latency[name]["jumps"], frame_ms),
            "frame_ms": median,
            "frame_ms_p90": p90,
            **playing[name],
        }
    stop_session(base, session_id)
    return result


# --- a big player in JupyterLab: its first picture, and the browser's memory for it --------------


def heap_bytes(cdp) -> float:
    """The page's JavaScript heap and array buffers, in bytes, after a full garbage collection."""
    cdp.send("HeapProfiler.collectGarbage")
    usage = cdp.send("Runtime.getHeapUsage")
    return usage["usedSize"] + usage.get("backingStorageSize", 0)


def run_cell(page, index: int) -> float:
    """Run code cell `index` (from 0) with Shift+Enter; return the page's clock at the key press."""
    cell = page.locator(".jp-Notebook .jp-CodeCell").nth(index)
    cell.locator(".jp-InputArea-prompt").click()  # selects the cell, in command mode
    pressed = page.evaluate("() => performance.now()")
    page.keyboard.press("Shift+Enter")
    return pressed


def measure_big_player(browser, base: str, notebook: str) -> dict:
    """Open the big player's notebook: ms from running the player's cell to its first picture,
    and the browser memory the view holds against the bytes the kernel sent."""
    page = browser.new_page(viewport=VIEWPORT)
    try:
        page.goto(f"{base}/lab/tree/{notebook}?token={TOKEN}&reset")
        page.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=60_000)
        page.wait_for_selector(".jp-StatusBar-Widget:has-text('Idle')", timeout=60_000)
        hide_toasts(page)
        run_cell(page, 0)
        first_output = page.locator(".jp-Notebook .jp-CodeCell").nth(0).locator(".jp-OutputArea-output")
        first_output.filter(has_text="SENT").wait_for(timeout=300_000)
        sent = int(first_output.inner_text().split("SENT")[1].split()[0])
        page.wait_for_selector(".jp-StatusBar-Widget:has-text('Idle')", timeout=60_000)
        cdp = page.context.new_cdp_session(page)
        before = heap_bytes(cdp)
        page.evaluate(
            """() => { window.__big = null; new MutationObserver((_, watch) => {
                if (document.querySelector('.bench-big .msviz-view[data-step]')) {
                  window.__big = performance.now(); watch.disconnect(); } })
              .observe(document, {subtree: true, childList: true, attributes: true,
                                  attributeFilter: ['data-step']}); }"""
        )
        pressed = run_cell(page, 1)
        page.wait_for_function("() => window.__big !== null", timeout=300_000)
        first = page.evaluate("() => window.__big") - pressed
        check_outputs(page, notebook)
        # The view's indexes for moving are made once the page is idle after the first picture.
        page.evaluate("() => new Promise(r => setTimeout(() => requestAnimationFrame(() => r()), 500))")
        after = heap_bytes(cdp)
        return {"first_ms": first, "sent_bytes": sent, "view_bytes": after - before}
    finally:
        page.close()


def print_big(figures: dict, n: int) -> None:
    print(
        f"\nA {n} x {n} player in JupyterLab: first picture {figures['first_ms']:.0f} ms after its cell"
        " is run;"
        f" the browser holds {figures['view_bytes'] / 1e6:.1f} MB for it,"
        f" {figures['view_bytes'] / figures['sent_bytes']:.2f}x the {figures['sent_bytes'] / 1e6:.1f} MB sent"
    )


# --- the exported page: a million cells, with no kernel ---------------------------------------

# Installed before the page's scripts run: when the first board is first drawn (its
# data-step set), and every long task (over 50 ms) the page runs.
PAGE_WATCH = """
window.__page = { first: null, tasks: [] };
new PerformanceObserver(list => { for (const e of list.getEntries()) window.__page.tasks.push(e.duration); })
  .observe({ type: 'longtask', buffered: true });
new MutationObserver(() => {
  if (window.__page.first === null && document.querySelector('.msviz-view[data-step]')) {
    window.__page.first = performance.now();
  }
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-step'] });
"""

# The baseline: a bare page as big as the exported one, that draws one picture of the
# board's size on a canvas as soon as it has parsed its data.
BARE_PAGE = """<!DOCTYPE html><html><body><canvas id="c" width="{w}" height="{h}"></canvas>
<script id="data" type="application/json">{data}</script>
<script type="module">
const data = JSON.parse(document.getElementById('data').textContent);
const g = document.getElementById('c').getContext('2d');
const image = g.createImageData({w}, {h});
image.data.fill(200);
g.putImageData(image, 0, 0);
document.getElementById('c').dataset.step = '0';
window.__bare = data.length;
</script></body></html>"""

BARE_WATCH = PAGE_WATCH.replace(".msviz-view[data-step]", "canvas[data-step]")


def page_load(browser, path: Path, watch: str) -> dict:
    """Open `path`; return ms to its first picture and its longest task (ms, 0 if none over 50)."""
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    try:
        page.add_init_script(watch)
        page.goto(path.as_uri())
        page.wait_for_function("() => window.__page.first !== null", timeout=120_000)
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        first, tasks = page.evaluate("() => [window.__page.first, window.__page.tasks]")
        return {"first_ms": first, "longest_task_ms": max(tasks, default=0.0)}
    finally:
        page.close()


def redraw_times(browser, path: Path, rounds: int = 9) -> dict:
    """The exported page's full redraw (every cell), and the page's idle frame interval, in ms."""
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    try:
        page.goto(path.as_uri())
        page.wait_for_function("() => window.msvizPage !== undefined", timeout=120_000)
        middle = page.evaluate("() => Math.floor(window.msvizPage.last() / 2)")
        page.evaluate(f"window.msvizPage.show({middle})")
        page.wait_for_function(f"() => document.querySelector('.msviz-view').msviz.step() === {middle}")
        redraws = [
            page.evaluate("() => document.querySelector('.msviz-view').msviz.redrawAll()")
            for _ in range(rounds)
        ]
        frames = page.evaluate(
            """() => new Promise(done => { const t = []; let last = null;
                const go = now => { if (last !== null) t.push(now - last); last = now;
                  t.length < 60 ? requestAnimationFrame(go) : done(t); };
                requestAnimationFrame(go); })"""
        )
        return {"redraw_ms": statistics.median(redraws), "frame_ms": statistics.median(frames)}
    finally:
        page.close()


def measure_exported_page(browser, folder: Path, n: int = 1000) -> dict:
    """The exported n x n page against a bare page as big; the two-board 300 x 300 page's size."""
    import msviz
    from msviz import export

    board = msviz.random_board(n, n, n * n // 100, seed=1, safe=(n // 2, n // 2))
    t = msviz.trace(board, (n // 2, n // 2))
    big = export.save_html(t, folder / "page-1000.html")
    data = json.dumps("x" * (big.stat().st_size - 600))  # as many bytes to parse as the real page
    bare = folder / "bare-1000.html"
    bare.write_text(BARE_PAGE.format(w=n, h=n, data=data))
    page = page_load(browser, big, PAGE_WATCH)
    baseline = page_load(browser, bare, BARE_WATCH)
    redraw = redraw_times(browser, big)
    small = msviz.random_board(300, 300, 900, seed=1, safe=(150, 150))
    pair = export.page_html([msviz.trace(small, (150, 150), order=o) for o in ("dfs", "bfs")])
    return {
        "side": n,
        "cells": n * n,
        "page_bytes": big.stat().st_size,
        "page": page,
        "bare": baseline,
        **redraw,
        "two_boards_300_bytes": len(pair.encode()),
    }


def print_page(figures: dict) -> None:
    p, b = figures["page"], figures["bare"]
    print(
        f"\nThe exported page of a {figures['side']} x {figures['side']} board "
        f"({figures['page_bytes'] / 1e6:.1f} MB), against a bare page as big drawing one canvas:"
    )
    print(
        f"  first picture {p['first_ms']:.0f} ms (bare page {b['first_ms']:.0f} ms,"
        f" {p['first_ms'] / b['first_ms']:.2f}x); longest task {p['longest_task_ms']:.0f} ms"
        f" (bare page {b['longest_task_ms']:.0f} ms)"
    )
    print(
        f"  a full redraw of every cell: {figures['redraw_ms']:.1f} ms,"
        f" {figures['redraw_ms'] / figures['frame_ms']:.2f} of the page's own frame"
        f" ({figures['frame_ms']:.1f} ms)"
    )
    print(f"  the default two-board 300 x 300 page: {figures['two_boards_300_bytes'] / 1e6:.2f} MB")


def big_targets(figures: dict | None, n: int) -> list[dict]:
    """The big player's targets in JupyterLab, as rows for the table (none with --page-only)."""
    if not figures:
        return []
    ratio = figures["view_bytes"] / figures["sent_bytes"]
    return [
        {
            "target": f"JupyterLab {n}x{n} player: first picture <= 2.5 s after its cell runs",
            "value": figures["first_ms"],
            "limit": 2500,
            "unit": " ms",
            "ok": figures["first_ms"] <= 2500,
        },
        {
            "target": f"JupyterLab {n}x{n} player: browser memory <= 2x the bytes sent",
            "value": ratio,
            "limit": 2,
            "unit": "x",
            "ok": ratio <= 2,
        },
    ]


def page_targets(figures: dict) -> list[dict]:
    """The exported page's targets, as rows for the table."""
    rows = []
    n = figures["side"]
    for label, value, limit, unit in (
        (f"exported {n}x{n} page: first picture <= 1 s", figures["page"]["first_ms"], 1000, " ms"),
        (f"exported {n}x{n} page: no task over 200 ms", figures["page"]["longest_task_ms"], 200, " ms"),
        (
            f"exported {n}x{n} page: full redraw within one frame",
            figures["redraw_ms"] / figures["frame_ms"],
            1.0,
            " frames",
        ),
        ("two-board 300x300 page <= 4 MB", figures["two_boards_300_bytes"] / 1e6, 4.0, " MB"),
    ):
        rows.append(
            {"target": label, "value": value, "limit": limit, "unit": unit, "ok": bool(value <= limit)}
        )
    return rows


# --- the report ------------------------------------------------------------------------------


def targets(results: dict) -> list[dict]:
    """Each target, its figure and whether it is met."""
    rows = []

    def add(label, value, limit, higher_is_better=False, unit=""):
        ok = value >= limit if higher_is_better else value <= limit
        rows.append({"target": label, "value": value, "limit": limit, "unit": unit, "ok": bool(ok)})

    for n, frames in ((200, 1), (500, 2)):
        player = results.get(str(n), {}).get("widgets", {}).get("player")
        if not player:
            continue
        for kind, what in (("step", "single step"), ("jump", "jump")):
            add(
                f"{n}x{n} player: {what}, median latency <= {frames} frame(s), counted",
                player[kind]["median_frames"],
                frames,
                unit=" frames",
            )
            add(
                f"{n}x{n} player: {what}, median latency <= {frames} frame(s), by the clock",
                player[kind]["median_time_frames"],
                frames,
                unit=" frames",
            )
    player = results.get("200", {}).get("widgets", {}).get("player")
    if player:
        add(
            "200x200 player: Play at 60 frames/s, shown/asked >= 90%",
            100 * player["shown_over_asked"],
            90,
            higher_is_better=True,
            unit="%",
        )
        add(
            "200x200 player: Play asked for 60 a second shows >= 54 pictures/s",
            player["shown_per_s"],
            54,
            higher_is_better=True,
            unit="/s",
        )
    for n, result in results.items():
        add(
            f"{n}x{n} player: kernel CPU while playing <= 5% of a core",
            100 * result["widgets"]["player"]["kernel_cpu"],
            5,
            unit="%",
        )
    return rows


def fmt(x: float | None, digits: int | None = None) -> str:
    """A figure for the table, with `digits` decimals (as short as it goes if None); 'miss' or '-'."""
    if x is None:
        return "-"
    if x == math.inf:
        return "miss"
    return f"{x:g}" if digits is None else f"{x:.{digits}f}"


def print_table(results: dict, rows: list[dict]) -> None:
    latency = f"{'counted':>9} {'clock':>9} {'ms':>5}"
    header = (
        f"{'board':>7} {'widget':<8} | {'single step latency':^25} | {'jump latency':^25} |"
        f" {'rAF ms':^9} | {'asked/s':>7} {'shown/s':>7} {'shown/':>6} | {'kernel':>6}"
    )
    blank = ""
    under = (
        f"{blank:>7} {blank:<8} | {latency} | {latency} | {'med/p90':^9} | "
        f"{blank:>7} {blank:>7} {'asked':>6} | {'CPU':>6}"
    )
    print()
    print(
        "Latency from the input to the new picture, median/p90: 'counted' in frames the page's frame counter"
    )
    print(
        "went through (a long frame counts once), 'clock' in frames of the idle page by the clock, 'ms' the"
    )
    print("median milliseconds from the input to the frame after the picture's. 'miss': no picture in 5 s.")
    print()
    print(header)
    print(under)
    print("-" * len(header))
    for n, result in results.items():
        for name in WIDGETS:
            w = result["widgets"][name]
            cells = []
            for kind in ("step", "jump"):
                x = w[kind]
                counted = f"{fmt(x['median_frames'])}/{fmt(x['p90_frames'])}"
                clock = f"{fmt(x['median_time_frames'], 1)}/{fmt(x['p90_time_frames'], 1)}"
                cells.append(f"{counted:>9} {clock:>9} {fmt(x['median_ms'], 0):>5}")
            frame = f"{fmt(w['frame_ms'], 0)}/{fmt(w['frame_ms_p90'], 0)}"
            print(
                f"{n + 'x' + n:>7} {name:<8} | {cells[0]} | {cells[1]} | {frame:^9} |"
                f" {w['asked_per_s']:7.1f} {w['shown_per_s']:7.1f} {100 * w['shown_over_asked']:5.0f}% |"
                f" {100 * w['kernel_cpu']:5.1f}%"
            )
    print()
    print("Player against baseline (same page, same run; below 1 means the player is faster or lighter):")
    for n, result in results.items():
        p, b = result["widgets"]["player"], result["widgets"]["baseline"]

        def ratio(x, y):
            return "-" if not y or x in (None, math.inf) or y in (None, math.inf) else f"{x / y:.2f}x"

        print(
            f"  {n}x{n} ({result['steps']:,} steps, Play and single steps from step {result['start']:,}):"
            f" latency in ms: steps {ratio(p['step']['median_ms'], b['step']['median_ms'])},"
            f" jumps {ratio(p['jump']['median_ms'], b['jump']['median_ms'])};"
            f" kernel CPU {ratio(p['kernel_cpu'], b['kernel_cpu'])};"
            f" pictures shown/s {ratio(p['shown_per_s'], b['shown_per_s'])} (above 1: more pictures)"
        )
    print()
    print("Targets:")
    for row in rows:
        value = row["value"]
        shown = "miss" if value == math.inf else f"{value:.3g}{row['unit']}"
        print(f"  {'OK  ' if row['ok'] else 'MISS'} {row['target']:<66} {shown}")


def jsonable(x):
    """Infinite figures (missed samples) as null in the JSON."""
    if isinstance(x, dict):
        return {k: jsonable(v) for k, v in x.items()}
    if isinstance(x, list):
        return [jsonable(v) for v in x]
    if isinstance(x, float) and math.isinf(x):
        return None
    return x


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="fewer samples and shorter Play runs (about 2 minutes)"
    )
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=list(SIZES), help="board sides (default 50 200 500)"
    )
    parser.add_argument("--chromium", default=CHROMIUM, help=f"the browser (default {CHROMIUM})")
    parser.add_argument(
        "--page-only",
        action="store_true",
        help="only the exported page's figures (about 30 s), no JupyterLab",
    )
    parser.add_argument(
        "--big-only",
        action="store_true",
        help="only the exported page and the big player in JupyterLab (about a minute)",
    )
    parser.add_argument(
        "--page-size", type=int, default=1000, help="the exported page's board side (default 1000)"
    )
    args = parser.parse_args(argv)
    plan = QUICK if args.quick else FULL
    from playwright.sync_api import sync_playwright

    started = time.monotonic()
    print(
        f"msviz browser benchmark{' (--quick)' if args.quick else ''}: boards "
        + ", ".join(f"{n}x{n}" for n in args.sizes)
        + f"; {plan['steps']} steps and {plan['jumps']} jumps a widget; Play for {plan['play_s']:g} s",
        flush=True,
    )
    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="msviz-bench-") as tmp:
        workdir = Path(tmp)
        root = workdir / "notebooks"
        root.mkdir()
        notebooks = {n: write_notebook(root, n) for n in args.sizes}
        big_notebook = write_big_notebook(root, args.page_size)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, headless=True, args=CHROMIUM_FLAGS)
            try:
                page_figures = measure_exported_page(browser, workdir, args.page_size)
                print_page(page_figures)
            finally:
                browser.close()
        with running_lab(root, workdir) as base, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, headless=True, args=CHROMIUM_FLAGS)
            try:
                big = None if args.page_only else measure_big_player(browser, base, big_notebook)
                if big:
                    print_big(big, args.page_size)
                for n in [] if args.page_only or args.big_only else args.sizes:
                    page = browser.new_page(viewport=VIEWPORT)
                    try:
                        results[str(n)] = measure_board(page, base, n, notebooks[n], plan)
                    finally:
                        page.close()
                version = browser.version
            finally:
                browser.close()

    rows = page_targets(page_figures) + big_targets(big, args.page_size) + targets(results)
    if results:
        print_table(results, rows)
    else:
        print("\nTargets:")
        for row in rows:
            print(f"  {'OK  ' if row['ok'] else 'MISS'} {row['target']:<66} {row['value']:.3g}{row['unit']}")
    seconds = time.monotonic() - started
    print(f"\n{sum(r['ok'] for r in rows)} of {len(rows)} targets met; the run took {seconds:.0f} s")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(
        json.dumps(
            jsonable(
                {
                    "quick": args.quick,
                    "plan": plan,
                    "chromium": version,
                    "python": platform.python_version(),
                    "cpus": psutil.cpu_count(),
                    "seconds": seconds,
                    "boards": results,
                    "exported_page": page_figures,
                    "big_player": big,
                    "targets": rows,
                }
            ),
            indent=2,
        )
        + "\n"
    )
    print(f"figures written to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
