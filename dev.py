#!/usr/bin/env python3
"""Set up msviz's environment and run it: one command for each job.

    python3 dev.py lab      set up for the notebooks, then open them in JupyterLab
    python3 dev.py test     set up for the tests, then check the code with ruff and run every test
    python3 dev.py bench    set up for the tests, then run the benchmark
    python3 dev.py msviz    set up for the notebooks, then run msviz's own command line
                            (python3 dev.py msviz render --help, ... worksheet, ... grade)
    python3 dev.py wheel    build dist/msviz-VERSION-py3-none-any.whl, to install where there
                            is no clone (a JupyterHub) with
                            pip install "dist/msviz-VERSION-py3-none-any.whl[notebooks]"
    python3 dev.py words    set up for the tests, then make the catalogs of msviz's words:
                            extract every phrase, update each language's msviz.po in
                            msviz/locale, compile them, and say how much is translated;
                            then the notebooks' words: update notebooks/locale/LANG/
                            LC_MESSAGES/notebooks.po from the English notebooks, write
                            notebooks/LANG/*.ipynb, and say what is untranslated or to review
    python3 dev.py site     set up for the site, then run every notebook of the lesson and write
                            it as a website in site/ (python -m msviz site notebooks --out site):
                            its boards play in any browser, with no Python and no network
    python3 dev.py setup    only set up (for the tests: everything)

Setting up makes a virtual environment in .venv (with only the Python you run
this with) and installs msviz into it with what the command needs: `lab`
installs only what the notebooks need (JupyterLab and the widgets); `test` and
`bench` add the test tools (pytest, hypothesis, nbval, Playwright, ruff). It is
done again only when pyproject.toml changes. Extra arguments after the command
go to the tool it runs (pytest, the benchmark, or JupyterLab). Stopping dev.py
(Ctrl-C) stops JupyterLab too.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / "msviz-installed.txt"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")

#: What ruff checks.
LINTED = ["msviz", "tests", "benchmarks", "dev.py"]
#: The extras of pyproject.toml each command needs ("dev" holds "notebooks").
EXTRAS = {
    "lab": "notebooks",
    "test": "dev",
    "bench": "dev",
    "msviz": "notebooks",
    "wheel": "notebooks",
    "setup": "dev",
    "words": "dev",
    "site": "site",
}
#: JupyterLab settings for this environment: no "get notified about news?" pop-up.
LAB_OVERRIDES = {
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False}
}


def say(message: str) -> None:
    print(f"[dev.py] {message}", flush=True)


def run(*args, **kwargs) -> int:
    say(" ".join(str(a) for a in args))
    return subprocess.call([str(a) for a in args], cwd=ROOT, **kwargs)


def installed() -> tuple[str, set[str]]:
    """The pyproject.toml hash and the extras the last setup installed."""
    if not (STAMP.exists() and PYTHON.exists()):
        return "", set()
    wanted, *extras = STAMP.read_text().split()
    return wanted, set(extras)


def setup(extra: str) -> None:
    """Make .venv and install msviz with `extra`, unless that is done already."""
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    done, extras = installed()
    if done == wanted and (extra in extras or "dev" in extras):
        return
    if not PYTHON.exists():
        say(f"creating a virtual environment in {VENV}")
        venv.EnvBuilder(with_pip=True).create(VENV)
    what = "JupyterLab and the widgets" + ("" if extra == "notebooks" else ", and the test tools")
    say(f"installing msviz with {what} into .venv: the first time takes a minute or two")
    code = run(PYTHON, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-e", f".[{extra}]")
    if code:
        sys.exit(f"[dev.py] installing msviz failed (exit {code}); see pip's messages above")
    keep = {extra} | (extras if done == wanted else set())
    STAMP.write_text(" ".join([wanted, *sorted(keep)]) + "\n")
    quiet_lab()
    say("installed")


def quiet_lab() -> None:
    """Write this environment's JupyterLab overrides: no news pop-up over the notebooks."""
    folder = VENV / "share" / "jupyter" / "lab" / "settings"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "overrides.json").write_text(json.dumps(LAB_OVERRIDES, indent=2) + "\n")


def lab(args: list[str]) -> int:
    """Run JupyterLab on the notebooks until it stops or dev.py is stopped; then stop it too."""
    command = [str(PYTHON), "-m", "jupyter", "lab", "notebooks", *args]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")  # JupyterLab refuses root otherwise (containers, hubs)
    say(" ".join(command[1:]) + "  (Ctrl-C stops it)")
    child = subprocess.Popen(command, cwd=ROOT)

    def stop(*_):
        raise KeyboardInterrupt

    for name in ("SIGTERM", "SIGHUP"):  # a closed terminal or `kill` stops JupyterLab as well
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), stop)
    try:
        return child.wait()
    except KeyboardInterrupt:
        say("stopping JupyterLab")
        child.terminate()
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()
        return 0


def lint() -> int:
    """Check the code with ruff: its lint rules and its formatting (settings in pyproject.toml)."""
    code = run(PYTHON, "-m", "ruff", "check", *LINTED)
    code = code or run(PYTHON, "-m", "ruff", "format", "--check", *LINTED)
    if code:
        say("ruff found problems (above); `.venv/bin/ruff format` and `.venv/bin/ruff check --fix` fix most")
    return code


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in EXTRAS:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    command, rest = argv[0], argv[1:]
    setup(EXTRAS[command])
    if command == "setup":
        say("set up: .venv is ready")
        return 0
    if command == "lab":
        return lab(rest)
    if command == "test":
        return lint() or run(PYTHON, "-m", "pytest", *rest)
    if command == "words":  # the widgets' words; then the notebooks' words and each language's notebooks
        code = run(PYTHON, "-m", "msviz._catalogs", *rest)
        if code or rest[:1] in (["missing"], ["fill"]):
            return code
        return run(PYTHON, "-m", "msviz._notebooks", *rest)
    if command == "msviz":  # in the folder it is run from, so that relative paths mean what they say
        say(" ".join(["python -m msviz", *rest]))
        return subprocess.call([str(PYTHON), "-m", "msviz", *rest])
    if command == "site":
        return run(PYTHON, "-m", "msviz", "site", "notebooks", "--out", "site", *rest)
    if command == "wheel":
        code = run(PYTHON, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", "dist", ".")
        if code == 0:
            wheels = sorted((ROOT / "dist").glob("msviz-*.whl"), key=lambda p: p.stat().st_mtime)
            built = wheels[-1].relative_to(ROOT).as_posix()
            say(f'built {built}: pip install "{built}[notebooks]"')
        return code
    return run(PYTHON, "benchmarks/run.py", *rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
