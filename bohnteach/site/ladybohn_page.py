"""The site chapter "Ladybohn" (``notebooks/14_Ladybohn.ipynb``): its tables and widgets.

The notebook calls these through ``site.ladybohn(part)`` (one short call per cell):

* ``karten``       – the 110 cards: m / w / B per variety and both Bohnometers
  (``meter_table``), with the assumption note of the rule set;
* ``diagramm``     – ``charts.sex_meter_chart`` behind a button (``chart_output``: drawn
  on demand, so the page does not load plotly's library on every visit);
* ``auslegungen``  – our readings of the ``lady.*`` rules (``auslegung`` in ``rules.toml``)
  and the assumed meters;
* ``eigene_werte`` – type the numbers printed on your own cards (the TOML format of
  ``docs/ladybohn-bohnometer.toml``) and see table and chart with them.

Everything reads the rule-set data (``data/rulesets/ladybohn.toml``) – nothing typed in
twice. Every callback shows failures in a visible box (Voilà hides tracebacks).
"""
from __future__ import annotations

import tempfile
from html import escape
from pathlib import Path
from typing import Any

from bohnteach.game.beans import find_variety
from bohnteach.render.table import chips, render_error, render_info
from bohnteach.render.style import style_block, text_colour
from bohnteach.game.rulesets import RuleSet, find_ruleset
from bohnteach.widgets.failure import guard
from bohnteach.widgets.figures import show_figure

LADY_RULES = (
    "lady.sexes", "lady.top-card", "lady.female-meter", "lady.baby-no-meter", "lady.baby-lift",
    "lady.offer-variety-only", "lady.baby-trade-immediate", "lady.female-garden",
    "lady.p3-order", "lady.end",
)
PRINTED = {("stink", "m")}
"""Meters the rulebook prints (Ladybohn-Spielregel, „Die Bohnenernte“): only the male Saubohne."""

EXAMPLE = """# Trage hier die Zahlen von deinen Karten ein:
# wie viele Karten du für 1, 2, 3 und 4 Taler brauchst.
# Nicht aufgedruckte Stufe: 0 oder "–". Was du weglässt, bleibt angenommen.

[blue]          # Blaue Bohne
m = [4, 6, 8, 10]
w = [3, 5, 7, 9]

[garden]        # Gartenbohne
w = ["–", 1, 2, "–"]
"""

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
.bt-lady-ausl{display:flex;flex-direction:column;gap:10px}
.bt-lady-ausl section{border:1px solid #d9d4c7;border-left:4px solid #b58900;border-radius:8px;
 padding:8px 12px;background:#fffdf6}
.bt-lady-ausl h3{margin:0 0 4px;font-size:16px}
.bt-lady-ausl p{margin:4px 0;font-size:14px}
</style>"""


def _rules(rules: str | RuleSet | None) -> RuleSet:
    return find_ruleset(rules or "ladybohn")


def _steps(meter: tuple[int, ...] | None) -> str:
    if not meter:
        return "–"
    return " · ".join(f"{need}→{coins}" for coins, need in enumerate(meter, 1) if need)


def assumption_html(rules: RuleSet) -> str:
    """The rule set's meter note as a visible box (empty when nothing is assumed)."""
    if not rules.meter_assumption:
        source = f" ({escape(rules.meter_source)})" if rules.meter_source else ""
        return (f'{style_block()}<div class="bt"><div class="bt-note"><b>Bohnometer:</b> '
                f"alle Werte von deinen Karten{source}.</div></div>")
    note = rules.meter_assumption.strip()
    if note.casefold().startswith("annahme:"):
        note = note[len("annahme:"):].strip()
    return (f'{style_block()}<div class="bt"><div class="bt-note"><b>Achtung, Annahme:</b> '
            f"{escape(note)}</div></div>")


def _tag(rules: RuleSet, variety: str, sex: str) -> str:
    """Where a meter comes from: printed in the rulebook, the user's values, or assumed."""
    if (variety, sex) in PRINTED and rules.sex_meters[variety][sex] == find_variety(variety).meter:
        return '<span class="bt-tag bt-printed">gedruckt</span>'
    label = f"{find_variety(variety).de} ({sex})"
    if rules.meter_source and label not in rules.meter_assumption:
        return '<span class="bt-tag bt-own">deine Werte</span>'
    return '<span class="bt-tag bt-assumed">Annahme</span>'


def _meter_cell(meter: tuple[int, ...] | None) -> str:
    """``4 · 6 · 8 · 10``: the cards needed for 1, 2, 3, 4 Taler (– = not printed)."""
    if not meter:
        return "–"
    return " · ".join(str(need) if need else "–" for need in meter)


def meter_table(rules: str | RuleSet | None = None) -> str:
    """HTML: per variety the number of cards (m / w / B) and the male and female
    Bohnometer (cards for 1 · 2 · 3 · 4 Taler), each marked „gedruckt“, „Annahme“ or
    „deine Werte“. Four narrow columns, so it fits a phone."""
    r = _rules(rules)
    if not r.sex_meters:
        raise ValueError(f"{r.title}: die Karten haben kein Geschlecht.")
    rows = []
    totals = {"m": 0, "w": 0, "B": 0}
    for key, by_sex in r.sexes.items():
        v = find_variety(key)
        for sx in totals:
            totals[sx] += by_sex.get(sx, 0)
        chip = (f'<span class="bt-chipv" style="background:{v.colour};color:{text_colour(v.colour)}">'
                f"{escape(v.de)}</span>")
        meters = r.sex_meters[key]
        counts = (f"<b>{sum(by_sex.values())}</b><br><small>{by_sex.get('m', 0)} ♂ · "
                  f"{by_sex.get('w', 0)} ♀ · {by_sex.get('B', 0)} B</small>")
        rows.append(
            f"<tr><td>{chip}</td><td>{counts}</td>"
            f"<td><span class='bt-m'>{_meter_cell(meters.get('m'))}</span><br>{_tag(r, key, 'm')}</td>"
            f"<td><span class='bt-m'>{_meter_cell(meters.get('w'))}</span><br>{_tag(r, key, 'w')}</td></tr>"
        )
    total = sum(totals.values())
    table = (
        '<div class="bt-wrap"><table class="bt-lady-t"><thead><tr><th>Sorte</th>'
        "<th>Karten<br><small>♂ m · ♀ w · B Baby</small></th>"
        "<th>♂ männlich oben<br><small>Karten für 1 · 2 · 3 · 4 Taler</small></th>"
        "<th>♀ weiblich oben<br><small>Karten für 1 · 2 · 3 · 4 Taler</small></th></tr></thead>"
        f'<tbody>{"".join(rows)}</tbody><tfoot><tr><th>zusammen</th><th>{total}<br><small>'
        f'{totals["m"]} ♂ · {totals["w"]} ♀ · {totals["B"]} B</small></th>'
        "<th colspan='2'>B Baby oben: kein Bohnometer, das Feld bringt 0 Taler. "
        "„–“: diese Stufe gibt es nicht.</th></tr></tfoot></table></div>"
    )
    return f'{_CSS}<div class="bt-lady">{assumption_html(r)}{table}</div>'


def chart_output(rules: str | RuleSet | None = None) -> Any:
    """:func:`charts.sex_meter_chart` behind a button "Diagramm zeigen" (a widget).

    Built on demand: the first plotly chart on a page makes the browser load plotly's
    library (several MB), which would keep this page well above the opening-time target
    of ``benchmarks/site.py``. The meter table above the button shows the same numbers
    at once.
    """
    import ipywidgets as widgets

    button = widgets.Button(description="Diagramm zeigen", button_style="info",
                            tooltip="Männchen und Weibchen jeder Sorte als Kurven",
                            layout=widgets.Layout(width="auto", align_self="flex-start"))
    message = widgets.HTML()
    style = widgets.HTML(layout=widgets.Layout(height="0px", margin="0"))
    out = widgets.Output(layout=widgets.Layout(width="100%"))

    @guard(message, "Ladybohn-Diagramm", title="Das Diagramm ließ sich nicht zeichnen")
    def draw(_button: Any) -> None:
        show_chart(_rules(rules), out, style)
        button.layout.display = "none"

    button.on_click(draw)
    box = widgets.VBox([button, message, style, out], layout=widgets.Layout(width="100%"))
    box.add_class("bt-lady-chart")
    return box


def show_chart(rules: RuleSet, out: Any, style: Any) -> None:
    """Draw :func:`charts.sex_meter_chart` for ``rules`` into the ``Output`` ``out``;
    ``style`` (an HTML widget) gets the CSS that gives the chart its height."""
    from bohnteach.render.charts import sex_meter_chart

    fig = sex_meter_chart(rules)
    style.value = _height_css(out, fig.layout.height)
    show_figure(fig, out)


def _height_css(out: Any, height: int) -> str:
    """JupyterLab's plotly renderer autosizes the plot to its node, which has no height
    of its own inside an ``Output``: on the Voilà page the chart was 0 px high. A CSS
    rule for this Output gives the node the figure's height (the width stays fluid)."""
    name = f"bt-lady-chart-{height}"
    out.add_class(name)
    return f"<style>.{name} .jp-RenderedPlotly{{height:{height}px;min-height:{height}px}}</style>"


def auslegungen_html() -> str:
    """Our readings of the ``lady.*`` rules and the assumed meters, from the rule data."""
    from bohnteach.game.errors import find_rule

    items = []
    for rule_id in LADY_RULES:
        rule = find_rule(rule_id)
        if not rule.auslegung:
            continue
        items.append(
            f'<section data-rule="{escape(rule_id)}"><h3>{escape(rule.title)}</h3>'
            f"<p><b>Unsere Auslegung:</b> {escape(rule.auslegung)}</p>"
            f'<p style="color:#5c5648"><b>Die Regel:</b> {escape(rule.explanation)}</p>'
            f"{chips([rule_id], [rule.source])}</section>"
        )
    r = find_ruleset("ladybohn")
    if r.meter_assumption:
        note = r.meter_assumption.strip()
        if note.casefold().startswith("annahme:"):
            note = note[len("annahme:"):].strip()
        items.append(
            '<section data-rule="meter_assumption"><h3>Die Bohnometer-Zahlen</h3>'
            f"<p><b>Annahme in den Daten:</b> {escape(note)}</p>"
            f'{chips(["lady.female-meter"])}</section>'
        )
    return f'{_CSS}{style_block()}<div class="bt bt-lady-ausl">{"".join(items)}</div>'


class OwnValues:
    """Type your cards' Bohnometer (TOML) → the table and the chart with your values.

    The text is checked like a meter file (``load_ruleset_with_meters``); a mistake shows
    the file's key and the reason in a box. ``widget`` is the ipywidgets VBox."""

    def __init__(self, text: str = EXAMPLE):
        import ipywidgets as widgets

        self.rules: RuleSet = find_ruleset("ladybohn")
        self.text = widgets.Textarea(value=text, rows=12, layout=widgets.Layout(width="100%"))
        self.apply_button = widgets.Button(description="Werte übernehmen", button_style="primary",
                                           layout=widgets.Layout(width="auto"))
        self.reset_button = widgets.Button(description="Zurück zur Annahme",
                                           layout=widgets.Layout(width="auto"))
        self.message = widgets.HTML()
        self.table = widgets.HTML()
        self.chart = widgets.Output(layout=widgets.Layout(width="100%"))
        self.chart_style = widgets.HTML(layout=widgets.Layout(height="0px", margin="0"))
        self.widget = widgets.VBox(
            [widgets.HTML("<b>Deine Werte</b> (je Sorte eine Tabelle wie "
                          "<code>[blue]</code> oder <code>[\"Blaue Bohne\"]</code>, darin "
                          "<code>m</code> und/oder <code>w</code>):"),
             self.text,
             widgets.HBox([self.apply_button, self.reset_button],
                          layout=widgets.Layout(flex_flow="row wrap")),
             self.message, self.table, self.chart_style, self.chart],
            layout=widgets.Layout(width="100%", max_width="1000px"),
        )
        self.widget.add_class("bt-lady-own")
        failed = guard(self.message, "Eigene Ladybohn-Werte", title="Das hat nicht geklappt")
        self.apply_button.on_click(failed(lambda _b: self.apply()))
        self.reset_button.on_click(failed(lambda _b: self.reset()))

    def apply(self) -> RuleSet:
        """Read the text; on success show table and chart with the new values."""
        from bohnteach.game.rulesets import MeterFileError, load_ruleset_with_meters

        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "meine_karten.toml"
            path.write_text(self.text.value, encoding="utf-8")
            try:
                rules = load_ruleset_with_meters("ladybohn", path)
            except MeterFileError as error:
                self.message.value = render_error(
                    str(error).replace(str(path), "deine Werte"),
                    title="Diese Werte kann bohnteach nicht lesen")
                return self.rules
        self.rules = rules
        still = rules.meter_assumption or "nichts mehr – alle Werte sind deine"
        self.message.value = render_info(
            "Übernommen", f"Tabelle und Diagramm rechnen jetzt mit deinen Werten. Weiterhin "
            f"angenommen: {still.split('weiterhin angenommen:')[-1].strip()}")
        self._show()
        return rules

    def reset(self) -> None:
        self.rules = find_ruleset("ladybohn")
        self.text.value = EXAMPLE
        self.message.value = ""
        self.table.value = ""
        self.chart.clear_output()

    def _show(self) -> None:
        self.table.value = meter_table(self.rules)
        show_chart(self.rules, self.chart, self.chart_style)


def own_values() -> Any:
    return OwnValues().widget


def show(part: str) -> Any:
    """The object the notebook displays for ``part`` (see the module docstring)."""
    from IPython.display import HTML

    key = part.strip().casefold()
    if key == "karten":
        return HTML(meter_table())
    if key == "diagramm":
        return chart_output()
    if key == "auslegungen":
        return HTML(auslegungen_html())
    if key == "eigene_werte":
        return own_values()
    raise KeyError(f"Unbekannter Teil {part!r}: karten, diagramm, auslegungen, eigene_werte.")


__all__ = ["EXAMPLE", "OwnValues", "assumption_html", "auslegungen_html", "chart_output",
           "meter_table", "own_values", "show", "show_chart"]
