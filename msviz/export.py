"""Export a reveal for slides and for readers without a kernel: animation, HTML, GIF, PNG.

Each export takes one `Trace`, or several (say the DFS and the BFS of the same
click) shown side by side. The figure is built once; each frame updates the
image artists and titles, from the `Trace` arrays (no replay).
"""

from __future__ import annotations

import html
from pathlib import Path

from matplotlib.animation import FuncAnimation, PillowWriter
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .plot import ORDER_NAMES, step_image, tile_size
from .trace import Trace

__all__ = ["frames", "animation", "to_jshtml", "save_html", "save_gif", "save_png", "save"]


def _traces(traces) -> list[Trace]:
    """Return `traces` as a list of traces: one trace, or a sequence of them."""
    if isinstance(traces, Trace):
        return [traces]
    out = list(traces)
    if not out or not all(isinstance(t, Trace) for t in out):
        raise TypeError(f"expected a Trace or a sequence of traces, not {traces!r}")
    return out


def _positive(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a whole number of at least 1, not {value!r}")
    return value


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
        return f"{name}: nothing to reveal"
    k = min(k, len(t) - 1)
    held = "stack" if t.order == "dfs" else "queue"
    return f"{name} step {k} / {len(t) - 1}   {held} {int(t.frontier[k])}" if k >= 0 else name


class _Frames:
    """One figure, an image and a title per trace, and a way to show any step."""

    def __init__(self, traces, *, px=None, dpi=100):
        self.traces = _traces(traces)
        shape = self.traces[0].shape
        self.px = tile_size(shape, width_px=480) if px is None else px
        height, width = shape[0] * self.px, shape[1] * self.px
        n = len(self.traces)
        self.figure = Figure(figsize=(n * (width / dpi + 0.3), height / dpi + 0.5), dpi=dpi)
        FigureCanvasAgg(self.figure)
        self.images, self.titles = [], []
        for i, t in enumerate(self.traces):
            ax = self.figure.add_axes((i / n + 0.01, 0.02, 1 / n - 0.02, 1 - 0.5 * dpi / (height + 0.5 * dpi) - 0.02))
            ax.set_axis_off()
            self.images.append(ax.imshow(self._image(t, 0), interpolation="nearest"))
            self.titles.append(ax.set_title(_title(t, 0), fontsize=10, family="DejaVu Sans Mono"))

    def _image(self, t: Trace, k: int):
        return step_image(t, min(k, len(t) - 1), px=self.px)

    def show(self, k: int) -> list:
        """Show step `k` of every trace (a shorter one holds its last step); return the artists."""
        for t, image, title in zip(self.traces, self.images, self.titles):
            image.set_data(self._image(t, k))
            title.set_text(_title(t, k))
        return self.images + self.titles


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
    """
    steps = frames(traces, stride=stride)
    drawn = _Frames(traces, px=px)
    return FuncAnimation(drawn.figure, drawn.show, frames=steps, interval=interval, blit=False)


def to_jshtml(traces, *, stride: int = 1, interval: int = 200, px=None) -> str:
    """Return the animation as HTML and JavaScript that play in any page, kernel or not.

    Examples
    --------
    >>> import msviz
    >>> "<script" in to_jshtml(msviz.trace(["EEE", "EEM"], (0, 0)))
    True
    """
    return animation(traces, stride=stride, interval=interval, px=px).to_jshtml(default_mode="once")


def save_html(traces, path, *, stride: int = 1, interval: int = 200, px=None, title=None) -> Path:
    """Write a complete HTML page that plays the animation; return its path."""
    ts = _traces(traces)
    title = title or " vs ".join(f"{ORDER_NAMES[t.order]}" for t in ts) + f" reveal from {ts[0].click}"
    body = to_jshtml(ts, stride=stride, interval=interval, px=px)
    page = (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title></head>\n<body style='font-family:sans-serif'>\n"
        f"<h2>{html.escape(title)}</h2>\n{body}\n</body></html>\n"
    )
    path = Path(path)
    path.write_text(page, encoding="utf-8")
    return path


def save_gif(traces, path, *, stride: int = 1, fps: int = 10, px=None) -> Path:
    """Write the animation as a GIF, one frame per shown step; return its path."""
    fps = _positive("fps", fps)
    anim = animation(traces, stride=stride, interval=1000 // fps, px=px)
    path = Path(path)
    anim.save(path, writer=PillowWriter(fps=fps))
    return path


def save_png(traces, path, *, step=None, px=None) -> Path:
    """Write one step (the last by default) as a PNG picture; return its path."""
    drawn = _Frames(traces, px=px)
    last = max(len(t) for t in drawn.traces) - 1
    drawn.show(last if step is None else step)
    path = Path(path)
    drawn.figure.savefig(path)
    return path


def save(traces, path, *, stride: int = 1, fps: int = 10, px=None) -> Path:
    """Write `path` as a GIF, PNG or HTML page, chosen by its extension."""
    suffix = Path(path).suffix.lower()
    if suffix == ".gif":
        return save_gif(traces, path, stride=stride, fps=fps, px=px)
    if suffix == ".png":
        return save_png(traces, path, px=px)
    if suffix in (".html", ".htm"):
        return save_html(traces, path, stride=stride, interval=1000 // _positive("fps", fps), px=px)
    raise ValueError(f"cannot write {str(path)!r}: the file must end in .gif, .png or .html")
