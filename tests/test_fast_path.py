"""The fast path (``apply_legal``, ``step``) gives exactly what ``apply`` gives.

Hypothesis drives whole games (every rule set and player count, bots of all kinds plus
random choices from the full listing with offers); at each step listed actions (all, or six drawn
from a long listing with offers) and the bots' own choices, which may be deals of any
ratio, are applied once with
``apply`` and once with ``apply_legal`` to copies of the state: same state (``to_dict``,
edition zones included) and same events.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bohnteach.game import engine
from bohnteach.game.state import Phase, State
from bohnteach.maths.bots import make_bot
from bohnteach.maths.simulate import run_games

CONFIGS = (
    [("amigo", n) for n in range(3, 6)] + [("online", n) for n in range(3, 8)]
    + [("ladybohn", n) for n in range(3, 6)]
)


def _same(s: State, action) -> None:
    checked, fast = s.copy(), s.copy()
    events = engine.apply(checked, action)
    fast_events = engine.apply_legal(fast, action)
    assert fast_events == events, action
    assert fast.to_dict() == checked.to_dict(), action
    assert fast.events == checked.events


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10_000),
       bots=st.lists(st.sampled_from(["random", "planter", "trader"]), min_size=7, max_size=7))
def test_apply_legal_equals_apply_over_whole_games(config, seed, bots):
    ruleset, players = config
    s = engine.new_game(ruleset, players, seed=seed)
    seats = [make_bot(b, seed * 8 + i) for i, b in enumerate(bots[:players])]
    rng = random.Random(seed)
    steps = 0
    while s.phase is not Phase.OVER:
        listed = engine.legal_actions(s)
        assert listed, s
        for action in listed if len(listed) <= 6 else rng.sample(listed, 6):
            _same(s, action)
        p = engine.actor(s)
        chosen = seats[p].choose(s, p)  # legal by Bot.choose; may be a deal of any ratio
        _same(s, chosen)
        if rng.random() < 0.3:  # sometimes a random listed action instead (harvests, offers …)
            chosen = listed[rng.randrange(len(listed))]
        engine.apply_legal(s, chosen)
        steps += 1
        assert steps < 3000


@pytest.mark.parametrize("ruleset,players", CONFIGS)
def test_fast_path_over_seeded_random_games(ruleset, players):
    """Whole games of ``RandomBot``s (offers included, the loop of ``run_games``), three seeds
    per rule set and player count: each chosen action gives the same state and events with
    ``apply_legal`` as with ``apply``, and so does every listed action on every tenth step;
    the fast listing of one seat equals the general one (``_legal_listing``), with and
    without offers, for every seat."""
    for seed in range(3):
        s = engine.new_game(ruleset, players, seed=seed)
        bots = [make_bot("random", seed * 8 + i) for i in range(players)]
        steps = 0
        while s.phase is not Phase.OVER:
            for seat in range(players):
                for offers in (False, True):
                    assert engine.legal_actions(s, seat, offers) == engine._legal_listing(s, seat, offers)
            if steps % 10 == 0:
                for action in engine.legal_actions(s):
                    _same(s, action)
            p = engine.actor(s)
            action = bots[p].choose(s, p)
            _same(s, action)
            engine.apply_legal(s, action)
            steps += 1
            assert steps < 3000


def test_step_applies_the_kth_listed_action():
    s = engine.new_game("online", 5, seed=3)
    t = s.copy()
    for k in (1, 0, 0):
        action = engine.legal_actions(t, 0, offers=False)[k]
        assert engine.step(s, k, 0, offers=False) == engine.apply(t, action)
        assert s == t
    with pytest.raises(IndexError):
        engine.step(s, 10_000)


def test_simulations_give_the_same_results_as_the_checked_loop():
    """run_games uses apply_legal; the checked loop (apply) must give the same games."""
    fast = run_games("amigo", 4, games=5, seed=11, bots="random")
    for record in fast.records:
        s = engine.new_game("amigo", 4, seed=record.seed)
        bots = [make_bot("random", record.seed * 8 + i) for i in range(4)]
        actions = 0
        while s.phase is not Phase.OVER:
            p = engine.actor(s)
            engine.apply(s, bots[p].choose(s, p))
            actions += 1
        assert (s.turn, actions, s.scores, s.winners) == (
            record.turns, record.actions, record.scores, record.winners)


def test_randbelow_draws_what_the_random_module_draws():
    """``engine.randbelow`` (shuffle, ``RandomBot.random_offer``) takes the same numbers from
    the same stream as ``random.Random``'s ``choice``, ``randrange`` and ``shuffle``."""
    for seed in range(20):
        ours, theirs = random.Random(seed), random.Random(seed)
        for n in [1, 2, 3, 5, 7, 8, 9, 31, 32, 33, 104, 1000] * 3:
            assert engine.randbelow(ours.getrandbits, n) == theirs.randrange(n)
            items = list(range(n))
            assert items[engine.randbelow(ours.getrandbits, n)] == theirs.choice(items)
        cards, expected = list(range(60)), list(range(60))
        engine.shuffle(cards, f"s{seed}")
        random.Random(f"s{seed}").shuffle(expected)
        assert cards == expected


def test_random_offer_draws_what_the_library_calls_drew():
    """``RandomBot.random_offer`` replaces ``rng.choices``/``choice``/``randrange`` by the
    same draws: offers and the rest of the stream stay those of the library calls."""
    from bohnteach.game.actions import Offer
    from bohnteach.maths.bots import pointless

    def reference(bot, s, player):  # the former code, with the library calls
        mine = s.players[player].hand + s.revealed
        others = [q for q in range(len(s.players)) if q != player]
        weights = [1 + len(s.players[q].hand) for q in others]
        q = bot.rng.choices(others, weights)[0]
        card = bot.rng.choice(mine)
        k = bot.rng.randrange(weights[others.index(q)])
        offer = Offer(player, q, (card,), () if k == 0 else (s.players[q].hand[k - 1],))
        return None if pointless(s, offer) else offer

    for players in (3, 4, 7):
        s = engine.new_game("online", players, seed=players)
        ours, theirs = make_bot("random", players), make_bot("random", players)
        for _ in range(200):
            assert ours.random_offer(s, 0) == reference(theirs, s, 0)
        assert ours.rng.random() == theirs.rng.random()
