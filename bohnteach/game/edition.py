"""How an edition (a published one, a fan expansion, a house rule) plugs into the game core.

A rule set names its edition (``edition = "<name>"`` in its TOML; default ``"base"``).
The engine, the notation, the player view, the table renderer and the widgets ask that
edition object – found by name in a registry, as python-chess's ``find_variant`` does –
at a few fixed points and never import an edition themselves. The editions package
registers its editions when ``bohnteach`` is imported; ``register_edition`` also takes one
from anywhere else (a test fixture).

Every *hook* below is ``None`` on the base edition. A subclass switches a hook on by
defining the method; docs/editions.md says when each hook runs and what it may do. The
engine asks ``State.hooks`` first – the edition, or None when it switches no hook on – so a
rule set of the base game pays one read of a compiled slot per hook point, and an edition
pays one attribute look-up for each hook it leaves out.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from bohnteach.game.errors import MeterFileError, Phrase, RuleViolation, Term, add_rules
from bohnteach.game.words import add_trait_words, variety_with_trait
from bohnteach.i18n import N_

if TYPE_CHECKING:
    from pathlib import Path

    from bohnteach.game.actions import Action, Offer, Plant
    from bohnteach.game.rulesets import RuleSet
    from bohnteach.game.state import State


@dataclass(frozen=True)
class Zone:
    """A zone an edition adds to the table (the core knows hand, fields, piles, …).

    ``per_player`` zones live in ``Player.extra[key]`` (one list per player), the others in
    ``State.extra[key]``. ``State.zones()`` names them ``"Anna.<key>"`` or ``"<key>"``."""

    key: str
    per_player: bool
    title: str
    """German heading in the table view."""
    rule: str = ""
    """The rule the zone belongs to (its chip in the table view)."""


@dataclass(frozen=True)
class ZoneDisplay:
    """One edition zone as the table shows it for a player right now."""

    zone: Zone
    cards: tuple[int, ...]
    note: str
    """German text after the heading (what waits there and why)."""
    css: str = ""


@dataclass(frozen=True)
class OfferedCard:
    """One card of an offer as a viewer sees it; ``trait`` and ``card`` are None when hidden."""

    variety: str
    trait: str | None
    card: int | None

    @property
    def hidden(self) -> bool:
        return self.card is None

    @property
    def label(self) -> str:
        return variety_with_trait(self.variety, self.trait, "word")


@dataclass(frozen=True)
class OfferView:
    player: int
    to: int
    give: tuple[OfferedCard, ...]
    get: tuple[OfferedCard, ...]


ActionRules = Mapping[type, tuple[Callable[["State", Any], Any], Callable[["State", Any, Any], None]]]


class View:
    """What a viewer sees of an edition, apart from its rules (as OpenSpiel's observer is
    apart from its game): the offer as a player hears it, the zones to draw, the button
    labels and notes of Mach du!, its Mach-du cases, its names in the rules document and
    the comparison. An edition makes its own (``Edition.view``); the rules hooks never
    call it, the player view, the table renderer, the widgets and the documents do. The
    base view shows everything and adds nothing. Not hot."""

    label: ClassVar[str] = "Grundspiel"
    """Its short German name (a heading of the rules document, a column)."""
    comparison: ClassVar[Mapping[str, tuple[str, tuple[str, ...]]]] = {}
    """The rule-set comparison (``render/comparison.py``): a row's topic → (the row's title
    where the edition's idea names it, "" = keep it; the edition's rule ids for the row)."""
    coin_place: ClassVar[str] = ""
    """The card a player's coins lie on, named in the table view; empty = a plain coin pile."""
    comparison_cells: ClassVar[Mapping[str, str]] = {}
    """The comparison's German cells for the edition's own ideas: ``traits`` (its card
    traits in short), ``meters`` (its Bohnometers where cards carry traits) and
    ``phase3_order:<value>`` (a ``RuleSet.phase3_order`` the edition brings)."""
    no_meter_note: ClassVar[str] = N_("Oben liegt eine Karte ohne Bohnometer: die Ernte bringt 0 Taler.")
    """The table view's note under a field whose top card has no Bohnometer (a card trait without one)."""
    hidden_card_title: ClassVar[str] = N_("nicht genannt")
    """The tooltip's words for an offered card whose trait ``offer_view`` hides."""

    tryit_cases: ClassVar[tuple[Mapping[str, Any], ...]] = ()
    """Its Mach-du cases as data: the keyword arguments of ``content.tryit_case.TryItCase``
    (their ``chapter`` is the site's chapter key)."""

    def offer_view(self, s: State, viewer: int | None, offer: Offer | None = None) -> OfferView | None:
        """The open offer (or ``offer``) as ``viewer`` sees it."""
        o = offer if offer is not None else s.offer
        if o is None:
            return None

        def shown(cards: Sequence[int]) -> tuple[OfferedCard, ...]:
            return tuple(OfferedCard(s.variety[c], s.cards[c].trait, c) for c in cards)

        return OfferView(o.player, o.to, shown(tuple(o.give)), shown(tuple(o.get)))

    def offer_hides_cards(self, s: State) -> bool:
        """Whether offers name only what ``offer_view`` lets a viewer see."""
        return False

    hidden_offer: ClassVar[tuple[str, str]] = ("", "")
    """Where ``offer_view`` hides cards: (German sentence why, the rule id), below the offer."""

    def choice_moves(self, s: State, seat: int, plantable: Sequence[int]) -> list[tuple[str, Plant]]:
        """Every plant with an edition choice (``Plant.choice``) a learner may try now, as
        (German button label, action) – wrong ones included: the engine explains them."""
        return []

    def action_phrase(self, s: State, action: Any) -> Phrase | None:
        """One of the edition's own actions (``Edition.actions``) as a learner reads it, without
        the player: a Mach-du button's label and, in another language, the move's sentence; a
        :class:`Phrase`, worded where shown. None: not one of its own (the notation's
        sentence is used)."""
        return None

    def choice_note(self, s: State, events: Sequence[tuple]) -> tuple[str, str, list[str]] | None:
        """After such a plant: (title, German text, rule ids) for an info box, or None."""
        return None

    def try_moves(self, s: State, seat: int) -> list[tuple[str, list[tuple[str, Any]]]]:
        """Actions of the edition's own types (``actions``) a learner may press now in Mach
        du!, tempting wrong ones included – the engine refuses those and says why – as
        groups (German heading, [(button label, action), …])."""
        return []

    def zones_for_display(self, s: State, player: int) -> list[ZoneDisplay]:
        """The player's edition zones to draw in the table view (non-empty ones); a
        ``css`` of ``bt-blocked`` marks a zone red (a blocked piece)."""
        return []

    def table_zones_for_display(self, s: State) -> list[ZoneDisplay]:
        """The zones of the whole table (not ``per_player``) to draw now, in one box in the
        middle of the table; a zone titled „Box, Place“ is drawn as „Place“ in a box titled
        „Box“ (every place of a board, empty ones too). Default: those of
        ``zones_for_display`` asked for the active player."""
        return [d for d in self.zones_for_display(s, s.active) if not d.zone.per_player]


class Edition:
    """The base game: no settings, no zones, every hook off (``None``).

    Subclass it and define a method to switch a hook on; register the instance with
    ``register_edition``. Hooks receive the ``State`` (``s``); the edition's settings
    from the rule set's TOML are ``s.ruleset.settings``.
    """

    name: ClassVar[str] = "base"
    title: ClassVar[str] = "Grundspiel"
    view: ClassVar[View] = View()
    """What a viewer sees of the edition (``View``): a subclass sets its own."""
    rule_prefix: ClassVar[str] = ""
    """The prefix of its rule ids in ``data/rules.toml`` (its section of docs/rules.md)."""
    zones: ClassVar[tuple[Zone, ...]] = ()
    """Zones the edition adds; the State creates them empty."""
    own_rules: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    """Rules the edition brings along instead of entries in ``data/rules.toml`` (a house
    rule kept in its own folder): id -> ``title``, ``explanation``, ``source``, ``auslegung``."""
    actions: ClassVar[ActionRules] = {}
    """Extra action types -> (checker, mutator), used by ``apply`` like the core's own."""
    notation_words: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    """Words the German notation understands for card traits, by table: ``attribute``
    (the word in brackets after a variety → trait), ``adjective`` (the word before it →
    trait), ``label`` (trait → how it is written in brackets)."""
    notation_hint: ClassVar[str] = ""
    """How the notation's error names the edition's bracket words (German)."""
    trait_words: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    """How the table and the refusals write a card's trait, by style (``game/words.py``:
    ``word``, ``short``, ``symbol``, ``mark``): trait → German text."""
    choice_pattern: ClassVar[str] = ""
    """Notation: a regular expression after a plant sentence's field with two groups (the
    named card, the amount) for ``parse_plant_choice``; empty = no plant choices."""

    def __init__(self) -> None:
        self.hooked = any(getattr(self, hook) is not None for hook in HOOKS)
        """Whether the edition switches any hook on (``State.hooks`` is None otherwise)."""
        self.plain_listing = all(
            getattr(self, hook) is None
            for hook in ("check_harvest", "waiting_seats", "plant_choices", "legal_extra", "check_action")
        )
        """No hook changes ``legal_actions``: the engine lists with its fast code."""

    # ---- settings (not hooks: called once when a rule set is loaded) ---------------------
    def read_settings(self, raw: Mapping[str, Any], source: str) -> Any:
        """The edition's own settings from the rule set's ``[<edition name>]`` table."""
        if raw:
            raise ValueError(f"{source}: Das Grundspiel hat keine eigenen Einstellungen ({', '.join(raw)}).")
        return None

    def settings_summary(self, settings: Any) -> list[str]:
        """German one-liners of the switched-on rules (rule-set comparison table)."""
        return []

    choice_rule: ClassVar[str] = ""
    """The rule behind the edition's plant choices (``Plant.choice``), if it has any: a
    choice in a rule set without them is refused under this rule (``choice_rule()``)."""
    choice_size: ClassVar[int] = 0
    """How many whole numbers such a choice has (``actions.plain`` refuses other lengths)."""

    def no_choice_text(self, s: State) -> Phrase:
        """Why ``s``'s rule set knows no such plant choice, for ``choice_rule`` (a template
        and its parameters: translated where the refusal is shown)."""
        return Phrase("In „{rules}“ wählt man beim Pflanzen nichts dazu.", rules=Term(s.ruleset.title))

    def refuse_plant_choice(self, s: State, a: Plant) -> None:
        """A ``Plant`` with a choice (``Plant.choice``) where the edition offers none:
        refused under the rule that gives such choices (``choice_rule()``)."""
        owner = choice_owner()
        text = (owner or self).no_choice_text(s)
        if isinstance(text, Phrase):
            raise RuleViolation(choice_rule(), text.template, **text.params)
        raise RuleViolation(choice_rule(), text)

    # ---- own meters (a user's cards): not hot --------------------------------------------
    def with_meters(self, ruleset: RuleSet, meters: Mapping[str, Mapping[str, object]],
                    source: str = "") -> RuleSet:
        """``ruleset`` with the meters printed on the user's cards; the base game has none."""
        raise ValueError(f"{ruleset.title}: Eigene Bohnometer je Kartenmerkmal gibt es hier nicht.")

    def load_ruleset_with_meters(self, ruleset: RuleSet, path: Path) -> RuleSet:
        """``ruleset`` with the meters from the user's file ``path`` (``MeterFileError``)."""
        raise MeterFileError(path, "(Datei)", f"{ruleset.title} hat keine Karten mit eigenen "
                             "Bohnometern: alle sind aufgedruckt. Eigene Werte nehmen nur Ausgaben "
                             "mit angenommenen Bohnometern.")

    def saved_zone_problem(self, ruleset: Any, key: str, cards: Sequence[int],
                           traits: Sequence[Any], phase: int, offer_open: bool) -> str | None:
        """Why a saved game's edition zone ``key`` cannot hold ``cards`` (German), or
        ``None``. ``traits`` gives each card id's trait; the core has checked the ids."""
        return None

    def format_action(self, s: State, action: Any, who: str) -> str | None:
        """A German sentence for one of the edition's own action types (``who`` is the
        player's name), which ``parse_action`` reads back; None for any other action."""
        return None

    def parse_action(self, s: State, player: int, rest: str) -> Any:
        """The edition's action a sentence describes (``rest`` follows the player's name),
        or None when its verb is none of the edition's. May raise ``ValueError``."""
        return None

    def saved_marks_problem(self, ruleset: Any, marks: Mapping[str, Any], players: int,
                            n_cards: int) -> str | None:
        """Why a saved game's ``marks`` (``State.marks``) cannot be this edition's (German), or None."""
        return f"Das Regelwerk {ruleset.title} führt keine solchen Angaben." if marks else None

    # ---- hooks (None = off) ---------------------------------------------------------------
    setup: Callable[[State], None] | None = None
    """After dealing, before the first turn (fill the edition's zones)."""
    reveal: Callable[[State], list[int]] | None = None
    """Phase 2 starts: turn cards face up and return them (replaces "reveal two")."""
    draw: Callable[[State, int], list[int]] | None = None
    """Phase 4: the draw of ``Draw(player)``; returns the cards drawn (replaces "draw three")."""
    waiting_seats: Callable[[State], list[int]] | None = None
    """Players who must act before anything else, in order (``actor`` asks first)."""
    waiting_plants: Callable[[State, int], list[tuple[int, list[int]]]] | None = None
    """For a waiting player: (card, fields) pairs, the only plants listed then."""
    waiting_cards: Callable[[State, int], list[int]] | None = None
    """Cards the player must plant before the usual ones (notation, widgets)."""
    check_blocked: Callable[[State], None] | None = None
    """Raise ``RuleViolation`` when a waiting player blocks offers, ending the trade,
    and plants of other players in phase 2."""
    check_plant_out_of_phase: Callable[[State, Plant], tuple[int, str] | None] | None = None
    """A ``Plant`` in phase 2 (the core would refuse it): ``(card, no-room rule id)`` if
    the edition allows it, else None (the core refuses as before). May raise."""
    take_planted: Callable[[State, int, int], None] | None = None
    """Remove a card planted out of phase from the edition's zone."""
    check_plant: Callable[[State, int, int, int, Any], Any] | None = None
    """``(s, player, field, card, plant.choice)``: raise for an edition choice that is not
    allowed; the result is passed to ``after_plant``."""
    after_plant: Callable[[State, int, int, Any], None] | None = None
    """``(s, player, field, checked)`` right after the card lies on the field."""
    plant_choices: Callable[[State, int, int, int], list[Any]] | None = None
    """``(s, seat, field, card)``: the edition choices (``Plant.choice``) to list, best first;
    empty = one plain ``Plant``."""
    check_harvest: Callable[[State, int], None] | None = None
    """Raise when ``player`` may not harvest now (after the core's checks)."""
    harvest_coins: Callable[[State, int, int], int | None] | None = None
    """Coins a harvest of that field brings, or None for the core's meter rule."""
    harvest: Callable[[State, int, int], bool | None] | None = None
    """Do the harvest itself (None = not handled, the core harvests); True when the draw
    pile ran out in doing so (the core then counts it)."""
    check_trade_card: Callable[[State, int, int], None] | None = None
    """``(s, owner, card)`` for each card of an offer, before the core's trade checks:
    raise when the edition forbids ``card`` to change hands (e.g. a card it makes the owner keep)."""
    receive: Callable[[State, int, int], bool] | None = None
    """A card received in a deal: True when the edition put it somewhere (not set aside)."""
    after_deal: Callable[[State, Offer], None] | None = None
    """After an accepted deal (events)."""
    legal_extra: Callable[[State, Sequence[int]], list[Action]] | None = None
    """Extra actions (types in ``actions``) of the given seats, appended to the listing."""
    final_scoring: Callable[[State], None] | None = None
    """At the game's end, after the final harvest of the fields and before the coins are
    counted: turn the edition's zones into coins."""
    check_action: Callable[[State, Action], None] | None = None
    """Raise ``RuleViolation`` (a rule of ``own_rules`` or of the catalogue) for one of the
    core's actions the edition forbids, after the core's own checks passed (a house rule:
    no gifts); the listing leaves such actions out."""
    phase3_first: Callable[[State, int], tuple[int, str] | None] | None = None
    """Phase 3 in an order of the edition's (``RuleSet.phase3_order``): for ``player``,
    (the earlier seat that must plant first, the rule id), or None when ``player`` may plant."""
    parse_plant_choice: Callable[[State, int, int, str, str, str], Any] | None = None
    """Notation: ``(s, player, field, named card, amount, sentence)`` → the ``Plant.choice``
    a plant sentence's tail names (``choice_pattern``); raise ``ValueError`` (German) if none."""
    format_plant_choice: Callable[[State, Plant], str] | None = None
    """Notation: the tail of a plant sentence for ``Plant.choice`` (read back by
    ``parse_plant_choice``), ``""`` without a choice."""


HOOKS: tuple[str, ...] = tuple(
    name for name, value in vars(Edition).items() if value is None and not name.startswith("_")
)
"""The names of ``Edition``'s hooks (its attributes that are None: off on the base edition)."""


def known_settings(settings_class: type, raw: Mapping[str, Any], source: str, table: str) -> set[str]:
    """The field names of an edition's settings dataclass; ``ValueError`` naming the file
    when the ``[table]`` of a rule set has a key that is none of them."""
    known = set(settings_class.__dataclass_fields__)  # type: ignore[attr-defined]
    unknown = sorted(set(raw) - known)
    if unknown:
        raise ValueError(f"{source}: [{table}] kennt {', '.join(unknown)} nicht (erlaubt: {', '.join(sorted(known))}).")
    return known


BASE = Edition()
_REGISTRY: dict[str, Edition] = {BASE.name: BASE}


def register_edition(edition: Edition) -> Edition:
    """Make ``edition`` findable by its name (a rule set's ``edition = "…"``) and its card
    trait words known; the one line that plugs an edition in, also from a test fixture."""
    add_rules(edition.own_rules)
    _REGISTRY[edition.name] = edition
    add_trait_words(edition.trait_words)
    return edition


def choice_owner() -> Edition | None:
    """The registered edition whose rule gives plant choices (``choice_rule``), if any."""
    return next((e for e in _REGISTRY.values() if e.choice_rule), None)


def choice_rule() -> str:
    """The rule a plant choice is refused under where a rule set offers none (also a
    malformed one: ``actions.plain``); ``input.unknown-card`` while no edition has one."""
    owner = choice_owner()
    return owner.choice_rule if owner is not None else "input.unknown-card"


def find_edition(name: str) -> Edition:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValueError(
            f"Unbekannte Edition {name!r}. Bekannt sind: {', '.join(sorted(_REGISTRY))}"
        ) from None


def all_editions() -> tuple[Edition, ...]:
    return tuple(_REGISTRY.values())


__all__ = [
    "BASE", "HOOKS", "Edition", "View", "OfferView", "OfferedCard", "Zone", "ZoneDisplay",
    "all_editions", "choice_owner", "choice_rule", "find_edition", "known_settings", "register_edition",
]
