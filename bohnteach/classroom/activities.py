"""The class activities: what a pupil may submit, and the German words around it.

Two kinds:

* ``schaetzung`` (predict, then reveal): every pupil commits an estimate (a probability in
  percent, or a count) before the teacher reveals the exact value;
* ``experiment`` (pooled): every pupil runs their own simulation and submits hits out of
  trials; the class total (all hits / all trials) settles near the exact value.

The exact values are computed by the lessons (:mod:`bohnteach.lessons`), not written here.
Titles and prompts are German, marked for the ``classroom`` catalogue; the panel shows them
in its reader's language.
"""
from __future__ import annotations

from dataclasses import dataclass

from bohnteach.i18n import N_


@dataclass(frozen=True)
class Activity:
    """One activity of a lesson. ``low``/``high`` bound an estimate (in ``unit``); an
    experiment's submission is hits out of at most ``max_trials`` trials."""

    key: str
    lesson: str
    kind: str  # "schaetzung" | "experiment"
    title: str
    prompt: str
    unit: str = "%"
    low: float = 0.0
    high: float = 100.0
    max_trials: int = 0
    fact: str = ""
    """The lesson fact (:mod:`bohnteach.content.lesson_facts`) holding the exact value."""
    variety: str = ""
    """An experiment's bean: a round reveals 2 cards and hits if one of them is this one."""


ACTIVITIES: dict[str, Activity] = {
    a.key: a
    for a in (
        Activity(
            key="01_oberste_garten",
            lesson="01_Bohnentreppe",
            kind="schaetzung",
            title=N_("Tipp: oben liegt eine Gartenbohne"),
            prompt=N_("Der Stapel ist gut gemischt. Wie wahrscheinlich ist es, dass die oberste "
                      "Karte eine Gartenbohne ist? Tippe in Prozent, bevor du rechnest."),
            fact="p_garten",
        ),
        Activity(
            key="02_garten_zwei",
            lesson="02_Zwei_Karten_aufdecken",
            kind="schaetzung",
            title=N_("Tipp: mindestens eine Gartenbohne unter 2 Karten"),
            prompt=N_("Zwei Karten werden aufgedeckt. Wie wahrscheinlich ist mindestens eine "
                      "Gartenbohne dabei? Tippe in Prozent, bevor du rechnest."),
            fact="p_garten_zwei",
        ),
        Activity(
            key="04_tipp",
            lesson="04_Rechnen_oder_simulieren",
            kind="schaetzung",
            title=N_("Tipp: mindestens eine Gartenbohne"),
            prompt=N_("Wie oft ist unter 2 aufgedeckten Karten mindestens eine Gartenbohne? "
                      "Tippe in Prozent, bevor du simulierst."),
            fact="p_garten_zwei",
        ),
        Activity(
            key="04_experiment",
            lesson="04_Rechnen_oder_simulieren",
            kind="experiment",
            title=N_("Klassenexperiment: 2 Karten ziehen"),
            prompt=N_("Ziehe selbst: Jede Runde mischt der Computer das Deck und deckt 2 "
                      "Karten auf. Schicke deine Treffer (mindestens eine Gartenbohne) an "
                      "die Klasse."),
            unit="",
            max_trials=100_000,
            fact="p_garten_zwei",
            variety="Gartenbohne",
        ),
    )
}
