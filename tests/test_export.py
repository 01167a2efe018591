"""Export: animations, GIFs, HTML pages, and the command line."""

import base64
import gzip
import json
import re
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

import msviz  # noqa: E402
from msviz import export  # noqa: E402
from msviz.__main__ import main  # noqa: E402
from msviz.frontend import PARTS, join  # noqa: E402

BOARD = msviz.random_board(6, 8, 5, seed=11, safe=(3, 4))
CLICK = (3, 4)


@pytest.fixture(scope="module")
def dfs():
    return msviz.trace(BOARD, CLICK)


@pytest.fixture(scope="module")
def bfs():
    return msviz.trace(BOARD, CLICK, order="bfs")


def test_frames_cover_every_stride_and_the_last_step(dfs):
    n = len(dfs)
    assert n > 10
    assert export.frames(dfs) == list(range(n))
    assert export.frames(dfs, stride=4) == sorted(set(range(0, n, 4)) | {n - 1})


@pytest.mark.parametrize("stride", [1, 3])
def test_a_gif_has_one_frame_per_shown_step(tmp_path, dfs, stride):
    path = export.save_gif(dfs, tmp_path / "dfs.gif", stride=stride)
    with Image.open(path) as gif:
        assert gif.n_frames == len(export.frames(dfs, stride=stride))


def test_a_gif_of_both_orders_runs_to_the_longer(tmp_path, dfs, bfs):
    short = msviz.trace(BOARD, (0, 0))  # a shorter reveal beside a longer one
    path = export.save_gif([short, bfs], tmp_path / "both.gif")
    with Image.open(path) as gif:
        assert gif.n_frames == max(len(short), len(bfs))


def test_animation_frames_change_only_where_the_reveal_does(dfs):
    drawn = export._Frames(dfs)  # what each frame of export.animation() draws with
    drawn.show(4)
    a = np.asarray(drawn.images[0].get_array()).copy()
    drawn.show(5)
    b = np.asarray(drawn.images[0].get_array())
    px = drawn.px
    r, c = int(dfs.row[5]), int(dfs.col[5])
    assert (
        a[r * px : (r + 1) * px, c * px : (c + 1) * px] != b[r * px : (r + 1) * px, c * px : (c + 1) * px]
    ).any()
    far = np.argwhere(dfs.step_map < 0)
    far = far[np.argmax(np.abs(far - CLICK).sum(axis=1))]  # a hidden cell far away
    fr, fc = far
    assert (
        a[fr * px : (fr + 1) * px, fc * px : (fc + 1) * px]
        == b[fr * px : (fr + 1) * px, fc * px : (fc + 1) * px]
    ).all()
    assert drawn.titles[0].get_text().startswith("DFS step 5 /")


def test_the_page_is_self_contained_and_carries_the_view(dfs, bfs):
    page = export.page_html([dfs, bfs])
    body = page.split("<body", 1)[1]
    assert re.search(r"(src|href)=|https?:|@import|url\(", body) is None  # nothing fetched
    assert join(PARTS, page=True) in page  # the very parts the notebooks use
    data = json.loads(
        re.search(r'<script id="msviz-data" type="application/json">(.*?)</script>', page, re.S)[1]
    )
    stage = data["stage"]
    assert [b["order"] for b in (stage, *stage["others"])] == ["dfs", "bfs"]
    for board, t in zip((stage, *stage["others"]), (dfs, bfs)):
        assert board["step_cell"] is None  # the page works the cells out from the events and turns
        cells = cells_from_turns({**stage, **board})
        assert np.array_equal(np.divmod(cells, t.shape[1]), (t.row, t.col)), t.order


def opened(text: str) -> np.ndarray:
    """A binary field of a page: gzip'd, in base64."""
    return np.frombuffer(gzip.decompress(base64.b64decode(text)), np.uint8)


def cells_from_turns(board: dict) -> list[int]:
    """Each step's cell as a page works it out (page.js rebuildCells), one event at a time: the click,
    then the caller's cell moved by the neighbour of its loop (`step_turn`); the caller is the call
    open (depth-first) or the cell taken out of the queue last (breadth-first)."""
    cols, (row, col) = board["cols"], board["click_cell"]
    turns = opened(board["step_turn"])
    cells, stack, taken = [], [], 0
    for label in opened(board["event_label"]).tolist():
        name = list(msviz.EVENT_LABELS)[label]
        if name in ("call", "enqueue"):
            caller = (stack[-1] if stack else None) if name == "call" else (taken - 1 if taken else None)
            dr, dc = board["neighbors"][turns[len(cells)] - 1] if caller is not None else (0, 0)
            cells.append(row * cols + col if caller is None else cells[caller] + dr * cols + dc)
            if name == "call":
                stack.append(len(cells) - 1)
        elif name == "return":
            stack.pop()
        else:
            taken += 1
    return cells


def test_a_page_sends_the_cells_themselves_where_turns_do_not_give_them():
    # A student's run has no turns (its cells are its writes, a cell perhaps written again).

    def student(board, click):  # the textbook's depth-first reveal, writing into the board
        r, c = click
        if board[r][c] == "M":
            board[r][c] = "X"
            return
        around = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
        around = [(i, j) for i, j in around if 0 <= i < len(board) and 0 <= j < len(board[0])]
        mines = sum(board[i][j] == "M" for i, j in around)
        board[r][c] = str(mines) if mines else "B"
        for i, j in around if not mines else []:
            if board[i][j] == "E":
                student(board, (i, j))

    board = msviz.random_board(9, 11, 12, seed=3, safe=(4, 5))
    replay = msviz.record(student, board, (4, 5)).replay
    assert len(replay) > 10
    page = export.page_html(replay)
    data = json.loads(
        re.search(r'<script id="msviz-data" type="application/json">(.*?)</script>', page, re.S)[1]
    )
    cells = opened(data["stage"]["step_cell"]).view("<i4")
    assert np.array_equal(np.divmod(cells, replay.shape[1]), (replay.row, replay.col))


def test_the_page_grows_with_cells_not_with_frames():
    board = msviz.random_board(300, 300, 900, seed=1, safe=(150, 150))
    ts = [msviz.trace(board, (150, 150), order=o) for o in ("dfs", "bfs")]
    assert len(ts[0]) > 50_000
    size = len(export.page_html(ts))
    assert size < 1_000_000  # the two boards of 90,000 cells, whatever the number of frames
    small = len(export.page_html(msviz.trace(msviz.random_board(30, 30, 9, seed=1, safe=(15, 15)), (15, 15))))
    assert small < 200_000


def test_save_by_extension(tmp_path, dfs, bfs):
    html = export.save([dfs, bfs], tmp_path / "a.html")
    assert html.read_text().startswith("<!DOCTYPE html>") and "DFS vs BFS" in html.read_text()
    png = export.save(dfs, tmp_path / "a.png")
    with Image.open(png) as image:
        assert image.format == "PNG"
    with pytest.raises(ValueError, match=r"must end in .gif, .png or .html"):
        export.save(dfs, tmp_path / "a.jpg")
    with pytest.raises(ValueError, match=r"stride must be at least 1, not 0"):
        export.frames(dfs, stride=0)
    with pytest.raises(TypeError, match=r"expected a msviz.Trace"):
        export.frames([1, 2])


# --- The command line ---------------------------------------------------------------


@pytest.mark.parametrize("name, order", [("r.gif", "both"), ("r.png", "dfs"), ("r.html", "bfs")])
def test_render_random_boards(tmp_path, capsys, name, order):
    out = tmp_path / name
    code = main(
        [
            "render",
            "--rows",
            "6",
            "--cols",
            "8",
            "--mines",
            "5",
            "--seed",
            "1",
            "--order",
            order,
            "-o",
            str(out),
        ]
    )
    assert code == 0 and out.stat().st_size > 0
    assert capsys.readouterr().out.strip() == f"wrote {out}"


def test_render_a_board_file(tmp_path):
    board = tmp_path / "board.txt"
    board.write_text("E E E E E\nE E M E E\nE E E E E\nE E E E E\n")
    out = tmp_path / "ex1.gif"
    assert main(["render", "--board", str(board), "--click", "3", "0", "--order", "dfs", "-o", str(out)]) == 0
    with Image.open(out) as gif:
        assert gif.n_frames == len(msviz.trace(board.read_text(), (3, 0)))


@pytest.mark.parametrize(
    "args, message",
    [
        (["--click", "20", "0"], r"click \(20, 0\) is outside the 9x9 board"),
        (["--click", "-1", "0"], r"click \(-1, 0\) is outside the 9x9 board"),
        (["--mines", "100"], r"100 mines do not fit on a 9x9 board"),
        (["--stride", "0"], r"argument --stride: must be at least 1, not '0'"),
        (["--fps", "0"], r"argument --fps: must be at least 1, not '0'"),
        (["--rows", "1e3"], r"argument --rows: invalid int value: '1e3'"),
        (
            ["--board", "b.txt", "--rows", "5"],
            r"--board takes the board from its file: --rows would be ignored",
        ),
        (["--board", "/no/such/board.txt"], r"cannot read the board file '/no/such/board.txt'"),
    ],
)
def test_render_rejects_bad_values_in_one_line(tmp_path, capsys, args, message):
    assert main(["render", *args, "-o", str(tmp_path / "x.gif")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("msviz: error: ")
    assert __import__("re").search(message, err)


def test_render_rejects_a_ragged_board_file(tmp_path, capsys):
    board = tmp_path / "bad.txt"
    board.write_text("EEE\nEE\n")
    assert main(["render", "--board", str(board), "-o", str(tmp_path / "x.png")]) == 2
    assert "ragged" in capsys.readouterr().err


def run(*args):
    return subprocess.run([sys.executable, "-m", "msviz", *args], capture_output=True, text=True)


def test_the_real_command_exits_non_zero_without_a_traceback(tmp_path):
    bad_extension = run("render", "-o", str(tmp_path / "x.jpg"))
    assert bad_extension.returncode == 2
    assert bad_extension.stderr.strip() == (
        f"msviz: error: cannot write '{tmp_path / 'x.jpg'}': the file must end in .gif, .png or .html"
    )
    bad_order = run("render", "--order", "sideways", "-o", str(tmp_path / "x.gif"))
    assert bad_order.returncode == 2 and "invalid choice: 'sideways'" in bad_order.stderr
    assert "Traceback" not in bad_order.stderr + bad_extension.stderr


def test_help_explains_every_option():
    text = run("render", "--help").stdout
    for option in (
        "--board",
        "--rows",
        "--cols",
        "--mines",
        "--seed",
        "--click",
        "--order",
        "--neighbors",
        "--stride",
        "--fps",
        "--output",
        "examples:",
    ):
        assert option in text


def test_a_page_needs_no_widget_package(tmp_path):
    """`render -o page.html` works where only numpy and matplotlib are installed."""
    script = (
        "import sys\n"
        "sys.modules['anywidget'] = sys.modules['ipywidgets'] = None  # as if not installed\n"
        "from msviz.__main__ import main\n"
        "sys.exit(main(['render', '--rows', '6', '--cols', '8', '--mines', '5',"
        f" '-o', {str(tmp_path / 'p.html')!r}]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "view.js" not in done.stderr and (tmp_path / "p.html").read_text().startswith("<!DOCTYPE html>")


def test_render_checks_where_it_writes_before_it_draws(tmp_path, capsys, monkeypatch):
    drawn = []
    monkeypatch.setattr(msviz, "trace", lambda *a, **k: drawn.append(1))
    (tmp_path / "folder.gif").mkdir()
    for output, message in [
        (tmp_path / "folder.gif", "it is a folder"),
        (tmp_path / "missing" / "x.gif", "there is no folder"),
        (tmp_path / "x.jpg", "must end in .gif, .png or .html"),
    ]:
        assert main(["render", "-o", str(output)]) == 2
        err = capsys.readouterr().err
        assert (
            err.count("\n") == 1
            and err.startswith(f"msviz: error: cannot write '{output}'")
            and message in err
        )
    for size in (["--rows", "100000", "--cols", "100000"], ["--rows", "0"]):
        assert main(["render", *size, "-o", str(tmp_path / "x.gif")]) == 2
        assert capsys.readouterr().err.startswith("msviz: error: ")
    assert not drawn  # refused before anything was made


def test_a_worksheet_is_two_pdf_pages_and_its_key_is_the_reveal_order(tmp_path, capsys):
    from msviz.worksheet import answer_key

    out = tmp_path / "sheet.pdf"
    assert (
        main(["worksheet", "--rows", "6", "--cols", "8", "--mines", "7", "--seed", "3", "-o", str(out)]) == 0
    )
    pdf = out.read_bytes()
    assert pdf.startswith(b"%PDF-") and pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") >= 2
    board, click = [list("EEEE"), list("EEEM"), list("EEEE")], (0, 0)
    key = answer_key(board, click)
    for order in ("dfs", "bfs"):
        t = msviz.trace(board, click, order=order)
        assert [int(key[order][r, c]) for r, c in zip(t.row, t.col)] == list(
            range(len(t))
        )  # the click: step 0
        assert (key[order] == -1).sum() == 12 - len(t)
    assert main(["worksheet", "--rows", "30", "--cols", "30", "-o", str(tmp_path / "big.pdf")]) == 2
    assert "a worksheet board of 30x30 has 900 cells; the limit is 400" in capsys.readouterr().err
    assert main(["worksheet", "-o", str(tmp_path / "sheet.png")]) == 2
    assert "must end in .pdf" in capsys.readouterr().err
