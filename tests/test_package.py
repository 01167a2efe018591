"""The package as a whole: what importing it costs, and what it offers."""

import subprocess
import sys

import msviz


def test_engine_imports_neither_matplotlib_nor_ipywidgets():
    code = (
        "import sys, msviz; "
        "msviz.reveal(['EE', 'EM'], (0, 0)); msviz.trace(['EE', 'EM'], (0, 0)); "
        "print(sorted(m for m in ('matplotlib', 'ipywidgets') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_pictures_load_on_first_use():
    assert msviz.plot.draw_board is not None
    assert "plot" in dir(msviz)


def test_unknown_attribute_is_an_attribute_error():
    try:
        msviz.no_such_thing  # noqa: B018
    except AttributeError as err:
        assert "no_such_thing" in str(err)
    else:
        raise AssertionError("msviz.no_such_thing did not raise")


def test_browser_tests_are_skipped_without_chromium_but_fail_in_ci(monkeypatch):
    import conftest
    import pytest

    class Item:
        def __init__(self, fixtures):
            self.fixturenames, self.markers = fixtures, []

        def add_marker(self, marker):
            self.markers.append(marker)

    monkeypatch.setattr(conftest, "find_chromium", lambda: None)
    monkeypatch.delenv("CI", raising=False)
    browser_test, other = Item(["browser", "tmp_path"]), Item(["tmp_path"])
    conftest.pytest_collection_modifyitems(None, [browser_test, other])
    assert [m.name for m in browser_test.markers] == ["skip"] and not other.markers
    assert "apt-get install chromium" in browser_test.markers[0].kwargs["reason"]
    assert "Chromium not found" in conftest.pytest_report_header(None)
    monkeypatch.setenv("CI", "true")
    in_ci = Item(["browser"])
    conftest.pytest_collection_modifyitems(None, [in_ci])
    assert not in_ci.markers  # in CI the browser fixture fails instead
    with pytest.raises(pytest.fail.Exception, match="Chromium was not found"):
        conftest.chromium_path()


def test_the_teachers_guide_names_the_graders_mistakes():
    from pathlib import Path

    from msviz.grade import BUGS

    guide = (Path(__file__).parents[1] / "docs" / "teaching.md").read_text(encoding="utf-8")
    taught = [
        key
        for key in BUGS
        if key
        not in (
            "not dfs",
            "not bfs",
            "wrong neighbour order",
            "returned nothing",
            "not a board",
            "wrong answer",
            "crash",
            "recursion limit",
        )
    ]
    assert [key for key in taught if BUGS[key][0] not in guide] == []
    for words in ("nbgitpuller", "mybinder.org", "python3 dev.py msviz worksheet", "50", "students"):
        assert words in guide


def test_every_phrase_the_view_names_is_sent_to_it():
    """The front end fills and shows phrases by name: each from msviz.words.view_words(), none typed in JS."""
    import re

    from msviz.frontend import PAGE_PARTS, join
    from msviz.words import EVENTS_NAMES, view_words

    VIEW_WORDS = view_words("en")

    source = join(PAGE_PARTS)
    names = set(re.findall(r'fill\(words, "(\w+)",', source))
    names |= {n for n in re.findall(r"(?<!msviz\.)(?<!/)\bwords\.(\w+)\b(?!\()", source)}
    names |= {f"{prefix}{order}" for prefix in ("frames_name_", "legend_") for order in ("dfs", "bfs")}
    names |= {f"play_{icon}" for icon in ("play", "pause")} | {f"readout_{m}" for m in ("visits", "events")}
    names |= {f"control_{name}" for name in ("first", "back", "play", "forward", "last")} - {"control_play"}
    names |= {f"events_{order}" for order in EVENTS_NAMES}
    names |= {"act_guess", "act_reveal"}
    names -= {"plural", "lang"}  # what the words are in: the plural kinds and the HTML lang
    assert len(names) > 40
    missing = sorted(n for n in names if n not in VIEW_WORDS)
    assert missing == [], missing
    assert len(VIEW_WORDS["tile_names"]) == 14  # the tiles of msviz.render.CODES, an uncovered mine, a flag
