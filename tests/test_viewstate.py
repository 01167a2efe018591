"""One list of the view's traits (`msviz.viewstate.TRAITS`): the widget, the page and the JavaScript agree."""

import json
import re

import pytest

pytest.importorskip("anywidget")

import msviz  # noqa: E402
from msviz import export  # noqa: E402
from msviz.frontend import PAGE_PARTS, join, part  # noqa: E402
from msviz.view import BoardView  # noqa: E402
from msviz.viewstate import BINARY, TRAITS, page_state, view_state  # noqa: E402

# A trait of a view's model named in JavaScript: model.get("x"), model.set("x", ...),
# model.on("change:x", ...), and in the stage a board's m.get or board.get.
MODEL = r"(?:\bmodel|\bm|\bboard)"
GET_OR_SET = MODEL + r"""\.(?:get|set)\(\s*["']([a-z_]+)["']"""
ON_CHANGE = MODEL + r"""\.(?:on|off)\(\s*["']change:([a-z_]+)["']"""
NAMED = re.compile(GET_OR_SET + "|" + ON_CHANGE)


def names_in(text: str) -> set[str]:
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


@pytest.mark.parametrize("script", PAGE_PARTS)
def test_the_javascript_names_only_traits_of_the_list(script):
    named = names_in(part(script))
    assert named <= set(TRAITS), f"{script} names what is not a trait: {sorted(named - set(TRAITS))}"


def test_the_javascript_names_traits_in_a_way_the_test_sees():
    assert len(names_in(join(PAGE_PARTS))) > 20, "the pattern no longer matches how the parts read traits"


def test_the_view_reads_every_trait_of_the_list():
    # `generation` is read as a trait like the rest; the arrays through typed(model, "name").
    text = join(PAGE_PARTS)
    arrays = re.findall(r'typed\((?:model|board), "([a-z_]+)"', text)
    read = names_in(text) | set(arrays)
    assert set(TRAITS) - read == set()


def test_an_exported_page_gives_each_board_every_trait():
    page = export.page_html([msviz.trace(["EEE", "EEM"], (0, 0), order=o) for o in ("dfs", "bfs")])
    data = page.split('<script id="msviz-data" type="application/json">', 1)[1].split("</script>", 1)[0]
    state = json.loads(data.replace("<\\/", "</"))
    assert state["binary"] == list(BINARY)
    stage = state["stage"]
    assert sorted(stage) == sorted(TRAITS)
    assert stage["quiz"] is False and stage["quiz_returned"] is False and stage["controls"] is True
    (other,) = stage["others"]  # the second board: its own traits, the rest shared
    assert other["order"] == "bfs" and set(other) < set(TRAITS) and "step" not in other


def test_a_page_state_names_a_trait_that_is_not_one():
    with pytest.raises(ValueError, match="quizz"):
        page_state({}, quizz=True)
