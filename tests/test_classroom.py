"""The class command: python -m msviz grade FOLDER --order dfs --out DIR, on a class of odd submissions."""

import contextlib
import csv
import io
import json
import sys
import textwrap

import nbformat
import pytest

from msviz.__main__ import main
from msviz.grade import classroom

# The CPU-time, memory and output limits are set with resource.setrlimit, which
# macOS enforces only in part and Windows lacks: the class below needs Linux's.
needs_linux = pytest.mark.skipif(sys.platform != "linux", reason="the worker's limits are Linux's")

RIGHT = textwrap.dedent(
    """
    def update_board(board, click):
        rows, cols = len(board), len(board[0])

        def around(r, c):
            return [(r + i, c + j) for i in (-1, 0, 1) for j in (-1, 0, 1)
                    if (i or j) and 0 <= r + i < rows and 0 <= c + j < cols]

        def reveal(r, c):
            mines = sum(board[i][j] == "M" for i, j in around(r, c))
            if mines:
                board[r][c] = str(mines)
                return
            board[r][c] = "B"
            for i, j in around(r, c):
                if board[i][j] == "E":
                    reveal(i, j)

        r, c = click
        if board[r][c] == "M":
            board[r][c] = "X"
        else:
            reveal(r, c)
        return board
    """
)

LEETCODE_FORM = textwrap.dedent(
    """
    from typing import List


    class Solution:
        def updateBoard(self, board: List[List[str]], click: List[int]) -> List[List[str]]:
            rows, cols = len(board), len(board[0])
            r, c = click
            if board[r][c] == "M":
                board[r][c] = "X"
                return board
            self.dfs(board, r, c, rows, cols)
            return board

        def dfs(self, board, r, c, rows, cols):
            near = [(r + i, c + j) for i in (-1, 0, 1) for j in (-1, 0, 1)
                    if (i or j) and 0 <= r + i < rows and 0 <= c + j < cols]
            mines = sum(board[i][j] == "M" for i, j in near)
            board[r][c] = str(mines) if mines else "B"
            if not mines:
                for i, j in near:
                    if board[i][j] == "E":
                        self.dfs(board, i, j, rows, cols)
    """
)

CLASS = {
    "ada.py": RIGHT,
    "ben.py": RIGHT.replace('board[r][c] = "B"', 'board[r][c] = "0"'),
    "cy.py": "def update_board(board, click):\n    while True:\n        pass\n",
    "dot.py": "import os\n\n\ndef update_board(board, click):\n    os._exit(3)\n",
    "eve.py": "def update_board(board, click):\n    grow = []\n"
    + "    while True:\n        grow.append([0] * 10**5)\n",
    "fay.py": "print('loading')\nwhile True:\n    pass\n" + RIGHT,
    "gus.py": LEETCODE_FORM,
    "hal.py": "def update_board(board, click:\n    return board\n",
    "ivy.py": "def reveal(board, click):\n    return board\n",
    "kim.py": "while True:\n    print('stuck' * 1000)\n",
    "pat.py": 'def update_board(board, click):\n    print "Python 2"\n    return board\n',
    "lou.py": "class Solution:\n    def __init__(self, size):\n        pass\n\n"
    + "    def updateBoard(self, board, click):\n        return board\n",
}


def notebook() -> str:
    """A student's notebook: a magic, a markdown cell, a cell that fails, then the function."""
    book = nbformat.v4.new_notebook()
    book.cells = [
        nbformat.v4.new_markdown_cell("# My reveal"),
        nbformat.v4.new_code_cell("%matplotlib inline\nimport math\n!pip install nothing"),
        nbformat.v4.new_code_cell("1 / 0"),
        nbformat.v4.new_code_cell(RIGHT),
        nbformat.v4.new_code_cell("display(update_board([['E']], [0, 0]))"),
    ]
    return nbformat.writes(book)


OPTIONS = ["--order", "dfs", "--cpu-limit", "6", "--memory", "400", "--random-boards", "10", "--jobs", "2"]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The class graded once: (the exit status, what was printed, the rows by name, the output folder)."""
    folder = tmp_path_factory.mktemp("class")
    for name, source in CLASS.items():
        (folder / name).write_text(source, encoding="utf-8")
    (folder / "jo.ipynb").write_text(notebook(), encoding="utf-8")
    (folder / ".ipynb_checkpoints").mkdir()
    (folder / ".ipynb_checkpoints" / "jo-checkpoint.ipynb").write_text(notebook(), encoding="utf-8")
    out = tmp_path_factory.mktemp("grades") / "out"
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        status = main(["grade", str(folder), "--out", str(out), *OPTIONS])
    streams = {"stdout": stdout.getvalue(), "stderr": stderr.getvalue()}
    with open(out / "results.csv", newline="", encoding="utf-8") as table:
        rows = {row["name"]: row for row in csv.DictReader(table)}
    return status, streams, rows, out


@needs_linux
def test_every_submission_gets_one_row_and_the_run_ends_well(graded):
    status, streams, rows, out = graded
    assert status == 0
    assert streams["stdout"].strip() == f"wrote {out / 'class.html'}"
    assert sorted(rows) == [
        "ada",
        "ben",
        "cy",
        "dot",
        "eve",
        "fay",
        "gus",
        "hal",
        "ivy",
        "jo",
        "kim",
        "lou",
        "pat",
    ]
    # Not a terminal: one plain progress line per submission, on stderr.
    fence, *lines = streams["stderr"].splitlines()
    assert fence.startswith("msviz grade: each submission is fenced: ")
    assert len(lines) == 13 and all(line.startswith("[") for line in lines)
    assert lines[-1].startswith("[13/13] ")


@needs_linux
def test_right_answers_are_right_in_every_form(graded):
    _, _, rows, _ = graded
    for name in ("ada", "gus", "jo"):
        assert rows[name]["verdict"] == "right", rows[name]
        assert float(rows[name]["points"]) == 1.0
        assert rows[name]["examples_passed"] == rows[name]["examples_tried"] == "2"
        assert rows[name]["order_passed"] == rows[name]["order_tried"] != ""
    assert "Solution().updateBoard" in rows["gus"]["notes"]
    assert "code cell 2 raised ZeroDivisionError" in rows["jo"]["notes"]


@needs_linux
def test_a_wrong_answer_is_named_and_gets_partial_credit(graded):
    _, _, rows, _ = graded
    ben = rows["ben"]
    assert ben["verdict"] == "wrong"
    assert ben["mistake"] == "0 instead of B"
    assert "'B'" in ben["hint"]
    assert 0 < float(ben["points"]) < 1


@needs_linux
def test_what_kills_a_process_costs_one_row(graded):
    _, _, rows, _ = graded
    assert rows["cy"]["verdict"] == "wrong" and "loop" in rows["cy"]["mistake"]
    assert rows["dot"]["verdict"] == "stopped"
    assert rows["dot"]["problem"].startswith("exited with status 3")
    assert rows["eve"]["verdict"] == "stopped"
    assert rows["eve"]["problem"] == "used more than 400 MB of memory"
    assert rows["fay"]["verdict"] == "stopped"
    assert rows["fay"]["problem"].startswith("ran out of CPU time (the limit is 6 s)")
    assert rows["hal"]["verdict"] == "not graded"
    assert rows["hal"]["problem"].startswith("could not be read: SyntaxError")
    assert rows["ivy"]["verdict"] == "not graded"
    assert rows["ivy"]["problem"].startswith("nothing to grade: no function update_board")
    assert rows["kim"]["verdict"] == "stopped"
    assert rows["kim"]["problem"] == f"printed more than {classroom.OUTPUT_LIMIT_MB} MB"
    assert rows["lou"]["verdict"] == "not graded"
    assert rows["lou"]["problem"].startswith("could not be graded: TypeError")
    # Python 2 (a print statement): one row naming the syntax error and its line, no traceback.
    assert rows["pat"]["verdict"] == "not graded"
    assert rows["pat"]["problem"].startswith("could not be read: SyntaxError: Missing parentheses")
    assert rows["pat"]["problem"].endswith("(line 2)")
    assert "Traceback" not in rows["pat"]["problem"] + rows["pat"]["notes"]
    for name in ("dot", "eve", "fay", "hal", "ivy", "kim", "lou", "pat"):
        assert float(rows[name]["points"]) == 0.0 and rows[name]["examples_tried"] == ""


@needs_linux
def test_the_json_holds_the_same_rows_and_the_first_wrong_board(graded):
    _, _, rows, out = graded
    data = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert data["order"] == "dfs" and data["limits"]["memory_mb"] == 400
    students = {row["name"]: row for row in data["students"]}
    assert {name: row["verdict"] for name, row in students.items()} == {
        n: r["verdict"] for n, r in rows.items()
    }
    first = students["ben"]["first_wrong_board"]
    assert first["mistake"] == "0 instead of B"
    assert any("0" in line for line in first["got"]) and not any("0" in line for line in first["expected"])
    assert students["fay"]["stdout"].startswith("loading")
    assert students["ada"]["first_wrong_board"] is None


@needs_linux
def test_the_page_shows_the_mistakes_and_the_boards(graded):
    _, _, _, out = graded
    page = (out / "class.html").read_text(encoding="utf-8")
    assert page.count("<h1>") == 1
    assert '<th scope="col">student</th>' in page and '<th scope="row"><bdi>ada</bdi></th>' in page
    # A wrong student's name leads to their first wrong board.
    assert '<th scope="row"><a href="#student-ben"><bdi>ben</bdi></a></th>' in page
    assert '<section class="student" id="student-ben">' in page
    chart = page[page.index("<svg") : page.index("</svg>")]
    assert "0 instead of B" in chart and "used more than 400 MB of memory" in chart
    assert "ran out of CPU time" in chart
    section = page[page.index("<h3><bdi>ben</bdi>: <bdi>0 instead of B</bdi></h3>") :]
    section = section[: section.index("</section>")]
    # Drawn by msviz's renderer (msviz.render), as PNG: the board, the right answer, theirs.
    assert section.count('<img alt="') == 3 and section.count("data:image/png;base64,") == 3
    assert "their answer: 0" in section  # the alt text of their board, as rows of symbols
    # Self-contained: nothing fetched, no script.
    assert "<script" not in page and "http" not in page


def test_a_process_that_waits_for_ever_is_stopped_by_the_clock_guard(tmp_path):
    (tmp_path / "sleeps.py").write_text("import time\ntime.sleep(10**6)\n", encoding="utf-8")
    limits = classroom.Limits(cpu=5, memory=400, clock=2)
    [row] = classroom.grade_class(classroom.find_submissions([tmp_path]), limits=limits, random_boards=0)
    assert row.verdict == "stopped"
    assert row.problem.startswith("stopped by the wall-clock guard after 2 s")


def test_students_with_the_same_file_name_are_told_apart(tmp_path):
    # nbgrader's layout: submitted/STUDENT/ASSIGNMENT/NOTEBOOK
    for student in ("alice", "bob"):
        (tmp_path / student / "ps1").mkdir(parents=True)
        (tmp_path / student / "ps1" / "hw.ipynb").write_text(notebook(), encoding="utf-8")
    (tmp_path / "carl.py").write_text(RIGHT, encoding="utf-8")
    names = [s.name for s in classroom.find_submissions([tmp_path])]
    assert names == ["alice", "bob", "carl"]
    # Two of one student's files: their paths.
    (tmp_path / "alice" / "hw.py").write_text(RIGHT, encoding="utf-8")
    names = [s.name for s in classroom.find_submissions([tmp_path])]
    assert names == ["alice/hw", "alice/ps1/hw", "bob/ps1/hw", "carl"]


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["no/such/folder"], "no such file or folder: 'no/such/folder'"),
        (["EMPTY"], "no submission in"),
        (["EMPTY/notes.txt"], "is not a submission"),
        (["EMPTY", "--order", "dfx"], "order must be 'dfs' or 'bfs', not 'dfx'"),
        (["EMPTY", "--cpu-limit", "0"], "--cpu-limit must be at least 1, not 0.0"),
    ],
)
def test_argument_errors_are_one_line_and_status_2(tmp_path, capsys, arguments, message):
    (tmp_path / "notes.txt").write_text("not code", encoding="utf-8")
    arguments = [a.replace("EMPTY", str(tmp_path)) for a in arguments]
    status = main(["grade", *arguments, "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("msviz: error: ") and message in err
    assert not (tmp_path / "out").exists()


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_progress_bar_is_one_line_redrawn_on_a_terminal():
    screen = Terminal()
    progress = classroom.Progress(screen)
    progress(0, 2, None)
    progress(1, 2, classroom.Row("ada", "ada.py", "right"))
    progress(2, 2, classroom.Row("ben", "ben.py", "wrong", mistake="0 instead of B"))
    shown = screen.getvalue()
    assert shown.count("\n") == 1 and shown.endswith("\n")
    assert shown.count("\r") == 3
    assert "[" + "." * 30 + "] 0/2" in shown and "[" + "#" * 30 + "] 2/2 ben: wrong" in shown


def test_a_folder_that_cannot_be_written_is_refused_before_grading(tmp_path, capsys):
    (tmp_path / "ada.py").write_text(RIGHT, encoding="utf-8")
    (tmp_path / "taken").write_text("a file", encoding="utf-8")
    status = main(["grade", str(tmp_path / "ada.py"), "--out", str(tmp_path / "taken" / "grades")])
    captured = capsys.readouterr()
    assert status == 2 and captured.err.startswith("msviz: error: cannot write into ")
    assert "[1/1]" not in captured.err  # nothing was graded
