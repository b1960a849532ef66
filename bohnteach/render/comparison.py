"""The "Regelvergleich": every difference between the rulebooks, built from ``RuleSet`` data.

Nothing here is typed in twice: each row reads the frozen rule sets (``rulesets.py`` and
``data/rulesets/*.toml``), so a changed TOML file changes the table. Cells that differ
from the first column (the base game) are marked (class ``bt-diff``), rows where any
rule set differs carry ``bt-differs``.

    from bohnteach.render.comparison import comparison_html
    HTML(comparison_html(["amigo", "online"]))

:func:`scene_pairs` groups the chapter's scenes (``Kapitel: Regelvergleich``) into pairs
of the same situation played under two rule sets, for side-by-side display.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from html import escape

from bohnteach.game.beans import find_variety
from bohnteach.game.edition import all_editions, find_edition
from bohnteach.game.errors import source_title
from bohnteach.game.rulesets import RuleSet, find_ruleset, ruleset_names


def preferred_order(known: Sequence[str]) -> list[str]:
    """Column order of the comparison: the base game's rule sets, then each edition's own
    (the one named like it) in the order the editions were registered, then the rest."""
    first = [n for n in known if find_ruleset(n).edition == "base"]
    first += [e.name for e in all_editions() if e.name in known and e.name not in first]
    return first + [n for n in known if n not in first]

TIE_BREAK = {
    "clockwise": "wer im Uhrzeigersinn am weitesten vom Startspieler entfernt sitzt",
    "hand_cards": "wer noch die meisten Karten auf der Hand hat",
}
START_PLAYER = {
    "chosen": "wird bestimmt und behält die Startspielerkarte",
    "left_of_dealer": "wer links vom Geber sitzt",
}
PHASE3_ORDER = {
    "any": "alle pflanzen, Reihenfolge beliebig",
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
    return " · ".join(f"zu {_span(ns)}: {t}" for ns, t in groups)


def _players(r: RuleSet, n: int | None = None) -> str:
    return f"{r.min_players}–{r.max_players} Personen"


def _deck(r: RuleSet, n: int) -> str:
    kinds = r.variety_list(n)
    removed = r.for_players(n).removed
    text = f"{len(kinds)} Sorten, {len(r.card_specs(n))} Karten"
    if removed:
        text += " (ohne " + ", ".join(find_variety(k).de_plural for k in removed) + ")"
    return text


def _fields(r: RuleSet, n: int) -> str:
    k = r.for_players(n).fields
    return {2: "zwei Felder", 3: "drei Felder"}.get(k, f"{k} Felder")


def _deal(r: RuleSet, n: int) -> str:
    deal = r.for_players(n).deal
    if len(deal) == 1:
        return f"{deal[0]} Karten je Person"
    return "ab der Startperson " + "/".join(map(str, deal)) + " Karten, alle weiteren " + str(deal[-1])


def _draw(r: RuleSet, n: int) -> str:
    return f"{r.for_players(n).draw} Karten"


_ORDINAL = {1: "ersten", 2: "zweiten", 3: "dritten", 4: "vierten"}


def _end(r: RuleSet, n: int) -> str:
    k = r.for_players(n).exhaustions
    return f"Stapel zum {_ORDINAL.get(k, f'{k}.')} Mal leer"


def _third(r: RuleSet, n: int) -> str:
    p = r.for_players(n)
    if p.fields >= 3:
        return "schon von Anfang an"
    if p.third_field_cost:
        return f"einmal kaufen für {p.third_field_cost} Taler"
    return "nicht vorgesehen"


def _cell(r: RuleSet, key: str, default: str) -> str:
    """The cell ``key`` in the words of ``r``'s edition (``View.comparison_cells``)."""
    return find_edition(r.edition).view.comparison_cells.get(key, default)


def _phase3(r: RuleSet) -> str:
    order = r.phase3_order
    return _cell(r, f"phase3_order:{order}", PHASE3_ORDER.get(order, order))


def _meters(r: RuleSet) -> str:
    printed = "wie auf den Karten gedruckt"
    text = _cell(r, "meters", printed) if r.traits else printed
    if r.meter_assumption:
        text += " (teils Annahme, siehe Hinweis)"
    return text


def _traits(r: RuleSet) -> str:
    if not r.traits:
        return "—"
    parts = find_edition(r.edition).settings_summary(r.settings)
    return _cell(r, "traits", "ja") + (": " + "; ".join(parts) if parts else "")


def _edition_rules(r: RuleSet) -> str:
    """What an edition adds besides card traits (those have their own row): its settings in words."""
    if r.traits or r.edition == "base":
        return "—"
    edition = find_edition(r.edition)
    parts = edition.settings_summary(r.settings)
    return edition.title + (": " + " · ".join(parts) if parts else "")


def _sources(r: RuleSet) -> str:
    return ", ".join(source_title(s) for s in r.sources)


ROWS: tuple[tuple[str, tuple[str, ...], Callable[[RuleSet], str]], ...] = (
    ("Quelle", (), _sources),
    ("Personen", ("setup.players",), _players),
    ("Kartenspiel", ("setup.deck", "var.players-3", "var.players-4-5", "var.players-6-7"),
     lambda r: by_count(r, _deck)),
    ("Felder am Anfang", ("setup.fields",), lambda r: by_count(r, _fields)),
    ("Drittes Feld", ("field.buy-third",), lambda r: by_count(r, _third)),
    ("Austeilen", ("setup.deal",), lambda r: by_count(r, _deal)),
    ("Startspieler", ("setup.start-player",), lambda r: START_PLAYER.get(r.start_player, r.start_player)),
    ("Phase 3: wer pflanzt wann", ("p3.plant-all",), _phase3),
    ("Phase 4: nachziehen", ("p4.draw-three",), lambda r: by_count(r, _draw)),
    ("Spielende", ("end.third-exhaustion",), lambda r: by_count(r, _end)),
    ("Schlussernte", ("end.final-harvest",),
     lambda r: "Bohnenschutzregel gilt weiter" if r.final_harvest_protection
     else "alle Felder werden geleert, auch einzelne Bohnen"),
    ("Gleichstand", ("tie.clockwise", "tie.hand-cards"),
     lambda r: "gewinnt, " + TIE_BREAK.get(r.tie_break, r.tie_break)),
    ("Bohnometer", ("harvest.meter",), _meters),
    ("Kartenmerkmale", (), _traits),
    ("Erweiterung", (), _edition_rules),
)
"""(topic, the core's rule ids, the rule set's value) per row; an edition renames a row or
adds its rules to it through ``View.comparison``."""


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


def comparison_html(names: Iterable[str] | None = None) -> str:
    """The comparison as an HTML table (scrolls sideways on a phone)."""
    rulesets, rows = comparison_rows(names)
    head = "".join(
        f'<th scope="col">{escape(r.title)}<span class="bt-ids">{escape(r.name)}</span></th>'
        for r in rulesets
    )
    body = []
    for row in rows:
        ids = f'<span class="bt-ids">{escape(", ".join(row.rule_ids))}</span>' if row.rule_ids else ""
        base = row.values[0]
        diff = ' class="bt-diff"'
        cells = "".join(
            f'<td data-label="{escape(rulesets[i].title)}"{diff if i and v != base else ""}>'
            f'{escape(v).replace(" · ", "<br>")}</td>'
            for i, v in enumerate(row.values)
        )
        cls = ' class="bt-differs"' if row.differs else ""
        body.append(f'<tr{cls} data-topic="{escape(row.topic)}"><th scope="row">{escape(row.topic)}{ids}</th>{cells}</tr>')
    notes = "".join(
        f'<p class="bt-compare-note"><b>{escape(r.title)}:</b> {escape(r.meter_assumption)}</p>'
        for r in rulesets if r.meter_assumption
    )
    legend = ('<p class="bt-compare-note"><span class="bt-compare-legend"></span> '
              f"gelb = anders als in der ersten Spalte ({escape(rulesets[0].title)}).</p>")
    return (
        f'{_CSS}<div class="bt-compare-wrap bt-scroll-x"><table class="bt-compare" lang="de">'
        f'<thead><tr><th scope="col">Thema</th>{head}</tr></thead><tbody>{"".join(body)}</tbody>'
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
