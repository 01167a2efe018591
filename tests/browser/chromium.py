"""What the browser tests share: Debian's Chromium driven by Playwright, and screenshots.

Needs Debian's ``chromium`` (``apt-get install chromium``; .ci/run installs it)
and the Python package ``playwright`` (no browser download: Chromium is given
by path).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

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


@pytest.fixture(scope="session")
def browser():
    executable = chromium_path()
    playwright = pytest.importorskip("playwright.sync_api")  # installed by the test extra
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


def shoot(target, name: str):
    """Save a screenshot of a page or of one element in the artefacts folder."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(SHOTS / f"{Path(name).stem}.png"))


# Read what a board view drew, through the handle view.js puts on its root element.
DRAWN = """root => ({step: root.msviz.step(), sprites: root.msviz.sprites(),
                    variants: root.msviz.variants(), caption: root.msviz.caption()})"""
CANVAS_PIXELS = """root => {
    const c = root.querySelector('canvas');
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let h = 0;
    for (let i = 0; i < data.length; i += 7) h = (h * 31 + data[i]) | 0;
    return [c.width, c.height, h];
}"""
