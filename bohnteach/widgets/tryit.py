"""„Mach du!“: the learner plays one seat of a scripted situation.

The learner's own place is drawn as controls (``widgets/board.py``): the cards to choose
from (hand, set-aside, revealed, waiting babies; field tops in a trade) are card-shaped
buttons, each field is a tile with „Auf Feld k pflanzen“ and „Feld k ernten“ under it.
Tap a card and the fields it may go onto are marked; tap a field's button to plant it
(nothing chosen: the game takes the front or next card). The answer box sits beside the
fields (under them on a phone), so the control and its result are in view together; the
other actions (end phase 1, offer, accept/decline, end trading, draw, sort the hand, take a
received card into the hand) follow right under the board, then the rest of the table
(the other players, hands face down unless the case opens them). Refused moves can be
pressed too: the engine's explanation appears in the answer box and the table stays as it
was. The other players answer offers by a scripted policy and plant their received cards
by themselves.

    TryIt(TryItCase(...))                 # a widget (VBox); cases in content/tryit_cases.py
    make_tryit("phase1")                  # a case id or a chapter key
    TryIt(state, learner=0, goal="…", check=lambda s: …, rule="p1.plant-front")
    TryIt(case, lang="en")                # in English (default: the page's language)

Everything it says is in its reader's language (``lang``, kept as ``self.tr``): the case's
texts through the catalogue, the refusals through ``render.language``, the moves through
``play_words``.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

import ipywidgets as widgets

from bohnteach.game.actions import (
    Accept, Action, Decline, Draw, EndPlanting, EndTrading, Harvest, Offer, Plant, Reorder,
    TakeIntoHand,
)
from bohnteach.game.engine import actor, apply, check as check_action, legal_actions, to_plant
from bohnteach.game.errors import RuleViolation, find_rule
from bohnteach.render.table import (
    changed_cards, changed_zones, render_info, render_refusal, render_success,
    render_table, split_highlight,
)
from bohnteach.render.language import rule_words, said
from bohnteach.render.style import style_block
from bohnteach.game.state import Phase, State
from bohnteach.game.view import player_view
from bohnteach.content.tryit_case import Check, TryItCase, wants
from bohnteach.i18n import N_, Translator, _, ngettext, reader
from bohnteach.widgets.board import (
    ANSWER, board_box, board_head, board_row, card_pick, field_tile, legal_fields, mark_targets,
    own_cards, pick_group, pick_status, plantable, release_others, show_picked, trade_use,
    waiting_cards,
)
from bohnteach.widgets.failure import guard
from bohnteach.widgets.parts import button, flow, html, layout, speaks, style_of
from bohnteach.widgets.play_words import action_words, card_name, joined, offer_words, variety_name


def _bot_plant(state: State, seat: int) -> Action | None:
    """A co-player's phase-3 move: plant a received card (harvest first if no room)."""
    moves = legal_actions(state, seat, offers=False)
    plants = [a for a in moves if isinstance(a, Plant)]
    if plants:
        # prefer a field that already grows the variety
        def fits(a: Plant) -> bool:
            return bool(state.players[seat].fields[a.field])
        return sorted(plants, key=lambda a: not fits(a))[0]
    harvests = [a for a in moves if isinstance(a, Harvest)]
    return harvests[0] if harvests else None


def _waiting_seats(state: State) -> list[int]:
    hook = state.edition.waiting_seats
    return hook(state) if hook is not None else []


def _own_label(state: State, card: int) -> str:
    """An own card: the variety and (Ladybohn) the sex, as symbol and word."""
    return card_name(state, card, trait="symbol")


def lift_moves(state: State, seat: int) -> list[tuple[str, Plant]]:
    """Every plant with an edition choice ``seat`` may try now (Ladybohn, lady.baby-lift:
    each female moved 1 or up to ``baby_lift`` places), as (German label, ``Plant``);
    from ``View.choice_moves``."""
    return state.edition.view.choice_moves(state, seat, plantable(state, seat))


def edition_moves(state: State, seat: int) -> list[tuple[str, list[tuple[str, Action]]]]:
    """The edition's own actions ``seat`` may try now (types of ``Edition.actions``:
    Indiana's temple visit, purchases, …), tempting wrong ones included, as groups
    (German heading, [(button label, action), …]); from ``View.try_moves``."""
    return state.edition.view.try_moves(state, seat) if state.edition.actions else []


_FALLBACK: dict[type, str] = {  # N_: translated where shown
    Plant: N_("{who} pflanzt"), EndPlanting: N_("{who} beendet Phase 1"), Harvest: N_("{who} erntet"),
    Offer: N_("{who} macht ein Angebot"), Accept: N_("{who} nimmt an"), Decline: N_("{who} lehnt ab"),
    EndTrading: N_("{who} beendet den Handel"), Draw: N_("{who} zieht nach"),
    Reorder: N_("{who} sortiert die Hand"), TakeIntoHand: N_("{who} nimmt eine Karte auf die Hand"),
}


def _fallback_text(state: State, action: Action) -> str:
    """Our own short label if the move cannot be phrased in full."""
    who = state.players[action.player].name
    template = _FALLBACK.get(type(action))
    return _(template).format(who=who) if template else f"{who} {type(action).__name__}"


def lift_note(state: State, events: Sequence[tuple]) -> str:
    """After a plant with an edition choice (a baby lift): the edition's info box
    (``View.choice_note``), empty otherwise."""
    note = state.edition.view.choice_note(state, events)
    if note is None:
        return ""
    title, text, rule_ids = note  # the edition's words (N_ or Phrases): worded here
    return render_info(said(title), said(text), rule_ids)


def describe(state: State, action: Action, viewer: int | None = None) -> str:
    """The log line for ``action`` on ``state`` (the table before it). An offer is told
    as ``viewer`` hears it: with ``offer_names_variety_only`` (Ladybohn) only the
    varieties of other players' hand cards (lady.offer-variety-only)."""
    if isinstance(action, Plant) and action.choice is not None:
        try:  # „… hebt Blaue Bohne (w) #11 um 2“ is for tools; learners get the place
            female, by = action.choice
            cards = state.players[action.player].fields[action.field]
            card = action.card if action.card is not None else plantable(state, action.player)[0]
            return ngettext(
                "{who} pflanzt {card} auf Feld {field}; die weibliche Bohne ({place}. von unten) "
                "rückt {by} Platz hoch",
                "{who} pflanzt {card} auf Feld {field}; die weibliche Bohne ({place}. von unten) "
                "rückt {by} Plätze hoch", by,
            ).format(who=state.players[action.player].name, card=_own_label(state, card),
                     field=action.field + 1, place=cards.index(female) + 1, by=by)
        except Exception:  # noqa: BLE001 - fall back to the full sentence
            pass
    if isinstance(action, Offer) and state.edition.view.offer_hides_cards(state):
        try:
            view = state.edition.view.offer_view(state, viewer, action)
            if view is not None:
                return _offer_text(state, action, view)
        except Exception:  # noqa: BLE001 - fall back to the full sentence
            pass
    try:
        return action_words(state, action)
    except Exception:  # noqa: BLE001 - a label is never worth a crash
        return _fallback_text(state, action)


def _offer_text(state: State, action: Offer, view: Any) -> str:
    def cards(shown: tuple) -> list[str]:
        return [joined([c.label for c in shown])] if shown else []

    return offer_words(state.players[action.player].name, state.players[action.to].name,
                       cards(view.give), cards(view.get))


# ---- the widget ---------------------------------------------------------------------------
class TryIt(widgets.VBox):
    """The learner plays seat ``learner``; see the module docstring."""

    def __init__(
        self,
        situation: State | TryItCase | Any,
        *,
        learner: int | str | None = None,
        goal: str = "",
        check: Check | None = None,
        rule: str | None = None,
        hints: Sequence[str] = (),
        answers: Mapping[str, str] | None = None,
        title: str = N_("Mach du!"),
        learned: str = "",
        show_hands: Any = None,
        lang: str | Translator | None = None,
    ):
        self.tr = reader(lang)  # every text below and in every callback: the reader's language
        self.case = situation if isinstance(situation, TryItCase) else None
        if self.case is not None:
            state, face_up = self.case.build()
            learner = self.case.learner if learner is None else learner
            goal = goal or self.case.goal
            rule = rule or self.case.rule
            hints = hints or self.case.hints
            answers = answers if answers is not None else dict(self.case.answers)
            title = self.case.title if title == N_("Mach du!") else title
            learned = learned or self.case.learned
            check = check or self.case.checker(state)
            show_hands = face_up if show_hands is None else show_hands
        elif isinstance(situation, State):
            state = situation.copy()
        else:  # a scene: start from its last table
            state = situation.state_at(len(situation.steps))
            show_hands = tuple(getattr(situation, "face_up", ())) if show_hands is None else show_hands
        if isinstance(learner, str):
            learner = state.player_index(learner)
        self.learner: int = state.active if learner is None else learner
        self.goal, self.check, self.rule, self.hints = goal, check, rule, tuple(hints)
        self.answers = {state.player_index(k): v for k, v in (answers or {}).items()}
        self.learned = learned
        self.show_hands = True if show_hands is None else show_hands
        self.initial = state
        self.state = state.copy()
        self.history: list[tuple[str, bool]] = []
        self.refusals: list[RuleViolation] = []
        self.solved = False
        self.hint_index = 0
        self._selected: set[int] = set()
        self._wanted: set[int] = set()
        self._partner: int | None = None
        self._highlight: set[int | str] = set()
        self._labels: dict[int, str] = {}  # the learner's choosable cards: card → label
        self._picks: dict[int, Any] = {}  # their toggles: card → toggle
        self._tiles: list[Any] = []  # the field tiles of the board, and their plant buttons
        self._plant_buttons: list[Any] = []
        self.pick_status = html()  # what is chosen and where it may go

        tr = self.tr
        self.header = html(self._header_html(title))
        self.feedback = html(classes=(ANSWER,))
        self.hint_box = html()
        self.table = html()
        self.log_box = html()
        self.controls = widgets.VBox(layout=layout(width="100%"))
        self.hint_button = button(tr.gettext("Tipp"), tr.gettext("Einen Tipp zeigen"))
        self.restart_button = button(tr.gettext("↺ Neu starten"), tr.gettext("Alles auf Anfang"))
        self.hint_button.on_click(self._guard("Tipp")(lambda _b: self.show_hint()))
        self.restart_button.on_click(self._guard("Neu starten")(lambda _b: self.restart()))
        super().__init__(
            [self.header, self.controls, self.hint_box,
             flow([self.hint_button, self.restart_button]), self.table, self.log_box],
            layout=layout(width="100%", max_width="1200px"), _dom_classes=("bt-tryit",),
        )
        self._guard("Mach du! (Start)")(self._start)()

    def _guard(self, what: str) -> Callable[[Any], Any]:
        """A callback's guard: it runs in the reader's language, a failure shows its box in
        the answer box."""
        return guard(self._show_error, what, lang=self.tr)

    # ---- display ---------------------------------------------------------------------------
    def _header_html(self, title: str) -> str:
        tr = self.tr
        learner = escape(self.initial.players[self.learner].name)
        heading = tr.gettext("Mach du! {title}").format(title=tr.gettext(title))
        playing = tr.gettext("Du spielst <b>{name}</b>.").format(name=learner)
        return (f'{style_block()}<div class="bt bt-box bt-info"><h4>{escape(heading)}</h4>'
                f"<p>{playing} {escape(tr.gettext(self.goal))}</p></div>")

    def _show_error(self, fragment: str) -> None:
        self.feedback.value = fragment

    @speaks
    def _refresh(self) -> None:
        s = self.state
        self.table.value = render_table(s, show_hands=self.show_hands, highlight=self._highlight,
                                        perspective=self.learner, omit={self.learner})
        refused_mark = " – " + _("abgelehnt")
        lines = "".join(
            f'<li style="{"color:#8e1b1b" if refused else ""}">{escape(text)}'
            f'{refused_mark if refused else ""}</li>'
            for text, refused in self.history[-12:]
        )
        moves = _("Bisherige Züge")
        self.log_box.value = (
            f'{style_block()}<div class="bt"><div class="bt-zt"><b>{moves}</b></div>'
            f'<ol style="margin:0;padding-left:22px;font-size:13px">{lines}</ol></div>'
            if lines else "")
        self._build_controls()

    # ---- flow ------------------------------------------------------------------------------
    @speaks
    def _start(self) -> None:
        self._run_others()
        self._refresh()

    @speaks
    def restart(self) -> None:
        """Back to the starting table."""
        self.state = self.initial.copy()
        self.history.clear()
        self.refusals.clear()
        self.solved = False
        self.hint_index = 0
        self._selected.clear()
        self._wanted.clear()
        self._partner = None
        self._highlight = set()
        self.feedback.value = ""
        self.hint_box.value = ""
        self._start()

    @speaks
    def show_hint(self) -> None:
        """The next hint (cycling)."""
        if not self.hints:
            self.hint_box.value = render_info(_("Tipp"), _("Für diese Aufgabe gibt es keinen Tipp."))
            return
        k = self.hint_index % len(self.hints)
        self.hint_index += 1
        self.hint_box.value = render_info(_("Tipp {k} von {n}").format(k=k + 1, n=len(self.hints)),
                                          _(self.hints[k]))

    @speaks
    def play(self, action: Action) -> RuleViolation | None:
        """Try the learner's ``action``: apply it, or show the refusal (table unchanged)."""
        before = self.state
        text = describe(before, action, self.learner)
        refusal = check_action(before, action)
        if refusal is not None:
            self.history.append((text, True))
            self.refusals.append(refusal)
            self.feedback.value = render_refusal(refusal)
            self._highlight = set()
            if not isinstance(action, Plant):  # a refused plant keeps its card: try another field
                self._selected.clear()
            self._wanted.clear()
            self._refresh()
            if self.check is None and self.rule and refusal.rule_id == self.rule:
                self._succeed()
            return refusal
        after = before.copy()
        events = apply(after, action)
        self.history.append((text, False))
        self.state = after
        self.feedback.value = lift_note(after, events)  # Ladybohn: what the baby's push did
        self._run_others()
        self._highlight = set(changed_cards(before, self.state)) | set(changed_zones(before, self.state))
        self._selected.clear()
        self._wanted.clear()
        if self.solved:
            pass  # already solved: the success box stays
        elif self.check is not None and self.check(self.state):
            self._succeed()
        elif actor(self.state) not in (self.learner, None) and self.state.active != self.learner:
            self.feedback.value = render_info(
                _("Dein Zug ist vorbei"),
                _("Das Ziel ist noch nicht erreicht. Mit „Neu starten“ kannst du es noch einmal versuchen."))
        self._refresh()
        return None

    def _succeed(self) -> None:
        self.solved = True
        rules = [self.rule] if self.rule else []
        title = ""
        if self.rule:
            try:
                title = _("Gelernt: {rule}.").format(rule=rule_words(find_rule(self.rule)).title) + " "
            except KeyError:
                title = ""
        self.feedback.value = render_success(title + (_(self.learned) if self.learned else _("Gut gemacht!")),
                                             rules)

    def _run_others(self) -> None:
        """The other players answer offers and plant what they received."""
        for _ in range(50):
            s = self.state
            if s.phase is Phase.OVER:
                return
            o = s.offer
            waiting = [p for p in _waiting_seats(s) if p != self.learner]
            if waiting:  # lady.baby-trade-immediate: a co-player plants a received baby
                move = _bot_plant(s, waiting[0])
                if move is None:
                    return
            elif o is not None and o.to != self.learner:
                answer = self.answers.get(o.to, "nein")
                move: Action = Accept(o.to) if wants(answer, s, o) else Decline(o.to)
            elif s.phase is Phase.PLANT_RECEIVED:
                seats = [p for p in range(s.n_players) if p != self.learner and to_plant(s, p)]
                if s.ruleset.phase3_order == "active_first":  # lady.p3-order: one at a time
                    seats = [p for p in seats if p == actor(s)]
                bot_moves = [m for m in (_bot_plant(s, p) for p in seats) if m is not None]
                if not bot_moves:
                    return
                move = bot_moves[0]
            else:
                return
            before = s.copy()
            apply(s, move)
            self.history.append((describe(before, move, self.learner), False))

    # ---- the choices -----------------------------------------------------------------------
    def _toggle(self, label: str, card: int, chosen: set[int], tooltip: str = "",
                variety: str = "") -> Any:
        """A card-shaped toggle that adds ``card`` to ``chosen``; choosing an own card
        marks the fields it may go onto. Own cards are chosen one at a time except for
        an offer: a second tap replaces the first (a refused plant keeps its card chosen,
        so the next tap must not make it two)."""
        own = chosen is self._selected
        t = card_pick(variety or self.state.variety[card], label, value=card in chosen,
                      tooltip=tooltip, changed=own and card in self._highlight,
                      playable=own and card in plantable(self.state, self.learner))
        if own:
            self._picks[card] = t

        def flip(change: dict) -> None:
            if own and self._picks.get(card) is not t:  # tapped while the board was redrawn
                current = self._picks.get(card)  # (after a refusal): the new card counts
                if current is not None:
                    current.value = change["new"]
                return
            (chosen.add if change["new"] else chosen.discard)(card)
            show_picked(t, label, change["new"])
            if own:
                if change["new"] and self.state.phase is not Phase.TRADE:
                    release_others(self._picks, card)
                self._mark()

        t.observe(self._guard("Karte wählen")(flip), names="value")
        return t

    def _own_cards(self) -> list[tuple[str, list[tuple[str, int]]]]:
        """The learner's cards to choose from, by place: (group title, [(label, card)])."""
        s, me = self.state, self.learner
        return own_cards(s, me, _own_label, waiting_cards(s, me))

    def _targets(self) -> set[int]:
        """The fields the one chosen own card may be planted on now (none if no card or
        several are chosen)."""
        if len(self._selected) != 1:
            return set()
        s, me = self.state, self.learner
        card = next(iter(self._selected))
        return legal_fields(s, me, card) | {a.field for _, a in lift_moves(s, me)
                                            if a.card in (card, None) and check_action(s, a) is None}

    def _trading(self) -> bool:
        """The chosen own cards are for an offer: phase 2, unless they are cards the
        edition makes the learner plant at once (Ladybohn's received baby)."""
        s, me = self.state, self.learner
        return s.phase is Phase.TRADE and not self._selected & set(waiting_cards(s, me))

    def _mark(self) -> None:
        """Mark the legal fields for the chosen card and say so in words; in a trade,
        say what the chosen cards can do in the deal instead."""
        trading = self._trading()
        targets = set() if trading else self._targets()
        mark_targets(self._tiles, targets, self._plant_buttons)
        cards = sorted(self._selected)
        chosen = [self._labels.get(c, "") for c in cards]
        empty = "" if not self._labels else (
            _("Tippe die Karten an, die du anbieten willst.") if self.state.phase is Phase.TRADE
            else _("Tippe eine Karte an: Die Felder, auf die sie darf, werden grün gestrichelt umrandet."))
        use = trade_use(self.state, self.learner, cards) if trading else ""
        self.pick_status.value = pick_status(chosen, targets, trading=trading, empty=empty, use=use)

    def _open_seats(self) -> set[int]:
        """Seats whose hand the learner sees (the own one, and any the exercise opens)."""
        shown = self.show_hands
        if shown is True:
            return set(range(self.state.n_players))
        return set(shown or ()) | {self.learner}

    def _action_button(self, label: str, make: Callable[[], Action | None], tooltip: str = "",
                       style: str = "") -> Any:
        b = button(label, tooltip, style=style)

        def press(_b: Any) -> None:
            action = make()
            if action is not None:
                self.play(action)

        b.on_click(self._guard(label)(press))
        return b

    def _one_selected(self) -> int | None | bool:
        """The single selected own card, None if none, False (and a message) if several."""
        if len(self._selected) > 1:
            self.feedback.value = render_info(
                _("Eine Karte, bitte"), _("Zum Pflanzen wähle genau eine Karte (oder keine: dann "
                                          "nimmt das Spiel die vorderste bzw. die nächste Karte)."))
            return False
        return next(iter(self._selected), None)

    def _plant(self, k: int) -> Action | None:
        card = self._one_selected()
        if card is False:
            return None
        return Plant(self.learner, k, card)  # type: ignore[arg-type]

    def _asked_varieties(self) -> list[str]:
        """The varieties the learner may ask a partner for: every variety of the game (the
        partner's hand is secret)."""
        return list(self.state.ruleset.varieties)

    def _offer(self) -> Action | None:
        partner = self._partner
        if partner is not None and partner in self._open_seats():
            return Offer(self.learner, partner, tuple(sorted(self._selected)),
                         tuple(sorted(self._wanted)))
        if partner is None:
            self.feedback.value = render_info(_("Mit wem?"), _("Wähle zuerst, mit wem du handeln willst."))
            return None
        # the learner asks for varieties; the partner picks the cards from the secret hand
        s, hand = self.state, list(self.state.players[partner].hand)
        asked = self._asked_varieties()
        get = []
        for i in sorted(self._wanted):
            card = next((c for c in hand if s.variety[c] == asked[i]), None)
            if card is None:
                name, bean = s.players[partner].name, variety_name(asked[i])
                has_none = _("{name} hat keine {bean}").format(name=name, bean=bean)
                self.feedback.value = render_info(
                    has_none,
                    _("„Eine {bean} habe ich nicht auf der Hand“, sagt {name}. Frag nach einer "
                      "anderen Sorte oder biete etwas an.").format(bean=bean, name=name))
                self.history.append((has_none, True))
                self._wanted.clear()
                self._refresh()
                return None
            hand.remove(card)
            get.append(card)
        return Offer(self.learner, partner, tuple(sorted(self._selected)), tuple(get))

    def _take(self) -> Action | None:
        s, me = self.state, self.learner
        aside = s.players[me].set_aside
        card = next((c for c in self._selected if c in aside), aside[0] if aside else None)
        if card is None:
            self.feedback.value = render_info(_("Keine quer liegende Karte"),
                                              _("Du hast gerade keine erhaltene Karte neben deinen Feldern."))
            return None
        return TakeIntoHand(me, card)

    @speaks
    def _build_controls(self) -> None:
        s, me = self.state, self.learner
        p = s.players[me]
        rows: list[Any] = []
        if s.phase is Phase.OVER:
            self.controls.children = [html(_("<b>Das Spiel ist vorbei.</b>")), self.feedback]
            return
        hl, zones = split_highlight(s, self._highlight)
        groups = self._own_cards()
        self._labels = {c: label for _, items in groups for label, c in items}
        self._picks = {}
        picks = [pick_group(title, [self._toggle(label, c, self._selected) for label, c in items])
                 for title, items in groups]
        lifts = lift_moves(s, me)
        lifted = {a.field for _, a in lifts}
        next_card = plantable(s, me)[:1]
        baby_next = bool(next_card) and s.cards[next_card[0]].trait == "B"
        self._tiles, self._plant_buttons = [], []
        for k, field in enumerate(p.fields):
            controls: list[Any] = []
            # a baby on a field with a female: the learner chooses the lift (lady.baby-lift)
            plant = None if baby_next and k in lifted else self._action_button(
                _("Auf Feld {n} pflanzen").format(n=k + 1), lambda k=k: self._plant(k), style="success")
            controls += [plant] if plant is not None else []
            mine = [self._action_button(said(label), lambda a=a: a, style="success")
                    for label, a in lifts if a.field == k]
            if mine:
                lift = _("<b>Babybohne pflanzen</b> – welche weibliche Bohne rückt wie weit nach oben?")
                controls.append(html(f'<div class="bt bt-next">{lift}</div>'))
                controls += mine
            if s.phase is Phase.TRADE and field:  # a field's top card may be offered
                top = self._labels[field[-1]] = _("Feld {n}: {card}").format(
                    n=k + 1, card=_own_label(s, field[-1]))
                controls.append(self._toggle(top, field[-1], self._selected))
            controls.append(self._action_button(_("Feld {n} ernten").format(n=k + 1),
                                                lambda k=k: Harvest(me, k), style="warning"))
            self._tiles.append(field_tile(s, me, k, hl, zones, controls))
            self._plant_buttons.append(plant)
        rows.append(board_box([html(board_head(s, me, zones, hl)), *(
            [flow(picks)] if picks else []), self.pick_status, board_row(self._tiles, self.feedback)]))
        for heading, moves in edition_moves(s, me):  # wrong ones too: the engine says why
            rows.append(html(f"<b>{escape(said(heading))}</b>"))
            rows.append(flow([self._action_button(said(label), lambda a=a: a, style="primary")
                              for label, a in moves]))
        extra: list[Any] = []
        if s.phase is Phase.PLANT:
            extra.append(self._action_button(_("Phase 1 beenden"), lambda: EndPlanting(me)))
        if s.phase is Phase.TRADE:
            rows += self._trade_rows()
            extra.append(self._action_button(_("Handel beenden"), lambda: EndTrading(me)))
        if s.offer is not None and me in (s.offer.to, s.offer.player):
            if s.offer.to == me:
                extra.append(self._action_button(_("Annehmen"), lambda: Accept(me), style="success"))
                extra.append(self._action_button(_("Ablehnen"), lambda: Decline(me), style="danger"))
            else:
                extra.append(self._action_button(_("Angebot zurückziehen"), lambda: Decline(me)))
        if s.phase in (Phase.PLANT_RECEIVED, Phase.DRAW):
            extra.append(self._action_button(_("Nachziehen"), lambda: Draw(me), style="info"))
        extra.append(self._action_button(_("Hand sortieren"), lambda: Reorder(me, tuple(sorted(
            p.hand, key=lambda c: (s.variety[c], c)))), tooltip=_("Die Hand nach Sorten ordnen")))
        if p.set_aside:
            extra.append(self._action_button(_("Quer liegende Karte auf die Hand"), self._take))
        rows.append(flow(extra))
        self.controls.children = rows
        self._mark()

    def _trade_rows(self) -> list[Any]:
        s, me = self.state, self.learner
        others = [i for i in range(s.n_players) if i != me]
        rows: list[Any] = []
        partner = widgets.ToggleButtons(
            options=[(s.players[i].name, i) for i in others],
            value=self._partner if self._partner in others else None,
            layout=layout(width="auto"),
            style=style_of(widgets.ToggleButtonsStyle, button_width="auto"),
        )

        def choose(change: dict) -> None:
            self._partner = change["new"]
            self._wanted.clear()
            self._build_controls()

        partner.observe(self._guard("Partner wählen")(choose), names="value")
        rows.append(flow([html(_("<b>Handeln mit:</b>")), partner]))
        if self._partner is not None:
            q = s.players[self._partner]
            # what the learner may know of the partner: the hand's size, not its cards
            size = player_view(s, me)["players"][self._partner]["hand_size"]
            if self._partner in self._open_seats():
                wanted = [self._toggle(_("{name}, Hand {i}: {card}").format(
                    name=q.name, i=i + 1, card=card_name(s, c)), c, self._wanted)
                    for i, c in enumerate(q.hand)]
                ask = _("<b>Du möchtest von {name}</b> (nichts wählen = Geschenk):").format(
                    name=escape(q.name))
            else:
                wanted = [self._toggle(_("eine {bean}").format(bean=variety_name(k)), i, self._wanted,
                                       variety=k)
                          for i, k in enumerate(self._asked_varieties())] if size else []
                ask = ngettext(
                    "<b>{name} hat {n} Karte verdeckt auf der Hand.</b> Frag nach einer Sorte – was "
                    "sie hat, gibt sie dir, wenn sie einverstanden ist (nichts wählen = Geschenk):",
                    "<b>{name} hat {n} Karten verdeckt auf der Hand.</b> Frag nach einer Sorte – was "
                    "sie hat, gibt sie dir, wenn sie einverstanden ist (nichts wählen = Geschenk):",
                    size).format(name=escape(q.name), n=size)
            if wanted:
                rows.append(html(ask))
                rows.append(flow(wanted))
            rows.append(flow([self._action_button(
                _("Anbieten / schenken an {name}").format(name=q.name), self._offer, style="primary")]))
        return rows


def make_tryit(case: str, lang: str | Translator | None = None) -> Any:
    """The widget for a case id, or for all cases of a chapter key (stacked); ``lang``: the
    reader's language (default: the page's)."""
    from bohnteach.content.tryit_cases import get_case, list_cases

    tr = reader(lang)
    chosen = list_cases(case) or [get_case(case)]
    if len(chosen) == 1:
        return TryIt(chosen[0], lang=tr)
    return widgets.VBox([TryIt(c, lang=tr) for c in chosen], layout=layout(width="100%"))


__all__ = ["TryIt", "describe", "edition_moves", "lift_moves", "lift_note", "make_tryit"]
