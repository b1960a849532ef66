"""Ladybohn's words in the German notation: the baby lift after a plant sentence
(lady.baby-lift), e.g. „Anna pflanzt Blaue Bohne (Baby) auf Feld 1 und hebt Blaue Bohne (w)
um 2 Plätze“; the core's grammar asks for it through ``Edition.choice_pattern`` and the
hooks ``parse_plant_choice`` / ``format_plant_choice``."""
from __future__ import annotations

from bohnteach.game.actions import Plant
from bohnteach.game.notation import NotationError, parse_card_ref, quoted, read_number, trait_label, with_tags
from bohnteach.game.state import State
from bohnteach.game.words import card_label

LIFT_PATTERN = (r"\s*(?:,|und)\s*(?:hebt|schiebt)\s+(.+?)\s+um\s+(\S+)"
                r"(?:\s+(?:plätze|platz|positionen|position|stellen|stelle))?(?:\s+(?:nach\s+)?(?:oben|hoch))?")
"""The tail of a plant sentence naming a lift: group 1 the female, group 2 how far."""


def parse_lift(s: State, player: int, field: int, who: str, by: str, sentence: str) -> tuple[int, int]:
    """Which female on the field moves up, and how far."""
    n = read_number(by)
    if n is None:
        raise NotationError(f"{quoted(sentence)}: {quoted(by)} ist keine Anzahl von Plätzen.")
    ref = parse_card_ref(who, sentence)
    if ref.card_id is not None:
        return ref.card_id, n
    if not 0 <= field < len(s.players[player].fields):
        raise NotationError(f"{quoted(sentence)}: Feld {field + 1} gibt es nicht.")
    cards = list(reversed(s.players[player].fields[field]))
    trait = ref.trait or "w"
    found = [c for c in cards if (ref.variety is None or s.variety[c] == ref.variety.key)
             and s.cards[c].trait == trait]
    if not found:
        raise NotationError(f"{quoted(sentence)}: Auf Feld {field + 1} liegt keine {ref.text}.")
    return found[0], n


def lift_text(s: State, a: Plant) -> str:
    """`` und hebt Blaue Bohne (w) um 2`` for ``a.choice``, read back by ``parse_lift``."""
    lift = a.choice
    if lift is None:
        return ""
    try:
        female, by = lift
        label = with_tags(card_label(s, female), [trait_label(s.cards[female].trait or "?")])
        text = f" und hebt {label} um {by}"
        if parse_lift(s, a.player, a.field, label, str(by), text) == (female, by):
            return text
        return f" und hebt {label} #{female} um {by}"
    except Exception:  # noqa: BLE001 - malformed lift: show it raw, the engine refuses it
        return f" und hebt {lift!r}"


__all__ = ["LIFT_PATTERN", "lift_text", "parse_lift"]
