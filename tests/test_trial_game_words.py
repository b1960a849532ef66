"""The trial game's texts tell the truth: grammatical for every name, no hidden card revealed."""
from __future__ import annotations

import re

import pytest

from bohnteach.game.actions import Draw, EndPlanting, EndTrading, Offer, Plant
from bohnteach.game.beans import find_variety
from bohnteach.game.state import Phase
from bohnteach.widgets.play_words import offer_words, reply_text
from bohnteach.widgets.trial_game import TrialGame
from test_site_pages import _buttons, _classes

PRONOUNS = re.compile(r"\b(sie|er|ihm|ihr|ihre|seine|seinen)\b", re.IGNORECASE)


@pytest.mark.parametrize("name", ["Anna", "Ben", "Kim", "Alex"])
@pytest.mark.parametrize("reason", ["gain", "keep", "useless", "little"])
def test_reply_text_names_the_player_and_no_pronoun(name, reason):
    text = reply_text(name, reason, "red")
    assert name in text and not PRONOUNS.search(text), text
    assert "hat keine" not in text and "Hand" not in text


def test_reply_words():
    assert reply_text("Ben", "keep", "red") == "Ben möchte keine Rote Bohne abgeben."
    assert reply_text("Ben", "useless", "garden") == "Ben braucht keine Gartenbohne."
    assert offer_words("Anna", "Ben", ["Blaue Bohne"], ["Gartenbohne"]) == \
        "Anna bietet Ben Blaue Bohne gegen Gartenbohne"
    assert offer_words("Anna", "Ben", ["Rote Bohne"], []) == "Anna schenkt Ben Rote Bohne"


def test_every_hand_card_can_be_tapped_the_rule_answers():
    """The board shows the whole hand as cards; the front one is playable, tapping it marks
    the fields the engine allows; a later card marks none and planting it is refused."""
    from bohnteach.widgets.board import legal_fields

    game = TrialGame(seed=3, bot="planter")
    s = game.state
    hand = s.players[0].hand
    assert set(game._picks) == set(hand)
    assert [c for c, t in game._picks.items() if "bt-playable" in _classes(t)] == hand[:1]
    game._picks[hand[0]].value = True
    marked = {k for k, tile in enumerate(game._tiles) if "bt-target" in _classes(tile)}
    assert marked == legal_fields(s, 0, hand[0]) and marked
    assert "hier pflanzbar" in game._tiles[min(marked)].children[1].value
    game._picks[hand[1]].value = True  # one card at a time: the front one is let go
    assert not game._picks[hand[0]].value and game._pick == hand[1]
    assert not any("bt-target" in _classes(tile) for tile in game._tiles)
    before = s.to_dict()
    refusal = game.try_action(Plant(0, 0, hand[1]))
    assert refusal is not None and refusal.rule_id == "p1.plant-front"
    assert game.state.to_dict() == before and game._pick == hand[1]  # still picked: try elsewhere


def _to_trading(game: TrialGame) -> None:
    s = game.state
    while s.phase is Phase.PLANT:
        fits = [k for k in range(len(s.players[0].fields))
                if game.try_action(Plant(0, k)) is None]
        if not fits and s.phase is Phase.PLANT and s.hand_plants == 0:
            from bohnteach.game.actions import Harvest
            game.try_action(Harvest(0, 0))
        if s.hand_plants:
            game.try_action(EndPlanting(0))
    assert game.state.phase is Phase.TRADE and game.state.active == 0


def test_asking_for_a_missing_bean_reads_like_keeping_it():
    game = TrialGame(seed=4, bot="trader")
    _to_trading(game)
    s = game.state
    ben = s.players[1]
    lacking = next(v for v in s.ruleset.varieties if all(s.variety[c] != v for c in ben.hand))
    game.choose_give([s.revealed[0]])
    game.partner_pick.value = 1
    game.want_pick.value = lacking
    game.offer_button.click()
    assert reply_text("Ben", "keep", lacking) in game.feedback.value
    assert "hat keine" not in game.feedback.value and "Hat sie" not in game.feedback.value
    assert "Ben lehnt ab. Ben möchte keine" in game.log_view.value
    assert s.offer is None


def test_log_keeps_one_person_and_shows_no_hand_position():
    game = TrialGame(seed=5, bot="trader", players=4)
    _to_trading(game)
    game.try_action(EndTrading(0))
    while game.state.active == 0 and game.state.phase is Phase.PLANT_RECEIVED:
        fields = game.state.players[0].fields
        card = game.state.revealed[0] if game.state.revealed else game.state.players[0].set_aside[0]
        placed = any(game.try_action(Plant(0, k, card)) is None for k in range(len(fields)))
        if not placed:
            from bohnteach.game.actions import Harvest
            game.try_action(Harvest(0, 0))
    game.try_action(Draw(0))
    log = game.log_view.value
    assert "Anna (du) zieht 3 Karten" in log
    assert "Du:" not in log
    assert not re.search(r"Hand \d", log), "a bot's hand position in the log"


def test_a_bot_declines_with_a_reason_and_counter_offers():
    game = TrialGame(seed=4, bot="trader")
    _to_trading(game)
    s = game.state

    def take(variety):
        card = next(c for c in reversed(s.deck) if s.variety[c] == variety)
        s.deck.remove(card)
        return card

    ben = s.players[1]
    s.deck.extend(ben.hand + [c for f in ben.fields for c in f])
    ben.fields = [[take("blue") for _ in range(3)], [take("soy") for _ in range(2)]]
    ben.hand = [take("blue"), take("red")]
    soy = take("soy")
    s.players[0].hand.append(soy)
    game._refresh()
    game.choose_give([soy])
    game.partner_pick.value = 1
    game.want_pick.value = "blue"
    game.offer_button.click()
    assert "Ben lehnt ab. Ben möchte keine Blaue Bohne abgeben." in game.log_view.value
    assert s.offer == Offer(1, 0, (ben.hand[1],), (soy,))  # the Rote Bohne for the Sojabohne
    assert "Ben bietet Anna Rote Bohne gegen Sojabohne" in game.log_view.value
    assert "Ben bietet dir Rote Bohne" in game.hint.value


def _opponent_hands(game: TrialGame) -> dict[int, str]:
    """The HTML of each bot's hand zone on the learner's table (after „<b>Hand</b>“)."""
    html = game.table.value
    return {seat: html.split(f'data-player="{seat}"', 1)[1].split("</section>", 1)[0].split("<b>Hand</b>", 1)[1]
            for seat in range(len(game.state.players)) if seat != game.seat}


def test_bots_hands_are_face_down_through_the_player_view(monkeypatch):
    import bohnteach.widgets.trial_game as trial_game

    game = TrialGame(seed=5, bot="planter")
    s = game.state
    for seat, zone in _opponent_hands(game).items():
        assert s.players[seat].hand and "verdeckt" in zone
        for card in s.players[seat].hand:
            assert find_variety(s.variety[card]).de not in zone, (seat, card)
    # the table shows what player_view says: a view that opened every hand would show them
    real = trial_game.player_view
    monkeypatch.setattr(trial_game, "player_view", lambda st, viewer: {
        **real(st, viewer), "players": [{**p, "hand": []} for p in real(st, viewer)["players"]]})
    game._refresh()
    for seat, zone in _opponent_hands(game).items():
        assert any(find_variety(s.variety[c]).de in zone for c in s.players[seat].hand), seat
