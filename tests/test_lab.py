"""JupyterLab, as `python3 dev.py lab` starts it, serves the notebooks on localhost."""

import json
import urllib.request
from pathlib import Path

from labserver import TOKEN, running_lab

NOTEBOOKS = Path(__file__).parent.parent / "notebooks"


def test_jupyterlab_serves_the_notebooks(tmp_path):
    with running_lab(NOTEBOOKS, tmp_path) as base:
        with urllib.request.urlopen(f"{base}/api/contents?token={TOKEN}", timeout=10) as response:
            names = {item["name"] for item in json.load(response)["content"]}
        assert {"01-start-here.ipynb", "06-exercises.ipynb"} <= names
        with urllib.request.urlopen(f"{base}/lab?token={TOKEN}", timeout=10) as page:
            assert page.status == 200 and b"JupyterLab" in page.read()
