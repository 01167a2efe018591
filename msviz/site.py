"""The lesson as a website: every notebook, in each language, run and saved as a page that plays.

The ecosystem's own tools do it: nbclient runs each notebook, nbconvert writes it
as JupyterLab's own page (its "lab" template). Each msviz widget's output holds a
rendition that plays with no kernel (`msviz.rendition`), so the page needs no
widget manager: `LessonExporter` is nbconvert's HTML exporter with nothing from
a CDN (no require.js, no MathJax, no widget manager; the template is
``msviz/templates/msviz``), and it shows each widget's rendition. The site is a
folder: an index page, and for each notebook its page and the notebook as run;
a school hosts it, or hands it out, and it works from ``file://``, offline.

From a shell::

    python -m msviz site notebooks --out site        # or: python3 dev.py site
    jupyter nbconvert --to msviz --execute notebooks/01-start-here.ipynb   # one notebook

Examples
--------
>>> import nbformat
>>> book = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# A title")])
>>> from msviz.site import LessonExporter
>>> page, _ = LessonExporter().from_notebook_node(book)
>>> "A title" in page, any(f'{attribute}="http' in page for attribute in ("src", "href"))
(True, False)
"""

from __future__ import annotations

import functools
import html
import json
import shutil
import time
from pathlib import Path

from .i18n import LANGUAGES, html_lang, speaking
from .words import PAGE

__all__ = ["lesson", "build"]  # and LessonExporter, made when nbconvert is first asked for it

#: The folder of msviz's nbconvert template.
TEMPLATES = Path(__file__).with_name("templates")
#: A notebook is given this long (seconds) to run.
TIMEOUT = 900


@functools.cache
def _exporter_class():
    from nbconvert import HTMLExporter
    from traitlets import default

    class LessonExporter(HTMLExporter):
        """nbconvert's HTML exporter for msviz's lessons: JupyterLab's page with nothing fetched,
        and each widget shown by its rendition (its state in the notebook is left out: the
        rendition carries it)."""

        export_from_notebook = "msviz lesson page"

        @default("template_name")
        def _template_name_default(self):
            return "msviz"

        @default("extra_template_basedirs")
        def _extra_template_basedirs_default(self):
            return [str(TEMPLATES)]

        def _init_preprocessors(self):
            super()._init_preprocessors()
            self.register_preprocessor(_without_widget_state, enabled=True)  # after running it

    return LessonExporter


def _without_widget_state(nb, resources):
    """Leave out the widgets' saved state: each msviz widget's rendition carries its own, and a page
    that has it would load a widget manager from a CDN."""
    nb.metadata.pop("widgets", None)
    return nb, resources


def __getattr__(name):  # nbconvert is imported only when the exporter is used
    if name == "LessonExporter":
        return _exporter_class()
    raise AttributeError(f"module 'msviz.site' has no attribute {name!r}")


def lesson(folder) -> dict[str, list[Path]]:
    """Return the lesson's notebooks in `folder`, by language: the English ones in it, and each
    translation in the folder named for its language.

    Examples
    --------
    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> (root / "es").mkdir()
    >>> for path in (root / "01-a.ipynb", root / "es" / "01-a.ipynb"):
    ...     _ = path.write_text("{}")
    >>> {language: [p.name for p in books] for language, books in lesson(root).items()}
    {'en': ['01-a.ipynb'], 'es': ['01-a.ipynb']}
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"no folder of notebooks at {str(folder)!r}")
    found = {"en": sorted(folder.glob("*.ipynb"))}
    for language in LANGUAGES:
        if language != "en":
            found[language] = sorted((folder / language).glob("*.ipynb"))
    found = {language: books for language, books in found.items() if books}
    if not found:
        raise ValueError(f"no notebooks (*.ipynb) in {str(folder)!r}")
    return found


def _title(book) -> str:
    """The notebook's first heading, or its name."""
    for cell in book.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("#"):
                    return line.lstrip("#").strip()
    return ""


def _run(path: Path, timeout: int):
    """Run the notebook at `path` in its own folder; return it with its outputs."""
    import nbformat
    from nbclient import NotebookClient

    book = nbformat.read(path, as_version=4)
    NotebookClient(
        book, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    return book


def build(folder, out, *, timeout: int = TIMEOUT, languages=None, say=print) -> dict:
    """Run every notebook of the lesson in `folder` and write the site to `out`; return what was
    written: for each page its path, the size of its notebook as run, and the seconds it took.

    `out` gets ``index.html``, and for each language a folder (``en``, ``es``, ...) holding each
    notebook's page (``.html``) and the notebook as run (``.ipynb``). `out` is made afresh.
    """
    import nbformat

    found = lesson(folder)
    if languages is not None:
        found = {language: found[language] for language in languages if language in found}
    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    exporter = _exporter_class()()
    written, listed = [], {}
    for language, books in found.items():
        (out / language).mkdir()
        for path in books:
            t0 = time.perf_counter()
            book = _run(path, timeout)
            page, _ = exporter.from_notebook_node(book)
            stem = out / language / path.stem
            nbformat.write(book, stem.with_suffix(".ipynb"))
            stem.with_suffix(".html").write_text(page, encoding="utf-8")
            took = time.perf_counter() - t0
            size = stem.with_suffix(".ipynb").stat().st_size
            written.append({"page": str(stem.with_suffix(".html")), "notebook_bytes": size, "seconds": took})
            listed.setdefault(language, []).append((path.stem, _title(book) or path.stem))
            say(f"{language}/{path.stem}: {size / 1e6:.2f} MB as run, {took:.1f} s")
    (out / "index.html").write_text(_index(listed), encoding="utf-8")
    (out / "site.json").write_text(json.dumps(written, indent=1) + "\n", encoding="utf-8")
    return {"pages": written, "index": str(out / "index.html")}


def _index(listed: dict) -> str:
    """The site's first page: each language's notebooks, in order, each a link to its page."""
    parts = []
    for language, books in listed.items():
        with speaking(language):
            notebook = html.escape(PAGE["site_notebook"])
            items = "".join(
                f'<li><a href="{language}/{html.escape(stem)}.html">{html.escape(title)}</a>'
                f' <small>(<a href="{language}/{html.escape(stem)}.ipynb">{notebook}</a>)</small></li>'
                for stem, title in books
            )
            parts.append(
                f'<section lang="{html_lang()}"><h2>{html.escape(LANGUAGES[language])}</h2>'
                f"<p>{html.escape(PAGE['site_intro'])}</p><ol>{items}</ol></section>"
            )
    title = PAGE["site_title"]
    return f"""<!DOCTYPE html>
<html lang="{html_lang()}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>:root {{ color-scheme: light dark; }}
body {{ font-family: sans-serif; margin: 16px auto; max-width: 48rem; padding: 0 12px; line-height: 1.5;
  background: Canvas; color: CanvasText; }}
li {{ margin: 0.5em 0; }} a {{ display: inline-block; min-height: 24px; }}</style></head>
<body><main><h1>{html.escape(title)}</h1>{"".join(parts)}</main></body></html>
"""
