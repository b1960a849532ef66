"""Building blocks every edition chapter (Ladybohn, Indiana Bohnes) shares.

* ``assumption_html`` – the rule set's meter note as a visible box;
* ``interpretations_html`` – our readings (``auslegung`` in ``rules.toml``) of some rules, one
  section each with the rule, its chips and the source;
* ``chart_button`` – a plotly chart behind a button, drawn on demand, with the CSS that gives
  it its height on the Voilà page (``height_css``).

Their words are in the reader's language (``i18n.current``; ``chart_button`` keeps the
translator it was made with for its callback).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from html import escape
from typing import Any

from bohnteach.game.errors import Phrase, find_rule
from bohnteach.game.rulesets import RuleSet
from bohnteach.i18n import Translator, _, current, reader, speaking
from bohnteach.render.language import rule_words, term
from bohnteach.render.style import style_block
from bohnteach.render.table import chips
from bohnteach.widgets import figure
from bohnteach.widgets.failure import guard


INTERPRETATIONS_CSS = """<style>
.bt-ed-ausl{display:flex;flex-direction:column;gap:10px}
.bt-ed-ausl section{border:1px solid #d9d4c7;border-left:4px solid #b58900;border-radius:8px;
 padding:8px 12px;background:#fffdf6}
.bt-ed-ausl h3{margin:0 0 4px;font-size:16px}
.bt-ed-ausl p{margin:4px 0;font-size:14px}
</style>"""


def said(text: str) -> str:
    """A text of the data or an edition (a :class:`Phrase` with parameters, or plain) in
    the reader's language."""
    return term(text) if isinstance(text, Phrase) else current().gettext(text)


def still_assumed(rules: RuleSet) -> str:
    """What is still assumed after one's own values (the ``still`` of the edition's note),
    in the reader's language; "" when nothing is."""
    note = rules.meter_assumption
    if isinstance(note, Phrase) and "still" in note.params:
        return str(term(note.params["still"]))
    return ""


def assumption_note(rules: RuleSet) -> str:
    """The rule set's meter note without its leading „Annahme:“ ("" when nothing is assumed),
    in the reader's language when the catalogue has it (the rule sets' own notes)."""
    note = said(rules.meter_assumption).strip()
    for lead in ("annahme:", "assumption:"):
        if note.casefold().startswith(lead):
            note = note[len(lead):].strip()
    return note


def _data_words(text: str) -> str:
    """A text of the rule sets' data in the reader's language where the catalogue has it
    (the meter notes are the editions' data; until extracted they stay as written)."""
    tr = current()
    return tr.gettext(text) if text and tr.knows(text) else text


def assumption_html(rules: RuleSet) -> str:
    """The rule set's meter note as a visible box (a plain line when nothing is assumed)."""
    if not rules.meter_assumption:
        source = f" ({escape(said(rules.meter_source))})" if rules.meter_source else ""
        text = _("<b>Bohnometer:</b> alle Werte von deinen Karten{source}.").format(source=source)
    else:
        text = _("<b>Achtung, Annahme:</b> {note}").format(note=escape(assumption_note(rules)))
    return f'{style_block()}<div class="bt"><div class="bt-note">{text}</div></div>'


def interpretations_html(rule_ids: Iterable[str], rules: RuleSet, meter_rule: str) -> str:
    """Our readings of ``rule_ids`` (those with an ``auslegung``) and, when the rule set's
    meters are assumed, that assumption under ``meter_rule``."""
    items = []
    ours, the_rule = _("Unsere Auslegung:"), _("Die Regel:")
    for rule_id in rule_ids:
        rule = find_rule(rule_id)
        if not rule.interpretation:
            continue
        words = rule_words(rule)
        items.append(
            f'<section data-rule="{escape(rule_id)}"><h3>{escape(words.title)}</h3>'
            f"<p><b>{ours}</b> {escape(words.interpretation)}</p>"
            f'<p style="color:#5c5648"><b>{the_rule}</b> {escape(words.explanation)}</p>'
            f"{chips([rule_id], [rule.source])}</section>"
        )
    if rules.meter_assumption:
        heading, in_data = _("Die Bohnometer-Zahlen"), _("Annahme in den Daten:")
        items.append(
            f'<section data-rule="meter_assumption"><h3>{heading}</h3>'
            f"<p><b>{in_data}</b> {escape(assumption_note(rules))}</p>"
            f"{chips([meter_rule])}</section>"
        )
    return f'{INTERPRETATIONS_CSS}{style_block()}<div class="bt bt-ed-ausl">{"".join(items)}</div>'


def show_part(parts: Mapping[str, Callable[[], Any]], part: str, tr: Translator) -> Any:
    """What a chapter notebook's ``chapter.show(part)`` displays: ``parts[part]()`` (the
    name read without case or surrounding spaces), made in ``tr``'s language; an unknown
    name lists the known ones."""
    with speaking(tr):
        make = parts.get(part.strip().casefold())
        if make is None:
            raise KeyError(_("Unbekannter Teil {part!r}: {known}.").format(part=part, known=", ".join(parts)))
        return make()


def height_css(out: Any, height: int) -> str:
    """plotly.js autosizes the plot to its node, which has no height of its own inside an
    ``Output`` (the chart would be 0 px high on the Voilà page). A CSS rule for this Output
    gives the node the figure's height (the width stays fluid)."""
    name = f"bt-chart-{height}"
    out.add_class(name)
    return f"<style>.{name} .jp-RenderedPlotly{{height:{height}px;min-height:{height}px}}</style>"


def show_figure(fig: Any, out: Any, style: Any) -> None:
    """Draw the plotly ``fig`` into the ``Output`` ``out``; ``style`` (an HTML widget)
    gets the CSS that gives the chart its height."""
    style.value = height_css(out, int(fig.layout.height))
    figure.show_figure(fig, out)


def chart_button(make: Callable[[], Any], label: str, tooltip: str, what: str, css_class: str,
                 lang: str | Translator | None = None) -> Any:
    """A button that draws ``make()`` (a plotly figure with a height) when pressed (a widget:
    button, message, style, output).

    Built on demand: the first plotly chart on a page makes the browser load plotly's
    library (several MB), which would keep the page well above the opening-time target of
    ``benchmarks/site.py``. A failure shows a box and leaves the button for another try.
    ``label``, ``tooltip`` and ``what`` are shown as given; ``make`` runs in the reader's
    language (``lang``, else the page's)."""
    import ipywidgets as widgets

    from bohnteach.widgets.parts import html, layout

    # its own Layout: hidden once the chart is drawn
    button = widgets.Button(description=label, button_style="info", tooltip=tooltip,
                            layout=widgets.Layout(width="auto", align_self="flex-start"))
    message = html()
    style = html(height="0px", margin="0")
    out = widgets.Output(layout=layout(width="100%"))

    tr = reader(lang)

    @guard(message, what, title=tr.gettext("Das Diagramm ließ sich nicht zeichnen"), lang=tr)
    def draw(_button: Any) -> None:
        with speaking(tr):
            show_figure(make(), out, style)
        button.layout.display = "none"

    button.on_click(draw)
    return widgets.VBox([button, message, style, out], layout=layout(width="100%"),
                        _dom_classes=(css_class,))


__all__ = ["assumption_html", "assumption_note", "said", "still_assumed", "interpretations_html", "chart_button",
           "height_css", "show_figure", "show_part"]
