"""The explainer site's page machinery, so that the notebooks stay thin.

A page (``notebooks/NN_Name.ipynb``) is markdown prose plus a few short calls::

    from bohnteach.site import pages as site
    site.page_header("02_Phase_1")          # breadcrumb, "Hier lernst du …", prev/next
    site.chapter_scenes("phase1")           # the chapter's scenes as ScenePlayers
    site.try_it("phase1")                   # a "Mach du!" exercise
    site.nav_links("02_Phase_1")            # previous / overview / next

Every builder takes the reader's language (``lang="en"``, a code or a translator; by
default the page's, :func:`bohnteach.i18n.reader`) and words its texts through the ``ui``
catalogue, the chapters' titles through ``pages`` (German: exactly as written here).

Every builder here returns something Jupyter displays as HTML or as a widget, and never
raises: :func:`bohnteach.widgets.failure.guard` turns a failure into the friendly box on
the page, and the traceback goes to the server's log, never to the visitor.
``safe_display`` (from the same module) does the same for any other callable.

The chapter list is data (``data/chapters.toml``, read by ``content/chapters.py`` into
:data:`PAGES`): file, title, what the page teaches, the scene chapter it shows. The start
page, the navigation, the scene chapters, the app and the tests all read it.
"""
from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Mapping
from functools import lru_cache
from html import escape
from pathlib import Path
from typing import Any

from bohnteach.content.chapters import LESSONS, PAGES, Page
from bohnteach.i18n import N_, Translator, reader, speaking
from bohnteach.render.failure import render_error
from bohnteach.widgets.failure import guard

_PACKAGE_DIR = Path(__file__).resolve().parents[1]


START = PAGES[0].name
#: A builder's ``lang``: a language code, a translator, or ``None`` (the page's language).
Lang = str | Translator | None
NO_SCENES = N_("Für dieses Kapitel gibt es noch keine Szenen.")


def find_page(name: str) -> Page:
    """The page called ``name`` (``"02_Phase_1"`` or ``"02_Phase_1.ipynb"``)."""
    key = name.removesuffix(".ipynb")
    for page in PAGES:
        if page.name == key:
            return page
    raise KeyError(f"Unbekannte Seite {name!r}. Bekannt: {', '.join(p.name for p in PAGES)}")


# ---- where things are ------------------------------------------------------------------
_KNOWN_FILES: dict[str, frozenset[str]] = {}
_KNOWN_TEXTS: dict[str, str] = {}


def know_files(listing: Mapping[str, Iterable[str] | Mapping[str, str | None]]) -> None:
    """Take what some folders hold as given (folder path → names, or names → text), so that
    they are never listed and the texts never read: the static build tells its snapshot
    what its ``notebooks/`` and ``tutorials/`` hold and the notebooks' texts, since in the
    browser listing a folder waits for the page (0.2–0.3 s of a visit) and so does each of
    the four requests of reading a file."""
    _KNOWN_FILES.update({folder: frozenset(names) for folder, names in listing.items()})
    _KNOWN_TEXTS.update({f"{folder}/{name}": text for folder, names in listing.items()
                         if isinstance(names, Mapping) for name, text in names.items()
                         if text is not None})
    _files_in.cache_clear()  # a folder listed before is known from now on


def read_page(path: Path) -> str:
    """A page's notebook as text: known from the build (:func:`know_files`) or read."""
    known = _KNOWN_TEXTS.get(str(path))
    return known if known is not None else path.read_text("utf-8")


@lru_cache(maxsize=16)
def _files_in(folder: Path) -> frozenset[str]:
    """The names in ``folder``, read once per process (or known, :func:`know_files`). On the
    static site every file check is a request from Python's worker to the page (10 ms
    each): a chapter's navigation checked each chapter's notebook, 0.5–0.8 s of a visit.
    The site's pages do not change while a page is shown."""
    known = _KNOWN_FILES.get(str(folder))
    if known is not None:
        return known
    try:
        return frozenset(os.listdir(folder))
    except OSError:
        return frozenset()


def notebooks_dir() -> Path:
    """The folder with the site's pages (``notebooks/``)."""
    for candidate in (Path.cwd(), _PACKAGE_DIR.parent / "notebooks", _PACKAGE_DIR / "_site" / "notebooks"):
        if f"{START}.ipynb" in _files_in(candidate):
            return candidate
    return _PACKAGE_DIR.parent / "notebooks"


def tutorials_dir() -> Path:
    """The folder with the lessons for classes (``tutorials/``, next to ``notebooks/``)."""
    return notebooks_dir().parent / "tutorials"


def page_exists(page: Page) -> bool:
    return page.filename in _files_in(notebooks_dir())


# ---- failures --------------------------------------------------------------------------
def _no_scenes(text: str, tr: Translator) -> Any:
    """The box a page shows where a chapter has no scenes yet (``text``: German, marked)."""
    from bohnteach.widgets.figure import HTML

    return HTML(render_error(tr.gettext(text), title=tr.gettext("Noch keine Szenen")))


def _player(scene: Any, tr: Translator) -> Any:
    """A ScenePlayer for ``scene`` in the reader's language, or its failure box as a widget."""
    import ipywidgets as widgets

    from bohnteach.widgets.parts import html
    from bohnteach.widgets.scene_player import ScenePlayer

    made = guard(what=f"ScenePlayer({getattr(scene, 'id', scene)!r})")(ScenePlayer)(scene, lang=tr)
    return made if isinstance(made, widgets.Widget) else html(made.data)


# ---- navigation ------------------------------------------------------------------------
SITE_CSS = """
.bt-site{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Liberation Sans",Arial,sans-serif;
 color:#1f2328;line-height:1.45}
.bt-crumbs{font-size:13px;color:#5c5648;display:flex;flex-wrap:wrap;gap:4px 10px;align-items:center}
.bt-crumbs a,.bt-nav a{color:#1f5f8b;text-decoration:none}
.bt-crumbs a:hover,.bt-nav a:hover{text-decoration:underline}
.bt-learn{background:#f4f1e8;border-left:4px solid #6b8e23;border-radius:6px;padding:8px 12px;
 margin:8px 0 4px;font-size:15px}
.bt-nav{display:flex;flex-wrap:wrap;justify-content:space-between;gap:8px;margin:14px 0 4px;
 padding-top:10px;border-top:1px solid #d9d4c7;font-size:15px}
.bt-nav a{display:inline-block;padding:6px 10px;border:1px solid #c9c2ae;border-radius:8px;background:#fffdf6}
.bt-nav .bt-nav-home{font-size:14px}
.bt-chapters{display:grid;grid-template-columns:repeat(auto-fill,minmax(250px,1fr));gap:10px;margin:8px 0}
.bt-chapter{border:1px solid #d9d4c7;border-radius:10px;padding:10px 12px;background:#fffdf6}
.bt-chapter a{font-weight:700;color:#1f5f8b;text-decoration:none;font-size:16px}
.bt-chapter a:hover{text-decoration:underline}
.bt-chapter p{margin:4px 0 0;font-size:14px}
.bt-chapter .bt-num{display:inline-block;min-width:1.8em;font-weight:700;color:#6b8e23}
.bt-lessons{margin:6px 0;padding-left:1.2em}
.bt-lessons li{margin:4px 0}
.bt-site table.bt-rules{border-collapse:collapse;font-size:14px;width:100%;margin:4px 0;table-layout:auto}
.bt-site table.bt-rules th,.bt-site table.bt-rules td{border:1px solid #d0cabb;padding:6px 8px;
 vertical-align:top;text-align:left;line-height:1.4}
.bt-site table.bt-rules thead th{background:#f1ede4}
.bt-site table.bt-rules tbody tr:nth-child(odd){background:#fff}
.bt-site table.bt-rules tbody tr:nth-child(even){background:#faf8f3}
.bt-site table.bt-rules code{font-size:12px;white-space:nowrap;background:none;padding:0}
.bt-site table.bt-rules td.bt-num-cell,.bt-site table.bt-rules th.bt-num-cell{text-align:right}
.bt-ausl-list{display:flex;flex-direction:column;gap:10px}
.bt-ausl-item{border:1px solid #d9d4c7;border-left:4px solid #b58900;border-radius:8px;padding:8px 12px;background:#fffdf6}
.bt-ausl-item h3{margin:0 0 4px;font-size:16px}
.bt-ausl-item p{margin:4px 0;font-size:14px}
.bt-ausl-item code{font-size:12px}
.bt-muted{color:#5c5648;font-size:13px}
.bt-chapter-scenes{gap:32px}
.bt-chapter-scenes>.bt-style{display:none}
.bt-scene-toc{background:#fffdf6;border:1px solid #d9d4c7;border-radius:10px;padding:8px 12px;font-size:15px}
.bt-scene-toc ol{margin:4px 0 0;padding-left:1.4em}
.bt-scene-toc li{margin:2px 0}
.bt-scene-toc a{color:#1f5f8b;text-decoration:none}
.bt-scene-toc a:hover{text-decoration:underline}
.bt-scene-number{font-size:12px;font-weight:700;color:#556b2f;text-transform:uppercase;letter-spacing:.04em;
 border-top:2px solid #d9d4c7;padding-top:10px}
.bt-compare-pair{gap:16px}
.bt-scene-chooser{max-width:100%;min-width:0}
.bt-scene-chooser .widget-label{width:auto;min-width:0;padding-right:6px}
.bt-scene-chooser select{min-width:0;width:100%;text-overflow:ellipsis}
"""
"""The site's own sheet (navigation, chapter cards, tables of rules); the page's header holds it."""


def _site_style() -> str:
    """The site's sheet as a ``<style>`` element — empty once the page's header holds it."""
    from bohnteach.render.style import style_block

    return style_block(SITE_CSS)


def _style_widgets() -> list[Any]:
    """The site's sheet as a (zero-height) widget to put first in a box of widgets — none
    once the page's header holds it (a notebook opened without its header needs it)."""
    from bohnteach.widgets.parts import html

    sheet = _site_style()
    if not sheet:
        return []
    style = html(sheet, height="0px", margin="0", classes=("bt-style",))
    return [style]


def _href(target: Page, here: Page | None = None) -> str:
    """Relative link from a notebooks/ page to ``target``."""
    return _link(target.filename)


def _link(filename: str) -> str:
    """A link to a notebook as the visitor's site names it: ``X.ipynb`` under Voilà,
    ``X.html`` in the static build (``bohnteach build-static``: Voici renders each
    notebook to an HTML file, and Python runs in the browser, on Pyodide)."""
    if sys.platform == "emscripten":
        return filename.removesuffix(".ipynb") + ".html"
    return filename


def _neighbours(name: str) -> tuple[Page | None, Page | None]:
    pages = [p for p in PAGES if p.name == name or page_exists(p)]
    names = [p.name for p in pages]
    i = names.index(find_page(name).name)
    prev = pages[i - 1] if i > 0 else None
    nxt = pages[i + 1] if i + 1 < len(pages) else None
    return prev, nxt


def _number(page: Page) -> int:
    return PAGES.index(page)


def nav_html(name: str, lang: Lang = None) -> str:
    """The previous / overview / next links of a page (HTML)."""
    tr = reader(lang)
    here = find_page(name)
    prev, nxt = _neighbours(here.name)
    parts = []
    if prev is not None:
        parts.append(f'<a class="bt-nav-prev" href="{_href(prev, here)}" rel="prev">← '
                     f'{escape(tr.gettext(prev.short))}</a>')
    else:
        parts.append("<span></span>")
    if here.name != START:
        overview = tr.gettext("Übersicht")
        parts.append(f'<a class="bt-nav-home" href="{_href(PAGES[0], here)}">{overview}</a>')
    if nxt is not None:
        parts.append(f'<a class="bt-nav-next" href="{_href(nxt, here)}" rel="next">'
                     f'{escape(tr.gettext(nxt.short))} →</a>')
    label = tr.gettext("Seiten")
    return f'<nav class="bt-site bt-nav" aria-label="{label}">{"".join(parts)}</nav>'


@guard()
def nav_links(name: str, lang: Lang = None) -> Any:
    """Previous / overview / next links (shown at the end of every page)."""
    from bohnteach.widgets.figure import HTML

    return HTML(_site_style() + nav_html(name, lang))


@guard()
def page_header(name: str, lang: Lang = None) -> Any:
    """The top of a page: where you are, what you learn here, previous/next. From here on
    a chart left as a cell's result is shown by :func:`~bohnteach.widgets.figure.show_figure`,
    and the page holds the stylesheet of every fragment below it (``page_style``)."""
    from bohnteach.widgets.figure import HTML

    from bohnteach.render.style import page_style
    from bohnteach.widgets.figure import display_cheaply

    display_cheaply()
    tr = reader(lang)
    here = find_page(name)
    prev, nxt = _neighbours(here.name)
    crumbs = [f'<a href="{_href(PAGES[0], here)}">{escape(tr.gettext(PAGES[0].title))}</a>']
    if here.name != START:
        crumbs.append("<span>" + tr.gettext("Kapitel {n} von {total}").format(
            n=_number(here), total=len(PAGES) - 1) + "</span>")
    if prev is not None:
        crumbs.append(f'<a class="bt-nav-prev" href="{_href(prev, here)}" rel="prev">← '
                      f'{escape(tr.gettext(prev.short))}</a>')
    if nxt is not None:
        crumbs.append(f'<a class="bt-nav-next" href="{_href(nxt, here)}" rel="next">'
                      f'{escape(tr.gettext(nxt.short))} →</a>')
    you_learn = tr.gettext("Hier lernst du:")
    learn = f'<div class="bt-learn"><b>{you_learn}</b> {escape(tr.gettext(here.teaches))}</div>'
    return HTML(f'{page_style(SITE_CSS)}<div class="bt-site bt-header" data-page="{here.name}">'
                f'<div class="bt-crumbs">{" · ".join(crumbs)}</div>{learn}</div>')


# ---- the start page ----------------------------------------------------------------------
@guard()
def chapter_overview(lang: Lang = None) -> Any:
    """All chapters with what each teaches, as linked cards (for the start page)."""
    from bohnteach.widgets.figure import HTML

    tr = reader(lang)
    cards = []
    for page in PAGES[1:]:
        if not page_exists(page):
            continue
        cards.append(
            f'<div class="bt-chapter"><span class="bt-num">{_number(page)}</span>'
            f'<a href="{_href(page)}">{escape(tr.gettext(page.title))}</a>'
            f'<p>{escape(tr.gettext(page.teaches))}</p></div>'
        )
    return HTML(f'{_site_style()}<div class="bt-site bt-chapters">{"".join(cards)}</div>')


def _notebook_title(path: Path, tr: Translator | None = None) -> tuple[str, str]:
    """The first ``# `` heading of a notebook and the first sentence after it (in the
    reader's language: the notebook's markdown through the catalogue)."""
    try:
        nb = json.loads(read_page(path))
    except Exception:  # noqa: BLE001 - shown as a friendly box / never breaks a page
        return path.stem.replace("_", " "), ""
    title, blurb = "", ""
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        src = cell.get("source", "")
        text = "".join(src) if isinstance(src, list) else src
        if tr is not None and not tr.is_source:
            from bohnteach.i18n.notebooks import translate_markdown

            text = translate_markdown(text, tr)
        for line in text.splitlines():
            line = line.strip()
            if not title and line.startswith("# "):
                title = line[2:].strip()
            elif title and line and not line.startswith(("#", "<", "|", "!", "-", "*")):
                blurb = line
                break
        if title and blurb:
            break
    if len(blurb) > 220:
        blurb = blurb[:217].rsplit(" ", 1)[0] + " …"
    return title or path.stem.replace("_", " "), blurb


def lessons(lang: Lang = None) -> list[tuple[str, str, str]]:
    """The lessons for classes whose notebook is there: (relative link, title, first
    sentence), in the order of ``data/chapters.toml`` (:data:`LESSONS`)."""
    tr = reader(lang)
    out = []
    for name, title in LESSONS:
        path = tutorials_dir() / f"{name}.ipynb"
        if path.name in _files_in(path.parent):
            out.append((_link(f"../tutorials/{path.name}"), tr.gettext(title), _notebook_title(path, tr)[1]))
    return out


@guard()
def lesson_list(lang: Lang = None) -> Any:
    """The lessons in ``tutorials/`` as a linked list (for the start page)."""
    from bohnteach.widgets.figure import HTML

    tr = reader(lang)
    items = lessons(tr)
    if not items:
        later = tr.gettext("Die Unterrichtsstunden sind noch in Arbeit.")
        return HTML(f'{_site_style()}<p class="bt-site bt-muted">{later}</p>')
    rows = "".join(
        f'<li><a href="{escape(href)}">{escape(title)}</a>'
        f'{" – " + escape(blurb) if blurb else ""}</li>'
        for href, title, blurb in items
    )
    return HTML(f'{_site_style()}<ul class="bt-site bt-lessons">{rows}</ul>')


# ---- scenes and exercises ------------------------------------------------------------------
def _anchor(scene: Any) -> str:
    return "szene-" + "".join(ch if ch.isalnum() or ch == "-" else "-" for ch in str(scene.id))


def _scenes_of(chapter: str) -> list[Any]:
    from bohnteach.content.scenes import list_scenes

    return list(list_scenes(chapter))


@guard()
def scene_picker(chapter: str, only: list[str] | None = None, lang: Lang = None) -> Any:
    """The chapter's scenes behind one chooser: a single ScenePlayer, the others built
    only when picked. For pages with many scenes, which would otherwise send hundreds of
    widgets on every page load."""
    import ipywidgets as widgets

    from bohnteach.widgets.parts import box, html, layout

    tr = reader(lang)
    scenes = _scenes_of(chapter)
    if only is not None:
        by_id = {sc.id: sc for sc in scenes}
        scenes = [by_id[i] for i in only if i in by_id]
    if not scenes:
        return _no_scenes(NO_SCENES, tr)
    chooser = widgets.Dropdown(
        options=[(f"{n}. {tr.gettext(sc.title)}", n - 1) for n, sc in enumerate(scenes, 1)], value=0,
        description=tr.gettext("Szene:"), layout=layout(width="100%", max_width="44em"),
        _dom_classes=("bt-scene-chooser",),
    )
    players: dict[int, Any] = {0: _player(scenes[0], tr)}  # the first one sent with the page
    area = box(widgets.Box, [players[0]], width="100%")

    def show(index: int) -> None:
        if index not in players:
            players[index] = _player(scenes[index], tr)
        area.children = (players[index],)

    def failed(fragment: str) -> None:
        area.children = (html(fragment),)

    @guard(failed, "Szenenauswahl")
    def picked(change: dict) -> None:
        with speaking(tr):
            show(change["new"])

    chooser.observe(picked, names="value")
    hint = html('<div class="bt-site bt-scene-number">' + tr.gettext(
        "{n} Szenen – wähle eine aus der Liste und spiele sie mit ▶ weiter durch.").format(n=len(scenes))
        + "</div>")
    return box(widgets.VBox, [*_style_widgets(), hint, chooser, area], "bt-chapter-scenes", width="100%")


def chapter_scenes(chapter: str, only: list[str] | None = None, optional: bool = False,
                   lang: Lang = None) -> Any:
    """The chapter's scenes, each in a ScenePlayer, stacked (a widget).

    ``only``: scene ids to show (default: every scene of the chapter, in order).
    ``optional``: show nothing (``None``) instead of a notice when there is no scene.
    """
    import ipywidgets as widgets

    from bohnteach.widgets.parts import box, html, layout

    tr = reader(lang)
    scenes = _scenes_of(chapter)
    if only is not None:
        by_id = {s.id: s for s in scenes}
        scenes = [by_id[i] for i in only if i in by_id]
    players = []
    for number, scene in enumerate(scenes, 1):
        player = _player(scene, tr)
        count = tr.gettext("Szene {n} von {total}").format(n=number, total=len(scenes))
        anchor = html(
            f'<a id="{_anchor(scene)}" class="bt-anchor" aria-hidden="true"></a>'
            f'<div class="bt-scene-number">{count}</div>',
            margin="0")
        players.append(widgets.VBox([anchor, player], layout=layout(width="100%")))
    if not players:
        if optional:
            return None
        return _no_scenes(NO_SCENES, tr)
    if len(scenes) >= 3:
        items = "".join(f'<li><a href="#{_anchor(sc)}">{escape(tr.gettext(sc.title))}</a></li>'
                        for sc in scenes)
        head = tr.gettext("{n} Szenen in diesem Kapitel").format(n=len(scenes))
        jump = tr.gettext("ein Klick springt hin:")
        toc = html(f'<nav class="bt-site bt-scene-toc"><b>{head}</b> – {jump}<ol>{items}</ol></nav>')
        players.insert(0, toc)
    return box(widgets.VBox, [*_style_widgets(), *players], "bt-chapter-scenes", width="100%")


@guard()
def scene(scene_id: str, lang: Lang = None) -> Any:
    """One scene (by id, from any chapter) in a ScenePlayer."""
    from bohnteach.content.scenes import get_scene
    from bohnteach.widgets.scene_player import ScenePlayer

    return ScenePlayer(get_scene(scene_id), lang=reader(lang))


@guard()
def try_it(case: str, lang: Lang = None) -> Any:
    """A "Mach du!" exercise: a case id of ``bohnteach.content.tryit_cases`` or a chapter key
    (then every case of that chapter, stacked)."""
    from bohnteach.widgets.tryit import make_tryit

    with speaking(reader(lang)):
        return make_tryit(case)


@guard()
def refusal_example(scene_id: str = "a-phase1", lang: Lang = None) -> Any:
    """The red box of a refused move, as the engine really gives it: at the start of the
    scene ``scene_id`` the active player tries to plant a card from further back in the
    hand (the first of another variety than the front card) first."""
    from bohnteach.widgets.figure import HTML

    from bohnteach.content.scenes import get_scene
    from bohnteach.game.actions import Plant
    from bohnteach.game.engine import check
    from bohnteach.render.table import render_refusal

    state = get_scene(scene_id).state_at(0)
    me = state.active
    hand = state.players[me].hand
    behind = next(c for c in hand if state.variety[c] != state.variety[hand[0]])
    refusal = check(state, Plant(me, 0, behind))
    if refusal is None:
        raise ValueError(f"{scene_id}: eine hintere Handkarte zuerst zu pflanzen wäre erlaubt.")
    with speaking(reader(lang)):
        return HTML(render_refusal(refusal))


# ---- the special pages ----------------------------------------------------------------------
@guard()
def comparison_table(names: list[str] | None = None, lang: Lang = None) -> Any:
    """The Regelvergleich table built from the RuleSet data."""
    from bohnteach.widgets.figure import HTML

    from bohnteach.render.comparison import comparison_html

    with speaking(reader(lang)):
        return HTML(comparison_html(names))


@guard()
def comparison_scenes(lang: Lang = None) -> Any:
    """The Regelvergleich scenes: each situation once per rule set, side by side
    (stacked on a phone)."""
    import ipywidgets as widgets

    from bohnteach.widgets.parts import box, layout
    from bohnteach.render.comparison import scene_pairs
    from bohnteach.widgets.scene_player import ScenePlayer

    tr = reader(lang)
    rows = []
    for group in scene_pairs(_scenes_of("vergleich")):
        players = [ScenePlayer(sc, lang=tr) for sc in group]
        for p in players:  # side by side
            p.layout = layout(flex="1 1 440px", min_width="0", width="100%", max_width="1200px")
        rows.append(box(widgets.Box, players, "bt-compare-pair", display="flex", flex_flow="row wrap",
                        width="100%", align_items="flex-start"))
    if not rows:
        return _no_scenes(N_("Für den Regelvergleich gibt es noch keine Szenen."), tr)
    return box(widgets.VBox, [*_style_widgets(), *rows], "bt-chapter-scenes", "bt-compare-scenes",
               width="100%")


def interpretation_items(lang: Lang = None) -> list[tuple[str, str, str, str, str]]:
    """Every decision where the rulebooks are silent or ambiguous:
    (rule ID, title, Auslegung, the rule as explained, source), in the reader's language."""
    from bohnteach.game.errors import rule_catalogue
    from bohnteach.render.language import rule_words

    with speaking(reader(lang)):
        return [(w.id, w.title, w.interpretation, w.explanation, w.source)
                for w in (rule_words(r) for r in rule_catalogue().values() if r.interpretation)]


def assumptions(lang: Lang = None) -> list[tuple[str, str, str]]:
    """Rule sets whose meters are assumptions: (title, note, the rule they belong to)."""
    from bohnteach.game.rulesets import find_ruleset, ruleset_names

    tr = reader(lang)
    out = []
    for name in ruleset_names():
        r = find_ruleset(name)
        if r.meter_assumption:
            out.append((tr.gettext(r.title), tr.prose(r.meter_assumption), r.meter_rule))
    return out


@guard()
def interpretations(lang: Lang = None) -> Any:
    """The Auslegungen page's list, from the ``auslegung`` fields of ``rules.toml``."""
    from bohnteach.widgets.figure import HTML

    tr = reader(lang)
    ours, rule, source_word = tr.gettext("Unsere Auslegung:"), tr.gettext("Die Regel:"), tr.gettext("Quelle:")
    items = []
    for rule_id, title, ausl, expl, source in interpretation_items(tr):
        items.append(
            f'<div class="bt-ausl-item" data-rule="{escape(rule_id)}"><h3>{escape(title)} '
            f'<code>{escape(rule_id)}</code></h3>'
            f"<p><b>{ours}</b> {escape(ausl)}</p>"
            f'<p class="bt-muted"><b>{rule}</b> {escape(expl)}</p>'
            f'<p class="bt-muted"><b>{source_word}</b> {escape(source)}</p></div>'
        )
    meter, assumed = tr.gettext("Bohnometer"), tr.gettext("Annahme in den Daten:")
    for title, note, rule_id in assumptions(tr):
        items.append(
            f'<div class="bt-ausl-item"><h3>{escape(title)}: {meter} <code>{escape(rule_id)}</code></h3>'
            f"<p><b>{assumed}</b> {escape(note)}</p></div>"
        )
    count = ('<p class="bt-muted">' + tr.gettext("{n} Entscheidungen, aus den Regeldaten von bohnteach erzeugt.")
             .format(n=len(items)) + "</p>")
    return HTML(f'{_site_style()}<div class="bt-site">{count}<div class="bt-ausl-list">{"".join(items)}</div></div>')


@guard()
def variety_table(ruleset: str = "amigo", players: int | None = None, lang: Lang = None) -> Any:
    """The varieties of a rule set: cards in the deck and the Bohnometer (cards → Taler)."""
    from bohnteach.widgets.figure import HTML

    from bohnteach.render.language import variety_word
    from bohnteach.render.style import text_colour
    from bohnteach.game.rulesets import find_ruleset

    tr = reader(lang)
    r = find_ruleset(ruleset)
    n = players or (4 if 4 in r.by_players else r.min_players)
    rows = []
    total = 0
    with speaking(tr):
        for v in r.variety_list(n):
            total += v.count
            steps = " · ".join(f"{need} → {coins}" for coins, need in enumerate(v.meter, 1) if need)
            chip = (f'<span style="display:inline-block;padding:1px 8px;border-radius:6px;'
                    f'background:{v.colour};color:{text_colour(v.colour)};font-weight:600">'
                    f"{escape(variety_word(v))}</span>")
            rows.append(f'<tr><td>{chip}</td><td class="bt-num-cell">{v.count}</td>'
                        f"<td>{escape(steps)}</td></tr>")
    variety, cards = tr.gettext("Sorte"), tr.gettext("Karten")
    meter, together = tr.gettext("Bohnometer: Karten → Taler"), tr.gettext("zusammen")
    return HTML(
        f'{_site_style()}<div class="bt-site bt-rules-wrap bt-scroll-x"><table class="bt-rules bt-varieties"><thead><tr>'
        f'<th>{variety}</th><th class="bt-num-cell">{cards}</th><th>{meter}</th></tr></thead>'
        f'<tbody>{"".join(rows)}</tbody><tfoot><tr><th>{together}</th><th class="bt-num-cell">{total}</th>'
        f"<th></th></tr></tfoot></table></div>"
    )


@guard()
def rules_table(*rule_ids: str, lang: Lang = None) -> Any:
    """The given rules as a small table: ID, title, explanation, source."""
    from bohnteach.widgets.figure import HTML

    from bohnteach.game.errors import find_rule
    from bohnteach.render.language import rule_words

    tr = reader(lang)
    rows = []
    with speaking(tr):
        for rule_id in rule_ids:
            r = rule_words(find_rule(rule_id))
            rows.append(f"<tr><td><code>{escape(r.id)}</code></td><td><b>{escape(r.title)}</b><br>"
                        f"{escape(r.explanation)}</td><td>{escape(r.source)}</td></tr>")
    rule, says, source = tr.gettext("Regel"), tr.gettext("Was sie sagt"), tr.gettext("Quelle")
    return HTML(f'{_site_style()}<div class="bt-site bt-rules-wrap bt-scroll-x"><table class="bt-rules"><thead><tr>'
                f"<th>{rule}</th><th>{says}</th><th>{source}</th></tr></thead>"
                f'<tbody>{"".join(rows)}</tbody></table></div>')


@guard()
def trial_game(lang: Lang = None, **options: Any) -> Any:
    """The trial game widget, „Probespiel“ (one seat against bots)."""
    from bohnteach.widgets.trial_game import TrialGame

    with speaking(reader(lang)):
        return TrialGame(**options)


__all__ = [
    "PAGES", "Page", "assumptions", "chapter_overview", "chapter_scenes", "comparison_scenes",
    "comparison_table", "find_page", "interpretation_items", "interpretations",
    "lesson_list", "lessons", "nav_html", "nav_links", "notebooks_dir",
    "page_header", "rules_table", "scene", "trial_game", "try_it",
    "variety_table",
]
