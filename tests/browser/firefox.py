"""Debian's Firefox (firefox-esr), driven over WebDriver BiDi, the standard protocol it speaks itself.

Playwright drives only its own build of Firefox (with its "juggler" protocol), which Debian's
does not have; so the tests talk to Firefox as any WebDriver BiDi client does: a WebSocket
(websocket-client), JSON commands, JSON events. Only what the tests need: open a page, run a
script (awaiting its promise), a screenshot, and every request the page makes (network
events). Its profile sends every http(s) request to a closed port: the network is off.
"""

from __future__ import annotations

import base64
import itertools
import json
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

#: The profile's settings: no network (every request to a closed proxy), no first-run pages.
PREFS = {
    "network.proxy.type": 1,
    "network.proxy.http": "127.0.0.1",
    "network.proxy.http_port": 9,
    "network.proxy.ssl": "127.0.0.1",
    "network.proxy.ssl_port": 9,
    "network.proxy.allow_hijacking_localhost": True,
    "browser.shell.checkDefaultBrowser": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.enabled": False,
    "app.update.enabled": False,
}


def find_firefox() -> str | None:
    return shutil.which("firefox-esr") or shutil.which("firefox")


class Firefox:
    """One headless Firefox and one WebDriver BiDi session on it."""

    def __init__(self, executable: str, *, width: int = 1024, height: int = 768, patience_s: float = 120):
        import websocket  # websocket-client, which Jupyter's server brings

        self.profile = Path(tempfile.mkdtemp(prefix="msviz-firefox-"))
        (self.profile / "user.js").write_text(
            "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in PREFS.items())
        )
        said = self.profile / "firefox.log"  # a file, not a pipe: a full pipe would stop Firefox
        with open(said, "w") as log:
            self.process = subprocess.Popen(
                [executable, "--headless", "--no-remote", "--profile", str(self.profile)]
                + [f"--width={width}", f"--height={height}", "--remote-debugging-port", "0", "about:blank"],
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        address, until = None, time.monotonic() + patience_s
        while address is None and self.process.poll() is None and time.monotonic() < until:
            found = re.search(r"WebDriver BiDi listening on (ws://\S+)", said.read_text(errors="replace"))
            address = found[1] if found else time.sleep(0.2)
        if address is None:
            self.close()
            raise RuntimeError("Firefox did not start its WebDriver BiDi server")
        self.socket = websocket.create_connection(
            f"{address}/session",
            timeout=patience_s,
            suppress_origin=True,  # Firefox refuses an Origin
        )
        self.ids = itertools.count(1)
        self.events: list[dict] = []
        self.send("session.new", {"capabilities": {"alwaysMatch": {"acceptInsecureCerts": True}}})
        self.send("session.subscribe", {"events": ["network.beforeRequestSent", "log.entryAdded"]})
        tree = self.send("browsingContext.getTree", {})
        self.context = tree["contexts"][0]["context"]
        viewport = {"width": width, "height": height}
        self.send("browsingContext.setViewport", {"context": self.context, "viewport": viewport})

    def send(self, method: str, params: dict) -> dict:
        """Send one command; return its result (events that come meanwhile are kept in `events`)."""
        ident = next(self.ids)
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("type") == "event":
                self.events.append(message)
            elif message.get("id") == ident:
                if message.get("type") == "error":
                    raise RuntimeError(f"{method}: {message.get('error')}: {message.get('message')}")
                return message["result"]

    def open(self, url: str) -> None:
        self.send("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def evaluate(self, expression: str):
        """The value of `expression` (a promise awaited), as JSON: the script returns JSON.stringify'd."""
        result = self.send(
            "script.evaluate",
            {
                "expression": f"(async () => JSON.stringify(await ({expression})))()",
                "target": {"context": self.context},
                "awaitPromise": True,
            },
        )
        if result.get("type") == "exception":
            raise RuntimeError(result["exceptionDetails"]["text"])
        value = result["result"].get("value")  # none for undefined
        return None if value is None else json.loads(value)

    def wait_for(self, expression: str, patience_s: float = 120) -> None:
        """Wait until `expression` is true, polled on the page's own frames."""
        done = time.monotonic() + patience_s
        frames = "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(Boolean({})))))"
        while not self.evaluate(frames.format(expression)):
            if time.monotonic() > done:
                raise TimeoutError(f"Firefox: still not true: {expression}")

    def screenshot(self, path: Path) -> None:
        shot = self.send("browsingContext.captureScreenshot", {"context": self.context, "origin": "document"})
        Path(path).write_bytes(base64.b64decode(shot["data"]))

    def requests(self) -> list[str]:
        """Every URL the pages asked for."""
        return [
            e["params"]["request"]["url"] for e in self.events if e["method"] == "network.beforeRequestSent"
        ]

    def errors(self) -> list[str]:
        """Script errors the pages logged."""
        return [
            e["params"].get("text", "")
            for e in self.events
            if e["method"] == "log.entryAdded" and e["params"].get("level") == "error"
        ]

    def close(self) -> None:
        try:
            self.socket.close()
        except Exception:
            pass
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)
