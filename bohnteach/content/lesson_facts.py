"""Every number the lessons state, computed exactly (via :mod:`bohnteach.maths.probability`).

The lesson notebooks print their numbers from here, the exercises take their answers
from here, and ``tests/test_lessons.py`` checks (a) each fact against an independent
computation and (b) that every number in a lesson's prose is one of its facts, at the
precision the prose shows – so a typo in a notebook fails a test.

    >>> from bohnteach.content.lesson_facts import facts_for
    >>> f = facts_for("02_Zwei_Karten_aufdecken")
    >>> f.p_garten_zwei.frac(), f.p_garten_zwei.dec(4), f.p_garten_zwei.pct(2)
    ('603/5356', '0,1126', '11,26 %')

A fact's ``value`` is exact (a ``Fraction``); ``about`` says in German what it is and
how it is computed (for the tests and the authors, never shown). Its text is written in
the reader's style (:mod:`bohnteach.render.numbers`): ``0.1126`` in English. In a
translated template a fact is a placeholder with its form: ``{f.p_garten_zwei:pct2}``. Deck facts are for the base game (rule set ``amigo``, 4 players).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, sqrt

from bohnteach.game.beans import find_variety, harvest_value
from bohnteach.render.numbers import localized
from bohnteach.render.words import de_number
from bohnteach.maths.probability import (
    Pile,
    coins_per_card,
    count_distribution,
    deck_counts,
    expected_count,
    expected_harvest_value,
    hypergeometric,
    marginal_value,
    meter_of,
    p_at_least_one,
    p_none,
)

RULESET = "amigo"
PLAYERS = 4
PILE = Pile(RULESET, PLAYERS)
"""The unknown pile of the lessons before any card is seen: the whole deck."""
SEED_FILE = "000_2752a7130280637f.txt"
"""The Amigo base-game rulebook (Amigo-Spielregel, letter A in data/rules.toml)."""


@dataclass(frozen=True)
class Fact:
    key: str
    value: Fraction
    about: str

    def dec(self, digits: int = 4) -> str:
        """Decimal in the reader's style, trailing zeros dropped: ``0,1126`` / ``0.1126``."""
        return localized(de_number(self.value, digits))

    def fixed(self, digits: int = 4) -> str:
        """Decimal with exactly ``digits`` decimals: ``0,50`` / ``0.50``."""
        return localized(de_number(self.value, digits, strip=False))

    def pct(self, digits: int = 1) -> str:
        """Percent: ``11,3 %`` / ``11.3%``."""
        return localized(de_number(self.value * 100, digits, strip=False) + " %")

    def frac(self) -> str:
        """``603/5356`` (reduced)."""
        v = self.value
        return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"

    def int(self) -> str:
        """A whole number with grouping: ``10.000`` / ``10,000``."""
        if self.value.denominator != 1:
            raise ValueError(f"{self.key} = {self.value} ist keine ganze Zahl.")
        return localized(de_number(self.value, 0))

    def __str__(self) -> str:
        return self.int() if self.value.denominator == 1 else self.dec()

    def __format__(self, spec: str) -> str:
        """The fact in a text template (``_("… {f.p_garten:pct1} …").format(f=facts)``):
        ``""`` as :meth:`__str__`, ``frac``, ``int``, ``dec4``, ``fixed2``, ``pct1``
        (the method and its digits)."""
        if not spec:
            return str(self)
        if spec in ("frac", "int"):
            return getattr(self, spec)()
        for name in ("dec", "fixed", "pct"):
            if spec.startswith(name) and spec[len(name):].isdigit():
                return getattr(self, name)(int(spec[len(name):]))
        raise ValueError(f"{self.key}: unbekanntes Format {spec!r}")

    def __float__(self) -> float:
        return float(self.value)


class Facts(Mapping[str, Fact]):
    """The facts of one lesson, by key; also as attributes (``facts.p_garten_zwei``)."""

    def __init__(self, lesson: str, items: dict[str, tuple[Fraction | int | float, str]]):
        self.lesson = lesson
        self._facts = {k: Fact(k, _exact(v), about) for k, (v, about) in items.items()}

    def __getitem__(self, key: str) -> Fact:
        return self._facts[key]

    def __getattr__(self, key: str) -> Fact:
        try:
            return self.__dict__["_facts"][key]
        except KeyError:
            raise AttributeError(f"{self.__dict__.get('lesson')}: keine Zahl namens {key!r}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._facts)

    def __len__(self) -> int:
        return len(self._facts)

    def values_exact(self) -> list[Fraction]:
        return [f.value for f in self._facts.values()]


def _exact(v: Fraction | int | float) -> Fraction:
    if isinstance(v, float):
        raise TypeError("Fakten sind exakt: Fraction oder int, kein float.")
    return Fraction(v)


def _sqrt_fraction(x: Fraction, digits: int = 12) -> Fraction:
    """√x as a Fraction rounded to ``digits`` decimals (for standard errors)."""
    return Fraction(round(sqrt(x) * 10**digits), 10**digits)


def _count(name: str) -> int:
    return deck_counts(RULESET, PLAYERS)[find_variety(name).key]


def _meter_facts(prefix: str, variety: str) -> dict[str, tuple[int, str]]:
    v = find_variety(variety)
    meter = meter_of(v, RULESET)
    return {
        f"{prefix}_{coins}": (need, f"{v.de}: ab {need} Karten gibt es {coins} Taler (Bohnometer)")
        for coins, need in enumerate(meter, start=1) if need
    }


# --------------------------------------------------------------------------- shared


def common() -> dict[str, tuple[Fraction | int, str]]:
    """Rule facts that every lesson may mention."""
    counts = deck_counts(RULESET, PLAYERS)
    return {
        "karten": (sum(counts.values()), "Karten im Grundspiel (setup.deck)"),
        "sorten": (len(counts), "Bohnensorten im Grundspiel"),
        "aufdecken": (2, "Karten, die in Phase 2 aufgedeckt werden (p2.reveal-two)"),
        "ziehen": (3, "Karten, die in Phase 4 gezogen werden (p4.draw-three)"),
        "handkarten": (5, "Karten auf der Starthand (setup.deal)"),
        "personen": (PLAYERS, "Personen am Tisch in den Beispielen"),
        "sicher": (1, "Wahrscheinlichkeit des sicheren Ereignisses"),
    }


# --------------------------------------------------------------------------- lessons


def staircase_lesson() -> Facts:
    """Lesson 1: frequencies and Laplace probability."""
    counts = deck_counts(RULESET, PLAYERS)
    total = sum(counts.values())
    names = {"blue": "blau", "chili": "feuer", "stink": "stink", "green": "brech",
             "soy": "soja", "blackeye": "augen", "red": "rot", "garden": "garten"}
    f: dict[str, tuple[Fraction | int, str]] = common()
    for key, n in counts.items():
        v = find_variety(key)
        f[f"n_{names.get(key, key)}"] = (n, f"Karten {v.de} im Grundspiel")
    steps = {a - b for a, b in zip(list(counts.values()), list(counts.values())[1:])}
    (step,) = steps
    top4 = sum(list(counts.values())[:4])
    f.update({
        "stufe": (step, "jede Sorte hat so viele Karten weniger als die nächsthäufigere"),
        "mittel": (Fraction(total, len(counts)), "Karten pro Sorte im Mittel = 104/8"),
        "p_blau": (p_at_least_one("Blaue Bohne", 1, PILE),
                   "P(oberste Karte ist eine Blaue Bohne) = 20/104"),
        "p_garten": (p_at_least_one("Gartenbohne", 1, PILE),
                     "P(oberste Karte ist eine Gartenbohne) = 6/104"),
        "p_feuer": (p_at_least_one("Feuerbohne", 1, PILE),
                    "P(oberste Karte ist eine Feuerbohne) = 18/104"),
        "verhaeltnis_blau_garten": (Fraction(counts["blue"], counts["garden"]),
                                    "Blaue Bohnen sind 20/6-mal so häufig wie Gartenbohnen"),
        "verhaeltnis_feuer_garten": (Fraction(counts["chili"], counts["garden"]),
                                     "Feuerbohnen sind genau 3-mal so häufig wie Gartenbohnen"),
        "n_blau_rot": (counts["blue"] + counts["red"], "Blaue und Rote Bohnen zusammen"),
        "p_blau_oder_rot": (p_at_least_one(["Blaue Bohne", "Rote Bohne"], 1, PILE),
                            "P(Blaue oder Rote Bohne oben) = (20 + 8)/104"),
        "n_top4": (top4, "Karten der vier häufigsten Sorten: 20 + 18 + 16 + 14"),
        "p_top4": (p_at_least_one(["Blaue Bohne", "Feuerbohne", "Stinkbohne", "Brechbohne"], 1,
                                  PILE),
                   "P(oberste Karte gehört zu den vier häufigsten Sorten) = 68/104"),
        "p_falsch_sorten": (Fraction(1, len(counts)),
                            "typischer Fehler: jede der 8 Sorten gleich wahrscheinlich (1/8)"),
    })
    return Facts("01_Bohnentreppe", f)


def two_cards_lesson() -> Facts:
    """Lesson 2: complement events and the hypergeometric distribution."""
    n = sum(deck_counts(RULESET, PLAYERS).values())
    g, b = _count("Gartenbohne"), _count("Blaue Bohne")
    f = common()
    f.update({
        "n_garten": (g, "Gartenbohnen im Grundspiel"),
        "n_nicht_garten": (n - g, "Karten, die keine Gartenbohne sind"),
        "n_nicht_garten_2": (n - g - 1, "Nicht-Gartenbohnen nach einer gezogenen"),
        "n_rest": (n - 1, "Karten nach einer gezogenen"),
        "c_alle_2": (comb(n, 2), "C(104, 2): Paare aus 104 Karten"),
        "c_nicht_garten_2": (comb(n - g, 2), "C(98, 2): Paare ohne Gartenbohne"),
        "p_kein_garten_zwei": (p_none(n, g, 2), "P(keine Gartenbohne unter 2 Karten) = C(98, 2)/C(104, 2)"),
        "p_garten_zwei": (p_at_least_one("Gartenbohne", 2, PILE),
                          "P(mindestens eine Gartenbohne unter 2 Karten) = 1 − C(98, 2)/C(104, 2)"),
        "p_garten_eins": (Fraction(g, n), "P(eine bestimmte Karte ist eine Gartenbohne) = 6/104"),
        "falsch_addiert": (2 * Fraction(g, n), "typischer Fehler: 6/104 + 6/104 = 12/104"),
        "n_falsch_zaehler": (2 * g, "Zähler der falschen Summe 12/104"),
        "c_garten_2": (comb(g, 2), "C(6, 2): Paare aus zwei Gartenbohnen"),
        "p_beide_garten": (hypergeometric(n, g, 2, 2), "P(beide Karten sind Gartenbohnen) = C(6, 2)/C(104, 2)"),
        "n_blau": (b, "Blaue Bohnen im Grundspiel"),
        "n_nicht_blau": (n - b, "Karten, die keine Blaue Bohne sind"),
        "c_nicht_blau_2": (comb(n - b, 2), "C(84, 2)"),
        "p_blau_zwei": (p_at_least_one("Blaue Bohne", 2, PILE),
                        "P(mindestens eine Blaue Bohne unter 2 Karten) = 1 − C(84, 2)/C(104, 2)"),
        "c_alle_3": (comb(n, 3), "C(104, 3): Dreiergruppen aus 104 Karten"),
        "p_genau_ein_blau_drei": (count_distribution("Blaue Bohne", 3, PILE)[1],
                                  "P(genau 1 Blaue Bohne unter 3 gezogenen) = C(20, 1)·C(84, 2)/C(104, 3)"),
        "p_kein_blau_start": (count_distribution("Blaue Bohne", 5, PILE)[0],
                              "P(keine Blaue Bohne auf der Starthand) = C(84, 5)/C(104, 5)"),
        "e_blau_start": (expected_count("Blaue Bohne", 5, PILE),
                         "erwartete Blaue Bohnen auf der Starthand = 5 · 20/104"),
        "n_garten_gesehen": (2, "Gartenbohnen, die schon offen auf dem Ablagestapel liegen"),
        "n_garten_rest": (g - 2, "noch unbekannte Gartenbohnen"),
        "n_unbekannt": (n - 2, "unbekannte Karten, wenn 2 Gartenbohnen abgelegt sind"),
        "p_garten_zwei_gesehen": (p_at_least_one("Gartenbohne", 2,
                                                 Pile(RULESET, PLAYERS, seen={"Gartenbohne": 2})),
                                  "P(mindestens eine Gartenbohne unter 2 Karten), wenn 2 schon abgelegt sind"),
    })
    return Facts("02_Zwei_Karten_aufdecken", f)


def field_value_lesson() -> Facts:
    """Lesson 3: the value of a field – expected value, Bohnometer efficiency."""
    n = sum(deck_counts(RULESET, PLAYERS).values())
    s = _count("Stinkbohne")
    beside_field = Pile(RULESET, PLAYERS, seen={"Stinkbohne": 4})  # the 4 on the field are known
    dist = count_distribution("Stinkbohne", 2, beside_field)
    f = common()
    f.update(_meter_facts("stink", "Stinkbohne"))
    f.update(_meter_facts("blau", "Blaue Bohne"))
    f.update({
        "n_stink": (s, "Stinkbohnen im Grundspiel"),
        "stink_leer": (harvest_value("Stinkbohne", 2), "1 oder 2 Stinkbohnen bringen 0 Taler"),
        "blau_sieben": (harvest_value("Blaue Bohne", 7), "7 Blaue Bohnen bringen 2 Taler"),
        "blau_sieben_karten": (7, "Feldgröße im Beispiel"),
        "stink_acht_pro_karte": (coins_per_card("Stinkbohne", 8), "8 Stinkbohnen: 4 Taler / 8 Karten"),
        "stink_sieben_pro_karte": (coins_per_card("Stinkbohne", 7), "7 Stinkbohnen: 3 Taler / 7 Karten"),
        "blau_zehn_pro_karte": (coins_per_card("Blaue Bohne", 10), "10 Blaue Bohnen: 4/10 Taler pro Karte"),
        "blau_neun_pro_karte": (coins_per_card("Blaue Bohne", 9), "9 Blaue Bohnen: 3/9 Taler pro Karte"),
        "garten_pro_karte": (coins_per_card("Gartenbohne", 2), "2 Gartenbohnen: 2 Taler, 1 pro Karte"),
        "stink_feld": (4, "Stinkbohnen im Feld im Beispiel"),
        "stink_feld_wert": (harvest_value("Stinkbohne", 4), "4 Stinkbohnen bringen jetzt 1 Taler"),
        "stink_fuenf_wert": (harvest_value("Stinkbohne", 5), "5 Stinkbohnen bringen 2 Taler"),
        "n_rest": (n - 4, "unbekannte Karten (alle außer den 4 im Feld)"),
        "n_stink_rest": (s - 4, "unbekannte Stinkbohnen"),
        "n_andere_rest": (n - s, "unbekannte Karten, die keine Stinkbohne sind: 100 − 12"),
        "c_rest_2": (comb(n - 4, 2), "C(100, 2)"),
        "p_null": (dist[0], "P(keine Stinkbohne unter den 2 aufgedeckten Karten)"),
        "p_eins": (dist[1], "P(genau eine Stinkbohne)"),
        "p_zwei": (dist[2], "P(zwei Stinkbohnen)"),
        "erwartung_warten": (expected_harvest_value("Stinkbohne", 4, 2, beside_field),
                             "erwartete Taler, wenn man die 2 aufgedeckten Karten abwartet"),
        "gewinn_warten": (expected_harvest_value("Stinkbohne", 4, 2, beside_field)
                          - harvest_value("Stinkbohne", 4),
                          "erwarteter Mehrwert des Wartens gegenüber sofort ernten"),
        "e_stink_zwei": (expected_count("Stinkbohne", 2, beside_field),
                         "erwartete Stinkbohnen unter 2 Karten = 2 · 12/100"),
        "stink_neunte": (marginal_value("Stinkbohne", 8), "die 9. Stinkbohne bringt nichts mehr"),
        "stink_neun_karten": (9, "Feldgröße im Beispiel: 9 Stinkbohnen"),
        "stink_sechs_wert": (harvest_value("Stinkbohne", 6), "6 Stinkbohnen bringen 2 Taler"),
        "stink_sechs": (6, "Feldgröße im Beispiel"),
    })
    return Facts("03_Was_bringt_ein_Feld", f)


def compute_or_simulate_lesson(trials: int = 10_000, games: int = 200) -> Facts:
    """Lesson 4: the law of large numbers; whole-game simulations."""
    p = p_at_least_one("Gartenbohne", 2, PILE)
    var = p * (1 - p)

    def two_se(n: int) -> Fraction:
        return 2 * _sqrt_fraction(var / n)

    fair = Fraction(1, PLAYERS)
    f = common()
    f.update({
        "p_garten_zwei": (p, "exakt: P(mindestens eine Gartenbohne unter 2 Karten)"),
        "durchlaeufe": (trials, "Durchläufe der Simulation"),
        "durchlaeufe_klein": (100, "Durchläufe der kleinen Simulation"),
        "durchlaeufe_viertel": (trials // 4, "ein Viertel der Durchläufe"),
        "balken_ab": (100_000, "ab so vielen Durchläufen zeigt das Experiment einen Fortschrittsbalken"),
        "se": (_sqrt_fraction(var / trials), "Standardfehler bei 10.000 Durchläufen = √(p(1−p)/n)"),
        "zwei_se": (two_se(trials), "2 Standardfehler bei 10.000 Durchläufen"),
        "zwei_se_klein": (two_se(100), "2 Standardfehler bei 100 Durchläufen"),
        "faktor_n": (100, "100-mal so viele Durchläufe …"),
        "faktor_genauer": (10, "… machen die Schätzung 10-mal genauer (√100)"),
        "faktor_halb": (4, "für den halben Standardfehler braucht man 4-mal so viele Durchläufe"),
        "sicherheit": (Fraction(95, 100), "etwa 95 % der Schätzungen liegen innerhalb ±2 Standardfehlern"),
        "partien": (games, "Partien der Ganzspiel-Simulation"),
        "fair": (fair, "faire Siegquote je Platz = 1/4"),
        "zwei_se_sieg": (2 * _sqrt_fraction(fair * (1 - fair) / games),
                         "2 Standardfehler einer Siegquote von 25 % bei 200 Partien"),
    })
    return Facts("04_Rechnen_oder_simulieren", f)


def trading_lesson() -> Facts:
    """Lesson 5: marginal value, trades where both gain, gifts."""
    f = common()
    f.update(_meter_facts("stink", "Stinkbohne"))
    f.update(_meter_facts("rot", "Rote Bohne"))
    f.update({
        "garten_2": (2, "Gartenbohne: 2 Karten bringen 2 Taler"),
        "garten_3": (3, "Gartenbohne: 3 Karten bringen 3 Taler"),
        # the same Stinkbohne for three players
        "ben_stink": (4, "Ben hat 4 Stinkbohnen im Feld"),
        "ben_stink_neu": (5, "… mit der neuen Karte 5"),
        "ben_gewinn": (marginal_value("Stinkbohne", 4), "Ben: die 5. Stinkbohne bringt +1 Taler"),
        "clara_stink": (5, "Clara hat 5 Stinkbohnen im Feld"),
        "clara_gewinn": (marginal_value("Stinkbohne", 5), "Clara: die 6. Stinkbohne bringt nichts"),
        "david_stink": (2, "David hat 2 Stinkbohnen im Feld"),
        "david_gewinn": (marginal_value("Stinkbohne", 2), "David: die 3. Stinkbohne erreicht die erste Stufe, +1 Taler"),
        "anna_stink_wert": (harvest_value("Stinkbohne", 1), "Anna: eine einzelne Stinkbohne ist 0 Taler wert"),
        # the trade Anna ↔ Ben
        "anna_garten": (2, "Anna hat 2 Gartenbohnen im Feld"),
        "anna_gewinn": (marginal_value("Gartenbohne", 2), "Anna: die 3. Gartenbohne bringt +1 Taler"),
        "summe_gewinn": (marginal_value("Gartenbohne", 2) + marginal_value("Stinkbohne", 4),
                         "der Tausch bringt beiden zusammen 2 Taler mehr"),
        # the gift Ben → Clara
        "ben_stink_klein": (2, "Bens zweites Feld: 2 Stinkbohnen"),
        "ben_stink_klein_wert": (harvest_value("Stinkbohne", 2), "2 Stinkbohnen bringen 0 Taler"),
        "ben_blau": (5, "Bens erstes Feld: 5 Blaue Bohnen"),
        "ben_blau_wert": (harvest_value("Blaue Bohne", 5), "5 Blaue Bohnen bringen 1 Taler"),
        "ben_blau_sechs": (harvest_value("Blaue Bohne", 6), "6 Blaue Bohnen bringen 2 Taler"),
        "clara_rot": (3, "Clara hat 3 Rote Bohnen im Feld"),
        "clara_rot_gewinn": (marginal_value("Rote Bohne", 3), "Clara: die 4. Rote Bohne bringt +1 Taler"),
        "gegner": (PLAYERS - 1, "Mitspieler, mit denen man sich vergleicht"),
        "abstand_ohne": (-(PLAYERS - 1), "1 Taler weniger für mich: −1 gegenüber jedem der 3 anderen"),
        "abstand_mit": (-1, "1 Taler mehr für Clara: −1 nur gegenüber Clara"),
    })
    return Facts("05_Handeln_lohnt_sich", f)


def bohnometer_chapter() -> Facts:
    """The site chapter 12_Bohnometer."""
    f = common()
    f.update(_meter_facts("stink", "Stinkbohne"))
    f.update({
        "stink_leer": (harvest_value("Stinkbohne", 2), "1 oder 2 Stinkbohnen bringen 0 Taler"),
        "blau_sieben": (harvest_value("Blaue Bohne", 7), "7 Blaue Bohnen bringen 2 Taler"),
        "blau_sieben_karten": (7, "Feldgröße im Beispiel"),
        "stink_sechs": (6, "5 oder 6 Stinkbohnen bringen 2 Taler"),
        "stink_sechs_wert": (harvest_value("Stinkbohne", 6), "6 Stinkbohnen bringen 2 Taler"),
        "garten_1": (harvest_value("Gartenbohne", 1), "1 Gartenbohne bringt 0 Taler"),
        "garten_2": (2, "Gartenbohne: 2 Karten bringen 2 Taler"),
        "garten_3": (3, "Gartenbohne: 3 Karten bringen 3 Taler"),
        "max_taler": (4, "höchste Stufe eines Bohnometers"),
    })
    return Facts("12_Bohnometer", f)


FACTS: dict[str, Callable[[], Facts]] = {
    "01_Bohnentreppe": staircase_lesson,
    "02_Zwei_Karten_aufdecken": two_cards_lesson,
    "03_Was_bringt_ein_Feld": field_value_lesson,
    "04_Rechnen_oder_simulieren": compute_or_simulate_lesson,
    "05_Handeln_lohnt_sich": trading_lesson,
    "12_Bohnometer": bohnometer_chapter,
}


@lru_cache(maxsize=None)
def facts_for(notebook: str) -> Facts:
    """The facts of the notebook ``notebook`` (name with or without ``.ipynb``)."""
    name = notebook.rsplit("/", 1)[-1].removesuffix(".ipynb")
    try:
        return FACTS[name]()
    except KeyError:
        raise ValueError(f"Keine Zahlen für {notebook!r}; bekannt: {', '.join(FACTS)}") from None


__all__ = ["FACTS", "SEED_FILE", "Fact", "Facts", "facts_for"]
