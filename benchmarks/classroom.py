"""A class on one JupyterHub: how many students a small server holds.

Run it with ``.venv/bin/python benchmarks/classroom.py [--students 10]``
(about 6 minutes for 10 students once set up; the first run also installs,
which takes a few minutes more). Needs Debian's Chromium at /usr/bin/chromium
(``--chromium PATH`` for another), Node.js with npm, and the Python package
``playwright`` in the environment it runs in (no browser download).

What it installs, outside the tracked files (``.classroom/`` is ignored by
git), once, and reuses on later runs:

* ``.classroom/venv``: a virtual environment for the hub, with JupyterHub
  from PyPI and the kit with its notebook extras (``pip install -e
  ".[notebooks]"``: JupyterLab, the widgets, a kernel): the kit installed for
  everyone. Installed again when pyproject.toml changes.
* ``.classroom/node``: JupyterHub's proxy, configurable-http-proxy, from npm.

What it does: it starts a real JupyterHub on 127.0.0.1 (a free port) with the
class's own configuration, docs/jupyterhub_config.py (its kernel culling, its
idle culler, its timeouts), then what one machine needs instead: the dummy
authenticator (any student name, one shared password) and the local process
spawner (every student's server is a process of this machine's user, with a
home folder of its own under a temporary folder, seeded with a copy of
notebooks/; JupyterLab without its news pop-up). Then N students (10 unless
``--students``) log in at once, each in a browser context of its own in one
headless Chromium. A student left on "Your server is starting up" for 90 s
reloads the page, as a real one would (the page's own script may have given
up), and the report counts who needed it. Each runs the whole core path (01 to
05 unless ``--notebooks``) as a student does: opens each notebook from the file
browser, runs all its cells, waits until every board shows the reveal it was
asked for (not the empty one-cell board) and checks that no output shows an
error; the earlier notebooks stay open with their kernels. Then all press Play
on the first player of the last notebook together and watch it for
``--seconds`` (10 unless told). ``--cull-after S`` culls idle kernels after S
seconds instead of the class's 15 minutes, to see culling within a run.

What it measures:

* each student's server memory: the single-user server and its kernel
  (RSS, and PSS, which shares the common libraries out fairly, as the
  machine pays for them), at the end of the Play run, and the most the
  student's processes took at any one second (RSS);
* the hub and its proxy's memory, and all the server side's together;
* the machine's CPU (``/proc/stat``) while the students log in and run the
  notebook, and while they all play, with the share of the server side
  (hub, proxy, servers, kernels) and of the browsers (which in a real class
  run on the students' own machines, not on the hub's);
* the time from a student's "Sign in" to the first board drawn on their
  screen (median and maximum), and its parts: until JupyterLab is up (the
  server spawned), and from "Run All" to the first board.

Every figure per student, and how many students a server of 2 to 16 GB holds,
comes only from the students who got through: one whose server never started,
or whose boards were not drawn, is reported as such and counts for nothing.

It prints a table and a verdict, and writes the figures to
``test-artifacts/benchmark-classroom.json`` (with the hub's log, and the
screenshots of any student whose page went wrong, in
``test-artifacts/classroom/``). The exit status is non-zero when any student's
widgets were not drawn or an output shows an error. ``--keep`` leaves the hub
running after the report, for a look in a browser, until Ctrl-C. The hub, its
proxy and every student's server are stopped at the end, whatever happens.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from labserver import CHROMIUM_FLAGS, free_port, quiet_settings  # noqa: E402

WHERE = ROOT / ".classroom"
VENV = WHERE / "venv"
STAMP = VENV / "msviz-classroom.txt"
NODE = WHERE / "node"
PROXY = NODE / "node_modules" / ".bin" / "configurable-http-proxy"
OUT = ROOT / "test-artifacts" / "benchmark-classroom.json"
ARTIFACTS = ROOT / "test-artifacts" / "classroom"
CHROMIUM = "/usr/bin/chromium"
VIEWPORT = {"width": 1400, "height": 1000}
PASSWORD = "classroom"
MB = 1024 * 1024
# A student waits this long at most for their server, the notebook's run, the boards.
LONG_MS = 600_000
#: What the hub's environment has besides the kit (docs/jupyterhub_config.py uses the culler).
HUB_PACKAGES = ["jupyterhub", "jupyterhub-idle-culler"]
#: The class's own configuration, which each run loads first.
CLASS_CONFIG = ROOT / "docs" / "jupyterhub_config.py"
#: The core path, in the lesson's order: what each student runs.
CORE = [
    "01-start-here.ipynb",
    "02-the-rules.ipynb",
    "03-depth-first.ipynb",
    "04-breadth-first.ipynb",
    "05-comparing-orders.ipynb",
]
#: A student on "Your server is starting up" this long reloads the page, as a student would.
RELOAD_AFTER_MS = 90_000


def say(message: str) -> None:
    with contextlib.suppress(OSError):  # a closed terminal or pipe must not stop the cleaning up
        print(message, flush=True)


# --- the hub's environment -------------------------------------------------------------------


def run(command: list, **kwargs) -> None:
    say("  $ " + " ".join(str(a) for a in command))
    code = subprocess.call([str(a) for a in command], **kwargs)
    if code:
        raise SystemExit(f"classroom: the command above failed (exit {code})")


def install() -> dict:
    """Make the hub's virtual environment and the proxy, unless they are there already."""
    wanted = hashlib.sha256(
        (ROOT / "pyproject.toml").read_bytes() + " ".join(HUB_PACKAGES).encode()
    ).hexdigest()
    python = VENV / "bin" / "python"
    ready = STAMP.exists() and STAMP.read_text().strip() == wanted and (VENV / "bin" / "jupyterhub").exists()
    if not ready:
        say(f"Setting up the hub's Python in {VENV.relative_to(ROOT)} (the first time takes a few minutes)")
        if not python.exists():
            run([sys.executable, "-m", "venv", VENV])
        say(
            "  installing JupyterHub, its idle culler and msviz with its notebook extras (JupyterLab, kernel)"
        )
        pip = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        run([*pip, *HUB_PACKAGES, "-e", f"{ROOT}[notebooks]"])
        STAMP.write_text(wanted + "\n")
    if not PROXY.exists():
        npm = shutil.which("npm")
        if not npm or not shutil.which("node"):
            raise SystemExit("classroom: JupyterHub's proxy needs Node.js and npm; install them first")
        say(f"Installing JupyterHub's proxy (configurable-http-proxy, from npm) in {NODE.relative_to(ROOT)}")
        NODE.mkdir(parents=True, exist_ok=True)
        run([npm, "install", "--prefix", NODE, "--no-audit", "--no-fund", "configurable-http-proxy"])
    versions = subprocess.run(
        [
            python,
            "-c",
            "import jupyterhub, jupyterlab, msviz; print(jupyterhub.__version__,"
            " jupyterlab.__version__, msviz.__version__)",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    proxy = subprocess.run([PROXY, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    say(
        f"JupyterHub {versions[0]}, configurable-http-proxy {proxy},"
        f" JupyterLab {versions[1]}, msviz {versions[2]}"
    )
    return {
        "jupyterhub": versions[0],
        "configurable-http-proxy": proxy,
        "jupyterlab": versions[1],
        "msviz": versions[2],
    }


# --- the hub ---------------------------------------------------------------------------------

CONFIG = '''\
# Written by benchmarks/classroom.py for one run: the class's own configuration
# (docs/jupyterhub_config.py: its culling, its timeouts), then what a run on one
# machine needs instead (a dummy login, local processes, free ports).
import pathlib
import shutil

c = get_config()  # noqa: F821
load_subconfig("{class_config}")  # noqa: F821
c.JupyterHub.bind_url = "http://127.0.0.1:{port}"
c.JupyterHub.hub_bind_url = "http://127.0.0.1:{hub_port}"
c.JupyterHub.db_url = "sqlite:///{work}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = "{work}/jupyterhub_cookie_secret"
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True
c.ConfigurableHTTPProxy.command = ["{proxy}"]
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{api_port}"
c.ConfigurableHTTPProxy.pid_file = "{work}/proxy.pid"

# Any student name, one shared password.
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = "{password}"
c.Authenticator.allow_all = True

# Every student's server is a process of this machine's user, at home in a folder of its own.
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = "{homes}/{{username}}"
c.Spawner.cmd = ["{venv}/bin/jupyterhub-singleuser"]
c.Spawner.args = list(c.Spawner.args) + {args!r}  # the class's kernel culling, then this run's
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 600  # a whole class starting at once on a small machine
c.Spawner.http_timeout = 600

NOTEBOOKS = "{notebooks}"
SETTINGS = "{settings}"  # JupyterLab settings without the news pop-up, copied into each home


def seed(spawner):
    """A home with a copy of the notebooks, and JupyterLab settings without the news pop-up."""
    home = pathlib.Path("{homes}") / spawner.user.name
    home.mkdir(parents=True, exist_ok=True)
    if not (home / "notebooks").exists():
        shutil.copytree(NOTEBOOKS, home / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    settings = home / ".lab-settings"
    shutil.copytree(SETTINGS, settings, dirs_exist_ok=True)
    spawner.environment = {{**spawner.environment, "JUPYTERLAB_SETTINGS_DIR": str(settings)}}


c.Spawner.pre_spawn_hook = seed
'''


class Hub:
    """JupyterHub with its proxy, started in `work`; `stop()` ends it and everything it started."""

    def __init__(self, work: Path):
        self.work = work
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.seen: dict[int, tuple[float, str]] = {}  # every process of the hub's tree: pid -> (start, name)
        self.log_path = work / "hub.log"

    def start(self, cull_after: int | None = None) -> None:
        homes = self.work / "homes"
        homes.mkdir()
        args = ["--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            args.append("--allow-root")  # a server refuses root otherwise
        if cull_after is not None:  # later options win: a shorter culling, to see it within a run
            args.append(f"--MappingKernelManager.cull_idle_timeout={cull_after}")
        config = CONFIG.format(
            class_config=CLASS_CONFIG,
            port=self.port,
            hub_port=free_port(),
            api_port=free_port(),
            work=self.work,
            proxy=PROXY,
            password=PASSWORD,
            homes=homes,
            venv=VENV,
            args=args,
            notebooks=ROOT / "notebooks",
            settings=quiet_settings(self.work / "lab-settings"),
        )
        (self.work / "jupyterhub_config.py").write_text(config)
        bin_dir = VENV / "bin"
        env = {
            **os.environ,
            "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
            "VIRTUAL_ENV": str(VENV),
        }
        env.pop("PYTHONPATH", None)
        env.pop("JUPYTERLAB_SETTINGS_DIR", None)
        say(f"Starting JupyterHub at {self.url}")
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                [bin_dir / "jupyterhub", "-f", self.work / "jupyterhub_config.py"],
                cwd=self.work,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # Ctrl-C in the terminal reaches this script, which stops it
            )
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"{self.url}/hub/api/", timeout=5).read()
                break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("JupyterHub did not start:\n" + self.log_tail()) from None
                time.sleep(0.5)
        self.tree()

    def log_tail(self, chars: int = 4000) -> str:
        return self.log_path.read_text(errors="replace")[-chars:] if self.log_path.exists() else ""

    def tree(self) -> list[psutil.Process]:
        """The hub and every process under it (proxy, servers, kernels); remembered for `stop()`."""
        if self.proc is None or self.proc.poll() is not None:
            return []
        try:
            hub = psutil.Process(self.proc.pid)
            procs = [hub, *hub.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []
        for p in procs:
            if p.pid not in self.seen:
                with contextlib.suppress(psutil.Error):
                    self.seen[p.pid] = (p.create_time(), name(p))
        return procs

    def stop(self) -> None:
        """Stop the hub (it stops the servers and the proxy), then whatever of its tree is left."""
        if self.proc is None:
            return
        self.tree()
        if self.proc.poll() is None:
            say("Stopping JupyterHub, its proxy and the students' servers")
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        left = []
        for pid, (started, _) in self.seen.items():
            with contextlib.suppress(psutil.Error):
                p = psutil.Process(pid)
                if p.create_time() == started and p.status() != psutil.STATUS_ZOMBIE:
                    left.append(p)
        names = {p.pid: self.seen[p.pid][1] for p in left}
        for p in left:
            with contextlib.suppress(psutil.Error):
                p.terminate()
        _, alive = psutil.wait_procs(left, timeout=10)
        for p in alive:
            with contextlib.suppress(psutil.Error):
                p.kill()
        if left:
            names = ", ".join(sorted(set(names.values())))
            say(f"  ({len(left)} processes outlived the hub and were stopped: {names})")
        self.proc = None


def name(p: psutil.Process) -> str:
    """What a process is, in a word or two: its command's name and the module or script it runs."""
    try:
        cmd = p.cmdline()
    except psutil.Error:
        return "?"
    words = [Path(cmd[0]).name] if cmd else [p.name()]
    words += [Path(a).name for a in cmd[1:3] if not a.startswith("-")][:1]
    return " ".join(words)


# --- measuring the machine -------------------------------------------------------------------


def machine_cpu() -> tuple[int, int]:
    """(busy, total) jiffies of all cores, from /proc/stat."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    total = sum(fields[:8])  # user nice system idle iowait irq softirq steal (guest is within user)
    return total - fields[3] - fields[4], total


def cpu_seconds(procs: list[psutil.Process]) -> float:
    total = 0.0
    for p in procs:
        with contextlib.suppress(psutil.Error):
            t = p.cpu_times()
            total += t.user + t.system
    return total


def browser_procs(hub: Hub) -> list[psutil.Process]:
    """The students' side: Chromium, Playwright's driver and this script (all but the hub's tree)."""
    me = psutil.Process()
    server = {p.pid for p in hub.tree()}
    return [me, *(p for p in me.children(recursive=True) if p.pid not in server)]


def by_owner(hub: Hub) -> dict[str, list[psutil.Process]]:
    """The hub's tree by owner: "hub" (the hub and its proxy) and each student's processes.

    A student's server is a child of the hub with JUPYTERHUB_USER in its environment;
    the processes under it (the kernel) are the student's too.
    """
    hub_pid = hub.proc.pid if hub.proc else None
    procs, parent = {}, {}
    for p in hub.tree():
        with contextlib.suppress(psutil.Error):
            parent[p.pid] = p.ppid()
            procs[p.pid] = p

    def owner(pid: int) -> str:
        if pid == hub_pid or pid not in procs:
            return "hub"
        if parent[pid] == hub_pid:
            try:
                return procs[pid].environ().get("JUPYTERHUB_USER") or "hub"
            except psutil.Error:
                return "hub"
        return owner(parent[pid])

    owners: dict[str, list[psutil.Process]] = {"hub": []}
    for pid, p in procs.items():
        owners.setdefault(owner(pid), []).append(p)
    return owners


def parent_of(p: psutil.Process) -> int | None:
    try:
        return p.ppid()
    except psutil.Error:
        return None


def memory(procs: list[psutil.Process], pss: bool = False) -> float:
    """The processes' RSS (or PSS) together, in MB."""
    total = 0
    for p in procs:
        with contextlib.suppress(psutil.Error):
            total += p.memory_full_info().pss if pss else p.memory_info().rss
    return total / MB


class Sampler(threading.Thread):
    """Once a second: the machine's CPU over the last second, and the RSS of each owner's processes."""

    def __init__(self, hub: Hub):
        super().__init__(daemon=True)
        self.hub = hub
        self.samples: list[dict] = []
        self.peak: dict[str, float] = {}
        self.halt = threading.Event()

    def run(self) -> None:
        last = machine_cpu()
        while not self.halt.wait(1.0):
            now = machine_cpu()
            busy = (now[0] - last[0]) / max(1, now[1] - last[1])
            last = now
            rss = {owner: memory(procs) for owner, procs in by_owner(self.hub).items()}
            for owner, mb in rss.items():
                self.peak[owner] = max(self.peak.get(owner, 0.0), mb)
            self.samples.append({"t": time.monotonic(), "cpu": busy, "rss_mb": sum(rss.values())})

    def stop(self) -> None:
        self.halt.set()
        self.join(timeout=10)


class Window:
    """CPU over a stretch of time: the machine's, the server side's and the browsers'."""

    def __init__(self, hub: Hub):
        self.hub = hub
        self.t0 = time.monotonic()
        self.cpu0 = machine_cpu()
        self.server0 = {p.pid: cpu_seconds([p]) for p in hub.tree()}
        self.browser0 = {p.pid: cpu_seconds([p]) for p in browser_procs(hub)}

    @staticmethod
    def _used(start: dict[int, float], procs: list[psutil.Process]) -> float:
        return sum(cpu_seconds([p]) - start.get(p.pid, 0.0) for p in procs)

    def close(self) -> dict:
        seconds = time.monotonic() - self.t0
        busy, total = machine_cpu()
        cores = psutil.cpu_count()
        machine = (busy - self.cpu0[0]) / max(1, total - self.cpu0[1]) * cores
        server = self._used(self.server0, self.hub.tree()) / seconds
        browsers = self._used(self.browser0, browser_procs(self.hub)) / seconds
        return {
            "seconds": seconds,
            # In cores busy (2.0 is all of a 2-core machine). The browsers' side is Chromium,
            # Playwright's driver and this script; "other" is whatever else ran on the machine.
            "machine_cores": machine,
            "server_cores": server,
            "browser_cores": browsers,
            "other_cores": max(0.0, machine - server - browsers),
        }


# --- the students ----------------------------------------------------------------------------

ERRORS = """() => {
    const bad = [...document.querySelectorAll(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")]
        .map(e => e.innerText).filter(t => t.includes('Traceback') || t.includes('Error'));
    const body = document.querySelector('.jp-Notebook')?.innerText || '';
    if (body.includes('Error displaying widget')) bad.push('Error displaying widget');
    if (body.includes('Traceback')) bad.push('a traceback is shown');
    return bad;
}"""
# The notebook in sight (its tab the current one).
SHOWN = ".jp-NotebookPanel:not(.lm-mod-hidden)"
# Every code cell whose source shows has run (a number in its prompt; a hidden cell shows none).
ALL_RAN = """n => [...document.querySelectorAll('SHOWN .jp-CodeCell .jp-InputPrompt')]
    .filter(p => /\\[\\d+\\]/.test(p.textContent)).length >= n""".replace("SHOWN", SHOWN)
# The code cells whose prompt has no number yet: their number, prompt and first line.
NOT_RUN = """() => [...document.querySelectorAll('.jp-CodeCell')].map((c, i) => [i + 1,
    c.querySelector('.jp-InputPrompt')?.textContent.trim(),
    (c.querySelector('.jp-InputArea-editor')?.textContent || '').trim().split('\\n')[0].slice(0, 60)])
    .filter(([, prompt]) => !/\\[\\d+\\]/.test(prompt || ''))"""
# Every board view of the notebook in sight has drawn the reveal it was asked for: a board
# bigger than the empty one-cell default, and (once it shows a step) some cell uncovered
# (benchmarks/lesson.py's shows_a_reveal, in the page).
ALL_DRAWN = """() => {
    const views = [...document.querySelectorAll('SHOWN .msviz-view')];
    return views.every(v => v.dataset.step !== undefined && v.msviz && v.msviz.rows() * v.msviz.cols() > 1
        && (v.msviz.step() < 0 || v.msviz.sprites().some(c => c >= 2 && c <= 11)));
}""".replace("SHOWN", SHOWN)


def shown_code_cells(notebook: str) -> int:
    """The code cells of `notebook` whose source shows (a hidden one shows no prompt)."""
    cells = json.loads((ROOT / "notebooks" / notebook).read_text())["cells"]
    return sum(
        c["cell_type"] == "code" and not c["metadata"].get("jupyter", {}).get("source_hidden") for c in cells
    )


class Student:
    def __init__(self, name: str, hub_url: str, notebooks: list[str]):
        self.name, self.hub_url, self.notebooks = name, hub_url, notebooks
        self.page = None
        self.context = None
        self.figures: dict = {"name": name, "ok": False, "error": None, "reloads": 0}
        self.stage = "not started"

    async def wait_for_server(self) -> None:
        """Wait for JupyterLab after "Sign in"; on "Your server is starting up" for RELOAD_AFTER_MS,
        reload the page, as a student would (its script may have given up waiting)."""
        page = self.page
        lab = re.compile(rf"/user/{self.name}/lab")
        deadline = time.monotonic() + LONG_MS / 1000
        while True:
            try:
                await page.wait_for_url(lab, timeout=RELOAD_AFTER_MS)
                return
            except Exception:
                if time.monotonic() > deadline:
                    raise
                self.figures["reloads"] += 1
                say(f"  {self.name} reloads the page (on {page.url.split('?')[0]})")
                await page.reload()

    async def start(self, browser, on_ready) -> None:
        """Log in, wait for JupyterLab, open the notebook, run all, wait for every board drawn."""
        f = self.figures
        try:
            self.context = await browser.new_context(viewport=VIEWPORT)
            self.page = page = await self.context.new_page()
            page.set_default_timeout(LONG_MS)
            self.stage = "logging in"
            await page.goto(f"{self.hub_url}/hub/login")
            await page.fill("#username_input", self.name)
            await page.fill("#password_input", PASSWORD)
            t0 = time.monotonic()
            await page.click("#login_submit")
            self.stage = "waiting for the server and JupyterLab"
            await self.wait_for_server()
            await page.wait_for_selector(".jp-LabShell, #jp-main-dock-panel")
            f["lab_s"] = time.monotonic() - t0
            await page.add_style_tag(content=".Toastify { display: none !important; }")
            # As a student does: in the file browser, the notebooks folder, then each notebook of
            # the lesson in turn, each run whole; the earlier ones stay open with their kernels.
            listing = page.locator(".jp-DirListing-itemText")
            await listing.get_by_text("notebooks", exact=True).dblclick()
            f["views"] = 0
            for notebook in self.notebooks:
                self.stage = f"opening {notebook}"
                await listing.get_by_text(notebook, exact=True).dblclick()
                await page.wait_for_selector(f"{SHOWN} .jp-Notebook .jp-Cell")
                await page.wait_for_selector(".jp-StatusBar-Widget:has-text('Idle')")  # its kernel is up
                await page.wait_for_timeout(1000)
                self.stage = f"running all cells of {notebook}"
                await page.click(".lm-MenuBar-item:has-text('Run')")
                await page.click(".lm-Menu-item:not(.lm-mod-disabled):has-text('Run All Cells')")
                t_run = time.monotonic()
                if "first_widget_s" not in f:
                    await page.wait_for_function(
                        f"() => [...document.querySelectorAll('{SHOWN} .msviz-view')]"
                        ".some(v => v.dataset.step !== undefined)",
                        polling=100,
                    )
                    f["first_widget_s"] = time.monotonic() - t0
                    f["run_to_widget_s"] = time.monotonic() - t_run
                await page.wait_for_function(ALL_RAN, arg=shown_code_cells(notebook), polling=250)
                self.stage = f"waiting for every board of {notebook} drawn"
                await page.wait_for_function(ALL_DRAWN, polling=250)
                f["views"] += await page.locator(f"{SHOWN} .msviz-view").count()
                await self.check()
            f["all_ran_s"] = time.monotonic() - t0
            self.stage = "ready"
            on_ready()
        except Exception as error:
            await self.failed(error)

    async def check(self) -> None:
        bad = await self.page.evaluate(ERRORS)
        if bad:
            raise RuntimeError("an output shows an error: " + "\n---\n".join(bad)[:2000])

    async def play(self, seconds: float) -> None:
        """Press Play on the first player, watch it for `seconds`, pause; the steps drawn per second."""
        f, page = self.figures, self.page
        try:
            self.stage = "playing"
            player = page.locator(f"{SHOWN} .widget-vbox:has(.msviz-view)").first
            view = player.locator(".msviz-view").first
            await player.scroll_into_view_if_needed()
            last = await player.locator(".widget-slider .noUi-handle").first.get_attribute("aria-valuemax")
            start = int(await view.get_attribute("data-step"))
            button = player.locator(".widget-play button").first
            t0 = time.monotonic()
            await button.click()
            await page.wait_for_timeout(seconds * 1000)
            end = int(await view.get_attribute("data-step"))
            f["play_s"] = time.monotonic() - t0
            await button.click()  # pause
            f["steps"] = int(float(last)) + 1
            f["steps_played_per_s"] = (end - start) / f["play_s"]
            if end <= start:
                raise RuntimeError(f"Play did not move the board (step {start} before, {end} after)")
            await self.check()
            f["ok"] = True
            self.stage = "done"
        except Exception as error:
            await self.failed(error)

    async def failed(self, error: Exception) -> None:
        message = f"{self.stage}: {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
        self.figures["error"] = message[:2000]
        say(f"  {self.name} FAILED while {message}")
        if self.page is not None:
            with contextlib.suppress(Exception):  # the cells that have not run, to say where it stopped
                waiting = await self.page.evaluate(NOT_RUN)
                if waiting:
                    self.figures["not_run"] = waiting
                    say(f"    cells not run: {waiting}")
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(Exception):
                await self.page.screenshot(path=str(ARTIFACTS / f"{self.name}.png"), timeout=30_000)

    async def close(self) -> None:
        if self.context is not None:
            with contextlib.suppress(Exception):
                await self.context.close()


async def lesson(hub: Hub, args, sampler: Sampler) -> dict:
    """All students at once: log in and run the notebook; then all play together; the figures."""
    from playwright.async_api import async_playwright

    names = [f"student{i + 1:02d}" for i in range(args.students)]
    students = [Student(name, hub.url, args.notebooks) for name in names]
    async with async_playwright() as pw:
        if args.nice_browsers:
            # Playwright's driver, and so the Chromium it starts: at the lowest priority.
            for p in psutil.Process().children():
                with contextlib.suppress(psutil.Error):
                    if p.pid not in {q.pid for q in hub.tree()}:
                        p.nice(19)
        browser = await pw.chromium.launch(executable_path=args.chromium, headless=True, args=CHROMIUM_FLAGS)
        try:
            say(f"{len(students)} students log in at once and run {', '.join(args.notebooks)}")
            start = Window(hub)
            windows = []  # the CPU from the logins until the last student was ready

            def on_ready():
                windows.append(start.close())

            await asyncio.gather(*(s.start(browser, on_ready) for s in students))
            starting = windows[-1] if windows else start.close()
            ready = [s for s in students if s.stage == "ready"]
            say(f"  {len(ready)} of {len(students)} ready, the last after {starting['seconds']:.0f} s")
            per_student_cpu = {
                owner: cpu_seconds(procs) for owner, procs in by_owner(hub).items() if owner != "hub"
            }
            playing = None
            if ready:
                say(f"{len(ready)} students press Play together and watch for {args.seconds:g} s")
                window = Window(hub)
                await asyncio.gather(*(s.play(args.seconds) for s in ready))
                playing = window.close()
            # Memory with every student's kernel alive, just after playing.
            owners = by_owner(hub)
            hub_pid = hub.proc.pid
            memory_now = {}
            for owner, procs in owners.items():
                under = [p for p in procs if p.pid != hub_pid and parent_of(p) != hub_pid]  # the kernels
                memory_now[owner] = {
                    "rss_mb": memory(procs),
                    "pss_mb": memory(procs, pss=True),
                    "kernel_pss_mb": memory(under, pss=True),
                    "processes": len(procs),
                    "names": sorted(name(p) for p in procs),
                }
            ok = [s for s in students if s.figures["ok"]]
            if ok:
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                with contextlib.suppress(Exception):
                    await ok[0].page.screenshot(path=str(ARTIFACTS / "student-page.png"), timeout=30_000)
            version = browser.version
            for s in students:
                await s.close()
        finally:
            await browser.close()
    # The hub's own count of each server's start, from the spawn to the server answering.
    spawned = dict(re.findall(r"User (\S+) took ([\d.]+) seconds to start", hub.log_tail(10**9)))
    for s in students:
        m = memory_now.get(s.name, {})
        s.figures.update(
            spawn_s=float(spawned[s.name]) if s.name in spawned else None,
            server_rss_mb=m.get("rss_mb"),
            server_pss_mb=m.get("pss_mb"),
            kernel_pss_mb=m.get("kernel_pss_mb"),
            process_names=m.get("names"),
            server_peak_rss_mb=sampler.peak.get(s.name),
            processes=m.get("processes"),
            server_cpu_s_to_ready=per_student_cpu.get(s.name),
        )
    return {
        "chromium": version,
        "students": [s.figures for s in students],
        "hub": {**memory_now.get("hub", {}), "peak_rss_mb": sampler.peak.get("hub")},
        "starting": starting,
        "playing": playing,
    }


# --- the report ------------------------------------------------------------------------------


def summarize(result: dict, args) -> dict:
    students = result["students"]
    ok = [s for s in students if s["ok"]]

    def stat(key, pick=ok):  # only students who got through: one who never started says nothing
        xs = [s[key] for s in pick if s.get(key) is not None]
        if not xs:
            return None
        return {"median": statistics.median(xs), "max": max(xs), "min": min(xs), "mean": statistics.fmean(xs)}

    hub = result["hub"]
    servers_pss = sum(s["server_pss_mb"] or 0 for s in ok)
    servers_rss = sum(s["server_rss_mb"] or 0 for s in ok)
    total_pss = servers_pss + (hub.get("pss_mb") or 0)
    per_pss = stat("server_pss_mb")
    summary = {
        "students": len(students),
        "ok": len(ok),
        "reloaded": sum(1 for s in students if s.get("reloads")),
        "reloads": sum(s.get("reloads", 0) for s in students),
        "server_rss_mb": stat("server_rss_mb"),
        "server_pss_mb": per_pss,
        "server_peak_rss_mb": stat("server_peak_rss_mb"),
        "kernel_pss_mb": stat("kernel_pss_mb"),
        "server_cpu_s_to_ready": stat("server_cpu_s_to_ready"),
        "hub_rss_mb": hub.get("rss_mb"),
        "hub_pss_mb": hub.get("pss_mb"),
        "all_servers_rss_mb": servers_rss,
        "all_servers_pss_mb": servers_pss,
        "server_side_pss_mb": total_pss,
        "spawn_s": stat("spawn_s"),
        "lab_s": stat("lab_s"),
        "first_widget_s": stat("first_widget_s"),
        "run_to_widget_s": stat("run_to_widget_s"),
        "all_ran_s": stat("all_ran_s"),
        "steps_played_per_s": stat("steps_played_per_s"),
    }
    # How many students fit in a server's memory, leaving 512 MB to the system, at the
    # memory each student took here (PSS), and at the most any student's processes took (RSS).
    if per_pss:
        each = max(per_pss["mean"], 1.0)
        peak = max(summary["server_peak_rss_mb"]["max"] if summary["server_peak_rss_mb"] else 0, each)
        base = (hub.get("pss_mb") or 0) + 512
        summary["fits"] = {
            f"{gb} GB": {
                "at_pss": int((gb * 1024 - base) // each),
                "at_peak_rss": int((gb * 1024 - base) // peak),
            }
            for gb in (2, 4, 8, 16)
        }
    return summary


def fmt(x, digits=0, unit="") -> str:
    return "-" if x is None else f"{x:.{digits}f}{unit}"


def report(result: dict, summary: dict, args) -> str:
    cores = psutil.cpu_count()
    say("")
    header = (
        f"{'student':<10} {'ok':<4} {'spawn':>6} {'lab up':>7} {'1st board':>9} {'all ran':>8} {'steps/s':>8}"
        f" {'RSS MB':>7} {'PSS MB':>7} {'kernel':>7} {'peak RSS':>8} {'CPU s':>6}"
    )
    say("Times in seconds from 'Sign in' (spawn: the hub's count of the server's start); steps/s: Play's")
    say("steps drawn a second (10 if the browser keeps up). Memory of the student's server and kernel after")
    say("playing: RSS; PSS (the shared libraries shared out), of which the kernel's; the most RSS at any")
    say("second. CPU s: the server's and kernel's CPU seconds until the notebook had run.")
    say(header)
    say("-" * len(header))
    for s in result["students"]:
        say(
            f"{s['name']:<10} {'yes' if s['ok'] else 'NO':<4} {fmt(s.get('spawn_s'), 1):>6}"
            f" {fmt(s.get('lab_s'), 1):>7}"
            f" {fmt(s.get('first_widget_s'), 1):>9} {fmt(s.get('all_ran_s'), 1):>8}"
            f" {fmt(s.get('steps_played_per_s'), 1):>8} {fmt(s.get('server_rss_mb')):>7}"
            f" {fmt(s.get('server_pss_mb')):>7} {fmt(s.get('kernel_pss_mb')):>7}"
            f" {fmt(s.get('server_peak_rss_mb')):>8}"
            f" {fmt(s.get('server_cpu_s_to_ready'), 1):>6}"
        )
    hub = result["hub"]
    say(
        f"{'hub+proxy':<10} {'':<4} {'':>6} {'':>7} {'':>9} {'':>8} {'':>8} {fmt(hub.get('rss_mb')):>7}"
        f" {fmt(hub.get('pss_mb')):>7} {'':>7} {fmt(hub.get('peak_rss_mb')):>8}"
    )
    for label, w in (("logging in and running", result["starting"]), ("playing", result["playing"])):
        if w:
            say(
                f"CPU while {label} ({w['seconds']:.0f} s): the machine"
                f" {w['machine_cores']:.2f} of {cores} cores busy; the server side"
                f" {w['server_cores']:.2f}, the browsers {w['browser_cores']:.2f},"
                f" other work {w['other_cores']:.2f}"
            )
    for s in result["students"]:
        if s["error"]:
            say(f"  {s['name']}: {s['error']}")
    n, ok = summary["students"], summary["ok"]
    verdict = (
        f"{n} students ({ok} got through; {summary['reloaded']} reloaded a page stuck on 'server starting'): "
    )
    if summary["server_pss_mb"]:
        verdict += (
            f"the server side takes {summary['server_side_pss_mb']:.0f} MB in all"
            f" ({summary['server_pss_mb']['mean']:.0f} MB a student, PSS; RSS"
            f" {summary['server_rss_mb']['mean']:.0f} MB, peak {summary['server_peak_rss_mb']['max']:.0f} MB;"
            f" hub and proxy {fmt(hub.get('pss_mb'))} MB)"
        )
    if result["playing"]:
        w = result["playing"]
        verdict += (
            f"; CPU while all play: {100 * w['machine_cores'] / cores:.0f}% of {cores} cores"
            f" ({100 * w['server_cores'] / cores:.0f}% server side)"
        )
    w = result["starting"]
    verdict += f"; while logging in and running: {100 * w['machine_cores'] / cores:.0f}%"
    fw = summary["first_widget_s"]
    if fw:
        verdict += f"; first board drawn {fw['median']:.1f} s after 'Sign in' (median), {fw['max']:.1f} s max"
    say("")
    say(verdict)
    if summary.get("fits"):
        say(
            "Students a server holds (memory, 512 MB left to the system): "
            + ", ".join(
                f"{gb}: {v['at_pss']} ({v['at_peak_rss']} at peak RSS)" for gb, v in summary["fits"].items()
            )
        )
    return verdict


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=10, help="students logging in at once (default 10)")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds of Play (default 10)")
    parser.add_argument(
        "--notebooks",
        nargs="+",
        default=CORE,
        help="the notebooks each student runs in turn (in notebooks/; default the core path, 01 to 05)",
    )
    parser.add_argument(
        "--cull-after",
        type=int,
        default=None,
        help="seconds idle before a kernel is culled (default the class's, docs/jupyterhub_config.py)",
    )
    parser.add_argument(
        "--keep", action="store_true", help="leave the hub running after the report until Ctrl-C"
    )
    parser.add_argument(
        "--nice-browsers",
        action="store_true",
        help="run Chromium at the lowest priority, as if the students' browsers were on other machines",
    )
    parser.add_argument("--chromium", default=CHROMIUM, help=f"the browser (default {CHROMIUM})")
    args = parser.parse_args(argv)
    for notebook in args.notebooks:
        if not (ROOT / "notebooks" / notebook).exists():
            parser.error(f"no notebook notebooks/{notebook}")
    if args.students < 1:
        parser.error("--students must be at least 1")

    def stop(*_):
        raise KeyboardInterrupt

    for name in ("SIGTERM", "SIGHUP"):  # stopped from outside: clean up as for Ctrl-C
        signal.signal(getattr(signal, name), stop)

    started = time.monotonic()
    versions = install()
    work = Path(tempfile.mkdtemp(prefix="msviz-classroom-"))
    hub = Hub(work)
    sampler = None
    code = None
    try:
        hub.start(args.cull_after)
        sampler = Sampler(hub)
        sampler.start()
        result = asyncio.run(lesson(hub, args, sampler))
        sampler.stop()
        summary = summarize(result, args)
        verdict = report(result, summary, args)
        seconds = time.monotonic() - started
        say(f"The run took {seconds:.0f} s")
        OUT.parent.mkdir(parents=True, exist_ok=True)
        OUT.write_text(
            json.dumps(
                {
                    "students": args.students,
                    "notebooks": args.notebooks,
                    "cull_after_s": args.cull_after,
                    "play_seconds": args.seconds,
                    "versions": {
                        **versions,
                        "chromium": result["chromium"],
                        "python": platform.python_version(),
                    },
                    "cpus": psutil.cpu_count(),
                    "memory_gb": psutil.virtual_memory().total / 1024**3,
                    "seconds": seconds,
                    "verdict": verdict,
                    "summary": summary,
                    **result,
                    "cpu_timeline": sampler.samples,
                },
                indent=2,
            )
            + "\n"
        )
        say(f"figures written to {OUT.relative_to(ROOT)}")
        code = 0 if summary["ok"] == summary["students"] else 1
        if code:
            say(f"FAILED: {summary['students'] - summary['ok']} students' widgets did not all work (above)")
        if args.keep:
            say(
                f"The hub is still at {hub.url}: log in as student01 (password {PASSWORD!r}); Ctrl-C stops it"
            )
            while True:
                time.sleep(3600)
    except KeyboardInterrupt:
        say("Interrupted")
        code = 130 if code is None else code
    finally:
        if sampler is not None:
            sampler.stop()
        hub.stop()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        if hub.log_path.exists():
            shutil.copy(hub.log_path, ARTIFACTS / "hub.log")
        shutil.rmtree(work, ignore_errors=True)
    return 1 if code is None else code


if __name__ == "__main__":
    sys.exit(main())
