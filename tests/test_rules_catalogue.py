"""The rule catalogue (``data/rules.toml``, written out as ``docs/rules.md``).

Where the shared design document ``../shared/design/RULES.md`` sits beside the repository
(it is not part of the project), every rule ID of its §2 must be known to the engine,
explained in German and sourced from a seed file. Always: every ID the engine raises is in
the catalogue, every §2 rule ID has its tests (the COVERAGE table below), and
``docs/rules.md`` is up to date."""
from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from bohnteach import rule_catalogue
from bohnteach.game.errors import SEED_FILES, SOURCE_TITLES

REPO = Path(__file__).resolve().parents[1]
SHARED_CANDIDATES = [REPO.parent / "shared", REPO / "shared"]  # CI: ../shared beside the repo
SHARED = next((p for p in SHARED_CANDIDATES if (p / "design" / "RULES.md").is_file()), None)
needs_shared = pytest.mark.skipif(SHARED is None, reason="RULES.md not found beside the repo (../shared/design)")

GERMAN = re.compile(r"\b(der|die|das|du|und|nicht|ein|eine|wer|auf|ist|zu|hat|oder|mit|wird|darf|kann|jede)\b", re.IGNORECASE)


def rules_md_section2() -> dict[str, str]:
    """Rule ID -> source letters column, from the table of RULES.md §2."""
    text = (SHARED / "design" / "RULES.md").read_text("utf-8")  # type: ignore[operator]
    section = text.split("## 2.", 1)[1].split("## 3.", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and re.fullmatch(r"[a-z0-9]+(\.[a-z0-9-]+)+", cells[0]):
            rows[cells[0]] = cells[2]
    return rows


# Each RULES.md §2 rule ID -> the tests of its allowed and (where it can refuse) refused case.
COVERAGE = {
    "setup.deck": ["test_rules_phases::test_setup_deck_sizes", "test_beans::test_amigo_deck_is_104_cards_of_8_varieties",
                   "test_beans::test_online_deck_removals"],
    "setup.fields": ["test_rules_phases::test_setup_fields", "test_rules_phases::test_setup_fields_no_extra_field_with_four_players"],
    "setup.deal": ["test_rules_phases::test_setup_deal_one_card_at_a_time", "test_rules_phases::test_setup_deal_is_seeded_and_complete"],
    "setup.start-player": ["test_rules_phases::test_setup_start_player_keeps_the_card"],
    "hand.order": ["test_rules_phases::test_hand_order_draws_go_to_the_back", "test_rules_phases::test_hand_order_front_card_is_planted",
                   "test_rules_phases::test_hand_order_reorder_refused"],
    "field.one-variety": ["test_rules_phases::test_field_same_variety_on_two_fields_allowed",
                          "test_rules_phases::test_field_one_variety_refused"],
    "p1.plant-front": ["test_rules_phases::test_p1_front_card_must_be_planted_first"],
    "p1.second-optional": ["test_rules_phases::test_p1_second_card_may_be_planted", "test_rules_phases::test_p1_second_card_is_optional",
                           "test_rules_phases::test_p1_never_a_third_card"],
    "p1.no-room": ["test_rules_phases::test_p1_no_room_refused_then_harvest_first"],
    "p1.empty-hand": ["test_rules_phases::test_p1_empty_hand_goes_to_phase_2", "test_rules_phases::test_p1_empty_hand_in_a_built_table"],
    "p2.reveal-two": ["test_rules_phases::test_p2_reveal_two_from_the_top",
                      "test_rules_phases::test_p2_revealed_cards_belong_to_the_active_player"],
    "trade.active-only": ["test_rules_trade::test_active_only_co_player_trades_with_the_active_player",
                          "test_rules_trade::test_active_only_two_co_players_each_close_their_own_deal",
                          "test_rules_trade::test_active_only_co_players_never_trade_with_each_other"],
    "trade.offer-hand-any": ["test_rules_trade::test_offer_hand_any_position_and_revealed",
                             "test_rules_trade::test_offer_hand_any_not_somebody_elses_cards"],
    "trade.no-field-cards": ["test_rules_trade::test_no_field_cards"],
    "trade.no-retrade": ["test_rules_trade::test_no_retrade"],
    "trade.any-ratio": ["test_rules_trade::test_any_ratio_two_blue_for_one_garden", "test_rules_trade::test_any_ratio_both_must_agree",
                        "test_rules_trade::test_any_ratio_at_least_one_card"],
    "trade.gift": ["test_rules_trade::test_gift_accepted", "test_rules_trade::test_gift_from_a_co_player_hand",
                   "test_rules_trade::test_gift_declined_nothing_happens"],
    "trade.set-aside": ["test_rules_trade::test_set_aside_never_into_the_hand"],
    "trade.pull-on-agreement": ["test_rules_trade::test_pull_on_agreement", "test_rules_trade::test_pull_on_agreement_refusals"],
    "trade.continue-after-revealed": ["test_rules_trade::test_continue_after_revealed"],
    "trade.end": ["test_rules_trade::test_end_by_the_active_player", "test_rules_trade::test_end_only_by_the_active_player"],
    "trade.phase2-only": ["test_rules_trade::test_phase2_only"],
    "p3.plant-all": ["test_rules_phases::test_p3_everybody_plants_everything_in_any_order", "test_rules_phases::test_p3_refusals",
                     "test_rules_phases::test_p3_revealed_and_received_cards_wait_for_phase_3"],
    "p3.no-room": ["test_rules_phases::test_p3_no_room_refused_then_harvest_first"],
    "p4.draw-three": ["test_rules_phases::test_p4_draw_three_then_left_neighbour", "test_rules_phases::test_p4_refusals"],
    "harvest.any-time": ["test_rules_harvest_end::test_harvest_any_time_also_out_of_turn",
                         "test_rules_harvest_end::test_harvest_not_after_the_game"],
    "harvest.meter": ["test_rules_harvest_end::test_harvest_meter", "test_beans::test_bohnometer_table"],
    "harvest.whole-field": ["test_rules_harvest_end::test_harvest_whole_field"],
    "harvest.protection": ["test_rules_harvest_end::test_harvest_protection_refused",
                           "test_rules_harvest_end::test_harvest_protection_all_single_fields"],
    "deck.reshuffle": ["test_rules_harvest_end::test_reshuffle_when_the_last_card_is_drawn",
                       "test_rules_harvest_end::test_reshuffle_during_the_reveal"],
    "end.third-exhaustion": ["test_rules_harvest_end::test_end_when_the_pile_runs_out_the_third_time",
                             "test_rules_harvest_end::test_no_end_before_the_third_time",
                             "test_rules_harvest_end::test_end_during_trading_finishes_phases_2_and_3",
                             "test_rules_harvest_end::test_end_refuses_everything_afterwards"],
    "end.final-harvest": ["test_rules_harvest_end::test_final_harvest_and_hand_cards_do_not_count"],
    "score.coins": ["test_rules_harvest_end::test_score_most_coins_wins"],
    "tie.clockwise": ["test_rules_harvest_end::test_tie_clockwise"],
}
T = "test_indiana::test_"
INDIANA_COVERAGE = {  # indy.* (not in RULES.md §2): allowed and refused case of each
    "indy.cards": [T + "cards_the_deck_and_the_supply", T + "cards_no_bean_in_a_hand_of_a_saved_game"],
    "indy.meters": [T + "meters_are_assumed_and_replaceable", T + "meters_refused_for_other_varieties_bad_values_and_wrong_arguments"],
    "indy.deal": [T + "deal_three_four_five_six_from_the_start_player"],
    "indy.temple-setup": [T + "temple_setup_four_varieties_each_a_stack",
                          T + "temple_setup_refused_in_a_save_with_two_varieties_on_a_stack"],
    "indy.temple-reveal": [T + "refill_example_1_both_go_to_the_temple_two_new_cards",
                           T + "temple_reveal_cards_in_the_temple_cannot_be_traded"],
    "indy.temple-refill": [T + "refill_example_2_first_revealed_takes_the_empty_place",
                           T + "refill_example_3_one_place_stays_empty", T + "temple_refill_not_during_a_visit",
                           T + "temple_refill_refused_when_no_place_is_empty"],
    "indy.draw-one": [T + "draw_one_every_player_active_first_with_the_temple_check",
                      T + "draw_one_refused_for_another_player"],
    "indy.visit": [T + "visit_match_and_other", T + "visit_refused_out_of_turn_phase_offer_or_unknown_stack"],
    "indy.visit-plant": [T + "visit_plant_the_card_is_set_aside_and_planted_in_phase_3",
                         T + "visit_keep_the_turned_card_is_neither_given_nor_asked_for"],
    "indy.visit-keep": [T + "visit_keep_the_turned_card_is_neither_given_nor_asked_for"],
    "indy.snake-temple": [T + "snake_temple_joins_the_snakes_no_stack"],
    "indy.snake-adventurer": [T + "snake_adventurer_empty_adventurer_just_takes_it",
                              T + "snake_adventurer_blocks_other_beans"],
    "indy.snake-wanted": [T + "snake_wanted_snake_turned_goes_back_to_the_temple",
                          T + "snake_wanted_other_temple_variety_brings_the_snakes"],
    "indy.blockade": [T + "blockade_lifts_with_enough_snakes", T + "snake_adventurer_blocks_other_beans"],
    "indy.two-visits": [T + "two_visits_second_only_after_a_success_never_a_third",
                        T + "two_visits_refused_after_a_failed_first"],
    "indy.adventurer": [T + "adventurer_one_variety_sell_first"],
    "indy.adventurer-sell": [T + "adventurer_sell_by_the_meter_any_time"],
    "indy.field-to-adventurer": [T + "field_to_adventurer_whole_field_same_variety"],
    "indy.path-card": [T + "path_card_takes_a_lone_card_without_turning_one",
                       T + "path_card_refused_without_card_or_for_a_bigger_stack"],
    "indy.buy": [T + "buy_pays_onto_the_discard_pile_face_down_and_a_third_field",
                 T + "buy_refused_without_coins_twice_or_when_the_supply_is_empty"],
    "indy.carrier": [T + "carrier_travels_at_the_back_and_is_laid_from_place_1_or_2",
                     T + "carrier_refused_from_place_3", T + "carrier_in_a_played_game_reaches_the_front_and_is_laid"],
    "indy.carrier-plant": [T + "carrier_plant_at_place_2_the_second_bean_only_after_laying_it",
                           T + "carrier_plant_at_place_1_first_bean_always_second_after_laying_place_3_unchanged"],
    "indy.carrier-load": [T + "carrier_load_after_a_success_then_unload_through_a_sale",
                          T + "carrier_load_refused_when_the_adventurer_brings_no_taler_and_after_the_path",
                          T + "carrier_back_to_the_end_of_the_hand_after_phase_4_load_discarded"],
    "indy.carrier-blocked": [T + "carrier_blocked_refused_under_a_snake_blockade_even_when_the_beans_below_are_worth_a_taler",
                             T + "carrier_blocked_allowed_once_the_snakes_lift_the_blockade"],
    "indy.end": [T + "end_adventurer_and_carrier_are_sold_in_the_final_scoring", T + "end_refuses_everything_afterwards"],
    "indy.sabohntage": [T + "sabohntage_drawn_is_laid_open_and_replaced_then_blocks_until_the_victims_turn",
                        T + "sabohntage_refused_without_the_variation_or_on_oneself",
                        T + "sabohntage_blocks_the_sale_as_the_snakes_do_until_the_victims_turn_is_over"],
    "indy.five-varieties": [T + "five_varieties_variation_fills_five_places",
                            T + "five_varieties_refused_in_the_four_place_temple"],
}
COVERAGE.update(INDIANA_COVERAGE)


@needs_shared
def test_every_section2_rule_is_in_the_catalogue() -> None:
    rows = rules_md_section2()
    assert len(rows) >= 30, "parsing RULES.md §2 found too few rule IDs"
    catalogue = rule_catalogue()
    letter_of = {f: letter for letter, f in SEED_FILES.items()}
    seeds = SHARED / "seeds"  # type: ignore[operator]
    for rule_id, sources in rows.items():
        assert rule_id in catalogue, f"{rule_id} missing from data/rules.toml"
        rule = catalogue[rule_id]
        assert rule.title.strip()
        assert rule.explanation.strip() and GERMAN.search(rule.explanation), f"{rule_id}: no German explanation"
        seed_file = rule.seed.split(",")[0].strip()
        assert seed_file in letter_of, f"{rule_id}: source {rule.seed!r} names no seed file"
        assert letter_of[seed_file] in re.findall(r"[A-Z]", sources), (
            f"{rule_id}: source {letter_of[seed_file]} is not among RULES.md's {sources}")
        section = re.search(r"„(.+)“", rule.seed)
        if section and (seeds / seed_file).is_file():
            assert section.group(1) in (seeds / seed_file).read_text("utf-8"), (
                f"{rule_id}: section {section.group(1)!r} not found in {seed_file}")


@needs_shared
def test_coverage_table_lists_every_section2_rule() -> None:
    assert set(COVERAGE) - set(INDIANA_COVERAGE) == set(rules_md_section2())


def test_every_indiana_rule_has_its_tests_listed() -> None:
    assert set(INDIANA_COVERAGE) == {r for r in rule_catalogue() if r.startswith("indy.")}


@pytest.mark.parametrize("rule_id", sorted(COVERAGE))
def test_every_rule_has_its_tests(rule_id: str) -> None:
    for ref in COVERAGE[rule_id]:
        module, func = ref.split("::")
        assert callable(getattr(importlib.import_module(module), func, None)), f"{rule_id}: {ref} missing"


def test_every_rule_id_raised_in_the_code_is_in_the_catalogue() -> None:
    raised = set()
    for path in (REPO / "bohnteach").rglob("*.py"):
        raised |= set(re.findall(r'RuleViolation\(\s*"([a-z0-9.-]+)"', path.read_text("utf-8")))
    assert {"p1.plant-front", "trade.no-retrade", "harvest.protection"} <= raised
    assert raised - set(rule_catalogue()) == set()


def test_catalogue_entries_are_complete() -> None:
    for rule in rule_catalogue().values():
        assert rule.title.strip() and rule.explanation.strip(), rule.id
        assert re.match(r"00[0-4]_[0-9a-f]{16}\.txt", rule.seed), f"{rule.id}: {rule.seed}"
        assert rule.source.split(",")[0] in SOURCE_TITLES.values(), f"{rule.id}: {rule.source}"


def test_docs_rules_md_is_up_to_date() -> None:
    """docs/rules.md is written from the data; regenerate it after changing rules.toml."""
    from bohnteach.render.rules_doc import rules_markdown

    doc = REPO / "docs" / "rules.md"
    assert doc.is_file() and doc.read_text("utf-8") == rules_markdown(), (
        "docs/rules.md is stale: python -m bohnteach.render.rules_doc docs/rules.md")
    for rule in rule_catalogue().values():
        assert f"`{rule.id}` – {rule.title}" in doc.read_text("utf-8")
