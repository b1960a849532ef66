"""Bean varieties and the Bohnometer (listed in docs/rules.md), loaded from ``data/varieties.toml``."""
from __future__ import annotations

import tomllib
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

Meter = tuple[int, int, int, int]
"""Cards needed for 1, 2, 3, 4 coins; 0 where the card prints no such step (–)."""


@dataclass(frozen=True)
class Variety:
    key: str
    de: str
    de_plural: str
    en: str
    count: int
    meter: Meter
    colour: str
    aliases: tuple[str, ...] = ()
    edition: str = ""
    """The edition that adds this card kind (its name); empty for the base game box."""
    bean: bool = True
    """False for an edition's cards that are no beans (tools): never planted."""

    def harvest_value(self, cards: int) -> int:
        return meter_value(self.meter, cards)

    def label(self, n: int = 1) -> str:
        """German name in singular or plural, e.g. ``"7 Blaue Bohnen"`` uses the plural."""
        return self.de if n == 1 else self.de_plural


class UnknownVarietyError(ValueError):
    """A bean name that matches no variety; the message lists the known names."""

    def __init__(self, name: object, known: list[str]):
        self.name = name
        self.known = known
        super().__init__(
            f"Unbekannte Bohnensorte {name!r}. Bekannt sind: {', '.join(known)}"
        )


def meter_value(meter: tuple[int, ...], cards: int) -> int:
    """Coins for ``cards`` beans on a field read from ``meter`` (the highest step reached).
    (``tuple[int, ...]``, not ``Meter``: the mypyc build would unpack a fixed-length tuple
    into a C struct at the call and build a new tuple object to loop over it; a counter,
    not ``enumerate(meter, start=1)``, which it runs as a Python iterator of pairs.)"""
    coins = step = 0
    for need in meter:
        step += 1
        if need and cards >= need:
            coins = step
    return coins


def coin_steps(meter: Meter | None) -> tuple[int, ...]:
    """Coins a harvest of ``n`` beans brings, for ``n`` = 0, 1, … up to the meter's last step;
    the last entry holds for every bigger ``n``. Never more coins than cards (a meter from a
    user's file may promise more); no meter: ``(0,)``."""
    if not meter:
        return (0,)
    return tuple(min(meter_value(meter, n), n) for n in range(max(meter) + 1))


def _normalise(name: str) -> str:
    text = unicodedata.normalize("NFKC", name).casefold()
    return "".join(ch for ch in text if ch.isalnum())


@lru_cache(maxsize=1)
def all_varieties() -> tuple[Variety, ...]:
    """The eleven varieties of the box, most frequent first."""
    return tuple(v for v in _every_variety() if not v.edition)


def edition_varieties(edition: str) -> tuple[Variety, ...]:
    """The card kinds an edition adds (new bean varieties, other cards)."""
    return tuple(v for v in _every_variety() if v.edition == edition)


@lru_cache(maxsize=1)
def _every_variety() -> tuple[Variety, ...]:
    raw = tomllib.loads(
        resources.files("bohnteach.data").joinpath("varieties.toml").read_text("utf-8")
    )
    return tuple(
        Variety(
            key=v["key"],
            de=v["de"],
            de_plural=v["de_plural"],
            en=v["en"],
            count=v["count"],
            meter=tuple(v["meter"]),  # type: ignore[arg-type]
            colour=v["colour"],
            aliases=tuple(v.get("aliases", ())),
            edition=v.get("edition", ""),
            bean=v.get("bean", True),
        )
        for v in raw["variety"]
    )


@lru_cache(maxsize=1)
def _index() -> dict[str, Variety]:
    index: dict[str, Variety] = {}
    for v in _every_variety():
        names = [v.key, v.de, v.de_plural, v.en, v.en + " Bean", v.en + " Beans", *v.aliases]
        names += [a + "n" for a in v.aliases]  # Stinkbohne -> Stinkbohnen
        for name in names:
            index[_normalise(name)] = v
    return index


def find_variety(name: object) -> Variety:
    """The variety for a German or English name (singular or plural, any case); anything
    else is an ``UnknownVarietyError`` (typed ``object``: the mypyc build would raise a
    TypeError for a wrong type at the call already)."""
    if isinstance(name, Variety):
        return name
    if isinstance(name, str):
        found = _index().get(_normalise(name))
        if found is not None:
            return found
    known = [f"{v.de} ({v.en})" for v in all_varieties()]
    raise UnknownVarietyError(name, known)


def harvest_value(variety: object, cards: object) -> int:
    """Coins for harvesting ``cards`` beans of ``variety``, e.g. ``harvest_value("Blaue Bohne", 7) == 2``.
    Refuses anything but a variety (``UnknownVarietyError``) and a whole number ≥ 0
    (``ValueError``; typed ``object`` like ``find_variety``)."""
    if not isinstance(cards, int) or isinstance(cards, bool) or cards < 0:
        raise ValueError(f"Kartenzahl muss eine ganze Zahl ≥ 0 sein, nicht {cards!r}")
    return find_variety(variety).harvest_value(cards)
