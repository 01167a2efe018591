"""The front end in small parts: msviz/js, joined into one module by msviz.frontend.

Each part is at most 400 lines, no function in it is over 150 lines, each imports from the
others only what they export, and the joined module holds every part with its imports
dropped and one default export (the stage's render). What the parts compute is tested in
the browser (tests/browser/test_frontend_in_chromium.py).
"""

import re

import pytest

from msviz.frontend import BANK_ESM, BANK_PARTS, ESM, FOLDER, OFFLINE_PARTS, PAGE_PARTS, PARTS, join, part

MOST_LINES = 400
MOST_FUNCTION_LINES = 150


def code_only(text: str) -> str:
    """`text` with its comments, strings, template literals and regular expressions blanked out
    (newlines kept), so that what is left of its braces is the code's own."""
    out = []
    i, n = 0, len(text)
    last = ""  # the last character of code seen: a "/" after one of these starts a regex
    while i < n:
        c, two = text[i], text[i : i + 2]
        if two == "//":
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif two == "/*":
            j = text.index("*/", i) + 2
        elif c in "\"'`" or (c == "/" and (last in "(,=:[!&|?{};" or text[max(0, i - 7) : i] == "return ")):
            j = i + 1
            while text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j += 1
            if c == "/":  # a regex's flags
                while j < n and text[j].isalpha():
                    j += 1
        else:
            out.append(c)
            if not c.isspace():
                last = c
            i += 1
            continue
        out.append(re.sub(r"[^\n]", " ", text[i:j]))
        i = j
    return "".join(out)


def functions(text: str) -> dict[str, int]:
    """Every function declared with `function name(` in `text`, and its length in lines."""
    code = code_only(text)
    found = {}
    for match in re.finditer(r"\bfunction\s+(\w+)\s*\(", code):
        depth, j = 1, match.end()
        while depth:  # past the parameters, which may hold braces of their own ({ model, el })
            depth += {"(": 1, ")": -1}.get(code[j], 0)
            j += 1
        start = code.index("{", j)
        depth = 0
        for j in range(start, len(code)):
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            if depth == 0:
                break
        found[match.group(1)] = code.count("\n", match.start(), j) + 1
    return found


def test_the_code_reader_sees_braces_in_code_only():
    text = (
        'function f(a) {\n  const s = "}{"; // }\n  return /\\{(\\w+)\\}/g.test(`${a}}`);\n}\n'
        "function g() {}\n"
    )
    assert functions(text) == {"f": 4, "g": 1}
    assert functions("function h({ a, b }) {\n  return a;\n}\n") == {"h": 3}


#: Every part: the board view's, the exported page's, the quiz bank's, a page's answers with no kernel.
ALL_PARTS = tuple(dict.fromkeys(PAGE_PARTS + BANK_PARTS + OFFLINE_PARTS))


@pytest.mark.parametrize("name", ALL_PARTS)
def test_each_part_is_small(name):
    text = part(name)
    assert text.startswith(f"// msviz/js/{name}: "), "each part says what it is in its first line"
    assert text.count("\n") <= MOST_LINES
    long = {f: n for f, n in functions(text).items() if n > MOST_FUNCTION_LINES}
    assert long == {}, f"{name}: functions over {MOST_FUNCTION_LINES} lines: {long}"


def test_every_file_of_the_folder_is_a_part():
    assert sorted(p.name for p in FOLDER.glob("*.js")) == sorted(ALL_PARTS)


@pytest.mark.parametrize("name", ALL_PARTS)
def test_a_part_imports_only_what_another_part_exports(name):
    for names, other in re.findall(r'^import \{([^}]*)\} from "\./([a-z]+\.js)";$', part(name), re.M):
        assert other in ALL_PARTS and other != name
        exported = set(
            re.findall(r"^export (?:async )?(?:function|const|let|class) (\w+)", part(other), re.M)
        )
        wanted = {n.strip() for n in names.split(",")}
        assert wanted <= exported, f"{name} imports {sorted(wanted - exported)} that {other} does not export"


def test_the_module_is_every_part_without_its_imports_and_one_default_export():
    assert ESM == join(PARTS) and "\nimport " not in ESM and not ESM.startswith("import ")
    assert ESM.count("export default") == 1 and "export default { render: renderStage };" in part("stage.js")
    # anywidget warns of a module that exports `render` by name beside its default export.
    assert not re.search(r"^export (?:async )?(?:function|const|let) render\b", ESM, re.M)
    for name in PARTS:
        body = re.sub(r"^import .*\n", "", part(name), flags=re.M)
        assert body in ESM
    # One module: a name declared at the top of two parts would stop it loading.
    declared = re.findall(
        r"^(?:export )?(?:async )?(?:function|const|let|class) (\w+)", join(PAGE_PARTS), re.M
    )
    twice = sorted({name for name in declared if declared.count(name) > 1})
    assert twice == [], f"declared at the top of more than one part: {twice}"


def test_the_quiz_banks_module_is_its_parts_with_one_default_export():
    assert BANK_ESM == join(BANK_PARTS) and "\nimport " not in BANK_ESM
    assert BANK_ESM.count("export default") == 1 and "export default { render: renderBank };" in BANK_ESM
    imported = re.findall(r'^import \{[^}]*\} from "\./([a-z]+\.js)";$', part("bank.js"), re.M)
    assert set(imported) <= set(BANK_PARTS) - {"bank.js"}  # all it reads is joined before it
    declared = re.findall(r"^(?:export )?(?:async )?(?:function|const|let|class) (\w+)", BANK_ESM, re.M)
    assert sorted({name for name in declared if declared.count(name) > 1}) == []


def test_a_name_that_is_not_a_part_is_refused():
    with pytest.raises(ValueError, match="no front-end part is named 'view.js'"):
        part("view.js")


def test_a_page_joins_the_parts_without_anywidgets_default_exports():
    """A rendition joins the stage's and the bank's parts into one module: one default export would
    be one too many, so a page's join has none (the page starts its widget itself)."""
    assert ESM.count("export default") == 1 and BANK_ESM.count("export default") == 1
    page = join((*PAGE_PARTS, "bank.js", *OFFLINE_PARTS), page=True)
    assert "export default" not in page
    assert page.count("export function renderBank") == 1 and page.count("export function renderStage") == 1
