"""The command line: ``python -m msviz render ...`` makes a slide without Jupyter."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from . import __version__
from .grade import classroom
from .i18n import _, checked_language, speaking
from .traversal import LEETCODE_ORDER, READING_ORDER

#: The neighbour orders the command line knows, by name.
NEIGHBOUR_ORDERS = {"reading": READING_ORDER, "leetcode": LEETCODE_ORDER}

EPILOG = """examples:
  python -m msviz render --rows 16 --cols 30 --mines 99 --seed 1 --order both -o reveal.gif
  python -m msviz render --board board.txt --click 3 0 --order dfs --stride 2 -o dfs.html
"""


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors are one line, ``msviz: error: ...``, and exit status 2."""

    def error(self, message):
        self.exit(2, f"msviz: error: {message} (python -m msviz --help tells more)\n")


def _at_least_one(text: str) -> int:
    """A whole number of at least 1, for --stride and --fps."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text!r}")
    return value


def parser() -> argparse.ArgumentParser:
    top = _Parser(
        prog="python -m msviz",
        description="msviz: watch a Minesweeper click flood the board, depth-first and breadth-first.",
    )
    top.add_argument("--version", action="version", version=f"msviz {__version__}")
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    render = commands.add_parser(
        "render",
        help="draw one click's reveal as a GIF, a PNG or an HTML page",
        description="Draw one click's reveal as a GIF animation, a PNG of the final step, "
        "or an HTML page that plays without Jupyter.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_board_arguments(render, rows=9, cols=9, mines=10)
    add_language_argument(render)
    render.add_argument(
        "--order",
        choices=["dfs", "bfs", "both"],
        default="both",
        help="depth-first, breadth-first, or both side by side (default both)",
    )
    render.add_argument("--stride", type=_at_least_one, default=1, help="show every N-th step (default 1)")
    render.add_argument(
        "--fps", type=_at_least_one, default=10, help="frames per second of a GIF or page (default 10)"
    )
    render.add_argument(
        "-o",
        "--output",
        required=True,
        type=Path,
        metavar="FILE",
        help="where to write: .gif (animation), .png (final step) or .html (page)",
    )
    sheet = commands.add_parser(
        "worksheet",
        help="write a PDF worksheet: a board to number by hand in DFS and BFS order, and its answer key",
        description="Write a two-page PDF for paper: a board (mines shown, the click ringed) whose cells "
        "students number in the order a depth-first and a breadth-first reveal gives them, then the answers.",
        epilog="example:\n  python -m msviz worksheet --rows 6 --cols 8 --mines 7 --seed 3 -o worksheet.pdf",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_board_arguments(sheet, rows=6, cols=8, mines=7)
    add_language_argument(sheet)
    sheet.add_argument("-o", "--output", required=True, type=Path, metavar="FILE.pdf", help="where to write")
    site = commands.add_parser(
        "site",
        help="run every notebook of the lesson and write it as a website that plays with no Python",
        description="Run every notebook of the lesson (the English ones in NOTEBOOKS, each translation in "
        "its language's folder) and write each as a page whose boards play in the browser, with no "
        "kernel and no network, and an index page: a folder to host or hand out.",
        epilog="example:\n  python -m msviz site notebooks --out site",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    site.add_argument("notebooks", type=Path, help="the folder of the lesson's notebooks")
    site.add_argument(
        "--out", dest="output", required=True, type=Path, metavar="FOLDER", help="where to write the site"
    )
    site.add_argument(
        "--languages", nargs="+", metavar="CODE", help="only these languages (default: every one found)"
    )
    classroom.add_command(commands)
    return top


def site(args) -> Path:
    """Build the lesson's website (`msviz.site.build`); return its index page."""
    from .site import build

    built = build(args.notebooks, args.output, languages=args.languages)
    return Path(built["index"])


def add_language_argument(command) -> None:
    """Add --language: the language of what the command writes and says (default: the environment's)."""
    command.add_argument(
        "--language",
        metavar="CODE",
        help="the language of the words written and said: en, es or zh_CN "
        "(default: MSVIZ_LANGUAGE, then the locale's)",
    )


def add_board_arguments(command, *, rows: int, cols: int, mines: int) -> None:
    """Add the arguments that say which click on which board: its file or a random one's size."""
    source = command.add_argument_group("the board (a file, or a random board)")
    source.add_argument(
        "--board",
        metavar="FILE",
        type=Path,
        help="a board file: rows of symbols (M E B X 1-8), spaces allowed, or LeetCode's JSON",
    )
    source.add_argument("--rows", type=int, help=f"rows of a random board (default {rows})")
    source.add_argument("--cols", type=int, help=f"columns of a random board (default {cols})")
    source.add_argument("--mines", type=int, help=f"mines on a random board (default {mines})")
    command.set_defaults(random_board_size=(rows, cols, mines))
    source.add_argument(
        "--seed", type=int, default=None, help="seed of a random board, to get the same board again"
    )
    command.add_argument(
        "--click",
        nargs=2,
        type=int,
        metavar=("ROW", "COL"),
        help="the cell clicked (default: the middle; on a random board it is kept free of mines)",
    )
    command.add_argument(
        "--neighbors",
        choices=list(NEIGHBOUR_ORDERS),
        default="reading",
        help="the order a blank cell tries its neighbours (default reading)",
    )


def board_and_click(args):
    """The board (from its file, or random with the click kept safe), the click and the neighbour order."""
    import msviz

    neighbors = NEIGHBOUR_ORDERS[args.neighbors]
    given = [f"--{name}" for name in ("rows", "cols", "mines", "seed") if getattr(args, name) is not None]
    if args.board is not None and given:
        raise ValueError(
            _("--board takes the board from its file: {options} would be ignored; drop them").format(
                options=", ".join(given)
            )
        )
    for name, default in zip(("rows", "cols", "mines"), args.random_board_size):
        if getattr(args, name) is None:
            setattr(args, name, default)
    if args.board is not None:
        try:
            text = args.board.read_text(encoding="utf-8")
        except OSError as err:
            raise ValueError(
                _("cannot read the board file {path}: {reason}").format(
                    path=repr(str(args.board)), reason=err.strerror
                )
            ) from None
        board = msviz.parse_board(text)
        click = tuple(args.click) if args.click else (len(board) // 2, len(board[0]) // 2)
        return board, click, neighbors
    click = tuple(args.click) if args.click else (args.rows // 2, args.cols // 2)
    # The size first (a typo such as 100000 is refused before anything is made), then the
    # click against it, so that a bad click is named as such.
    msviz._checks.size(args.rows, args.cols)
    msviz.board.check_click(click, (args.rows, args.cols))
    board = msviz.random_board(args.rows, args.cols, args.mines, seed=args.seed, safe=click)
    return board, click, neighbors


def written_whole(save, path: Path) -> Path:
    """Call ``save(temporary)`` on a file beside `path`, then put it in `path`'s place: all or nothing.

    A failure or Ctrl-C on the way leaves nothing behind, not even a part of the file.
    """
    part = path.with_name(f".{path.stem}.part-{os.getpid()}{path.suffix}")
    try:
        save(part)
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)
    return path


def worksheet(args) -> Path:
    """Do what `worksheet` was asked; return the path written."""
    from msviz.words import WORKSHEET
    from msviz.worksheet import save_worksheet

    check_output(args.output, (".pdf",), rule=WORKSHEET["pdf_only"])
    board, click, neighbors = board_and_click(args)
    return written_whole(lambda part: save_worksheet(board, click, part, neighbors=neighbors), args.output)


def render(args) -> Path:
    """Do what `render` was asked; return the path written."""
    import matplotlib

    matplotlib.use("Agg")
    import msviz
    from msviz import export

    check_output(args.output)
    board, click, neighbors = board_and_click(args)
    orders = ["dfs", "bfs"] if args.order == "both" else [args.order]
    traces = [msviz.trace(board, click, order=o, neighbors=neighbors) for o in orders]
    return written_whole(
        lambda part: export.save(traces, part, stride=args.stride, fps=args.fps), args.output
    )


def check_output(path: Path, endings=(".gif", ".png", ".html", ".htm"), rule=None) -> None:
    """Check, before anything is drawn, that `path` has one of the `endings` and can be written.

    `rule` says which endings are allowed, in the message when the ending is wrong (by default:
    .gif, .png or .html).
    """

    def refused(reason: str) -> ValueError:
        return ValueError(_("cannot write {path}: {reason}").format(path=repr(str(path)), reason=reason))

    if path.suffix.lower() not in endings:
        raise refused(rule or _("the file must end in .gif, .png or .html"))
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise refused(_("it is a folder"))
    if path.exists() and not path.is_file():
        raise refused(_("it is not a regular file (a pipe, a device?)"))
    if not folder.is_dir():
        raise refused(_("there is no folder {folder}").format(folder=repr(str(folder))))
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise refused(_("permission denied"))


def main(argv=None) -> int:
    try:
        args = parser().parse_args(argv)
    except SystemExit as done:  # --help (0), or a usage error already said in one line (2)
        return done.code if isinstance(done.code, int) else 2
    try:
        language = args.language if args.command in ("render", "worksheet") else None
        language = None if language is None else checked_language(language)
    except (ValueError, TypeError) as err:
        return fail(str(err))
    with speaking(language):
        return _run(args)


def _run(args) -> int:
    """Do the command `args` ask for, in the language spoken; say what was written or what went wrong."""
    try:
        commands = {"worksheet": worksheet, "grade": classroom.command, "site": site}
        path = commands.get(args.command, render)(args)
    except (ValueError, TypeError) as err:
        return fail(str(err))
    except MemoryError:
        return fail(_("not enough memory for this board: try fewer rows and columns"))
    except OSError as err:  # what could not be foreseen: a full disk, a file made read-only meanwhile
        reason = err.strerror or str(err)
        return fail(_("cannot write {path}: {reason}").format(path=repr(str(args.output)), reason=reason))
    except KeyboardInterrupt:
        return fail(_("stopped (Ctrl-C); nothing was written"), status=130)
    print(_("wrote {path}").format(path=path))
    return 0


def fail(message: str, status: int = 2) -> int:
    """Say what went wrong in one line, as argparse does; return the exit status (2: a usage error)."""
    print(_("msviz: error: {message}").format(message=message), file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
