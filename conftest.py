"""What pytest leaves out of the run: marimo notebooks are run by marimo, not imported by pytest.

pytest imports every .py file under testpaths for its doctests; a marimo notebook starts with
``import marimo``, which the tests' own environment does not have. The notebook is run in
marimo, in an environment of its own, by tests/browser/test_hosts_in_chromium.py.
"""

collect_ignore_glob = ["notebooks/marimo/*.py"]
