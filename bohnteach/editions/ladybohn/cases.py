"""„Mach du!“ exercises for Ladybohn (seed 003), as plain data (``Ladybohn.tryit_cases``).

Each entry holds the fields of ``content.tryit_case.TryItCase``; ``content/tryit_cases.py``
builds the cases of every registered edition from them (an edition imports no widget).

* ``lady-lift`` – plant a baby and choose which female moves up and how far
  (``lady.baby-lift``): TryIt offers every (female, places) as its own button.
* ``lady-baby-handel`` – a baby received in a deal must be planted at once; a harvest
  first is refused (``lady.baby-trade-immediate``).

The texts are our own words; the rule IDs are those of docs/rules.md. Both use the
assumed Ladybohn meters (``RuleSet.meter_assumption``), which the table shows.
"""
from __future__ import annotations

from typing import Any

from bohnteach.i18n import N_

CASES: tuple[dict[str, Any], ...] = (
    dict(
        id="lady-lift",
        title=N_("Ladybohn: Das Baby schiebt – aber welches Weibchen?"),
        chapter="ladybohn",
        learner="Anna",
        table="""
Regelwerk: ladybohn
Spieler: Anna, Ben, Clara, David
Am Zug: Anna
Phase: 1
Anna Hand: Blaue Bohne (Baby), Rote Bohne, Stinkbohne
Anna Feld 1: Blaue Bohne (w), Blaue Bohne (m), Blaue Bohne (m), Blaue Bohne (w), Blaue Bohne (m)
Anna Feld 2: 2 Augenbohnen
Ben Hand: 5 Karten
Clara Hand: 5 Karten
David Hand: 5 Karten
Offene Hände: Anna
""",
        goal=N_("Vorne in deiner Hand steckt eine Blaue Babybohne. Auf Feld 1 liegen fünf Blaue "
                "Bohnen, zwei davon weiblich. Pflanze das Baby so, dass Feld 1 danach möglichst "
                "viele Taler bringt. Du entscheidest, welche weibliche Bohne wie weit nach oben "
                "rückt."),
        success=("Anna Feld 1 = 6 Blaue Bohnen", "Anna Feld 1 Ertrag = 2"),
        rule="lady.baby-lift",
        learned=N_("Ein Baby schiebt sofort eine weibliche Bohne desselben Feldes um einen oder "
                   "zwei Plätze nach oben. Landet sie ganz oben, zählt ihr besseres Bohnometer; "
                   "bleibt das Baby oben, bringt das Feld nichts."),
        hints=(
            N_("Es zählt immer das Bohnometer der obersten Karte. Ein Baby oben bringt 0 Taler."),
            N_("Das Baby kommt oben drauf. Welche weibliche Bohne kann von dort aus noch über "
               "das Baby kommen – höchstens zwei Plätze weit?"),
            N_("Die obere weibliche Bohne (4. von unten) liegt nach dem Pflanzen zwei Plätze "
               "unter der Spitze: Schiebe sie um 2."),
        ),
    ),
    dict(
        id="lady-baby-handel",
        title=N_("Ladybohn: Ein Baby aus dem Tausch"),
        chapter="ladybohn",
        learner="Anna",
        table="""
Regelwerk: ladybohn
Spieler: Anna, Ben, Clara, David
Am Zug: Anna
Phase: 2
Gepflanzt: 1
Anna Hand: Brechbohne, Augenbohne
Anna Feld 1: Feuerbohne (m), Feuerbohne (w), Feuerbohne (m)
Anna Feld 2: 2 Stinkbohnen
Ben Hand: Feuerbohne (Baby), Brechbohne
Ben Feld 1: 2 Blaue Bohnen
Clara Hand: 4 Karten
David Hand: 4 Karten
Aufgedeckt: Blaue Bohne, Stinkbohne
Offene Hände: Anna
""",
        goal=N_("Ben sammelt Blaue Bohnen und hat eine Feuerbohne auf der Hand – welche, sagt er "
                "nicht. Tausche deine aufgedeckte Blaue Bohne gegen seine Feuerbohne. Danach: "
                "Was musst du sofort tun? Probier ruhig, vorher noch Feld 1 abzuernten."),
        success=("Anna Feld 1 = 4 Feuerbohnen", "Anna Feld 1 Ertrag = 1", "Angebot = keins"),
        rule="lady.baby-trade-immediate",
        learned=N_("Eine eingetauschte Babybohne, deren Sorte auf deinem Feld wächst, pflanzt du "
                   "sofort – ohne vorher zu ernten. Dabei schiebt sie wie jedes Baby ein Weibchen "
                   "hoch."),
        hints=(
            N_("Wähle „aufgedeckt: Blaue Bohne“, dann „Handeln mit: Ben“, Bens Feuerbohne und "
               "„Anbieten“."),
            N_("Bens Feuerbohne ist ein Baby. Es wartet jetzt bei dir unter „Sofort pflanzen“."),
            N_("Schiebe die weibliche Feuerbohne so weit hoch, dass sie über dem Baby liegt."),
        ),
        answers={"Ben": "wenn: Blaue Bohne", "Clara": "nein", "David": "nein"},
    ),
)

__all__ = ["CASES"]
