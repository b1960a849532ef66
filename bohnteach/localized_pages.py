"""The page machinery's calls in the reader's language (issue 56, first step).

A page made for another language (:func:`bohnteach.i18n.notebooks.translate_notebook`)
calls these instead of :mod:`bohnteach.site.pages`, with ``lang=…``: the same builders,
the same HTML and classes, every word through the catalogue. German (``lang`` ``None`` or
``"de"``) is :mod:`bohnteach.site.pages` itself, unchanged.

This module is where the language-aware builders live until ``site/pages.py`` takes a
``lang`` of its own (the next step, docs/translating.md, "Where it goes next"); then its
builders call these words and this module goes away. Only what the English chapters use
so far is here: the header, the navigation, the variety and rule tables, a chapter's scenes,
its „Mach du!“ exercises.
"""
from __future__ import annotations

from html import escape
from typing import Any

from bohnteach.content.chapters import PAGES, Page
from bohnteach.i18n import Translator, as_translator, speaking
from bohnteach.site import pages as site
from bohnteach.widgets.failure import guard


def _page_title(page: Page, tr: Translator) -> tuple[str, str, str]:
    """(title, short title, what it teaches) of a page in the reader's language."""
    return tr.gettext(page.title), tr.gettext(page.short), tr.gettext(page.teaches)


def _nav_parts(name: str, tr: Translator) -> tuple[Page, Page | None, Page | None]:
    here = site.find_page(name)
    prev, nxt = site._neighbours(here.name)
    return here, prev, nxt


def nav_html(name: str, lang: str | Translator | None = None) -> str:
    """The previous / overview / next links of a page (HTML)."""
    tr = as_translator(lang)
    if tr.is_source:
        return site.nav_html(name)
    here, prev, nxt = _nav_parts(name, tr)
    parts = []
    if prev is not None:
        parts.append(f'<a class="bt-nav-prev" href="{site._href(prev, here)}" rel="prev">'
                     f"← {escape(_page_title(prev, tr)[1])}</a>")
    else:
        parts.append("<span></span>")
    if here.name != site.START:
        overview = tr.gettext("Übersicht")
        parts.append(f'<a class="bt-nav-home" href="{site._href(PAGES[0], here)}">{overview}</a>')
    if nxt is not None:
        parts.append(f'<a class="bt-nav-next" href="{site._href(nxt, here)}" rel="next">'
                     f"{escape(_page_title(nxt, tr)[1])} →</a>")
    label = tr.gettext("Seiten")
    return f'<nav class="bt-site bt-nav" aria-label="{label}">{"".join(parts)}</nav>'


@guard()
def nav_links(name: str, lang: str | Translator | None = None) -> Any:
    """Previous / overview / next links (shown at the end of every page)."""
    if as_translator(lang).is_source:
        return site.nav_links(name)
    from bohnteach.widgets.figure import HTML

    return HTML(site._site_style() + nav_html(name, lang))


@guard()
def page_header(name: str, lang: str | Translator | None = None) -> Any:
    """The top of a page: where you are, what you learn here, previous/next."""
    tr = as_translator(lang)
    if tr.is_source:
        return site.page_header(name)
    from bohnteach.render.style import page_style
    from bohnteach.widgets.figure import HTML, display_cheaply

    display_cheaply()
    here, prev, nxt = _nav_parts(name, tr)
    crumbs = [f'<a href="{site._href(PAGES[0], here)}">{escape(tr.gettext(PAGES[0].title))}</a>']
    if here.name != site.START:
        crumbs.append("<span>" + tr.gettext("Kapitel {n} von {total}").format(
            n=site._number(here), total=len(PAGES) - 1) + "</span>")
    if prev is not None:
        crumbs.append(f'<a class="bt-nav-prev" href="{site._href(prev, here)}" rel="prev">'
                      f"← {escape(_page_title(prev, tr)[1])}</a>")
    if nxt is not None:
        crumbs.append(f'<a class="bt-nav-next" href="{site._href(nxt, here)}" rel="next">'
                      f"{escape(_page_title(nxt, tr)[1])} →</a>")
    you_learn = tr.gettext("Hier lernst du:")
    learn = f'<div class="bt-learn"><b>{you_learn}</b> {escape(_page_title(here, tr)[2])}</div>'
    return HTML(f'{page_style(site.SITE_CSS)}<div class="bt-site bt-header" data-page="{here.name}" '
                f'lang="{tr.lang}"><div class="bt-crumbs">{" · ".join(crumbs)}</div>{learn}</div>')


@guard()
def variety_table(ruleset: str = "amigo", players: int | None = None, lang: str | Translator | None = None) -> Any:
    """The varieties of a rule set: cards in the deck and the Bohnometer (cards → Taler)."""
    tr = as_translator(lang)
    if tr.is_source:
        return site.variety_table(ruleset, players)
    from bohnteach.game.rulesets import find_ruleset
    from bohnteach.render.language import variety_word
    from bohnteach.render.style import text_colour
    from bohnteach.widgets.figure import HTML

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
        f'{site._site_style()}<div class="bt-site bt-rules-wrap bt-scroll-x"><table class="bt-rules bt-varieties">'
        f'<thead><tr><th>{variety}</th><th class="bt-num-cell">{cards}</th>'
        f'<th>{meter}</th></tr></thead>'
        f'<tbody>{"".join(rows)}</tbody><tfoot><tr><th>{together}</th>'
        f'<th class="bt-num-cell">{total}</th><th></th></tr></tfoot></table></div>'
    )


@guard()
def rules_table(*rule_ids: str, lang: str | Translator | None = None) -> Any:
    """The given rules as a small table: ID, title, explanation, source."""
    tr = as_translator(lang)
    if tr.is_source:
        return site.rules_table(*rule_ids)
    from bohnteach.game.errors import find_rule
    from bohnteach.render.language import rule_words
    from bohnteach.widgets.figure import HTML

    rows = []
    with speaking(tr):
        for rule_id in rule_ids:
            r = rule_words(find_rule(rule_id))
            rows.append(f"<tr><td><code>{escape(r.id)}</code></td><td><b>{escape(r.title)}</b><br>"
                        f"{escape(r.explanation)}</td><td>{escape(r.source)}</td></tr>")
    rule, says, source = tr.gettext("Regel"), tr.gettext("Was sie sagt"), tr.gettext("Quelle")
    return HTML(f'{site._site_style()}<div class="bt-site bt-rules-wrap bt-scroll-x"><table class="bt-rules">'
                f'<thead><tr><th>{rule}</th><th>{says}</th>'
                f'<th>{source}</th></tr></thead><tbody>{"".join(rows)}</tbody></table></div>')


def _player(scene: Any, tr: Translator) -> Any:
    """A ScenePlayer for ``scene`` in the reader's language, or its failure box."""
    import ipywidgets as widgets

    from bohnteach.widgets.parts import html
    from bohnteach.widgets.scene_player import ScenePlayer

    made = guard(what=f"ScenePlayer({getattr(scene, 'id', scene)!r})")(ScenePlayer)(scene, lang=tr)
    return made if isinstance(made, widgets.Widget) else html(made.data)


def chapter_scenes(chapter: str, only: list[str] | None = None, optional: bool = False,
                   lang: str | Translator | None = None) -> Any:
    """The chapter's scenes, each in a ScenePlayer, stacked (a widget)."""
    tr = as_translator(lang)
    if tr.is_source:
        return site.chapter_scenes(chapter, only, optional)
    import ipywidgets as widgets

    from bohnteach.render.failure import render_error
    from bohnteach.widgets.figure import HTML
    from bohnteach.widgets.parts import box, html, layout

    scenes = site._scenes_of(chapter)
    if only is not None:
        by_id = {s.id: s for s in scenes}
        scenes = [by_id[i] for i in only if i in by_id]
    players = []
    for number, scene in enumerate(scenes, 1):
        count = tr.gettext("Szene {n} von {total}").format(n=number, total=len(scenes))
        anchor = html(
            f'<a id="{site._anchor(scene)}" class="bt-anchor" aria-hidden="true"></a>'
            f'<div class="bt-scene-number">{count}</div>',
            margin="0")
        players.append(widgets.VBox([anchor, _player(scene, tr)], layout=layout(width="100%")))
    if not players:
        if optional:
            return None
        return HTML(render_error(tr.gettext("Für dieses Kapitel gibt es noch keine Szenen."),
                                 title=tr.gettext("Noch keine Szenen")))
    if len(scenes) >= 3:
        items = "".join(f'<li><a href="#{site._anchor(sc)}">{escape(tr.gettext(sc.title))}</a></li>'
                        for sc in scenes)
        head = tr.gettext("{n} Szenen in diesem Kapitel").format(n=len(scenes))
        jump = tr.gettext("ein Klick springt hin:")
        toc = html(f'<nav class="bt-site bt-scene-toc"><b>{head}</b> – {jump}<ol>{items}</ol></nav>')
        players.insert(0, toc)
    return box(widgets.VBox, [*site._style_widgets(), *players], "bt-chapter-scenes", width="100%")


def try_it(case: str, lang: str | Translator | None = None) -> Any:
    """A "Mach du!" exercise (a case id or a chapter key) in the reader's language."""
    from bohnteach.widgets.tryit import make_tryit

    tr = as_translator(lang)
    if tr.is_source:
        return site.try_it(case)
    return guard(what=f"try_it({case!r})", lang=tr)(make_tryit)(case, lang=tr)


__all__ = ["chapter_scenes", "nav_html", "nav_links", "page_header", "rules_table", "try_it",
           "variety_table"]
