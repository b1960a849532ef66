"""The learner's own place at the table as controls: the table's HTML cannot be clicked
from Python, so Mach du! and the trial game draw the seat they play as widgets instead:
hand, revealed and set-aside cards as card-shaped buttons (the variety's colour, its name
on it), each field as a tile (the table's field drawing, with its buttons under it).

Choosing works in two steps: tap a card (it rises, outlined, „✓“), and every field it may
go onto is marked (a dashed green frame, „✓ hier pflanzbar“ in the tile and the button's
tooltip). The marking is help, not a lock: every field stays clickable, and a wrong one
answers with the rule that forbids it.

    head = board_head(state, seat, zones)             # HTML: name, coins, phases, edition zones
    t = card_pick("blue", "Hand 1: Blaue Bohne")      # a ToggleButton like a card
    tile = field_tile(state, seat, k, hl, zones, [plant, harvest])
    mark_targets(tiles, {1})                          # field 2 is a legal target
    own_cards(state, seat, card_label)                # [(group title, [(label, card)])]
    legal_fields(state, seat, card)                   # {k: the engine allows Plant(seat, k, card)}
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from html import escape
from typing import Any

import ipywidgets as widgets
from ipywidgets.widgets.widget_bool import ToggleButtonStyle  # not exported at the top

from bohnteach.game.actions import Offer, Plant
from bohnteach.game.engine import check, to_plant
from bohnteach.game.state import Phase, State
from bohnteach.i18n import N_, _, ngettext
from bohnteach.render.style import board_style, style_block
from bohnteach.render.table import field_html, phase_bar, player_head_html, waiting_html
from bohnteach.widgets.parts import box, html, layout, style_of

TARGET = N_("✓ hier pflanzbar")
"""What a marked field says (text, so the mark never rests on colour alone; translated
where shown)."""

ANSWER = "bt-answer"
"""The class of the answer box beside the fields (give it when making the box)."""


def board_box(children: Sequence[Any]) -> widgets.VBox:
    """The frame of the learner's own place (class ``bt-board``)."""
    return box(widgets.VBox, children, "bt-board", width="100%")


def board_head(state: State, seat: int, zones: Collection[str] = (), hl: Collection[int] = ()) -> str:
    """The board's head: the styles, „Dein Platz“, name, badges, coins, the phase bar and
    the seat's edition zones (Ladybohn's waiting babies, Indiana's adventurer)."""
    return (f"{style_block()}{board_style(set(state.variety))}<div class=\"bt\">"
            f"{player_head_html(state, seat, you=True, zones=zones)}{phase_bar(state)}"
            f"{waiting_html(state, seat, set(hl), set(zones))}</div>")


def board_row(tiles: Sequence[Any], answer: Any) -> widgets.HBox:
    """The field tiles side by side and the answer box (``answer``, class ``bt-answer``)
    beside them on a wide screen, right under them on a phone: a move's result shows
    next to the button that made it."""
    fields = box(widgets.HBox, tiles, "bt-fieldrow", flex_flow="row wrap")
    answer.add_class(ANSWER)  # nothing sent if it has the class (made with it: ANSWER)
    return box(widgets.HBox, [fields, answer], "bt-board-row", flex_flow="row wrap", width="100%")


PLAYABLE = N_("spielbar")
"""What a card the rules let the learner plant now says in its tooltip (its frame is green;
translated where shown)."""


def card_pick(variety: str, label: str, *, value: bool = False, tooltip: str = "",
              changed: bool = False, playable: bool = False, classes: Sequence[str] = (),
              disabled: bool = False) -> widgets.ToggleButton:
    """A card to select: a toggle button in the colour of ``variety`` (a variety key; classes
    ``bt-pick bt-v-<variety>``), „✓ “ and ``bt-picked`` while selected, ``bt-new`` if
    the last move brought it, ``bt-playable`` (a green bar, „spielbar“ in the tooltip) if
    it may be planted now — the front hand card in phase 1, the cards to plant in phase 3;
    ``classes``: more classes."""
    tip = tooltip or _("{label} – antippen zum Auswählen").format(label=label)
    playable_word = _(PLAYABLE)
    classes = ("bt-pick", f"bt-v-{variety}", *(name for name, on in (
        ("bt-picked", value), ("bt-new", changed), ("bt-playable", playable)) if on), *classes)
    return widgets.ToggleButton(value=value, description=("✓ " if value else "") + label,
                                tooltip=f"{tip} ({playable_word})" if playable else tip, disabled=disabled,
                                layout=layout(height="auto"), style=style_of(ToggleButtonStyle),
                                _dom_classes=classes)


def own_cards(state: State, seat: int, label: Callable[[State, int], str],
              waiting: Sequence[int] = ()) -> list[tuple[str, list[tuple[str, int]]]]:
    """The cards of ``seat`` to choose from, by place, as (group title HTML, [(label, card)]):
    cards the edition makes it plant at once (``waiting``), the revealed cards (the active
    player's), the set-aside (received) cards, the hand front to back; empty groups left out.
    ``label(state, card)`` names a card."""
    p = state.players[seat]
    front = _("Hand {i}: {card} (vorne)")
    groups = [
        (_("<b>Sofort pflanzen</b>"),
         [(_("sofort pflanzen: {card}").format(card=label(state, c)), c) for c in waiting]),
        (_("<b>Aufgedeckt</b> (gehören dir)"),
         [(_("aufgedeckt: {card}").format(card=label(state, c)), c) for c in state.revealed]
         if seat == state.active else []),
        (_("<b>Quer gelegt</b> (erhalten)"),
         [(_("quer: {card}").format(card=label(state, c)), c) for c in p.set_aside]),
        (_("<b>Deine Hand</b> (vorne → hinten)"),
         [((front if i == 0 else _("Hand {i}: {card}")).format(i=i + 1, card=label(state, c)), c)
          for i, c in enumerate(p.hand)]),
    ]
    return [(title, items) for title, items in groups if items]


def waiting_cards(state: State, seat: int) -> list[int]:
    """Cards the edition makes ``seat`` plant first (lady.baby-trade-immediate)."""
    hook = state.edition.waiting_cards
    return list(hook(state, seat)) if hook is not None else []


def plantable(state: State, seat: int) -> list[int]:
    """Cards ``seat`` could plant next: a waiting baby (lady.baby-trade-immediate), the
    front hand card in phase 1, the cards still to plant in phase 3."""
    waiting = waiting_cards(state, seat)
    if waiting:
        return waiting
    if state.phase is Phase.PLANT and seat == state.active:
        hand = state.players[seat].hand
        return hand[:1] if hand and state.hand_plants < 2 else []
    if state.phase is Phase.PLANT_RECEIVED:
        return list(to_plant(state, seat))
    return []


def legal_fields(state: State, seat: int, card: int | None) -> set[int]:
    """The fields of ``seat`` the engine lets ``card`` be planted on now (``None``: the
    card the engine would take, the front or next one)."""
    return {k for k in range(len(state.players[seat].fields))
            if check(state, Plant(seat, k, card)) is None}


def pick_status(chosen: Sequence[str], targets: Collection[int], *, trading: bool = False,
                empty: str = "", use: str = "") -> str:
    """One line under the cards saying what is chosen and where it may go (HTML, read out
    by screen readers); ``empty`` is said when nothing is chosen ("" draws nothing). While
    ``trading`` the chosen cards are for an offer: ``use`` (see :func:`trade_use`) says
    what they can do in the deal, never where they could be planted."""
    if not chosen:
        text = empty
    elif trading:
        text = (_("Gewählt: {cards}.").format(cards=", ".join(chosen)) + " " + use).strip()
    elif len(chosen) > 1:
        text = _("Gewählt: {cards}.").format(cards=", ".join(chosen))
    elif targets:
        where = _(" und ").join(_("Feld {n}").format(n=k + 1) for k in sorted(targets))
        text = _("Gewählt: {card}. Pflanzbar auf {fields}.").format(card=chosen[0], fields=where)
    else:
        text = _("Gewählt: {card}. Gerade auf keinem Feld pflanzbar – probier es trotzdem, "
                 "dann erfährst du die Regel.").format(card=chosen[0])
    return f'<div class="bt bt-pickstatus" aria-live="polite">{escape(text)}</div>' if text else ""


def trade_use(state: State, seat: int, cards: Sequence[int]) -> str:
    """What ``cards`` of ``seat`` can do in a trade now, in one German sentence for the
    pick status: offered in a swap or as a gift (to the active player only, if ``seat``
    is not active; a kept revealed card is planted in phase 3), or, when the engine
    refuses offering them (a card on a field, one just received, an open offer), an
    invitation to try and learn the rule. Empty without cards."""
    if not cards:
        return ""
    active = state.active
    partner = active if seat != active else (seat + 1) % state.n_players
    if check(state, Offer(seat, partner, tuple(cards), ())) is not None:
        return _("Anbieten geht damit gerade nicht – probier es trotzdem, dann erfährst du die Regel.")
    n = len(cards)
    if seat == active:
        text = ngettext("Im Handel kannst du sie anbieten: im Tausch gegen eine Karte, die du "
                        "brauchst, oder als Geschenk.",
                        "Im Handel kannst du sie zusammen anbieten: im Tausch gegen Karten, die du "
                        "brauchst, oder als Geschenk.", n)
    else:
        text = ngettext("Im Handel kannst du sie nur {name} (am Zug) anbieten: im Tausch gegen "
                        "eine Karte, die du brauchst, oder als Geschenk.",
                        "Im Handel kannst du sie zusammen nur {name} (am Zug) anbieten: im Tausch "
                        "gegen Karten, die du brauchst, oder als Geschenk.", n
                        ).format(name=state.players[active].name)
    if seat == active and any(c in state.revealed for c in cards):
        text += " " + _("Eine aufgedeckte Karte, die du behältst, pflanzt du in Phase 3.")
    return text


def release_others(picks: Mapping[int, widgets.ToggleButton], card: int) -> None:
    """One card at a time: untick every card toggle in ``picks`` (card → toggle) but
    ``card``'s, so a second tap replaces the first where only one card can be played."""
    for other, toggle in picks.items():
        if other != card and toggle.value:
            toggle.value = False


def show_picked(t: widgets.ToggleButton, label: str, on: bool) -> None:
    """Redraw a card toggle as (not) selected, in place (focus stays on it)."""
    t.description = ("✓ " if on else "") + label
    (t.add_class if on else t.remove_class)("bt-picked")


def pick_group(title: str, picks: Sequence[Any]) -> widgets.VBox:
    """A titled row of card buttons („Deine Hand (vorne → hinten)“, „Aufgedeckt“, …)."""
    row = box(widgets.HBox, picks, flex_flow="row wrap", align_items="flex-end")
    return box(widgets.VBox, [html(f'<div class="bt bt-zt">{title}</div>'), row], "bt-pickgroup")


def field_tile(state: State, seat: int, k: int, hl: Collection[int], zones: Collection[str],
               controls: Sequence[Any]) -> widgets.VBox:
    """Field ``k`` as drawn on the table, a line for the target mark, and ``controls``
    (plant, harvest, …) under it; classes ``bt-bfield`` and ``bt-field-<k+1>``."""
    mark = html("", classes=("bt-hier-line",))
    return box(widgets.VBox, [html(field_html(state, seat, k, set(hl), set(zones))), mark, *controls],
               "bt-bfield", f"bt-field-{k + 1}")


def mark_targets(tiles: Sequence[widgets.VBox], targets: Collection[int],
                 buttons: Sequence[Any | None] = ()) -> None:
    """Mark the tiles (and their plant buttons) of the fields in ``targets``, unmark the
    rest; in place, so a focused button keeps its focus."""
    for k, tile in enumerate(tiles):
        on = k in targets
        (tile.add_class if on else tile.remove_class)("bt-target")
        target = _(TARGET)
        tile.children[1].value = f'<span class="bt bt-hier">{target}</span>' if on else ""
        b = buttons[k] if k < len(buttons) else None
        if b is not None:
            (b.add_class if on else b.remove_class)("bt-target")
            base = b.description
            b.tooltip = f"{base} – {target}" if on else base


__all__ = ["ANSWER", "PLAYABLE", "TARGET", "board_box", "board_head", "board_row", "card_pick", "field_tile",
           "legal_fields", "mark_targets", "own_cards", "pick_group", "pick_status", "plantable",
           "release_others", "show_picked", "trade_use", "waiting_cards"]
