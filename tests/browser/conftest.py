"""Fixtures shared by the browser tests of the exported page: a page of traces, a page of a quiz.

Both are opened from file:// in their own browser context; the page of traces
refuses every network request and records it, and both record any script error.
"""

from __future__ import annotations

import json

import pytest
from chromium import PATIENCE

import msviz
from msviz import export


@pytest.fixture
def open_page(browser, tmp_path):
    """Write a page of `traces` and open it from file:// with every network request refused."""
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
# The page's own controls (Play, the slider) are not part of a quiz, nor its note on the keys.
QUIZ_ONLY = ".msviz-controls, body > p { display: none !important; }"


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
        "step",
        "keyboard",
        "show_frontier",
        "show_legend",
        "code",
        "code_lines",
        "words",
        "max_cell",
    ):
        state["boards"][0][name] = getattr(q.view, name)
    return head + DATA_TAG + json.dumps(state).replace("</", "<\\/") + "</script>" + tail


@pytest.fixture
def open_quiz(browser, tmp_path):
    """Open a page of quiz `q` from file://; record what the view sends to the kernel, and any error."""
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
