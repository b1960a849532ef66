"""The explainer site's pages, headless (no browser): structure, execution, machinery.

* every page of ``bohnteach.site.pages.PAGES`` exists, starts with its title, calls
  ``page_header`` and ``nav_links`` and has only short calls in its code cells;
* every notebook in ``notebooks/`` executes in a real kernel (nbclient) without an error,
  without a traceback or other stream output, without a stray repr and without a
  friendly error box (``bt-error``) — i.e. nothing on any page is broken;
* the navigation chain, the comparison table, the Auslegungen list, the failure
  handling and the trial game, „Probespiel“ (a whole game through its buttons).

The same notebooks also run under nbval: ``pytest --nbval-lax notebooks/``.
"""
from __future__ import annotations

import functools
import json
import random
import re
from pathlib import Path

import pytest

from bohnteach.content.chapters import LESSONS
from bohnteach.site import pages as site
from bohnteach.widgets.failure import guard, safe_display
from bohnteach.site.addresses import APP_PAGE
from bohnteach.site.serve import build_voila_command

from kernel_run import execute_notebook

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
TUTORIALS = ROOT / "tutorials"
SITE_PAGES = [p for p in site.PAGES if p.author == "site"]
ALL_NOTEBOOKS = [NOTEBOOKS / page.filename for page in site.PAGES]  # the pages; app.ipynb: test_app.py
LESSON_NOTEBOOKS = [TUTORIALS / f"{name}.ipynb" for name, _title in LESSONS]

CALL_LINE = re.compile(
    r"^(from bohnteach\.site import (bohnometer_page as chapter, )?pages"
    r"|from bohnteach\.editions\.[a-z_]+\.teaching import page as chapter"  # an edition's chapter
    r"|(pages|chapter)\.[a-z_]+\(.*\);?)$"
)
MD_LINK = re.compile(r"\]\(([^)\s]+\.ipynb)(#[^)]*)?\)")


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text("utf-8"))["cells"]


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


# ---- structure --------------------------------------------------------------------------
def test_page_names_unique_and_ordered():
    names = [p.name for p in site.PAGES]
    assert len(set(names)) == len(names)
    assert names == sorted(names), "PAGES must be in file order (the navigation follows it)"
    assert names[0] == "00_Start"


@pytest.mark.parametrize("page", SITE_PAGES, ids=lambda p: p.name)
def test_site_page_exists_with_title_header_and_nav(page):
    path = NOTEBOOKS / page.filename
    assert path.is_file(), f"{page.filename} fehlt"
    cells = _cells(path)
    first = _source(cells[0])
    assert cells[0]["cell_type"] == "markdown" and first.startswith(f"# {page.title}\n"), (
        f"{page.filename}: first cell must be the title '# {page.title}'")
    code = [_source(c) for c in cells if c["cell_type"] == "code"]
    assert f'pages.page_header("{page.name}")' in code[0]
    assert code[-1] == f'pages.nav_links("{page.name}")', "the last cell shows the prev/next links"
    prose = " ".join(_source(c) for c in cells if c["cell_type"] == "markdown")
    assert len(prose.split()) >= 40, "every page explains something in German prose"


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=lambda p: p.stem)
def test_code_cells_are_short_calls(path):
    """Voilà hides code inputs, but the notebooks stay thin anyway: 1–3 short calls."""
    if site.find_page(path.stem).author != "site":
        pytest.skip("page written by the lessons engineer")
    for cell in _cells(path):
        if cell["cell_type"] != "code":
            continue
        lines = [ln for ln in _source(cell).splitlines() if ln.strip()]
        assert 1 <= len(lines) <= 3, f"{path.name}: code cell with {len(lines)} lines"
        for line in lines:
            assert len(line) <= 400 and CALL_LINE.match(line), f"{path.name}: not a short call: {line!r}"
        assert not cell.get("outputs"), f"{path.name}: saved outputs (clear them)"


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=lambda p: p.stem)
def test_markdown_shows_no_code_and_links_resolve(path):
    for cell in _cells(path):
        if cell["cell_type"] != "markdown":
            continue
        text = _source(cell)
        assert "```" not in text, f"{path.name}: code block in the prose"
        for target, _anchor in MD_LINK.findall(text):
            resolved = (NOTEBOOKS / target).resolve()
            known = target in {p.filename for p in site.PAGES}
            assert resolved.is_file() or known, f"{path.name}: broken link {target}"


def test_voila_hides_code_cells():
    """Voilà strips code inputs by default; the site command must not switch that off."""
    cmd = " ".join(build_voila_command(8866, public=False, root=NOTEBOOKS))
    assert "strip_sources=False" not in cmd
    for path in ALL_NOTEBOOKS:
        meta = json.loads(path.read_text("utf-8")).get("metadata", {})
        assert "voila" not in json.dumps(meta).lower() or "strip" not in json.dumps(meta).lower()


# ---- navigation --------------------------------------------------------------------------
def test_navigation_chain():
    existing = [p for p in site.PAGES if site.page_exists(p)]
    for i, page in enumerate(existing):
        html = site.nav_html(page.name)
        if i > 0:
            assert f'href="{existing[i - 1].filename}"' in html and "bt-nav-prev" in html
        else:
            assert "bt-nav-prev" not in html
        if i + 1 < len(existing):
            assert f'href="{existing[i + 1].filename}"' in html and "bt-nav-next" in html
        else:
            assert "bt-nav-next" not in html
        if page.name != "00_Start":
            assert 'href="00_Start.ipynb"' in html


def test_header_names_the_chapter_and_what_it_teaches():
    html = site.page_header("03_Phase_2_und_Handel").data
    page = site.find_page("03_Phase_2_und_Handel")
    assert "Hier lernst du" in html and page.teaches.split()[0] in html
    assert 'href="00_Start.ipynb"' in html


def test_one_registry_lists_every_chapter_and_lesson_notebook():
    """The one check that the folders and the registry agree – everything else (navigation,
    app, static build, tests) reads only the registry: data/chapters.toml names every
    notebook of notebooks/ (besides the app's) and of tutorials/, in file order, and each
    entry's notebook exists, a lesson's with the entry's title as its heading (a chapter's
    heading: test_site_page_exists_with_title_header_and_nav). Adding one is notebook + entry."""
    assert [p.name for p in sorted(NOTEBOOKS.glob("*.ipynb")) if p.name != APP_PAGE] == [
        p.filename for p in site.PAGES]
    assert [p.name for p in sorted(TUTORIALS.glob("*.ipynb"))] == [p.name for p in LESSON_NOTEBOOKS]
    for name, title in LESSONS:
        assert site._notebook_title(TUTORIALS / f"{name}.ipynb")[0] == title, name


def test_start_page_lists_chapters_and_lessons():
    html = site.chapter_overview().data
    for page in site.PAGES[1:]:
        if site.page_exists(page):
            assert f'href="{page.filename}"' in html
    lessons = site.lessons()
    assert len(lessons) == len(LESSONS) and all(href.startswith("../tutorials/") for href, _, _ in lessons)
    listed = site.lesson_list().data
    assert all(href in listed for href, _, _ in lessons)


# ---- failures become friendly boxes ----------------------------------------------------------
def test_guarded_builder_returns_error_box(capsys):
    @guard()
    def broken():
        raise ValueError("kaputt")

    box = broken()
    assert 'class="bt bt-box bt-error"' in box.data and "kaputt" in box.data
    assert "Traceback" not in box.data
    assert capsys.readouterr().out == ""


def test_safe_display_shows_box_instead_of_raising(monkeypatch):
    shown = []
    import IPython.display

    monkeypatch.setattr(IPython.display, "display", lambda obj: shown.append(obj))
    assert safe_display(lambda: 1 / 0) is None
    assert len(shown) == 1 and "bt-box bt-error" in shown[0].data and "Traceback" not in shown[0].data


def test_unknown_exercise_is_a_box_not_an_exception():
    box = site.try_it("gibt-es-nicht")
    assert "bt-box bt-error" in box.data


# ---- special pages ------------------------------------------------------------------------
def test_comparison_table_covers_every_difference():
    from bohnteach.render.comparison import comparison_html, comparison_rows

    _, rows = comparison_rows(["amigo", "online"])
    by_topic = {r.topic: r for r in rows}
    for topic in ("Personen", "Kartenspiel", "Felder am Anfang", "Drittes Feld", "Austeilen",
                  "Startspieler", "Phase 4: nachziehen", "Spielende", "Gleichstand"):
        assert by_topic[topic].differs, topic
    assert "3 Taler" in by_topic["Drittes Feld"].values[1]
    assert "nicht vorgesehen" in by_topic["Drittes Feld"].values[0]
    assert "Hand" in by_topic["Gleichstand"].values[1]
    html = comparison_html()
    assert html.count("<tr") >= 10 and "bt-diff" in html and "bt-differs" in html
    assert "Ladybohn" in html  # every built-in rule set is a column


def test_comparison_scenes_pair_amigo_and_online():
    from bohnteach.render.comparison import scene_pairs
    from bohnteach.content.scenes import list_scenes

    pairs = scene_pairs(list_scenes("vergleich"))
    assert pairs, "no Regelvergleich scenes"
    assert any([s.ruleset for s in group] == ["amigo", "online"] for group in pairs)


def test_interpretations_list_every_decision():
    from bohnteach.game.errors import rule_catalogue

    html = site.interpretations().data
    decided = [r for r in rule_catalogue().values() if r.interpretation]
    assert len(decided) >= 4
    for rule in decided:
        assert f'data-rule="{rule.id}"' in html
        assert rule.source.split(",")[0] in html


def test_rules_table_cites_sources():
    html = site.rules_table("p1.plant-front", "harvest.protection").data
    assert "p1.plant-front" in html and "Amigo-Spielregel, „Phase 1" in html
    assert not re.search(r"\d{3}_[0-9a-f]{16}\.txt", html)


# ---- the trial game (Probespiel) --------------------------------------------------------------
def _buttons(widget, kind: type | None = None):
    """The widgets of ``kind`` (buttons by default) in ``widget``, nested ones too."""
    import ipywidgets as widgets

    kind = kind or widgets.Button
    out, stack = [], [widget]
    while stack:
        w = stack.pop()
        if isinstance(w, kind):
            out.append(w)
        stack.extend(getattr(w, "children", ()))
    return out


def _classes(button) -> set[str]:
    return set(button._dom_classes)


def test_trial_game_trade_by_tapping_cards():
    """Phase 2: tap a card, pick a partner and a wanted variety, offer; the bot answers."""
    import ipywidgets as widgets

    from bohnteach.game.actions import EndPlanting
    from bohnteach.widgets.trial_game import TrialGame
    from bohnteach.game.state import Phase

    def first(cls):
        return next(b for b in _buttons(game.actions) if cls in _classes(b))

    game = TrialGame(seed=4, bot="trader")
    game.try_action(EndPlanting(0))  # refused: the front card must be planted first
    assert "p1.plant-front" in game.feedback.value
    while game.state.phase is Phase.PLANT:
        for b in [b for b in _buttons(game.actions) if "bt-ps-plant" in _classes(b)]:
            b.click()
            if "bt-refusal" not in game.feedback.value:
                break
        else:
            first("bt-ps-harvest").click()
        if game.state.phase is Phase.PLANT:
            first("bt-ps-end-planting").click()
    toggles = []
    stack = [game.actions]
    while stack:
        w = stack.pop()
        if isinstance(w, widgets.ToggleButton):
            toggles.append(w)
        stack.extend(getattr(w, "children", ()))
    assert len(toggles) == len(game.give_options()) >= 2
    next(t for t in toggles if "aufgedeckt" in t.description).value = True
    assert len(game._give) == 1 and game._give[0] in game.state.revealed
    game.want_pick.value = ""  # a gift
    before = len(game.history)
    game.offer_button.click()
    assert len(game.history) >= before + 2  # the offer and the bot's answer
    assert "bt-box bt-error" not in game.feedback.value
    assert game.state.offer is None


def test_trial_game_refusal_is_explained():
    from bohnteach.widgets.trial_game import TrialGame

    game = TrialGame(seed=3, bot="planter")
    before = game.state.to_dict()
    second = game._picks[game.state.players[0].hand[1]]  # tap the second hand card …
    second.value = True
    assert "bt-picked" in _classes(second)
    plant = [b for b in _buttons(game.actions) if "bt-ps-plant" in _classes(b)]
    plant[0].click()  # … and a field: the front card comes first
    assert "bt-refusal" in game.feedback.value and "p1.plant-front" in game.feedback.value
    assert "Quelle: Amigo-Spielregel, „Phase 1" in game.feedback.value
    assert game.state.to_dict() == before
    sort = [b for b in _buttons(game.actions) if "bt-ps-reorder" in _classes(b)]
    sort[0].click()
    assert "hand.order" in game.feedback.value


def test_trial_game_one_full_turn_then_bots_play():
    from bohnteach.widgets.trial_game import TrialGame
    from bohnteach.game.state import Phase

    game = TrialGame(seed=5, bot="trader", players=4)
    assert game.state.active == 0 and game.state.phase is Phase.PLANT

    def click(cls):
        found = [b for b in _buttons(game.actions) if cls in _classes(b)]
        assert found, f"no {cls} button in phase {game.state.phase}"
        found[0].click()
        assert "bt-box bt-error" not in game.feedback.value

    # phase 1: plant the front card on a field where it fits (or harvest first)
    for _ in range(4):
        if game.state.phase is not Phase.PLANT:
            break
        fits = [b for b in _buttons(game.actions) if "bt-ps-plant" in _classes(b)]
        for b in fits:
            b.click()
            if "bt-refusal" not in game.feedback.value:
                break
        else:
            click("bt-ps-harvest")
            continue
        if game.state.phase is Phase.PLANT:
            click("bt-ps-end-planting")
    assert game.state.phase is Phase.TRADE and len(game.state.revealed) == 2
    click("bt-ps-end-trading")
    while game.state.phase is Phase.PLANT_RECEIVED:
        before = len(game.history)
        for b in [b for b in _buttons(game.actions) if "bt-ps-plant" in _classes(b)]:
            b.click()
            if "bt-refusal" not in game.feedback.value:
                break
        else:
            click("bt-ps-harvest")
        assert len(game.history) > before
    click("bt-ps-draw")
    # the bots play; when one of them wants to stop trading, the learner may still offer
    # it a deal (co-players trade with the active player) — here: "Weiter"
    # (offers the bots make to the learner are declined)
    paused = offers = 0
    while game.state.active != 0 and paused + offers < 40:
        assert game.state.phase is Phase.TRADE
        if game.state.offer is not None:
            click("bt-ps-decline")
            offers += 1
        else:
            assert "Weiter" in game.hint.value
            click("bt-ps-continue")
            paused += 1
    assert paused == 3, "one chance to trade with each bot"
    assert game.state.turn == 5 and game.state.active == 0
    # every move went into the game record: replaying it gives the same table, and
    # stepping back to any earlier point is the record's state there
    from bohnteach.game.record import Game

    again = Game.from_json(game.game.to_json())
    assert again.state.to_dict() == game.state.to_dict() and len(again.log) > 10
    assert again.state_at(0).to_dict() == game.game.initial.to_dict()
    again.undo(len(again.log))
    assert again.state.to_dict() == game.game.initial.to_dict()
    log = game.log_view.value
    for name in ("Ben", "Clara", "David"):
        assert f"{name} ist am Zug" in log
    assert "bt-ps-you" in log


@pytest.mark.parametrize("seed", [1, 2])
def test_trial_game_whole_game_by_random_clicks(seed):
    """Tap random cards and click random buttons (mistakes included) until the game is
    over: no error box."""
    import ipywidgets as widgets

    from bohnteach.widgets.trial_game import TrialGame
    from bohnteach.game.state import Phase

    rng = random.Random(seed)
    game = TrialGame(seed=seed, bot=["trader", "random"][seed % 2], players=3 + seed)
    refusals = 0
    for _ in range(5000):
        if game.state.phase is Phase.OVER:
            break
        buttons = [b for b in _buttons(game.actions) if "bt-ps-new" not in _classes(b)]
        forward = [b for b in buttons if "bt-ps-mistake" not in _classes(b)]
        cards = [t for t in _buttons(game.actions, widgets.ToggleButton) if not t.disabled]
        if cards and rng.random() < 0.3:  # a tapped card is what the next plant takes (or offers)
            card = rng.choice(cards)
            card.value = not card.value
        if game.state.phase is Phase.TRADE and game.give_options() and rng.random() < 0.2:
            game.choose_give([game.give_options()[0][1]])
            game.want_pick.value = rng.choice(game.want_pick.options)[1]
            game.offer_button.click()
        else:
            rng.choice(buttons if rng.random() < 0.15 else forward).click()
        assert "bt-box bt-error" not in game.feedback.value, game.feedback.value
        refusals += "bt-refusal" in game.feedback.value
    assert game.state.phase is Phase.OVER
    assert refusals > 0
    assert "Spielende" in game.log_view.value
    assert [b for b in _buttons(game.actions) if "bt-ps-new" in _classes(b)]


# ---- every notebook executes cleanly ---------------------------------------------------------
_execute = functools.cache(execute_notebook)  # each page run in a kernel once per test session


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_executes_without_visible_failure(path):
    nb = _execute(path)
    problems = []
    widgets = 0
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            kind = out["output_type"]
            if kind == "error":
                problems.append(f"cell {i}: {out['ename']}: {out['evalue']}")
            elif kind == "stream":
                problems.append(f"cell {i}: {out['name']} output {out['text'][:200]!r}")
            else:
                data = out.get("data", {})
                if set(data) == {"text/plain"}:
                    problems.append(f"cell {i}: bare repr {data['text/plain'][:80]!r}")
                html = data.get("text/html", "")
                if "bt-box bt-error" in html or "Traceback" in html:
                    problems.append(f"cell {i}: error box {html[html.find('bt-box'):][:300]!r}")
                widgets += "application/vnd.jupyter.widget-view+json" in data
    state = json.dumps(nb.metadata.get("widgets", {}))
    if "bt-box bt-error" in state:
        at = state.find("bt-box bt-error")
        problems.append(f"a widget shows an error box: {state[at:at + 300]!r}")
    assert not problems, "\n".join(problems)
    page = site.find_page(path.stem)
    if page.chapter and page.author == "site":
        assert widgets >= 1, "a chapter page shows its scenes"


#: The most widget state a page may send (``15_Indiana_Bohnes`` sent 702 kB before the
#: stylesheet came once per page and alike layouts were shared; now about 260 kB).
STATE_BUDGET = 320_000


def _strings(value: object) -> str:
    """Every string inside a widget's state, joined (as the browser gets them, unescaped)."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        value = list(value.values())
    return "\n".join(_strings(v) for v in value) if isinstance(value, list) else ""


def _states(nb) -> list[dict]:
    """The state of every widget model the page sends."""
    models = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {})
    return [m["state"] for m in models.get("state", {}).values()]


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=lambda p: p.stem)
def test_page_sends_each_stylesheet_once(path):
    """The fragments', the boards' and the site's stylesheets come once, in the page's
    header, never in a widget or a later output (each copy was sent again with every HTML
    widget: 117 of the 451 kB of ``14_Ladybohn``'s widget state)."""
    from bohnteach.render.style import BOARD_CSS, CSS
    from bohnteach.site.pages import SITE_CSS

    nb = _execute(path)
    states = _states(nb)
    first = next(c for c in nb.cells if c.cell_type == "code")
    header = "".join(o.get("data", {}).get("text/html", "") for o in first.get("outputs", []))
    later = [o.get("data", {}).get("text/html", "") for c in nb.cells[nb.cells.index(first) + 1:]
             if c.cell_type == "code" for o in c.get("outputs", [])]
    for sheet in (CSS, BOARD_CSS, SITE_CSS):
        assert header.count(sheet) == 1, "the page's header carries each stylesheet"
        assert not [s for s in states if sheet in _strings(s)], "a stylesheet in a widget"
        assert not [h for h in later if sheet in h], "a stylesheet in an output below the header"


@pytest.mark.parametrize("path", ALL_NOTEBOOKS + LESSON_NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_page_sends_no_widget_model_twice(path):
    """Before a page's widgets appear the browser must load every widget model, all in one
    reply; the page with the largest state was the one left at „Loading widget...“. So no
    two ``Layout`` or style models are alike — except ipywidgets' empty defaults — and the
    whole state stays within ``STATE_BUDGET``."""
    states = _states(_execute(path))
    alike: dict[str, int] = {}
    for s in states:
        set_ = {k: v for k, v in s.items() if not k.startswith("_") and v not in (None, "", [])}
        if (s["_model_name"] == "LayoutModel" or s["_model_name"].endswith("StyleModel")) and set_:
            key = json.dumps([s["_model_name"], set_], sort_keys=True)
            alike[key] = alike.get(key, 0) + 1
    assert {k: n for k, n in alike.items() if n > 1} == {}
    assert len(json.dumps(states)) <= STATE_BUDGET


def test_the_navigation_lists_the_notebooks_folder_once_and_checks_no_file(monkeypatch):
    """On the static site every file check is a request from Python's worker to the page
    (10 ms): a page's navigation, which names every chapter, lists the folder once."""
    import os

    site._files_in.cache_clear()
    listed: list[str] = []
    real_listdir = os.listdir
    monkeypatch.setattr(os, "listdir", lambda folder: listed.append(str(folder)) or real_listdir(folder))
    monkeypatch.setattr(Path, "is_file", lambda self: pytest.fail(f"checked {self}"))
    for page in site.PAGES:
        assert "bt-nav" in site.nav_html(page.name)
    assert site.page_exists(site.PAGES[1])
    assert len(listed) == len(set(listed)) <= 2, listed  # the folder, and the working directory


def test_folders_the_build_names_are_never_listed(monkeypatch, tmp_path):
    """The static build tells its snapshot what the site's folders hold (listing one in the
    browser waits for the page): a page then lists none of them, and shows what they hold."""
    import os

    site._files_in.cache_clear()
    monkeypatch.setattr(site, "_KNOWN_FILES", {})
    monkeypatch.chdir(tmp_path)  # an empty folder: only the known names can make the pages exist
    site.know_files({str(tmp_path): ["00_Start.ipynb", "02_Phase_1.ipynb"]})
    monkeypatch.setattr(os, "listdir", lambda folder: pytest.fail(f"listed {folder}"))
    try:
        assert site.notebooks_dir() == tmp_path
        assert [p.name for p in site.PAGES if site.page_exists(p)] == ["00_Start", "02_Phase_1"]
        assert "02_Phase_1" in site.nav_html("00_Start")
    finally:
        site._files_in.cache_clear()


def test_notebooks_the_build_gives_are_never_read(monkeypatch, tmp_path):
    """The static build gives its snapshot the notebooks' texts too (reading a file in the
    browser is four requests that wait for the page): they are taken as given, any other
    file is read."""
    monkeypatch.setattr(site, "_KNOWN_FILES", {})
    monkeypatch.setattr(site, "_KNOWN_TEXTS", {})
    known = '{"cells": [{"cell_type": "markdown", "source": "# Bohnen\\nDer erste Satz."}]}'
    (tmp_path / "other.ipynb").write_text("{}", "utf-8")
    site.know_files({str(tmp_path): {"known.ipynb": known, "other.ipynb": None}})
    try:
        assert site.read_page(tmp_path / "known.ipynb") == known  # not on the disk at all
        assert site.read_page(tmp_path / "other.ipynb") == "{}"
        assert site._notebook_title(tmp_path / "known.ipynb") == ("Bohnen", "Der erste Satz.")
    finally:
        site._files_in.cache_clear()


#: Changes a page may send to its widgets after making them (each a message the browser's
#: Python sends, 1–2 ms; the Indiana chapter sent 127 for 284 widgets when classes were added
#: afterwards).
UPDATE_BUDGET = 15


@pytest.mark.parametrize("path", ALL_NOTEBOOKS + LESSON_NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_page_sends_its_widgets_with_their_state(path, monkeypatch):
    """A widget goes to the browser with its classes and first values; a page changes few of
    its widgets after making them (the page's cells run here, no kernel)."""
    import IPython.display
    import nbformat
    from ipywidgets.widgets.widget import Widget

    updates: list[str] = []
    real_send = Widget.send_state

    def send_state(widget: Widget, key: object = None) -> None:
        if widget.comm is not None:
            updates.append(f"{type(widget).__name__}.{key}")
        real_send(widget, key)

    monkeypatch.setattr(Widget, "send_state", send_state)
    monkeypatch.setattr(IPython.display, "display", lambda *_a, **_k: None)
    monkeypatch.chdir(path.parent)
    made: list[Widget] = []
    monkeypatch.setattr(Widget, "_widget_construction_callback", made.append)
    namespace: dict = {}
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "code":
            exec(compile(cell.source, str(path), "exec"), namespace)  # noqa: S102 - the site's own page
    assert len(updates) <= UPDATE_BUDGET, (len(made), sorted(updates))
