"""The Probespiel: a whole game on one seat against bots, every refusal explained.

    from bohnteach.widgets.probespiel import Probespiel
    Probespiel(ruleset="amigo", players=4, bot="trader", seed=1)

The learner sits at seat 0 (``seat``) and sees the table from there: the hands open are those
the engine's ``player_view`` shows that seat (``render_table`` with
``perspective``; the bots' hands stay face down). Buttons offer every move the learner
can *try* in the situation — also the ones the rules forbid, such as planting a card that
is not in front, harvesting a single bean while another field is bigger, sorting the hand
or taking a received card into the hand. Each click goes through the engine; a refusal is
shown with its rule ID, the explanation and the source, and the table stays as it was.

Bots (``bohnteach.maths.bots``) play the other seats whenever the game waits for them; their
moves are logged in German (``notation.format_action``; offers by variety only and every
refusal with the bot's reason, ``words.offer_words`` / ``words.reply_text``, so the log
never shows a hidden hand; the learner's own moves carry „(du)“ after the name). A bot
that declines the learner's offer but wants its cards makes a counter-offer. When a bot
is the active player and wants to stop trading, the game pauses once so the learner can
still offer that bot a deal (co-players trade only with the active player).

Every move, the learner's and the bots', goes into one game record (``self.game``, a
:class:`bohnteach.game.record.Game`): the table is its state, and the record can be
saved, replayed step by step and taken back like any other game.

Stable CSS classes for tests and styling: the widget ``bt-probespiel``; ``bt-ps-hint``,
``bt-ps-feedback``, ``bt-ps-actions``, ``bt-ps-table``, ``bt-ps-log``; every button
``bt-ps-btn`` plus ``bt-ps-plant``, ``bt-ps-plant-wrong``, ``bt-ps-end-planting``,
``bt-ps-harvest``, ``bt-ps-offer``, ``bt-ps-end-trading``, ``bt-ps-accept``,
``bt-ps-decline``, ``bt-ps-continue``, ``bt-ps-draw``, ``bt-ps-buy``, ``bt-ps-mistake``,
``bt-ps-new``; field buttons also carry ``bt-field-N`` (1-based); the card toggles of an
offer ``bt-ps-give``.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from html import escape
from typing import Any

import ipywidgets as widgets

from bohnteach.game.actions import (
    Accept,
    Action,
    BuyField,
    Decline,
    Draw,
    EndPlanting,
    EndTrading,
    Harvest,
    Offer,
    Plant,
    Reorder,
    TakeIntoHand,
)
from bohnteach.game.beans import all_varieties, find_variety
from bohnteach.maths.bots import make_bot
from bohnteach.game.engine import actor, check, fitting_fields, harvest_coins, new_game, to_plant
from bohnteach.game.errors import RuleViolation
from bohnteach.game.notation import format_action
from bohnteach.game.record import Game
from bohnteach.render.table import changed_cards, changed_zones, render_info, render_refusal, render_table
from bohnteach.game.state import Phase, State
from bohnteach.game.view import player_view
from bohnteach.render.words import card_label, offer_words, reply_text
from bohnteach.widgets.failure import guard

BOT_LABELS = {"planner": "plant voraus (Profi)", "trader": "handelt gern (Händler)",
              "planter": "bietet nie an (Gärtner)", "random": "zufällig (Anfänger)"}
RULESET_LABELS = {"amigo": "Amigo-Grundspiel", "online": "Online-Regeln"}
NAMES = ("Anna", "Ben", "Clara", "David", "Emma", "Felix", "Greta")
MAX_BOT_STEPS = 400
"""Bot actions in one go before the widget gives up (a safety net; a turn needs ~10)."""

_CSS = """<style>
.bt-probespiel{max-width:100%;gap:8px}
.bt-probespiel .widget-hbox,.bt-probespiel .widget-vbox{gap:6px}
.bt-probespiel .widget-button{height:auto;min-height:32px;white-space:normal;line-height:1.2;padding:4px 10px}
.bt-ps-group{border:1px solid #d9d4c7;border-radius:10px;padding:6px 8px;background:#fffdf6}
.bt-ps-group-title{font-size:13px;font-weight:600;color:#3d3a33;margin:0 0 2px}
.bt-ps-hintbox{background:#eef4fb;border:2px solid #1f5f8b;border-radius:10px;padding:8px 12px;font-size:15px;line-height:1.4}
.bt-ps-hintbox b{color:#12405f}
.bt-ps-mine{margin-top:6px;padding-top:6px;border-top:1px solid #b9cfe3;font-size:13px;color:#1f2328}
.bt-ps-logbox{font-size:13px;line-height:1.4;max-height:260px;overflow-y:auto;border:1px solid #d9d4c7;border-radius:8px;padding:6px 10px;background:#fff}
.bt-ps-logbox ol{margin:0;padding-left:1.4em}
.bt-ps-logbox .bt-ps-you{color:#1b5e20;font-weight:600}
.bt-ps-logbox .bt-ps-ev{color:#5c5648}
.bt-ps-logbox .bt-ps-new-entry{background:#fff6d6}
.bt-ps-small{font-size:12px;color:#5c5648}
</style>"""


def _button(text: str, *classes: str, tooltip: str = "", style: str = "") -> widgets.Button:
    b = widgets.Button(description=text, tooltip=tooltip or text, button_style=style,
                       layout=widgets.Layout(width="auto", max_width="100%"))
    b.add_class("bt-ps-btn")
    for c in classes:
        b.add_class(c)
    return b


def _buttons_in(items: list[widgets.Widget]) -> list[widgets.Button]:
    """Every button among ``items`` and inside their boxes."""
    found: list[widgets.Button] = []
    for w in items:
        if isinstance(w, widgets.Button):
            found.append(w)
        elif isinstance(w, widgets.Box):
            found.extend(_buttons_in(list(w.children)))
    return found


LOG_ENTRIES = 120
"""How many log entries the page shows: a whole round of four players fits (bots' offers
and answers included), so every player's turn of the last round stays visible."""


class Probespiel(widgets.VBox):
    """A game on seat ``seat`` against bots; see the module docstring."""

    def __init__(self, ruleset: str = "amigo", players: int = 4, bot: str = "trader",
                 seed: int | None = None, seat: int = 0):
        super().__init__(layout=widgets.Layout(width="100%"))
        self.add_class("bt-probespiel")
        self.seat = seat
        self._version = 0
        self._style = widgets.HTML(_CSS)
        self.hint = widgets.HTML()
        self.hint.add_class("bt-ps-hint")
        self.feedback = widgets.HTML()
        self.feedback.add_class("bt-ps-feedback")
        self.actions = widgets.VBox(layout=widgets.Layout(width="100%"))
        self.actions.add_class("bt-ps-actions")
        self.table = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.table.add_class("bt-ps-table")
        self.log_view = widgets.HTML()
        self.log_view.add_class("bt-ps-log")

        self.rules_pick = widgets.Dropdown(
            options=[(v, k) for k, v in RULESET_LABELS.items()], value=ruleset,
            description="Regeln", layout=widgets.Layout(width="auto"))
        self.players_pick = widgets.Dropdown(
            options=[(f"{n} Personen", n) for n in (3, 4, 5)], value=players,
            description="Tisch", layout=widgets.Layout(width="auto"))
        self.bot_pick = widgets.Dropdown(
            options=[(v, k) for k, v in BOT_LABELS.items()], value=bot,
            description="Gegner", layout=widgets.Layout(width="auto"))
        new = _button("Neues Spiel", "bt-ps-new")
        new.on_click(self._guard(lambda: self.new_game()))
        settings = widgets.HBox([self.rules_pick, self.players_pick, self.bot_pick, new],
                                layout=widgets.Layout(flex_flow="row wrap", width="100%"))
        settings.add_class("bt-ps-settings")
        self.settings = settings

        # offer builder (phase 2); rebuilt options on every update
        self._give: list[int] = []  # cards the learner offers, in the order chosen
        self._give_options: list[tuple[str, int]] = []
        self.partner_pick = widgets.Dropdown(description="an", layout=widgets.Layout(width="auto"))
        self.want_pick = widgets.Dropdown(description="für", layout=widgets.Layout(width="auto"))
        self.offer_button = _button("Anbieten", "bt-ps-offer", style="info")
        self.offer_button.on_click(self._guard(self._make_offer))

        self.children = [self._style, settings, self.hint, self.feedback, self.actions,
                         self.table, self.log_view]
        self.new_game(ruleset=ruleset, players=players, bot=bot, seed=seed)

    # ---- game -------------------------------------------------------------------------
    def new_game(self, ruleset: str | None = None, players: int | None = None,
                 bot: str | None = None, seed: int | None = None) -> None:
        ruleset = ruleset or self.rules_pick.value
        players = players or self.players_pick.value
        bot = bot or self.bot_pick.value
        self.seed = random.randrange(1, 10_000) if seed is None else seed
        names = list(NAMES[:players])
        self.game = Game(new_game(ruleset, names, seed=self.seed, start_player=self.seat))
        self.bots = {i: make_bot(bot, seed=self.seed * 10 + i)
                     for i in range(players) if i != self.seat}
        self.history: list[tuple[str, str]] = []  # (css class, html)
        self._fresh = 0  # log entries since the learner's last click
        self._passed_turn: int | None = None
        self._seen = self.state.copy()
        self._note("ev", f"Neues Spiel ({escape(self.state.ruleset.title)}, Spiel Nr. {self.seed}). "
                         f"Du bist {escape(names[self.seat])} und fängst an.")
        self.feedback.value = ""
        self._advance()
        self._refresh()

    @property
    def state(self) -> State:
        """The table now: the state of the game record (initial table + every move)."""
        return self.game.state

    @property
    def me(self) -> str:
        return self.state.players[self.seat].name

    def _show_failure(self, box: str) -> None:
        """A failed button: the friendly box, and the table redrawn as it now is."""
        self.feedback.value = box
        self._refresh(keep_feedback=True)

    def _guard(self, fn: Callable[[], Any]) -> Callable[[Any], None]:
        """A button callback that never dies silently (see :func:`guard`)."""
        safe = guard(self._show_failure, "Probespiel")(fn)
        return lambda _button=None: safe()

    # ---- the learner's moves ----------------------------------------------------------
    def try_action(self, action: Action) -> RuleViolation | None:
        """Play ``action`` for the learner; a refusal is shown and returned."""
        before = self.state.copy()
        self._fresh = 0
        try:
            events = self.game.apply(action)
        except RuleViolation as refusal:
            self.feedback.value = render_refusal(refusal)
            self._refresh(keep_feedback=True)
            return refusal
        self.feedback.value = ""
        self._log_action(before, action, events, by_learner=True)
        if isinstance(action, (EndTrading, Draw)):
            self._passed_turn = None
        self._advance()
        self._refresh(before=before)
        return None

    def _play(self, action: Action) -> Callable[[], None]:
        return lambda: self.try_action(action)

    def _continue(self) -> None:
        """The learner lets the active bot end its trading."""
        self._passed_turn = self.state.turn
        before = self.state.copy()
        self.feedback.value = ""
        self._fresh = 0
        self._advance()
        self._refresh(before=before)

    def _make_offer(self) -> None:
        s = self.state
        give = tuple(self._give)
        partner = self.partner_pick.value
        want = self.want_pick.value
        get: tuple[int, ...] = ()
        if partner is None:
            self.feedback.value = render_info("Mit wem?", "Wähle aus, wem du etwas anbietest.")
            return
        if want:
            theirs = [c for c in s.players[partner].hand if s.variety[c] == want]
            if not theirs:  # said exactly as a bot that keeps the card: the hand stays hidden
                self._fresh = 0
                name = s.players[partner].name
                self._note("you", escape(offer_words(
                    self.me, name, [card_label(s, c) for c in give], [find_variety(want).de])))
                self._note("bot", escape(f"{name} lehnt ab. {reply_text(name, 'keep', want)}"))
                self.feedback.value = render_info("Abgelehnt", reply_text(name, "keep", want))
                self._refresh(keep_feedback=True)
                return
            get = (theirs[0],)
        self.try_action(Offer(self.seat, partner, give, get))

    # ---- the bots -----------------------------------------------------------------------
    def _advance(self) -> None:
        """Let the bots play until the game waits for the learner (or is over)."""
        s = self.state
        for _ in range(MAX_BOT_STEPS):
            who = actor(s)
            if who is None or who == self.seat:
                return
            action = self.bots[who].choose(s, who)
            if (isinstance(action, EndTrading) and s.active != self.seat
                    and self._passed_turn != s.turn):
                return  # pause: the learner may still offer the active bot a deal
            before = s.copy()
            events = self.game.apply(action)
            self._log_action(before, action, events, by_learner=False)
            reply = self.bots[who].reply
            if isinstance(action, Decline) and reply is not None and reply.counter is not None \
                    and who != s.active and check(s, reply.counter) is None:
                before = s.copy()
                self._log_action(before, reply.counter, self.game.apply(reply.counter), by_learner=False)
        raise RuntimeError("Die Computergegner kommen nicht weiter; starte bitte ein neues Spiel.")

    # ---- log -------------------------------------------------------------------------------
    def _note(self, kind: str, html: str) -> None:
        self.history.append((kind, html))
        self._fresh += 1

    def _log_action(self, before: State, action: Action, events: list[tuple], by_learner: bool) -> None:
        names = [p.name for p in before.players]
        if isinstance(action, Offer):  # by variety: a hand position would reveal the hand
            text = offer_words(names[action.player], names[action.to],
                               [card_label(before, c) for c in action.give],
                               [card_label(before, c) for c in action.get])
        else:
            text = format_action(before, action)
        who = names[action.player]
        if by_learner and text.startswith(who + " "):
            text = f"{who} (du){text[len(who):]}"
        reply = None if by_learner else self.bots[action.player].reply
        if isinstance(action, Decline) and reply is not None and not reply.accept:
            text += ". " + reply_text(who, reply.reason, reply.variety)
        extra = ""
        for ev in events:
            if ev[0] == "harvest":
                n, coins = ev[3], ev[4]
                extra = f" ({n} {'Karte' if n == 1 else 'Karten'} → {coins} Taler)"
            elif ev[0] == "draw" and ev[1] == self.seat and ev[2]:
                extra = ": " + ", ".join(card_label(self.state, c) for c in ev[2])
        self._note("you" if by_learner else "bot", escape(text + extra))
        for ev in events:
            kind = ev[0]
            if kind == "reveal" and ev[1]:
                cards = ", ".join(card_label(self.state, c) for c in ev[1])
                self._note("ev", f"Aufgedeckt: {escape(cards)}")
            elif kind == "reshuffle":
                self._note("ev", f"Der Ablagestapel wird gemischt – {ev[1]}. Durchgang.")
            elif kind == "exhausted" and self.state.ending and self.state.phase is not Phase.OVER:
                self._note("ev", "Der Nachziehstapel ist zum letzten Mal leer: Die Runde wird zu Ende gespielt.")
            elif kind == "turn":
                who = self.state.players[ev[1]].name
                self._note("ev", "— Du bist am Zug —" if ev[1] == self.seat else f"— {escape(who)} ist am Zug —")
            elif kind == "game_over":
                scores, winners = ev[1], ev[2]
                names = " und ".join(self.state.players[i].name for i in winners)
                self._note("ev", f"Spielende. Es gewinnt {escape(names)} "
                                 f"({', '.join(str(x) for x in scores)} Taler).")

    def _log_html(self) -> str:
        fresh = self._fresh
        rows = []
        n = len(self.history)
        for i, (kind, html) in enumerate(reversed(self.history[-LOG_ENTRIES:])):
            cls = {"you": "bt-ps-you", "ev": "bt-ps-ev"}.get(kind, "")
            if i < fresh and kind != "ev":
                cls += " bt-ps-new-entry"
            rows.append(f'<li class="{cls.strip()}">{html}</li>')
        return (f'<div class="bt-ps-logbox"><b>Was bisher geschah</b> '
                f'<span class="bt-ps-small">(neueste oben, {n} Einträge)</span>'
                f'<ol reversed>{"".join(rows)}</ol></div>')

    # ---- what the learner should do ------------------------------------------------------
    def hint_text(self) -> str:
        s = self.state
        me = self.seat
        p = s.players[me]
        if s.phase is Phase.OVER:
            won = me in (s.winners or [])
            return ("<b>Gewonnen!</b> " if won else "<b>Das Spiel ist vorbei.</b> ") + \
                "Die Wertung steht oben auf dem Tisch. Mit „Neues Spiel“ geht es von vorn los."
        who = actor(s)
        if s.offer is not None and s.offer.to == me:
            o = s.offer
            give = ", ".join(card_label(s, c) for c in o.give) or "nichts"
            get = ", ".join(card_label(s, c) for c in o.get)
            ask = f"für deine {escape(get)}" if get else "als Geschenk"
            return (f"<b>{escape(s.players[o.player].name)} bietet dir {escape(give)} {ask} an.</b> "
                    "Nimmst du an? Was du bekommst, legst du quer neben deine Felder und pflanzt es in Phase 3.")
        if who != me:
            if s.phase is Phase.TRADE and s.active != me:
                a = s.players[s.active].name
                return (f"<b>{escape(a)} ist am Zug und möchte den Handel beenden.</b> "
                        f"Du darfst {escape(a)} vorher noch etwas anbieten (nur mit der Person am Zug "
                        "wird gehandelt). Sonst klicke „Weiter“.")
            return "Die anderen sind dran …"
        if s.phase is Phase.PLANT:
            if not p.hand:
                return "<b>Phase 1:</b> Deine Hand ist leer – du überspringst Phase 1."
            front = card_label(s, p.hand[0])
            room = fitting_fields(s, me, p.hand[0])
            if s.hand_plants == 0:
                text = (f"<b>Du bist am Zug. Phase 1:</b> Die vorderste Karte deiner Hand, die "
                        f"<b>{escape(front)}</b>, muss aufs Feld.")
            else:
                text = (f"<b>Phase 1:</b> Du darfst noch die nächste Karte (<b>{escape(front)}</b>) "
                        "pflanzen – oder Phase 1 beenden.")
            if not room:
                text += " Sie passt auf kein Feld und keines ist frei: Ernte zuerst ein Feld."
            return text
        if s.phase is Phase.TRADE:
            shown = ", ".join(card_label(s, c) for c in s.revealed) or "keine mehr"
            return (f"<b>Phase 2: Handeln.</b> Aufgedeckt: {escape(shown)}. Biete Karten an "
                    "(aufgedeckte oder aus der Hand, egal von welcher Stelle) – oder beende den Handel. "
                    "Was von den aufgedeckten übrig bleibt, pflanzt du in Phase 3.")
        if s.phase is Phase.PLANT_RECEIVED:
            cards = ", ".join(card_label(s, c) for c in to_plant(s, me))
            return (f"<b>Phase 3:</b> Pflanze alles, was vor dir liegt: {escape(cards)}. "
                    "Die Reihenfolge bestimmst du.")
        if s.phase is Phase.DRAW:
            return (f"<b>Phase 4:</b> Ziehe {s.setup.draw} Karten – sie kommen hinten in deine Hand. "
                    "Dann ist die nächste Person dran.")
        return ""

    # ---- buttons ---------------------------------------------------------------------------
    def _group(self, title: str, buttons: list[widgets.Widget], cls: str = "") -> widgets.Widget:
        head = widgets.HTML(f'<div class="bt-ps-group-title">{escape(title)}</div>')
        row = widgets.HBox(buttons, layout=widgets.Layout(flex_flow="row wrap"))
        box = widgets.VBox([head, row], layout=widgets.Layout(width="100%"))
        box.add_class("bt-ps-group")
        if cls:
            box.add_class(cls)
        return box

    def _field_buttons(self, card: int | None, label: str, wrong_card: bool = False) -> list[widgets.Button]:
        s = self.state
        out = []
        for k, f in enumerate(s.players[self.seat].fields):
            grows = f"{card_label(s, f[0])}" if f else "leer"
            b = _button(f"{label} → Feld {k + 1} ({grows})",
                        "bt-ps-plant-wrong" if wrong_card else "bt-ps-plant", f"bt-field-{k + 1}")
            b.on_click(self._guard(self._play(Plant(self.seat, k, card))))
            out.append(b)
        return out

    def _build_actions(self) -> list[widgets.Widget]:
        s = self.state
        me = self.seat
        p = s.players[me]
        groups: list[widgets.Widget] = []
        if s.phase is Phase.OVER:
            b = _button("Neues Spiel", "bt-ps-new", style="success")
            b.on_click(self._guard(lambda: self.new_game()))
            return [self._group("Noch eine Runde?", [b])]
        who = actor(s)
        if s.offer is not None and s.offer.to == me:
            yes = _button("Annehmen", "bt-ps-accept", style="success")
            yes.on_click(self._guard(self._play(Accept(me))))
            no = _button("Ablehnen", "bt-ps-decline", style="danger")
            no.on_click(self._guard(self._play(Decline(me))))
            groups.append(self._group("Angebot an dich", [yes, no]))
        elif who == me and s.phase is Phase.PLANT:
            buttons: list[widgets.Widget] = []
            if p.hand:
                front = card_label(s, p.hand[0])
                word = "Vorderste Karte" if s.hand_plants == 0 else "Nächste Karte"
                buttons += self._field_buttons(None, f"{word}: {front}")
                if len(p.hand) > 1 and s.hand_plants == 0 and s.variety[p.hand[1]] != s.variety[p.hand[0]]:
                    buttons += self._field_buttons(p.hand[1], f"Lieber die 2. Karte ({card_label(s, p.hand[1])})",
                                                   wrong_card=True)[:1]
            if s.hand_plants or not p.hand:
                b = _button("Phase 1 beenden" if p.hand else "Weiter zu Phase 2", "bt-ps-end-planting")
                b.on_click(self._guard(self._play(EndPlanting(me))))
                buttons.append(b)
            elif p.hand:
                b = _button("Gar nichts pflanzen", "bt-ps-end-planting", "bt-ps-mistake")
                b.on_click(self._guard(self._play(EndPlanting(me))))
                buttons.append(b)
            groups.append(self._group("Pflanzen (Phase 1)", buttons, "bt-ps-g-plant"))
        elif who == me and s.phase is Phase.PLANT_RECEIVED:
            buttons = []
            seen = set()
            for card in to_plant(s, me):
                if s.variety[card] in seen:
                    continue
                seen.add(s.variety[card])
                where = "aufgedeckt" if card in s.revealed else "quer"
                buttons += self._field_buttons(card, f"{card_label(s, card)} ({where})")
            groups.append(self._group("Pflanzen (Phase 3)", buttons, "bt-ps-g-plant"))
        elif who == me and s.phase is Phase.DRAW:
            b = _button(f"{s.setup.draw} Karten ziehen", "bt-ps-draw", style="primary")
            b.on_click(self._guard(self._play(Draw(me))))
            groups.append(self._group("Nachziehen (Phase 4)", [b]))
        if s.phase is Phase.TRADE and s.offer is None:
            groups.append(self._trade_group())
        groups.append(self._harvest_group())
        mistakes = self._mistake_group()
        if mistakes is not None:
            groups.append(mistakes)
        return groups

    def _trade_group(self) -> widgets.Widget:
        s = self.state
        me = self.seat
        p = s.players[me]
        active = s.active == me
        options = [(f"{card_label(s, c)} (aufgedeckt)", c) for c in s.revealed] if active else []
        options += [(f"{card_label(s, c)} (Hand {i + 1})", c) for i, c in enumerate(p.hand)]
        self._give_options = options
        self._give = []
        toggles = [self._give_toggle(label, card) for label, card in options]
        partners = [(s.players[i].name, i) for i in range(len(s.players)) if i != me] if active \
            else [(s.players[s.active].name, s.active)]
        self.partner_pick.options = partners
        self.partner_pick.value = partners[0][1] if partners else None
        self.want_pick.options = [("nichts (Geschenk)", "")] + [
            (v.de, v.key) for v in all_varieties() if v.key in s.ruleset.varieties
        ]
        self.want_pick.value = ""
        give_row = widgets.HBox(toggles, layout=widgets.Layout(flex_flow="row wrap", width="100%"))
        give_row.add_class("bt-ps-give-row")
        offer_row = widgets.HBox([self.partner_pick, self.want_pick, self.offer_button],
                                 layout=widgets.Layout(flex_flow="row wrap", width="100%",
                                                       align_items="center"))
        buttons: list[widgets.Widget] = []
        if active:
            end = _button("Handel beenden", "bt-ps-end-trading", style="primary")
            end.on_click(self._guard(self._play(EndTrading(me))))
            buttons.append(end)
        else:
            cont = _button("Weiter (kein Angebot)", "bt-ps-continue", style="primary")
            cont.on_click(self._guard(self._continue))
            buttons.append(cont)
        title = "Handeln (Phase 2)" if active else f"Handeln mit {s.players[s.active].name}"
        head = widgets.HTML(f'<div class="bt-ps-group-title">{escape(title)}</div>'
                            '<div class="bt-ps-small">Tippe die Karten an, die du abgeben willst (auch '
                            'mehrere), dann: an wen und was du dafür möchtest.</div>')
        box = widgets.VBox([head, give_row, offer_row, widgets.HBox(buttons)],
                           layout=widgets.Layout(width="100%"))
        box.add_class("bt-ps-group")
        box.add_class("bt-ps-g-trade")
        return box

    def _give_toggle(self, label: str, card: int) -> widgets.Widget:
        t = widgets.ToggleButton(value=False, description=label, tooltip=f"{label} anbieten",
                                 layout=widgets.Layout(width="auto", height="auto"))
        t.add_class("bt-ps-give")

        def flip(change: dict) -> None:
            if change["new"] and card not in self._give:
                self._give.append(card)
            elif not change["new"] and card in self._give:
                self._give.remove(card)
            t.description = ("✓ " if change["new"] else "") + label

        t.observe(guard(self.feedback, "Karte zum Anbieten")(flip), names="value")
        return t

    def give_options(self) -> list[tuple[str, int]]:
        """The cards the learner may try to offer now: (label, card id)."""
        return list(self._give_options)

    def choose_give(self, cards: list[int]) -> None:
        """Select the cards to offer (what tapping the card buttons does)."""
        self._give = list(cards)

    def _harvest_group(self) -> widgets.Widget:
        s = self.state
        me = self.seat
        buttons: list[widgets.Widget] = []
        for k, f in enumerate(s.players[me].fields):
            if not f:
                continue
            coins = harvest_coins(s, me, k)
            b = _button(f"Feld {k + 1} ernten ({len(f)} {card_label(s, f[0]) if len(f) == 1 else find_variety(s.variety[f[0]]).de_plural} → {coins} Taler)",
                        "bt-ps-harvest", f"bt-field-{k + 1}")
            b.on_click(self._guard(self._play(Harvest(me, k))))
            buttons.append(b)
        cost = s.setup.third_field_cost
        if cost and len(s.players[me].fields) < 3:
            b = _button(f"Drittes Feld kaufen ({cost} Taler)", "bt-ps-buy")
            b.on_click(self._guard(self._play(BuyField(me))))
            buttons.append(b)
        if not buttons:
            buttons.append(widgets.HTML('<span class="bt-ps-small">Deine Felder sind leer.</span>'))
        return self._group("Ernten (geht jederzeit)", buttons, "bt-ps-g-harvest")

    def _mistake_group(self) -> widgets.Widget | None:
        s = self.state
        me = self.seat
        p = s.players[me]
        buttons: list[widgets.Widget] = []
        if len(p.hand) > 1:
            order = tuple(sorted(p.hand, key=lambda c: (s.variety[c], c)))
            if order == tuple(p.hand):
                order = tuple(reversed(p.hand))
            b = _button("Hand sortieren", "bt-ps-mistake", "bt-ps-reorder")
            b.on_click(self._guard(self._play(Reorder(me, order))))
            buttons.append(b)
        for k, f in enumerate(p.fields):
            if len(f) >= 3:
                b = _button(f"Nur 1 Karte von Feld {k + 1} ernten", "bt-ps-mistake", "bt-ps-partial")
                b.on_click(self._guard(self._play(Harvest(me, k, 1))))
                buttons.append(b)
                break
        taken = p.set_aside[:1] or (s.revealed[:1] if s.active == me else [])
        if taken:
            b = _button(f"{card_label(s, taken[0])} auf die Hand nehmen", "bt-ps-mistake", "bt-ps-take")
            b.on_click(self._guard(self._play(TakeIntoHand(me, taken[0]))))
            buttons.append(b)
        if not buttons:
            return None
        return self._group("Typische Fehler ausprobieren (die Regel sagt Nein)", buttons, "bt-ps-g-mistakes")

    # ---- view ------------------------------------------------------------------------------
    def _refresh(self, before: State | None = None, keep_feedback: bool = False) -> None:
        """Redraw everything; the hint comes last and carries ``data-version`` (one more
        per redraw) and ``data-buttons`` (how many action buttons this redraw made, each
        with the class ``bt-ps-v<version>``), so a browser test knows when a click has been
        fully answered and every new button is drawn."""
        s = self.state
        self._version += 1
        actions = self._build_actions()
        buttons = _buttons_in(actions)
        for b in buttons:
            b.add_class(f"bt-ps-v{self._version}")
        self.actions.children = actions
        base = before if before is not None else self._seen
        try:
            highlight: set[int | str] = set(changed_cards(base, s)) | set(changed_zones(base, s))
        except Exception:  # noqa: BLE001 - a missing highlight must not break the game
            highlight = set()
        seen = player_view(s, self.seat)["players"]  # the engine decides which hands are open
        self.table.value = render_table(s, perspective=self.seat, highlight=highlight,
                                        show_hands=[i for i, p in enumerate(seen) if "hand" in p])
        self._seen = s.copy()
        self.log_view.value = self._log_html()
        waiting = actor(s)
        mine = "offer" if s.offer is not None and s.offer.to == self.seat else (
            "you" if waiting == self.seat else ("over" if waiting is None else "pause"))
        self.hint.value = (f'<div class="bt-ps-hintbox" data-phase="{int(s.phase)}" '
                           f'data-turn="{s.turn}" data-active="{s.active}" data-wait="{mine}" '
                           f'data-buttons="{len(buttons)}" data-version="{self._version}">{self.hint_text()}{self.mine_html()}</div>')

    def mine_html(self) -> str:
        """One line with the learner's hand and fields, so a phone needs no scrolling."""
        s = self.state
        if s.phase is Phase.OVER:
            return ""
        p = s.players[self.seat]
        hand = ", ".join(card_label(s, c) for c in p.hand) or "leer"
        fields = " · ".join(
            f"{k + 1}: {len(f)} {find_variety(s.variety[f[0]]).label(len(f))}" if f else f"{k + 1}: leer"
            for k, f in enumerate(p.fields)
        )
        aside = ""
        if p.set_aside:
            aside = " · <b>Quer:</b> " + escape(", ".join(card_label(s, c) for c in p.set_aside))
        return (f'<div class="bt-ps-mine"><b>Deine Hand</b> (vorne → hinten): {escape(hand)}<br>'
                f"<b>Deine Felder:</b> {escape(fields)}{aside} · <b>Taler:</b> {len(p.coins)}</div>")


__all__ = ["Probespiel"]
