"""A class on one JupyterHub through the whole lesson: what a student costs a server, and how many it holds.

Run it with ``.venv/bin/python benchmarks/classroom.py [--students 10]``
(about 10 minutes, whatever the class's size; the first run also installs,
which takes a few minutes more). Needs Debian's Chromium at /usr/bin/chromium
(``--chromium PATH`` for another), Node.js with npm, and the Python package
``playwright`` in the environment it runs in (no browser download).

What it installs, outside the tracked files (``.classroom/`` is ignored by
git), once, and reuses on later runs:

* ``.classroom/venv``: a virtual environment for the hub, with JupyterHub and
  jupyterhub-idle-culler from PyPI and the kit with its notebook extras
  (``pip install -e ".[notebooks]"``: JupyterLab, the widgets, a kernel): the
  kit installed for everyone. Installed again when pyproject.toml changes.
* ``.classroom/node``: JupyterHub's proxy, configurable-http-proxy, from npm.

What it does. It starts a real JupyterHub on 127.0.0.1 with the class's own
configuration, docs/jupyterhub_config.py (its idle culler, its kernel
culling, its timeouts), then what one machine needs instead: the dummy
authenticator (any name, one shared password) and the local process spawner
(each student's server a process of this machine's user, at home in a folder
of its own seeded with a copy of notebooks/). Then N students (10 unless
``--students``), each in a browser context of its own in one headless
Chromium, sign in at once, as the guide asks, before the lesson. A student left
on "Your server is starting up" for 90 s reloads the page, as a real one would
(the page's own script may have given up); the report counts who did.

When every student is in JupyterLab (or has given up), the lesson begins, on
the guide's own timeline (docs/teaching.md's table: 01 at minute 0, 02 at 7,
03 at 15, 04 at 29, 05 at 41, the end at 50), at ``--minute`` seconds a
lesson minute (8 unless told: the 50 minutes in 400 s). Each student opens
each core notebook from the file browser when its block begins (or as soon as
the last one is done, if they are behind), runs all its cells, and waits until
every board shows the reveal it was asked for (see `board_problem`: not a lone
grey cell, not a click that "reveals nothing", some cell uncovered) and no
output shows an error; at the end of the block they press Play on its first
player for ``--play-seconds`` (their last touch of that notebook's kernel).
The earlier tabs stay open, as a student leaves them. The kernel culling of
docs/jupyterhub_config.py runs at the same scale (a kernel idle for 15
lesson minutes is shut down, checked every lesson minute), so the memory a
student takes is the lesson's, with culling, as in a class.

Then the class stops, and one student, the observer, plays alone: the
server side's CPU over ``--observe-seconds`` of Play with one browser that is
not starved, less the same time idle, is what a student playing at the
lesson's speed (the player's own: 10 moves a second, each of its
``per_frame`` steps) costs the server. The player plays in the browser and
tells the kernel its step twice a second, whatever its speed, so the cost is
the one measured, not scaled by the moves drawn.

What it measures: each student's server (the single-user server and its
kernels) at its peak through the lesson and at the end (RSS, and PSS, which
shares the common libraries out as the machine pays for them), the most
kernels alive at once; the hub and its proxy; the machine's CPU through the
lesson, the server side apart from the browsers (which in a class run on the
students' own machines); the time from "Sign in" to JupyterLab and to the
first board; how late each student was on the timeline.

Every figure per student, and how many students a server holds (2 cores and
8 GB, 4 cores and 16 GB), comes only from the students who got through: one
whose server never started, or whose boards were not drawn, is reported as
such and counts for nothing (`summarize`, `class_size`).

It prints a table and a verdict, and writes the figures to
``test-artifacts/benchmark-classroom.json`` (with the hub's log, and the
screenshots of any student whose page went wrong, in
``test-artifacts/classroom/``). The exit status is non-zero when any student
did not get through. Every wait has a limit, and the whole run one
(``--budget``), so a run that goes wrong fails loudly instead of hanging.
``--keep`` leaves the hub running after the report, until Ctrl-C. The hub, its
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
import runpy
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
#: A small window: enough for JupyterLab and a board, light on the one machine's CPU.
VIEWPORT = {"width": 1024, "height": 768}
PASSWORD = "classroom"
MB = 1024 * 1024
#: What the hub's environment has besides the kit (docs/jupyterhub_config.py uses the culler).
HUB_PACKAGES = ["jupyterhub", "jupyterhub-idle-culler"]
#: The class's own configuration, which each run loads first.
CLASS_CONFIG = ROOT / "docs" / "jupyterhub_config.py"
#: The guide, whose table gives the lesson's timeline.
GUIDE = ROOT / "docs" / "teaching.md"
#: A student on "Your server is starting up" this long reloads the page, as a student would.
RELOAD_AFTER_S = 90
#: The longest a student waits for their server (reloading meanwhile) before giving up.
SIGN_IN_S = 420
#: The longest a notebook takes to open, run and draw all its boards.
NOTEBOOK_S = 300
#: The longest a notebook's kernel takes to come up before the student tries to fix it.
KERNEL_S = 60
#: Before the observer plays, the machine is let settle below this many cores busy, for at most
#: QUIET_S seconds (the class's last kernels are being culled as the lesson ends).
QUIET_CORES, QUIET_S = 0.5, 90
#: What the guide's class sizes leave to the system.
SYSTEM_MB = 512
#: The lesson's speed of Play: the players' default, 10 moves (frames) a second.
LESSON_MOVES_PER_S = 10
#: The servers the guide sizes a class for: (cores, GB of memory).
SERVERS = [(2, 8), (4, 16)]


def say(message: str) -> None:
    with contextlib.suppress(OSError):  # a closed terminal or pipe must not stop the cleaning up
        print(message, flush=True)


# --- the lesson's timeline and the class's culling -------------------------------------------


def lesson_plan(guide: str) -> list[tuple[str, int, int]]:
    """The core notebooks with the minutes their blocks start and end, from the guide's table.

    Examples
    --------
    >>> lesson_plan("| core | `01-start-here` | 7 | ... |\\n| core | `03-depth-first` (core) | 14 | ... |")
    [('01-start-here.ipynb', 0, 7), ('03-depth-first.ipynb', 7, 21)]
    """
    plan, minute = [], 0
    for notebook, minutes in re.findall(r"^\| core \| `([^`]+)`[^|]*\| (\d+) \|", guide, re.M):
        plan.append((f"{notebook}.ipynb", minute, minute + int(minutes)))
        minute += int(minutes)
    return plan


def class_culling(config: Path = CLASS_CONFIG) -> dict[str, int]:
    """The kernel culling a single-user server is started with in `config` (its ``Spawner.args``):
    ``cull_idle_timeout``, ``cull_interval`` (seconds) and the rest of ``MappingKernelManager``'s."""
    from traitlets.config import Config

    c = Config()
    runpy.run_path(str(config), init_globals={"get_config": lambda: c})
    found = re.findall(r"--MappingKernelManager\.(\w+)=(\S+)", " ".join(c.Spawner.args))
    return {key: (value == "True" if value in ("True", "False") else int(value)) for key, value in found}


def scaled_culling(culling: dict, minute: float) -> list[str]:
    """The server options that cull kernels as `culling` does, on a lesson of `minute` seconds a minute.

    Examples
    --------
    >>> scaled_culling({"cull_idle_timeout": 900, "cull_interval": 60, "cull_connected": True}, 8)
    ['--MappingKernelManager.cull_idle_timeout=120', '--MappingKernelManager.cull_interval=8', \
'--MappingKernelManager.cull_connected=True']
    """
    out = []
    for key, value in culling.items():
        if not isinstance(value, bool):
            value = max(1, round(value * minute / 60))
        out.append(f"--MappingKernelManager.{key}={value}")
    return out


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
RUN_ARGS = {args!r}  # this run's options replace the class's of the same name
c.Spawner.args = [a for a in c.Spawner.args if a.split("=")[0] not in {{r.split("=")[0] for r in RUN_ARGS}}]
c.Spawner.args += RUN_ARGS
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

    def start(self, extra: list[str]) -> None:
        """Start the hub; each student's server gets `extra` options after the class's own."""
        homes = self.work / "homes"
        homes.mkdir()
        args = ["--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate", *extra]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            args.append("--allow-root")  # a server refuses root otherwise
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
        with contextlib.suppress(psutil.Error, OSError, ValueError):
            total += pss_bytes(p.pid) if pss else p.memory_info().rss
    return total / MB


def pss_bytes(pid: int) -> int:
    """A process's PSS, from /proc/PID/smaps_rollup (much quicker than psutil's whole smaps)."""
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    raise ValueError(f"no Pss in /proc/{pid}/smaps_rollup")


def kernels(procs: list[psutil.Process]) -> int:
    """How many of `procs` are kernels."""
    return sum(name(p).endswith("ipykernel_launcher") for p in procs)


class Sampler(threading.Thread):
    """Every `every` seconds: the machine's CPU since the last sample, and each owner's memory
    (RSS and PSS) and kernels alive; the most of each per owner is kept in `peak`."""

    def __init__(self, hub: Hub, every: float = 3.0):
        super().__init__(daemon=True)
        self.hub = hub
        self.every = every
        self.samples: list[dict] = []
        self.peak: dict[str, dict[str, float]] = {}  # owner -> rss_mb, pss_mb, kernels
        self.halt = threading.Event()

    def run(self) -> None:
        last = machine_cpu()
        while not self.halt.wait(self.every):
            now = machine_cpu()
            busy = (now[0] - last[0]) / max(1, now[1] - last[1])
            last = now
            total = {"rss_mb": 0.0, "pss_mb": 0.0, "kernels": 0}
            for owner, procs in by_owner(self.hub).items():
                seen = {"rss_mb": memory(procs), "pss_mb": memory(procs, pss=True), "kernels": kernels(procs)}
                peak = self.peak.setdefault(owner, dict.fromkeys(seen, 0))
                for key, value in seen.items():
                    peak[key] = max(peak[key], value)
                    total[key] += value
            self.samples.append({"t": time.monotonic(), "cpu": busy, **total})

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


# --- what a student's page shows -------------------------------------------------------------

# The notebook in sight (its tab the current one).
SHOWN = ".jp-NotebookPanel:not(.lm-mod-hidden)"
ERRORS = """() => {
    const shown = document.querySelector('SHOWN');
    if (!shown) return ['no notebook in sight'];
    const bad = [...shown.querySelectorAll(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")]
        .map(e => e.innerText).filter(t => t.includes('Traceback') || t.includes('Error'));
    const body = shown.innerText;
    if (body.includes('Error displaying widget')) bad.push('Error displaying widget');
    if (body.includes('Traceback')) bad.push('a traceback is shown');
    return bad;
}""".replace("SHOWN", SHOWN)
# Every code cell whose source shows has run (a number in its prompt; a hidden cell shows none).
ALL_RAN = """n => [...document.querySelectorAll('SHOWN .jp-CodeCell .jp-InputPrompt')]
    .filter(p => /\\[\\d+\\]/.test(p.textContent)).length >= n""".replace("SHOWN", SHOWN)
# What each board of the notebook in sight shows, read from its view's handle (msviz/js/board.js's
# root.msviz): null while it has drawn nothing; else its size, step, cells uncovered, caption.
BOARDS = """() => [...document.querySelectorAll('SHOWN .msviz-view')].map(v => {
    if (!v.msviz || v.dataset.step === undefined) return null;
    try {
        const sprites = v.msviz.sprites();
        let revealed = 0;
        for (const c of sprites) if (c >= 2 && c <= 11) revealed++;  // B, 1-8, X: uncovered
        return {rows: v.msviz.rows(), cols: v.msviz.cols(), step: v.msviz.step(), revealed,
                caption: v.msviz.caption()};
    } catch (e) {
        return null;  // no reveal has arrived yet
    }
})""".replace("SHOWN", SHOWN)
# How many outputs of the notebook in sight are widgets (a notebook of pictures has none).
WIDGET_OUTPUTS = """() => document.querySelectorAll(
    "SHOWN .jp-OutputArea-output[data-mime-type='application/vnd.jupyter.widget-view+json']").length
""".replace("SHOWN", SHOWN)
# A dialog over the page (a kernel culled under an open tab may raise one).
DIALOG = ".jp-Dialog"


def board_problem(board: dict | None) -> str | None:
    """What is wrong with a board as drawn (one item of BOARDS), or None when it shows the reveal
    it was asked for: more than one cell, a caption that does not say the click "reveals nothing",
    and, once a step is shown, some cell uncovered (a game before its first click shows none).

    Examples
    --------
    >>> board_problem({"rows": 8, "cols": 8, "step": 0, "revealed": 1, "caption": "step 1 of 20"}) is None
    True
    >>> board_problem({"rows": 1, "cols": 1, "step": 0, "revealed": 0, "caption": "..."})
    'a lone cell: the reveal asked for has not arrived'
    """
    if board is None:
        return "nothing drawn yet"
    if board["rows"] * board["cols"] <= 1:
        return "a lone cell: the reveal asked for has not arrived"
    if "reveals nothing" in board["caption"]:
        return f"the caption says {board['caption']!r}"
    if board["step"] is not None and board["step"] >= 0 and board["revealed"] == 0:
        return f"step {board['step']} shown with no cell uncovered"
    return None


def shown_code_cells(notebook: str) -> int:
    """The code cells of `notebook` whose source shows (a hidden one shows no prompt)."""
    cells = json.loads((ROOT / "notebooks" / notebook).read_text())["cells"]
    return sum(
        c["cell_type"] == "code" and not c["metadata"].get("jupyter", {}).get("source_hidden") for c in cells
    )


# --- the lesson ------------------------------------------------------------------------------


class Lesson:
    """The class's clock: it starts when every student is in JupyterLab (or has given up), or
    after `SIGN_IN_S` whatever happens; a lesson minute lasts `minute` seconds."""

    def __init__(self, plan: list[tuple[str, int, int]], minute: float, students: int):
        self.plan, self.minute, self.waiting = plan, minute, students
        self.begins = asyncio.Event()
        self.t0: float | None = None

    def arrived(self) -> None:
        """One more student is in (or gave up); the last one starts the lesson."""
        self.waiting -= 1
        if self.waiting <= 0:
            self.start()

    def start(self) -> None:
        if not self.begins.is_set():
            self.t0 = time.monotonic()
            self.begins.set()

    def at(self, minute: float) -> float:
        """The clock time (time.monotonic) of a lesson minute."""
        return self.t0 + minute * self.minute

    async def until(self, minute: float, before: float = 0.0) -> float:
        """Wait until `before` seconds before lesson minute `minute`; how late we already were (s)."""
        delay = self.at(minute) - before - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        return max(0.0, -delay)


class Student:
    """One student in a browser context of their own: signs in, then follows the lesson."""

    def __init__(self, name: str, hub_url: str):
        self.name, self.hub_url = name, hub_url
        self.page = None
        self.context = None
        self.figures: dict = {"name": name, "ok": False, "error": None, "reloads": 0, "late_s": 0.0}
        self.stage = "not started"

    async def attend(self, browser, lesson: Lesson, play_seconds: float) -> None:
        """Sign in, wait for the lesson, then each notebook in its block; any failure is recorded."""
        f = self.figures
        try:
            try:
                await self.sign_in(browser)
            finally:
                lesson.arrived()
            await lesson.begins.wait()
            f["views"] = 0
            for notebook, start, end in lesson.plan:
                f["late_s"] = max(f["late_s"], await lesson.until(start))
                await self.run_notebook(notebook)
                if await self.has_player():
                    await lesson.until(end, before=play_seconds + 1)
                    await self.play(play_seconds)
            f["ok"] = True
            self.stage = "done"
        except asyncio.CancelledError:
            f["error"] = f"{self.stage}: out of time (the run's --budget)"
            say(f"  {self.name} FAILED: {f['error']}")
            raise
        except Exception as error:
            await self.failed(error)

    async def sign_in(self, browser) -> None:
        """Log in and wait for JupyterLab; on "Your server is starting up" for RELOAD_AFTER_S,
        reload the page, as a student would (its script may have given up waiting)."""
        f = self.figures
        self.context = await browser.new_context(viewport=VIEWPORT)
        self.page = page = await self.context.new_page()
        page.set_default_timeout(NOTEBOOK_S * 1000)
        self.stage = "logging in"
        await page.goto(f"{self.hub_url}/hub/login")
        await page.fill("#username_input", self.name)
        await page.fill("#password_input", PASSWORD)
        self.t0 = t0 = time.monotonic()
        await page.click("#login_submit")
        self.stage = "waiting for the server and JupyterLab"
        lab = re.compile(rf"/user/{self.name}/lab")
        while True:
            try:
                await page.wait_for_url(lab, timeout=RELOAD_AFTER_S * 1000)
                break
            except Exception:
                if time.monotonic() - t0 > SIGN_IN_S:
                    raise RuntimeError(f"no server after {SIGN_IN_S} s, {f['reloads']} reloads") from None
                f["reloads"] += 1
                say(f"  {self.name} reloads the page (on {page.url.split('?')[0]})")
                await page.reload()
        await page.wait_for_selector(".jp-LabShell, #jp-main-dock-panel")
        f["lab_s"] = time.monotonic() - t0
        await page.add_style_tag(content=".Toastify { display: none !important; }")
        await page.locator(".jp-DirListing-itemText").get_by_text("notebooks", exact=True).dblclick()
        self.stage = "in JupyterLab, waiting for the lesson"

    async def run_notebook(self, notebook: str) -> None:
        """As a student does: open `notebook` from the file browser, run all its cells, and wait
        until every board shows its reveal; the earlier notebooks stay open with their kernels."""
        f, page = self.figures, self.page
        await self.dismiss_dialogs()
        self.stage = f"opening {notebook}"
        await page.locator(".jp-DirListing-itemText").get_by_text(notebook, exact=True).dblclick()
        await page.wait_for_selector(f"{SHOWN} .jp-Notebook .jp-Cell")
        await self.wait_for_kernel(notebook)
        await page.wait_for_timeout(1000)
        self.stage = f"running all cells of {notebook}"
        await page.click(".lm-MenuBar-item:has-text('Run')")
        await page.click(".lm-Menu-item:not(.lm-mod-disabled):has-text('Run All Cells')")
        t_run = time.monotonic()
        if "first_board_s" not in f:
            await page.wait_for_function(
                f"() => [...document.querySelectorAll('{SHOWN} .msviz-view')]"
                ".some(v => v.dataset.step !== undefined)",
                polling=250,
            )
            f["first_board_s"] = time.monotonic() - self.t0
        await page.wait_for_function(ALL_RAN, arg=shown_code_cells(notebook), polling=500)
        self.stage = f"waiting for every board of {notebook} to show its reveal"
        f["views"] += await self.wait_for_boards(t_run + NOTEBOOK_S)
        bad = await page.evaluate(ERRORS)
        if bad:
            raise RuntimeError(f"an output of {notebook} shows an error: " + "\n---\n".join(bad)[:2000])
        f.setdefault("run_s", {})[notebook] = time.monotonic() - t_run

    async def wait_for_kernel(self, notebook: str) -> None:
        """Wait until the notebook's kernel is up (the status bar says "Idle"). A kernel still
        starting is waited for (up to NOTEBOOK_S); one that says "Disconnected" after KERNEL_S is
        reconnected from the Kernel menu, then the page reloaded, as a student would; each try is
        counted."""
        idle = ".jp-StatusBar-Widget:has-text('Idle')"
        lost = ".jp-StatusBar-Widget:has-text('Disconnected')"
        fixes = [("Reconnect to Kernel", self.reconnect), ("reloads JupyterLab", self.page.reload)]
        deadline = time.monotonic() + NOTEBOOK_S
        while True:
            try:
                await self.page.wait_for_selector(idle, timeout=KERNEL_S * 1000)
                return
            except Exception:
                if time.monotonic() > deadline or (fixes and await self.page.locator(lost).count()):
                    if not fixes:
                        raise RuntimeError(f"the kernel of {notebook} never came up") from None
                    what, fix = fixes.pop(0)
                    self.figures.setdefault("kernel_fixes", []).append(f"{notebook}: {what}")
                    say(f"  {self.name}: the kernel of {notebook} is not up after {KERNEL_S} s: {what}")
                    deadline = time.monotonic() + NOTEBOOK_S
                    await fix()

    async def reconnect(self) -> None:
        await self.page.click(".lm-MenuBar-item:has-text('Kernel')")
        await self.page.click(".lm-Menu-item:not(.lm-mod-disabled):has-text('Reconnect to Kernel')")

    async def wait_for_boards(self, deadline: float) -> int:
        """Wait until each board of the notebook in sight shows its reveal (and, when it has
        widgets, until some board is there); how many boards."""
        while True:
            boards = await self.page.evaluate(BOARDS)
            problems = [(i, board_problem(b)) for i, b in enumerate(boards)]
            problems = [(i, p) for i, p in problems if p]
            if not problems and (boards or not await self.page.evaluate(WIDGET_OUTPUTS)):
                return len(boards)
            if time.monotonic() > deadline:
                detail = "; ".join(f"board {i + 1}: {p}" for i, p in problems) or "no board at all"
                raise RuntimeError(f"{len(boards)} boards, not all showing their reveal: {detail}")
            await asyncio.sleep(1.0)

    async def dismiss_dialogs(self) -> None:
        """Close any dialog over the page (counted), as a student clicks it away."""
        dialog = self.page.locator(DIALOG)
        while await dialog.count():
            text = (await dialog.first.inner_text())[:200].replace("\n", " ")
            self.figures.setdefault("dialogs", []).append(text)
            say(f"  {self.name} closes a dialog: {text}")
            await self.page.keyboard.press("Escape")
            await self.page.wait_for_timeout(500)
            if await dialog.count():
                await dialog.first.locator("button").last.click()
                await self.page.wait_for_timeout(500)

    def first_player(self):
        """The first player of the notebook in sight: a widget's stage with its own Play button."""
        return self.page.locator(f"{SHOWN} .msviz-stage:has(button[data-control=play])").first

    async def has_player(self) -> bool:
        return await self.first_player().count() > 0

    async def play(self, seconds: float) -> dict:
        """Press Play on the first player of the notebook in sight, from its first step, for
        `seconds`, then pause; the moves drawn a second (each `per_frame` steps; the lesson's speed is 10)."""
        page, player = self.page, self.first_player()
        view = player.locator(".msviz-view").first
        self.stage = "playing"
        await self.dismiss_dialogs()
        await player.scroll_into_view_if_needed()
        await view.focus()
        await page.keyboard.press("Home")  # from the first step, as a student starting over
        await page.wait_for_timeout(300)
        start = int(await view.get_attribute("data-step"))
        per_frame = int(await player.locator("input[data-control=per_frame]").input_value())
        button = player.locator("button[data-control=play]").first
        t0 = time.monotonic()
        await button.click()
        await page.wait_for_timeout(seconds * 1000)
        end = int(await view.get_attribute("data-step"))
        played = time.monotonic() - t0
        if await player.evaluate("el => el.msviz.playing()"):  # Play stops by itself at the last step
            await button.click()  # pause
        if end <= start:
            raise RuntimeError(f"Play did not move the board (step {start} before, {end} after)")
        rate = (end - start) / per_frame / played
        self.figures.setdefault("moves_per_s", []).append(rate)
        return {"steps": end - start, "per_frame": per_frame, "seconds": played, "moves_per_s": rate}

    async def failed(self, error: Exception) -> None:
        message = f"{self.stage}: {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
        self.figures["error"] = message[:2000]
        say(f"  {self.name} FAILED while {message}")
        if self.page is not None:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(Exception):
                await self.page.screenshot(path=str(ARTIFACTS / f"{self.name}.png"), timeout=30_000)

    async def close(self) -> None:
        if self.context is not None:
            with contextlib.suppress(Exception):
                await self.context.close()


async def observe(student: Student, hub: Hub, seconds: float) -> dict:
    """What one student playing costs the server side, from a browser that is not starved: the
    server side's CPU while `student` alone plays for `seconds`, less the same time idle."""
    say(f"{student.name} alone plays for {seconds:g} s, the others idle (after {seconds:g} s all idle)")
    waited = await quiet(QUIET_CORES, QUIET_S)
    idle = Window(hub)
    await asyncio.sleep(seconds)
    idle = idle.close()
    busy = Window(hub)
    played = await student.play(seconds)
    busy = busy.close()
    cores = max(0.0, busy["server_cores"] - idle["server_cores"])
    return {
        "idle": idle,
        "playing": busy,
        **played,
        "server_cores": cores,
        # The player played at its own speed, the lesson's: what it cost is what a student costs.
        "cores_at_lesson_speed": cores,
        "waited_for_quiet_s": waited,
    }


async def quiet(cores: float, most: float) -> float:
    """Wait until the machine has been less than `cores` busy over 5 s (the class's last kernels
    culled, its pages settled), or `most` seconds; the seconds waited."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < most:
        before = machine_cpu()
        await asyncio.sleep(5)
        busy, total = machine_cpu()
        if (busy - before[0]) / max(1, total - before[1]) * psutil.cpu_count() < cores:
            break
    return time.monotonic() - t0


async def lesson(hub: Hub, args, sampler: Sampler) -> dict:
    """The class signs in, follows the lesson, then one student plays alone; the figures."""
    from playwright.async_api import async_playwright

    plan = [row for row in lesson_plan(GUIDE.read_text()) if row[0] in args.notebooks]
    students = [Student(f"student{i + 1:02d}", hub.url) for i in range(args.students)]
    clock = Lesson(plan, args.minute, len(students))
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=args.chromium, headless=True, args=CHROMIUM_FLAGS)
        try:
            names = ", ".join(n for n, _, _ in plan)
            length = plan[-1][2] * args.minute
            say(f"{len(students)} students sign in at once; then the lesson, {names}")
            say(f"  at {args.minute:g} s a lesson minute: its {plan[-1][2]} minutes in {length:.0f} s")
            window = Window(hub)
            tasks = [asyncio.create_task(s.attend(browser, clock, args.play_seconds)) for s in students]
            asyncio.get_running_loop().call_later(SIGN_IN_S + 30, clock.start)  # whoever is missing
            budget = args.budget - (time.monotonic() - args.started)
            _, late = await asyncio.wait(tasks, timeout=max(60.0, budget - 120))
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
            whole = window.close()
            whole["lesson_s"] = time.monotonic() - clock.t0 if clock.t0 else None
            ok = [s for s in students if s.figures["ok"]]
            say(f"  {len(ok)} of {len(students)} got through the lesson")
            now = {owner: procs for owner, procs in by_owner(hub).items()}  # the class at its end
            at_end = {
                owner: {"rss_mb": memory(p), "pss_mb": memory(p, pss=True), "kernels": kernels(p)}
                for owner, p in now.items()
            }
            observed = None
            if ok and await ok[0].has_player():
                try:
                    observed = await observe(ok[0], hub, args.observe_seconds)
                except Exception as error:
                    say(f"  the observer's Play failed: {type(error).__name__}: {error}")
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
        peak = sampler.peak.get(s.name, {})
        end = at_end.get(s.name, {})
        s.figures.update(
            spawn_s=float(spawned[s.name]) if s.name in spawned else None,
            # The most through the lesson (the sampler's), and at its end.
            server_pss_mb=peak.get("pss_mb"),
            server_peak_rss_mb=peak.get("rss_mb"),
            most_kernels=peak.get("kernels"),
            server_rss_mb=end.get("rss_mb"),
            end_pss_mb=end.get("pss_mb"),
            end_kernels=end.get("kernels"),
        )
    return {
        "chromium": version,
        "plan": plan,
        "students": [s.figures for s in students],
        "hub": {**at_end.get("hub", {}), **{f"peak_{k}": v for k, v in sampler.peak.get("hub", {}).items()}},
        "lesson": whole,
        "observer": observed,
    }


# --- the report ------------------------------------------------------------------------------


def class_size(cores: int, ram_gb: int, student_mb: float, hub_mb: float, player_cores: float | None) -> dict:
    """How many students a server of `cores` and `ram_gb` holds: by memory, the RAM less the
    system's 512 MB and the hub's own, over what a student takes through the lesson; by CPU, the
    cores over what a student playing costs the server side (all playing at once).

    Examples
    --------
    >>> class_size(2, 8, 450, 200, 0.05)
    {'by_memory': 16, 'by_cpu': 40, 'students': 16}
    """
    by_memory = int((ram_gb * 1024 - SYSTEM_MB - hub_mb) // student_mb)
    by_cpu = int(cores / player_cores + 1e-9) if player_cores else None
    return {"by_memory": by_memory, "by_cpu": by_cpu, "students": min(by_memory, by_cpu or by_memory)}


def summarize(result: dict, args) -> dict:
    """The class's figures, from the students who got through only: one who never started (or
    whose boards were not drawn) took little and would make the class look cheap."""
    students = result["students"]
    ok = [s for s in students if s["ok"]]

    def stat(key):
        xs = [s[key] for s in ok if s.get(key) is not None]
        if not xs:
            return None
        return {"median": statistics.median(xs), "max": max(xs), "min": min(xs), "mean": statistics.fmean(xs)}

    hub = result["hub"]
    hub_mb = hub.get("peak_pss_mb") or hub.get("pss_mb") or 0
    summary = {
        "students": len(students),
        "ok": len(ok),
        "reloaded": sum(1 for s in students if s.get("reloads")),
        "reloads": sum(s.get("reloads", 0) for s in students),
        "kernel_fixes": sum(len(s.get("kernel_fixes", [])) for s in students),
        # Each student's server and kernels: PSS and RSS at their most through the lesson, RSS and
        # PSS at its end, the most kernels alive at once.
        "server_pss_mb": stat("server_pss_mb"),
        "server_peak_rss_mb": stat("server_peak_rss_mb"),
        "server_rss_mb": stat("server_rss_mb"),
        "end_pss_mb": stat("end_pss_mb"),
        "most_kernels": stat("most_kernels"),
        "end_kernels": stat("end_kernels"),
        "hub_mb": hub_mb,
        "all_servers_pss_mb": sum(s.get("server_pss_mb") or 0 for s in ok),
        "spawn_s": stat("spawn_s"),
        "lab_s": stat("lab_s"),
        "first_board_s": stat("first_board_s"),
        "late_s": stat("late_s"),
        "class_moves_per_s": stat("class_moves_per_s"),
    }
    summary["server_side_mb"] = summary["all_servers_pss_mb"] + hub_mb
    observer = result.get("observer")
    player = observer["cores_at_lesson_speed"] if observer else None
    summary["player_cores"] = player
    each = summary["server_pss_mb"]
    if each:
        peak = max(summary["server_peak_rss_mb"]["max"] if summary["server_peak_rss_mb"] else 0, each["mean"])
        base = hub_mb + SYSTEM_MB
        # Memory alone, at a student's PSS (what the machine pays) and at the most RSS any took.
        summary["fits"] = {
            f"{gb} GB": {
                "at_pss": int((gb * 1024 - base) // each["mean"]),
                "at_peak_rss": int((gb * 1024 - base) // peak),
            }
            for gb in (2, 4, 8, 16)
        }
        summary["sizes"] = {
            f"{cores} cores, {gb} GB": class_size(cores, gb, each["mean"], hub_mb, player)
            for cores, gb in SERVERS
        }
    return summary


def fmt(x, digits=0, unit="") -> str:
    return "-" if x is None else f"{x:.{digits}f}{unit}"


def student_rows(result: dict) -> list[str]:
    """The table: a line a student, then the hub's."""
    header = (
        f"{'student':<10} {'ok':<4} {'reload':>6} {'lab up':>7} {'board':>6} {'late':>5} {'moves/s':>7}"
        f" {'peak RSS':>8} {'peak PSS':>8} {'kernels':>7} {'end PSS':>7} {'end k.':>6}"
    )
    rows = [header, "-" * len(header)]
    for s in result["students"]:
        rows.append(
            f"{s['name']:<10} {'yes' if s['ok'] else 'NO':<4} {s.get('reloads', 0):>6}"
            f" {fmt(s.get('lab_s'), 1):>7} {fmt(s.get('first_board_s'), 1):>6} {fmt(s.get('late_s')):>5}"
            f" {fmt(s.get('class_moves_per_s'), 1):>7} {fmt(s.get('server_peak_rss_mb')):>8}"
            f" {fmt(s.get('server_pss_mb')):>8} {fmt(s.get('most_kernels')):>7}"
            f" {fmt(s.get('end_pss_mb')):>7} {fmt(s.get('end_kernels')):>6}"
        )
    hub = result["hub"]
    rows.append(
        f"{'hub+proxy':<10} {'':<4} {'':>6} {'':>7} {'':>6} {'':>5} {'':>7}"
        f" {fmt(hub.get('peak_rss_mb')):>8} {fmt(hub.get('peak_pss_mb')):>8}"
    )
    return rows


def report(result: dict, summary: dict, args) -> str:
    """Print the table, the CPU, the observer and the class sizes; return the verdict line."""
    cores = psutil.cpu_count()
    say("")
    say("Seconds from 'Sign in' to JupyterLab and to the first board; late: the most a student was behind")
    say("the lesson's timeline (s); moves/s: Play's moves drawn a second at the ends of blocks, the whole")
    say("class on one machine (10 if the browser keeps up). Memory (MB) of the student's server and kernels:")
    say("the most through the lesson (RSS; PSS, the shared libraries shared out), the most kernels alive at")
    say("once, and at the end of the lesson.")
    for row in student_rows(result):
        say(row)
    w = result["lesson"]
    say(
        f"CPU from 'Sign in' to the lesson's end ({w['seconds']:.0f} s): the machine"
        f" {w['machine_cores']:.2f} of {cores} cores busy; the server side {w['server_cores']:.2f},"
        f" the browsers {w['browser_cores']:.2f}, other work {w['other_cores']:.2f}"
    )
    o = result.get("observer")
    if o:
        say(
            f"One student playing alone: {o['moves_per_s']:.1f} moves/s drawn ({o['per_frame']} step(s) a"
            f" move; the lesson's speed is {LESSON_MOVES_PER_S}); the server side"
            f" {o['playing']['server_cores']:.3f} cores against {o['idle']['server_cores']:.3f} idle:"
            f" {o['cores_at_lesson_speed']:.3f} of a core"
            f" (the browsers: {o['playing']['browser_cores']:.2f} cores;"
            f" after {o['waited_for_quiet_s']:.0f} s for the machine to settle)"
        )
    for s in result["students"]:
        if s["error"]:
            say(f"  {s['name']}: {s['error']}")
    n, ok = summary["students"], summary["ok"]
    verdict = (
        f"{n} students, {ok} got through ({summary['reloaded']} reloaded a page left on 'server starting')"
    )
    if summary["kernel_fixes"]:
        verdict += f"; {summary['kernel_fixes']} times a kernel was not up and a student reconnected it"
    each = summary["server_pss_mb"]
    if each:
        verdict += (
            f"; through the lesson a student took at most {each['mean']:.0f} MB PSS"
            f" ({summary['server_peak_rss_mb']['max']:.0f} MB RSS), with at most"
            f" {summary['most_kernels']['max']:.0f} kernels alive; the hub {summary['hub_mb']:.0f} MB"
        )
    if summary["player_cores"] is not None:
        verdict += f"; a student playing costs {summary['player_cores']:.3f} of a core"
    say("")
    say(verdict)
    for label, size in summary.get("sizes", {}).items():
        gb = int(label.split(", ")[1].split()[0])
        c = int(label.split()[0])
        cpu = (
            f"{size['by_cpu']} by CPU ({c} / {summary['player_cores']:.3f})"
            if size["by_cpu"] is not None
            else "CPU not measured"
        )
        say(
            f"  {label}: {size['by_memory']} students by memory"
            f" (({gb * 1024} - {SYSTEM_MB} - {summary['hub_mb']:.0f}) MB / {each['mean']:.0f} MB),"
            f" {cpu}: {size['students']}"
        )
    return verdict


def notebooks_named(names: list[str]) -> list[str]:
    """The notebooks of notebooks/ named, in full or by their start ("01")."""
    found = []
    for name in names:
        stem = name.removesuffix(".ipynb")
        match = sorted(p.name for p in (ROOT / "notebooks").glob(f"{stem}*.ipynb"))
        if len(match) != 1:
            raise ValueError(f"{name!r} names {len(match)} notebooks in notebooks/, not one")
        found.append(match[0])
    return found


def options(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=10, help="students signing in at once (default 10)")
    parser.add_argument(
        "--minute",
        type=float,
        default=8.0,
        help="seconds a lesson minute lasts, for the timeline and the kernel culling alike"
        " (default 8: the 50 minutes in 400 s, kernels culled after 120 s idle; 60 is a real lesson)",
    )
    parser.add_argument(
        "--notebooks",
        nargs="+",
        default=[name for name, _, _ in lesson_plan(GUIDE.read_text())],
        help="the core notebooks run, by name or its start (01); default the core path, 01 to 05",
    )
    parser.add_argument(
        "--play-seconds", type=float, default=5.0, help="Play at each block's end (default 5)"
    )
    parser.add_argument(
        "--observe-seconds", type=float, default=10.0, help="the observer's Play, alone (default 10)"
    )
    parser.add_argument(
        "--budget", type=float, default=900.0, help="seconds the whole run may take (default 900)"
    )
    parser.add_argument(
        "--keep", action="store_true", help="leave the hub running after the report until Ctrl-C"
    )
    parser.add_argument("--chromium", default=CHROMIUM, help=f"the browser (default {CHROMIUM})")
    args = parser.parse_args(argv)
    try:
        args.notebooks = notebooks_named(args.notebooks)
    except ValueError as error:
        parser.error(str(error))
    core = {name for name, _, _ in lesson_plan(GUIDE.read_text())}
    if not set(args.notebooks) <= core:
        parser.error(f"not on the guide's core path: {sorted(set(args.notebooks) - core)}")
    if args.students < 1:
        parser.error("--students must be at least 1")
    if args.minute <= 0:
        parser.error("--minute must be more than 0")
    return args


def write(result: dict, summary: dict, verdict: str, versions: dict, args, culling: list, sampler) -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    figures = {
        "students": args.students,
        "notebooks": args.notebooks,
        "minute_s": args.minute,
        "culling": culling,
        "play_seconds": args.play_seconds,
        "observe_seconds": args.observe_seconds,
        "versions": {**versions, "chromium": result["chromium"], "python": platform.python_version()},
        "cpus": psutil.cpu_count(),
        "memory_gb": psutil.virtual_memory().total / 1024**3,
        "seconds": time.monotonic() - args.started,
        "verdict": verdict,
        "summary": summary,
        **result,
        "timeline": sampler.samples,
    }
    OUT.write_text(json.dumps(figures, indent=2) + "\n")
    say(f"figures written to {OUT.relative_to(ROOT)}")


def main(argv=None) -> int:
    args = options(argv)
    args.started = time.monotonic()

    def stop(*_):
        raise KeyboardInterrupt

    for name in ("SIGTERM", "SIGHUP"):  # stopped from outside: clean up as for Ctrl-C
        signal.signal(getattr(signal, name), stop)

    versions = install()
    culling = scaled_culling(class_culling(), args.minute)
    say("Kernel culling for this run, the class's at its scale: " + " ".join(culling))
    work = Path(tempfile.mkdtemp(prefix="msviz-classroom-"))
    hub = Hub(work)
    sampler = None
    code = None
    try:
        hub.start(culling)
        sampler = Sampler(hub)
        sampler.start()
        result = asyncio.run(lesson(hub, args, sampler))
        sampler.stop()
        for s in result["students"]:  # the students' Play during the lesson, all on one machine
            rates = s.pop("moves_per_s", None)
            s["class_moves_per_s"] = statistics.median(rates) if rates else None
        summary = summarize(result, args)
        verdict = report(result, summary, args)
        say(f"The run took {time.monotonic() - args.started:.0f} s")
        write(result, summary, verdict, versions, args, culling, sampler)
        code = 0 if summary["ok"] == summary["students"] else 1
        if code:
            say(f"FAILED: {summary['students'] - summary['ok']} students did not get through (above)")
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
