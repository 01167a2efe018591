#!/usr/bin/env python3
"""Set up msviz's environment and run it: one command for each job.

    python3 dev.py test     set up, then check the code with ruff and run every test
    python3 dev.py bench    set up, then run the benchmark
    python3 dev.py lab      set up, then open the notebooks in JupyterLab
    python3 dev.py setup    only set up

Setting up makes a virtual environment in .venv (with only the Python you run
this with) and installs msviz into it with everything the notebooks and tests
need. It is done again only when pyproject.toml changes. Extra arguments after
the command go to the tool it runs (pytest, the benchmark, or JupyterLab).
"""

from __future__ import annotations

import hashlib
import os
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


def say(message: str) -> None:
    print(f"[dev.py] {message}", flush=True)


def run(*args, **kwargs) -> int:
    say(" ".join(str(a) for a in args))
    return subprocess.call([str(a) for a in args], cwd=ROOT, **kwargs)


def setup() -> None:
    """Make .venv and install msviz with its extras, unless that is done already."""
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text().strip() == wanted and PYTHON.exists():
        return
    if not PYTHON.exists():
        say(f"creating a virtual environment in {VENV}")
        venv.EnvBuilder(with_pip=True).create(VENV)
    code = run(PYTHON, "-m", "pip", "install", "--quiet", "-e", ".[dev]")
    if code:
        sys.exit(f"[dev.py] installing msviz failed (exit {code}); see pip's messages above")
    STAMP.write_text(wanted + "\n")


def main(argv: list[str]) -> int:
    commands = {
        "setup": None,
        "test": [PYTHON, "-m", "pytest"],
        "bench": [PYTHON, "benchmarks/run.py"],
        "lab": [PYTHON, "-m", "jupyter", "lab", "notebooks"],
    }
    if not argv or argv[0] not in commands:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    setup()
    command = commands[argv[0]]
    if argv[0] == "lab" and hasattr(os, "geteuid") and os.geteuid() == 0:
        command = [*command, "--allow-root"]  # JupyterLab refuses root otherwise (containers, hubs)
    if command is None:
        say("set up: .venv is ready")
        return 0
    if argv[0] == "test":
        code = lint()
        if code:
            return code
    return run(*command, *argv[1:])


def lint() -> int:
    """Check the code with ruff: its lint rules and its formatting (settings in pyproject.toml)."""
    code = run(PYTHON, "-m", "ruff", "check", *LINTED)
    code = code or run(PYTHON, "-m", "ruff", "format", "--check", *LINTED)
    if code:
        say("ruff found problems (above); `.venv/bin/ruff format` and `.venv/bin/ruff check --fix` fix most")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
