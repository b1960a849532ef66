"""The site chapter "Ladybohn" (``notebooks/14_Ladybohn.ipynb``): its tables and widgets.

The notebook imports this module as ``chapter`` and calls ``chapter.show(part)`` (one short
call per cell):

* ``karten``       – the 110 cards: m / w / B per variety and both Bohnometers
  (``meter_table``), with the assumption note of the rule set;
* ``diagramm``     – ``teaching/charts.sex_meter_chart`` behind a button (``chart_output``: drawn
  on demand, so the page does not load plotly's library on every visit);
* ``auslegungen``  – our readings of the ``lady.*`` rules (``auslegung`` in ``rules.toml``)
  and the assumed meters;
* ``eigene_werte`` – type the numbers printed on your own cards (the TOML format of
  ``docs/ladybohn-bohnometer.toml``) and see table and chart with them.

Everything reads the rule-set data (``data/rulesets/ladybohn.toml``) – nothing typed in
twice. Every callback shows failures in a visible box (Voilà hides tracebacks). The words
are in the reader's language: ``show(part, lang)`` (else the page's, ``i18n.current``); a
widget keeps the translator it was made with for its callbacks.
"""
from __future__ import annotations

import tempfile
from html import escape
from pathlib import Path
from typing import Any

from bohnteach.game.beans import find_variety
from bohnteach.i18n import N_, Translator, _, reader, speaking
from bohnteach.render.language import variety_word
from bohnteach.render.table import render_error, render_info
from bohnteach.render.style import text_colour
from bohnteach.game.rulesets import RuleSet, find_ruleset
from bohnteach.widgets.edition_page import assumption_html, chart_button, show_figure, show_part, still_assumed
from bohnteach.widgets.edition_page import interpretations_html as interpretations_html_of
from bohnteach.widgets.failure import guard

LADY_RULES = (
    "lady.sexes", "lady.top-card", "lady.female-meter", "lady.baby-no-meter", "lady.baby-lift",
    "lady.offer-variety-only", "lady.baby-trade-immediate", "lady.female-garden",
    "lady.p3-order", "lady.end",
)
PRINTED = {("stink", "m")}
"""Meters the rulebook prints (Ladybohn-Spielregel, „Die Bohnenernte“): only the male Stinkbohne."""

EXAMPLE = N_("""# Trage hier die Zahlen von deinen Karten ein:
# wie viele Karten du für 1, 2, 3 und 4 Taler brauchst.
# Nicht aufgedruckte Stufe: 0 oder "–". Was du weglässt, bleibt angenommen.

[blue]          # Blaue Bohne
m = [4, 6, 8, 10]
w = [3, 5, 7, 9]

[garden]        # Gartenbohne
w = ["–", 1, 2, "–"]
""")
"""The meter box's first text (a TOML file; its comments translated where shown)."""

_CSS = """<style>
div.bt-lady table.bt-lady-t{border-collapse:collapse;font-size:14px;width:100%;margin:4px 0;
 table-layout:auto}
div.bt-lady table.bt-lady-t th,div.bt-lady table.bt-lady-t td{border:1px solid #d0cabb;
 padding:5px 7px;vertical-align:top;text-align:left;line-height:1.35}
div.bt-lady table.bt-lady-t thead th{background:#f1ede4}
div.bt-lady table.bt-lady-t tbody tr:nth-child(odd){background:#fff}
div.bt-lady table.bt-lady-t tbody tr:nth-child(even){background:#faf8f3}
div.bt-lady table.bt-lady-t small{font-weight:400;color:#5c5648}
div.bt-lady .bt-m{white-space:nowrap;font-variant-numeric:tabular-nums;font-weight:600}
div.bt-lady .bt-chipv{display:inline-block;padding:1px 8px;border-radius:6px;font-weight:600}
div.bt-lady .bt-wrap{overflow-x:auto}
div.bt-lady .bt-tag{font-size:11px;border-radius:4px;padding:0 4px;white-space:nowrap}
div.bt-lady .bt-printed{background:#e8f5e9;border:1px solid #2e7d32;color:#1b5e20}
div.bt-lady .bt-assumed{background:#fff4e0;border:1px dashed #8a4b00;color:#8a4b00}
div.bt-lady .bt-own{background:#eef4fb;border:1px solid #1f5f8b;color:#12405f}
div.bt-lady{max-width:100%;min-width:0}
div.bt-lady .bt-note{overflow-wrap:anywhere}
@media (max-width:520px){
 div.bt-lady table.bt-lady-t{font-size:12.5px}
 div.bt-lady table.bt-lady-t th,div.bt-lady table.bt-lady-t td{padding:4px 4px}
 div.bt-lady .bt-chipv{padding:1px 4px;white-space:normal}
 div.bt-lady .bt-m{white-space:normal}
}
</style>"""


def _rules(rules: str | RuleSet | None) -> RuleSet:
    return find_ruleset(rules or "ladybohn")


def _steps(meter: tuple[int, ...] | None) -> str:
    if not meter:
        return "–"
    return " · ".join(f"{need}→{coins}" for coins, need in enumerate(meter, 1) if need)


def _tag(rules: RuleSet, variety: str, sex: str) -> str:
    """Where a meter comes from: printed in the rulebook, the user's values, or assumed."""
    if (variety, sex) in PRINTED and rules.trait_meters[variety][sex] == find_variety(variety).meter:
        css, word = "bt-printed", _("gedruckt")
    elif rules.meter_source and f"{find_variety(variety).de} ({sex})" not in rules.meter_assumption:
        css, word = "bt-own", _("deine Werte")
    else:
        css, word = "bt-assumed", _("Annahme")
    return f'<span class="bt-tag {css}">{word}</span>'


def _meter_cell(meter: tuple[int, ...] | None) -> str:
    """``4 · 6 · 8 · 10``: the cards needed for 1, 2, 3, 4 Taler (– = not printed)."""
    if not meter:
        return "–"
    return " · ".join(str(need) if need else "–" for need in meter)


def meter_table(rules: str | RuleSet | None = None) -> str:
    """HTML: per variety the number of cards (m / w / B) and the male and female
    Bohnometer (cards for 1 · 2 · 3 · 4 Taler), each marked „gedruckt“, „Annahme“ or
    „deine Werte“. Four narrow columns, so it fits a phone. In the reader's language
    (``i18n.current``)."""
    r = _rules(rules)
    if not r.trait_meters:
        raise ValueError(_("{rules}: die Karten haben kein Geschlecht.").format(rules=_(r.title)))
    rows = []
    totals = {"m": 0, "w": 0, "B": 0}
    for key, by_sex in r.traits.items():
        v = find_variety(key)
        for sx in totals:
            totals[sx] += by_sex.get(sx, 0)
        chip = (f'<span class="bt-chipv" style="background:{v.colour};color:{text_colour(v.colour)}">'
                f"{escape(variety_word(v))}</span>")
        meters = r.trait_meters[key]
        counts = (f"<b>{sum(by_sex.values())}</b><br><small>{by_sex.get('m', 0)} ♂ · "
                  f"{by_sex.get('w', 0)} ♀ · {by_sex.get('B', 0)} B</small>")
        rows.append(
            f"<tr><td>{chip}</td><td>{counts}</td>"
            f"<td><span class='bt-m'>{_meter_cell(meters.get('m'))}</span><br>{_tag(r, key, 'm')}</td>"
            f"<td><span class='bt-m'>{_meter_cell(meters.get('w'))}</span><br>{_tag(r, key, 'w')}</td></tr>"
        )
    total = sum(totals.values())
    variety, cards, kinds, together = _("Sorte"), _("Karten"), _("♂ m · ♀ w · B Baby"), _("zusammen")
    male, female, steps = _("♂ männlich oben"), _("♀ weiblich oben"), _("Karten für 1 · 2 · 3 · 4 Taler")
    baby = _("B Baby oben: kein Bohnometer, das Feld bringt 0 Taler. „–“: diese Stufe gibt es nicht.")
    table = (
        f'<div class="bt-wrap"><table class="bt-lady-t"><thead><tr><th>{variety}</th>'
        f"<th>{cards}<br><small>{kinds}</small></th>"
        f"<th>{male}<br><small>{steps}</small></th>"
        f"<th>{female}<br><small>{steps}</small></th></tr></thead>"
        f'<tbody>{"".join(rows)}</tbody><tfoot><tr><th>{together}</th><th>{total}<br><small>'
        f'{totals["m"]} ♂ · {totals["w"]} ♀ · {totals["B"]} B</small></th>'
        f"<th colspan='2'>{baby}</th></tr></tfoot></table></div>"
    )
    return f'{_CSS}<div class="bt-lady">{assumption_html(r)}{table}</div>'


def chart_output(rules: str | RuleSet | None = None, lang: str | Translator | None = None) -> Any:
    """:func:`~.charts.sex_meter_chart` behind a button "Diagramm zeigen" (a widget; drawn on
    demand, ``edition_page.chart_button``). The meter table above the button shows the
    same numbers at once."""
    from bohnteach.editions.ladybohn.teaching.charts import sex_meter_chart

    tr = reader(lang)
    return chart_button(lambda: sex_meter_chart(_rules(rules)), tr.gettext("Diagramm zeigen"),
                        tr.gettext("Männchen und Weibchen jeder Sorte als Kurven"),
                        tr.gettext("Ladybohn-Diagramm"), "bt-lady-chart", lang=tr)


def show_chart(rules: RuleSet, out: Any, style: Any) -> None:
    """Draw :func:`~.charts.sex_meter_chart` for ``rules`` into the ``Output`` ``out``."""
    from bohnteach.editions.ladybohn.teaching.charts import sex_meter_chart

    show_figure(sex_meter_chart(rules), out, style)


def interpretations_html() -> str:
    """Our readings of the ``lady.*`` rules and the assumed meters, from the rule data
    (in the reader's language, ``i18n.current``)."""
    return interpretations_html_of(LADY_RULES, find_ruleset("ladybohn"), "lady.female-meter")


class OwnValues:
    """Type your cards' Bohnometer (TOML) → the table and the chart with your values.

    The text is checked like a meter file (``load_ruleset_with_meters``); a mistake shows
    the file's key and the reason in a box. ``widget`` is the ipywidgets VBox; its words in
    the reader's language (``lang``, else the page's), its callbacks too."""

    def __init__(self, text: str | None = None, lang: str | Translator | None = None):
        import ipywidgets as widgets

        from bohnteach.widgets.parts import html, layout

        self.tr = tr = reader(lang)
        self.example = tr.gettext(EXAMPLE)
        self.rules: RuleSet = find_ruleset("ladybohn")
        self.text = widgets.Textarea(value=self.example if text is None else text, rows=12,
                                     layout=layout(width="100%"))
        self.apply_button = widgets.Button(description=tr.gettext("Werte übernehmen"), button_style="primary",
                                           layout=layout(width="auto"))
        self.reset_button = widgets.Button(description=tr.gettext("Zurück zur Annahme"),
                                           layout=layout(width="auto"))
        self.message = html()
        self.table = html()
        self.chart = widgets.Output(layout=layout(width="100%"))
        self.chart_style = html(height="0px", margin="0")
        self.widget = widgets.VBox(
            [html(tr.gettext("<b>Deine Werte</b> (je Sorte eine Tabelle wie <code>[blue]</code> oder "
                             "<code>[\"Blaue Bohne\"]</code>, darin <code>m</code> und/oder <code>w</code>):")),
             self.text,
             widgets.HBox([self.apply_button, self.reset_button],
                          layout=layout(flex_flow="row wrap")),
             self.message, self.table, self.chart_style, self.chart],
            layout=layout(width="100%", max_width="1000px"), _dom_classes=("bt-lady-own",),
        )
        failed = guard(self.message, tr.gettext("Eigene Ladybohn-Werte"), title=tr.gettext("Das hat nicht geklappt"))
        self.apply_button.on_click(failed(lambda _b: self.apply()))
        self.reset_button.on_click(failed(lambda _b: self.reset()))

    def apply(self) -> RuleSet:
        """Read the text; on success show table and chart with the new values."""
        with speaking(self.tr):
            return self._apply()

    def _apply(self) -> RuleSet:
        from bohnteach.game.rulesets import MeterFileError, load_ruleset_with_meters

        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / _("meine_karten.toml")
            path.write_text(self.text.value, encoding="utf-8")
            try:
                rules = load_ruleset_with_meters("ladybohn", path)
            except MeterFileError as error:
                self.message.value = render_error(
                    str(error).replace(str(path), _("deine Werte")),
                    title=_("Diese Werte kann bohnteach nicht lesen"))
                return self.rules
        self.rules = rules
        still = still_assumed(rules) + "." if rules.meter_assumption else _("nichts mehr – alle Werte sind deine")
        self.message.value = render_info(
            _("Übernommen"), _("Tabelle und Diagramm rechnen jetzt mit deinen Werten. Weiterhin angenommen: "
                               "{still}").format(still=still))
        self._show()
        return rules

    def reset(self) -> None:
        self.rules = find_ruleset("ladybohn")
        self.text.value = self.example
        self.message.value = ""
        self.table.value = ""
        self.chart.clear_output()

    def _show(self) -> None:
        self.table.value = meter_table(self.rules)
        show_chart(self.rules, self.chart, self.chart_style)


def own_values(lang: str | Translator | None = None) -> Any:
    return OwnValues(lang=lang).widget


@guard()
def show(part: str, lang: str | Translator | None = None) -> Any:
    """The object the notebook displays for ``part`` (see the module docstring), in the
    reader's language (``lang``, else the page's)."""
    from bohnteach.widgets.figure import HTML

    tr = reader(lang)
    return show_part({
        "karten": lambda: HTML(meter_table()),
        "diagramm": lambda: chart_output(lang=tr),
        "auslegungen": lambda: HTML(interpretations_html()),
        "eigene_werte": lambda: own_values(tr),
    }, part, tr)


__all__ = ["EXAMPLE", "OwnValues", "assumption_html", "chart_output", "interpretations_html",
           "meter_table", "own_values", "show", "show_chart"]
