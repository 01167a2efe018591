"""The step's colours stay apart from the tiles and from each other, for everyone.

Colour-vision deficiencies are simulated with the matrices of Machado, Oliveira
and Fernandes (2009), severity 1.0, applied in linear RGB; contrast is the WCAG
ratio of relative luminances; "apart" between two marks is a CIE76 colour
difference. The colours are stated here as literals, so a change to the
palette must be a change to this test too.
"""

import ast
import re
from pathlib import Path

import numpy as np
import pytest

import msviz
from msviz.render import PALETTE

MACHADO = {
    "normal": np.eye(3),
    "protanopia": np.array(
        [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
    ),
    "deuteranopia": np.array(
        [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
    ),
    "tritanopia": np.array(
        [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]
    ),
}
TILES = {"hidden": "#c0c0c0", "revealed": "#d6d6d6"}
MARKS = {"current border": "#000000", "stack": "#1a3fb0", "queue": "#9a3300"}
FILLS = {"current": "#c88400", "stack": "#1a3fb0", "queue": "#9a3300"}


def linear(color: str) -> np.ndarray:
    c = np.array([int(color[i : i + 2], 16) for i in (1, 3, 5)]) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def seen(color: str, vision: str) -> np.ndarray:
    return np.clip(MACHADO[vision] @ linear(color), 0, 1)


def contrast(a: np.ndarray, b: np.ndarray) -> float:
    la, lb = (float(np.dot([0.2126, 0.7152, 0.0722], x)) for x in (a, b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def lab(x: np.ndarray) -> np.ndarray:
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ x
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def test_the_palette_is_the_one_checked_here():
    assert PALETTE["face"] == TILES["hidden"] and PALETTE["flat"] == TILES["revealed"]
    assert PALETTE["current"] == FILLS["current"] and PALETTE["current_border"] == MARKS["current border"]
    assert PALETTE["stack"] == MARKS["stack"] and PALETTE["queue"] == MARKS["queue"]


@pytest.mark.parametrize("vision", list(MACHADO))
@pytest.mark.parametrize("mark", list(MARKS))
def test_each_mark_stands_out_from_both_tiles_by_3_to_1(vision, mark):
    for tile in TILES.values():
        assert contrast(seen(MARKS[mark], vision), seen(tile, vision)) >= 3.0, (mark, tile, vision)


@pytest.mark.parametrize("vision", list(MACHADO))
def test_current_stack_and_queue_differ_from_each_other_and_the_tiles(vision):
    colours = {**FILLS, **TILES}
    names = list(colours)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if {a, b} == set(TILES):
                continue
            difference = float(np.linalg.norm(lab(seen(colours[a], vision)) - lab(seen(colours[b], vision))))
            assert difference >= 20, (a, b, vision, difference)


@pytest.mark.parametrize("vision", list(MACHADO))
def test_the_current_cell_differs_from_both_tiles_by_brightness_too(vision):
    for tile in TILES.values():  # not only by hue: its fill at least 1.5:1 from hidden and revealed cells
        assert contrast(seen(FILLS["current"], vision), seen(tile, vision)) >= 1.5, (tile, vision)


#: A colour written in hex: #rgb, #rgba, #rrggbb or #rrggbbaa.
HEX_COLOUR = re.compile(r"(?<![\w&])#(?:[0-9a-fA-F]{8}|[0-9a-fA-F]{6}|[0-9a-fA-F]{3,4})(?![\w-])")
PACKAGE = Path(msviz.__file__).parent


def palette_lines(source: str) -> range:
    """The lines of the ``PALETTE = {...}`` table in render.py's source."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and [t.id for t in node.targets if isinstance(t, ast.Name)] == [
            "PALETTE"
        ]:
            return range(node.lineno, node.end_lineno + 1)
    raise AssertionError("render.py has no PALETTE = {...} table")


def colours_outside_the_palette(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    allowed = palette_lines(source) if path.name == "render.py" else range(0)
    return [
        f"{path.name}:{n}: {match}"
        for n, line in enumerate(source.splitlines(), start=1)
        if n not in allowed
        for match in HEX_COLOUR.findall(line)
    ]


def test_the_colour_finder_finds_colours_and_only_colours():
    line = 'ax.plot(x, color="#555555"); Layout(border="1px solid #d33"); fill: #f4f4f480; ok #12x'
    assert HEX_COLOUR.findall(line) == ["#555555", "#d33", "#f4f4f480"]
    assert HEX_COLOUR.findall("issue #19, &#123; entity, #abcde") == []


def test_every_colour_in_python_comes_from_the_palette():
    assert len(palette_lines((PACKAGE / "render.py").read_text(encoding="utf-8"))) > len(PALETTE)
    outside = [found for path in sorted(PACKAGE.rglob("*.py")) for found in colours_outside_the_palette(path)]
    assert outside == [], "colours written outside PALETTE in msviz/render.py: " + ", ".join(outside)


def test_each_palette_colour_is_a_six_digit_hex_written_once():
    assert all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in PALETTE.values()), PALETTE
    named = {c: [n for n in PALETTE if PALETTE[n] == c] for c in PALETTE.values()}
    shared = {c: names for c, names in named.items() if len(names) > 1}
    assert set(shared) <= {"#000000"}, shared  # mine, current border and digit 7 are black on purpose


def figures() -> str:
    """The contrast figures, for the notes: python tests/test_palette.py."""
    rows = []
    for vision in MACHADO:
        cells = [
            f"{m} {min(contrast(seen(c, vision), seen(t, vision)) for t in TILES.values()):.2f}"
            for m, c in MARKS.items()
        ]
        rows.append(f"{vision:<13} " + ", ".join(cells))
    return "\n".join(rows)


if __name__ == "__main__":
    print(figures())
