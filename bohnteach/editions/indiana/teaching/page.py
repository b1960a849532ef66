"""The site chapter "Indiana Bohnes" (``notebooks/15_Indiana_Bohnes.ipynb``).

The notebook imports this module as ``chapter`` and calls ``chapter.show(part)`` (one short
call per cell):

* ``karten``      – the new varieties (cards, Bohnometer marked as assumed) and the extra
  cards with their prices, from the rule set ``indiana``;
* ``tempelgang``  – the temple and draw pile of the scene ``i-tempel-chancen`` and
  ``teaching/charts.temple_chart`` for it behind a button (drawn on demand);
* ``frage``       – a question on the same table, checked against ``teaching/temple.py``;
* ``auslegungen`` – our readings of the ``indy.*`` rules and the assumed meters;
* ``eigene_werte`` – type the Bohnometers of one's own cards (a meter file's text) and see
  the cards table with them (``OwnMeters``), as the Ladybohn chapter offers;

and ``rule_ids()`` (every ``indy.*`` rule) for ``pages.rules_table``.

Every number comes from the rule data, the engine and ``teaching/temple.py``; nothing is typed
in twice.
"""
from __future__ import annotations

import tempfile
from fractions import Fraction
from html import escape
from pathlib import Path
from typing import Any

from bohnteach.game.beans import find_variety
from bohnteach.game.edition import find_edition
from bohnteach.game.errors import rule_catalogue
from bohnteach.game.rulesets import RuleSet, find_ruleset, load_ruleset_with_meters
from bohnteach.game.state import State
from bohnteach.editions.indiana.rules import MATCH, PLANT, SNAKE
from bohnteach.editions.indiana.teaching.temple import VisitChances, pile_counts, temple_stacks, temple_table
from bohnteach.render.style import text_colour
from bohnteach.render.words import de_number, de_percent
from bohnteach.widgets.edition_page import assumption_html, chart_button, interpretations_html, show_part
from bohnteach.widgets.failure import guard

RULESET = "indiana"
CHANCE_SCENE = "i-tempel-chancen"
"""The scene whose table the chart and the question use (a temple in the middle of a game)."""
QUESTION_WANTED = "soy"
"""The stack the question asks about."""

_CSS = """<style>
div.bt-indy{max-width:100%;min-width:0;font-size:14px}
div.bt-indy .bt-chipv{display:inline-block;padding:2px 8px;margin:2px 4px 2px 0;border-radius:6px;
 font-weight:600;white-space:nowrap}
div.bt-indy table.bt-indy-t{border-collapse:collapse;width:100%;margin:4px 0}
div.bt-indy table.bt-indy-t th,div.bt-indy table.bt-indy-t td{border:1px solid #d0cabb;
 padding:5px 7px;vertical-align:top;text-align:left;line-height:1.35}
div.bt-indy table.bt-indy-t thead th{background:#f1ede4}
div.bt-indy .bt-wrap{overflow-x:auto}
div.bt-indy .bt-row{margin:3px 0}
div.bt-indy ul{margin:4px 0;padding-left:1.3em}
</style>"""


def _chip(variety: str, count: int | None = None) -> str:
    """A variety as a coloured chip with its name (and how many cards), never colour alone."""
    v = find_variety(variety)
    label = v.de if count is None else f"{count} × {v.label(count)}"
    return (f'<span class="bt-chipv" style="background:{v.colour};color:{text_colour(v.colour)}">'
            f"{escape(label)}</span>")


def _meter(meter: tuple[int, ...] | None) -> str:
    return " · ".join(str(n) if n else "–" for n in meter) if meter else "–"


def new_varieties(rules: RuleSet, base: str = "amigo") -> list[str]:
    """The varieties the rule set adds to the base game's."""
    known = set(find_ruleset(base).varieties)
    return [v for v in rules.varieties if v not in known]


def cards_html(rules: RuleSet | None = None) -> str:
    """The new varieties (cards, Bohnometer) and the extra cards of the edition's settings."""
    r = rules or find_ruleset(RULESET)
    rows = "".join(
        f"<tr><td>{_chip(key)}</td><td>{find_variety(key).count}</td>"
        f"<td><b>{_meter(r.meter_for(key, None))}</b></td></tr>"
        for key in new_varieties(r)
    )
    table = (
        '<div class="bt-wrap"><table class="bt-indy-t"><thead><tr><th>neue Sorte</th><th>Karten</th>'
        "<th>Bohnometer<br><small>Karten für 1 · 2 · 3 · 4 Taler</small></th></tr></thead>"
        f"<tbody>{rows}</tbody></table></div>"
    )
    summary = find_edition(r.edition).settings_summary(r.settings)
    extra = "".join(f"<li>{escape(line)}</li>" for line in summary)
    extra_html = f"<p><b>Und außerdem:</b></p><ul>{extra}</ul>" if extra else ""
    return f'{_CSS}<div class="bt-indy">{assumption_html(r)}{table}{extra_html}</div>'


# ---- the temple's gamble -----------------------------------------------------------------
def chance_table() -> State:
    """The table of the scene ``CHANCE_SCENE`` before its first step."""
    from bohnteach.content.scenes import get_scene

    return get_scene(CHANCE_SCENE).state_at(0)


def chance_rows(s: State) -> list[VisitChances]:
    return temple_table(temple_stacks(s), pile_counts(s))


def temple_html(s: State) -> str:
    """The temple's stacks by variety and how many bean cards the draw pile holds."""
    stacks = "".join(_chip(v, n) for v, n in temple_stacks(s).items()) or "leer"
    return (f'<div class="bt-row"><b>Im Tempel:</b> {stacks}</div>'
            f'<div class="bt-row"><b>Im Nachziehstapel:</b> {sum(pile_counts(s).values())} Bohnenkarten</div>')


def chart_output() -> Any:
    """The chance table's temple and ``teaching/charts.temple_chart`` behind a button (a widget)."""
    import ipywidgets as widgets

    from bohnteach.editions.indiana.teaching.charts import temple_chart
    from bohnteach.widgets.parts import html, layout

    s = chance_table()
    intro = html(f'{_CSS}<div class="bt-indy">{temple_html(s)}</div>')

    def make() -> Any:
        return temple_chart(chance_rows(s), sum(pile_counts(s).values()))

    box = chart_button(make, "Chancen zeigen", "Für jeden Stapel im Tempel: wie der Tempelgang ausgeht",
                       "Tempel-Diagramm", "bt-indy-chart")
    return widgets.VBox([intro, box], layout=layout(width="100%"))


def question() -> Any:
    """How likely is it to get the ``QUESTION_WANTED`` stack? Checked against ``teaching/temple.py``;
    the usual mistakes (only the match, forgetting the snakes) get their own hint."""
    from bohnteach.widgets.questions import NumberQuestion

    s = chance_table()
    row = next(r for r in chance_rows(s) if r.wanted == QUESTION_WANTED)
    pile = pile_counts(s)
    total = sum(pile.values())
    name = find_variety(QUESTION_WANTED).de_plural
    match = row.chances.get(MATCH, Fraction(0))
    good = {v: n for v, n in pile.items() if v in temple_stacks(s) and v != SNAKE}
    mistakes = {
        match: f"Das ist nur die Chance auf einen Treffer. Auch jede andere Tempelsorte bringt dir "
               f"die {name}.",
        1 - row.chances.get(PLANT, Fraction(0)): "Vorsicht Schlange: Eine aufgedeckte "
               "Schlangenbohne kostet dich den Stapel, auch wenn Schlangen im Tempel liegen.",
    }
    parts = " + ".join(f"{n} {find_variety(v).label(n)}" for v, n in good.items())
    return NumberQuestion(
        f"Du wünschst dir die {name} aus dem Tempel. Wie wahrscheinlich bekommst du den Stapel?",
        answer=row.success, tolerance=0.005, probability=True,
        hint="Zähle die Karten im Nachziehstapel, die dir den Stapel bringen: deine Sorte und "
             "jede andere Sorte aus dem Tempel – außer den Schlangen.",
        mistakes=mistakes,
        solution=f"Gut sind {parts} = {sum(good.values())} von {total} Bohnenkarten: "
                 f"{sum(good.values())}/{total} ≈ {de_percent(row.success)}. "
                 f"Im Mittel bekommt dein Abenteurer {de_number(row.expected_beans, 2)} Bohnen.",
    )


# ---- the user's own meters --------------------------------------------------------------------
def example_meters() -> str:
    """The text the meter box starts with: the assumed values, one line per new variety."""
    r = find_ruleset(RULESET)
    def toml(meter: tuple[int, ...]) -> str:
        return "[" + ", ".join(str(n) if n else '"–"' for n in meter) + "]"

    lines = [f"{find_variety(v).de} = {toml(r.meter_for(v, None) or ())}" for v in new_varieties(r)]
    return ("# Trage hier die Zahlen von deinen Karten ein: wie viele Karten du\n"
            "# für 1, 2, 3 und 4 Taler brauchst. Nicht aufgedruckte Stufe: 0 oder \"–\".\n"
            "# Eine Zeile, die du weglässt, bleibt angenommen.\n\n" + "\n".join(lines) + "\n")


def ruleset_from_text(text: str, ruleset: str | RuleSet = RULESET) -> RuleSet:
    """``ruleset`` with the meters of ``text`` read as a meter file (``load_ruleset_with_meters``);
    a ``MeterFileError`` names „deine Werte“ instead of a temporary path."""
    from bohnteach.game.rulesets import MeterFileError

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "meine_karten.toml"  # the name the docs use for one's own meter file
        path.write_text(text, encoding="utf-8")
        try:
            return load_ruleset_with_meters(ruleset, path)
        except MeterFileError as error:
            raise MeterFileError("deine Werte", error.key, error.reason) from None


class OwnMeters:
    """The meter box of the chapter: text → „Werte übernehmen“ → the cards table with the
    user's values, or a German error box (file key and reason). ``widget`` is the VBox."""

    def __init__(self, text: str | None = None):
        import ipywidgets as widgets

        from bohnteach.widgets.parts import html, layout

        self.rules: RuleSet = find_ruleset(RULESET)
        self.text = widgets.Textarea(value=text or example_meters(), rows=7, layout=layout(width="100%"))
        self.apply_button = widgets.Button(description="Werte übernehmen", button_style="primary",
                                           layout=layout(width="auto"))
        self.reset_button = widgets.Button(description="Zurück zur Annahme", layout=layout(width="auto"))
        self.message = html()
        self.cards = html()
        self.widget = widgets.VBox(
            [html("<b>Deine Werte</b> (je Sorte eine Zeile, z. B. <code>Schlangenbohne = [4, 7, 9, 11]</code>):"),
             self.text, widgets.HBox([self.apply_button, self.reset_button], layout=layout(flex_flow="row wrap")),
             self.message, self.cards],
            layout=layout(width="100%", max_width="1000px"), _dom_classes=("bt-indy-own",),
        )
        failed = guard(self.message, "Eigene Indiana-Werte", title="Das hat nicht geklappt")
        self.apply_button.on_click(failed(lambda _b: self.apply()))
        self.reset_button.on_click(failed(lambda _b: self.reset()))

    def apply(self) -> RuleSet:
        """Read the text; on success show the cards table with the new values."""
        from bohnteach.game.rulesets import MeterFileError
        from bohnteach.render.table import render_error, render_info

        try:
            self.rules = ruleset_from_text(self.text.value)
        except MeterFileError as error:
            self.message.value = render_error(str(error), title="Diese Werte kann bohnteach nicht lesen")
            return self.rules
        still = self.rules.meter_assumption.split("weiterhin angenommen:")[-1].strip() or (
            "nichts mehr – alle Werte sind deine.")
        self.message.value = render_info("Übernommen", f"Die Tabelle rechnet jetzt mit deinen Werten. "
                                         f"Weiterhin angenommen: {still}")
        self.cards.value = cards_html(self.rules)
        return self.rules

    def reset(self) -> None:
        self.rules = find_ruleset(RULESET)
        self.text.value = example_meters()
        self.message.value = ""
        self.cards.value = ""


# ---- Auslegungen and rules -------------------------------------------------------------------
def rule_ids() -> list[str]:
    """Every ``indy.*`` rule, in catalogue order."""
    return [r for r in rule_catalogue() if r.startswith("indy.")]


@guard()
def show(part: str) -> Any:
    """The object the notebook displays for ``part`` (see the module docstring)."""
    from bohnteach.widgets.figure import HTML

    return show_part({
        "karten": lambda: HTML(cards_html()),
        "tempelgang": chart_output,
        "frage": question,
        "auslegungen": lambda: HTML(interpretations_html(rule_ids(), find_ruleset(RULESET), "indy.meters")),
        "eigene_werte": lambda: OwnMeters().widget,
    }, part)


__all__ = ["OwnMeters", "cards_html", "example_meters", "ruleset_from_text", "chance_rows", "chance_table", "chart_output", "rule_ids",
           "new_varieties", "question", "show", "temple_html"]
