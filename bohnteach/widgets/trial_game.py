"""The trial game („Probespiel“): a whole game on one seat against bots, every refusal explained.

    from bohnteach.widgets.trial_game import TrialGame
    TrialGame(ruleset="amigo", players=4, bot="trader", seed=1)
    TrialGame(lang="en")          # in English (default: the page's language)

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
moves are logged in the reader's language (``play_words.action_words``: German keeps the
game's notation; offers by variety only and every refusal with the bot's reason,
``play_words.offer_words`` / ``play_words.reply_text``, so the log never shows a hidden
hand; the learner's own moves carry „(du)“ after the name). Everything the widget says is
in the language it was made with (``lang``, kept as ``self.tr``), in every callback too. A bot
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
from bohnteach.game.beans import all_varieties
from bohnteach.i18n import N_, Translator, _, ngettext, reader
from bohnteach.maths.bots import make_bot
from bohnteach.game.engine import actor, check, fitting_fields, harvest_coins, new_game, to_plant
from bohnteach.game.errors import RuleViolation
from bohnteach.game.record import Game
from bohnteach.render.table import (
    changed_cards, changed_zones, render_info, render_refusal, render_table, split_highlight,
)
from bohnteach.game.state import Phase, State
from bohnteach.game.view import player_view
from bohnteach.widgets.board import (
    ANSWER, board_box, board_head, board_row, card_pick, field_tile, legal_fields, mark_targets,
    own_cards, pick_group, pick_status, plantable, release_others, show_picked, trade_use,
)
from bohnteach.widgets.failure import guard
from bohnteach.widgets.parts import box, flow, html, layout, speaks, style_of
from bohnteach.widgets.play_words import action_words, card_name, offer_words, reply_text, variety_name

BOT_LABELS = {"planner": N_("plant voraus (Profi)"), "trader": N_("handelt gern (Händler)"),
              "planter": N_("bietet nie an (Gärtner)"), "random": N_("zufällig (Anfänger)")}
"""The bots to choose from (translated where shown)."""
RULESET_LABELS = {"amigo": N_("Amigo-Grundspiel"), "online": N_("Online-Regeln")}
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
                 seed: int | None = None, seat: int = 0, lang: str | Translator | None = None):
        super().__init__(layout=layout(width="100%"), _dom_classes=("bt-probespiel",))
        self.tr = reader(lang)  # every text below and in every callback: the reader's language
        tr = self.tr
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
            options=[(tr.gettext(v), k) for k, v in RULESET_LABELS.items()], value=ruleset,
            description=tr.gettext("Regeln"), layout=layout(width="auto"))
        self.players_pick = widgets.Dropdown(
            options=[(tr.ngettext("{n} Person", "{n} Personen", n).format(n=n), n) for n in (3, 4, 5)],
            value=players, description=tr.gettext("Tisch"), layout=layout(width="auto"))
        self.bot_pick = widgets.Dropdown(
            options=[(tr.gettext(v), k) for k, v in BOT_LABELS.items()], value=bot,
            description=tr.gettext("Gegner"), layout=layout(width="auto"))
        new = _button(tr.gettext("Neues Spiel"), "bt-ps-new")
        new.on_click(self._guard(lambda: self.new_game()))
        settings = box(widgets.HBox, [self.rules_pick, self.players_pick, self.bot_pick, new],
                       "bt-ps-settings", flex_flow="row wrap", width="100%")
        self.settings = settings

        # offer builder (phase 2); rebuilt options on every update
        self._give: list[int] = []  # cards the learner offers, in the order chosen
        self._give_options: list[tuple[str, int]] = []
        # „an“, „für“: no wide label column
        short = style_of(DescriptionStyle, description_width="initial")
        self.partner_pick = widgets.Dropdown(description=tr.gettext("an"), layout=layout(width="auto"),
                                             style=short)
        self.want_pick = widgets.Dropdown(description=tr.gettext("für"), layout=layout(width="auto"),
                                          style=short)
        self.offer_button = _button(tr.gettext("Anbieten"), "bt-ps-offer", style="info")
        self.offer_button.on_click(self._guard(self._make_offer))

        self.children = [self._style, settings, self.hint, self.actions, self.table, self.log_view]
        self.new_game(ruleset=ruleset, players=players, bot=bot, seed=seed)

    # ---- game -------------------------------------------------------------------------
    @speaks
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
        self._note("ev", _("Neues Spiel ({rules}, Spiel Nr. {seed}). Du bist {name} und fängst an.").format(
            rules=escape(_(self.state.ruleset.title)), seed=self.seed, name=escape(names[self.seat])))
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
        safe = guard(self._show_failure, "Probespiel", lang=self.tr)(fn)
        return lambda _button=None: safe()

    # ---- the learner's moves ----------------------------------------------------------
    @speaks
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

    @speaks
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
            self.feedback.value = render_info(_("Mit wem?"), _("Wähle aus, wem du etwas anbietest."))
            return
        if want:
            theirs = [c for c in s.players[partner].hand if s.variety[c] == want]
            if not theirs:  # said exactly as a bot that keeps the card: the hand stays hidden
                self._fresh = 0
                name = s.players[partner].name
                self._note("you", escape(offer_words(
                    self.me, name, [card_name(s, c) for c in give], [variety_name(want)])))
                declines = _("{name} lehnt ab.").format(name=name)
                self._note("bot", escape(f"{declines} {reply_text(name, 'keep', want)}"))
                self.feedback.value = render_info(_("Abgelehnt"), reply_text(name, "keep", want))
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
                               [card_name(before, c) for c in action.give],
                               [card_name(before, c) for c in action.get])
        else:
            text = action_words(before, action)
        who = names[action.player]
        if by_learner and text.startswith(who + " "):
            text = _("{name} (du)").format(name=who) + text[len(who):]
        reply = None if by_learner else self.bots[action.player].reply
        if isinstance(action, Decline) and reply is not None and not reply.accept:
            text += ". " + reply_text(who, reply.reason, reply.variety)
        extra = ""
        for ev in events:
            if ev[0] == "harvest":
                n, coins = ev[3], ev[4]
                cards = ngettext("{n} Karte", "{n} Karten", n).format(n=n)
                extra = " (" + ngettext("{cards} → {coins} Taler", "{cards} → {coins} Taler",
                                        coins).format(cards=cards, coins=coins) + ")"
            elif ev[0] == "draw" and ev[1] == self.seat and ev[2]:
                extra = ": " + ", ".join(card_name(self.state, c) for c in ev[2])
        self._note("you" if by_learner else "bot", escape(text + extra))
        for ev in events:
            kind = ev[0]
            if kind == "reveal" and ev[1]:
                cards = ", ".join(card_name(self.state, c) for c in ev[1])
                self._note("ev", _("Aufgedeckt: {cards}").format(cards=escape(cards)))
            elif kind == "reshuffle":
                self._note("ev", _("Der Ablagestapel wird gemischt – {n}. Durchgang.").format(n=ev[1]))
            elif kind == "exhausted" and self.state.ending and self.state.phase is not Phase.OVER:
                self._note("ev", _("Der Nachziehstapel ist zum letzten Mal leer: Die Runde wird zu Ende gespielt."))
            elif kind == "turn":
                who = self.state.players[ev[1]].name
                self._note("ev", _("— Du bist am Zug —") if ev[1] == self.seat
                           else _("— {name} ist am Zug —").format(name=escape(who)))
            elif kind == "game_over":
                scores, winners = ev[1], ev[2]
                names = _(" und ").join(self.state.players[i].name for i in winners)
                self._note("ev", _("Spielende. Es gewinnt {names} ({scores} Taler).").format(
                    names=escape(names), scores=", ".join(str(x) for x in scores)))

    def _log_html(self) -> str:
        fresh = self._fresh
        rows = []
        n = len(self.history)
        for i, (kind, fragment) in enumerate(reversed(self.history[-LOG_ENTRIES:])):
            cls = {"you": "bt-ps-you", "ev": "bt-ps-ev"}.get(kind, "")
            if i < fresh and kind != "ev":
                cls += " bt-ps-new-entry"
            rows.append(f'<li class="{cls.strip()}">{fragment}</li>')
        head = _("Was bisher geschah")
        count = ngettext("(neueste oben, {n} Einträge)", "(neueste oben, {n} Einträge)", n).format(n=n)
        return (f'<div class="bt-ps-logbox"><b>{head}</b> '
                f'<span class="bt-ps-small">{count}</span>'
                f'<ol reversed>{"".join(rows)}</ol></div>')

    # ---- what the learner should do ------------------------------------------------------
    @speaks
    def hint_text(self) -> str:
        s = self.state
        me = self.seat
        p = s.players[me]
        if s.phase is Phase.OVER:
            won = me in (s.winners or [])
            return (_("<b>Gewonnen!</b>") if won else _("<b>Das Spiel ist vorbei.</b>")) + " " + \
                _("Die Wertung steht oben auf dem Tisch. Mit „Neues Spiel“ geht es von vorn los.")
        who = actor(s)
        if s.offer is not None and s.offer.to == me:
            o = s.offer
            give = ", ".join(card_name(s, c) for c in o.give) or _("nichts")
            get = ", ".join(card_name(s, c) for c in o.get)
            offer = (_("<b>{name} bietet dir {give} für deine {get} an.</b>") if get
                     else _("<b>{name} bietet dir {give} als Geschenk an.</b>"))
            return offer.format(name=escape(s.players[o.player].name), give=escape(give), get=escape(get)) + " " + \
                _("Nimmst du an? Was du bekommst, legst du quer neben deine Felder und pflanzt es in Phase 3.")
        if who != me:
            if s.phase is Phase.TRADE and s.active != me:
                a = escape(s.players[s.active].name)
                return _("<b>{name} ist am Zug und möchte den Handel beenden.</b> Du darfst {name} "
                         "vorher noch etwas anbieten (nur mit der Person am Zug wird gehandelt). "
                         "Sonst klicke „Weiter“.").format(name=a)
            return _("Die anderen sind dran …")
        if s.phase is Phase.PLANT:
            if not p.hand:
                return _("<b>Phase 1:</b> Deine Hand ist leer – du überspringst Phase 1.")
            front = escape(card_name(s, p.hand[0]))
            room = fitting_fields(s, me, p.hand[0])
            if s.hand_plants == 0:
                text = _("<b>Du bist am Zug. Phase 1:</b> Die vorderste Karte deiner Hand, die "
                         "<b>{card}</b>, muss aufs Feld.").format(card=front)
            else:
                text = _("<b>Phase 1:</b> Du darfst noch die nächste Karte (<b>{card}</b>) "
                         "pflanzen – oder Phase 1 beenden.").format(card=front)
            if not room:
                text += " " + _("Sie passt auf kein Feld und keines ist frei: Ernte zuerst ein Feld.")
            return text
        if s.phase is Phase.TRADE:
            shown = ", ".join(card_name(s, c) for c in s.revealed) or _("keine mehr")
            return _("<b>Phase 2: Handeln.</b> Aufgedeckt: {cards}. Biete Karten an "
                     "(aufgedeckte oder aus der Hand, egal von welcher Stelle) – oder beende den Handel. "
                     "Was von den aufgedeckten übrig bleibt, pflanzt du in Phase 3.").format(cards=escape(shown))
        if s.phase is Phase.PLANT_RECEIVED:
            cards = ", ".join(card_name(s, c) for c in to_plant(s, me))
            return _("<b>Phase 3:</b> Pflanze alles, was vor dir liegt: {cards}. "
                     "Die Reihenfolge bestimmst du.").format(cards=escape(cards))
        if s.phase is Phase.DRAW:
            n = s.setup.draw
            return ngettext("<b>Phase 4:</b> Ziehe {n} Karte – sie kommt hinten in deine Hand. "
                            "Dann ist die nächste Person dran.",
                            "<b>Phase 4:</b> Ziehe {n} Karten – sie kommen hinten in deine Hand. "
                            "Dann ist die nächste Person dran.", n).format(n=n)
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
            b = self._new_button(ngettext("Drittes Feld kaufen ({n} Taler)", "Drittes Feld kaufen ({n} Taler)",
                                          cost).format(n=cost), "bt-ps-buy")
            b.on_click(self._guard(self._play(BuyField(self.seat))))
            groups.append(self._group(_("Mehr Platz"), [b]))
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
        groups = own_cards(s, me, card_name)
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
                plant = self._new_button(_("Auf Feld {n} pflanzen").format(n=k + 1), "bt-ps-plant",
                                         f"bt-field-{k + 1}", style="success")
                plant.on_click(self._guard(partial(self._plant, k)))
                controls.append(plant)
            if f:
                coins = harvest_coins(s, me, k)
                h = self._new_button(
                    ngettext("Feld {n} ernten ({coins} Taler)", "Feld {n} ernten ({coins} Taler)",
                             coins).format(n=k + 1, coins=coins),
                    "bt-ps-harvest", f"bt-field-{k + 1}", style="warning",
                    tooltip=ngettext("Feld {n} ernten: {beans} → {coins} Taler",
                                     "Feld {n} ernten: {beans} → {coins} Taler", coins).format(
                        n=k + 1, beans=f"{len(f)} {variety_name(s.variety[f[0]], len(f))}", coins=coins))
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
                      tooltip=_("{label} – antippen zum Anbieten").format(label=label) if trading else "",
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

        t.observe(guard(self.feedback, "Karte antippen", lang=self.tr)(flip), names="value")
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
            empty = _("Tippe die Karten an, die du anbieten willst (auch mehrere).")
        elif self._planting():
            empty = _("Tippe eine Karte an: Die Felder, auf die sie darf, werden grün gestrichelt "
                      "umrandet. Ohne Wahl nimmt „Auf Feld … pflanzen“ die vorderste Handkarte.")
            if s.phase is not Phase.PLANT:
                empty = _("Tippe eine Karte an: Die Felder, auf die sie darf, werden grün gestrichelt "
                          "umrandet. Ohne Wahl nimmt „Auf Feld … pflanzen“ eine aufgedeckte oder "
                          "erhaltene Karte, die dort passt.")
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
            b = self._new_button(_("Neues Spiel"), "bt-ps-new", style="success")
            b.on_click(self._guard(lambda: self.new_game()))
            return [b]
        who = actor(s)
        out: list[widgets.Widget] = []
        if s.offer is not None and s.offer.to == me:
            yes = self._new_button(_("Annehmen"), "bt-ps-accept", style="success")
            yes.on_click(self._guard(self._play(Accept(me))))
            no = self._new_button(_("Ablehnen"), "bt-ps-decline", style="danger")
            no.on_click(self._guard(self._play(Decline(me))))
            out += [yes, no]
        elif who == me and s.phase is Phase.PLANT:
            if s.hand_plants or not p.hand:
                b = self._new_button(_("▶ Phase 1 beenden") if p.hand else _("▶ Weiter zu Phase 2"),
                                     "bt-ps-end-planting", style="primary")
            else:
                b = self._new_button(_("Gar nichts pflanzen"), "bt-ps-end-planting", "bt-ps-mistake")
            b.on_click(self._guard(self._play(EndPlanting(me))))
            out.append(b)
        elif who == me and s.phase is Phase.DRAW:
            b = self._new_button(ngettext("▶ {n} Karte ziehen", "▶ {n} Karten ziehen", s.setup.draw).format(
                n=s.setup.draw), "bt-ps-draw", style="primary")
            b.on_click(self._guard(self._play(Draw(me))))
            out.append(b)
        elif self._trading():
            if s.active == me:
                b = self._new_button(_("▶ Handel beenden"), "bt-ps-end-trading", style="primary")
                b.on_click(self._guard(self._play(EndTrading(me))))
            else:
                b = self._new_button(_("▶ Weiter (kein Angebot)"), "bt-ps-continue", style="primary")
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
        self.want_pick.options = [(_("nichts (Geschenk)"), "")] + [
            (variety_name(v.key), v.key) for v in all_varieties() if v.key in s.ruleset.varieties
        ]
        self.want_pick.value = ""
        offer_row = widgets.HBox([self.partner_pick, self.want_pick, self.offer_button],
                                 layout=layout(flex_flow="row wrap", width="100%",
                                                       align_items="center"))
        title = _("Anbieten (Phase 2)") if active else _("Anbieten an {name}").format(name=s.players[s.active].name)
        how = _("Tippe die Karten an, die du abgeben willst (auch mehrere, oder keine), dann: an wen "
                "und was du dafür möchtest.")
        head = html(f'<div class="bt-ps-group-title">{escape(title)}</div>'
                    f'<div class="bt-ps-small">{how}</div>')
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
            b = self._new_button(_("Hand sortieren"), "bt-ps-mistake", "bt-ps-reorder")
            b.on_click(self._guard(self._play(Reorder(me, order))))
            buttons.append(b)
        for k, f in enumerate(p.fields):
            if len(f) >= 3:
                b = self._new_button(_("Nur 1 Karte von Feld {n} ernten").format(n=k + 1), "bt-ps-mistake",
                                     "bt-ps-partial")
                b.on_click(self._guard(self._play(Harvest(me, k, 1))))
                buttons.append(b)
                break
        taken = p.set_aside[:1] or (s.revealed[:1] if s.active == me else [])
        if taken:
            b = self._new_button(_("{card} auf die Hand nehmen").format(card=card_name(s, taken[0])),
                                 "bt-ps-mistake", "bt-ps-take")
            b.on_click(self._guard(self._play(TakeIntoHand(me, taken[0]))))
            buttons.append(b)
        if not buttons:
            return None
        return self._group(_("Typische Fehler ausprobieren (die Regel sagt Nein)"), buttons, "bt-ps-g-mistakes")

    # ---- view ------------------------------------------------------------------------------
    @speaks
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
