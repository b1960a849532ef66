"""The site chapter "Bohnometer" (``notebooks/12_Bohnometer.ipynb``): widget code.

    from bohnteach.site import bohnometer_page as chapter
    chapter.overview()  # all curves of the base game (a plain cell output)
    chapter.curves()    # variety picker → Bohnometer curves (a go.Figure in an Output)
    chapter.quiz()      # "Wie viele Taler?": a random field, the learner types the coins

The picker and the quiz are ipywidgets; every callback shows failures in a visible box
(:func:`bohnteach.widgets.failure.guard`). Both speak the page's language (or ``lang=``),
their callbacks too: the words are German, marked for the ``lessons`` catalogue. Charts are plain ``go.Figure`` objects shown
with :func:`bohnteach.widgets.figure.show_figure`, never a ``FigureWidget``.

A chart may sit inside an ``Output`` anywhere on a page: the "Error displaying widget:
model not found" seen after such charts was a timing bug of ipywidgets 8.1.9 (the model
lookup gave up after 2 s while the chart was drawing); the widget versions are pinned in
pyproject.toml and checked by ``benchmarks/widget_probe.py``.
"""
from __future__ import annotations

import html
import random
from typing import Any

from ipywidgets.widgets.widget_bool import CheckboxStyle  # not exported at the top

from bohnteach.i18n import Translator, _, ngettext, reader
from bohnteach.render import charts
from bohnteach.render.language import variety_word
from bohnteach.game.beans import Variety, find_variety, meter_value
from bohnteach.widgets.failure import guard
from bohnteach.widgets.figure import show_figure
from bohnteach.widgets.parts import html as html_part, layout, speaks, style_of
from bohnteach.widgets.questions import box_html, check_number
from bohnteach.game.rulesets import find_ruleset, ruleset_names

DEFAULT_RULESET = "amigo"
DEFAULT_CHOICE = ("Blaue Bohne", "Stinkbohne", "Gartenbohne")


def meter_text(v: Variety, meter: tuple[int, ...] | None = None) -> str:
    """``"4 → 1 · 6 → 2 · 8 → 3 · 10 → 4"`` (cards → Taler)."""
    meter = meter or v.meter
    return " · ".join(f"{need} → {coins}" for coins, need in enumerate(meter, 1) if need)


class CurvePicker:
    """Tick varieties (and pick a rule set) → the Bohnometer curves are drawn anew."""

    def __init__(self, ruleset: str = DEFAULT_RULESET, chosen: tuple[str, ...] = DEFAULT_CHOICE,
                 lang: str | Translator | None = None):
        self.tr = reader(lang)
        self._build(ruleset, chosen)

    @speaks
    def _build(self, ruleset: str, chosen: tuple[str, ...]) -> None:
        import ipywidgets as w

        self._w = w
        names = ruleset_names()
        self.ruleset = w.Dropdown(
            options=[(charts.short_title(n), n) for n in names], value=ruleset,
            description=_("Regelwerk:"), style={"description_width": "initial"},
            layout=layout(width="380px"),
        )
        self.boxes_area = w.Box(layout=layout(flex_flow="row wrap"))
        self.all_button = w.Button(description=_("alle"), layout=layout(width="auto"))
        self.none_button = w.Button(description=_("keine"), layout=layout(width="auto"))
        self.message = html_part()
        self.output = w.Output(layout=layout(min_height="460px"))
        self.boxes: dict[str, Any] = {}
        self.widget = w.VBox([
            self.ruleset,
            html_part("<b>" + _("Welche Sorten willst du vergleichen?") + "</b>"),
            self.boxes_area,
            w.HBox([html_part(_("Auswahl:")), self.all_button, self.none_button],
                   layout=layout(align_items="center")),
            self.message, self.output,
        ], _dom_classes=("bt-curves",))
        self._quiet = False
        draw = guard(self.message, lang=self.tr)(self.draw)
        self._draw = draw
        self.ruleset.observe(guard(self.message, lang=self.tr)(lambda _c: self._rebuild()), "value")
        self.all_button.on_click(guard(self.message, lang=self.tr)(lambda _b: self._set_all(True)))
        self.none_button.on_click(guard(self.message, lang=self.tr)(lambda _b: self._set_all(False)))
        self._rebuild(chosen)

    # the checkboxes belong to the rule set: rebuild them when it changes
    @speaks
    def _rebuild(self, chosen: tuple[str, ...] | None = None) -> None:
        w = self._w
        rules = find_ruleset(self.ruleset.value)
        previous = {key for key, box in self.boxes.items() if box.value}
        wanted = ({find_variety(n).key for n in chosen} if chosen is not None else previous)
        self.boxes = {}
        for key in rules.varieties:
            v = find_variety(key)
            box = w.Checkbox(value=key in wanted, description=variety_word(v), indent=False,
                             layout=layout(width="auto", margin="0 12px 0 0"),
                             style=style_of(CheckboxStyle))
            box.observe(lambda _c: self._draw(), "value")
            self.boxes[key] = box
        self.boxes_area.children = tuple(self.boxes.values())
        self.draw()

    def _set_all(self, on: bool) -> None:
        self._quiet = True
        try:
            for box in self.boxes.values():
                box.value = on
        finally:
            self._quiet = False
        self.draw()

    @property
    def chosen(self) -> list[str]:
        return [key for key, box in self.boxes.items() if box.value]

    @speaks
    def draw(self) -> None:
        if self._quiet:
            return
        chosen = self.chosen
        if not chosen:
            self.message.value = box_html("info", _("Wähle mindestens eine Sorte aus."))
            with self.output:
                self.output.clear_output()
            return
        self.message.value = ""
        show_figure(charts.bohnometer_chart(chosen, self.ruleset.value), self.output)

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)


def field_html(v: Variety, n: int) -> str:
    """A field of ``n`` cards of ``v`` drawn as a fanned stack, with the count written (in
    the current reader's words)."""
    from bohnteach.render.style import text_colour

    fg = text_colour(v.colour)
    cards = "".join(
        f'<div style="width:46px;height:64px;margin-left:{0 if i == 0 else -30}px;'
        f'border:2px solid #222;border-radius:6px;background:{v.colour};'
        f'box-shadow:1px 1px 2px rgba(0,0,0,.3)"></div>'
        for i in range(n)
    )
    meter = _("Bohnometer:")
    cards_to_coins = _("(Karten → Taler)")
    return (
        '<div style="display:flex;align-items:center;gap:14px;flex-wrap:wrap;margin:6px 0">'
        f'<div style="display:flex" role="img" aria-label="{n} {html.escape(variety_word(v, n))}">{cards}</div>'
        f'<div style="font-size:16px"><b>{n} × {html.escape(variety_word(v))}</b><br>'
        f'<span style="display:inline-block;margin-top:4px;padding:2px 8px;border-radius:4px;'
        f'background:{v.colour};color:{fg};font-size:13px">{meter} '
        f'{html.escape(meter_text(v))}</span>'
        f'<br><span style="color:#555;font-size:12.5px">{cards_to_coins}</span></div></div>'
    )


class CoinQuiz:
    """"Wie viele Taler?" – a random field; the learner types the coins; checked with
    ``harvest_value``. Counts right answers; "Neue Aufgabe" deals another field."""

    def __init__(self, ruleset: str = DEFAULT_RULESET, seed: int | None = None,
                 lang: str | Translator | None = None):
        self.tr = reader(lang)
        self._build(ruleset, seed)

    @speaks
    def _build(self, ruleset: str, seed: int | None) -> None:
        import ipywidgets as w

        self.rules = find_ruleset(ruleset)
        self.rng = random.Random(seed)
        self.field = html_part()
        self.text = w.Text(placeholder=_("Taler"), continuous_update=False,
                           layout=layout(width="120px"))
        self.button = w.Button(description=_("Prüfen"), button_style="primary",
                               layout=layout(width="auto"))
        self.next_button = w.Button(description=_("Neue Aufgabe"), layout=layout(width="auto"))
        self.feedback = html_part()
        self.score_label = html_part()
        self.right = self.asked = 0
        self.widget = w.VBox([
            self.field,
            w.HBox([html_part(_("Wie viele Taler bringt dieses Feld beim Ernten?") + "&nbsp;"),
                    self.text, self.button, self.next_button],
                   layout=layout(align_items="center", flex_flow="row wrap")),
            self.feedback, self.score_label,
        ], layout=layout(border="1px solid #c8c8c8", padding="10px 14px", max_width="860px"),
            _dom_classes=("bt-quiz",))
        check = guard(self.feedback, lang=self.tr)(self._check)
        self.button.on_click(lambda _b: check())
        self.text.observe(lambda c: check() if c["new"].strip() else None, "value")
        self.next_button.on_click(guard(self.feedback, lang=self.tr)(lambda _b: self.new_task()))
        self.new_task()

    @speaks
    def new_task(self, variety: str | None = None, cards: int | None = None) -> None:
        """Deal a new field (random unless ``variety`` and ``cards`` are given)."""
        keys = list(self.rules.varieties)
        v = find_variety(variety) if variety else find_variety(self.rng.choice(keys))
        top = max(v.meter) + 1
        n = cards if cards is not None else self.rng.randint(1, top)
        if n < 1:
            raise ValueError(_("Ein Feld hat mindestens eine Karte."))
        self.variety, self.cards = v, n
        self.answer = meter_value(v.meter, n)
        self.attempts = 0
        self.done = False
        self._counted = False
        self._checked: str | None = None
        self.field.value = field_html(v, n)
        self.text.value = ""
        self.feedback.value = ""

    @speaks
    def hint(self) -> str:
        v, n = self.variety, self.cards
        reached = [(coins, need) for coins, need in enumerate(v.meter, 1) if need and need <= n]
        label = html.escape(variety_word(v, n))
        if not reached:
            first = min(need for need in v.meter if need)
            return ngettext("{n} {label} erreicht noch keine Stufe – die erste Stufe braucht {first} Karten.",
                            "{n} {label} erreichen noch keine Stufe – die erste Stufe braucht {first} Karten.",
                            n).format(n=n, label=label, first=first)
        coins, need = reached[-1]
        return ngettext("Suche die höchste Stufe, die {n} Karten erreicht: „{need} → {coins}“. Karten über "
                        "die Stufe hinaus bringen nichts extra.",
                        "Suche die höchste Stufe, die {n} Karten erreichen: „{need} → {coins}“. Karten über "
                        "die Stufe hinaus bringen nichts extra.", n).format(n=n, need=need, coins=coins)

    @speaks
    def explain(self) -> str:
        """Why the answer is right (shown after a right answer)."""
        v, n = self.variety, self.cards
        reached = [(coins, need) for coins, need in enumerate(v.meter, 1) if need and need <= n]
        label = html.escape(variety_word(v, n))
        if not reached:
            return ngettext("Eine einzelne {label} bringt noch nichts.", "{n} {label} bringen noch nichts.",
                            n).format(n=n, label=label)
        coins, need = reached[-1]
        return _("{n} {label} erreichen die Stufe „{need} → {coins}“: {coins} Taler.").format(
            n=n, label=label, need=need, coins=coins)

    @speaks
    def _check(self) -> None:
        text = self.text.value
        if not text.strip():
            self.feedback.value = box_html("invalid", _("Gib zuerst eine Zahl ein."))
            return
        if text == self._checked:
            return
        self._checked = text
        fb = check_number(text, self.answer, 0, attempts=self.attempts, unit=_("Taler"))
        if fb.status == "wrong":
            self.attempts += 1
            message = fb.message if self.attempts < 2 else (
                _("Noch nicht. <b>Tipp:</b> {hint}").format(hint=self.hint()))
            self.feedback.value = box_html("wrong", message)
        elif fb.status == "correct":
            self.feedback.value = box_html("correct", _("<b>Richtig!</b> {why} Weiter mit „Neue Aufgabe“.").format(
                why=self.explain()))
        else:
            self.feedback.value = box_html("invalid", _(
                "„{typed}“ kann ich nicht lesen. Gib die Taler als ganze Zahl ein, zum Beispiel 2.").format(
                    typed=html.escape(text.strip())))
        if fb.status != "invalid" and not self.done:
            if not self._counted:
                self._counted = True
                self.asked += 1
            if fb.status == "correct":
                self.done = True
                self.right += 1
        solved = _("Gelöst: {right} von {asked} Aufgaben").format(right=self.right, asked=self.asked)
        self.score_label.value = f'<span style="color:#555">{solved}</span>'

    def submit(self, text: str) -> str:
        """Type ``text`` and press "Prüfen" (tests, demonstrations); returns the feedback HTML."""
        self.text.value = text
        self.button.click()
        return self.feedback.value

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)


def overview(ruleset: str = DEFAULT_RULESET, lang: str | Translator | None = None) -> Any:
    """All Bohnometer curves of the rule set as a plain chart (shown before the picker)."""
    return guard(what="Bohnometer-Übersicht", lang=reader(lang))(charts.bohnometer_chart)(None, ruleset)


def curves(ruleset: str = DEFAULT_RULESET, lang: str | Translator | None = None) -> Any:
    """The curve picker (shown on the page)."""
    return guard(what="Bohnometer-Kurven", lang=reader(lang))(CurvePicker)(ruleset, lang=lang)


def quiz(seed: int | None = None, lang: str | Translator | None = None) -> Any:
    """The coin quiz (shown on the page)."""
    return guard(what="Taler-Quiz", lang=reader(lang))(CoinQuiz)(seed=seed, lang=lang)


__all__ = ["CoinQuiz", "CurvePicker", "curves", "field_html", "meter_text", "overview", "quiz"]
