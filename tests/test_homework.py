"""Notebook 07's homework: kept answers earn the same score in a fresh kernel; the class command grades it."""

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from test_bank import a_wrong_answer, solution

from msviz.__main__ import main
from msviz.bank import make_bank

HOMEWORK = Path(__file__).resolve().parent.parent / "notebooks" / "07-homework.ipynb"


def kept_lines(seed: str, right_ones) -> tuple[list[str], float]:
    """The lines a student keeps: right answers to the questions `right_ones`, wrong to the others;
    and the score they earn, worked out here."""
    bank = make_bank(seed, n=10)
    lines = []
    for i, q in enumerate(bank.questions):
        value = solution(q) if i in right_ones else a_wrong_answer(q, solution(q))
        lines.append(bank.line(i, value))
        bank.answer(i, value)
    return lines, bank.score()


def handed_in(folder: Path, seed: str, lines: list[str], name: str = "07-homework.ipynb") -> Path:
    """Notebook 07 as a student hands it in: their name typed, their answers kept, no outputs."""
    book = nbformat.read(HOMEWORK, as_version=4)
    (name_cell,) = [c for c in book.cells if c.cell_type == "code" and 'student = "ada"' in c.source]
    name_cell.source = name_cell.source.replace('"ada"', repr(seed))
    (answers,) = [c for c in book.cells if c.cell_type == "code" and c.source.startswith("# Your answers")]
    answers.source += "\n".join(lines) + "\n"
    path = folder / name
    nbformat.write(book, path)
    return path


def score_in_a_fresh_kernel(path: Path) -> float:
    """Run the notebook top to bottom with nbval, in a fresh kernel; return the score its bank reads."""
    book = nbformat.read(path, as_version=4)
    result = path.with_suffix(".json")
    book.cells.append(
        nbformat.v4.new_code_cell(
            f"import json, pathlib\npathlib.Path({str(result)!r}).write_text(json.dumps(bank.to_dict()))"
        )
    )
    nbformat.write(book, path)
    result.unlink(missing_ok=True)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval-lax", "--nbval-current-env"]
        + ["--rootdir", str(path.parent), str(path)],
        cwd=path.parent,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return json.loads(result.read_text())["score"]


def test_kept_answers_earn_the_same_score_when_the_notebook_runs_again_in_a_fresh_kernel(tmp_path):
    lines, earned = kept_lines("ben", right_ones={0, 2, 3, 7, 9})
    assert earned == 0.5
    path = handed_in(tmp_path, "ben", lines)
    assert score_in_a_fresh_kernel(path) == earned
    assert score_in_a_fresh_kernel(path) == earned  # and again: the first answers count, every time


def test_the_class_command_grades_homework_by_its_answers_not_by_what_the_notebook_says(tmp_path):
    folder = tmp_path / "submitted"
    folder.mkdir()
    all_right, _ = kept_lines("ada", right_ones=set(range(10)))
    handed_in(folder, "ada", all_right, name="ada.ipynb")
    three, _ = kept_lines("ben", right_ones={1, 4, 5})
    handed_in(folder, "ben", three, name="ben.ipynb")
    handed_in(folder, "cy", [], name="cy.ipynb")  # nothing answered
    # A notebook whose bank says it is all right, with no answers behind it.
    fake = nbformat.v4.new_notebook()
    fake.cells = [
        nbformat.v4.new_code_cell(
            "class Fake:\n    questions = [0] * 10\n    def answer(self, i, v): pass\n"
            "    def score(self): return 1.0\n"
            "    def to_dict(self):\n"
            "        return {'seed': 'dot', 'score': 1.0, 'questions':\n"
            "                [{'kind': 'next', 'answer': None}] * 10}\n"
            "bank = Fake()\n"
        )
    ]
    nbformat.write(fake, folder / "dot.ipynb")
    out = tmp_path / "grades"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        main(
            ["grade", str(folder), "--out", str(out), "--random-boards", "0", "--jobs", "2", "--out-of", "10"]
        )
    rows = {row["name"]: row for row in json.loads((out / "results.json").read_text())["students"]}
    # Notebook 07 holds a quiz bank and a simulation set, an equal share each: these students kept
    # their answers' lines and none of their simulations'.
    assert {name: row["points"] for name, row in rows.items()} == pytest.approx(
        {"ada": 5.0, "ben": 1.5, "cy": 0.0, "dot": 0.0}
    )
    assert rows["ada"]["notes"][0] == "found: a simulation set and a quiz bank"
    assert rows["ada"]["verdict"] == "wrong" and rows["ben"]["verdict"] == "wrong"
    assert any("quiz bank for 'ada': 10 of 10 right, 10 answered" in note for note in rows["ada"]["notes"])
    assert any("quiz bank for 'ben': 3 of 10 right, 10 answered" in note for note in rows["ben"]["notes"])
    assert "ben" in (out / "results.csv").read_text() and (out / "class.html").exists()


def test_the_class_page_of_handed_in_banks_names_the_bank_its_points_and_the_wrong_questions(tmp_path):
    import html

    from msviz.bank import make_bank
    from msviz.grade.homework import bank_row
    from msviz.grade.limits import Limits
    from msviz.grade.results import write_results
    from msviz.grade.rows import Row

    bank = make_bank("Ada Lovelace", n=4)
    for i in range(3):
        try:
            bank.answer(i, (0, 0) if bank.questions[i].answered_by == "cell" else [(0, 0)])
        except (TypeError, ValueError):
            bank.answer(i, bank.questions[i].choices[0] if bank.questions[i].choices else "dfs")
    data = bank_row(bank.to_dict(), 10.0)
    row = Row(
        "ada",
        "ada.ipynb",
        data["verdict"],
        data["points"],
        summary=data["summary"],
        made_for=data["made_for"],
        notes=data["notes"],
    )
    page = write_results([row], tmp_path, order=None, limits=Limits(), fence=[], out_of=10)[-1].read_text()
    assert row.verdict == "wrong"
    assert "No mistakes: every submission was right" not in page
    assert "<bdi>Ada Lovelace</bdi> (<bdi>ada</bdi>)" in page and f"{row.points:.2f} of 10" in page
    assert "not answered: 4" in data["summary"] and html.escape(data["summary"]) in page
    assert "every submission graded was right" not in page


def test_a_pre_test_a_post_test_and_homework_never_share_a_question():
    from msviz.bank import make_bank

    for seed in range(60):
        seen = {}
        for test in (None, "pre", "post"):
            for q in make_bank(seed, n=10, test=test).questions:
                key = (q.board, q.click, q.kind)
                assert key not in seen, (seed, test, seen.get(key))
                seen[key] = test
    assert make_bank("ada", n=3, test="pre").to_dict()["test"] == "pre"
    with pytest.raises(ValueError, match="test must be 'pre', 'post' or None"):
        make_bank("ada", test="mid")


@pytest.mark.skipif(sys.platform != "linux", reason="the class command's limits are Linux's")
def test_a_function_beside_its_tests_is_graded_without_msviz_and_keeps_its_scores(tmp_path):
    # The function is graded where msviz's engine is not loaded; the notebook's tests (made with
    # msviz) are read again with it, and their scores go on the function's row.
    from test_bank import a_wrong_answer, solution
    from test_classroom import RIGHT

    from msviz.bank import make_bank
    from msviz.grade import classroom

    source = [RIGHT, "import msviz"]
    for test, right_ones in (("pre", 1), ("post", 3)):
        bank = make_bank("ada", n=4, test=test)
        source.append(f"{test} = msviz.quiz_bank('ada', n=4, test={test!r})")
        for i, q in enumerate(bank.questions):
            value = solution(q) if i < right_ones else a_wrong_answer(q, solution(q))
            source.append(bank.line(i, value).replace("bank.", f"{test}.", 1))
    (tmp_path / "ada.py").write_text("\n".join(source) + "\n")
    (row,) = classroom.grade_class(classroom.find_submissions([tmp_path]))
    assert row.verdict == "right", row.problem
    assert (row.pre, row.post, row.made_for) == (1 / 4, 3 / 4, "ada")


@pytest.mark.skipif(sys.platform != "linux", reason="the class command's limits are Linux's")
def test_the_class_command_reports_pre_and_post_scores_and_the_class_gain(tmp_path):
    from test_bank import a_wrong_answer, solution

    from msviz.bank import make_bank
    from msviz.grade import classroom
    from msviz.grade.results import write_results

    def lines(name, test, right_ones):
        bank = make_bank(name, n=4, test=test)
        out = []
        for i, q in enumerate(bank.questions):
            right = solution(q)
            value = right if i < right_ones else a_wrong_answer(q, right)
            out.append(bank.line(i, value).replace("bank.", f"{test}.", 1))
        return out

    made_up = {"ada": (1, 4), "ben": (2, 3), "cy": (0, 2)}  # right answers before and after the lesson
    for name, (before, after) in made_up.items():
        source = ["import msviz", f"pre = msviz.quiz_bank({name!r}, n=4, test='pre')"]
        source += lines(name, "pre", before)
        source += [f"post = msviz.quiz_bank({name!r}, n=4, test='post')"] + lines(name, "post", after)
        (tmp_path / f"{name}.py").write_text("\n".join(source) + "\n")
    rows = classroom.grade_class(classroom.find_submissions([tmp_path]))
    scores = {row.name: (row.pre, row.post) for row in rows}
    assert scores == {name: (b / 4, a / 4) for name, (b, a) in made_up.items()}
    out = tmp_path / "out"
    page = write_results(rows, out, order=None, limits=classroom.Limits(), fence=[])[-1].read_text()
    pre, post = sum(b for b, _ in made_up.values()) / 12, sum(a for _, a in made_up.values()) / 12
    g = round((post - pre) / (1 - pre), 4)
    data = json.loads((out / "results.json").read_text())
    assert data["gain"] == {"students": 3, "pre": round(pre, 4), "post": round(post, 4), "gain": g}
    assert "Did the lesson teach?" in page and f"<strong>{g:.2f}</strong>" in page


# ---- the homework path whole: a set, a bank and a pre/post test in one notebook ------------------

STUDENT_CELL = """import msviz
student = {seed!r}
sims = msviz.simulation_set(student, n={sims})
bank = msviz.quiz_bank(student, n={questions}, homework=True)
pre = msviz.quiz_bank(student, n={tests}, test="pre")
post = msviz.quiz_bank(student, n={tests}, test="post")
"""


def as_the_browser_sends(q, value):
    """An answer as the bank's JavaScript sends it: a cell as [row, col], cells as a list of them."""
    if q.answered_by == "cells":
        return [list(c) for c in value]
    return list(value) if q.answered_by == "cell" else value


def done_in_the_widgets(seed, *, sims=4, questions=10, tests=4, right=None, monkeypatch=None):
    """A student's session: the widgets made as the notebook makes them (as Jupyter's ``__main__``),
    each question answered by a click (right ones in `right`, a dict of variable: indexes), each
    simulation carried out by the algorithm; return the cell and the lines as the widgets show them."""
    import types

    import msviz

    source = STUDENT_CELL.format(seed=seed, sims=sims, questions=questions, tests=tests)
    main = types.ModuleType("__main__")
    monkeypatch.setitem(sys.modules, "__main__", main)
    exec(source, main.__dict__)
    lines = []
    for var in ("pre", "bank", "post"):
        widget = main.__dict__[var]
        for i, q in enumerate(widget.questions):
            value = (
                solution(q) if right is None or i in right.get(var, ()) else a_wrong_answer(q, solution(q))
            )
            widget.index = i
            widget._heard(
                widget, {"event": "answer", "index": i, "value": as_the_browser_sends(q, value)}, []
            )
            lines.append(widget.keep)  # the widget's state: the line it shows to keep
    sets = main.__dict__["sims"]
    for i in range(len(sets)):
        widget = msviz.simulate(sets[i])
        while not widget.simulation.over:
            name, value = widget.simulation.expected()
            widget.back() if name == "back" else getattr(widget, name)(value)
        lines.append(sets.line(i))
    return source, lines


def notebook(path: Path, *cells: str) -> Path:
    book = nbformat.v4.new_notebook()
    book.cells = [nbformat.v4.new_code_cell(cell) for cell in cells]
    nbformat.write(book, path)
    return path


def graded(folder: Path, out: Path, *options: str) -> dict:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        main(["grade", str(folder), "--out", str(out), "--random-boards", "0", "--language", "en", *options])
    return {row["name"]: row for row in json.loads((out / "results.json").read_text())["students"]}


@pytest.mark.skipif(sys.platform != "linux", reason="the class command's limits are Linux's")
def test_lines_kept_as_the_widgets_show_them_grade_a_set_a_bank_and_tests_whole_in_three_languages(
    tmp_path, monkeypatch
):
    import csv

    folder = tmp_path / "submitted"
    folder.mkdir()
    cell, lines = done_in_the_widgets(
        "ada", right={"pre": {0}, "bank": set(range(10)), "post": {0, 1, 2}}, monkeypatch=monkeypatch
    )
    assert lines[0].startswith("pre.answer(0, ") and lines[4].startswith("bank.answer(0, ")
    assert lines[14].startswith("post.answer(0, ") and lines[-1].startswith("sims.play(3, ")
    notebook(folder / "ada.ipynb", cell, "\n".join(lines))
    fresh = {}
    exec(cell + "\n".join(lines), fresh)  # a fresh run: every kept line runs
    assert (fresh["pre"].score(), fresh["post"].score(), fresh["bank"].score()) == (0.25, 0.75, 1.0)
    assert fresh["sims"].score() == 1.0
    said = {}
    from msviz.i18n import get_language, set_language

    before = get_language()
    for language in ("en", "es", "zh_CN"):
        try:
            rows = graded(folder, tmp_path / language, "--language", language, "--out-of", "10")
        finally:
            set_language(before)
        row = rows["ada"]
        assert (row["pre"], row["post"], row["points"], row["made_for"]) == (0.25, 0.75, 10.0, "ada")
        assert row["verdict"] == "right"
        with open(tmp_path / language / "results.csv", newline="", encoding="utf-8") as table:
            (line,) = csv.DictReader(table)
        assert line["made_for"] == "ada" and line["pre"] == "0.25" and line["copies"] == ""
        said[language] = row["notes"][0]
    assert said["en"] == "found: a simulation set, a quiz bank, a pre-test and a post-test"
    assert len(set(said.values())) == 3  # each language says it in its own words


def test_a_kept_line_names_the_variable_the_student_made_and_runs_in_a_fresh_run(monkeypatch):
    cell, lines = done_in_the_widgets("ben", sims=1, questions=1, tests=1, monkeypatch=monkeypatch)
    assert [line.split(".")[0] for line in lines] == ["pre", "bank", "post", "sims"]
    renamed = cell.replace("pre =", "before =").replace("sims =", "mine =")
    monkeypatch.setitem(sys.modules, "__main__", __import__("types").ModuleType("__main__"))
    names = sys.modules["__main__"].__dict__
    exec(renamed, names)
    q = names["before"].questions[0]
    names["before"].answer(0, solution(q))
    assert names["before"].keep.startswith("before.answer(0, ")
    assert names["mine"].line(0).startswith("mine.play(0, ")


@pytest.mark.skipif(sys.platform != "linux", reason="the class command's limits are Linux's")
def test_a_bank_of_1_and_a_set_of_1_earn_a_tenth_and_a_quarter_and_the_row_says_so(tmp_path, monkeypatch):
    folder = tmp_path / "submitted"
    folder.mkdir()
    cell, lines = done_in_the_widgets("cy", sims=1, questions=1, tests=4, monkeypatch=monkeypatch)
    bank_only = cell.replace("sims = msviz.simulation_set(student, n=1)\n", "")
    notebook(
        folder / "cy.ipynb", bank_only, "\n".join(line for line in lines if not line.startswith("sims."))
    )
    set_only = cell.split("bank =")[0]
    notebook(folder / "dee.ipynb", set_only.replace("'cy'", "'dee'"), "")
    sims_line = next(line for line in lines if line.startswith("sims."))
    from msviz.simulation import simulation_set

    dee = simulation_set("dee", n=1)
    while not dee[0].over:
        name, value = dee[0].expected()
        dee[0].back() if name == "back" else getattr(dee[0], name)(value)
    notebook(folder / "dee.ipynb", set_only.replace("'cy'", "'dee'"), dee.line(0).replace("dee.", "sims."))
    assert sims_line.startswith("sims.play(0, ")
    rows = graded(folder, tmp_path / "out", "--out-of", "10")
    assert rows["cy"]["points"] == pytest.approx(1.0) and rows["dee"]["points"] == pytest.approx(2.5)
    assert any("it holds 1 question of the 10 asked" in note for note in rows["cy"]["notes"])
    assert any("it holds 1 simulation of the 4 asked" in note for note in rows["dee"]["notes"])
    more = graded(folder, tmp_path / "sized", "--out-of", "10", "--bank-questions", "1", "--simulations", "1")
    assert more["cy"]["points"] == pytest.approx(10.0) and more["dee"]["points"] == pytest.approx(10.0)
    assert not any("asked" in note for note in more["cy"]["notes"] + more["dee"]["notes"])


@pytest.mark.skipif(sys.platform != "linux", reason="the class command's limits are Linux's")
def test_one_seed_in_two_notebooks_another_students_name_and_the_same_code_are_named(tmp_path):
    import csv
    import html

    folder = tmp_path / "submitted"
    folder.mkdir()
    leo = STUDENT_CELL.format(seed="leo", sims=1, questions=2, tests=1)
    notebook(folder / "leo.ipynb", leo, "bank.answer(0, (0, 0))")
    notebook(folder / "max.ipynb", leo, "# my own answers\nbank.answer(1, (0, 0))")  # leo's seed
    code = "def update_board(board, click):\n    return board  # {}\n"
    (folder / "ana.py").write_text(code.format("mine"))
    (folder / "bo.py").write_text("\n\n" + code.format("also mine").replace("    ", "\t"))
    (folder / "cid.py").write_text(code.replace("return board", "return [r for r in board]"))
    out = tmp_path / "out"
    rows = graded(folder, out)
    assert "made for 'leo', not for max" in rows["max"]["copies"]
    assert "the same seed ('leo') as leo.ipynb" in rows["max"]["copies"]
    assert rows["leo"]["copies"] == ["the same seed ('leo') as max.ipynb"]
    assert rows["ana"]["copies"] == ["the same code as bo.py"] and rows["bo"]["copies"] == [
        "the same code as ana.py"
    ]
    assert rows["cid"]["copies"] == [] and rows["max"]["made_for"] == "leo"
    with open(out / "results.csv", newline="", encoding="utf-8") as table:
        csv_rows = {row["name"]: row for row in csv.DictReader(table)}
    assert "the same seed ('leo') as leo.ipynb" in csv_rows["max"]["copies"]
    assert csv_rows["leo"]["copies"] == "the same seed ('leo') as max.ipynb"
    page = (out / "class.html").read_text()
    assert "Copies to look at" in page
    for said in (
        "the same seed ('leo') as max.ipynb",
        "the same code as bo.py",
        "made for 'leo', not for max",
    ):
        assert html.escape(said) in page


@pytest.mark.skipif(sys.platform != "linux", reason="the class command's limits are Linux's")
def test_cells_that_raised_are_on_the_page_and_an_empty_notebook_says_what_was_expected(tmp_path):
    import html

    folder = tmp_path / "submitted"
    folder.mkdir()
    cell = STUDENT_CELL.format(seed="eve", sims=1, questions=1, tests=1)
    notebook(folder / "eve.ipynb", cell, "quiz.answer(0, (0, 0))")  # a line kept under another name
    notebook(folder / "fay.ipynb", "import msviz\nstudent = 'fay'")
    out = tmp_path / "out"
    rows = graded(folder, out)
    assert rows["fay"]["problem"].startswith("nothing to grade: no function update_board")
    assert "quiz bank (msviz.quiz_bank) or simulation set (msviz.simulation_set)" in rows["fay"]["problem"]
    page = (out / "class.html").read_text()
    assert html.escape("code cell 2 raised NameError: name 'quiz' is not defined") in page
    assert "graded on the lines kept in each notebook" in page


DOCS = Path(__file__).resolve().parent.parent / "docs"
#: What a snippet of the guides needs that only another platform has: it is compiled, not run.
ELSEWHERE = ("from otter", "/autograder/")


def python_snippets(text: str) -> list[str]:
    import re

    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


#: Runs a guide's snippets (argv[1]) in a fresh interpreter, in one namespace as a notebook's cells,
#: the student's update_board given; prints how many ran and what the homework's objects score.
RUN_SNIPPETS = """
import json, re, sys, types
main = sys.modules["__main__"]
text = open(sys.argv[1], encoding="utf-8").read()
ran = 0
for snippet in re.findall(r"```python\\n(.*?)```", text, flags=re.S):
    code = compile(snippet, "<snippet>", "exec")
    if not any(mark in snippet for mark in json.loads(sys.argv[2])):
        if "update_board" in snippet and "update_board" not in vars(main):
            from msviz.solutions import update_board
            main.update_board = update_board("recursive")
        exec(code, vars(main))
        ran += 1
scores = {name: vars(main)[name].score() for name in ("bank", "pre", "post") if name in vars(main)}
if "sims" in vars(main):
    scores["sims0"] = vars(main)["sims"][0].score()
print(json.dumps({"ran": ran, "scores": scores}))
"""


@pytest.mark.parametrize("guide", ["grading.md", "teaching.md"])
def test_the_guides_python_snippets_run_as_written_in_order(guide):
    """Each guide's snippets run in a fresh interpreter (``import msviz`` alone, as a reader starts),
    in one namespace, top to bottom, as the cells of one notebook; only the student's
    `update_board` (what the grading snippets check) is given."""
    run = subprocess.run(
        [sys.executable, "-c", RUN_SNIPPETS, str(DOCS / guide), json.dumps(ELSEWHERE)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    said = json.loads(run.stdout.strip().splitlines()[-1])
    if guide == "grading.md":
        assert said["ran"] >= 5 and said["scores"] == {"bank": 0.1, "sims0": 1.0}
    else:
        assert said["ran"] == 2 and said["scores"] == {"pre": 0.25, "post": 0.0}
