"""One student's whole core lesson on a server: its memory notebook by notebook, and its CPU at Play.

Run it with ``.venv/bin/python benchmarks/lesson.py`` (about 3 minutes). Needs
what the browser tests need: Debian's Chromium at /usr/bin/chromium and the
Python package ``playwright``.

A class on a hub runs every core notebook (01 to 05), each in a kernel of its
own, and a kernel stays alive after its tab is left. So what one student
costs a server is the single-user server with every kernel still alive, not
one notebook's. This benchmark starts JupyterLab on 127.0.0.1 (a student's
single-user server) and, in one headless Chromium (one student, the browser
not starved of CPU):

1. opens the core notebooks in the lesson's order, runs each (Run All), waits
   until every board shows the reveal it was asked for (not a lone grey cell)
   and no output shows an error, then measures the server and its kernels'
   memory (RSS, and PSS, which shares the common libraries out);
2. in notebook 03, presses Play (``button[data-control=play]``) on the first
   player, at its own speed (the lesson's: 10 moves a second, each of its
   ``per_frame`` steps) and measures the server side's CPU while it plays:
   the cores one student playing costs a server (the player plays in the
   browser and tells the kernel its step twice a second);
3. leaves the server idle until its own culler (``MappingKernelManager``,
   ``--cull-after`` seconds here, the guide's 15 minutes in class) has shut
   every idle kernel down, and measures the memory left.

Then the memory of a student through a 50-minute lesson with culling: the
kernels alive at each minute of the guide's timeline (each notebook's kernel
lives from its block's start until 15 minutes after its block ends), at their
measured sizes. The class sizes follow: memory (a server's RAM, less 512 MB for
the system and the hub's own measured in ``benchmarks/classroom.py``) over the
peak a student takes; CPU, the cores over what a student playing costs. The
figures go to ``test-artifacts/benchmark-lesson.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from labserver import CHROMIUM_FLAGS, TOKEN, running_lab, wait_for_kernel  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from classroom import (  # noqa: E402
    GUIDE,
    SYSTEM_MB,
    class_culling,
    class_size,
    cpu_seconds,
    kernels,
    lesson_plan,
    memory,
    shown_code_cells,
)

OUT = ROOT / "test-artifacts" / "benchmark-lesson.json"
CHROMIUM = "/usr/bin/chromium"
#: The core path in the lesson's order, with each block's start and end minute, from the guide.
CORE = lesson_plan(GUIDE.read_text(encoding="utf-8"))
#: Idle kernels are culled after this many minutes in class (docs/jupyterhub_config.py).
CLASS_CULL_MINUTES = class_culling()["cull_idle_timeout"] / 60
#: The hub and its proxy, measured by benchmarks/classroom.py (docs/teaching.md), MB.
HUB_MB = 189
PATIENCE_MS = 120_000

# Every board view drawn, and showing the reveal it was asked for: a board bigger than the
# empty one-cell default, and (when it shows a step) some cell uncovered.
BOARDS_SHOWN = """() => {
  const views = [...document.querySelectorAll('.jp-Notebook .msviz-view')];
  return views.every(v => v.dataset.step !== undefined && v.msviz && v.msviz.rows() * v.msviz.cols() > 1
    && (v.msviz.step() < 0 || v.msviz.sprites().some(c => c >= 2 && c <= 11)));
}"""


def shows_a_reveal(rows: int, cols: int, step: int, sprites: list[int]) -> bool:
    """Whether a drawn board shows the reveal asked for (BOARDS_SHOWN, in Python for the tests):
    more than one cell, and some cell uncovered once a step is shown.

    Examples
    --------
    >>> shows_a_reveal(1, 1, 0, [2]), shows_a_reveal(3, 3, 0, [0] * 9), shows_a_reveal(3, 3, 0, [2] + [0] * 8)
    (False, False, True)
    """
    return rows * cols > 1 and (step < 0 or any(2 <= c <= 11 for c in sprites))


def server_processes() -> list[psutil.Process]:
    """The JupyterLab server this script started, and its kernels."""
    for p in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if any(a.startswith("--ServerApp.root_dir") for a in p.cmdline()):
                return [p, *p.children(recursive=True)]
    raise RuntimeError("the JupyterLab server is gone")


def memory_mb(procs: list[psutil.Process]) -> dict:
    """The server and its kernels' memory (RSS and PSS, MB), and how many kernels there are."""
    return {"rss_mb": memory(procs), "pss_mb": memory(procs, pss=True), "kernels": kernels(procs)}


def run_notebook(page, base: str, name: str) -> None:
    """Open `name` and run all, wait for every board. The earlier notebooks' kernels stay alive on the
    server, as when a student moves on to the next notebook (the page shows only this one)."""
    cells = page.request.get(f"{base}/api/contents/{name}?token={TOKEN}").json()["content"]["cells"]
    page.goto(f"{base}/lab/tree/{name}?token={TOKEN}&reset")
    page.wait_for_function(
        "n => document.querySelectorAll('.jp-Notebook .jp-CodeCell').length === n",
        arg=sum(c["cell_type"] == "code" for c in cells),
    )
    page.wait_for_function(
        "() => document.querySelector('.jp-Notebook-ExecutionIndicator')?.dataset.status === 'idle'"
    )
    wait_for_kernel(page, base, name, PATIENCE_MS)  # the server says so too, the page connected
    page.click(".lm-MenuBar-item:has-text('Run')")
    page.click(".lm-Menu-item:not(.lm-mod-disabled):has-text('Run All Cells')")
    page.wait_for_function(
        """n => [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')]
            .filter(p => /\\[\\d+\\]/.test(p.textContent)).length === n""",
        arg=shown_code_cells(name),
    )
    page.wait_for_function(BOARDS_SHOWN)
    body = page.locator(".jp-Notebook").inner_text()
    if "Traceback" in body or "Error displaying widget" in body:
        raise RuntimeError(f"{name}: an output shows an error")


def play(page, seconds: float) -> dict:
    """Press Play on the first player of the notebook shown, at its own speed, for `seconds`; the
    steps and moves drawn a second, and the server side's CPU meanwhile."""
    player = page.locator(".msviz-stage:has([data-control=play])").first
    view = player.locator(".msviz-view").first
    button = player.locator("button[data-control=play]").first
    player.scroll_into_view_if_needed()
    start = int(view.get_attribute("data-step"))
    per_frame = int(player.locator("input[data-control=per_frame]").input_value())
    procs = server_processes()
    cpu0, t0 = cpu_seconds(procs), time.monotonic()
    button.click()
    page.wait_for_timeout(seconds * 1000)
    end = int(view.get_attribute("data-step"))
    cpu1, t1 = cpu_seconds(procs), time.monotonic()
    if player.evaluate("el => el.msviz.playing()"):  # Play stops by itself at the last step
        button.click()
    steps = max(0, end - start)
    if steps == 0:
        raise RuntimeError("Play did not move the board")
    return {
        "steps_per_s": steps / (t1 - t0),
        "moves_per_s": steps / per_frame / (t1 - t0),
        "per_frame": per_frame,
        "server_cores": (cpu1 - cpu0) / (t1 - t0),
    }


def lesson_peak(kernel_mb: dict, server_mb: float, cull_minutes: float = CLASS_CULL_MINUTES) -> tuple:
    """The most memory a student's server takes in the 50 minutes, with idle kernels culled after
    `cull_minutes`: each notebook's kernel lives from its block's start until `cull_minutes` after
    its end. Returns (MB, the minute it is reached, the notebooks alive then).

    Examples
    --------
    >>> lesson_peak({name: 100 for name, _, _ in CORE}, 50)
    (350, 15, ['01-start-here.ipynb', '02-the-rules.ipynb', '03-depth-first.ipynb'])
    >>> lesson_peak({name: 100 for name, _, _ in CORE}, 50, cull_minutes=60)[0]  # no culling in class
    550
    """
    best = (0.0, 0, [])
    for minute in range(0, 51):
        alive = [name for name, start, end in CORE if start <= minute < end + cull_minutes]
        total = server_mb + sum(kernel_mb[name] for name in alive)
        if total > best[0]:
            best = (total, minute, alive)
    return best


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chromium", default=CHROMIUM)
    parser.add_argument("--seconds", type=float, default=10, help="seconds of Play (default 10)")
    parser.add_argument(
        "--cull-after",
        type=int,
        default=90,
        help="seconds idle before the server culls a kernel here (90: longer than the notebooks take)",
    )
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    cull = [
        f"--MappingKernelManager.cull_idle_timeout={args.cull_after}",
        "--MappingKernelManager.cull_interval=5",
        "--MappingKernelManager.cull_connected=True",
    ]
    figures: dict = {"notebooks": [], "cull_after_s": args.cull_after}
    with tempfile.TemporaryDirectory(prefix="msviz-lesson-") as tmp:
        work = Path(tmp)
        root = work / "notebooks"
        shutil.copytree(ROOT / "notebooks", root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        with running_lab(root, work, extra=tuple(cull)) as base, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, headless=True, args=CHROMIUM_FLAGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(PATIENCE_MS)
            figures["idle_server"] = memory_mb(server_processes())
            before = figures["idle_server"]["rss_mb"]
            for name, _, _ in CORE:
                t0 = time.monotonic()
                run_notebook(page, base, name)
                now = memory_mb(server_processes())
                row = {
                    "name": name,
                    "seconds": time.monotonic() - t0,
                    **now,
                    "kernel_rss_mb": now["rss_mb"] - before,
                }
                before = now["rss_mb"]
                if now["kernels"] != len(figures["notebooks"]) + 1:
                    raise RuntimeError(
                        f"{now['kernels']} kernels alive after {name}: one was culled or died"
                        " during the lesson; give a larger --cull-after"
                    )
                figures["notebooks"].append(row)
                print(
                    f"  after {name:<28} server and {now['kernels']} kernels: RSS {now['rss_mb']:5.0f} MB,"
                    f" PSS {now['pss_mb']:5.0f} MB ({row['seconds']:.0f} s)",
                    flush=True,
                )
                if name.startswith("03"):
                    figures["play"] = play(page, args.seconds)
                    p = figures["play"]
                    print(
                        f"  Play in 03: {p['moves_per_s']:.1f} moves/s drawn ({p['per_frame']} step(s)"
                        f" a move, {p['steps_per_s']:.0f} steps/s); the server side"
                        f" {p['server_cores']:.3f} of a core",
                        flush=True,
                    )
            page.goto("about:blank")  # the student leaves: every kernel is idle from now on
            deadline = time.monotonic() + args.cull_after + 60
            while memory_mb(server_processes())["kernels"] > 0 and time.monotonic() < deadline:
                time.sleep(2)
            figures["after_culling"] = memory_mb(server_processes())
            browser.close()
    server = figures["idle_server"]["rss_mb"]
    kernel_mb = {row["name"]: row["kernel_rss_mb"] for row in figures["notebooks"]}
    peak, minute, alive = lesson_peak(kernel_mb, server)
    no_cull = lesson_peak(kernel_mb, server, cull_minutes=60)[0]
    cores = figures["play"]["server_cores"]
    figures["lesson"] = {
        "peak_mb": peak,
        "minute": minute,
        "alive": alive,
        "peak_without_culling_mb": no_cull,
    }
    figures["class"] = {
        f"{gb} GB, {c} cores": class_size(c, gb, peak, HUB_MB, cores) for gb, c in ((8, 2), (16, 4))
    }
    a = figures["after_culling"]
    print(f"  after {args.cull_after} s idle: {a['kernels']} kernels left, RSS {a['rss_mb']:.0f} MB")
    print(
        f"\nOne student through the 50-minute lesson, idle kernels culled after {CLASS_CULL_MINUTES:g} min:"
        f" at most {peak:.0f} MB RSS (minute {minute}: {len(alive)} kernels alive);"
        f" {no_cull:.0f} MB with no culling"
    )
    for label, size in figures["class"].items():
        print(
            f"  {label}: {size['by_memory']} students by memory ({SYSTEM_MB} MB for the system,"
            f" {HUB_MB} MB for the hub), {size['by_cpu']} by CPU if all play at once"
            f" ({cores:.3f} of a core each): {size['students']}"
        )
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"figures written to {OUT.relative_to(ROOT)}")
    if a["kernels"]:
        print("the culler left kernels alive")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
