"""The "Regelvergleich": every difference between the rulebooks, built from ``RuleSet`` data.

Nothing here is typed in twice: each row reads the frozen rule sets (``rulesets.py`` and
``data/rulesets/*.toml``), so a changed TOML file changes the table. Cells that differ
from the first column (the base game) are marked (class ``bt-diff``), rows where any
rule set differs carry ``bt-differs``.

    from bohnteach.render.comparison import comparison_html
    HTML(comparison_html(["amigo", "online"]))

:func:`scene_pairs` groups the chapter's scenes (``Kapitel: Regelvergleich``) into pairs
of the same situation played under two rule sets, for side-by-side display.

The table is worded in the reader's language (``comparison_html(lang="en")``, else the
page's): the cells here through the catalogue, an edition's own cells (``View.comparison_cells``,
``settings_summary``) through it too, where that edition's texts are translated.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from html import escape

from bohnteach.game.beans import find_variety
from bohnteach.game.edition import all_editions, find_edition
from bohnteach.game.errors import source_title
from bohnteach.game.rulesets import RuleSet, find_ruleset, ruleset_names
from bohnteach.i18n import N_, Translator, _, current, reader, speaking
from bohnteach.render.language import said, variety_word


def preferred_order(known: Sequence[str]) -> list[str]:
    """Column order of the comparison: the base game's rule sets, then each edition's own
    (the one named like it) in the order the editions were registered, then the rest."""
    first = [n for n in known if find_ruleset(n).edition == "base"]
    first += [e.name for e in all_editions() if e.name in known and e.name not in first]
    return first + [n for n in known if n not in first]

TIE_BREAK = {
    "clockwise": N_("gewinnt, wer im Uhrzeigersinn am weitesten vom Startspieler entfernt sitzt"),
    "hand_cards": N_("gewinnt, wer noch die meisten Karten auf der Hand hat"),
}
"""The tie-break in words (the whole cell)."""
START_PLAYER = {
    "chosen": N_("wird bestimmt und behält die Startspielerkarte"),
    "left_of_dealer": N_("wer links vom Geber sitzt"),
}
PHASE3_ORDER = {
    "any": N_("alle pflanzen, Reihenfolge beliebig"),
}
"""The core's phase-3 order in words; an edition's own order is one of its ``comparison_cells``."""


@dataclass(frozen=True)
class Row:
    """One line of the comparison: a topic, the rule IDs it is about, one text per rule set."""

    topic: str
    rule_ids: tuple[str, ...]
    values: tuple[str, ...]

    @property
    def differs(self) -> bool:
        return len(set(self.values)) > 1


# ---- texts per rule set ---------------------------------------------------------------
def _counts(r: RuleSet) -> list[int]:
    return sorted(r.by_players)


def _span(ns: Sequence[int]) -> str:
    """``[4, 5]`` -> ``"4–5"``; ``[3]`` -> ``"3"``; ``[3, 5]`` -> ``"3, 5"``."""
    if len(ns) == 1:
        return str(ns[0])
    if list(ns) == list(range(ns[0], ns[-1] + 1)):
        return f"{ns[0]}–{ns[-1]}"
    return ", ".join(map(str, ns))


def by_count(r: RuleSet, text: Callable[[RuleSet, int], str]) -> str:
    """One text for the rule set, grouping player counts that share the same text:
    ``"zu 3: drei Felder · zu 4–5: zwei Felder"`` or just ``"zwei Felder"``."""
    groups: list[tuple[list[int], str]] = []
    for n in _counts(r):
        t = text(r, n)
        for ns, seen in groups:
            if seen == t:
                ns.append(n)
                break
        else:
            groups.append(([n], t))
    if len(groups) == 1:
        return groups[0][1]
    at = _("zu {players}: {text}")
    return " · ".join(at.format(players=_span(ns), text=t) for ns, t in groups)


def _players(r: RuleSet, n: int | None = None) -> str:
    return _("{low}–{high} Personen").format(low=r.min_players, high=r.max_players)


def _deck(r: RuleSet, n: int) -> str:
    kinds = r.variety_list(n)
    removed = r.for_players(n).removed
    text = _("{kinds} Sorten, {cards} Karten").format(kinds=len(kinds), cards=len(r.card_specs(n)))
    if removed:
        text += " " + _("(ohne {varieties})").format(
            varieties=", ".join(variety_word(find_variety(k), 2) for k in removed))
    return text


_FIELDS = {2: N_("zwei Felder"), 3: N_("drei Felder")}


def _fields(r: RuleSet, n: int) -> str:
    k = r.for_players(n).fields
    return _(_FIELDS[k]) if k in _FIELDS else _("{k} Felder").format(k=k)


def _deal(r: RuleSet, n: int) -> str:
    deal = r.for_players(n).deal
    if len(deal) == 1:
        return _("{n} Karten je Person").format(n=deal[0])
    return _("ab der Startperson {counts} Karten, alle weiteren {last}").format(
        counts="/".join(map(str, deal)), last=deal[-1])


def _draw(r: RuleSet, n: int) -> str:
    return _("{n} Karten").format(n=r.for_players(n).draw)


_END = {1: N_("Stapel zum ersten Mal leer"), 2: N_("Stapel zum zweiten Mal leer"),
        3: N_("Stapel zum dritten Mal leer"), 4: N_("Stapel zum vierten Mal leer")}


def _end(r: RuleSet, n: int) -> str:
    k = r.for_players(n).exhaustions
    return _(_END[k]) if k in _END else _("Stapel zum {k}. Mal leer").format(k=k)


def _third(r: RuleSet, n: int) -> str:
    p = r.for_players(n)
    if p.fields >= 3:
        return _("schon von Anfang an")
    if p.third_field_cost:
        return _("einmal kaufen für {coins} Taler").format(coins=p.third_field_cost)
    return _("nicht vorgesehen")


def _cell(r: RuleSet, key: str, default: str) -> str:
    """The cell ``key`` in the words of ``r``'s edition (``View.comparison_cells``), in the
    reader's language (``default`` is marked where it is written)."""
    return _(find_edition(r.edition).view.comparison_cells.get(key, default))


def _phase3(r: RuleSet) -> str:
    order = r.phase3_order
    return _cell(r, f"phase3_order:{order}", PHASE3_ORDER.get(order, order))


def _meters(r: RuleSet) -> str:
    printed = N_("wie auf den Karten gedruckt")
    text = _cell(r, "meters", printed) if r.traits else _(printed)
    if r.meter_assumption:
        text += " " + _("(teils Annahme, siehe Hinweis)")
    return text


def _traits(r: RuleSet) -> str:
    if not r.traits:
        return "—"
    parts = [said(p) for p in find_edition(r.edition).settings_summary(r.settings)]
    return _cell(r, "traits", N_("ja")) + (": " + "; ".join(parts) if parts else "")


def _edition_rules(r: RuleSet) -> str:
    """What an edition adds besides card traits (those have their own row): its settings in words."""
    if r.traits or r.edition == "base":
        return "—"
    edition = find_edition(r.edition)
    parts = [said(p) for p in edition.settings_summary(r.settings)]
    return _(edition.title) + (": " + " · ".join(parts) if parts else "")


def _sources(r: RuleSet) -> str:
    return ", ".join(current().pgettext("source", source_title(s)) for s in r.sources)


ROWS: tuple[tuple[str, tuple[str, ...], Callable[[RuleSet], str]], ...] = (
    (N_("Quelle"), (), _sources),
    (N_("Personen"), ("setup.players",), _players),
    (N_("Kartenspiel"), ("setup.deck", "var.players-3", "var.players-4-5", "var.players-6-7"),
     lambda r: by_count(r, _deck)),
    (N_("Felder am Anfang"), ("setup.fields",), lambda r: by_count(r, _fields)),
    (N_("Drittes Feld"), ("field.buy-third",), lambda r: by_count(r, _third)),
    (N_("Austeilen"), ("setup.deal",), lambda r: by_count(r, _deal)),
    (N_("Startspieler"), ("setup.start-player",),
     lambda r: _(START_PLAYER.get(r.start_player, r.start_player))),
    (N_("Phase 3: wer pflanzt wann"), ("p3.plant-all",), _phase3),
    (N_("Phase 4: nachziehen"), ("p4.draw-three",), lambda r: by_count(r, _draw)),
    (N_("Spielende"), ("end.third-exhaustion",), lambda r: by_count(r, _end)),
    (N_("Schlussernte"), ("end.final-harvest",),
     lambda r: _("Bohnenschutzregel gilt weiter") if r.final_harvest_protection
     else _("alle Felder werden geleert, auch einzelne Bohnen")),
    (N_("Gleichstand"), ("tie.clockwise", "tie.hand-cards"),
     lambda r: _(TIE_BREAK[r.tie_break]) if r.tie_break in TIE_BREAK else r.tie_break),
    (N_("Bohnometer"), ("harvest.meter",), _meters),
    (N_("Kartenmerkmale"), (), _traits),
    (N_("Erweiterung"), (), _edition_rules),
)
"""(topic, the core's rule ids, the rule set's value) per row; an edition renames a row or
adds its rules to it through ``View.comparison``. Topics are German (the row's key, as
``data-topic``) and translated where shown; the values are made in the reader's language."""


def _topic(topic: str, rule_ids: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The row's title and rule ids with what the registered editions add to ``topic``."""
    title = topic
    for edition in all_editions():
        renamed, more = edition.view.comparison.get(topic, ("", ()))
        title = renamed or title
        rule_ids += tuple(more)
    return title, rule_ids


def comparison_rows(names: Iterable[str] | None = None) -> tuple[list[RuleSet], list[Row]]:
    """The rule sets compared (default: all built-in ones) and one row per topic.

    Topics that no compared rule set uses (e.g. card traits without an edition that has them) are left out.
    """
    if names is None:
        known = ruleset_names()
        names = preferred_order(known)
    rulesets = [find_ruleset(n) for n in names]
    rows = []
    for topic, rule_ids, text in ROWS:
        values = tuple(text(r) for r in rulesets)
        if all(v == "—" for v in values):
            continue
        rows.append(Row(*_topic(topic, rule_ids), values))
    return rulesets, rows


_CSS = """<style>
.bt-compare-wrap{overflow-x:auto;-webkit-overflow-scrolling:touch;margin:0.5em 0 1em}
.bt-compare-wrap table.bt-compare{border-collapse:collapse;font-size:14px;line-height:1.4;min-width:640px;width:100%;margin:0}
.bt-compare-wrap table.bt-compare th,.bt-compare-wrap table.bt-compare td{border:1px solid #c9c9c9;
 padding:6px 8px;vertical-align:top;text-align:left}
.bt-compare-wrap table.bt-compare thead th{background:#f1ede4}
.bt-compare-wrap table.bt-compare tbody tr{background:#fff}
.bt-compare-wrap table.bt-compare tbody th{background:#faf8f3;font-weight:600;min-width:8em}
.bt-compare-wrap table.bt-compare td.bt-diff{background:#fff1c2}
.bt-compare .bt-ids{display:block;font-weight:400;font-size:10px;color:#6b6557}
.bt-compare-wrap table.bt-compare td{overflow-wrap:anywhere}
.bt-compare-note{font-size:13px;color:#444;margin:0.3em 0}
@media (max-width:700px){
 .bt-compare-wrap table.bt-compare{min-width:0}
 .bt-compare-wrap table.bt-compare,.bt-compare-wrap table.bt-compare tbody,
 .bt-compare-wrap table.bt-compare tr,.bt-compare-wrap table.bt-compare th,
 .bt-compare-wrap table.bt-compare td{display:block;width:auto}
 .bt-compare-wrap table.bt-compare thead{display:none}
 .bt-compare-wrap table.bt-compare tr{border:1px solid #c9c9c9;border-radius:8px;margin:0 0 10px;overflow:hidden}
 .bt-compare-wrap table.bt-compare th,.bt-compare-wrap table.bt-compare td{border:none;border-top:1px solid #e3ded2}
 .bt-compare-wrap table.bt-compare tbody th{border-top:none}
 .bt-compare-wrap table.bt-compare td::before{content:attr(data-label);display:block;font-size:12px;
  font-weight:700;color:#5c5648}
}
.bt-compare-legend{display:inline-block;width:1em;height:1em;background:#fff1c2;border:1px solid #c9c9c9;vertical-align:middle}
</style>"""


def comparison_html(names: Iterable[str] | None = None, lang: str | Translator | None = None) -> str:
    """The comparison as an HTML table (scrolls sideways on a phone), in the reader's
    language (``lang``, else the page's)."""
    tr = reader(lang)
    with speaking(tr):
        return _comparison_html(names, tr)


def _comparison_html(names: Iterable[str] | None, tr: Translator) -> str:
    rulesets, rows = comparison_rows(names)
    titles = [tr.gettext(r.title) for r in rulesets]
    head = "".join(
        f'<th scope="col">{escape(title)}<span class="bt-ids">{escape(r.name)}</span></th>'
        for r, title in zip(rulesets, titles)
    )
    body = []
    for row in rows:
        ids = f'<span class="bt-ids">{escape(", ".join(row.rule_ids))}</span>' if row.rule_ids else ""
        base = row.values[0]
        diff = ' class="bt-diff"'
        cells = "".join(
            f'<td data-label="{escape(titles[i])}"{diff if i and v != base else ""}>'
            f'{escape(v).replace(" · ", "<br>")}</td>'
            for i, v in enumerate(row.values)
        )
        cls = ' class="bt-differs"' if row.differs else ""
        topic = tr.gettext(row.topic)
        body.append(f'<tr{cls} data-topic="{escape(row.topic)}"><th scope="row">{escape(topic)}{ids}</th>{cells}</tr>')
    notes = "".join(
        f'<p class="bt-compare-note"><b>{escape(title)}:</b> {escape(tr.prose(r.meter_assumption))}</p>'
        for r, title in zip(rulesets, titles) if r.meter_assumption
    )
    yellow = tr.gettext("gelb = anders als in der ersten Spalte ({ruleset}).").format(ruleset=escape(titles[0]))
    legend = f'<p class="bt-compare-note"><span class="bt-compare-legend"></span> {yellow}</p>'
    topic_head = tr.gettext("Thema")
    return (
        f'{_CSS}<div class="bt-compare-wrap bt-scroll-x"><table class="bt-compare" lang="{tr.lang}">'
        f'<thead><tr><th scope="col">{topic_head}</th>{head}</tr></thead><tbody>{"".join(body)}</tbody>'
        f"</table></div>{legend}{notes}"
    )


# ---- one situation, two rulebooks --------------------------------------------------------
def scene_pairs(scenes) -> list[list]:
    """Group the Regelvergleich scenes into pairs of the same situation.

    Scene ids end with the rule set's name (``vergleich-feld-amigo``,
    ``vergleich-feld-online``); scenes sharing the rest of the id form one group, in the
    order of :func:`preferred_order`. A scene without a partner is a group of one.
    """
    groups: dict[str, list] = {}
    for scene in scenes:
        stem = scene.id
        suffix = f"-{scene.ruleset}"
        stem = stem.removesuffix(suffix)
        groups.setdefault(stem, []).append(scene)
    rank = {name: i for i, name in enumerate(preferred_order(ruleset_names()))}
    return [sorted(g, key=lambda sc: rank.get(sc.ruleset, len(rank))) for g in groups.values()]


__all__ = ["Row", "by_count", "comparison_html", "comparison_rows", "preferred_order", "scene_pairs"]
