"""Grades a class can trust: a student's code cannot forge its grade, stop the class run, read
classmates' work or the teacher's variables, touch the teacher's files or reach the network.

Each hostile submission sits beside two honest ones; the honest rows must be what they are
without it, and no hostile row is ever right. Everything hostile here is bounded (a fork
bomb of 200 sleeping children, output cut by the runner's file-size limit) so that a
failing test cannot take the machine down, and every signal sent at the test's own
processes is one the test catches (SIGUSR1) or aims at a sentinel process of its own.
"""

import json
import os
import resource
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time

import pytest
from test_classroom import RIGHT

from msviz.grade import check, classroom, sandbox
from msviz.grade.child import FORK, how_it_ended
from msviz.grade.judge import MOST_BYTES, Unreadable, read_raw
from msviz.grade.limits import Limits, why_it_stopped
from msviz.grade.remote import Ended
from msviz.grade.runner import raw

linux = pytest.mark.skipif(sys.platform != "linux", reason="the fence and the runner's limits are Linux's")
LAYERS = sandbox.available()
fenced = pytest.mark.skipif(
    set(LAYERS) != set(sandbox.LAYERS),
    reason=f"this kernel fences only: {sandbox.layers_words(LAYERS)}",
)

WRONG = RIGHT.replace('board[r][c] = "B"', 'board[r][c] = "0"')
# ---------------------------------------------------------------------------
# check in a notebook: the child runs, the kernel judges


def forges_on_every_descriptor(board, click):
    line = (json.dumps({"done": {"ok": True}, "verdict": "right"}) + "\n").encode()
    for fd in range(256):
        try:
            os.write(fd, line)
        except OSError:
            pass
    os._exit(0)


def forges_from_a_thread(board, click):
    import threading

    def forge():
        for _ in range(50):
            for fd in range(3, 64):
                try:
                    os.write(fd, b'{"done": {"ok": true}}\n')
                except OSError:
                    pass

    thread = threading.Thread(target=forge)
    thread.start()
    thread.join()
    return board


def sends_megabytes(board, click):
    for fd in range(3, 64):
        try:
            os.write(fd, b"[" * (MOST_BYTES + 1024))
        except OSError:
            pass
    return board


@linux
@pytest.mark.skipif(not FORK, reason="check runs in-process without fork")
@pytest.mark.parametrize("hostile", [forges_on_every_descriptor, forges_from_a_thread, sends_megabytes])
def test_a_forged_report_in_check_earns_nothing(hostile):
    report = check(hostile, random_boards=3)
    assert not report.ok and report.results["examples"][0] == 0
    assert report.bug in ("unreadable", "ended the process", "returned nothing", "wrong answer", "refused"), (
        report.bug
    )
    assert check(RIGHT_FUNCTION, random_boards=3).ok  # and the honest one, after it, is still right


def RIGHT_FUNCTION(board, click):  # noqa: N802 (a module-level copy of RIGHT, for check)
    namespace = {}
    exec(RIGHT, namespace)
    return namespace["update_board"](board, click)


@linux
@fenced
def test_checks_child_is_fenced_from_files_network_and_the_kernels_variables(tmp_path, monkeypatch):
    secret = tmp_path / "secret.txt"
    secret.write_text("teacher's secret")
    secret.chmod(0o644)
    monkeypatch.setenv("MSVIZ_TEACHER_TOKEN", "token-1234")
    server = socket.create_server(("127.0.0.1", 0))
    server.setblocking(False)
    port = server.getsockname()[1]

    def nosy(board, click):
        tried = []
        for name, action in (
            ("read", lambda: open(secret).read()),
            ("write", lambda: open(tmp_path / "planted.txt", "w").write("x")),
            ("tcp", lambda: socket.create_connection(("127.0.0.1", port), timeout=1)),
            ("env", lambda: os.environ["MSVIZ_TEACHER_TOKEN"]),
            ("proc", lambda: open(f"/proc/{os.getppid()}/environ", "rb").read()),
        ):
            try:
                action()
                tried.append(name + " worked")
            except BaseException as error:  # noqa: BLE001 (each refusal is the point)
                tried.append(f"{name} refused: {type(error).__name__}")
        raise RuntimeError("; ".join(tried))

    report = check(nosy, random_boards=0)
    assert "worked" not in report.error, report.error
    assert not (tmp_path / "planted.txt").exists()
    with pytest.raises(BlockingIOError):
        server.accept()
    server.close()


# ---------------------------------------------------------------------------
# The judge reads what a runner sends as untrusted data


def test_a_runners_account_is_schema_checked():
    good = raw(lambda b, c: [["B"]], [["E"]], (0, 0), 1.0)
    assert read_raw(good, [["E"]], 1.0).board == [["B"]]
    for key, value in (
        ("returned", [["B", "B"]]),  # not the board's shape
        ("returned", [["BB"]]),  # not one letter
        ("writes", [[5, 0, "B", 0]]),  # off the board
        ("notes", ["All 202 boards right. Well done!"]),  # words the runner does not say
        ("cpu", float("nan")),
        ("error", {"kind": "right"}),
        ("write_count", -1),
    ):
        with pytest.raises(Unreadable):
            read_raw({**good, key: value}, [["E"]], 1.0)
    assert good["returned"] == [["B"]]  # the data read is left as it was


def test_a_memory_bomb_stopped_for_cpu_time_is_named_as_memory():
    killed = Ended(status=signal.SIGKILL, cpu=5.0, peak=900 * 2**20)
    assert how_it_ended(killed, cpu=5, wall=60, before=100 * 2**20)[0] == "memory"
    looping = Ended(status=signal.SIGKILL, cpu=5.0, peak=120 * 2**20)
    assert how_it_ended(looping, cpu=5, wall=60, before=100 * 2**20)[0] == "C call too long"
    assert why_it_stopped(-signal.SIGXCPU, 5.0, "", Limits(cpu=5, memory=400), 300 * 2**20).startswith(
        "used more"
    )
    assert why_it_stopped(-signal.SIGXCPU, 5.0, "", Limits(cpu=5, memory=400), 50 * 2**20).startswith(
        "ran out"
    )


# ---------------------------------------------------------------------------
# The class command, a hostile submission beside two honest ones


OPTIONS = dict(order="dfs", limits=Limits(cpu=8, memory=400, clock=40), random_boards=4, jobs=2)


def _grade(folder, names=None) -> dict:
    found = classroom.find_submissions([folder])
    if names is not None:
        found = [s for s in found if s.name in names]
    rows = classroom.grade_class(found, **OPTIONS)
    return {row.name: row for row in rows}


def _honest(row) -> tuple:
    return row.verdict, row.points, row.results, row.mistake, row.problem


@pytest.fixture(scope="module")
def classroom_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class")
    (folder / "ada.py").write_text(RIGHT + "\n# ada-marker-7731\n")
    (folder / "ben.py").write_text(WRONG)
    return folder


@pytest.fixture(scope="module")
def honest_rows(classroom_folder):
    return _grade(classroom_folder)


def _class_with(classroom_folder, tmp_path, name: str, source: str):
    folder = tmp_path / "class"
    folder.mkdir()
    for honest in ("ada.py", "ben.py"):
        (folder / honest).write_bytes((classroom_folder / honest).read_bytes())
    (folder / name).write_text(textwrap.dedent(source))
    return folder


def _check_honest(rows, honest_rows, hostile: str):
    for name in ("ada", "ben"):
        assert _honest(rows[name]) == _honest(honest_rows[name]), (name, rows[name])
    assert rows[hostile].verdict != "right" and rows[hostile].points == 0.0, rows[hostile]


FORGE_RESULT = """
import glob, json, os
for path in glob.glob("/proc/self/fd/*") + glob.glob("/proc/*/cmdline"):
    try:
        print(open(path).read())
    except OSError:
        pass
for fd in range(3, 64):
    try:
        os.write(fd, b'{"found": "function", "called": "update_board", "notes": []}\\n')
        os.write(fd, b'{"verdict": "right", "points": 1.0}\\n')
    except OSError:
        pass
for where in (".", "..", "../..", os.environ.get("TMPDIR", "/tmp")):
    try:
        with open(os.path.join(where, "result.json"), "w") as out:
            json.dump({"verdict": "right", "points": 1.0}, out)
    except OSError:
        pass
os._exit(0)
"""


@linux
def test_a_forged_row_and_a_malformed_message_cost_only_their_own_row(
    classroom_folder, honest_rows, tmp_path
):
    folder = _class_with(classroom_folder, tmp_path, "zed.py", FORGE_RESULT)
    rows = _grade(folder)
    _check_honest(rows, honest_rows, "zed")
    assert rows["zed"].verdict == "stopped", rows["zed"]


@linux
@fenced
def test_a_submission_reads_nothing_of_its_classmates_or_the_teacher(
    classroom_folder, honest_rows, tmp_path, monkeypatch
):
    monkeypatch.setenv("MSVIZ_TEACHER_TOKEN", "token-5512")
    source = f"""
    import os
    stolen = []
    for path in ({str(classroom_folder / "ada.py")!r}, "../ada.py", os.path.expanduser("~/.bashrc"),
                 "/proc/{os.getpid()}/environ", "/etc/passwd"):
        try:
            stolen.append(open(path, errors="replace").read()[:200])
        except OSError as error:
            stolen.append(type(error).__name__)
    stolen.append(os.environ.get("MSVIZ_TEACHER_TOKEN", "no token"))
    print(stolen)

    def update_board(board, click):
        raise ValueError(repr(stolen))
    """
    folder = _class_with(classroom_folder, tmp_path, "zed.py", source)
    out = tmp_path / "out"
    found = classroom.find_submissions([folder])
    rows = {row.name: row for row in classroom.grade_class(found, **OPTIONS)}
    classroom.write_results(list(rows.values()), out, order="dfs", limits=OPTIONS["limits"], fence=LAYERS)
    _check_honest(rows, honest_rows, "zed")
    written = "".join(p.read_text() for p in out.iterdir())
    everything = written + repr(rows["zed"])
    assert "PermissionError" in everything  # it tried, and was refused
    for secret in ("ada-marker-7731", "token-5512", "root:x:0"):
        assert secret not in everything, secret
    data = json.loads((out / "results.json").read_text())
    assert data["fence"]["layers"] == list(sandbox.LAYERS)
    assert (
        "Each submission ran fenced: files, network, signals, processes" in (out / "class.html").read_text()
    )


@linux
@fenced
def test_a_submission_writes_nowhere_but_its_own_temporary_folder(
    classroom_folder, honest_rows, tmp_path, monkeypatch
):
    home = tmp_path / "home"
    home.mkdir()
    (home / "teacher.txt").write_text("the teacher's notes")
    monkeypatch.setenv("HOME", str(home))
    out = tmp_path / "out"
    out.mkdir()
    source = f"""
    import os, shutil
    targets = [{str(home / "planted.txt")!r}, {str(out / "results.csv")!r}, "/tmp/msviz-planted.txt",
               "../ada.py", {str(tmp_path / "class" / "ben.py")!r}]
    for path in targets:
        try:
            with open(path, "w") as f:
                f.write("def update_board(board, click):\\n    return 'pwned'\\n")
        except OSError:
            pass
    for path in ({str(home / "teacher.txt")!r}, {str(tmp_path / "class" / "ada.py")!r}):
        try:
            os.remove(path)
        except OSError:
            pass
    try:
        os.symlink({str(home / "teacher.txt")!r}, {str(out / "class.html")!r})
    except OSError:
        pass
    with open(os.path.join(os.environ["TMPDIR"], "mine.txt"), "w") as f:  # its own: allowed
        f.write("ok")
    """
    folder = _class_with(classroom_folder, tmp_path, "zed.py", source)
    rows = _grade(folder)
    _check_honest(rows, honest_rows, "zed")
    assert rows["zed"].problem.startswith("nothing to grade: no function update_board")  # it ran to its end
    assert (home / "teacher.txt").read_text() == "the teacher's notes"
    assert not (home / "planted.txt").exists() and not os.path.exists("/tmp/msviz-planted.txt")
    assert (folder / "ada.py").exists() and (folder / "ben.py").read_text() == (
        classroom_folder / "ben.py"
    ).read_text()
    assert list(out.iterdir()) == []


@linux
def test_the_results_are_written_by_rename_never_through_a_planted_link(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    teachers = tmp_path / "teachers-file.txt"
    teachers.write_text("keep me")
    for name in ("results.csv", "results.json", "class.html"):
        (out / name).symlink_to(teachers)
    row = classroom.Row("ada", "ada.py", "right", 1.0)
    classroom.write_results([row], out, order=None, limits=Limits(), fence=[])
    assert teachers.read_text() == "keep me"
    assert not any((out / name).is_symlink() for name in ("results.csv", "results.json", "class.html"))
    assert json.loads((out / "results.json").read_text())["fence"]["words"] == sandbox.NONE
    assert not [p for p in out.iterdir() if p.name.endswith(".part")]


@linux
@fenced
def test_no_connection_leaves_a_submission(classroom_folder, honest_rows, tmp_path):
    server = socket.create_server(("127.0.0.1", 0))
    server.setblocking(False)
    port = server.getsockname()[1]
    unix_path = str(tmp_path / "listen.sock")
    unix = socket.socket(socket.AF_UNIX)
    unix.bind(unix_path)
    unix.listen()
    unix.setblocking(False)
    source = f"""
    import socket
    for make in (lambda: socket.create_connection(("127.0.0.1", {port}), timeout=2),
                 lambda: socket.socket(socket.AF_UNIX).connect({unix_path!r}),
                 lambda: socket.socket(socket.AF_INET6)):
        try:
            make().sendall(b"stolen")
        except OSError:
            pass
    """
    folder = _class_with(classroom_folder, tmp_path, "zed.py", source)
    rows = _grade(folder)
    _check_honest(rows, honest_rows, "zed")
    for listener in (server, unix):
        with pytest.raises(BlockingIOError):
            listener.accept()
        listener.close()


@linux
@fenced
def test_killing_the_judge_and_others_costs_nothing_and_leaves_nothing(
    classroom_folder, honest_rows, tmp_path
):
    got, mark = [], f"{os.getpid()}{time.monotonic_ns() % 10**6:06d}"  # this run's processes only
    previous = signal.signal(signal.SIGUSR1, lambda *_: got.append("judge signalled"))
    sentinel = subprocess.Popen(["sleep", "300"])
    try:
        source = f"""
        import os, signal, time
        for pid, sig in (({os.getpid()}, signal.SIGUSR1), ({sentinel.pid}, signal.SIGKILL),
                         (os.getppid(), signal.SIGKILL)):
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        children = 0
        for _ in range(200):  # a bounded fork bomb: each child sleeps
            try:
                if os.fork() == 0:
                    time.sleep(300)
                    os._exit(0)
                children += 1
            except OSError:
                break
        if os.fork() == 0:  # a daemon: double-forked, its own session, another program
            os.setsid()
            if os.fork() == 0:
                os.execv("/bin/sleep", ["sleep", "{mark}"])
            os._exit(0)
        time.sleep(0.5)
        """
        folder = _class_with(classroom_folder, tmp_path, f"zed{mark}.py", source)
        rows = _grade(folder)
        _check_honest(rows, honest_rows, f"zed{mark}")
        assert got == [] and sentinel.poll() is None
    finally:
        signal.signal(signal.SIGUSR1, previous)
        sentinel.kill()
        sentinel.wait()
    left = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    line = f.read()
            except OSError:
                continue
            if mark.encode() in line:  # the daemon's sleep, or a runner of this file's (its path)
                left.append(line)
    assert left == []


@linux
def test_two_hundred_megabytes_printed_cost_one_row(classroom_folder, honest_rows, tmp_path):
    source = """
    import sys
    chunk = "x" * (1 << 20)
    for _ in range(200):
        sys.stdout.write(chunk)
    """
    folder = _class_with(classroom_folder, tmp_path, "zed.py", source)
    rows = _grade(folder)
    _check_honest(rows, honest_rows, "zed")
    assert rows["zed"].verdict == "stopped" and rows["zed"].problem.startswith("printed more than")
    assert len(rows["zed"].stdout) <= 2000


# ---------------------------------------------------------------------------
# The fence itself, as an ordinary user would have it


@linux
@fenced
@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to become an ordinary user for the test")
def test_the_fence_holds_for_an_ordinary_user():
    import pathlib
    import shutil
    import tempfile

    tmp_path = pathlib.Path(tempfile.mkdtemp())  # not under pytest's own folder, which only root may enter
    try:
        _fence_as_nobody(tmp_path)
    finally:
        shutil.rmtree(tmp_path)


def _fence_as_nobody(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "notes.txt").write_text("readable by anyone")
    os.chmod(tmp_path, 0o755)
    os.chmod(shared, 0o777)
    os.chmod(shared / "notes.txt", 0o644)
    mine = tmp_path / "mine"
    mine.mkdir()
    os.chmod(mine, 0o777)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: an ordinary user, then fenced
        try:
            os.close(read)
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            held = sandbox.enter([], [str(mine)]) + sandbox.refuse_spawning()
            said = {"held": held, "uid": os.getuid()}
            for name, action in (
                ("read", lambda: open(shared / "notes.txt").read()),
                ("write", lambda: open(shared / "planted", "w").write("x")),
                ("own", lambda: open(mine / "ok", "w").write("x")),
                ("fork", os.fork),
                ("thread", lambda: threading.Thread(target=print).start()),
                (
                    "limit",
                    lambda: resource.setrlimit(resource.RLIMIT_CPU, resource.getrlimit(resource.RLIMIT_CPU)),
                ),
            ):
                try:
                    action()
                    said[name] = "worked"
                except (OSError, RuntimeError, ValueError) as error:
                    said[name] = type(error).__name__
            os.write(write, json.dumps(said).encode())
        finally:
            os._exit(0)
    os.close(write)
    data = b""
    while chunk := os.read(read, 4096):
        data += chunk
    os.close(read)
    os.waitpid(pid, 0)
    said = json.loads(data)
    assert sorted(said["held"]) == sorted(sandbox.LAYERS) and said["uid"] == 65534
    assert said["read"] == "PermissionError" and said["write"] == "PermissionError"
    assert said["own"] == "worked" and not (shared / "planted").exists()
    assert (said["fork"], said["thread"], said["limit"]) == ("PermissionError", "RuntimeError", "ValueError")


def test_the_layers_are_said_in_words():
    assert sandbox.layers_words(["signals", "files"]) == "files, signals"
    assert sandbox.layers_words([]) == "none: submissions ran with your rights"
    assert set(LAYERS) <= set(sandbox.LAYERS)


@linux
def test_sandbox_require_refuses_where_a_layer_is_missing(tmp_path, monkeypatch, capsys):
    from msviz.__main__ import main

    (tmp_path / "ada.py").write_text(RIGHT)
    monkeypatch.setattr(sandbox, "available", lambda: ["files"])
    status = main(["grade", str(tmp_path / "ada.py"), "--out", str(tmp_path / "out"), "--sandbox", "require"])
    assert status == 2
    err = capsys.readouterr().err
    assert "--sandbox require" in err and "network, signals, processes" in err
    assert not (tmp_path / "out" / "results.csv").exists()


@linux
def test_unfenced_the_run_says_so(tmp_path, capsys):
    from msviz.__main__ import main

    (tmp_path / "ada.py").write_text(RIGHT)
    out = tmp_path / "out"
    assert main(["grade", str(tmp_path), "--out", str(out), "--random-boards", "2", "--sandbox", "off"]) == 0
    assert "fenced: none: submissions ran with your rights" in capsys.readouterr().err
    data = json.loads((out / "results.json").read_text())
    assert data["fence"] == {"layers": [], "words": sandbox.NONE}
    assert data["students"][0]["verdict"] == "right"


@linux
def test_a_loop_is_named_a_loop_even_when_the_judge_holds_much_memory(tmp_path):
    held = bytearray(300 * 2**20)  # the judge is big (a long test run, a notebook's kernel) ...
    held[::4096] = b"x" * len(held[::4096])  # ... and really holds it
    (tmp_path / "fay.py").write_text("print('loading')\nwhile True:\n    pass\n")
    limits = Limits(cpu=2, memory=400)
    [row] = classroom.grade_class(classroom.find_submissions([tmp_path]), limits=limits, random_boards=0)
    assert row.verdict == "stopped" and row.problem.startswith("ran out of CPU time"), row.problem
    assert len(held) == 300 * 2**20
