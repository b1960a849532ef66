"""bohnteach — learn Bohnanza and its variants interactively."""
from .beans import UnknownVarietyError, Variety, all_varieties, find_variety, harvest_value
from .rulesets import RuleSet, find_ruleset, ruleset_names

__all__ = [
    "RuleSet",
    "UnknownVarietyError",
    "Variety",
    "all_varieties",
    "find_ruleset",
    "find_variety",
    "harvest_value",
    "ruleset_names",
]
