"""The trial game („Probespiel“): a whole game on one seat against bots, every refusal explained.

    from bohnteach.widgets.trial_game import TrialGame
    TrialGame(ruleset="amigo", players=4, bot="trader", seed=1)

The learner sits at seat 0 (``seat``). Their own place is a board of controls
(``widgets/board.py``, as in Mach du!): the hand (front to back), the revealed and the
received cards as cards to tap, each field as a tile with „Auf Feld k pflanzen“ and
„Feld k ernten“ under it, the answer box beside the fields (under them on a phone) and the
buttons that move the game on („▶ Phase 1 beenden“, „▶ Handel beenden“, „▶ Weiter“,
„▶ Karten ziehen“, Annehmen/Ablehnen) right under them. Tap a card and the fields the
engine allows it on are marked („✓ hier pflanzbar“); in phase 2 the tapped cards are the
ones to offer (the cards are greyed out while there is nothing to do with them). Moves the
rules forbid can be tried too, such as planting a card that is not in front, harvesting a
single bean while another field is bigger, sorting the hand or taking a received card into
the hand. Each move goes through the engine; a refusal is shown with its rule ID, the explanation and the source, and the
table stays as it was. The other players are drawn below as the engine's ``player_view``
shows them to that seat (``render_table`` with ``perspective``; the bots' hands stay face
down).

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
``bt-ps-feedback`` (the answer box, also ``bt-answer``), ``bt-ps-actions`` (board and
groups), ``bt-ps-table`` (the other players), ``bt-ps-log``; ``bt-ps-step`` the row of
buttons that move the game on; every button ``bt-ps-btn`` plus ``bt-ps-plant``,
``bt-ps-end-planting``, ``bt-ps-harvest``, ``bt-ps-offer``, ``bt-ps-end-trading``,
``bt-ps-accept``, ``bt-ps-decline``, ``bt-ps-continue``, ``bt-ps-draw``, ``bt-ps-buy``,
``bt-ps-mistake``, ``bt-ps-new``; field buttons also carry ``bt-field-N`` (1-based); the
learner's cards ``bt-ps-card`` (and the board's ``bt-pick``, ``bt-picked``,
``bt-playable``), in phase 2 also ``bt-ps-give``. Every control of a redraw carries
``bt-ps-v<version>`` (see :meth:`TrialGame._refresh`).
"""
from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from html import escape
from typing import Any

import ipywidgets as widgets
from ipywidgets.widgets.widget_description import DescriptionStyle  # not exported at the top

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
from bohnteach.render.table import (
    changed_cards, changed_zones, render_info, render_refusal, render_table, split_highlight,
)
from bohnteach.game.state import Phase, State
from bohnteach.game.view import player_view
from bohnteach.render.words import card_label, offer_words, reply_text
from bohnteach.widgets.board import (
    ANSWER, board_box, board_head, board_row, card_pick, field_tile, legal_fields, mark_targets,
    own_cards, pick_group, pick_status, plantable, release_others, show_picked, trade_use,
)
from bohnteach.widgets.failure import guard
from bohnteach.widgets.parts import box, flow, html, layout, style_of

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
    return widgets.Button(description=text, tooltip=tooltip or text, button_style=style,
                          layout=layout(width="auto", max_width="100%"),
                          style=style_of(widgets.ButtonStyle), _dom_classes=("bt-ps-btn", *classes))


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


class TrialGame(widgets.VBox):
    """A game on seat ``seat`` against bots; see the module docstring."""

    def __init__(self, ruleset: str = "amigo", players: int = 4, bot: str = "trader",
                 seed: int | None = None, seat: int = 0):
        super().__init__(layout=layout(width="100%"), _dom_classes=("bt-probespiel",))
        self.seat = seat
        self._version = 0
        self._style = html(_CSS)
        self.hint = html(classes=("bt-ps-hint",))
        self.feedback = html(classes=("bt-ps-feedback", ANSWER))  # beside the fields on the board
        self.pick_status = html()  # what is picked and where it may go
        self._pick: int | None = None  # the card picked for planting
        self._picks: dict[int, widgets.ToggleButton] = {}  # the board's cards: card → toggle
        self._labels: dict[int, str] = {}
        self._tiles: list[widgets.VBox] = []  # the field tiles, and their plant buttons
        self._plant_buttons: list[widgets.Button | None] = []
        self._highlight: set[int | str] = set()  # what the last move changed
        self.actions = box(widgets.VBox, [], "bt-ps-actions", width="100%")
        self.table = html(width="100%", classes=("bt-ps-table",))
        self.log_view = html(classes=("bt-ps-log",))

        self.rules_pick = widgets.Dropdown(
            options=[(v, k) for k, v in RULESET_LABELS.items()], value=ruleset,
            description="Regeln", layout=layout(width="auto"))
        self.players_pick = widgets.Dropdown(
            options=[(f"{n} Personen", n) for n in (3, 4, 5)], value=players,
            description="Tisch", layout=layout(width="auto"))
        self.bot_pick = widgets.Dropdown(
            options=[(v, k) for k, v in BOT_LABELS.items()], value=bot,
            description="Gegner", layout=layout(width="auto"))
        new = _button("Neues Spiel", "bt-ps-new")
        new.on_click(self._guard(lambda: self.new_game()))
        settings = box(widgets.HBox, [self.rules_pick, self.players_pick, self.bot_pick, new],
                       "bt-ps-settings", flex_flow="row wrap", width="100%")
        self.settings = settings

        # offer builder (phase 2); rebuilt options on every update
        self._give: list[int] = []  # cards the learner offers, in the order chosen
        self._give_options: list[tuple[str, int]] = []
        # „an“, „für“: no wide label column
        short = style_of(DescriptionStyle, description_width="initial")
        self.partner_pick = widgets.Dropdown(description="an", layout=layout(width="auto"), style=short)
        self.want_pick = widgets.Dropdown(description="für", layout=layout(width="auto"), style=short)
        self.offer_button = _button("Anbieten", "bt-ps-offer", style="info")
        self.offer_button.on_click(self._guard(self._make_offer))

        self.children = [self._style, settings, self.hint, self.actions, self.table, self.log_view]
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
        self._pick, self._give = None, []
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
        self._pick, self._give = None, []  # the move is made: nothing is picked any more
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
        self._give = []
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
    def _note(self, kind: str, fragment: str) -> None:
        self.history.append((kind, fragment))
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
        for i, (kind, fragment) in enumerate(reversed(self.history[-LOG_ENTRIES:])):
            cls = {"you": "bt-ps-you", "ev": "bt-ps-ev"}.get(kind, "")
            if i < fresh and kind != "ev":
                cls += " bt-ps-new-entry"
            rows.append(f'<li class="{cls.strip()}">{fragment}</li>')
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

    # ---- the board and the buttons ------------------------------------------------------------
    def _group(self, title: str, buttons: list[widgets.Widget], cls: str = "") -> widgets.Widget:
        head = html(f'<div class="bt-ps-group-title">{escape(title)}</div>')
        row = box(widgets.HBox, buttons, flex_flow="row wrap")
        return box(widgets.VBox, [head, row], "bt-ps-group", *([cls] if cls else []), width="100%")

    @property
    def _drawn(self) -> str:
        """The class of every button and card this redraw makes (see :meth:`_refresh`)."""
        return f"bt-ps-v{self._version}"

    def _new_button(self, text: str, *classes: str, **kwargs: str) -> widgets.Button:
        """A button of this redraw (:attr:`_drawn`)."""
        return _button(text, *classes, self._drawn, **kwargs)

    def _trading(self) -> bool:
        """Tapped cards are for an offer (phase 2, no offer open), else for planting."""
        return self.state.phase is Phase.TRADE and self.state.offer is None

    def _planting(self) -> bool:
        """The learner is to plant now (phase 1 with cards in hand, or phase 3)."""
        s, me = self.state, self.seat
        if actor(s) != me or s.offer is not None:
            return False
        return (s.phase is Phase.PLANT and bool(s.players[me].hand)) or \
            (s.phase is Phase.PLANT_RECEIVED and bool(to_plant(s, me)))

    def _build_actions(self) -> list[widgets.Widget]:
        """The learner's place as a board (cards to tap, in phase 2 to whom and for what,
        fields with their buttons, the answer box beside them, the ▶ step under them), then
        buying a field and the typical mistakes."""
        s = self.state
        groups: list[widgets.Widget] = [self._board()]
        cost = s.setup.third_field_cost
        if cost and len(s.players[self.seat].fields) < 3 and s.phase is not Phase.OVER:
            b = self._new_button(f"Drittes Feld kaufen ({cost} Taler)", "bt-ps-buy")
            b.on_click(self._guard(self._play(BuyField(self.seat))))
            groups.append(self._group("Mehr Platz", [b]))
        mistakes = self._mistake_group()
        if mistakes is not None:
            groups.append(mistakes)
        return groups

    def _board(self) -> widgets.Widget:
        """„Dein Platz“: tap a card (it is picked, the fields it may go onto are marked),
        tap „Auf Feld k pflanzen“; every field can be harvested from its tile. In phase 2
        the tapped cards are the ones to offer."""
        s, me = self.state, self.seat
        p = s.players[me]
        hl, zones = split_highlight(s, self._highlight)
        trading = self._trading()
        groups = own_cards(s, me, card_label)
        items = [(label, c) for _, cards in groups for label, c in cards]
        self._labels = dict((c, label) for label, c in items)
        if trading:  # the same cards are the offer's: what give_options lists
            self._give_options = items
            self._give = [c for c in self._give if c in self._labels]
        else:
            self._give_options, self._give = [], []
            if self._pick not in self._labels:
                self._pick = None
        planting = self._planting()  # once per redraw: every card and field asks
        playable = set(plantable(s, me)) if planting else set()
        self._picks = {}
        rows: list[widgets.Widget] = []
        for title, cards in groups:
            rows.append(pick_group(title, [self._card(label, c, trading, planting, c in playable)
                                           for label, c in cards]))
        self._tiles, self._plant_buttons = [], []
        for k, f in enumerate(p.fields):
            controls: list[widgets.Widget] = []
            plant = None
            if planting:
                plant = self._new_button(f"Auf Feld {k + 1} pflanzen", "bt-ps-plant",
                                         f"bt-field-{k + 1}", style="success")
                plant.on_click(self._guard(partial(self._plant, k)))
                controls.append(plant)
            if f:
                coins = harvest_coins(s, me, k)
                h = self._new_button(
                    f"Feld {k + 1} ernten ({coins} Taler)", "bt-ps-harvest", f"bt-field-{k + 1}",
                    style="warning",
                    tooltip=f"Feld {k + 1} ernten: {len(f)} {find_variety(s.variety[f[0]]).label(len(f))} "
                            f"→ {coins} Taler")
                h.on_click(self._guard(self._play(Harvest(me, k))))
                controls.append(h)
            self._tiles.append(field_tile(s, me, k, hl, zones, controls))
            self._plant_buttons.append(plant)
        step = self._step_buttons()
        # the offer builder sits between the cards and the answer box: the cards tapped, the
        # „Anbieten“ button and the bot's answer stay together on a phone
        board = board_box([html(board_head(s, me, zones, hl)), flow(rows), self.pick_status,
                           *([self._trade_group()] if trading else []),
                           board_row(self._tiles, self.feedback),
                           *([self._step_row(step)] if step else [])])
        self._mark()
        return board

    def _card(self, label: str, card: int, trading: bool, planting: bool,
              playable: bool) -> widgets.ToggleButton:
        """One of the learner's cards as a card to tap: for the offer in phase 2 (several
        may be picked, class ``bt-ps-give``), else for planting (one at a time)."""
        s = self.state
        chosen = card in self._give if trading else card == self._pick
        # not trading nor planting: nothing to do with the cards now, shown, not tappable
        t = card_pick(s.variety[card], label, value=chosen, playable=playable,
                      changed=card in self._highlight,
                      tooltip=f"{label} – antippen zum Anbieten" if trading else "",
                      classes=("bt-ps-card", *(["bt-ps-give"] if trading else []), self._drawn),
                      disabled=not (trading or planting))
        self._picks[card] = t

        def flip(change: dict) -> None:
            on = bool(change["new"])
            current = self._picks.get(card)
            if current is not t:  # tapped while the board was being redrawn: the new card counts
                if current is not None:
                    current.value = on
                return
            if trading:
                if on and card not in self._give:
                    self._give.append(card)
                elif not on and card in self._give:
                    self._give.remove(card)
            elif on:
                self._pick = card
                release_others(self._picks, card)  # one card at a time
            elif self._pick == card:
                self._pick = None
            show_picked(t, label, on)
            self._mark()

        t.observe(guard(self.feedback, "Karte antippen")(flip), names="value")
        return t

    def _mark(self) -> None:
        """Mark the fields the picked card may go onto and say in words what is picked."""
        s, me = self.state, self.seat
        trading = self._trading()
        targets = legal_fields(s, me, self._pick) if self._pick is not None and self._planting() else set()
        mark_targets(self._tiles, targets, self._plant_buttons)
        chosen = [self._labels.get(c, "") for c in (self._give if trading else [self._pick])
                  if c is not None]
        if trading:
            empty = "Tippe die Karten an, die du anbieten willst (auch mehrere)."
        elif self._planting():
            which = ("die vorderste Handkarte" if s.phase is Phase.PLANT
                     else "eine aufgedeckte oder erhaltene Karte, die dort passt")
            empty = ("Tippe eine Karte an: Die Felder, auf die sie darf, werden grün gestrichelt "
                     f"umrandet. Ohne Wahl nimmt „Auf Feld … pflanzen“ {which}.")
        else:
            empty = ""
        use = trade_use(s, me, self._give) if trading else ""
        self.pick_status.value = pick_status(chosen, targets, trading=trading, empty=empty, use=use)

    def _plant(self, k: int) -> None:
        """„Auf Feld k pflanzen“: the picked card; none picked: the engine's next card (the
        front one in phase 1), in phase 3 the first card to plant that fits field k."""
        s, me = self.state, self.seat
        card = self._pick
        if card is None and s.phase is Phase.PLANT_RECEIVED:
            card = next((c for c in to_plant(s, me) if k in fitting_fields(s, me, c)), None)
        if self.try_action(Plant(me, k, card)) is None:
            self._pick = None

    def _step_buttons(self) -> list[widgets.Widget]:
        """The buttons that move the game on (end a phase, answer an offer, let a bot go
        on, draw, a new game); drawn right under the fields, so they stay in reach."""
        s, me = self.state, self.seat
        p = s.players[me]
        if s.phase is Phase.OVER:
            b = self._new_button("Neues Spiel", "bt-ps-new", style="success")
            b.on_click(self._guard(lambda: self.new_game()))
            return [b]
        who = actor(s)
        out: list[widgets.Widget] = []
        if s.offer is not None and s.offer.to == me:
            yes = self._new_button("Annehmen", "bt-ps-accept", style="success")
            yes.on_click(self._guard(self._play(Accept(me))))
            no = self._new_button("Ablehnen", "bt-ps-decline", style="danger")
            no.on_click(self._guard(self._play(Decline(me))))
            out += [yes, no]
        elif who == me and s.phase is Phase.PLANT:
            if s.hand_plants or not p.hand:
                b = self._new_button("▶ Phase 1 beenden" if p.hand else "▶ Weiter zu Phase 2",
                                     "bt-ps-end-planting", style="primary")
            else:
                b = self._new_button("Gar nichts pflanzen", "bt-ps-end-planting", "bt-ps-mistake")
            b.on_click(self._guard(self._play(EndPlanting(me))))
            out.append(b)
        elif who == me and s.phase is Phase.DRAW:
            b = self._new_button(f"▶ {s.setup.draw} Karten ziehen", "bt-ps-draw", style="primary")
            b.on_click(self._guard(self._play(Draw(me))))
            out.append(b)
        elif self._trading():
            if s.active == me:
                b = self._new_button("▶ Handel beenden", "bt-ps-end-trading", style="primary")
                b.on_click(self._guard(self._play(EndTrading(me))))
            else:
                b = self._new_button("▶ Weiter (kein Angebot)", "bt-ps-continue", style="primary")
                b.on_click(self._guard(self._continue))
            out.append(b)
        return out

    @staticmethod
    def _step_row(buttons: list[widgets.Widget]) -> widgets.Widget:
        return flow(buttons, "bt-ps-step")

    def _trade_group(self) -> widgets.Widget:
        """Phase 2: to whom and for what (the cards to give are tapped above it)."""
        s = self.state
        me = self.seat
        active = s.active == me
        partners = [(s.players[i].name, i) for i in range(len(s.players)) if i != me] if active \
            else [(s.players[s.active].name, s.active)]
        self.partner_pick.options = partners
        self.partner_pick.value = partners[0][1] if partners else None
        self.want_pick.options = [("nichts (Geschenk)", "")] + [
            (v.de, v.key) for v in all_varieties() if v.key in s.ruleset.varieties
        ]
        self.want_pick.value = ""
        offer_row = widgets.HBox([self.partner_pick, self.want_pick, self.offer_button],
                                 layout=layout(flex_flow="row wrap", width="100%",
                                                       align_items="center"))
        title = "Anbieten (Phase 2)" if active else f"Anbieten an {s.players[s.active].name}"
        head = html(f'<div class="bt-ps-group-title">{escape(title)}</div>'
                            '<div class="bt-ps-small">Tippe die Karten an, die du abgeben willst (auch '
                            'mehrere, oder keine), dann: an wen und was du dafür möchtest.</div>')
        return box(widgets.VBox, [head, offer_row], "bt-ps-group", "bt-ps-g-trade", width="100%")

    def give_options(self) -> list[tuple[str, int]]:
        """The cards the learner may try to offer now: (label, card id)."""
        return list(self._give_options)

    def choose_give(self, cards: list[int]) -> None:
        """Select the cards to offer (what tapping the cards on the board does)."""
        for t in self._picks.values():
            t.value = False
        self._give = []
        for card in cards:  # as if tapped, in this order
            if card in self._picks:
                self._picks[card].value = True
            else:
                self._give.append(card)

    def _mistake_group(self) -> widgets.Widget | None:
        s = self.state
        me = self.seat
        p = s.players[me]
        buttons: list[widgets.Widget] = []
        if len(p.hand) > 1:
            order = tuple(sorted(p.hand, key=lambda c: (s.variety[c], c)))
            if order == tuple(p.hand):
                order = tuple(reversed(p.hand))
            b = self._new_button("Hand sortieren", "bt-ps-mistake", "bt-ps-reorder")
            b.on_click(self._guard(self._play(Reorder(me, order))))
            buttons.append(b)
        for k, f in enumerate(p.fields):
            if len(f) >= 3:
                b = self._new_button(f"Nur 1 Karte von Feld {k + 1} ernten", "bt-ps-mistake",
                                     "bt-ps-partial")
                b.on_click(self._guard(self._play(Harvest(me, k, 1))))
                buttons.append(b)
                break
        taken = p.set_aside[:1] or (s.revealed[:1] if s.active == me else [])
        if taken:
            b = self._new_button(f"{card_label(s, taken[0])} auf die Hand nehmen", "bt-ps-mistake",
                                 "bt-ps-take")
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
        base = before if before is not None else self._seen
        try:
            highlight: set[int | str] = set(changed_cards(base, s)) | set(changed_zones(base, s))
        except Exception:  # noqa: BLE001 - a missing highlight must not break the game
            highlight = set()
        self._highlight = highlight
        actions = self._build_actions()
        buttons = _buttons_in(actions)
        for b in [*buttons, *self._picks.values()]:  # the cards too: a test waits for them
            b.add_class(self._drawn)  # sent only for the one made before (the offer button)
        self.actions.children = actions
        # the other players (the learner's own place is the board above); the engine
        # decides which hands are open
        seen = player_view(s, self.seat)["players"]
        self.table.value = render_table(s, perspective=self.seat, highlight=highlight, omit={self.seat},
                                        show_hands=[i for i, p in enumerate(seen) if "hand" in p])
        self._seen = s.copy()
        self.log_view.value = self._log_html()
        waiting = actor(s)
        mine = "offer" if s.offer is not None and s.offer.to == self.seat else (
            "you" if waiting == self.seat else ("over" if waiting is None else "pause"))
        self.hint.value = (f'<div class="bt-ps-hintbox" data-phase="{int(s.phase)}" '
                           f'data-turn="{s.turn}" data-active="{s.active}" data-wait="{mine}" '
                           f'data-buttons="{len(buttons)}" data-version="{self._version}">{self.hint_text()}</div>')


__all__ = ["TrialGame"]
