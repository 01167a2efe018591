"""Export a reveal for slides and for readers without a kernel: HTML page, GIF, PNG.

Each export takes one `Trace`, or several (say the DFS and the BFS of the same
click) shown side by side. The HTML page carries the board view's JavaScript
and the trace's arrays, and draws in the browser, like the notebook widgets.
GIF and PNG are drawn by matplotlib: the figure is built once and each frame
updates the image artists and titles, from the `Trace` arrays (no replay).
"""

from __future__ import annotations

import html
import string
from pathlib import Path

import numpy as np
from matplotlib.animation import FuncAnimation
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from . import _checks
from .i18n import get_language, html_lang, speaking, speaks
from .render import PALETTE, speaks_in_pictures, step_image, tile_size, view_palette
from .trace import Trace
from .words import ORDER_NAMES, PAGE, versus

__all__ = ["frames", "animation", "page_html", "save_html", "save_gif", "save_png", "save"]


def _traces(traces) -> list[Trace]:
    """Return `traces` as a list of traces: one trace, or a sequence of them."""
    if isinstance(traces, Trace):
        return [traces]
    out = list(traces) if isinstance(traces, (list, tuple)) else []
    if not out or not all(isinstance(t, Trace) for t in out):
        raise TypeError(
            f"expected a msviz.Trace or a list of traces, not {type(traces).__name__}: {_checks.clip(traces)}"
        )
    return out


def _positive(name: str, value) -> int:
    return _checks.whole_number(name, value, least=1)


def frames(traces, *, stride: int = 1) -> list[int]:
    """Return the steps to show: 0, stride, 2 * stride, ..., always ending on the last.

    Examples
    --------
    >>> import msviz
    >>> frames(msviz.trace(["EEEE"] * 3, (0, 0)), stride=5)
    [0, 5, 10, 11]
    """
    stride = _positive("stride", stride)
    last = max(len(t) for t in _traces(traces)) - 1
    if last < 0:
        return [-1]
    steps = list(range(0, last + 1, stride))
    if steps[-1] != last:
        steps.append(last)
    return steps


def _title(t: Trace, k: int) -> str:
    name = ORDER_NAMES[t.order]
    if len(t) == 0:
        return PAGE["frame_nothing"].format(order=name)
    k = min(k, len(t) - 1)
    if k < 0:
        return name
    return PAGE[f"frame_{t.order}"].format(order=name, step=k, last=len(t) - 1, waiting=int(t.frontier[k]))


class _Frames:
    """One figure, an image and a title per trace, and a way to show any step."""

    def __init__(self, traces, *, px=None, dpi=100):
        self.traces = _traces(traces)
        self.language = get_language()  # an animation draws its frames later: in the language of now
        shape = self.traces[0].shape
        px = _checks.px(px)
        self.px = tile_size(shape, width_px=480) if px is None else px
        _checks.pixels(shape, self.px)
        height, width = shape[0] * self.px, shape[1] * self.px
        n = len(self.traces)
        self.figure = Figure(figsize=(n * (width / dpi + 0.3), height / dpi + 0.5), dpi=dpi)
        FigureCanvasAgg(self.figure)
        self.images, self.titles = [], []
        for i, t in enumerate(self.traces):
            ax = self.figure.add_axes(
                (i / n + 0.01, 0.02, 1 / n - 0.02, 1 - 0.5 * dpi / (height + 0.5 * dpi) - 0.02)
            )
            ax.set_axis_off()
            self.images.append(ax.imshow(self._image(t, 0), interpolation="nearest"))
            self.titles.append(ax.set_title(_title(t, 0), fontsize=10, family="DejaVu Sans Mono"))

    def _image(self, t: Trace, k: int):
        return step_image(t, min(k, len(t) - 1), px=self.px)

    def picture(self):
        """The figure as drawn now, as an RGB array."""
        self.figure.canvas.draw()
        return np.asarray(self.figure.canvas.buffer_rgba())[..., :3].copy()

    def show(self, k: int) -> list:
        """Show step `k` of every trace (a shorter one holds its last step); return the artists."""
        with speaking(self.language):
            for t, image, title in zip(self.traces, self.images, self.titles):
                image.set_data(self._image(t, k))
                title.set_text(_title(t, k))
        return self.images + self.titles


@speaks_in_pictures
def animation(traces, *, stride: int = 1, interval: int = 200, px=None) -> FuncAnimation:
    """Return a matplotlib animation of one trace, or of several side by side.

    Parameters
    ----------
    traces : Trace or sequence of Trace
        What to animate; traces of different lengths are fine.
    stride : int
        Show every `stride`-th step (the last step is always shown).
    interval : int
        Milliseconds between frames.
    px : int, optional
        Pixels per cell.

    Examples
    --------
    >>> import msviz
    >>> anim = animation(msviz.trace(["EEE", "EEM"], (0, 0)))
    >>> len(list(anim.new_frame_seq()))
    4
    >>> import os, tempfile
    >>> anim.save(os.path.join(tempfile.mkdtemp(), "reveal.gif"), writer="pillow", fps=4)
    """
    steps = frames(traces, stride=stride)
    drawn = _Frames(traces, px=px)
    return FuncAnimation(drawn.figure, drawn.show, frames=steps, interval=interval, blit=False)


#: The page around the stage (the stage's own look, its control bar too, is view.css). A page has no
#: host: it is light, or dark where the reader's system is, in the browser's own page colours (as
#: view.css's stage is with no host).
PAGE_STYLE = """
:root { color-scheme: light dark; }
body { font-family: sans-serif; margin: 16px; max-width: 1400px; background: Canvas; color: CanvasText; }
h1 { font-size: 1.5em; margin: 0.4em 0; }
main > p { color: color-mix(in srgb, currentColor 75%, transparent) !important; } /* over its inline grey */
"""


@speaks
def page_html(traces, *, title=None, fps: int = 10, per_frame: int | None = None, step: int = 0) -> str:
    """Return one self-contained HTML page that plays one trace, or several side by side.

    The page holds the board view's own JavaScript (the same module as in
    Jupyter) and the traces' arrays, and draws every step in the browser: it
    plays, scrubs and steps from ``file://`` with the network off, and its
    size grows with the number of cells, not with frames times pixels.

    Parameters
    ----------
    traces : Trace or sequence of Trace
        What to show; traces of different lengths are fine (a shorter one holds its last step).
    title : str, optional
        The page's heading.
    fps : int
        Frames a second when playing (1 to 60).
    per_frame : int, optional
        Steps a frame; by default a reveal plays in about 20 seconds.
    step : int
        The step shown when the page opens.

    Examples
    --------
    >>> import msviz
    >>> page = page_html(msviz.trace(["EEE", "EEM"], (0, 0)))
    >>> page.startswith("<!DOCTYPE html>"), "http" in page.split("<body", 1)[1]
    (True, False)
    """
    from .rendition import rendition
    from .solutions import DEFAULT, LINES, SOURCES
    from .viewstate import page_state, view_state
    from .words import TITLES, view_words

    ts = _traces(traces)
    for t in ts:  # the view's own limit: a page is the view, saved
        _checks.size(*t.shape, most=_checks.MAX_VIEW_CELLS, what="a page's board")
    fps = _positive("fps", fps)
    if fps > 60:
        raise ValueError(f"fps must be at most 60, not {fps!r}")
    step = _checks.whole_number("step", step, least=0)
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title must be a string, not {type(title).__name__}: {_checks.clip(title)}")
    steps = max(len(t) for t in ts)
    per_frame = max(1, round(steps / (20 * fps))) if per_frame is None else _positive("per_frame", per_frame)
    title = title or PAGE["title"].format(orders=versus(ORDER_NAMES[t.order] for t in ts), click=ts[0].click)
    boards = []
    for t in ts:
        state = view_state(t)
        replay = t.written is not None  # a student's run: no code beside it
        state.update(
            generation=1,
            title=TITLES[t.order] if len(ts) > 1 else "",
            code="" if replay else SOURCES[DEFAULT[t.order]],
            code_lines={} if replay else LINES[DEFAULT[t.order]],
        )
        boards.append(state)
    # One stage, as a comparison in a notebook: the first board's traits, the others beside it,
    # and one control bar that moves them all.
    stage = page_state(
        boards[0],
        others=boards[1:],
        step=min(step, steps - 1),
        fps=fps,
        per_frame=per_frame,
        controls=True,
        last_step=steps - 1,
        palette=view_palette(),
        words=view_words(),
    )
    return f"""<!DOCTYPE html>
<html lang="{html_lang()}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>{string.Template(PAGE_STYLE).substitute(PALETTE)}</style></head>
<body><main>
<h1>{html.escape(title)}</h1>
{rendition(stage, data_id="msviz-data")}
<p style="color:{PALETTE["ink"]};font-size:90%">{html.escape(PAGE["keys"])}</p></main>
</body></html>
"""


@speaks
def save_html(traces, path, *, title=None, fps: int = 10, per_frame: int | None = None) -> Path:
    """Write :func:`page_html` to `path`; return the path.

    Examples
    --------
    >>> import msviz, tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> save_html(msviz.trace(["EEE", "EEM"], (0, 0)), folder / "reveal.html").name
    'reveal.html'
    """
    page = page_html(traces, title=title, fps=fps, per_frame=per_frame)
    path = Path(path)
    path.write_text(page, encoding="utf-8")
    return path


@speaks_in_pictures
def save_gif(traces, path, *, stride: int = 1, fps: int = 10, px=None) -> Path:
    """Write the animation as a GIF, one frame per shown step; return its path.

    Examples
    --------
    >>> import msviz, tempfile, pathlib
    >>> from PIL import Image
    >>> t = msviz.trace(["EEE", "EEM"], (0, 0))
    >>> path = save_gif(t, pathlib.Path(tempfile.mkdtemp()) / "reveal.gif", fps=4)
    >>> Image.open(path).n_frames == len(t)
    True
    """
    fps = _positive("fps", fps)
    steps = frames(traces, stride=stride)
    if len(steps) > MAX_GIF_FRAMES:
        needed = -(-len(steps) * stride // MAX_GIF_FRAMES)
        raise ValueError(
            f"a GIF of {len(steps)} frames is too long (the limit is {MAX_GIF_FRAMES}): "
            f"show one step in {needed} (stride={needed}, or --stride {needed}) or write an HTML page"
        )
    drawn = _Frames(traces, px=px)
    path = Path(path)
    with open(path, "wb") as out:
        for i, k in enumerate(steps):
            drawn.show(k)
            _write_gif_frame(out, drawn.picture(), first=i == 0, duration=1000 // fps)
        out.write(b";")  # the GIF trailer
    return path


#: The most frames one GIF may have; a longer reveal is shown with a stride, or as a page.
MAX_GIF_FRAMES = 3000


def _write_gif_frame(out, rgb, *, first: bool, duration: int) -> None:
    """Write one frame of a looping GIF to `out`, each frame with its own palette: memory of one frame.

    Pillow's own writer keeps every frame until the end; this writes each as it comes.
    """
    from PIL import GifImagePlugin, Image

    frame = Image.fromarray(rgb).quantize(256)
    if first:
        header, _ = GifImagePlugin.getheader(frame)
        out.write(b"".join(header))
        out.write(b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")  # loop for ever
    for chunk in GifImagePlugin.getdata(frame, duration=duration, include_color_table=True):
        out.write(chunk)


@speaks_in_pictures
def save_png(traces, path, *, step=None, px=None) -> Path:
    """Write one step (the last by default) as a PNG picture; return its path.

    Examples
    --------
    >>> import msviz, tempfile, pathlib
    >>> t = msviz.trace(["EEE", "EEM"], (0, 0))
    >>> path = save_png(t, pathlib.Path(tempfile.mkdtemp()) / "a.png", step=1)
    >>> path.read_bytes()[:4]
    b'\x89PNG'
    """
    drawn = _Frames(traces, px=px)
    last = max(len(t) for t in drawn.traces) - 1
    drawn.show(last if step is None else step)
    path = Path(path)
    drawn.figure.savefig(path)
    return path


@speaks_in_pictures
def save(traces, path, *, stride: int = 1, fps: int = 10, px=None) -> Path:
    """Write `path` as a GIF, PNG or HTML page, chosen by its extension.

    Examples
    --------
    >>> import msviz, tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> t = msviz.trace(["EEE", "EEM"], (0, 0))
    >>> [save(t, folder / name).suffix for name in ("a.gif", "a.png", "a.html")]
    ['.gif', '.png', '.html']
    """
    suffix = Path(path).suffix.lower()
    if suffix == ".gif":
        return save_gif(traces, path, stride=stride, fps=fps, px=px)
    if suffix == ".png":
        return save_png(traces, path, px=px)
    if suffix in (".html", ".htm"):
        return save_html(traces, path, fps=min(_positive("fps", fps), 60), per_frame=stride)
    raise ValueError(f"cannot write {str(path)!r}: the file must end in .gif, .png or .html")
