"""The class page, class.html: the count of each named mistake and each student's first wrong board."""

from __future__ import annotations

import base64
import html
import unicodedata
from pathlib import Path

import numpy as np

from ..board import SYMBOLS
from ..i18n import _, _n, html_lang, listed
from ..render import PALETTE, marked_image, png
from .rows import VERDICTS, Row, gain, mistake_counts
from .shown import for_html, for_terminal
from .simpage import simulation_part
from .vocabulary import CATEGORIES, ORDER_WORDS, VERDICT_WORDS

_PAGE_STYLE = """
body {{ font-family: system-ui, sans-serif; margin: 1.5rem auto; max-width: 60rem; padding: 0 1rem;
  color: {mine}; line-height: 1.4; }}
h1 {{ font-size: 1.6rem; margin-bottom: 0.2rem; }}
table {{ border-collapse: collapse; width: 100%; font-size: 0.9rem; }}
th, td {{ border-bottom: 1px solid {grid}; padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }}
thead th {{ background: {flat}; }}
td.num, th.num {{ text-align: right; font-variant-numeric: tabular-nums; }}
.right {{ color: {right}; font-weight: bold; }}
.wrong {{ color: {wrong}; font-weight: bold; }}
.stopped, .not-graded {{ color: {mine}; font-weight: bold; }}
td.verdict {{ white-space: nowrap; }}
.legend {{ font-size: 0.9rem; }}
.boards {{ display: flex; flex-wrap: wrap; gap: 1.5rem; }}
figure {{ margin: 0; }}
svg, img {{ max-width: 100%; height: auto; }}
img {{ image-rendering: pixelated; }}
figcaption {{ font-size: 0.85rem; }}
.student {{ border-top: 2px solid {flat}; margin-top: 1.2rem; }}
pre {{ white-space: pre-wrap; font-size: 0.85rem; }}
.raised {{ font-family: ui-monospace, monospace; font-size: 0.85rem; }}
.copy {{ color: {wrong}; }}
"""


def class_page(
    rows: list[Row], *, order: str | None = None, fence: str | None = None, out_of: float = 1.0
) -> str:
    """The teacher's page: the class's mistakes as a bar chart, every row, each first wrong board.

    A self-contained HTML page (inline SVG, no script, nothing fetched).
    `fence` names the layers that fenced each submission
    (`msviz.grade.sandbox.layers_words`). What a submission printed or
    raised is shown as its own, under its name, never as the grader's words.

    Examples
    --------
    >>> page = class_page([Row("ada", "ada.py", "wrong", mistake="0 instead of B")], order="dfs")
    >>> "<h1>" in page and "0 instead of B" in page
    True
    """
    counts = {verdict: sum(row.verdict == verdict for row in rows) for verdict in VERDICTS}
    graded = _graded_on(rows, order)
    summary = listed(f"{n} {VERDICT_WORDS[verdict]}" for verdict, n in counts.items() if n)
    said = _n(
        "{n} submission, graded on {graded}: {summary}.",
        "{n} submissions, graded on {graded}: {summary}.",
        len(rows),
    ).format(n=len(rows), graded=graded, summary=summary)
    fenced = _("Each submission ran fenced: {layers}.").format(layers=html.escape(fence)) if fence else ""
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{html_lang()}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>" + _("msviz: the class's results") + "</title>",
        f"<style>{_PAGE_STYLE.format(**PALETTE)}</style></head><body>",
        "<h1>" + _("The class's results") + "</h1>",
        f"<p>{said}</p>",
        *([f'<p class="fence">{fenced}</p>'] if fence else []),
        "<h2>" + _("Mistakes across the class") + "</h2>",
        _mistake_chart(
            mistake_counts(rows),
            PALETTE,
            all(row.verdict == "right" for row in rows),
            any(row.made_for and not row.results for row in rows),
        ),
        "<h2>" + _("Every student") + "</h2>",
        _student_table(rows, out_of),
        simulation_part(rows),
        _copies(rows),
        _lesson_gain(rows),
        "<h2>" + _("Each student's first wrong board") + "</h2>",
        '<p class="legend">'
        + _(
            "Raised grey cells are hidden, and hidden mines are shown; the click and the cells "
            "of an answer unlike the right one are outlined."
        )
        + "</p>",
    ]
    wrong = [row for row in rows if row.failure]
    if not wrong and all(row.verdict == "right" for row in rows):
        parts.append("<p>" + _("No wrong board: every submission graded was right.") + "</p>")
    elif not wrong:
        parts.append(
            "<p>" + _("No wrong board to show: what went wrong is in each student's row above.") + "</p>"
        )
    parts += [_first_wrong_board(row) for row in wrong]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def label_px(text: str, size: int = 13) -> int:
    """About how wide `text` is at `size` px in a sans-serif font: a Chinese (wide) character a full
    em, any other about 0.55 em, so that a label in any language is measured in that language.

    Examples
    --------
    >>> label_px("digits that spread"), label_px("模拟：最常出错的一步")
    (129, 130)
    """
    wide = sum(unicodedata.east_asian_width(ch) in "WF" for ch in text)
    return round(wide * size + (len(text) - wide) * size * 0.55)


def _graded_on(rows: list[Row], order: str | None) -> str:
    """What the rows were graded on, in words: code's answers (and order), homework's kept lines, or both.

    Examples
    --------
    >>> _graded_on([Row("ada", "ada.ipynb", "right", made_for="ada")], None)
    'the lines kept in each notebook, carried out again from the name they were made for'
    """
    if order in ORDER_WORDS:
        code = _("the answers and the {order} order").format(order=ORDER_WORDS[order])
    else:
        code = _("the answers")
    homework = any(row.made_for and not row.results for row in rows)
    kept = _("the lines kept in each notebook, carried out again from the name they were made for")
    if not homework:
        return code
    if not any(row.results for row in rows):
        return kept
    return _("{code} for code, and {kept} for homework").format(code=code, kept=kept)


def _mistake_chart(
    counts: list[tuple[str, int, bool]], palette: dict, all_right: bool = True, homework: bool = False
) -> str:
    """A horizontal bar chart as inline SVG, with the same figures in a table for screen readers."""
    if not counts and all_right:
        return "<p>" + _("No mistakes: every submission was right.") + "</p>"
    if not counts:
        return (
            "<p>" + _("No named mistake to count: each wrong answer is in its student's row below.") + "</p>"
        )
    # The longest label fits, right-aligned against the bars, in whatever language it is.
    label_width, bar_width, line = 16 + max(label_px(count[0]) for count in counts), 300, 28
    most = max(count[1] for count in counts)
    height = line * len(counts) + 8
    description = "; ".join(f"{for_terminal(what)}: {n}" for what, n, _named in counts)
    bars = []
    for i, (what, n, named) in enumerate(counts):
        y = 4 + i * line
        width = max(2, round(bar_width * n / most))
        bars.append(
            f'<text x="{label_width - 8}" y="{y + 18}" text-anchor="end" font-size="13">'
            f"{html.escape(for_terminal(what))}</text>"
            f'<rect x="{label_width}" y="{y + 4}" width="{width}" height="{line - 8}" '
            f'fill="{palette["stack" if named else "shadow"]}"/>'
            f'<text x="{label_width + width + 6}" y="{y + 18}" font-size="13">{n}</text>'
        )
    svg = (
        f'<svg role="img" aria-labelledby="chart-title" width="{label_width + bar_width + 40}" '
        f'height="{height}" viewBox="0 0 {label_width + bar_width + 40} {height}" '
        'font-family="system-ui, sans-serif">'
        '<title id="chart-title">'
        + _("Students per mistake: {counts}").format(counts=html.escape(description))
        + "</title>"
        + "".join(bars)
        + "</svg>"
    )
    table = (
        "<details><summary>" + _("The same figures as a table") + "</summary>"
        '<table><thead><tr><th scope="col">' + _("mistake") + "</th>"
        '<th scope="col">'
        + _("students")
        + "</th></tr></thead><tbody>"
        + "".join(
            f'<tr><th scope="row">{for_html(w)}</th><td class="num">{n}</td></tr>' for w, n, _named in counts
        )
        + "</tbody></table></details>"
    )
    return (
        f"<figure>{svg}<figcaption>"
        + (
            _(
                "Each bar counts students, not steps: a student is counted once, at their code's first "
                "named mistake or the kind of step their simulations most often got wrong (blue), or at "
                "what stopped their code before it was graded (grey)."
            )
            if homework
            else _(
                "Each bar counts students: each student's first mistake (blue), or what stopped their "
                "code before it was graded (grey)."
            )
        )
        + f"</figcaption></figure>{table}"
    )


def _student_table(rows: list[Row], out_of: float = 1.0) -> str:
    shown = [name for name in CATEGORIES if any(name in row.results for row in rows)]
    names = [_("student"), _("verdict"), _("points"), *(CATEGORIES[name] for name in shown)]
    head = "".join(f'<th scope="col">{html.escape(name)}</th>' for name in names)
    head += '<th scope="col">' + _("mistake or problem") + "</th>"
    body = []
    for row in rows:
        verdict = VERDICT_WORDS[row.verdict] if row.verdict in VERDICT_WORDS else row.verdict
        points = _("{points} of {out_of}").format(points=f"{row.points:.2f}", out_of=f"{out_of:g}")
        cells = [
            f'<th scope="row">{_link(row)}</th>',
            f'<td class="verdict {row.verdict.replace(" ", "-")}">{html.escape(verdict)}</td>',
            f'<td class="num">{points}</td>',
        ]
        for name in shown:
            passed, tried = row.results.get(name, (None, None))
            cells.append(f'<td class="num">{"" if tried is None else f"{passed}/{tried}"}</td>')
        said = "; ".join(x for x in (row.mistake, row.problem) if x)
        if not said and (row.verdict != "right" or not row.results):  # homework: what was graded, and how
            said = row.summary
        more = [for_html(said)] if said else []
        more += [f'<span class="raised">{for_html(note)}</span>' for note in row.raised]
        more += [f'<strong class="copy">{for_html(copy)}</strong>' for copy in row.copies]
        cells.append(f"<td>{'<br>'.join(more)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _copies(rows: list[Row]) -> str:
    """What rows share with others (the same seed, another's name, the same code), one line a row;
    nothing when no row shares anything. No penalty is given: the teacher decides."""
    shared = [row for row in rows if row.copies]
    if not shared:
        return ""
    lines = "".join(
        f"<li><bdi>{html.escape(row.name)}</bdi> (<bdi>{html.escape(Path(row.file).name)}</bdi>): "
        + "; ".join(f"<bdi>{html.escape(copy)}</bdi>" for copy in row.copies)
        + "</li>"
        for row in shared
    )
    said = _(
        "These files hand in homework made for the same name, for a name not their student's, or the "
        "same code. No marks were taken off: look, and decide."
    )
    return "<h2>" + _("Copies to look at") + f'</h2><p>{said}</p><ul class="copies">{lines}</ul>'


def _lesson_gain(rows: list[Row]) -> str:
    """Did the lesson teach? Each student's pre- and post-test score, and the class's normalized gain."""
    figures = gain(rows)
    if figures is None:
        return ""
    g = (
        _("not defined (every pre-test was full marks)")
        if figures["gain"] is None
        else f"{figures['gain']:.2f}"
    )
    lines = [
        f'<tr><th scope="row">{_link(row)}</th><td class="num">{_share(row.pre)}</td>'
        f'<td class="num">{_share(row.post)}</td><td class="num">{_student_gain(row)}</td></tr>'
        for row in rows
        if row.pre is not None or row.post is not None
    ]
    said = _(
        "The class's normalized gain, g = (post - pre) / (1 - pre) of the class's mean scores, is "
        "<strong>{gain}</strong> over the {students} students with both tests (mean pre-test "
        "{pre}, mean post-test {post}). It is the share of what the class did not know before that it "
        "learned: below 0.3 is low, 0.3 to 0.7 medium, above 0.7 high (Hake, 1998). A small class moves "
        "it a lot: read it with the scores."
    ).format(gain=g, students=figures["students"], pre=_share(figures["pre"]), post=_share(figures["post"]))
    heads = [_("student"), _("pre-test"), _("post-test"), _("gain")]
    head = f'<th scope="col">{heads[0]}</th>' + "".join(
        f'<th scope="col" class="num">{name}</th>' for name in heads[1:]
    )
    title = _("Did the lesson teach?")
    return (
        f"<h2>{title}</h2><p>{said}</p><table><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(lines)}</tbody></table>"
    )


def _share(score) -> str:
    return "" if score is None else f"{round(100 * score)}%"


def _student_gain(row: Row) -> str:
    if row.pre is None or row.post is None or row.pre >= 1:
        return ""
    return f"{(row.post - row.pre) / (1 - row.pre):.2f}"


def _anchor(row: Row) -> str:
    return "student-" + "".join(ch if ch.isalnum() else "-" for ch in row.name)


def _link(row: Row) -> str:
    """The student's name (and the name their homework was made for, when another); a link to their
    first wrong board when there is one."""
    name = for_html(row.name)
    if row.made_for and row.made_for != row.name:
        name = f"{for_html(row.made_for)} ({name})"
    return f'<a href="#{_anchor(row)}">{name}</a>' if row.failure else name


def _first_wrong_board(row: Row) -> str:
    f = row.failure
    click = tuple(f["click"])
    where = _("{case}, click ({row}, {col})").format(case=html.escape(f["case"]), row=click[0], col=click[1])
    figures = [
        _figure(f["board"], _("the board"), click, None),
        _figure(f["expected"], _("the right answer"), None, None),
    ]
    if f["got"] is not None:
        figures.append(_figure(f["got"], _("their answer"), None, f["expected"]))
    text = f.get("error") or f.get("got_text")
    said = (
        '<p class="theirs">'
        + _("What {name}'s code raised or returned, in its own words:").format(name=for_html(row.name))
        + f'</p><pre class="theirs">{for_html(text)}</pre>'
        if text
        else ""
    )
    if f["got"] is not None and f["got"] == f["expected"]:
        said += (
            "<p>"
            + _(
                "The answer is right: the cells were revealed in another order. In the notebook, "
                "{code} shows both orders."
            ).format(code="<code>msviz.check(update_board, order=...).draw()</code>")
            + "</p>"
        )
    hint = _("<em>Hint:</em> {hint}").format(hint=html.escape(f["hint"]))
    return (
        f'<section class="student" id="{_anchor(row)}"><h3>{for_html(row.name)}: '
        f"{for_html(f['mistake'])}</h3>"
        f"<p>{where}. {hint}</p>"
        f'<div class="boards">{"".join(figures)}</div>{said}</section>'
    )


def _figure(rows, caption: str, click, expected) -> str:
    if rows is None:
        said = _("{board}: not a board").format(board=caption)
        return f"<figure><figcaption>{said}</figcaption></figure>"
    return f"<figure>{board_picture(rows, click=click, expected=expected, label=caption)}" + (
        f"<figcaption>{caption}</figcaption></figure>"
    )


def board_picture(rows, *, click=None, expected=None, label: str = "a board", width: int = 240) -> str:
    """A board as msviz draws it (`msviz.render`), an inline PNG, the click and wrong cells outlined.

    A wrong answer may hold symbols no board has (``'0'``, ``'?'``): those cells
    are drawn revealed and outlined. The alt text is the board as rows of
    symbols; rows of unequal lengths are shown as that text.

    Examples
    --------
    >>> picture = board_picture(["B1E", "B10"], expected=["B1E", "B1M"], label="their answer")
    >>> picture.startswith('<img alt="their answer: B 1 E / B 1 0"'), "base64," in picture
    (True, True)
    """
    rows = ["".join(map(str, row)) for row in rows]
    text = " / ".join(" ".join(row) for row in rows)
    if not rows or len({len(row) for row in rows}) != 1 or not rows[0]:
        return f'<pre role="img" aria-label="{html.escape(label)}">{html.escape(chr(10).join(rows))}</pre>'
    grid = np.array([list(row) for row in rows])
    marks = ~np.isin(grid, list(SYMBOLS))
    if expected is not None and np.shape(expected) and len(expected) == len(rows):
        wanted = np.array([list(str(row)) for row in expected])
        if wanted.shape == grid.shape:
            marks |= wanted != grid
    if click is not None:
        marks[tuple(click)] = True
    grid[~np.isin(grid, list(SYMBOLS))] = "B"
    px = max(6, min(24, width // max(grid.shape)))
    image = marked_image(grid, marks, px=px, show_mines=True)
    data = base64.b64encode(png(image)).decode("ascii")
    return (
        f'<img alt="{html.escape(label)}: {html.escape(text)}" width="{image.shape[1]}" '
        f'height="{image.shape[0]}" src="data:image/png;base64,{data}">'
    )
