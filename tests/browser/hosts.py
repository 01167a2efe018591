"""The other hosts a student opens a notebook in, for the browser tests: each from an environment of its own.

Besides JupyterLab 4 and Notebook 7 (the main suite's, from ``.venv``), a class may meet
JupyterLab 3.6 with ipywidgets 7 (standing in for Colab, whose widgets are ipywidgets 7's), the
classic Notebook 6.5 with ipywidgets 7 (older hubs), Voila (a notebook served as a page), and
marimo. Each runs from
a virtual environment of its own, with msviz installed from this clone in editable mode (so
it is today's code, whatever files its package holds), built the first time a test needs
it into ``.cache/hosts/<name>-<hash>/``: the hash is of what it installs, msviz's own
requirements, the Python that builds it and the clone's place. A finished environment
holds ``complete.json`` (written last, with the seconds its build took and what pip
installed) and is used again as it is; one without it is built again from nothing.

The second half reads a host's page the same way whatever the host: what an output shows
as an error, each board's handle (``root.msviz``, see tests/browser/chromium.py), whether
a widget fits its output area, and a board's cells. Elements are found through
Playwright's locators, which see into the shadow roots marimo draws its widgets in; the
page's own scripts use `DEEP` to do the same.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from chromium import PATIENCE, ROOT
from labserver import TOKEN, as_root, free_port, running_lab, serving, wait_for_kernel

CACHE = ROOT / ".cache" / "hosts"
STAMP = "complete.json"


# --- the environments: built once, used again -----------------------------------------------------


@dataclass(frozen=True)
class Environment:
    """A virtual environment of its own for one host: `requirements` and msviz (with `extras`)."""

    name: str
    requirements: tuple[str, ...]
    extras: str = ""

    def key(self) -> str:
        """What decides the environment's contents, hashed: it is built again when any of it changes."""
        what = {
            "requirements": self.requirements,
            "extras": self.extras,
            "msviz": _project_requirements(),
            "python": [sys.version, platform.platform(), sys.base_prefix],
            "clone": str(ROOT),  # an editable install points here
        }
        return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()[:12]

    @property
    def folder(self) -> Path:
        return CACHE / f"{self.name}-{self.key()}"

    @property
    def python(self) -> Path:
        return self.folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")

    def ready(self) -> Path:
        """The environment's Python, once the environment is complete: built now if it is not."""
        if not (self.folder / STAMP).exists():
            with _lock(CACHE / f"{self.name}.lock"):
                if not (self.folder / STAMP).exists():  # another run may have built it meanwhile
                    self._build()
        return self.python

    def _build(self) -> None:
        for old in CACHE.glob(f"{self.name}-*"):  # an unfinished build, or one of other requirements
            shutil.rmtree(old, ignore_errors=True)
        started = time.monotonic()
        self.folder.mkdir(parents=True)
        log = self.folder / "build.log"
        msviz = f"{ROOT}[{self.extras}]" if self.extras else str(ROOT)
        steps = [
            [sys.executable, "-m", "venv", str(self.folder)],
            [
                self.python,
                "-m",
                "pip",
                "install",
                "--disable-pip-version-check",
                "--no-input",
                "--quiet",
                *self.requirements,
                "--editable",
                msviz,
            ],
        ]
        with open(log, "w") as out:
            for step in steps:
                out.write(f"$ {' '.join(map(str, step))}\n")
                out.flush()
                done = subprocess.run([str(s) for s in step], stdout=out, stderr=subprocess.STDOUT)
                if done.returncode:
                    raise RuntimeError(
                        f"building the {self.name} environment in {self.folder} failed "
                        f"(exit {done.returncode}):\n" + log.read_text(errors="replace")[-3000:]
                    )
        freeze = subprocess.run(
            [str(self.python), "-m", "pip", "freeze", "--disable-pip-version-check"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        stamp = {"seconds": round(time.monotonic() - started, 1), "requirements": self.requirements}
        (self.folder / STAMP).write_text(json.dumps({**stamp, "installed": freeze}, indent=1) + "\n")

    def built_in(self) -> float:
        """The seconds the environment's build took (read from its stamp)."""
        return json.loads((self.folder / STAMP).read_text())["seconds"]


def _project_requirements() -> object:
    """msviz's own requirements from pyproject.toml (the whole file where tomllib is missing)."""
    text = (ROOT / "pyproject.toml").read_text()
    try:
        import tomllib
    except ImportError:  # Python 3.10
        return text
    project = tomllib.loads(text)["project"]
    return [project.get("dependencies"), project.get("optional-dependencies")]


@contextlib.contextmanager
def _lock(path: Path):
    """Hold a lock on `path` (POSIX): two test runs at once build an environment once."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as handle:
        try:
            import fcntl
        except ImportError:  # Windows: no lock, one run at a time
            yield
            return
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def host_env(python: Path, workdir: Path) -> dict:
    """The environment variables of a host's server: its environment's commands first, and Jupyter's
    and marimo's settings, data and runtime folders in `workdir` (nothing of the user's is read)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    folders = {
        "JUPYTER_CONFIG_DIR": "jupyter-config",
        "JUPYTER_DATA_DIR": "jupyter-data",
        "JUPYTER_RUNTIME_DIR": "runtime",
        "XDG_CONFIG_HOME": "config",
        "XDG_CACHE_HOME": "cache",
        "XDG_STATE_HOME": "state",
    }
    for name, folder in folders.items():
        (workdir / folder).mkdir(parents=True, exist_ok=True)
        env[name] = str(workdir / folder)
    env["PATH"] = os.pathsep.join([str(python.parent), env.get("PATH", "")])
    env["VIRTUAL_ENV"] = str(python.parent.parent)
    env["PYTHONNOUSERSITE"] = "1"
    return env


# --- the hosts: how each is served, and how a notebook is run in it -------------------------------------

#: The notebook the Jupyter hosts run: a player, a comparison and a game, as a student writes them.
NOTEBOOK = "hosts.ipynb"
CELLS = [
    "import msviz\n"
    "board = msviz.random_board(10, 14, 18, seed=7, safe=(5, 7))\n"
    "t = msviz.trace(board, (5, 7))",
    "msviz.player(t)",
    "msviz.compare(board, (5, 7))",
    "msviz.game(seed=3)",
    "msviz.quiz_bank('ada', n=3)",
    "msviz.simulate(['EEE', 'EEM'], (0, 0), order='bfs')",
]
#: marimo's version of notebook 01: the same three widgets (and no quiz bank: notebook 01 has none).
MARIMO_NOTEBOOK = ROOT / "notebooks" / "marimo" / "01_start_here.py"
#: The boards those show: the player's, the comparison's two and the game's (marimo's), and the
#: simulation's (the others').
BOARDS = 4
BOARDS_WITH_SIMULATION = 5


@dataclass(frozen=True)
class Host:
    """One host: its environment, the output area a widget is shown in, and where it shows errors."""

    environment: Environment
    outputs: str  # the selector of an output area
    error_outputs: str  # the selector of an output that shows an error ("" if none has its own)

    @property
    def name(self) -> str:
        return self.environment.name

    def prepare(self, root: Path) -> None:
        """Write what the host serves into folder `root`."""
        from labserver import write_notebook

        write_notebook(root / NOTEBOOK, CELLS)

    def serve(self, python: Path, root: Path, workdir: Path):
        """A context manager: the host's server on `root`, from `python`'s environment; yields its URL."""
        raise NotImplementedError

    def open(self, page, base: str) -> None:
        """Open the notebook in `page` and run it, as a student does."""
        raise NotImplementedError


class Lab3(Host):
    def serve(self, python, root, workdir):
        return running_lab(root, workdir, python=python, env=host_env(python, workdir))

    def open(self, page, base):
        from test_notebooks_in_chromium import _run_all  # JupyterLab's Run All, as the main suite runs it

        _run_all(page, base, NOTEBOOK, "lab")


class Classic(Host):
    @contextlib.contextmanager
    def serve(self, python, root, workdir):
        port = free_port()
        command = [
            str(python),
            "-m",
            "notebook",
            "--no-browser",
            "--ip=127.0.0.1",
            f"--port={port}",
            f"--NotebookApp.token={TOKEN}",
            f"--NotebookApp.notebook_dir={root}",
            *as_root(),
        ]
        base = f"http://127.0.0.1:{port}"
        env = host_env(python, workdir)
        with serving(command, f"{base}/api/status?token={TOKEN}", workdir / "notebook.log", env=env):
            yield base

    def open(self, page, base):
        page.goto(f"{base}/notebooks/{NOTEBOOK}?token={TOKEN}")
        page.wait_for_function("() => window.Jupyter && Jupyter.notebook && Jupyter.notebook._fully_loaded")
        wait_for_kernel(page, base, NOTEBOOK, PATIENCE)
        page.click("#menus a.dropdown-toggle:text-is('Cell')")
        page.click("#run_all_cells a")
        page.wait_for_function(  # every cell run, or one failed (the rest then never runs)
            """n => [...document.querySelectorAll('.code_cell .input_prompt')]
                .filter(p => /\\[\\d+\\]/.test(p.textContent)).length === n
                || document.querySelector('.output_error') !== null""",
            arg=len(CELLS),
            timeout=PATIENCE,
        )


class Voila(Host):
    @contextlib.contextmanager
    def serve(self, python, root, workdir):
        port = free_port()
        command = [
            str(python),
            "-m",
            "voila",
            str(root / NOTEBOOK),
            "--no-browser",
            f"--port={port}",
            "--Voila.ip=127.0.0.1",
            "--show_tracebacks=True",
        ]
        base = f"http://127.0.0.1:{port}"
        env = host_env(python, workdir)
        with serving(command, f"{base}/voila/static/voila.js", workdir / "voila.log", env=env):
            yield base

    def open(self, page, base):
        page.goto(f"{base}/")  # Voila runs the notebook for the page, and shows its outputs


class Marimo(Host):
    def prepare(self, root):
        shutil.copy(MARIMO_NOTEBOOK, root / MARIMO_NOTEBOOK.name)

    @contextlib.contextmanager
    def serve(self, python, root, workdir):
        port = free_port()
        command = [
            str(python),
            "-m",
            "marimo",
            "--yes",
            "run",
            str(root / MARIMO_NOTEBOOK.name),
            "--headless",
            "--host=127.0.0.1",
            f"--port={port}",
            "--no-token",
            "--no-sandbox",
            "--show-tracebacks",
        ]
        base = f"http://127.0.0.1:{port}"
        env = host_env(python, workdir)
        with serving(command, f"{base}/health", workdir / "marimo.log", env=env):
            yield base

    def open(self, page, base):
        page.goto(f"{base}/")  # marimo runs the notebook as an app


JUPYTER_OUTPUT = ".jp-OutputArea-output"
JUPYTER_ERRORS = ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
HOSTS = {
    host.name: host
    for host in [
        # Standing in for Colab: JupyterLab 3 and ipywidgets 7.
        Lab3(
            Environment("lab3", ("jupyterlab>=3.6,<4", "ipywidgets>=7.8,<8", "anywidget", "ipykernel")),
            JUPYTER_OUTPUT,
            JUPYTER_ERRORS,
        ),
        # Older hubs: the classic Notebook and ipywidgets 7 (its notebook extension).
        Classic(
            Environment(
                "notebook6",
                (
                    "notebook>=6.5,<7",
                    "ipywidgets>=7.8,<8",
                    "widgetsnbextension>=3.6,<4",
                    "anywidget",
                    "ipykernel",
                ),
            ),
            ".output_subarea",
            ".output_stderr, .output_error",
        ),
        # A notebook served as a page, with ipywidgets 8 and JupyterLab 4's outputs.
        Voila(Environment("voila", (), extras="voila"), JUPYTER_OUTPUT, JUPYTER_ERRORS),
        # marimo: each widget shown with mo.ui.anywidget, in a shadow root of its own.
        Marimo(Environment("marimo", (), extras="marimo"), ".output-area", ""),
    ]
}


# --- a host's page, read the same way whatever the host ---------------------------------------------

#: `deep(root, selector)`: every element matching `selector` under `root`, inside shadow roots too.
DEEP = """const deep = (root, sel) => [...root.querySelectorAll(sel),
  ...[...root.querySelectorAll('*')].filter(e => e.shadowRoot).flatMap(e => deep(e.shadowRoot, sel))];"""

#: The handle every drawn board has (tests/browser/chromium.py).
HANDLE = ("step", "caption", "rows", "cols", "sprites")

#: Whether every board on the page is drawn: its handle there, its cells all painted.
BOARDS_DRAWN = f"""n => {{ {DEEP}
  const views = deep(document, '.msviz-view');
  return views.length === n && views.every(v => v.msviz
    && {" && ".join(f"typeof v.msviz.{f} === 'function'" for f in HANDLE)}
    && v.msviz.rows() > 0 && v.msviz.cols() > 0
    && v.msviz.sprites().length === v.msviz.rows() * v.msviz.cols()
    && v.querySelector('canvas.msviz-cells').width > 0);
}}"""

#: What a page says, in any host, when a cell or a widget failed.
FAILED_WORDS = ("Traceback", "Error displaying widget", "Error rendering", "An internal error occurred")

#: Whether a host's page has drawn its boards (`n` of them), or shows a failure instead: one of
#: `FAILED_WORDS`, or an element of the host's own error outputs (`errors`, a selector, or "").
OPENED = f"""([n, words, errors]) => ({BOARDS_DRAWN})(n)
  || words.some(w => document.body.innerText.includes(w))
  || Boolean(errors && document.querySelector(errors))"""

#: What lies outside its output area sideways, for a stage given with the output area's selector:
#: the stage, any part of it not inside a part that scrolls or clips, and the area's own overflow.
OVERFLOW = """([stage, outputs]) => {
  const up = e => e.parentElement || (e.getRootNode() !== document ? e.getRootNode().host : null);
  let area = up(stage);
  while (area && !area.matches(outputs)) area = up(area);
  if (!area) return ['no output area (' + outputs + ') around the widget'];
  const box = area.getBoundingClientRect();
  const out = [];
  const name = e => e.tagName.toLowerCase()
    + (typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\\s+/).join('.') : '')
    + (e.dataset.control ? `[${e.dataset.control}]` : '');
  const outside = e => {
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return;  // not shown
    if (r.left < box.left - 1 || r.right > box.right + 1) {
      out.push(`${name(e)} spans ${Math.round(r.left)}-${Math.round(r.right)} px, ` +
               `its output ${Math.round(box.left)}-${Math.round(box.right)} px`);
    }
  };
  const walk = e => {
    outside(e);
    const x = getComputedStyle(e).overflowX;
    if (e !== stage && x !== 'visible') return;  // what is inside scrolls or is clipped within e
    for (const child of e.children) walk(child);
  };
  walk(stage);
  if (area.scrollWidth > area.clientWidth + 1) {
    out.push(`the output scrolls sideways: ${area.scrollWidth} px in ${area.clientWidth}`);
  }
  return out;
}"""


@dataclass
class Problems:
    """What a page reported as wrong while a test watched it: its script errors and console errors.

    Every error no script caught counts, and every console error, but one: a resource the host
    asks of the network (Voila's icon font from a CDN), which these tests do not have. Those are
    kept in `ignored`.
    """

    seen: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)

    def watch(self, page) -> None:
        page.on("pageerror", lambda e: self.seen.append(f"uncaught: {e}"))
        page.on("console", self._console)

    def _console(self, message) -> None:
        if message.type != "error":
            return
        where = (message.location or {}).get("url", "")
        said = f"console error: {message.text} (at {where or 'no script'})"
        elsewhere = where.startswith(("http:", "https:")) and not where.startswith("http://127.0.0.1:")
        fetched = message.text.startswith("Failed to load resource") and elsewhere
        (self.ignored if fetched else self.seen).append(said)

    def since(self, start: int) -> list[str]:
        return self.seen[start:]


def error_texts(page, selector: str) -> list[str]:
    """The text of each element matching `selector` that shows something (an output of an error)."""
    found = page.locator(selector)
    return [t for t in (found.nth(i).inner_text().strip() for i in range(found.count())) if t]


def failures_shown(page, error_outputs: str) -> list[str]:
    """Whatever the page shows as a failure: the host's error outputs (`error_outputs`), the words a
    host writes for a failed cell or widget, and what a widget shows in its own error line."""
    shown = error_texts(page, error_outputs) if error_outputs else []
    body = page.locator("body").inner_text()
    shown += [
        f"the page says {w!r}: ...{body[max(0, body.index(w) - 200) :][:1000]}"
        for w in FAILED_WORDS
        if w in body
    ]
    shown += [f"the widget's error line: {t}" for t in error_texts(page, ".msviz-stage .msviz-error")]
    return shown


def hidden_cells(view) -> int:
    """How many of a board's cells are drawn hidden (sprite 0)."""
    return view.evaluate("root => root.msviz.sprites().filter(s => s === 0).length")


def cell_position(canvas, rows: int, cols: int, row: int, col: int) -> dict:
    """Where cell (row, col) is on a board's canvas, for a click."""
    box = canvas.bounding_box()
    return {"x": (col + 0.5) * box["width"] / cols, "y": (row + 0.5) * box["height"] / rows}
