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
in twice. The words are in the reader's language: ``show(part, lang)`` (else the page's,
``i18n.current``); a widget keeps the translator it was made with for its callbacks.
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
from bohnteach.i18n import Translator, _, current, reader, speaking
from bohnteach.render.language import term, variety_word
from bohnteach.render.numbers import number, percent
from bohnteach.render.style import text_colour
from bohnteach.widgets.edition_page import (
    assumption_html, chart_button, interpretations_html, show_part, still_assumed,
)
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
    label = variety_word(v) if count is None else f"{count} × {variety_word(v, count)}"
    return (f'<span class="bt-chipv" style="background:{v.colour};color:{text_colour(v.colour)}">'
            f"{escape(label)}</span>")


def _meter(meter: tuple[int, ...] | None) -> str:
    return " · ".join(str(n) if n else "–" for n in meter) if meter else "–"


def new_varieties(rules: RuleSet, base: str = "amigo") -> list[str]:
    """The varieties the rule set adds to the base game's."""
    known = set(find_ruleset(base).varieties)
    return [v for v in rules.varieties if v not in known]


def cards_html(rules: RuleSet | None = None) -> str:
    """The new varieties (cards, Bohnometer) and the extra cards of the edition's settings
    (in the reader's language, ``i18n.current``)."""
    r = rules or find_ruleset(RULESET)
    rows = "".join(
        f"<tr><td>{_chip(key)}</td><td>{find_variety(key).count}</td>"
        f"<td><b>{_meter(r.meter_for(key, None))}</b></td></tr>"
        for key in new_varieties(r)
    )
    new, cards, meter, steps = _("neue Sorte"), _("Karten"), _("Bohnometer"), _("Karten für 1 · 2 · 3 · 4 Taler")
    table = (
        f'<div class="bt-wrap"><table class="bt-indy-t"><thead><tr><th>{new}</th><th>{cards}</th>'
        f"<th>{meter}<br><small>{steps}</small></th></tr></thead>"
        f"<tbody>{rows}</tbody></table></div>"
    )
    summary = find_edition(r.edition).settings_summary(r.settings)
    extra = "".join(f"<li>{escape(term(line))}</li>" for line in summary)
    also = _("Und außerdem:")
    extra_html = f"<p><b>{also}</b></p><ul>{extra}</ul>" if extra else ""
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
    stacks = "".join(_chip(v, n) for v, n in temple_stacks(s).items()) or _("leer")
    temple = _("<b>Im Tempel:</b> {stacks}").format(stacks=stacks)
    pile = _("<b>Im Nachziehstapel:</b> {pile} Bohnenkarten").format(pile=sum(pile_counts(s).values()))
    return f'<div class="bt-row">{temple}</div><div class="bt-row">{pile}</div>'


def chart_output(lang: str | Translator | None = None) -> Any:
    """The chance table's temple and ``teaching/charts.temple_chart`` behind a button (a widget)."""
    import ipywidgets as widgets

    from bohnteach.editions.indiana.teaching.charts import temple_chart
    from bohnteach.widgets.parts import html, layout

    tr = reader(lang)
    s = chance_table()
    with speaking(tr):
        intro = html(f'{_CSS}<div class="bt-indy">{temple_html(s)}</div>')

    def make() -> Any:
        return temple_chart(chance_rows(s), sum(pile_counts(s).values()))

    box = chart_button(make, tr.gettext("Chancen zeigen"),
                       tr.gettext("Für jeden Stapel im Tempel: wie der Tempelgang ausgeht"),
                       tr.gettext("Tempel-Diagramm"), "bt-indy-chart", lang=tr)
    return widgets.VBox([intro, box], layout=layout(width="100%"))


def question(lang: str | Translator | None = None) -> Any:
    """How likely is it to get the ``QUESTION_WANTED`` stack? Checked against ``teaching/temple.py``;
    the usual mistakes (only the match, forgetting the snakes) get their own hint. Its texts
    in the reader's language (``lang``, else the page's); the question's own words
    (check, feedback) are ``NumberQuestion``'s."""
    from bohnteach.widgets.questions import NumberQuestion

    with speaking(reader(lang)):
        return NumberQuestion(**_question_texts())


def _question_texts() -> dict[str, Any]:
    s = chance_table()
    row = next(r for r in chance_rows(s) if r.wanted == QUESTION_WANTED)
    pile = pile_counts(s)
    total = sum(pile.values())
    name = variety_word(find_variety(QUESTION_WANTED), 2)
    match = row.chances.get(MATCH, Fraction(0))
    good = {v: n for v, n in pile.items() if v in temple_stacks(s) and v != SNAKE}
    mistakes = {
        match: _("Das ist nur die Chance auf einen Treffer. Auch jede andere Tempelsorte bringt dir "
                 "die {name}.").format(name=name),
        1 - row.chances.get(PLANT, Fraction(0)): _("Vorsicht Schlange: Eine aufgedeckte Schlangenbohne "
                                                   "kostet dich den Stapel, auch wenn Schlangen im Tempel liegen."),
    }
    parts = " + ".join(f"{n} {variety_word(find_variety(v), n)}" for v, n in good.items())
    return dict(
        prompt=_("Du wünschst dir die {name} aus dem Tempel. Wie wahrscheinlich bekommst du den "
                 "Stapel?").format(name=name),
        answer=row.success, tolerance=0.005, probability=True,
        hint=_("Zähle die Karten im Nachziehstapel, die dir den Stapel bringen: deine Sorte und jede "
               "andere Sorte aus dem Tempel – außer den Schlangen."),
        mistakes=mistakes,
        solution=_("Gut sind {parts} = {good} von {total} Bohnenkarten: {good}/{total} ≈ {chance}. Im Mittel "
                   "bekommt dein Abenteurer {beans} Bohnen.").format(
            parts=parts, good=sum(good.values()), total=total, chance=percent(row.success),
            beans=number(row.expected_beans, 2)),
    )


# ---- the user's own meters --------------------------------------------------------------------
def example_meters() -> str:
    """The text the meter box starts with: the assumed values, one line per new variety
    (named by its German name; in another language by its key, ``snake``)."""
    r = find_ruleset(RULESET)
    def toml(meter: tuple[int, ...]) -> str:
        return "[" + ", ".join(str(n) if n else '"–"' for n in meter) + "]"

    german = current().is_source
    lines = [f"{find_variety(v).de if german else v} = {toml(r.meter_for(v, None) or ())}" for v in new_varieties(r)]
    head = _("# Trage hier die Zahlen von deinen Karten ein: wie viele Karten du\n# für 1, 2, 3 und 4 Taler "
             "brauchst. Nicht aufgedruckte Stufe: 0 oder \"–\".\n# Eine Zeile, die du weglässt, bleibt angenommen.")
    return head + "\n\n" + "\n".join(lines) + "\n"


def ruleset_from_text(text: str, ruleset: str | RuleSet = RULESET) -> RuleSet:
    """``ruleset`` with the meters of ``text`` read as a meter file (``load_ruleset_with_meters``);
    a ``MeterFileError`` names „deine Werte“ instead of a temporary path."""
    from bohnteach.game.rulesets import MeterFileError

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / _("meine_karten.toml")  # the name the docs use for one's own meter file
        path.write_text(text, encoding="utf-8")
        try:
            return load_ruleset_with_meters(ruleset, path)
        except MeterFileError as error:
            raise MeterFileError(_("deine Werte"), error.key, error.reason) from None


class OwnMeters:
    """The meter box of the chapter: text → „Werte übernehmen“ → the cards table with the
    user's values, or an error box (file key and reason). ``widget`` is the VBox; its words in
    the reader's language (``lang``, else the page's), its callbacks too."""

    def __init__(self, text: str | None = None, lang: str | Translator | None = None):
        import ipywidgets as widgets

        from bohnteach.widgets.parts import html, layout

        self.tr = tr = reader(lang)
        self.rules: RuleSet = find_ruleset(RULESET)
        with speaking(tr):
            self.example = example_meters()
        self.text = widgets.Textarea(value=text or self.example, rows=7, layout=layout(width="100%"))
        self.apply_button = widgets.Button(description=tr.gettext("Werte übernehmen"), button_style="primary",
                                           layout=layout(width="auto"))
        self.reset_button = widgets.Button(description=tr.gettext("Zurück zur Annahme"), layout=layout(width="auto"))
        self.message = html()
        self.cards = html()
        self.widget = widgets.VBox(
            [html(tr.gettext("<b>Deine Werte</b> (je Sorte eine Zeile, z. B. "
                             "<code>Schlangenbohne = [4, 7, 9, 11]</code>):")),
             self.text, widgets.HBox([self.apply_button, self.reset_button], layout=layout(flex_flow="row wrap")),
             self.message, self.cards],
            layout=layout(width="100%", max_width="1000px"), _dom_classes=("bt-indy-own",),
        )
        failed = guard(self.message, tr.gettext("Eigene Indiana-Werte"), title=tr.gettext("Das hat nicht geklappt"))
        self.apply_button.on_click(failed(lambda _b: self.apply()))
        self.reset_button.on_click(failed(lambda _b: self.reset()))

    def apply(self) -> RuleSet:
        """Read the text; on success show the cards table with the new values."""
        with speaking(self.tr):
            return self._apply()

    def _apply(self) -> RuleSet:
        from bohnteach.game.rulesets import MeterFileError
        from bohnteach.render.table import render_error, render_info

        try:
            self.rules = ruleset_from_text(self.text.value)
        except MeterFileError as error:
            self.message.value = render_error(str(error), title=_("Diese Werte kann bohnteach nicht lesen"))
            return self.rules
        still = still_assumed(self.rules) + "." if self.rules.meter_assumption else (
            _("nichts mehr – alle Werte sind deine."))
        self.message.value = render_info(_("Übernommen"), _("Die Tabelle rechnet jetzt mit deinen Werten. "
                                                            "Weiterhin angenommen: {still}").format(still=still))
        self.cards.value = cards_html(self.rules)
        return self.rules

    def reset(self) -> None:
        self.rules = find_ruleset(RULESET)
        self.text.value = self.example
        self.message.value = ""
        self.cards.value = ""


# ---- Auslegungen and rules -------------------------------------------------------------------
def rule_ids() -> list[str]:
    """Every ``indy.*`` rule, in catalogue order."""
    return [r for r in rule_catalogue() if r.startswith("indy.")]


@guard()
def show(part: str, lang: str | Translator | None = None) -> Any:
    """The object the notebook displays for ``part`` (see the module docstring), in the
    reader's language (``lang``, else the page's)."""
    from bohnteach.widgets.figure import HTML

    tr = reader(lang)
    return show_part({
        "karten": lambda: HTML(cards_html()),
        "tempelgang": lambda: chart_output(tr),
        "frage": lambda: question(tr),
        "auslegungen": lambda: HTML(interpretations_html(rule_ids(), find_ruleset(RULESET), "indy.meters")),
        "eigene_werte": lambda: OwnMeters(lang=tr).widget,
    }, part, tr)


__all__ = ["OwnMeters", "cards_html", "example_meters", "ruleset_from_text", "chance_rows", "chance_table", "chart_output", "rule_ids",
           "new_varieties", "question", "show", "temple_html"]
