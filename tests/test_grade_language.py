"""The grader speaks the language asked for: each named mistake, the report, the class command's files.

Two ways of looking. In Chinese, a report on each named mistake is made of the
catalog's phrases (compared with what the catalog says, whatever it says
today). In the pseudo-language every phrase is wrapped in ⟦...⟧, so any run
of letters left outside the brackets is a word that escaped the catalog: only
the board's letters, code, names of students and files, and the values that
stay English for gradebooks may be there.
"""

import csv
import html
import json
import re
import sys

import pytest
from test_classroom import RIGHT
from test_grade_isolation import exits, fills_the_memory, segfaults, sums_in_c
from test_grade_students import WRONG

import msviz
from msviz.__main__ import main
from msviz.grade import BUGS, check
from msviz.grade.child import how_it_ended
from msviz.grade.remote import Ended
from msviz.grade.report import Failure, Report
from msviz.grade.rows import COLUMNS, VERDICTS
from msviz.i18n import set_language, speaking
from msviz.solutions import update_board as shown_solution


def marks_neighbours_then_recurses(board, click):
    """Recursion that reveals all of a blank's hidden neighbours before going into any: not depth-first."""
    r, c = click
    if board[r][c] == "M":
        board[r][c] = "X"
        return board

    def around(i, j):
        return [
            (i + a, j + b)
            for a in (-1, 0, 1)
            for b in (-1, 0, 1)
            if (a or b) and 0 <= i + a < len(board) and 0 <= j + b < len(board[0])
        ]

    def mines(i, j):
        return sum(board[x][y] in "MX" for x, y in around(i, j))

    def visit(i, j):
        hidden = [(x, y) for x, y in around(i, j) if board[x][y] == "E"]
        for x, y in hidden:
            board[x][y] = str(mines(x, y)) if mines(x, y) else "B"
        for x, y in hidden:
            if board[x][y] == "B":
                visit(x, y)

    board[r][c] = str(mines(r, c)) if mines(r, c) else "B"
    if board[r][c] == "B":
        visit(r, c)
    return board


def all_hidden(board, click):
    return [["E"] * len(board[0]) for _row in board]


def changes_the_grader(board, click):
    msviz.grade.order.is_depth_first.__code__ = (lambda *a: True).__code__
    return shown_solution("recursive", msviz.LEETCODE_ORDER)(board, click)


def starts_a_thread(board, click):
    import threading

    threading.Thread(target=print).start()
    return board


def lowers_the_recursion_limit(board, click):
    sys.setrecursionlimit(120)
    return shown_solution("recursive", msviz.LEETCODE_ORDER)(board, click)


#: A solution making each named mistake that a check can be run on: (mistake, solution, options).
MADE = [(bug, solution, {"order": order, "time_limit": 0.5}) for _style, solution, order, bug in WRONG]
MADE += [
    ("not a board", lambda board, click: {"board": board}, {}),
    ("wrong answer", all_hidden, {}),
    ("not dfs", marks_neighbours_then_recurses, {"order": "dfs"}),
    ("not bfs", marks_neighbours_then_recurses, {"order": "bfs"}),
    (
        "wrong neighbour order",
        shown_solution("recursive", msviz.LEETCODE_ORDER),
        {"order": "dfs", "neighbors": msviz.READING_ORDER},
    ),
    ("changed the grader", changes_the_grader, {"order": "dfs"}),
    ("recursion limit", lowers_the_recursion_limit, {}),
    ("refused", starts_a_thread, {}),
    ("ended the process", exits, {}),
    ("crashed", segfaults, {}),
    ("memory", fills_the_memory, {"time_limit": 20}),
    ("C call too long", sums_in_c, {"time_limit": 1}),
]
#: Mistakes whose runner must be kept waiting a minute, or made to send garbage: their words are
#: checked on the death itself (`how_it_ended`), in a report made of it.
DEATHS = {"waited": Ended(why="clock"), "unreadable": Ended(why="unreadable")}
MADE_ONCE = {bug: (solution, options) for bug, solution, options in MADE}


def test_every_named_mistake_is_made_here():
    assert set(MADE_ONCE) | set(DEATHS) == set(BUGS)


def _report(bug: str, language: str) -> Report:
    if bug in DEATHS:
        with speaking(language):
            named, words = how_it_ended(DEATHS[bug], cpu=20, wall=60)
            case = msviz.grade.cases(random_boards=0)[0]
        failure = Failure(case.category, case, msviz.reveal(case.board, case.click), None, named, words)
        return Report({"examples": (0, 2)}, [failure], language=language)
    solution, options = MADE_ONCE[bug]
    return check(solution, random_boards=5, language=language, **options)


def outside(text: str) -> str:
    """`text` with every ⟦...⟧ (nested ones too) taken out."""
    depth, kept = 0, []
    for ch in text:
        if ch == "⟦":
            depth += 1
            kept.append(" ")
        elif ch == "⟧":
            depth -= 1
            kept.append(" ")
        elif depth == 0:
            kept.append(ch)
    return "".join(kept)


def strays(text: str, allowed=()) -> set:
    """Words (two letters or more) of `text` outside ⟦...⟧, but the `allowed` pieces of code or names."""
    rest = outside(text)
    for piece in sorted(allowed, key=len, reverse=True):
        if piece:
            rest = rest.replace(piece, " ")
    return set(re.findall(r"[^\W\d_]{2,}", rest))


def _report_texts(report: Report) -> str:
    data = report.to_dict()
    said = [str(report), report.summary()]
    said += [data["mistake"] or "", data["hint"] or "", data["summary"], *data["notes"]]
    for f in data["failures"]:
        said += [f["mistake"], f["hint"], f["case"], f["error"] or ""]
    scope = report.to_gradescope()
    said += [scope["output"], *(t["name"] for t in scope["tests"]), *(t["output"] for t in scope["tests"])]
    return "\n".join(said)


@pytest.mark.parametrize("bug", sorted(set(BUGS)))
def test_a_report_on_each_named_mistake_is_said_in_chinese(bug):
    report = _report(bug, "zh_CN")
    assert report.bug == bug, (report.bug, report.error)
    text = str(report)
    with speaking("zh_CN"):
        name, hint = BUGS[bug]
    with speaking("en"):
        english_name, english_hint = BUGS[bug]
    assert name in text and hint in text
    assert report.to_dict()["mistake"] == name and report.to_dict()["hint"] == hint
    if name != english_name:  # translated: none of its English words are left
        assert english_name not in text
    if hint != english_hint:
        assert english_hint not in text


@pytest.mark.parametrize("bug", sorted(set(BUGS)))
def test_a_report_on_each_named_mistake_has_no_word_outside_the_catalog(bug):
    report = _report(bug, "pseudo")
    assert report.bug == bug, (report.bug, report.error)
    code = [f.got_text for f in report.failures] + ["Traceback", "msviz", "RecursionError", "MemoryError"]
    for f in report.failures:  # what the student's own code raised, and its lines, are its own
        if f.error and (f.error.startswith("Traceback") or '  File "' in f.error):
            code.append(f.error)
    assert strays(_report_texts(report), code) == set()


def test_a_report_keeps_its_language_once_made():
    report = check(all_hidden, random_boards=2, language="pseudo")
    with speaking("en"):
        assert str(report).startswith("⟦") and report.failure.name.startswith("⟦")
    assert check(all_hidden, random_boards=2, language="en").summary().startswith("Boards right")


CLASS = {
    "ada": RIGHT,
    "bob": RIGHT.replace('board[r][c] = "B"', 'board[r][c] = "0"'),
    "cy": "while True:\n    pass\n",
    "dee": "x = 1\n",
}


@pytest.fixture
def class_run(tmp_path, capsys):
    folder = tmp_path / "class"
    folder.mkdir()
    for name, source in CLASS.items():
        (folder / f"{name}.py").write_text(source)
    out = tmp_path / "out"
    options = ["--random-boards", "3", "--cpu-limit", "2", "--jobs", "2", "--order", "dfs"]
    try:
        status = main(["grade", str(folder), "--out", str(out), "--language", "pseudo", *options])
        said = capsys.readouterr()
    finally:
        set_language(None)
    assert status == 0, said.err
    return out, said, str(folder)


def test_a_class_run_speaks_the_language_asked_for(class_run):
    out, said, folder = class_run
    names = [*CLASS, *(f"{name}.py" for name in CLASS), folder, str(out), "msviz", "grade"]
    # The terminal lines: each student's verdict, the fence, the files written.
    assert strays(said.out + said.err, names) == set()
    # results.csv: the header and the verdicts stay English; the words columns speak.
    with open(out / "results.csv", newline="", encoding="utf-8") as table:
        rows = list(csv.DictReader(table))
    assert list(rows[0]) == list(COLUMNS)
    assert {row["name"]: row["verdict"] for row in rows} == {
        "ada": "right",
        "bob": "wrong",
        "cy": "stopped",
        "dee": "not graded",
    }
    assert set(VERDICTS) == {row["verdict"] for row in rows}
    words = "\n".join(row[column] for row in rows for column in ("mistake", "hint", "problem", "notes"))
    assert strays(words, names) == set()
    # results.json: its keys and verdicts stay English; its messages speak.
    data = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert {student["verdict"] for student in data["students"]} == set(VERDICTS)
    messages = [data["fence"]["words"]]
    for student in data["students"]:
        messages += [student[key] or "" for key in ("mistake", "hint", "problem", "summary")]
        messages += student["notes"]
        board = student["first_wrong_board"]
        if board:
            messages += [board["mistake"], board["hint"], board["case"], board["error"] or ""]
    assert strays("\n".join(messages), names) == set()
    # The class page: its lang, and every word of its text.
    page = (out / "class.html").read_text(encoding="utf-8")
    assert '<html lang="en-XA">' in page
    text = re.sub(r"<style>.*?</style>", " ", page, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    assert strays(text, names + ["msviz.check(update_board, order=...).draw()"]) == set()


def test_the_class_command_refuses_a_language_it_does_not_speak(tmp_path, capsys):
    (tmp_path / "ada.py").write_text(RIGHT)
    try:
        status = main(["grade", str(tmp_path / "ada.py"), "--out", str(tmp_path / "out"), "--language", "fr"])
    finally:
        set_language(None)
    err = capsys.readouterr().err
    assert status == 2 and "'fr'" in err and "'es'" in err and "'zh_CN'" in err
    assert not (tmp_path / "out" / "results.csv").exists()
