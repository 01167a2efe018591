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
    assert {name: row["points"] for name, row in rows.items()} == pytest.approx(
        {"ada": 10.0, "ben": 3.0, "cy": 0.0, "dot": 0.0}
    )
    assert rows["ada"]["verdict"] == "right" and rows["ben"]["verdict"] == "wrong"
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
