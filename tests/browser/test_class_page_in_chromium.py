"""class.html in a real browser: a name holding a right-to-left override reorders nothing after it."""

from __future__ import annotations

import pytest
from chromium import PATIENCE

from msviz.grade.page import class_page
from msviz.grade.rows import Row

#: The x of each character of " (bob)" after the first name, as Chromium lays it out.
LAID_OUT = """() => {
    const th = document.querySelector('tbody th');
    const x = (node, i) => {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        return range.getBoundingClientRect().left;
    };
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    const texts = [];
    while (walker.nextNode()) texts.push(walker.currentNode);
    const after = texts.find(t => t.data.includes('(bob'));
    if (after) {  // one text node: the page without its isolates
        const at = after.data.indexOf('(bob');
        return [0, 1, 2, 3].map(i => x(after, at + i));
    }
    const paren = texts.find(t => t.data.includes('('));
    const bob = texts.find(t => t.data === 'bob');
    return [x(paren, paren.data.indexOf('(')), x(bob, 0), x(bob, 1), x(bob, 2)];
}"""


def _laid_out(browser, tmp_path, page: str) -> list[float]:
    path = tmp_path / "class.html"
    path.write_text(page, encoding="utf-8")
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    context.set_default_timeout(PATIENCE)
    try:
        tab = context.new_page()
        tab.goto(path.as_uri())
        return tab.evaluate(LAID_OUT)
    finally:
        context.close()


@pytest.mark.parametrize("override", ["\u202e", "\u2067"])
def test_the_name_after_an_override_renders_in_its_own_order(browser, tmp_path, override):
    rows = [Row("bob", "bob.py", "right", made_for=f"ali{override}cod.exe")]
    page = class_page(rows)
    assert "<bdi>" in page
    xs = _laid_out(browser, tmp_path, page)
    assert xs == sorted(xs) and len(set(xs)) == 4, xs  # "(", "b", "o", "b" from left to right
    if override == "\u202e":  # without the isolates, the override turns what follows around
        raw = _laid_out(browser, tmp_path, page.replace("<bdi>", "").replace("</bdi>", ""))
        assert raw != sorted(raw), raw
