"""The package's layout: no import circle among msviz's modules, no grader file over 400 lines.

Imports are read with ast, those inside functions too (a late import hides a
circle from Python but not from the reader), and relative imports are resolved.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "msviz"


def module_names(root: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its __init__)."""
    names = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that a module imports, anywhere in its code."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            # from a package import its module: the module (the package runs first anyway);
            # from a module import a name: the module
            submodules = [f"{origin}.{alias.name}" for alias in node.names]
            targets = submodules if all(m in modules for m in submodules) else [origin] + submodules
        else:
            continue
        found |= {target for target in targets if target in modules and target != name}
    return found


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    modules = module_names(root)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (or a module importing itself)."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_the_reader_finds_a_circle_hidden_in_a_function(tmp_path):
    root = tmp_path / "pkg"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "sub" / "__init__.py").write_text("")
    (root / "sub" / "a.py").write_text("from . import b\n")
    (root / "sub" / "b.py").write_text("from ..c import thing\n")
    (root / "c.py").write_text("def f():\n    from .sub.a import x\n")
    graph = import_graph(root)
    assert graph["pkg.sub.b"] == {"pkg.c"}
    assert circles(graph) == [["pkg.c", "pkg.sub.a", "pkg.sub.b"]]
    (root / "c.py").write_text("def f():\n    return 1\n")
    assert circles(import_graph(root)) == []


def test_no_import_circle_in_msviz():
    assert circles(import_graph()) == []


def test_no_grader_file_is_over_400_lines():
    long = {}
    for path in sorted((PACKAGE / "grade").glob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > 400:
            long[path.name] = lines
    assert long == {}


DRAWING_MODULES = {"msviz.render", "msviz.plot", "msviz.view", "msviz.viewstate", "msviz.export"}


def drawing(graph) -> set[str]:
    """The drawing side's modules: the pictures, the view, export, and every widget's module."""
    return DRAWING_MODULES | {name for name in graph if name.split(".")[:2] == ["msviz", "widgets"]}


#: The grader's two displays: the class page, and a report's own picture in a notebook (`Report.draw`).
GRADER_DISPLAYS = {"msviz.grade.page", "msviz.grade.report"}


def test_the_grader_runs_and_judges_without_the_drawing_side():
    graph = import_graph()
    grader = {name for name in graph if name.startswith("msviz.grade")}
    assert {"msviz.grade.record", "msviz.grade.verdict", "msviz.grade.child"} <= grader
    drawn = drawing(graph)
    reaching = {name: sorted(graph[name] & drawn) for name in grader - GRADER_DISPLAYS}
    assert {name: found for name, found in reaching.items() if found} == {}


def test_the_drawing_side_reads_no_grader_module():
    graph = import_graph()
    grader = {name: sorted(m for m in graph[name] if m.startswith("msviz.grade")) for name in graph}
    reaching = {name: grader[name] for name in drawing(graph)}
    assert {name: found for name, found in reaching.items() if found} == {}
