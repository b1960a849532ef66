"""Self-contained HTML for a table state, a refused move and any other failure.

No JavaScript, no external assets: one ``<style>`` block (classes ``bt-…``) per fragment,
so the output works in ``_repr_html_``, an ``ipywidgets.HTML`` and a static file alike.
Every card names its variety; colour is only an extra hint.

    html = render_table(state, highlight=changed_cards(before, state) | changed_zones(before, state))
"""
from __future__ import annotations

from collections.abc import Collection, Iterable
from html import escape
from typing import Any, Protocol

from bohnteach.game.beans import find_variety, meter_value
from bohnteach.game.edition import View, ZoneDisplay
from bohnteach.game.errors import find_rule
from bohnteach.i18n import N_, _, current, ngettext
from bohnteach.render.language import (
    assumption as meter_assumption, refusal_detail, rule_words, said, source_words, variety_word,
)
from bohnteach.render.failure import render_error
from bohnteach.render.style import style_block, text_colour
from bohnteach.render.words import PHASE_NAMES, TRAIT_WORDS, trait_tag
from bohnteach.game.state import Phase, State


Highlight = Collection[int | str]
"""Card ids and/or zone names (as ``State.zones()`` names them, e.g. ``"Anna.field1"``)."""


class Refusal(Protocol):
    rule_id: str
    detail: str
    explanation: str
    source: str


# ---- what changed ----------------------------------------------------------------------
def _where(state: State) -> dict[int, str]:
    return {card: zone for zone, cards in state.zones() for card in cards}


def changed_cards(before: State, after: State) -> set[int]:
    """Ids of the cards that are in another zone in ``after`` than in ``before``."""
    old, new = _where(before), _where(after)
    return {card for card, zone in new.items() if old.get(card) != zone}


def changed_zones(before: State, after: State) -> set[str]:
    """Names of the zones whose cards differ (a card came, left, or the order changed)."""
    old = dict(before.zones())
    return {zone for zone, cards in after.zones() if old.get(zone) != cards}


# ---- small pieces ----------------------------------------------------------------------
def rule_chip(rule_id: str) -> str:
    """A chip naming a rule by its German title; the ID follows in small print (for
    teachers, who find it in ``docs/rules.md``) and is the tooltip."""
    rid = escape(rule_id)
    rule = _("Regel")
    try:
        title = current().gettext(find_rule(rule_id).title)
    except KeyError:
        return f'<span class="bt-chip bt-rule" data-rule="{rid}">{rule} {rid}</span>'
    label = _("Regel:")
    return (f'<span class="bt-chip bt-rule" data-rule="{rid}" title="{rule} {rid}">'
            f'{label} {escape(title)}<small class="bt-rid">{rid}</small></span>')


def source_chip(source: str) -> str:
    """A chip naming the rulebook by title and section (never a seed file name)."""
    label = _("Quelle:")
    return f'<span class="bt-chip bt-src">{label} {escape(source_words(source))}</span>'


def chips(rule_ids: Iterable[str] = (), sources: Iterable[str] = ()) -> str:
    parts = [rule_chip(r) for r in rule_ids] + [source_chip(s) for s in sources]
    return f'<div class="bt-chips">{"".join(parts)}</div>' if parts else ""


def _cls(*names: str | None) -> str:
    return " ".join(n for n in names if n)


def card_html(
    state: State, card: int, *, changed: bool = False, sideways: bool = False,
    under: bool = False, tag: str = "", front: bool = False,
) -> str:
    """One face-up card: variety name on the variety's colour, its trait if the edition
    gives cards one (symbol and word, never colour alone). ``tag``: a small label already
    in the reader's words („oben“, „3 Karten“); ``front``: the hand's front card."""
    info = state.cards[card]
    variety = find_variety(info.variety)
    bg = variety.colour
    symbol = trait = ""
    if info.trait in TRAIT_WORDS["short"]:
        mark, word = trait_tag(info.trait, "mark"), _(trait_tag(info.trait, "short"))
        symbol = f'<i class="bt-sx">{mark}</i>'
        trait = f'<span class="bt-trait"><i>{mark}</i>{word}</span>'
    tag_html = f'<span class="bt-tag">{escape(tag)}</span>' if tag else ""
    classes = _cls("bt-card", "bt-quer" if sideways else None, "bt-under" if under else None,
                   "bt-changed" if changed else None, "bt-front" if front else None)
    new = f' data-new="{escape(_NEW())}"' if changed else ""  # the „neu“ badge (style.py)
    word = _(trait_tag(info.trait, "word"))
    title = variety_word(variety) + (f" ({word})" if word else "")
    return (
        f'<div class="{classes}" style="background:{bg};color:{text_colour(bg)}" '
        f'title="{escape(title)}" data-card="{card}"{new}>'
        f'<span class="bt-cn">{symbol}{name_html(variety_word(variety))}</span>{trait}{tag_html}</div>'
    )


def name_html(name: str) -> str:
    """A variety name that may wrap before „bohne“ on narrow cards (``<wbr>``)."""
    if " " not in name and name.endswith("bohne") and len(name) > 8:
        return f"{escape(name[:-5])}<wbr>bohne"
    return escape(name)


def back_html(label: str = N_("verdeckt"), *, changed: bool = False) -> str:
    classes = _cls("bt-card", "bt-back", "bt-changed" if changed else None)
    shown = _(label) if any(ch.isalpha() for ch in label) else label  # „?“ is no word
    new = f' data-new="{escape(_NEW())}"' if changed else ""
    return f'<div class="{classes}"{new}><span>{escape(shown)}</span></div>'


def _zone(title: str, body: str, *, changed: bool = False, extra: str = "") -> str:
    classes = _cls("bt-zone", extra, "bt-zchanged" if changed else None)
    return f'<div class="{classes}"><div class="bt-zt">{title}</div>{body}</div>'


def _EMPTY() -> str:
    return _("leer")


def _NEW() -> str:
    return _("neu")


def _plural(n: int, one: str, many: str) -> str:
    """``"1 Karte"``, ``"3 Karten"`` – in the reader's language (a plural message)."""
    return f"{n} {current().ngettext(one, many, n)}"


# ---- fields and the Bohnometer ---------------------------------------------------------
def meter_html(meter: tuple[int, ...] | None, count: int, no_meter: str = View.no_meter_note) -> str:
    """The top card's Bohnometer as a row ``Karten→Taler`` with the reached step lit;
    ``no_meter`` (the edition's ``View.no_meter_note``) for a top card without one."""
    if meter is None:
        return f'<div class="bt-next">{escape(no_meter)}</div>'
    coins = meter_value(meter, count)
    steps = []
    for taler, need in enumerate(meter, start=1):
        if need:
            got = " bt-got" if taler == coins else ""
            steps.append(f'<span class="bt-step{got}">{need}→{taler}</span>')
    higher = [need for need in meter if need and need > count]
    nxt = (_("nächste Stufe bei {n}").format(n=min(higher)) if higher else _("höchste Stufe erreicht"))
    label = _("Karten→Taler")
    return (
        f'<div class="bt-meter"><span class="bt-ml">{label}</span>{"".join(steps)}</div>'
        f'<div class="bt-next">{nxt}</div>'
    )


def breakable(name: str) -> str:
    """A variety name that may break only where German hyphenates it, before „bohne“
    („Feuer-/bohnen“, not „Feuerbohne/n“): a soft hyphen there."""
    return " ".join(
        word[:i] + "\u00ad" + word[i:] if (i := word.casefold().find("bohne")) > 0 else word
        for word in name.split(" ")
    )


def field_html(state: State, player: int, index: int, hl: set[int], zones: set[str]) -> str:
    p = state.players[player]
    cards = p.fields[index]
    changed_zone = f"{p.name}.field{index + 1}" in zones
    field = _("Feld {n}").format(n=index + 1)
    head = f'<div class="bt-zt"><b>{field}</b></div>'
    if not cards:
        body = f'<div class="bt-stack"><div class="bt-empty">{_EMPTY()}</div></div>'
        return f'<div class="{_cls("bt-field", "bt-zchanged" if changed_zone else None)}">{head}{body}</div>'
    n = len(cards)
    ordered = n > 1 and any(state.cards[c].trait for c in cards)  # traits: the top card counts
    stack = "".join(
        card_html(state, c, changed=c in hl, under=i < n - 1,
                  tag=_("oben") if ordered and i == n - 1 else "")
        for i, c in enumerate(cards)
    )
    top = cards[-1]
    variety = find_variety(state.variety[top])
    coins = meter_value(state.meter[top], n) if state.meter[top] else 0
    harvest = ngettext("Ernte jetzt: <b>{coins} Taler</b>", "Ernte jetzt: <b>{coins} Taler</b>",
                       coins).format(coins=coins)
    info = (
        f'<div class="bt-finfo">{n} {escape(breakable(variety_word(variety, n)))}</div>'
        f'<div class="bt-next">{harvest}</div>'
    )
    order = '<div class="bt-next">' + _("zuerst gepflanzt ↓") + "</div>" if ordered else ""
    sequence = field_order_html(state, cards) if ordered else ""
    assumed = ('<div class="bt-next bt-assumed">' + _("* Bohnometer angenommen") + "</div>"
               if state.ruleset.meter_assumption else "")
    classes = _cls("bt-field", "bt-zchanged" if changed_zone else None)
    return (
        f'<div class="{classes}">{head}{order}<div class="bt-stack">{stack}</div>{sequence}{info}'
        f"{meter_html(state.meter[top], n, said(state.edition.view.no_meter_note))}{assumed}</div>"
    )


def field_order_html(state: State, cards: list[int]) -> str:
    """A field whose cards carry traits, where the top card counts: its order in words,
    bottom to top, each trait as symbol and word (``trait_words``), never colour alone."""
    parts = []
    top = " <i>" + _("(oben)") + "</i>"
    for i, c in enumerate(cards):
        trait = state.cards[c].trait
        mark = trait_tag(trait, "mark")
        word = _(trait_tag(trait, "short")) if trait in TRAIT_WORDS["short"] else "?"
        parts.append(f"<span>{mark}&nbsp;{word}{top if i == len(cards) - 1 else ''}</span>")
    label = _("unten → oben:")
    return f'<div class="bt-next bt-order"><b>{label}</b> {" · ".join(parts)}</div>'


# ---- a player ----------------------------------------------------------------------------
def _hand_html(state: State, player: int, open_: bool, hl: set[int], zones: set[str]) -> str:
    p = state.players[player]
    changed = f"{p.name}.hand" in zones
    n = len(p.hand)
    if not n:
        return _zone(_("<b>Hand</b>: leer"), "", changed=changed)
    if open_:
        cards = "".join(
            card_html(state, c, changed=c in hl, tag=_("vorne") if i == 0 else "", front=i == 0)
            for i, c in enumerate(p.hand)
        )
        title = _("<b>Hand</b> ({n}) – vorne → hinten, Reihenfolge bleibt").format(n=n)
        return _zone(title, f'<div class="bt-row">{cards}</div>', changed=changed)
    backs = "".join(back_html("?", changed=c in hl) for c in p.hand)
    title = _("<b>Hand</b>: {cards}, verdeckt").format(cards=_plural(n, "Karte", "Karten"))
    return _zone(title, f'<div class="bt-row bt-hidden">{backs}</div>', changed=changed)


def player_head_html(state: State, player: int, *, you: bool, zones: Collection[str] = ()) -> str:
    """A player's head line: name, badges („du“, „▶ am Zug“, „Startspieler“) and coins."""
    p = state.players[player]
    over = state.phase is Phase.OVER
    badges = []
    if you:
        badges.append('<span class="bt-badge bt-you">' + _("du") + "</span>")
    if player == state.active and not over:
        badges.append('<span class="bt-badge bt-act">' + _("▶ am Zug") + "</span>")
    if player == state.start_player:
        badges.append('<span class="bt-badge bt-start">' + _("Startspieler") + "</span>")
    coin_cls = _cls("bt-coins", "bt-zchanged" if f"{p.name}.coins" in zones else None)
    place = said(state.edition.view.coin_place)
    on = (' <small class="bt-home">' + _("auf „{place}“").format(place=escape(place)) + "</small>"
          if place else "")
    pile = place or _("Talerstapel")
    count = _plural(len(p.coins), "Taler", "Taler")
    coins = (f'<span class="{coin_cls}" title="{escape(pile)}"><span class="bt-coin"></span>'
             f"{count}{on}</span>")
    return f'<div class="bt-phead"><span class="bt-name">{escape(p.name)}</span>{"".join(badges)}{coins}</div>'


def player_html(state: State, player: int, *, open_hand: bool, you: bool, hl: set[int],
                zones: set[str]) -> str:
    p = state.players[player]
    over = state.phase is Phase.OVER
    head = player_head_html(state, player, you=you, zones=zones)
    fields = "".join(field_html(state, player, i, hl, zones) for i in range(len(p.fields)))
    parts = [head, f'<div class="bt-fields">{fields}</div>']
    parts.append(waiting_html(state, player, hl, zones))
    if p.set_aside:
        aside = "".join(card_html(state, c, changed=c in hl, sideways=True) for c in p.set_aside)
        parts.append(_zone(
            _("<b>Quer gelegt</b> (erhalten – wird in Phase 3 gepflanzt, nie auf die Hand)"),
            f'<div class="bt-row">{aside}</div>',
            changed=f"{p.name}.set_aside" in zones,
        ))
    parts.append(_hand_html(state, player, open_hand, hl, zones))
    classes = _cls("bt-player", "bt-active" if player == state.active and not over else None)
    return f'<section class="{classes}" data-player="{player}">{"".join(parts)}</section>'


def zone_cards_html(state: State, cards: Iterable[int], hl: set[int]) -> str:
    """An edition zone's cards, one card per kind (variety and trait) with its count, in the
    order the kinds first appear: a zone of twenty cards stays one row on a phone."""
    groups: dict[tuple[str, Any], list[int]] = {}
    for c in cards:
        groups.setdefault((state.variety[c], state.cards[c].trait), []).append(c)
    return "".join(
        card_html(state, same[-1], changed=any(c in hl for c in same),
                  tag=_plural(len(same), "Karte", "Karten") if len(same) > 1 else "")
        for same in groups.values()
    )


def edition_zone_html(state: State, shown: ZoneDisplay, hl: set[int], changed: bool) -> str:
    """One zone of ``View.zones_for_display``: „<b>title</b> – note“, its cards, its rule."""
    title = f"<b>{escape(said(shown.zone.title))}</b>" + (f" – {escape(said(shown.note))}" if shown.note else "")
    cards = zone_cards_html(state, shown.cards, hl)
    body = f'<div class="bt-row">{cards}</div>' if cards else ""
    rule = chips([shown.zone.rule]) if shown.zone.rule else ""
    return _zone(title, body + rule, changed=changed, extra=_cls("bt-ezone", shown.css))


def waiting_html(state: State, player: int, hl: set[int], zones: set[str]) -> str:
    """The player's edition zones (``View.zones_for_display``), e.g. cards received in a deal
    that must go onto their field now, or a piece the player moves."""
    name = state.players[player].name
    return "".join(
        edition_zone_html(state, shown, hl, f"{name}.{shown.zone.key}" in zones)
        for shown in state.edition.view.zones_for_display(state, player) if shown.zone.per_player
    )


def table_displays(state: State) -> list[ZoneDisplay]:
    """The edition's zones of the whole table to draw now (``View.table_zones_for_display``:
    e.g. every place of a board, empty ones too)."""
    if all(z.per_player for z in state.edition.zones):
        return []
    return state.edition.view.table_zones_for_display(state)


def table_zones_html(state: State, hl: set[int], zones: set[str]) -> str:
    """The edition's table zones (``table_displays``, e.g. a board's places), in one box in
    the middle of the table, one row per zone: „title – note“ and its cards."""
    rows = []
    changed = False
    displays = table_displays(state)
    for shown in displays:
        note = f" – {escape(said(shown.note))}" if shown.note else ""
        cards = zone_cards_html(state, shown.cards, hl)
        changed = changed or shown.zone.key in zones
        place = said(shown.zone.title).split(", ", 1)[-1]  # „Box, Place“: the place in the box
        rows.append(f'<div class="{_cls("bt-tz", shown.css)}"><div class="bt-zt"><b>{escape(place)}</b>'
                    f'{note}</div><div class="bt-row">{cards}</div></div>')
    if not rows:
        return ""
    first = displays[0].zone
    title = said(first.title).split(",")[0]
    rule = chips([first.rule]) if first.rule else ""
    return _center(escape(title), f'<div class="bt-tzs">{"".join(rows)}</div>{rule}', changed,
                   extra="bt-table-zone")


# ---- the middle of the table --------------------------------------------------------------
def _center(title: str, body: str, changed: bool = False, extra: str = "") -> str:
    classes = _cls("bt-center", extra, "bt-zchanged" if changed else None)
    return f'<div class="{classes}"><div class="bt-zt"><b>{title}</b></div>{body}</div>'


def pass_label(state: State) -> str:
    """„2. Durchgang“, „3. Durchgang (letzter)“ or that the pile is used up for good."""
    last = state.setup.exhaustions
    if state.ending or state.pass_number > last:
        return _("Stapel zum letzten Mal aufgebraucht")
    if state.pass_number == last:
        return _("{n}. Durchgang (letzter)").format(n=state.pass_number)
    return _("{n}. Durchgang").format(n=state.pass_number)


def middle_html(state: State, hl: set[int], zones: set[str], perspective: int | None = None) -> str:
    parts = []
    n = len(state.deck)
    deck_card = back_html(N_("Stapel")) if n else f'<div class="bt-empty">{_EMPTY()}</div>'
    deck_count = _plural(n, "Karte", "Karten")
    parts.append(_center(
        _("Nachziehstapel"),
        f'<div class="bt-pile">{deck_card}<div class="bt-pile-info">'
        f"<span>{deck_count}</span>"
        f"<b>{pass_label(state)}</b></div></div>",
        changed="deck" in zones,
    ))
    d = len(state.discard)
    top = card_html(state, state.discard[-1], changed=state.discard[-1] in hl) if d else (
        f'<div class="bt-empty">{_EMPTY()}</div>')
    discard_count = _plural(d, "Karte", "Karten")
    parts.append(_center(
        _("Ablagestapel"),
        f'<div class="bt-pile">{top}<div class="bt-pile-info">'
        f"<span>{discard_count}</span>"
        f"</div></div>",
        changed="discard" in zones,
    ))
    if state.revealed or "revealed" in zones:
        owner = escape(state.players[state.active].name)
        cards = "".join(card_html(state, c, changed=c in hl) for c in state.revealed)
        none_left = _("keine mehr")
        body = f'<div class="bt-row">{cards or "<span>" + none_left + "</span>"}</div>'
        parts.append(_center(_("Aufgedeckt (gehören {owner})").format(owner=owner), body, "revealed" in zones))
    parts.append(table_zones_html(state, hl, zones))
    if state.offer is not None:
        parts.append(offer_html(state, hl, perspective))
    return f'<div class="bt-middle">{"".join(parts)}</div>'


def hidden_trait_html(variety_key: str, title: str = View.hidden_card_title) -> str:
    """An offered card whose trait the viewer may not see (``View.offer_view`` hides it);
    ``title`` says so in the edition's words (``View.hidden_card_title``)."""
    variety = find_variety(variety_key)
    bg = variety.colour
    return (
        f'<div class="bt-card bt-traithidden" style="background:{bg};color:{text_colour(bg)}" '
        f'title="{escape(variety_word(variety))} ({escape(said(title))})">'
        f'<span class="bt-cn">{name_html(variety_word(variety))}</span>'
        '<span class="bt-trait"><i>?</i>' + _("nicht genannt") + "</span></div>"
    )


def offer_html(state: State, hl: set[int], perspective: int | None = None) -> str:
    """The open offer as ``perspective`` (default: the addressee) hears it: what the
    edition's ``View.offer_view`` hides (e.g. the trait of another player's hand card) stays
    hidden until the deal is done."""
    o = state.offer
    assert o is not None
    who = escape(state.players[o.player].name)
    to = escape(state.players[o.to].name)
    viewer = perspective if perspective is not None else o.to
    view = state.edition.view.offer_view(state, viewer)
    assert view is not None

    def side(label: str, cards: tuple[int, ...], shown: tuple) -> str:
        body = "".join(
            card_html(state, c, changed=c in hl) if not seen.hidden
            else hidden_trait_html(seen.variety, state.edition.view.hidden_card_title)
            for c, seen in zip(cards, shown)
        )
        return f'<div class="bt-offer-side"><div class="bt-zt">{label}</div><div class="bt-row">{body}</div></div>'

    body = side(_("{name} gibt").format(name=who), o.give, view.give) if o.give else ""
    if o.get:
        body += side(_("{name} möchte von {other}").format(name=who, other=to), o.get, view.get)
    hidden = any(c.hidden for c in view.give + view.get)
    note = ""
    if hidden:
        name = escape(state.players[viewer].name)
        text, rule_id = state.edition.view.hidden_offer
        hears = _("So hört es {name}:").format(name=name)
        note = f'<div class="bt-next">{hears} {escape(said(text))}</div>' + chips([rule_id])
    waits = _("Wartet auf die Antwort von {other}.").format(other=to)
    body = (f'<div class="bt-row">{body}</div>{note}'
            f'<div class="bt-next">{waits}</div>')
    title = (_("Geschenk von {name} an {other}") if not o.get
             else _("Angebot von {name} an {other}")).format(name=who, other=to)
    return _center(title, body, extra="bt-offer")


# ---- the table -----------------------------------------------------------------------------
def phase_bar(state: State) -> str:
    if state.phase is Phase.OVER:
        return ""
    parts: list[str] = []
    for ph, name in PHASE_NAMES.items():
        on = state.phase is ph
        current = ' aria-current="step"' if on else ""
        parts.append(f'<li class="{_cls("bt-phase", "bt-on" if on else None)}"{current}>'
                     f"<b>{int(ph)}</b>{_(name)}</li>")
    items = "".join(parts)
    label = _("Phasen")
    return f'<ol class="bt-phases" aria-label="{label}">{items}</ol>'


def game_over_html(state: State) -> str:
    scores = state.scores or [len(p.coins) for p in state.players]
    winners = set(state.winners or [])
    order = sorted(range(len(state.players)), key=lambda i: -scores[i])
    wins = " – " + _("gewinnt ★")
    rows = "".join(
        f'<li class="{"bt-win" if i in winners else ""}">{escape(state.players[i].name)}: '
        f"{_plural(scores[i], 'Taler', 'Taler')}{wins if i in winners else ''}</li>"
        for i in order
    )
    names = _(" und ").join(escape(state.players[i].name) for i in sorted(winners))
    if not winners:
        head = _("Spielende")
    elif len(winners) == 1:
        head = _("Spielende – {names} gewinnt").format(names=names)
    else:
        head = _("Spielende – {names} gewinnen").format(names=names)
    return f'<div class="bt-over"><h4>{head}</h4><ol>{rows}</ol></div>'


def _open_hands(state: State, show_hands: bool | Iterable[int] | None, perspective: int | None) -> set[int]:
    everyone = set(range(len(state.players)))
    if show_hands is None:
        return everyone if perspective is None else {perspective}
    if show_hands is True:
        return everyone
    if show_hands is False:
        return set()
    return set(show_hands)


def _outlined_zones(state: State, cards: set[int], zones: set[str]) -> set[str]:
    """Changed zones worth an outline: those where no marked card already shows it
    (a hand that lost its front card, a pile whose count changed, a harvested field)."""
    if not zones:
        return zones
    return {name for name, held in state.zones()
            if name in zones and (name == "deck" or not cards.intersection(held))}


def split_highlight(state: State, highlight: Highlight) -> tuple[set[int], set[str]]:
    """A highlight as ``render_table`` marks it: (card ids, zone names worth an outline)."""
    hl = {h for h in highlight if isinstance(h, int)}
    return hl, _outlined_zones(state, hl, {h for h in highlight if isinstance(h, str)})


def render_table(
    state: State,
    *,
    show_hands: bool | Iterable[int] | None = None,
    highlight: Highlight = (),
    perspective: int | None = None,
    omit: Collection[int] = (),
) -> str:
    """The whole table as self-contained HTML.

    ``show_hands``: ``True`` all hands face up, ``False`` all face down, or the seats to
    show; ``None`` (default) = all, or only ``perspective``'s hand when it is given.
    ``highlight``: card ids and zone names changed by the last step (outline + „neu“).
    ``perspective``: the learner's seat, marked „du“.
    ``omit``: seats not drawn (a widget draws the learner's own place as controls).
    """
    hl, zones = split_highlight(state, highlight)
    open_hands = _open_hands(state, show_hands, perspective)
    over = state.phase is Phase.OVER
    active = state.players[state.active].name
    if over:
        top = game_over_html(state)
    else:
        words = _("Zug {turn} · {name} ist am Zug").format(turn=state.turn, name=escape(active))
        turn = f'<span class="bt-turn">{words}</span>'
        top = f'<div class="bt-top">{turn}{phase_bar(state)}</div>'
    note = ""
    if state.ruleset.meter_assumption:
        assumption = meter_assumption(state.ruleset.meter_assumption)
        label = _("Achtung, Annahme:")
        note = (f'<div class="bt-note"><b>{label}</b> {escape(assumption)}</div>')
    n = len(state.players)
    first = perspective if perspective is not None else 0
    seats = [(first + k) % n for k in range(n)]  # the learner first, clockwise order kept
    players = "".join(
        player_html(state, i, open_hand=i in open_hands, you=i == perspective, hl=hl, zones=zones)
        for i in seats if i not in omit
    )
    return (
        f'{style_block()}<div class="bt bt-table" lang="{current().lang}">{top}{note}'
        f"{middle_html(state, hl, zones, perspective)}"
        f'<div class="bt-players">{players}</div></div>'
    )


# ---- boxes ---------------------------------------------------------------------------------
def render_refusal(violation: Refusal) -> str:
    """A refused move: the rule's title, this situation, the rule explained, ID and source."""
    rule_id = getattr(violation, "rule_id", "")
    try:
        rule: Any = find_rule(rule_id)
    except KeyError:
        rule = None
    tr = current()
    words = rule_words(rule) if rule else None
    title = words.title if words else _("Dieser Zug ist nicht erlaubt")
    detail = refusal_detail(violation)
    explanation = tr.prose(getattr(violation, "explanation", "") or (rule.explanation if rule else ""))
    source = getattr(violation, "source", "") or (rule.source if rule else "")
    refused = _("Nicht erlaubt:")
    parts = [f'<h4><span class="bt-icon">✕</span> {refused} {escape(title)}</h4>']
    if detail:
        parts.append(f'<p class="bt-detail">{escape(detail)}</p>')
    if explanation:
        parts.append(f"<p>{escape(explanation)}</p>")
    if words is not None and words.interpretation:
        label = _("Auslegung:")
        parts.append(f'<p class="bt-ausl"><b>{label}</b> {escape(words.interpretation)}</p>')
    parts.append(chips([rule_id] if rule_id else [], [source] if source else []))
    parts.append('<p class="bt-next">' + _("Der Tisch bleibt, wie er war.") + "</p>")
    return f'{style_block()}<div class="bt bt-box bt-refusal" role="alert">{"".join(parts)}</div>'


def render_success(message: str, rule_ids: Iterable[str] = ()) -> str:
    """A green box: the learner did it; names the rule learned."""
    done = _("Geschafft!")
    return (
        f'{style_block()}<div class="bt bt-box bt-success" role="status"><h4>✔ {done}</h4>'
        f"<p>{escape(message)}</p>{chips(rule_ids)}</div>"
    )


def render_info(title: str, text: str = "", rule_ids: Iterable[str] = (),
                sources: Iterable[str] = ()) -> str:
    """A neutral blue box (narration, goal, hint)."""
    body = f"<p>{escape(text)}</p>" if text else ""
    return (
        f'{style_block()}<div class="bt bt-box bt-info"><h4>{escape(title)}</h4>{body}'
        f"{chips(rule_ids, sources)}</div>"
    )


def show_states_as_tables() -> None:
    """In a kernel: display a ``State`` left as a cell's result as :func:`render_table`
    (IPython's HTML formatter; a no-op outside IPython). The render layer registers it, so
    the game core needs no display hook and imports nothing above itself."""
    from IPython import get_ipython

    shell = get_ipython()
    if shell is not None:
        shell.display_formatter.formatters["text/html"].for_type(State, render_table)


__all__ = [
    "card_html", "changed_cards", "changed_zones", "chips", "render_error", "render_info",
    "render_refusal", "render_success", "render_table", "rule_chip", "show_states_as_tables",
    "source_chip",
]
