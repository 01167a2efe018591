"""Time each teaching notebook from a fresh kernel, and the kernel's peak memory.

Run it with ``.venv/bin/python benchmarks/notebooks.py``. Targets: all notebooks
together in under 90 s; no kernel above 300 MB.
"""

import resource  # noqa: F401  (used inside the kernel)
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent / "notebooks"
PEAK = "import resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"


def run(path: Path) -> tuple[float, float]:
    book = nbformat.read(path, as_version=4)
    book.cells.append(nbformat.v4.new_code_cell(PEAK))
    client = NotebookClient(
        book, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
    )
    start = time.perf_counter()
    client.execute()
    seconds = time.perf_counter() - start
    peak_kb = int(book.cells[-1].outputs[0]["text"].strip())
    return seconds, peak_kb / 1024


def main() -> int:
    total, worst, ok = 0.0, 0.0, True
    for path in sorted(ROOT.glob("*.ipynb")):
        seconds, mb = run(path)
        total += seconds
        worst = max(worst, mb)
        print(f"  {path.name:<28} {seconds:6.1f} s   kernel peak {mb:6.1f} MB")
    ok = total < 90 and worst < 300
    print(
        f"  all notebooks: {total:.1f} s (target < 90 s); worst kernel peak {worst:.1f} MB (target < 300 MB)"
    )
    print("all targets met" if ok else "some targets MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
