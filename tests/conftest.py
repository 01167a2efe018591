"""Shared strategies and helpers for the tests."""

import copy
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import strategies as st
from labserver import CHROMIUM_FLAGS

import msviz  # noqa: E402
from msviz import export


@st.composite
def boards(draw, max_side=10):
    """A hidden board (only M and E) of any size, built cell by cell so that it shrinks.

    A failing board shrinks to fewer rows, fewer columns and fewer mines (a cell
    shrinks to "E", the first choice), as small as still fails.
    """
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    cell = st.sampled_from(["E", "E", "E", "M"]) if draw(st.booleans()) else st.sampled_from(["E", "M"])
    row = st.lists(cell, min_size=cols, max_size=cols)
    return draw(st.lists(row, min_size=rows, max_size=rows))


@st.composite
def games(draw, max_side=10):
    """(board, click): a board, possibly mid-game after earlier clicks, and a new click."""
    board = draw(boards(max_side))
    rows, cols = len(board), len(board[0])
    cell = st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1))
    for earlier in draw(st.lists(cell, max_size=3)):
        if board[earlier[0]][earlier[1]] == "E":  # an earlier safe click
            board = msviz.reveal(board, earlier)
    return board, draw(cell)


def neighbour_orders():
    """READING_ORDER, LEETCODE_ORDER and random orderings of the eight offsets."""
    return st.one_of(
        st.just(msviz.READING_ORDER),
        st.just(msviz.LEETCODE_ORDER),
        st.permutations(msviz.READING_ORDER).map(tuple),
    )


@pytest.fixture
def example1():
    return [list("EEEEE"), list("EEMEE"), list("EEEEE"), list("EEEEE")]


def unchanged(board):
    """A deep copy to compare the caller's board with afterwards."""
    return copy.deepcopy(board)


# --- The browser, for tests/browser/: one headless Chromium for the whole run -------------


#: Where Chromium or Chrome is found, besides the command names on PATH.
KNOWN_PLACES = [
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    r"C:\Program Files\Google\Chrome\Application\chrome.exe",
    r"C:\Program Files (x86)\Google\Chrome\Application\chrome.exe",
]
HOW_TO_INSTALL = (
    "install Chromium (Debian/Ubuntu: 'sudo apt-get install chromium'; "
    "macOS: 'brew install --cask chromium'; Windows: Google Chrome) and run 'python3 dev.py test' again"
)


def find_chromium() -> str | None:
    """The path of Chromium (or Chrome) on this machine, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return next((place for place in KNOWN_PLACES if Path(place).exists()), None)


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def pytest_report_header(config):
    if find_chromium() is None:
        verdict = "a failure in CI" if in_ci() else "reported as skipped"
        return f"browser tests: Chromium not found ({verdict}); to run them, {HOW_TO_INSTALL}"
    return None


def pytest_collection_modifyitems(config, items):
    """Without Chromium, outside CI, the browser tests are skipped, with one line saying how to run them."""
    if find_chromium() is not None or in_ci():
        return
    skip = pytest.mark.skip(reason=f"Chromium not found: {HOW_TO_INSTALL}")
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(skip)


def chromium_path() -> str:
    found = find_chromium()
    if found is None:  # in CI, a missing browser is a failure, never a skip
        pytest.fail(
            f"Chromium was not found, so the browser tests cannot run: {HOW_TO_INSTALL}", pytrace=False
        )
    return found


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium, driven by Playwright (no browser download: it is given by path)."""
    executable = chromium_path()
    playwright = pytest.importorskip("playwright.sync_api")  # installed by the test extra
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


# --- the exported page in the browser tests: a page of traces, a page of a quiz ----------------
#
# Each is opened from file:// in its own browser context; the page of traces refuses every
# network request and records it, and both record any script error.


@pytest.fixture
def open_page(browser, tmp_path):
    """Write a page of `traces` and open it from file:// with every network request refused."""
    from chromium import PATIENCE  # tests/browser/chromium.py, on the path of the browser tests

    pages = []

    def open_(traces, name="page", viewport=(1024, 768)):
        path = export.save_html(traces, tmp_path / f"{name}.html")
        context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        context.set_default_timeout(PATIENCE)
        asked, problems = [], []

        def route(r):
            url = r.request.url
            if url.startswith(("file:", "blob:", "data:")):
                return r.continue_()
            asked.append(url)
            return r.abort()

        context.route("**/*", route)
        page = context.new_page()
        page.on("requestfailed", lambda r: problems.append(f"failed: {r.url}"))
        page.on("pageerror", lambda e: problems.append(f"error: {e}"))
        page.on("console", lambda m: problems.append(f"console: {m.text}") if m.type == "error" else None)
        page.goto(path.as_uri())
        page.wait_for_function("window.msvizPage !== undefined", timeout=PATIENCE)
        page.asked, page.problems = asked, problems
        pages.append(context)
        return page

    yield open_
    for context in pages:
        context.close()


DATA_TAG = '<script id="msviz-data" type="application/json">'
# The page's note on the keys is not part of a quiz.
QUIZ_ONLY = "body > p { display: none !important; }"


def quiz_page(q) -> str:
    """An exported page of quiz `q`'s reveal, its view given the traits the quiz's view has."""
    page = export.page_html(q.trace, title=f"Predict the next cell: {msviz.words.TITLES[q.trace.order]}")
    head, rest = page.split(DATA_TAG, 1)
    data, tail = rest.split("</script>", 1)
    state = json.loads(data)
    for name in (
        "quiz",
        "quiz_right",
        "quiz_tries",
        "quiz_last",
        "quiz_returned",
        "step",
        "keyboard",
        "show_frontier",
        "show_legend",
        "code",
        "code_lines",
        "words",
        "max_cell",
    ):
        state["stage"][name] = getattr(q.view, name)
    state["stage"]["controls"] = False  # a quiz has no control bar, as in a notebook
    return head + DATA_TAG + json.dumps(state).replace("</", "<\\/") + "</script>" + tail


@pytest.fixture
def open_quiz(browser, tmp_path):
    """Open a page of quiz `q` from file://; record what the view sends to the kernel, and any error."""
    from chromium import PATIENCE

    contexts = []

    def open_(q, viewport=(1024, 768)):
        path = tmp_path / f"quiz-{q.trace.order}.html"
        path.write_text(quiz_page(q), encoding="utf-8")
        context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        context.set_default_timeout(PATIENCE)
        contexts.append(context)
        page = context.new_page()
        problems = []
        page.on("pageerror", lambda e: problems.append(f"error: {e}"))
        page.on("console", lambda m: problems.append(f"console: {m.text}") if m.type == "error" else None)
        page.goto(path.as_uri())
        page.wait_for_function("window.msvizPage !== undefined", timeout=PATIENCE)
        page.add_style_tag(content=QUIZ_ONLY)
        page.evaluate(
            "() => { window.sent = []; window.msvizPage.models[0].send = m => window.sent.push(m); }"
        )
        page.problems = problems
        return page

    yield open_
    for context in contexts:
        context.close()


# --- the lesson as a website (msviz.site), built once by the guide's command ------------------


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The lesson's website, built by ``python -m msviz site`` (each notebook run by nbclient and
    converted by nbconvert)."""
    out = tmp_path_factory.mktemp("site") / "site"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "msviz",
            "site",
            str(Path(__file__).resolve().parents[1] / "notebooks"),
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out
