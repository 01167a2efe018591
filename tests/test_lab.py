"""JupyterLab, as `python3 dev.py lab` starts it, serves the notebooks on localhost."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

NOTEBOOKS = Path(__file__).parent.parent / "notebooks"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_jupyterlab_serves_the_notebooks(tmp_path):
    port, token = free_port(), "msviz-test-token"
    command = [sys.executable, "-m", "jupyter", "lab", str(NOTEBOOKS), "--no-browser",
               f"--port={port}", "--ip=127.0.0.1", f"--IdentityProvider.token={token}"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path)}
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        url = f"http://127.0.0.1:{port}/api/contents?token={token}"
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url, timeout=5) as response:
                    listing = json.load(response)
                break
            except OSError:
                assert server.poll() is None, server.stderr.read().decode()[-2000:]
                assert time.monotonic() < deadline, "JupyterLab did not answer within 60 s"
                time.sleep(0.5)
        names = {item["name"] for item in listing["content"]}
        assert {"01-start-here.ipynb", "06-exercises.ipynb"} <= names
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/lab?token={token}", timeout=10) as page:
            assert page.status == 200 and b"JupyterLab" in page.read()
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
