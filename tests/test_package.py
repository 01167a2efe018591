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
