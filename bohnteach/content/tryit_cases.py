"""Ready-made „Mach du!“ exercises, as data: one per phase, harvesting, trading.

Each table is written in the scene-file format (``docs/scenes.md``); ``success`` lists
expectations in the same format. The texts are our own words; the rule IDs are those of
docs/rules.md. :func:`bohnteach.widgets.tryit.make_tryit` turns a case id or a chapter key
into the widget.
"""
from __future__ import annotations

from bohnteach.content.tryit_case import TryItCase
from bohnteach.i18n import N_, _

# the base game's cases (their texts: the catalogue domain ``play``; N_: translated where shown)
BASE_CASES: tuple[TryItCase, ...] = (
    TryItCase(
        id="p1-vorderste",
        title=N_("Phase 1: Welche Karte kommt aufs Feld?"),
        chapter="phase1",
        learner="Anna",
        table="""
Regelwerk: amigo
Spieler: Anna, Ben, Clara
Am Zug: Anna
Phase: 1
Anna Hand: Feuerbohne, Blaue Bohne, Stinkbohne, Rote Bohne
Anna Feld 1: 2 Blaue Bohnen
Anna Feld 2: 2 Feuerbohnen
Anna Feld 3: Sojabohne
Ben Hand: 5 Karten
Clara Hand: 5 Karten
Offene Hände: Anna
""",
        goal=N_("Pflanze erst die Karte, die du pflanzen musst, und danach die Blaue Bohne "
                "auf ihr Feld. Probier ruhig auch aus, die Blaue Bohne zuerst zu pflanzen."),
        success=("Anna Feld 2 = 3 Feuerbohnen", "Anna Feld 1 = 3 Blaue Bohnen", "Phase = 2"),
        rule="p1.plant-front",
        learned=N_("Die vorderste Handkarte ist Pflicht, die nächste darfst du danach pflanzen – "
                   "aussuchen kannst du dir nichts."),
        hints=(
            N_("Die Karte ganz vorne in deiner Hand ist die Feuerbohne."),
            N_("Wähle keine Karte (oder die Feuerbohne) und tippe „Auf Feld 2 pflanzen“."),
            N_("Jetzt liegt die Blaue Bohne vorne: „Auf Feld 1 pflanzen“."),
        ),
    ),
    TryItCase(
        id="p2-aufgedeckt-loswerden",
        title=N_("Phase 2: Aufgedeckte Karten loswerden"),
        chapter="phase2",
        learner="Anna",
        table="""
Regelwerk: amigo
Spieler: Anna, Ben, Clara, David
Am Zug: Anna
Phase: 2
Gepflanzt: 1
Anna Hand: Augenbohne, Brechbohne, Stinkbohne
Anna Feld 1: 3 Sojabohnen
Anna Feld 2: 2 Feuerbohnen
Ben Feld 1: 3 Blaue Bohnen
Ben Hand: Sojabohne, Brechbohne, Augenbohne
Clara Feld 1: 2 Rote Bohnen
Clara Hand: Gartenbohne, Stinkbohne
David Hand: Feuerbohne, Stinkbohne, Brechbohne
Aufgedeckt: Blaue Bohne, Rote Bohne
""",
        goal=N_("Du hast eine Blaue und eine Rote Bohne aufgedeckt. Keine passt auf deine "
                "Felder. Werde beide los – durch Tausch oder als Geschenk –, bevor du den Handel "
                "beendest."),
        success=("Aufgedeckt = leer", "Angebot = keins"),
        rule="trade.gift",
        learned=N_("Die aufgedeckten Karten gehören dir: Du darfst sie tauschen oder "
                   "verschenken, wenn die andere Person einverstanden ist."),
        hints=(
            N_("Wer sammelt Blaue Bohnen, wer Rote Bohnen? Schau auf die Felder der anderen."),
            N_("Wähle „aufgedeckt: Blaue Bohne“, dann „Handeln mit: Ben“ und „Anbieten / schenken“."),
            N_("Die Rote Bohne will Clara haben."),
        ),
        answers={"Ben": "wenn: Blaue Bohne", "Clara": "wenn: Rote Bohne", "David": "nein"},
    ),
    TryItCase(
        id="handel-tausch",
        title=N_("Handeln: Blau gegen Soja"),
        chapter="phase2",
        learner="Anna",
        table="""
Regelwerk: amigo
Spieler: Anna, Ben, Clara, David
Am Zug: Anna
Phase: 2
Gepflanzt: 2
Anna Hand: Feuerbohne, Brechbohne, Augenbohne
Anna Feld 1: 2 Sojabohnen
Anna Feld 2: 3 Rote Bohnen
Ben Hand: Augenbohne, Feuerbohne
Ben Feld 1: Stinkbohne
Clara Hand: Sojabohne, Stinkbohne, Brechbohne
Clara Feld 1: 2 Blaue Bohnen
David Hand: Gartenbohne, Feuerbohne, Feuerbohne
Aufgedeckt: Blaue Bohne, Rote Bohne
""",
        goal=N_("Die Rote Bohne passt zu dir, die Blaue nicht. Clara sammelt Blaue Bohnen, und "
                "du sammelst Sojabohnen. Frag Clara, ob sie dir eine Sojabohne für deine Blaue "
                "gibt!"),
        success=("Anna quer = Sojabohne", "Clara quer = Blaue Bohne"),
        rule="trade.set-aside",
        learned=N_("Getauschte Karten kommen quer neben die Felder und werden in Phase 3 "
                   "gepflanzt – nie auf die Hand."),
        hints=(
            N_("Wähle deine aufgedeckte Blaue Bohne und „Handeln mit: Clara“."),
            N_("Claras Hand siehst du nicht – frag nach „eine Sojabohne“ und tippe „Anbieten“."),
            N_("Eine Karte vom Feld kannst du nie anbieten – probier es ruhig aus."),
        ),
        answers={"Clara": "wenn: Blaue Bohne", "Ben": "nein", "David": "nein"},
    ),
    TryItCase(
        id="p3-alles-pflanzen",
        title=N_("Phase 3: Alles Erhaltene pflanzen"),
        chapter="phase3",
        learner="Anna",
        table="""
Regelwerk: amigo
Spieler: Anna, Ben, Clara
Am Zug: Anna
Phase: 3
Gepflanzt: 2
Anna Hand: Blaue Bohne, Gartenbohne
Anna Feld 1: 2 Sojabohnen
Anna Feld 2: 3 Rote Bohnen
Anna Feld 3: leer
Anna quer: Sojabohne, Augenbohne
Aufgedeckt: Rote Bohne
Ben Hand: 4 Karten
Ben Feld 1: 2 Brechbohnen
Ben quer: Brechbohne
Clara Hand: 5 Karten
""",
        goal=N_("Der Handel ist vorbei. Pflanze alle Karten, die quer neben deinen Feldern "
                "liegen, und die übrig gebliebene aufgedeckte Karte. Die Reihenfolge darfst du "
                "dir aussuchen."),
        success=("Anna quer = leer", "Aufgedeckt = leer", "Anna Feld 1 = 3 Sojabohnen",
                 "Anna Feld 2 = 4 Rote Bohnen", "Anna Feld 3 = Augenbohne"),
        rule="p3.plant-all",
        learned=N_("In Phase 3 kommt alles Erhaltene und jede übrige aufgedeckte Karte aufs "
                   "Feld; Handkarten bleiben auf der Hand."),
        hints=(
            N_("Wähle eine quer liegende oder die aufgedeckte Karte und das passende Feld."),
            N_("Die Augenbohne passt nur aufs leere Feld 3."),
            N_("Deine Handkarten darfst du jetzt nicht pflanzen – probier es aus."),
        ),
    ),
    TryItCase(
        id="p4-nachziehen",
        title=N_("Phase 4: Nachziehen"),
        chapter="phase4",
        learner="Anna",
        table="""
Regelwerk: amigo
Spieler: Anna, Ben, Clara
Am Zug: Anna
Phase: 4
Gepflanzt: 2
Anna Hand: Brechbohne, Stinkbohne
Anna Feld 1: 3 Sojabohnen
Anna Feld 2: 2 Rote Bohnen
Ben Hand: 5 Karten
Clara Hand: 5 Karten
Stapel: Blaue Bohne, Gartenbohne, Feuerbohne, Augenbohne
Offene Hände: Anna
""",
        goal=N_("Dein Zug ist fast vorbei. Zieh nach und schau, wohin die neuen Karten kommen."),
        success=("Anna Hand = Brechbohne, Stinkbohne, Blaue Bohne, Gartenbohne, Feuerbohne",
                 "Am Zug = Ben"),
        rule="p4.draw-three",
        learned=N_("Du ziehst drei Karten, eine nach der anderen, und steckst sie hinten in die "
                   "Hand. Dann ist die nächste Person dran."),
        hints=(
            N_("Jetzt ist Phase 4: Es gibt nur noch eins zu tun."),
            N_("Tippe „Nachziehen“. Umsortieren ist nie erlaubt – probier es aus."),
        ),
    ),
    TryItCase(
        id="ernte-bohnenschutz",
        title=N_("Ernten und die Bohnenschutzregel"),
        chapter="ernte",
        learner="Anna",
        table="""
Regelwerk: amigo
Spieler: Anna, Ben, Clara, David
Am Zug: Anna
Phase: 1
Anna Hand: Sojabohne, Brechbohne, Augenbohne
Anna Feld 1: Gartenbohne
Anna Feld 2: 4 Blaue Bohnen
Ben Hand: 5 Karten
Clara Hand: 5 Karten
David Hand: 5 Karten
Offene Hände: Anna
""",
        goal=N_("Vorne in deiner Hand liegt eine Sojabohne, aber beide Felder sind belegt. "
                "Mach Platz und pflanze sie."),
        success=("Anna Feld 2 = Sojabohne", "Anna Taler = 1"),
        rule="harvest.protection",
        learned=N_("Ein Feld mit nur einer Bohne ist geschützt, solange ein anderes Feld mehr "
                   "als eine Bohne hat (Bohnenschutzregel)."),
        hints=(
            N_("Du musst zuerst ein Feld abernten."),
            N_("Die einzelne Gartenbohne ist geschützt: Feld 2 hat mehr als eine Bohne."),
            N_("Ernte Feld 2 (4 Blaue Bohnen bringen 1 Taler), dann „Auf Feld 2 pflanzen“."),
        ),
    ),
)

from bohnteach.game.edition import all_editions  # noqa: E402

# the editions' cases (``View.tryit_cases``: data, in each edition's ``cases.py``)
CASES: tuple[TryItCase, ...] = BASE_CASES + tuple(
    TryItCase(**data) for ed in all_editions() for data in ed.view.tryit_cases)


def list_cases(chapter: str | None = None) -> list[TryItCase]:
    """All cases, or those of one chapter key (``phase1`` … ``ernte``, an edition's chapter)."""
    return [c for c in CASES if chapter is None or c.chapter == chapter]


def get_case(case_id: str) -> TryItCase:
    for case in CASES:
        if case.id == case_id:
            return case
    raise KeyError(_("Keine Übung {case!r}. Bekannt: {known}").format(
        case=case_id, known=", ".join(c.id for c in CASES)))


__all__ = ["BASE_CASES", "CASES", "TryItCase", "get_case", "list_cases"]
