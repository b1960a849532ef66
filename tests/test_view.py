"""player_view: what one seat may see (issue: engine §3, table view for one player)."""
import json

import bohnteach as b
from bohnteach.game.view import player_view


def test_own_hand_open_other_hands_and_deck_hidden():
    s = b.new_game("amigo", ["Anna", "Ben", "Clara"], seed=4)
    view = player_view(s, 1)
    anna, ben, clara = view["players"]
    assert "hand" not in anna and "hand" not in clara
    assert anna["hand_size"] == 5 and clara["hand_size"] == 5
    assert [c["id"] for c in ben["hand"]] == s.players[1].hand
    assert view["deck_size"] == len(s.deck) == 104 - 15
    text = json.dumps(view)
    assert "deck_top_first" not in text and "hand\": [" not in json.dumps(anna)
    for hidden in s.players[0].hand + s.players[2].hand + s.deck:
        assert f'"id": {hidden},' not in text and f'"id": {hidden}}}' not in text


def test_onlooker_sees_no_hand_but_public_zones():
    g = b.Game.new("amigo", 4, seed=2)
    g.apply(b.Plant(0, 0))
    g.apply(b.EndPlanting(0))
    view = player_view(g.state, None)
    assert all("hand" not in p for p in view["players"])
    assert [c["id"] for c in view["revealed"]] == g.state.revealed
    assert [c["id"] for c in view["players"][0]["fields"][0]] == g.state.players[0].fields[0]
    assert view["phase"] == 2 and view["pass_number"] == 1


def test_ladybohn_offer_hides_sex_of_other_hand_cards():
    s = b.new_game("ladybohn", 4, seed=5)
    g = b.Game(s)
    g.apply(b.Plant(0, 0))
    g.apply(b.EndPlanting(0))
    wanted = g.state.players[1].hand[2]
    g.apply(b.Offer(0, 1, (g.state.revealed[0],), (wanted,)))
    seen_by_anna = player_view(g.state, 0)["offer"]
    seen_by_ben = player_view(g.state, 1)["offer"]
    assert seen_by_anna["get"] == [{"variety": g.state.variety[wanted]}]
    assert seen_by_ben["get"][0]["id"] == wanted and seen_by_ben["get"][0]["trait"] in "mwB"
