"""Bots: legal play in whole games, the planter's and trader's choices in set-up tables."""
from __future__ import annotations

import ast

import pytest

from bohnteach import _compiled
from bohnteach.game import engine
from bohnteach.game.actions import (
    Accept, BuyField, Decline, Draw, EndPlanting, EndTrading, Harvest, Offer, Plant,
)
from bohnteach.maths.bots import (
    BOTS, GROWTH, Bot, PlanterBot, RandomBot, Reply, TraderBot, field_potential, make_bot,
)
from bohnteach.maths.simulate import run_games
from bohnteach.game.state import Phase, State

GAMES = [
    ("amigo", 3), ("amigo", 4), ("amigo", 5), ("online", 3), ("online", 5), ("online", 7),
    ("ladybohn", 3), ("ladybohn", 5),  # written against the engine API, not the base game
]


class Watch:
    """Asks the bots like a simulation does and checks every answer before applying."""

    def __init__(self, names, seed=0):
        self.bots = [make_bot(n, seed * 10 + i) for i, n in enumerate(names)]
        self.actions = []

    def play(self, s: State, limit: int = 20_000) -> State:
        while s.phase is not Phase.OVER:
            who = engine.actor(s)
            a = self.bots[who].choose(s, who)
            assert a.player == who, (a, who)
            assert engine.check(s, a) is None, (a, engine.check(s, a))
            engine.apply(s, a)
            self.actions.append(a)
            assert len(self.actions) < limit
        return s


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("ruleset,players", GAMES)
def test_bot_finishes_games_with_legal_actions(name, ruleset, players):
    for seed in range(2):
        watch = Watch([name] * players, seed)
        s = watch.play(engine.new_game(ruleset, players, seed=seed))
        assert s.scores is not None and s.winners
        if name != "random":
            assert all(b.fallbacks == 0 for b in watch.bots), "the strategy proposed an illegal action"


@pytest.mark.parametrize("ruleset,players", [("amigo", 4), ("online", 6)])
def test_mixed_table(ruleset, players):
    names = (["random", "planter", "trader"] * 3)[:players]
    watch = Watch(names, seed=3)
    s = watch.play(engine.new_game(ruleset, players, seed=3))
    assert len(s.scores) == players


def _class_docstring(cls: type) -> str | None:
    """The docstring in the class's source (the mypyc build keeps no class docstrings)."""
    path = _compiled.ROOT / (cls.__module__.replace(".", "/") + ".py")
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            return ast.get_docstring(node)
    return None


def test_registry_and_make_bot():
    assert set(BOTS) >= {"random", "planter", "trader"}
    for name, cls in BOTS.items():
        bot = make_bot(name, seed=4)
        assert isinstance(bot, cls) and isinstance(bot, Bot) and bot.name == name
        assert _class_docstring(cls) and cls.description
    assert isinstance(make_bot(" Trader "), TraderBot)
    with pytest.raises(ValueError, match="Unbekannter Bot 'genius'.*random"):
        make_bot("genius")


def test_planter_beats_random_on_average():
    planter, random_ = [], []
    for seat in range(4):  # the planter in every seat, against three random bots
        bots = ["random"] * 4
        bots[seat] = "planter"
        r = run_games("amigo", 4, games=10, seed=seat, bots=bots)
        planter.append(r.mean_scores[seat])
        random_ += [x for i, x in enumerate(r.mean_scores) if i != seat]
    # the random bot no longer harvests for nothing, so the gap is smaller than it was
    assert sum(planter) / len(planter) > sum(random_) / len(random_) + 0.5


def test_trader_trades_and_beats_planter():
    r = run_games("amigo", 4, games=10, seed=1, bots="trader")
    assert r.mean_trades >= 5
    assert all(g.trades > 0 for g in r.records)
    planters = run_games("amigo", 4, games=10, seed=1, bots="planter")
    assert planters.mean_trades == 0
    assert sum(r.mean_scores) > sum(planters.mean_scores)


def test_buying_a_field_only_when_asked():
    bought = {}
    for flag in (False, True):
        watch = Watch(["trader"] * 4, seed=2)
        for bot in watch.bots:
            bot.buy_field = flag
        s = watch.play(engine.new_game("online", 4, seed=2))
        bought[flag] = sum(type(a) is BuyField for a in watch.actions)
        assert bought[flag] == sum(len(p.fields) - 2 for p in s.players)
    assert bought[False] == 0 and bought[True] > 0


def test_bots_are_deterministic_for_a_seed():
    def log(seed):
        watch = Watch(["random", "trader", "planter", "random"], seed)
        watch.play(engine.new_game("amigo", 4, seed=seed))
        return watch.actions

    assert log(5) == log(5)
    assert log(5) != log(6)


# ---- set-up tables -------------------------------------------------------------------------
def arrange(players=4, active=0, phase=Phase.PLANT, fields=None, hands=None, revealed=(),
            hand_plants=0, ruleset="amigo") -> State:
    """A table built from variety counts: ``fields={0: [("blue", 3), None]}``,
    ``hands={0: ["blue", "soy"]}``; cards come from the draw pile, hands start empty."""
    s = engine.new_game(ruleset, players, seed=11)
    for p in s.players:
        s.deck.extend(p.hand)
        p.hand = []

    def take(variety):
        card = next(c for c in reversed(s.deck) if s.variety[c] == variety)
        s.deck.remove(card)
        return card

    for seat, spec in (fields or {}).items():
        for k, item in enumerate(spec):
            s.players[seat].fields[k] = [] if item is None else [take(item[0]) for _ in range(item[1])]
    for seat, names in (hands or {}).items():
        s.players[seat].hand = [take(v) for v in names]
    s.revealed = [take(v) for v in revealed]
    s.active, s.phase, s.hand_plants = active, phase, hand_plants
    return s


def test_field_potential():
    blue = (4, 6, 8, 10)
    assert field_potential(blue, 0) == 0
    assert field_potential(blue, 6) == pytest.approx(2 + 6 * GROWTH)
    assert field_potential(blue, 7) == pytest.approx(2.25 + 7 * GROWTH)
    assert field_potential(blue, 12) == 4
    assert field_potential((0, 2, 3, 0), 1) == 0.5 + GROWTH  # Gartenbohne: half way to 2 coins
    assert field_potential(None, 3) == 0


def test_planter_prefers_the_field_of_the_same_variety():
    s = arrange(fields={0: [None, ("blue", 2)]}, hands={0: ["blue", "soy"]})
    assert PlanterBot().choose(s, 0) == Plant(0, 1)
    s = arrange(players=3, fields={0: [("blue", 1), ("blue", 3), None]}, hands={0: ["blue"]})
    assert PlanterBot().choose(s, 0) == Plant(0, 1)  # the bigger one
    s = arrange(fields={0: [("chili", 2), None]}, hands={0: ["blue"]})
    assert PlanterBot().choose(s, 0) == Plant(0, 1)  # else the empty field


def test_planter_harvests_what_yields_most_and_respects_protection():
    s = arrange(fields={0: [("chili", 2), ("blue", 6)]}, hands={0: ["soy"]})
    assert PlanterBot().choose(s, 0) == Harvest(0, 1)  # 2 coins now, nothing half-grown
    s = arrange(fields={0: [("chili", 1), ("blue", 3)]}, hands={0: ["soy"]})
    assert PlanterBot().choose(s, 0) == Harvest(0, 1)  # harvest.protection: not the single Chili
    s = arrange(fields={0: [("chili", 1), ("blue", 1)]}, hands={0: ["soy", "blue"]})
    assert PlanterBot().choose(s, 0) == Harvest(0, 0)  # keep the Blue, one more is coming


def test_planter_plants_a_second_card_only_if_it_fits():
    s = arrange(fields={0: [("blue", 2), ("soy", 1)]}, hands={0: ["soy", "red"]}, hand_plants=1)
    assert PlanterBot().choose(s, 0) == Plant(0, 1)
    s = arrange(fields={0: [("blue", 2), ("soy", 1)]}, hands={0: ["red", "soy"]}, hand_plants=1)
    assert PlanterBot().choose(s, 0) == EndPlanting(0)


def test_planter_makes_no_offer_but_accepts_a_gift_that_fits():
    s = arrange(phase=Phase.TRADE, fields={0: [("blue", 2), None], 1: [("soy", 2), None]},
                hands={0: ["red"], 1: ["blue"]}, revealed=["soy", "red"])
    assert PlanterBot().choose(s, 0) == EndTrading(0)
    engine.apply(s, Offer(0, 1, (s.revealed[0],), ()))  # a Sojabohne for her Soja field
    bot = PlanterBot()
    assert bot.choose(s, 1) == Accept(1)
    assert bot.reply == Reply(True, "gain")


def test_every_bot_declines_a_gift_that_forces_a_harvest():
    s = arrange(phase=Phase.TRADE, hand_plants=1,
                fields={0: [("blue", 2), None], 1: [("green", 2), ("chili", 3)]},
                hands={0: ["red"], 1: ["chili"]}, revealed=["red", "soy"])
    engine.apply(s, Offer(0, 1, (s.revealed[0],), ()))  # a Rote Bohne: no room for it
    for name in ("planter", "trader"):
        bot = make_bot(name)
        assert bot.choose(s, 1) == Decline(1)
        assert bot.reply == Reply(False, "useless", "red")


def test_planter_phase3_plants_fitting_cards_first():
    s = arrange(phase=Phase.PLANT_RECEIVED, fields={0: [("blue", 2), ("soy", 1)]},
                revealed=["red", "soy"])
    soy = s.revealed[1]
    assert PlanterBot().choose(s, 0) == Plant(0, 1, soy)
    engine.apply(s, Plant(0, 1, soy))
    assert PlanterBot().choose(s, 0) == Harvest(0, 1)  # the red one forces a harvest
    assert PlanterBot().choose(s.copy(), 0) != Draw(0)


def test_trader_offers_unusable_revealed_card_for_a_card_it_needs():
    s = arrange(phase=Phase.TRADE, hand_plants=1,
                fields={0: [("blue", 3), ("chili", 2)], 1: [("soy", 2), None]},
                hands={0: ["blue"], 1: ["red", "chili"]}, revealed=["soy"])
    soy, chili = s.revealed[0], s.players[1].hand[1]
    bot, other = TraderBot(1), TraderBot(2)
    offer = bot.choose(s, 0)
    assert offer == Offer(0, 1, (soy,), (chili,))
    engine.apply(s, offer)
    assert other.choose(s, 1) == Accept(1)  # Soja fits her field, Chili was no use to her
    engine.apply(s, Accept(1))
    assert s.players[1].set_aside == [soy] and s.players[0].set_aside == [chili]
    assert bot.choose(s, 0) == EndTrading(0)


def test_trader_gives_the_card_away_if_nobody_pays():
    s = arrange(phase=Phase.TRADE, hand_plants=1,
                fields={0: [("blue", 3), ("chili", 2)], 1: [("soy", 2), ("green", 1)]},
                hands={0: ["blue"], 1: ["red"]}, revealed=["soy"])
    soy = s.revealed[0]
    bot = TraderBot(1)
    gift = bot.choose(s, 0)
    assert gift == Offer(0, 1, (soy,), ())
    engine.apply(s, gift)
    engine.apply(s, Decline(1))
    offers = []
    while True:  # after the refusal it tries others, never twice the same, then stops
        a = bot.choose(s, 0)
        if a == EndTrading(0):
            break
        assert type(a) is Offer and a not in offers
        offers.append(a)
        engine.apply(s, a)
        engine.apply(s, Decline(a.to))
    assert len(offers) <= bot.max_offers


def test_trader_answers_offers_by_value():
    s = arrange(phase=Phase.TRADE, hand_plants=1,
                fields={0: [("red", 2), None], 1: [("blue", 5), ("chili", 5)]},
                hands={0: ["blue", "soy"], 1: ["chili"]}, revealed=["blue", "soy"])
    blue, soy = s.revealed
    engine.apply(s, Offer(0, 1, (blue,), ()))
    assert TraderBot().choose(s, 1) == Accept(1)
    engine.apply(s, Accept(1))
    engine.apply(s, Offer(0, 1, (soy,), ()))  # would force a harvest
    assert TraderBot().choose(s, 1) == Decline(1)


def test_random_bot_caps_its_offers_and_answers():
    s = arrange(phase=Phase.TRADE, hand_plants=1, fields={0: [("blue", 2), None]},
                hands={0: ["blue", "soy", "red"], 1: ["soy", "red"], 2: ["green"], 3: ["chili"]},
                revealed=["soy", "red"])
    bot = RandomBot(seed=1, offer_rate=1.0, max_offers=3)
    answer = RandomBot(seed=2)
    made = 0
    for _ in range(50):
        a = bot.choose(s, 0)
        assert engine.check(s, a) is None
        if type(a) is Offer:
            made += 1
            listed = engine.legal_actions(s, 0)
            assert a in listed
            engine.apply(s, a)
            reply = answer.choose(s, a.to)
            assert type(reply) in (Accept, Decline, Harvest)
            engine.apply(s, Decline(a.to))
        elif type(a) is EndTrading:
            break
        else:
            engine.apply(s, a)
    assert made == 3


# ---- Ladybohn ---------------------------------------------------------------------------
def test_random_bot_makes_no_offer_while_a_received_baby_waits():
    """lady.baby-trade-immediate: every offer is refused until the baby is planted, so
    RandomBot must not propose one then (it used to, and the simulation crashed)."""
    from bohnteach.editions import ladybohn
    from bohnteach.content.scenes import parse_scene

    scene = parse_scene(
        "Szene: t\nTitel: t\nKapitel: Ladybohn\nRegelwerk: ladybohn\n"
        "Spieler: Anna, Ben, Clara\nAm Zug: Anna\nPhase: 2\n"
        "Anna Hand: Brechbohne, Augenbohne\nAnna Feld 1: 2 Feuerbohnen\n"
        "Ben Hand: Feuerbohne (Baby), Sojabohne\nAufgedeckt: Blaue Bohne, Rote Bohne\n"
        "Schritt: Anna bietet Ben aufgedeckte Blaue Bohne gegen Feuerbohne\n"
        "Schritt: Ben nimmt an\n"
    )
    s = scene.state_at(2)
    assert ladybohn.pending_seats(s) == [0] and engine.actor(s) == 0
    bot = RandomBot(seed=1, offer_rate=1.0, max_offers=99)
    for _ in range(30):
        a = bot.choose(s, 0)
        assert not isinstance(a, Offer)
        assert engine.check(s, a) is None, a


def test_simulate_ladybohn_with_random_bots():
    result = run_games("ladybohn", 4, 20, 0, ["random"] * 4)
    assert result.games == 20 and len(result.records) == 20


# ---- answers, reasons, counter-offers ---------------------------------------------------------
def test_a_declined_offer_gets_a_reason_and_a_counter_offer():
    s = arrange(phase=Phase.TRADE, hand_plants=1,
                fields={0: [("blue", 3), ("soy", 2)], 1: [("chili", 2), None]},
                hands={0: ["blue", "red"], 1: ["soy"]}, revealed=[])
    blue, red = s.players[0].hand
    (soy,) = s.players[1].hand
    engine.apply(s, Offer(1, 0, (soy,), (blue,)))  # Ben asks the active Anna for her Blaue Bohne
    bot = TraderBot(1)
    assert bot.choose(s, 0) == Decline(0)
    counter = Offer(0, 1, (red,), (soy,))  # the Sojabohne, but for the Rote Bohne she cannot use
    assert bot.reply == Reply(False, "keep", "blue", counter)
    engine.apply(s, Decline(0))
    assert bot.choose(s, 0) == counter
    engine.apply(s, counter)
    planter = PlanterBot(1)
    engine.apply(s, Decline(1))
    engine.apply(s, Offer(1, 0, (soy,), (blue,)))
    assert planter.choose(s, 0) == Decline(0)
    assert planter.reply == Reply(False, "keep", "blue")  # a planter does not counter


def test_no_bot_offers_a_variety_for_the_same_variety():
    offers = 0
    for seed in range(3):
        watch = Watch(["trader", "random", "trader", "random"], seed)
        s = engine.new_game("amigo", 4, seed=seed)
        while s.phase is not Phase.OVER:
            who = engine.actor(s)
            a = watch.bots[who].choose(s, who)
            if type(a) is Offer:
                offers += 1
                assert not ({s.variety[c] for c in a.give} & {s.variety[c] for c in a.get}), a
            engine.apply(s, a)
    assert offers > 50


def _forced_to_harvest_for_nothing(s: State, who: int) -> bool:
    """Whether the rules leave ``who`` nothing but harvests, none of them yielding a coin
    (a card must go down, fits nowhere, and every field it may free is worth 0 Taler)."""
    legal = [b for b in engine.legal_actions(s, who, offers=False) if type(b) is not BuyField]
    return all(type(b) is Harvest and engine.harvest_coins(s, who, b.field) == 0 for b in legal)


@pytest.mark.parametrize("ruleset,players,games", [("amigo", 4, 40), ("online", 5, 15)])
def test_no_harvest_for_nothing_unless_forced(ruleset, players, games):
    """A learner copies what a bot does (issue 34 §5): over many games, no bot harvests
    a field for 0 Taler when it could do anything else – plant, end the phase, or harvest
    a field that pays. The forced case does come up (and is counted apart)."""
    from bohnteach.maths.bots import zero_harvest

    tables = [[name] * players for name in sorted(BOTS)] + [
        (["random", "planter", "trader", "planner"] * 2)[:players]]
    voluntary: list[tuple] = []
    forced = 0
    for names in tables:
        for seed in range(games):
            watch = Watch(names, seed)
            s = engine.new_game(ruleset, players, seed=seed)
            while s.phase is not Phase.OVER:
                who = engine.actor(s)
                a = watch.bots[who].choose(s, who)
                if zero_harvest(s, a):
                    if _forced_to_harvest_for_nothing(s, who):
                        forced += 1
                    else:
                        voluntary.append((names[who], seed, s.turn, a))
                engine.apply(s, a)
    assert voluntary == [], f"{len(voluntary)} voluntary 0-Taler harvests, e.g. {voluntary[:3]}"
    assert forced > 0  # the situation did come up


def test_a_trader_completes_trades_with_planters():
    r = run_games("amigo", 4, games=12, seed=3, bots=["planter", "trader", "planter", "planter"])
    assert r.mean_trades >= 3
    assert r.mean_scores[1] > max(r.mean_scores[0], r.mean_scores[2], r.mean_scores[3]) + 2


def test_planner_trades_away_a_card_further_back_that_would_force_a_harvest():
    s = arrange(phase=Phase.TRADE, hand_plants=1,
                fields={0: [("blue", 3), ("chili", 2)], 1: [("red", 2), None]},
                hands={0: ["blue", "blue", "red"], 1: ["chili"]}, revealed=[])
    red = s.players[0].hand[2]
    assert TraderBot(1).choose(s, 0) == EndTrading(0)  # the trader looks at the front card only
    offer = make_bot("planner", 1).choose(s, 0)
    assert type(offer) is Offer and offer.give == (red,) and offer.to == 1
    assert offer.get == (s.players[1].hand[0],)  # a Feuerbohne for its Chili field
