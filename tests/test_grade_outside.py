"""Marks only for the work: what a verdict rests on is measured from outside the student's process,
and what it cannot be allowed to do (start threads, processes or programs, raise its limits, reach
System V IPC, use msviz's own reveal, wait) is refused and named, in the class command and in check.

Every attack is a submission a determined student could hand in; each is graded in a class beside
an honest one, whose row must stay right.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest
from test_classroom import RIGHT

from msviz.grade import check, sandbox
from msviz.grade.classroom import Limits, find_submissions, grade_class, write_results
from msviz.grade.limits import it_was_waiting
from msviz.grade.progress import Progress
from msviz.grade.remote import tree_cpu
from msviz.grade.shown import for_csv, for_html, for_terminal

linux = pytest.mark.skipif(sys.platform != "linux", reason="the fence and /proc are Linux's")
LAYERS = sandbox.available()
fenced = pytest.mark.skipif(
    set(LAYERS) != set(sandbox.LAYERS), reason=f"this kernel fences only: {sandbox.layers_words(LAYERS)}"
)

REAL = RIGHT.replace("def update_board", "def _real")
#: 4 s of CPU time on the 50x50 board (the limit is 2 s), then the right answer.
BURN = "import time\ndef _burn(board):\n    end = time.process_time() + (4 if len(board) >= 50 else 0)\n" + (
    "    while time.process_time() < end:\n        pass\n"
)

ATTACKS = {
    # the work in a second thread, the CPU limit raised first: the runner's own clock never sees it
    "in_a_thread": REAL
    + BURN
    + textwrap.dedent(
        """
        import resource, threading
        def update_board(board, click):
            try:
                soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
                resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))
            except (ValueError, OSError):
                pass
            out = {}
            def work():
                _burn(board)
                out["board"] = _real(board, click)
            thread = threading.Thread(target=work)
            thread.start()
            thread.join()
            return out["board"]
        """
    ),
    # the work in a forked child, the cells read back through a pipe
    "in_a_child": REAL
    + BURN
    + textwrap.dedent(
        """
        import json, os, resource
        def update_board(board, click):
            read, write = os.pipe()
            if os.fork() == 0:
                try:
                    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
                    resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))
                    _burn(board)
                    os.write(write, json.dumps(_real([list(row) for row in board], list(click))).encode())
                finally:
                    os._exit(0)
            os.close(write)
            data = b""
            while chunk := os.read(read, 1 << 16):
                data += chunk
            os.wait()
            return json.loads(data)
        """
    ),
    # the counter of msviz's reveals patched, then msviz's reveal
    "patched_counter": textwrap.dedent(
        """
        import msviz.grade.runner
        msviz.grade.runner.msviz_uses = lambda: 0
        from msviz.traversal import dfs_reveal
        def update_board(board, click):
            for visit in dfs_reveal(board, click):
                board[visit.row][visit.col] = visit.value
            return board
        """
    ),
    # msviz's reveal run in a forked child: no patch at all
    "forked_reveal": textwrap.dedent(
        """
        import json, os
        def update_board(board, click):
            read, write = os.pipe()
            if os.fork() == 0:
                from msviz.traversal import reveal
                os.write(write, json.dumps(reveal(board, click)).encode())
                os._exit(0)
            os.close(write)
            data = b""
            while chunk := os.read(read, 1 << 16):
                data += chunk
            return json.loads(data)
        """
    ),
    # msviz imported inside the function
    "asks_for_msviz": "def update_board(board, click):\n"
    + "    import msviz\n    return msviz.reveal(board, click)\n",
    # msviz's source read from its folder and run, with no import of msviz's
    "reads_the_engine": textwrap.dedent(
        """
        import importlib.util, sys
        def update_board(board, click):
            where = sys.modules["msviz.grade.runner"].__file__.rsplit("/grade/", 1)[0]
            spec = importlib.util.spec_from_file_location("msviz.traversal", where + "/traversal.py")
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module.reveal(board, click)
        """
    ),
    "forks": REAL
    + "import os\ndef update_board(board, click):\n    os.fork()\n    return _real(board, click)\n",
    "starts_a_thread": REAL
    + "import threading\ndef update_board(board, click):\n"
    + "    threading.Thread(target=print).start()\n    return _real(board, click)\n",
    "runs_a_program": REAL
    + "import os\ndef update_board(board, click):\n    os.execv('/bin/true', ['true'])\n",
    "raises_its_limit": REAL
    + "import resource\ndef update_board(board, click):\n"
    + "    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)\n"
    + "    resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))\n    return _real(board, click)\n",
}

#: What each attack's row says (its verdict is never right): any of these words in its mistake or problem.
NAMED = {
    "in_a_thread": ("not allowed here", "CPU time"),
    "in_a_child": ("not allowed here", "CPU time"),
    "patched_counter": ("msviz's own reveal used", "changed the grader"),
    "forked_reveal": ("not allowed here", "msviz's own reveal used"),
    "asks_for_msviz": ("msviz's own reveal used",),
    "reads_the_engine": ("msviz's own reveal used",),
    "forks": ("it started a process: not allowed here",),
    "starts_a_thread": ("it started a thread: not allowed here",),
    "runs_a_program": ("it ran a program: not allowed here",),
    "raises_its_limit": ("it changed its limits: not allowed here",),
}
#: Fenced, each attempt is refused and named by its own words.
FENCED = {
    "in_a_thread": "it changed its limits: not allowed here",
    "in_a_child": "it started a process: not allowed here",
    "forked_reveal": "it started a process: not allowed here",
}


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    """A class of every attack and two honest students, graded once fenced (the layers that held)."""
    folder = tmp_path_factory.mktemp("attacks")
    for name, code in ATTACKS.items():
        (folder / f"{name}.py").write_text(code)
    for name in ("ada", "zoe"):
        (folder / f"{name}.py").write_text(RIGHT)
    rows = grade_class(find_submissions([folder]), limits=Limits(cpu=30), random_boards=20, jobs=2)
    return {row.name: row for row in rows}


@linux
@pytest.mark.parametrize("attack", list(ATTACKS))
def test_each_attack_gets_its_named_row_and_classmates_stay_right(attacked, attack):
    if attack == "reads_the_engine" and "files" not in LAYERS:
        pytest.skip("without Landlock, msviz's folder cannot be hidden (the guide says so)")
    row = attacked[attack]
    said = f"{row.mistake} {row.problem}"
    assert row.verdict != "right" and any(words in said for words in NAMED[attack]), (row.verdict, said)
    if attack in FENCED and "spawning" in LAYERS:
        assert FENCED[attack] in said
    assert attacked["ada"].verdict == attacked["zoe"].verdict == "right"


@linux
@pytest.mark.parametrize("attack", ["in_a_thread", "in_a_child", "forked_reveal"])
def test_unfenced_the_cpu_time_is_still_measured_from_outside(tmp_path, attack):
    (tmp_path / f"{attack}.py").write_text(ATTACKS[attack])
    (tmp_path / "ada.py").write_text(RIGHT)
    rows = grade_class(find_submissions([tmp_path]), random_boards=20, jobs=2, fence="off")
    by_name = {row.name: row for row in rows}
    assert by_name["ada"].verdict == "right"
    assert by_name[attack].verdict != "right", by_name[attack]


def _check_of(code: str):
    namespace: dict = {}
    exec(compile(code, "<submission>", "exec"), namespace)
    return namespace["update_board"]


@linux
@pytest.mark.parametrize(
    "attack", ["in_a_thread", "in_a_child", "forks", "starts_a_thread", "raises_its_limit"]
)
def test_check_refuses_and_names_the_same(attack):
    report = check(_check_of(ATTACKS[attack]), random_boards=5)
    assert not report.ok
    assert report.bug in ("refused", "too slow", "C call too long"), (report.bug, report.error)
    if attack in ("forks", "starts_a_thread", "raises_its_limit") and "spawning" in LAYERS:
        assert report.bug == "refused" and "not allowed here" in report.failure.error


def test_the_cpu_time_read_from_outside_counts_every_thread_and_child():
    script = textwrap.dedent(
        """
        import os, sys, threading, time
        def spin(seconds):
            end = time.thread_time() + seconds
            while time.thread_time() < end:
                pass
        threads = [threading.Thread(target=spin, args=(0.3,)) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if os.fork() == 0:
            spin(0.3)
            os._exit(0)
        os.wait()
        sys.stdout.write("done\\n")
        sys.stdout.flush()
        sys.stdin.read()
        """
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout.readline() == "done\n"
        used = tree_cpu(process.pid)
    finally:
        process.communicate("")
    assert used is not None and used >= 0.85  # 0.3 s in each of two threads and in a child


# ---------------------------------------------------------------------------
# System V IPC: the runner's own


SHM = textwrap.dedent(
    """
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    found = libc.shmget({key}, 0, 0)
    text = ctypes.string_at(libc.shmat(found, None, 0), 40) if found >= 0 else b""
    print("teacher's:", text)
    for i in range(3):
        libc.shmget(0x5100 + i, 64 * 1024 * 1024, 0o1000 | 0o666)
    libc.msgget(0x5200, 0o1000 | 0o666)
    def update_board(board, click):
        return board
    """
)


def _ipc_ids() -> set[str]:
    ids = set()
    for kind in ("shm", "msg", "sem"):
        try:
            with open(f"/proc/sysvipc/{kind}") as listed:
                ids |= {f"{kind}:{line.split()[1]}" for line in listed.readlines()[1:]}
        except OSError:
            pass
    return ids


@linux
@fenced
def test_a_teachers_shared_memory_is_not_read_and_nothing_is_left_behind(tmp_path):
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    key = 0x5329 + os.getpid() % 1000
    segment = libc.shmget(key, 4096, 0o1000 | 0o600)
    assert segment >= 0, ctypes.get_errno()
    try:
        ctypes.memmove(libc.shmat(segment, None, 0), b"teacher-secret-4471", 19)
        before = _ipc_ids()
        (tmp_path / "mallory.py").write_text(SHM.format(key=key))
        [row] = grade_class(find_submissions([tmp_path]), random_boards=2)
        assert "teacher-secret" not in row.stdout and "teacher's: b''" in row.stdout, row.stdout
        assert _ipc_ids() == before
    finally:
        libc.shmctl(segment, 0, None)  # IPC_RMID


# ---------------------------------------------------------------------------
# A waiting submission does not hold the class


WAITS = "import time\ndef update_board(board, click):\n    time.sleep(3600)\n"


@linux
def test_a_waiting_submission_is_stopped_after_the_idle_time_not_the_wall_clock(tmp_path):
    (tmp_path / "sleepy.py").write_text(WAITS)
    (tmp_path / "napping.py").write_text("import time\ntime.sleep(3600)\n")
    (tmp_path / "ada.py").write_text(RIGHT)
    limits = Limits(cpu=20, clock=600, idle=2)
    started = time.monotonic()
    rows = {row.name: row for row in grade_class(find_submissions([tmp_path]), limits=limits, jobs=3)}
    assert rows["ada"].verdict == "right"
    for name in ("sleepy", "napping"):
        assert rows[name].verdict == "stopped" and rows[name].problem == it_was_waiting(2), rows[name]
    assert time.monotonic() - started < limits.wall / 2  # the idle stop, not the wall-clock guard


@linux
def test_check_stops_a_waiting_function_after_the_idle_time(monkeypatch):
    from msviz.grade import child

    monkeypatch.setattr(child, "IDLE_SECONDS", 1.0)
    started = time.monotonic()
    report = check(_check_of(WAITS), random_boards=1)
    assert not report.ok and report.bug == "waited" and report.error == it_was_waiting(1.0), report.error
    assert time.monotonic() - started < 60  # the idle stop, not the wall-clock backstop (over 60 s)


# ---------------------------------------------------------------------------
# Without ctypes


@linux
@fenced
def test_a_fenced_check_says_nothing_of_a_missing_fence():
    report = check(_check_of(RIGHT), random_boards=2)
    assert report and not any("no fence" in note for note in report.notes), report.notes


def test_check_without_ctypes_grades_and_says_it_had_no_fence():
    script = textwrap.dedent(
        """
        import sys
        sys.modules["ctypes"] = None
        import msviz.grade
        from msviz.grade import check
        namespace = {}
        exec(sys.stdin.read(), namespace)
        report = check(namespace["update_board"], random_boards=5)
        print(bool(report), "no fence on this machine" in " ".join(report.notes))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], input=RIGHT, capture_output=True, text=True)
    assert done.stdout.split() == ["True", "True"], done.stderr


# ---------------------------------------------------------------------------
# Nothing raw from a submission reaches a person

HOSTILE = {
    "erase_line": "\x1b[2K\rall right",
    "cursor_up": "\x1b[1A\x1b[2Kcarol: right",
    "window_title": "\x1b]0;owned\x07",
    "osc52": "\x1b]52;c;cm0gLXJmIH4=\x07",
    "forged_line": "x\n[9/9] carol: right",
    "tab_formula": "\t=HYPERLINK(1)",
    "cr_formula": "\r=1+1",
    "spaced_formula": "  @SUM(A1)",
    "override": "ali\u202ecod.exe.py",
    "isolate": "bob\u2066evil",
    "c1": "csi\x9b2J",
}
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"


def _raw(text: str) -> bool:
    """Whether `text` holds a character that must never reach a person as it is."""
    return any(ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F or ch in BIDI for ch in text)


@pytest.mark.parametrize("name", list(HOSTILE))
def test_each_helper_makes_a_hostile_string_safe(name):
    text = HOSTILE[name]
    assert not _raw(for_terminal(text)) and not _raw(for_csv(text))
    assert for_csv(text)[0] == "'" if text.lstrip(" ")[:1] in "=+-@\t\r" else for_csv(text)[0] != "'"
    shown = for_html(text)
    assert shown.startswith("<bdi>") and shown.endswith("</bdi>") and "<" not in shown[5:-6]


def _hostile_class(folder: Path) -> None:
    for i, text in enumerate(HOSTILE.values()):
        code = f"def update_board(board, click):\n    raise ValueError({text!r})\n"
        (folder / f"s{i:02d}.py").write_text(code)
    (folder / "ali\u202ecod.exe.py").write_text(RIGHT)
    (folder / "x\x1b[2Kcarol.py").write_text(RIGHT)
    (folder / "\t=cmd.py").write_text(RIGHT)


@linux
def test_a_class_of_hostile_strings_reaches_no_terminal_spreadsheet_or_page_raw(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    _hostile_class(folder)
    terminal = io.StringIO()
    rows = grade_class(find_submissions([folder]), random_boards=2, jobs=2, progress=Progress(terminal))
    assert not _raw(terminal.getvalue().replace("\n", ""))
    assert all(line.startswith("[") for line in terminal.getvalue().splitlines())  # no forged line
    table, data, page = write_results(rows, tmp_path / "out", order=None, limits=Limits())
    with open(table, newline="", encoding="utf-8") as f:
        read = list(csv.DictReader(f))
    assert len(read) == len(rows)
    for row in read:
        for cell in row.values():
            assert not _raw(cell), cell
            assert not cell.lstrip(" ").startswith(("=", "+", "-", "@")), cell
    assert any(r["name"].startswith("'\\x09=") for r in read)
    kept = json.loads(data.read_text())  # data: as sent
    assert "ali\u202ecod.exe" in {s["name"] for s in kept["students"]}
    html = page.read_text()
    assert "<bdi>ali\u202ecod.exe</bdi>" in html and "\x1b" not in html


def test_a_report_says_what_the_code_raised_without_its_escapes():
    def raises(board, click):
        raise ValueError("\x1b]52;c;ZXZpbA==\x07\u202eok")

    report = check(raises, random_boards=1)
    assert not _raw(str(report).replace("\n", "")) and "\\x1b]52" in str(report)
    assert "<bdi>" in report._repr_html_()


@pytest.fixture
def scratch():
    folder = Path(tempfile.mkdtemp(prefix="msviz-outside-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@linux
@fenced
@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root and setpriv")
def test_the_class_command_as_an_ordinary_user_refuses_and_names_the_same(scratch):
    for name in ("forks", "starts_a_thread", "raises_its_limit", "patched_counter"):
        (scratch / f"{name}.py").write_text(ATTACKS[name])
    (scratch / "ada.py").write_text(RIGHT)
    os.chmod(scratch, 0o777)
    out = scratch / "out"
    command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable, "-m", "msviz"]
    command += ["grade", str(scratch), "--out", str(out), "--random-boards", "20", "--sandbox", "require"]
    done = subprocess.run(command, capture_output=True, text=True, cwd="/")
    assert done.returncode == 0, done.stderr
    rows = {row["name"]: row for row in csv.DictReader(open(out / "results.csv", encoding="utf-8"))}
    assert rows["ada"]["verdict"] == "right"
    for name in ("forks", "starts_a_thread", "raises_its_limit", "patched_counter"):
        said = rows[name]["mistake"] + rows[name]["problem"]
        assert rows[name]["verdict"] != "right" and any(w in said for w in NAMED[name]), rows[name]
