"""Start JupyterLab for a test: 127.0.0.1, a free port, a token, no browser; always stopped.

Also the flags headless Chromium is started with, by the browser tests and the benchmarks.
"""

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

TOKEN = "msviz-test-token"

#: Chromium without a sandbox (root in CI), a GPU, or any network of its own.
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def write_notebook(path: Path, cells: list[str]) -> Path:
    """Write a notebook of code cells `cells` (their sources) at `path`, for Python 3's kernel."""
    import nbformat

    book = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])
    book.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(book, path)
    return path


def quiet_settings(folder: Path) -> Path:
    """Write JupyterLab user settings without the news pop-up into `folder`; return the folder.

    JupyterLab reads them when ``JUPYTERLAB_SETTINGS_DIR`` names the folder.
    """
    extension = folder / "@jupyterlab" / "apputils-extension"
    extension.mkdir(parents=True, exist_ok=True)
    no_news = '{"fetchNews": "false", "checkForUpdates": false}'
    (extension / "notification.jupyterlab-settings").write_text(no_news)
    return folder


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serving(command: list[str], ready: str, log_path: Path, *, env: dict | None = None, timeout: float = 600):
    """Run server `command` (its output in `log_path`) until URL `ready` answers; yield; stop it at the end.

    Raises RuntimeError with the end of the log if the server exits or has not answered in `timeout` s.
    """
    with open(log_path, "wb") as log:
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        try:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    urllib.request.urlopen(ready, timeout=5).read()
                    break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(
                            f"{Path(command[0]).name} {' '.join(command[1:4])} did not start:\n"
                            + log_path.read_text(errors="replace")[-3000:]
                        ) from None
                    time.sleep(0.5)
            yield server
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()


def as_root() -> list[str]:
    """The option Jupyter's servers need to run as root (in CI, in containers): they refuse otherwise."""
    return ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []


@contextlib.contextmanager
def running_lab(
    root: Path, workdir: Path, *, timeout: float = 600, extra: tuple = (), python=sys.executable, env=None
):
    """Serve `root` with JupyterLab (`extra`: more of its options); yield its base URL; stop it at the end.

    JupyterLab is this environment's, or that of `python` (another environment's interpreter,
    run with `env` for its environment variables).
    """
    port = free_port()
    command = [
        str(python),
        "-m",
        "jupyter",
        "lab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        f"--IdentityProvider.token={TOKEN}",
        f"--ServerApp.root_dir={root}",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        *extra,
        *as_root(),
    ]
    # A settings folder of its own: no "get notified about news?" toast over the screenshots.
    settings = quiet_settings(workdir / "lab-settings")
    env = {
        **(os.environ if env is None else env),
        "JUPYTER_RUNTIME_DIR": str(workdir / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(settings),
    }
    base = f"http://127.0.0.1:{port}"
    with serving(command, f"{base}/api/status?token={TOKEN}", workdir / "lab.log", env=env, timeout=timeout):
        yield base


def wait_for_kernel(page, base: str, name: str, timeout_ms: float) -> None:
    """Wait until the server at `base` says notebook `name`'s kernel is idle with a connection
    (the page's); `page` is a Playwright page, whose requests carry the polling.

    The page's kernel indicator alone can mislead: it says idle before it connects, its states
    can pass between two looks, and a kernel kept from earlier may never show another state.
    The server's own state has none of these problems.
    """
    started = time.monotonic()
    deadline = started + timeout_ms / 1000
    kernels, restarted = [], False
    while time.monotonic() < deadline:
        sessions = page.request.get(f"{base}/api/sessions?token={TOKEN}").json()
        kernels = [s["kernel"] for s in sessions if s.get("path", "").endswith(name) and s.get("kernel")]
        if any(k.get("execution_state") == "idle" and k.get("connections", 0) >= 1 for k in kernels):
            return
        stuck = [k for k in kernels if k.get("execution_state") == "starting"]
        if stuck and not restarted and time.monotonic() - started > STUCK_STARTING_S:
            # A kernel the server still calls "starting" after this long never said it was up (seen
            # once in ten minutes with classic Notebook): the server restarts it, once.
            for kernel in stuck:
                page.request.post(f"{base}/api/kernels/{kernel['id']}/restart?token={TOKEN}")
            restarted = True
        page.wait_for_timeout(200)  # the server's state, polled
    raise TimeoutError(f"{name}: its kernel never came up idle and connected: {kernels}")


#: Seconds a kernel may stay "starting" before the server is asked to restart it (once).
STUCK_STARTING_S = 120
