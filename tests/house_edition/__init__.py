"""A house rule as an edition, written only as a test fixture: „Bei uns wird nichts
verschenkt“ – an offer must give and get at least one card each.

Everything of it lives in this folder: the rule (with its own ID, text and source), the
hook that refuses, the rule set (``hausregel.toml``, based on the Amigo rules). The one
line that plugs it in is the ``register_edition`` call below; nothing outside this folder
names it (``tests/test_house_edition.py`` checks both).
"""
from __future__ import annotations

from pathlib import Path

from bohnteach.game.actions import Offer
from bohnteach.game.edition import Edition, register_edition
from bohnteach.game.errors import RuleViolation
from bohnteach.game.rulesets import ruleset_from_toml

RULE = "haus.no-gifts"


class NoGifts(Edition):
    """The Amigo game with one house rule: no gifts, no requests for nothing."""

    name = "hausregel"
    title = "Hausregel: Nichts verschenken"
    own_rules = {
        RULE: {
            "title": "Nichts verschenken",
            "explanation": "Bei unserer Hausregel wird nichts verschenkt: Wer Karten abgibt, "
                           "bekommt dafür mindestens eine Karte, und wer um Karten bittet, "
                           "gibt mindestens eine dafür.",
            "source": "Hausregel der Klasse, „Handeln“",
            "auslegung": "Gilt für Schenken und für Bitten um Karten; Tauschen bleibt erlaubt.",
        },
    }

    def check_action(self, s, action) -> None:
        """Refuse an offer with an empty side (after the core's own checks passed)."""
        if type(action) is Offer and not (action.give and action.get):
            side = "nichts dafür" if action.give else "nichts dagegen"
            raise RuleViolation(RULE, f"Dieses Angebot verlangt {side}.")


EDITION = register_edition(NoGifts())
RULESET = ruleset_from_toml(Path(__file__).with_name("hausregel.toml").read_text(encoding="utf-8"))
