"""What the browser tests share: screenshots, and reading what a board view drew.

The `browser` fixture itself (Debian's Chromium driven by Playwright, one for
the whole run) is in tests/conftest.py.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "screenshots"

#: How long, in ms, a browser test waits for a state (a selector, a condition)
#: before it calls the wait a hang. Long on purpose: a loaded machine (a shared
#: CI runner, a busy hub) makes the tests slower, never makes them fail. Every
#: wait is for a state, never for a time to pass.
PATIENCE = int(os.environ.get("MSVIZ_PATIENCE_MS", 600_000))  # shorter to find a hang while debugging


def shoot(target, name: str):
    """Save a screenshot of a page or of one element in the artefacts folder."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(SHOTS / f"{Path(name).stem}.png"))


# Read what a board view drew, through the handle view.js puts on its root element.
DRAWN = """root => ({step: root.msviz.step(), sprites: root.msviz.sprites(),
                    variants: root.msviz.variants(), caption: root.msviz.caption()})"""
CANVAS_PIXELS = """root => {
    let h = 0;
    const cells = root.querySelector('canvas.msviz-cells');
    for (const c of root.querySelectorAll('canvas')) {  // the cells, and the path or queue drawn over them
        const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 0; i < data.length; i += 7) h = (h * 31 + data[i]) | 0;
    }
    return [cells.width, cells.height, h];
}"""

#: Wait `n` frames of the page: a wait counted in frames, not in time.
FRAMES = (
    "n => new Promise(done => { "
    "const go = k => (k ? requestAnimationFrame(() => go(k - 1)) : done()); go(n); })"
)


def serious(results) -> list[str]:
    """The critical and serious violations axe-core found, one line each: rule, impact, where."""
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}"
        for v in results.response["violations"]
        if v["impact"] in ("critical", "serious")
    ]


def cursor_to_next_cell(page, t, click):
    """Focus the first view of `page` and move its keyboard cursor from `click` (where the first key
    puts it) to the cell of step 1 of trace `t`: a row's arrow, then a column's. Return the view and
    that cell."""
    view = page.locator(".msviz-view").first
    view.focus()
    page.keyboard.press("ArrowUp")  # the first key puts the cursor on the cell of this step: the click
    target = (int(t.row[1]), int(t.col[1]))
    keys = {(1, 0): "ArrowDown", (-1, 0): "ArrowUp", (0, 1): "ArrowRight", (0, -1): "ArrowLeft"}
    for dr, dc in [
        ((target[0] > click[0]) - (target[0] < click[0]), 0),
        (0, (target[1] > click[1]) - (target[1] < click[1])),
    ]:
        if (dr, dc) != (0, 0):
            page.keyboard.press(keys[(dr, dc)])
    page.evaluate(FRAMES, 2)
    return view, target
