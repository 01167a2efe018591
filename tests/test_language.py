"""msviz speaks a language: choosing it, and every word a student or teacher sees said in it.

The pseudo-language wraps every phrase in ⟦...⟧: a run of Latin letters outside
the brackets is a word that escaped the catalogs (board letters, numbers and
cells such as (2, 3) excepted).
"""

import html
import json
import re

import matplotlib
import pytest
from matplotlib.text import Text

import msviz
from msviz import export, i18n, plot
from msviz.__main__ import main
from msviz.i18n import get_language, set_language, speaking

matplotlib.use("Agg")

BOARD = ["EEEE", "EEEE", "EEEM", "EEEE"]
CLICK = (0, 0)


@pytest.fixture(autouse=True)
def _english(monkeypatch):
    """Each test starts from English, whatever the machine's locale, and leaves nothing chosen."""
    for variable in ("MSVIZ_LANGUAGE", "LANGUAGE", "LC_ALL", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    set_language(None)
    yield
    set_language(None)


# ---- choosing the language -------------------------------------------------------------------


def test_set_and_get_language():
    assert get_language() == "en"
    assert msviz.set_language("es") == "es" and get_language() == "es"
    assert msviz.get_language() == "es"
    assert msviz.set_language("zh-CN") == "zh_CN"
    assert msviz.set_language(None) == "en"


def test_environment_and_locale_order(monkeypatch):
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    assert get_language() == "es"
    monkeypatch.setenv("LANGUAGE", "zh_CN:es")
    assert get_language() == "zh_CN"  # LANGUAGE before LANG
    monkeypatch.setenv("MSVIZ_LANGUAGE", "en")
    assert get_language() == "en"  # MSVIZ_LANGUAGE before the locale
    set_language("es")
    assert get_language() == "es"  # set_language before the environment
    with speaking("zh_CN"):
        assert get_language() == "zh_CN"  # one call's language before all
    monkeypatch.setenv("MSVIZ_LANGUAGE", "klingon")
    set_language(None)
    with pytest.warns(UserWarning, match="klingon"):
        assert get_language() == "zh_CN"  # warned, then the locale's


def test_unknown_language_lists_the_languages():
    with pytest.raises(ValueError, match=r"'fr'.*'en', 'es', 'zh_CN'"):
        msviz.set_language("fr")
    with pytest.raises(ValueError, match="'en', 'es', 'zh_CN'"):
        msviz.player(BOARD, CLICK, language="fr")


def test_language_keyword_of_each_widget_and_page():
    es = {
        "player": msviz.player(BOARD, CLICK, language="es"),
        "compare": msviz.compare(BOARD, CLICK, language="es"),
        "game": msviz.game(board=BOARD, language="es"),
        "quiz": msviz.quiz(BOARD, CLICK, language="es"),
        "simulate": msviz.simulate(BOARD, CLICK, language="es"),
    }
    for name, widget in es.items():
        assert widget.language == "es", name
        assert widget.words["lang"] == "es", name
    assert msviz.player(BOARD, CLICK, language=i18n.PSEUDO).words["play_play"].startswith("⟦")
    assert get_language() == "en"  # one call's language only
    bank = msviz.quiz_bank("ada", n=2, language="es")
    assert bank.language == "es" and bank.words["lang"] == "es"
    page = export.page_html(msviz.trace(BOARD, CLICK), language="zh_CN")
    assert '<html lang="zh-CN">' in page
    assert msviz.player(BOARD, CLICK).words["play_play"] == "Play"


def test_a_widget_keeps_its_language_in_its_handlers():
    g = msviz.game(board=BOARD, animate=False, language="es")
    g.click(0, 0)  # said in Spanish though English is spoken now
    assert g.status != msviz.game(board=BOARD, animate=False).status
    with speaking(i18n.PSEUDO):
        p = msviz.player(BOARD, CLICK)
    p.editing = True
    assert p.status.startswith("⟦")


# ---- the pseudo-language: nothing a user sees escapes the catalogs -----------------------------

#: What may stand outside ⟦...⟧: a board's letters (M E B X) alone, as a word.
BOARD_LETTERS = {"M", "E", "B", "X"}
_INNERMOST = re.compile(r"⟦[^⟦⟧]*⟧")
_WORD = re.compile(r"[A-Za-z]+")


def escaped(text: str) -> list[str]:
    """The runs of Latin letters of `text` outside every ⟦...⟧, board letters excepted."""
    while True:
        bare = _INNERMOST.sub(" ", text)
        if bare == text:
            break
        text = bare
    return [word for word in _WORD.findall(text) if word not in BOARD_LETTERS]


def assert_all_said(seen: dict[str, str]) -> None:
    """Every text of `seen` (where it was found: the text) is in the pseudo-language."""
    leftovers = {where: text for where, text in seen.items() if escaped(str(text))}
    assert not leftovers, "\n".join(
        f"{where}: {text!r} ({escaped(text)})" for where, text in leftovers.items()
    )


def test_escaped_finds_english():
    assert escaped("⟦step ⟦(2, 3)~⟧ shows B~~⟧ X 12 (0, 1)") == []
    assert escaped("⟦Right~⟧ wrong") == ["wrong"]


def _words(where: str, words: dict) -> dict:
    """The phrases of a `words` trait, by name (a phrase with a count: each of its forms)."""
    seen = {}
    for key, value in words.items():
        if key in ("lang", "plural"):
            continue
        if isinstance(value, dict):
            seen |= {f"{where}.words[{key}].forms[{i}]": form for i, form in enumerate(value["forms"])}
        elif isinstance(value, list):
            seen |= {f"{where}.words[{key}][{i}]": one for i, one in enumerate(value)}
        else:
            seen[f"{where}.words[{key}]"] = value
    return seen


def _shown(where: str, widget) -> dict:
    """Every string a student can see of `widget`: its words, status, titles, what Python fills."""
    seen = _words(where, widget.words)
    for name in ("status", "title", "restart", "error"):
        if getattr(widget, name, ""):
            seen[f"{where}.{name}"] = getattr(widget, name)
    for i, other in enumerate(getattr(widget, "others", [])):
        seen[f"{where}.others[{i}].title"] = other.get("title", "")
    hand = getattr(widget, "by_hand", {})
    for name in ("rule", "strip", "empty", "group", "keys_text", "verdict", "score"):
        if hand.get(name):
            seen[f"{where}.by_hand[{name}]"] = hand[name]
    for i, button in enumerate(hand.get("buttons", [])):
        seen[f"{where}.by_hand.buttons[{i}].text"] = button["text"]
        seen[f"{where}.by_hand.buttons[{i}].label"] = button["label"]
    data, _metadata = widget._repr_mimebundle_()
    seen[f"{where}: text/plain"] = data["text/plain"]
    seen[f"{where}: text/html"] = _visible(data["text/html"]) + " " + _alts(data["text/html"])
    return seen


def _visible(page: str) -> str:
    """The text of an HTML page a reader sees: no scripts, no styles, no tags."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S | re.I)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def _alts(page: str) -> str:
    return " ".join(html.unescape(v) for v in re.findall(r'\b(?:alt|title|aria-label)="([^"]*)"', page))


def _widgets() -> dict:
    """Each widget, used a little, made in the pseudo-language (their handlers then run in English)."""
    with speaking(i18n.PSEUDO):
        made = {
            "player": msviz.player(BOARD, CLICK),
            "player_bfs": msviz.player(BOARD, CLICK, order="bfs"),
            "player_events": msviz.player(BOARD, CLICK),
            "player_editing": msviz.player(BOARD, CLICK),
            "compare": msviz.compare(BOARD, CLICK),
            "game": msviz.game(board=BOARD, animate=False),
            "game_flags": msviz.game(board=BOARD, animate=False),
            "quiz": msviz.quiz(BOARD, CLICK),
            "quiz_bfs": msviz.quiz(BOARD, CLICK, order="bfs"),
            "simulate": msviz.simulate(BOARD, CLICK, order="bfs"),
            "simulate_dfs": msviz.simulate(BOARD, CLICK, order="dfs"),
            "simulate_done": msviz.simulate(["EM"], (0, 0), order="dfs"),
        }
    made["player"].step = 2
    made["player_events"].mode = "events"
    made["player_events"].step = 3
    made["player_editing"].editing = True
    made["player_editing"]._handle_message(None, {"event": "edit", "row": 3, "col": 3, "move": False}, [])
    made["game"].click(0, 0)
    made["game_flags"].flag(3, 3)
    made["game_flags"].click(2, 3)  # a mine: lost
    made["simulate"].take((0, 0))
    made["simulate"].say(3)
    made["simulate_dfs"].call((0, 0))
    made["simulate_dfs"]._handle_message(None, {"event": "operation", "name": "garbage"}, [])
    made["simulate_done"].call((0, 0))
    made["simulate_done"].say(1)
    made["simulate_done"].back()
    return made


def test_every_widget_speaks_pseudo():
    seen = {}
    for name, widget in _widgets().items():
        seen |= _shown(name, widget)
        assert widget.error == "", (name, widget.error)
    made = _widgets()
    seen["player.caption"] = made["player"].caption
    seen["player_events.caption"] = made["player_events"].caption
    seen |= {f"compare.captions[{i}]": said for i, said in enumerate(made["compare"].captions)}
    quiz = made["quiz"]
    seen["quiz.question"] = quiz.question
    seen["quiz.guess"] = quiz.guess(0, 1)
    seen["quiz.guess_wrong"] = quiz.guess(3, 3)
    seen["quiz_bfs.guess"] = made["quiz_bfs"].guess(1, 1)
    sim = made["simulate"]
    seen["simulate.undo"] = sim.undo().reason
    seen["simulate.queue"] = sim.queue([(0, 1), (1, 0)]).reason
    seen["simulate.by_hand[verdict] after queue"] = sim.by_hand["verdict"]
    assert_all_said(seen)


def test_the_quiz_bank_speaks_pseudo():
    bank = msviz.quiz_bank("ada", n=8, language=i18n.PSEUDO)
    seen = _words("bank", bank.words)
    for i, question in enumerate(bank.questions):
        bank.index = i
        seen[f"bank[{i}].prompt"] = bank.prompt
        seen |= {f"bank[{i}].choices[{j}]": choice for j, choice in enumerate(bank.choices)}
        if question.answered_by == "cells":
            bank._heard(bank, {"event": "answer", "index": i, "value": []}, [])  # refused: none chosen
            seen[f"bank[{i}].verdict refused"] = bank.verdict
        value = question.choices[0] if question.choices else list(question.click)
        if question.answered_by == "cells":
            value = [list(question.click)]
        bank._heard(bank, {"event": "answer", "index": i, "value": value}, [])
        seen[f"bank[{i}].verdict"] = bank.verdict
        seen[f"bank[{i}].score_text"] = bank.score_text
        data, _metadata = bank._repr_mimebundle_()
        seen[f"bank[{i}]: text/plain"] = data["text/plain"]
    assert_all_said(seen)


def test_the_page_speaks_pseudo():
    ts = [msviz.trace(BOARD, CLICK), msviz.trace(BOARD, CLICK, order="bfs")]
    for traces in (ts, ts[:1]):
        page = export.page_html(traces, language=i18n.PSEUDO)
        assert '<html lang="en-XA">' in page
        seen = {
            "page's visible text": _visible(page),
            "page's title": re.search(r"<title>(.*?)</title>", page)[1],
        }
        data = json.loads(re.search(r'<script id="msviz-data"[^>]*>(.*?)</script>', page, re.S)[1])
        stage = data["stage"]
        seen |= _words("page data", stage["words"])
        seen["page data title"] = stage.get("title", "")
        seen |= {
            f"page data others[{i}].title": o.get("title", "") for i, o in enumerate(stage.get("others", []))
        }
        assert_all_said(seen)


def _texts(where: str, figure) -> dict:
    """Every text of a matplotlib figure (titles, labels, legends, colour bars), by where it is."""
    found = figure.findobj(lambda artist: isinstance(artist, Text) and artist.get_visible())
    return {f"{where} text {i}": text.get_text() for i, text in enumerate(found) if text.get_text().strip()}


def test_the_charts_and_frames_speak_pseudo():
    from matplotlib import pyplot as plt

    dfs, bfs = msviz.trace(BOARD, CLICK), msviz.trace(BOARD, CLICK, order="bfs")
    seen = {}
    charts = {
        "visit_order_map": lambda: plot.visit_order_map(dfs),
        "layer_map": lambda: (plot.layer_map(dfs), plot.layer_map(bfs, ax=plt.figure().subplots())),
        "compare_orders": lambda: plot.compare_orders(dfs, bfs),
        "frontier_plot": lambda: plot.frontier_plot(dfs, bfs),
        "frontier_plot one": lambda: plot.frontier_plot(bfs),
        "step_vs_distance": lambda: plot.step_vs_distance(dfs, bfs),
        "draw_board": lambda: plot.draw_board(BOARD),
        "draw_step": lambda: plot.draw_step(dfs, 2),
    }
    for name, draw in charts.items():
        plt.close("all")
        with speaking(i18n.PSEUDO):
            draw()
        for number in plt.get_fignums():
            seen |= _texts(f"{name} figure {number}", plt.figure(number))
    plt.close("all")
    for name, traces in {"one": dfs, "two": [dfs, bfs], "nothing": msviz.trace(["B"], (0, 0))}.items():
        anim = export.animation(traces, language=i18n.PSEUDO)
        seen |= _texts(f"animation {name}", anim._fig)
        anim._fig.clear()
    assert_all_said(seen)


def test_the_worksheet_speaks_pseudo(monkeypatch, tmp_path):
    from matplotlib.backends.backend_pdf import PdfPages

    from msviz.worksheet import save_worksheet

    figures = []
    monkeypatch.setattr(PdfPages, "savefig", lambda self, figure: figures.append(figure))
    save_worksheet(BOARD, CLICK, tmp_path / "w.pdf", language=i18n.PSEUDO)
    seen = {}
    for i, figure in enumerate(figures):
        seen |= _texts(f"worksheet page {i + 1}", figure)
    assert len(figures) == 2
    assert_all_said(seen)


def test_the_command_line_speaks_pseudo(tmp_path, capsys, monkeypatch):
    seen, paths = {}, []
    for name, argv in {
        "render": ["render", "--rows", "4", "--cols", "4", "--mines", "2", "--seed", "1", "-o"],
        "worksheet": ["worksheet", "--rows", "4", "--cols", "4", "--mines", "2", "--seed", "1", "-o"],
    }.items():
        out, wrong = tmp_path / ("a.html" if name == "render" else "a.pdf"), tmp_path / "a.txt"
        paths += [out, wrong]
        assert main([name, "--language", "pseudo", *argv[1:], str(out)]) == 0
        seen[f"{name} printed"] = capsys.readouterr().out
        assert main([name, "--language", "pseudo", *argv[1:], str(wrong)]) == 2
        seen[f"{name} refused"] = capsys.readouterr().err
    monkeypatch.setenv("MSVIZ_LANGUAGE", "pseudo")
    board = tmp_path / "board.txt"
    paths.append(board)
    board.write_text("EE\nEM\n")
    assert main(["render", "--board", str(board), "--rows", "3", "-o", str(tmp_path / "b.png")]) == 2
    seen["render --board and --rows"] = capsys.readouterr().err
    assert main(["render", "--board", str(tmp_path / "none.txt"), "-o", str(tmp_path / "b.png")]) == 2
    seen["render no board file"] = capsys.readouterr().err
    paths.append(tmp_path / "none.txt")
    for where, text in seen.items():
        for path in sorted(paths, key=lambda p: -len(str(p))):
            text = text.replace(str(path), "")
        seen[where] = text
    assert all(seen.values()), seen
    assert_all_said(seen)


def test_the_bank_sends_the_keys_that_type_an_order_in_any_language():
    from msviz.words import ORDER_WORDS

    bank = msviz.quiz_bank("ada", n=12, language="zh_CN")
    orders = [i for i, q in enumerate(bank.questions) if q.kind == "order"]
    assert orders, "no order question in this bank"
    bank.index = orders[0]
    with msviz.i18n.speaking("zh_CN"):
        assert bank.choice_keys == {ORDER_WORDS["dfs"]: "d", ORDER_WORDS["bfs"]: "b"}
    others = [i for i, q in enumerate(bank.questions) if q.kind != "order"]
    bank.index = others[0]
    assert bank.choice_keys == {}
