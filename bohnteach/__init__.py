"""bohnteach — learn Bohnanza and its variants interactively.

In a notebook (``docs/notebooks.md``)::

    import bohnteach as bt
    bt.scene("q-handelsfall")      # and bt.try_it, bt.table, bt.chart, bt.rule, bt.teacher_mode …

The notebook API (:mod:`bohnteach.api`) is imported when first named, so ``import bohnteach``
brings the engine only (no ipywidgets, no plotly); the engine's names are below.
"""
import os
import sys

if os.environ.get("BOHNTEACH_COMPILED") == "1":  # opt-in mypyc build of the engine (bohnteach/_compiled.py)
    from bohnteach._compiled import activate

    activate()
import bohnteach.editions  # noqa: F401 - registers the editions (game/edition.py) before any rule set loads
from bohnteach.game.beans import UnknownVarietyError, Variety, all_varieties, find_variety, harvest_value
from bohnteach.game.rulesets import RuleSet, find_ruleset, load_ruleset_with_meters, ruleset_names

__all__ = [
    "RuleSet",
    "UnknownVarietyError",
    "Variety",
    "all_varieties",
    "find_ruleset",
    "find_variety",
    "harvest_value",
    "load_ruleset_with_meters",
    "ruleset_names",
]

from bohnteach.game.actions import (  # noqa: E402
    Accept, BuyField, Decline, Draw, EndPlanting, EndTrading, Harvest, Offer, Plant,
    Reorder, TakeIntoHand,
)
from bohnteach.game.engine import actor, apply, check, is_legal, legal_actions, new_game  # noqa: E402
from bohnteach.game.errors import RuleViolation, find_rule, rule_catalogue  # noqa: E402
from bohnteach.game.record import Game  # noqa: E402
from bohnteach.game.state import Phase, State  # noqa: E402
from bohnteach.game.view import player_view  # noqa: E402

if "IPython" in sys.modules:  # in a kernel: a State left as a cell's result shows as its table
    from bohnteach.render.table import show_states_as_tables  # noqa: E402

    show_states_as_tables()

__all__ += [
    "Accept", "BuyField", "Decline", "Draw", "EndPlanting", "EndTrading", "Game", "Harvest",
    "Offer", "Phase", "Plant", "Reorder", "RuleViolation", "State", "TakeIntoHand", "actor",
    "apply", "check", "find_rule", "player_view", "is_legal", "legal_actions", "new_game", "rule_catalogue",
]


def __getattr__(name: str):  # the notebook API (bohnteach/api.py), imported when first named
    from importlib import import_module

    api = import_module("bohnteach.api")
    if name in api.API:
        return getattr(api, name)
    raise AttributeError(f"module 'bohnteach' has no attribute {name!r}")


def __dir__() -> list[str]:
    from bohnteach.api import API

    return sorted({*globals(), *API})


__all__ += ["ChoiceQuestion", "NumberQuestion", "chart", "load_scene", "rule", "scene", "scenes",
            "table", "teacher_mode", "try_it"]
