"""One list of the view's traits (`msviz.viewstate.TRAITS`): the widget, the page and the JavaScript agree."""

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("anywidget")

import msviz  # noqa: E402
from msviz import export  # noqa: E402
from msviz.view import BoardView  # noqa: E402
from msviz.viewstate import BINARY, TRAITS, page_state, view_state  # noqa: E402

HERE = Path(msviz.__file__).parent
# A trait of a view's model named in JavaScript: model.get("x"), model.set("x", ...),
# model.on("change:x", ...), and on the page m.get, m0.get, models[0].get (Play's model is `play`).
MODEL = r"(?:\bmodel|\bm|\bm0|\bmodels\[0\])"
GET_OR_SET = MODEL + r"""\.(?:get|set)\(\s*["']([a-z_]+)["']"""
ON_CHANGE = MODEL + r"""\.(?:on|off)\(\s*["']change:([a-z_]+)["']"""
NAMED = re.compile(GET_OR_SET + "|" + ON_CHANGE)


def names_in(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    return {a or b for a, b in NAMED.findall(text)}


def own_traits() -> dict:
    """The traits BoardView itself declares and syncs (not those of every ipywidget)."""
    return {
        name: trait
        for name, trait in BoardView.class_own_traits(sync=True).items()
        if name not in ("_esm", "_css")
    }


def test_the_widget_declares_exactly_the_traits_of_the_list_with_their_defaults():
    traits = own_traits()
    assert sorted(traits) == sorted(TRAITS)
    view = BoardView()
    defaults = {name: getattr(view, name) for name in TRAITS if name not in ("palette", "words")}
    assert defaults == {name: value for name, value in TRAITS.items() if name not in ("palette", "words")}
    # palette and words are filled when the view is made; the list's default is the empty dict.
    assert traits["palette"].default() == TRAITS["palette"] and traits["words"].default() == TRAITS["words"]


def test_the_binary_traits_are_the_bytes_ones():
    binary = {name for name, trait in own_traits().items() if trait.__class__.__name__ == "Bytes"}
    assert set(BINARY) == binary
    assert set(view_state(msviz.trace(["EEE", "EEM"], (0, 0)))) <= set(TRAITS)


@pytest.mark.parametrize("script", ["view.js", "page.js"])
def test_the_javascript_names_only_traits_of_the_list(script):
    named = names_in(HERE / script)
    assert named, f"no trait found in {script}: the pattern no longer matches how it reads traits"
    assert named - set(TRAITS) == set()


def test_the_view_reads_every_trait_of_the_list():
    # `generation` is read as a trait like the rest; the arrays are read through typed(model, "name").
    arrays = re.findall(r'typed\(model, "([a-z_]+)"', (HERE / "view.js").read_text(encoding="utf-8"))
    read = names_in(HERE / "view.js") | set(arrays)
    assert set(TRAITS) - read == set()


def test_an_exported_page_gives_each_board_every_trait():
    page = export.page_html([msviz.trace(["EEE", "EEM"], (0, 0), order=o) for o in ("dfs", "bfs")])
    data = page.split('<script id="msviz-data" type="application/json">', 1)[1].split("</script>", 1)[0]
    state = json.loads(data.replace("<\\/", "</"))
    assert state["binary"] == list(BINARY)
    for board in state["boards"]:
        assert sorted(board) == sorted(TRAITS)
        assert board["quiz"] is False and board["quiz_returned"] is False and board["play"] is None


def test_a_page_state_names_a_trait_that_is_not_one():
    with pytest.raises(ValueError, match="quizz"):
        page_state({}, quizz=True)
