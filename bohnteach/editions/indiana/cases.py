"""„Mach du!“ exercises for Indiana Bohnes (seed 004), as plain data (``Indiana.tryit_cases``).

Each entry holds the fields of ``content.tryit_case.TryItCase``; ``content/tryit_cases.py``
builds the cases of every registered edition from them (an edition imports no widget).
The buttons of the edition's own actions come from ``Indiana.try_moves``: every temple
stack and the tempting wrong moves too, which the engine refuses with their rule.

* ``indy-tempelgang`` – which stack to wish for (indy.visit; the chart above it).
* ``indy-traeger`` – lay the carrier and still plant two beans (indy.carrier).
* ``indy-blockade`` – snakes block the adventurer: only more snakes free him
  (indy.blockade).

The texts are our own words; the rule IDs are those of docs/rules.md. All use the
assumed meters of the two new varieties (``RuleSet.meter_assumption``).
"""
from __future__ import annotations

from typing import Any

from bohnteach.i18n import N_

_VISIT_TABLE = """
Regelwerk: indiana
Spieler: Anna, Ben, Clara, David
Startspieler: Anna
Phase: 2
Gepflanzt: 1
Anna Hand: Brechbohne, Rote Bohne, Augenbohne
Anna Feld 1: 3 Augenbohnen
Anna Feld 2: 2 Gartenbohnen
Ben Hand: 5 Karten
Clara Hand: 5 Karten
David Hand: 5 Karten
Aufgedeckt: Brechbohne, Augenbohne
Bohnentempel, Stelle 1: 3 Sojabohnen
Bohnentempel, Stelle 2: 2 Schlangenbohnen
Bohnentempel, Stelle 3: Blaue Bohne
Bohnentempel, Stelle 4: 4 Feuerbohnen
Vorrat (Weg- und Trägerkarten): 5 Wegkarten, 5 Trägerkarten, Sabohntagekarte
Stapel: Sojabohne, Rote Bohne
Offene Hände: Anna
"""

CASES: tuple[dict[str, Any], ...] = (
    dict(
        id="indy-tempelgang",
        title=N_("Indiana Bohnes: Welchen Stapel holst du?"),
        chapter="indiana",
        learner="Anna",
        table=_VISIT_TABLE,
        goal=N_("Dein Abenteurer ist leer. Geh zum Tempel und hol den Stapel, der am meisten "
                "Bohnen verspricht. Die oberste Karte des Nachziehstapels siehst du vorher nicht."),
        success=("Anna Abenteurer = 4 Feuerbohnen",),
        rule="indy.visit",
        learned=N_("Ob du einen Stapel bekommst, hängt nur davon ab, ob die aufgedeckte Karte eine "
                   "Tempelsorte ist (und keine Schlange) – für jeden Stapel gleich. Wähle darum den "
                   "größten: Er bringt im Mittel die meisten Bohnen."),
        hints=(
            N_("Schau ins Diagramm oben: Der Anteil „kein Stapel“ ist bei Soja, Blau und Feuer gleich."),
            N_("Gleich große Chance, aber verschieden große Stapel – welcher ist der größte?"),
            N_("Tippe „geht zum Tempel (Feuerbohne)“."),
        ),
    ),
    dict(
        id="indy-traeger",
        title=N_("Indiana Bohnes: Die Trägerkarte auslegen"),
        chapter="indiana",
        learner="Anna",
        table="""
Regelwerk: indiana
Spieler: Anna, Ben, Clara, David
Startspieler: Anna
Am Zug: David
Phase: 4
Gepflanzt: 2
Anna Hand: Feuerbohne
Anna Taler: 4
Anna Feld 1: 2 Feuerbohnen
Anna Feld 2: Sojabohne
Ben Hand: 5 Karten
Clara Hand: 5 Karten
David Hand: 5 Karten
Bohnentempel, Stelle 1: 3 Blaue Bohnen
Bohnentempel, Stelle 2: 2 Stinkbohnen
Bohnentempel, Stelle 3: Brechbohne
Bohnentempel, Stelle 4: 2 Gartenbohnen
Vorrat (Weg- und Trägerkarten): 5 Wegkarten, 5 Trägerkarten, Sabohntagekarte
Stapel: Augenbohne, Sojabohne, Buschbohne, Augenbohne
Offene Hände: Anna
Schritt: Anna kauft eine Trägerkarte
Schritt: David zieht nach
""",
        goal=N_("Während Davids Zug hast du eine Trägerkarte gekauft; sie steckt hinter deiner "
                "Feuerbohne, an Stelle 2. Jetzt bist du dran: Lege die Trägerkarte über deinen "
                "Abenteurer und pflanze trotzdem beide Bohnen, Feuer- und Sojabohne."),
        success=("Anna Trägerkarte über dem Abenteurer = Trägerkarte", "Anna Feld 1 = 3 Feuerbohnen",
                 "Anna Feld 2 = 2 Sojabohnen"),
        rule="indy.carrier",
        learned=N_("Steht die Trägerkarte zu Beginn deines Zuges an Stelle 1 oder 2, darfst du sie "
                   "ablegen. Sie zählt nicht als gepflanzte Karte: Zwei Bohnen darfst du trotzdem "
                   "pflanzen."),
        hints=(
            N_("Die vorderste Karte ist die Feuerbohne – sie muss zuerst aufs Feld."),
            N_("Die Trägerkarte legst du mit „legt die Trägerkarte ab“ aus."),
            N_("Danach steckt die Sojabohne vorne: „Auf Feld 2 pflanzen“."),
        ),
    ),
    dict(
        id="indy-blockade",
        title=N_("Indiana Bohnes: Die Schlangen müssen weg"),
        chapter="indiana",
        learner="Anna",
        table="""
Regelwerk: indiana
Spieler: Anna, Ben, Clara, David
Startspieler: Anna
Phase: 2
Gepflanzt: 1
Anna Hand: Brechbohne, Rote Bohne
Anna Feld 1: 3 Augenbohnen
Ben Hand: 5 Karten
Clara Hand: 5 Karten
David Hand: 5 Karten
Aufgedeckt: Brechbohne, Augenbohne
Vorrat (Weg- und Trägerkarten): 5 Wegkarten, 5 Trägerkarten, Sabohntagekarte
Anna Abenteurer: 3 Sojabohnen, 2 Schlangenbohnen
Bohnentempel, Stelle 1: 2 Sojabohnen
Bohnentempel, Stelle 2: 2 Schlangenbohnen
Bohnentempel, Stelle 3: 2 Stinkbohnen
Bohnentempel, Stelle 4: 2 Feuerbohnen
Stapel: Stinkbohne, Rote Bohne
Offene Hände: Anna
""",
        goal=N_("Zwei Schlangenbohnen liegen quer über den drei Sojabohnen deines Abenteurers. "
                "Im Tempel locken zwei weitere Sojabohnen. Verkaufe deinen Abenteurer – "
                "probier ruhig zuerst, die Sojabohnen zu holen."),
        success=("Anna Abenteurer = leer", "Anna Taler = 2"),
        rule="indy.blockade",
        learned=N_("Solange die Schlangen beim Verkauf keinen Taler brächten, holt der blockierte "
                   "Abenteurer nur Schlangenbohnen aus dem Tempel und verkauft nichts. Erst genug "
                   "Schlangen lösen die Blockade."),
        hints=(
            N_("Welche Bohnen darf ein blockierter Abenteurer noch holen?"),
            N_("Wünsch dir die Schlangenbohnen aus dem Tempel."),
            N_("Vier Schlangen bringen einen Taler: Jetzt „verkauft den Abenteurer“."),
        ),
    ),
)

__all__ = ["CASES"]
