"""Rule options: the defaults of docs/players/rules.md filled in, and every bad value refused."""

from __future__ import annotations

import pytest

from engine import RuleViolation, validate_rules
from engine.options import Rules, capitals_needed
from tests import contract
from tests.engine.support import ScriptedDice, start

DEFAULTS = contract.DEFAULT_RULES

CHOICES = {
    "setup": ["deal", "claim", "random"],
    "initial_placement": ["turns", "simultaneous"],
    "card_values": ["escalating", "fixed"],
    "card_territory_bonus": ["once", "each"],
    "occupy_minimum": ["dice", "one"],
    "fortify": ["adjacent", "connected", "spread"],
    "objective": ["domination", "missions", "capitals"],
    "capitals_to_win": ["table", "all"],
    "neutral_reinforcement": ["opponent", "auto", "borders"],
    "elimination_trade_when": ["immediately", "next_reinforce"],
    "forced_trade": ["until_below_5", "one_set"],
    "traded_cards": ["discard", "bottom"],
    "card_draw": ["end_of_turn", "before_fortify"],
    "minimum_reinforcement": ["territories", "total"],
    "neutral_dice": ["max", "opponent"],
    "play_order": ["setup", "redraw"],
}


def refuses(raw, players=3) -> RuleViolation:
    with pytest.raises(RuleViolation) as refusal:
        validate_rules(raw, players)
    assert refusal.value.code == "bad_rules"
    return refusal.value


@pytest.mark.parametrize("raw", [None, {}])
def test_it_fills_in_every_default(raw):
    assert validate_rules(raw, 3).to_dict() == DEFAULTS


def test_it_records_the_rules_with_their_defaults_when_the_game_starts():
    events = start(4, card_values="fixed")

    assert events[0][1]["rules"] == dict(DEFAULTS, card_values="fixed")


@pytest.mark.parametrize("key, value", [
    (key, value) for key, values in CHOICES.items() for value in values
])
def test_it_accepts_every_named_choice(key, value):
    assert getattr(validate_rules({key: value}, 3), key) == value


@pytest.mark.parametrize("key", sorted(CHOICES))
def test_it_refuses_a_choice_it_does_not_know(key):
    assert key in str(refuses({key: "sometimes"}))


def test_it_refuses_an_unknown_option():
    assert "dice_sides" in str(refuses({"dice_sides": 8}))


def test_it_refuses_rules_that_are_not_an_object():
    refuses(["setup", "deal"])


@pytest.mark.parametrize("players", [0, 1, 7, True, "3"])
def test_it_refuses_a_player_count_outside_2_to_6(players):
    refuses({}, players)


@pytest.mark.parametrize("key", ["capital_collapse", "neutral", "continent_bonus_after_round",
                                 "cards", "capital_card_out"])
def test_it_wants_true_or_false_for_switches(key):
    assert getattr(validate_rules({key: False}, 3), key) is False
    assert getattr(validate_rules({key: True}, 3), key) is True
    refuses({key: "yes"})
    refuses({key: 1})


@pytest.mark.parametrize("key, low, high", [
    ("placement_batch", 1, 100),
    ("deadline_seconds", 10, 365 * 86400),
    ("max_missed_turns", 1, 100),
    ("round_limit", 1, 10_000),
    ("max_cards", 5, 44),
    ("elimination_trade_at", 5, 44),
])
def test_it_bounds_the_numbers(key, low, high):
    assert getattr(validate_rules({key: low}, 3), key) == low
    assert getattr(validate_rules({key: high}, 3), key) == high
    refuses({key: low - 1})
    refuses({key: high + 1})
    refuses({key: 2.5})
    refuses({key: True})


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_it_accepts_the_czech_cap_of_four_armies_a_territory(players):
    assert validate_rules({"initial_max_per_territory": 4}, players).initial_max_per_territory == 4


@pytest.mark.parametrize("players, too_small", [
    (2, 2),  # 40 armies on the 14 territories of a neutral deal need 3 a territory
    (3, 2),  # 35 on 14
    (4, 2),  # 30 on 10
    (5, 3),  # 25 on 8
    (6, 2),  # 20 on 7
])
def test_it_refuses_a_cap_the_starting_armies_cannot_fit_under(players, too_small):
    assert "initial_max_per_territory" in str(
        refuses({"initial_max_per_territory": too_small}, players))
    validate_rules({"initial_max_per_territory": too_small + 1}, players)


def test_it_lets_two_players_without_the_neutral_spread_thinner():
    assert validate_rules({"neutral": False, "initial_max_per_territory": 2}, 2)


def test_it_fills_in_fixed_values_it_is_not_given():
    rules = validate_rules({"card_values": "fixed", "fixed_values": {"mixed": 12}}, 3)

    assert rules.fixed_values == {"infantry": 4, "cavalry": 6, "artillery": 8, "mixed": 12}


def test_it_takes_the_czech_fixed_values():
    czech = {"artillery": 4, "infantry": 6, "cavalry": 8, "mixed": 10}

    assert validate_rules({"card_values": "fixed", "fixed_values": czech}, 3).fixed_values == czech


@pytest.mark.parametrize("fixed", [
    {"wild": 3}, {"infantry": 0}, {"infantry": 1001}, {"infantry": "4"}, {"mixed": True}, [4],
])
def test_it_refuses_bad_fixed_values(fixed):
    refuses({"fixed_values": fixed})


def test_it_takes_missions_with_the_two_player_neutral_which_then_go_unused():
    # docs/players/rules.md, two players: "Missions are not used; the goal is to destroy the other player."
    assert validate_rules({"objective": "missions"}, 2).objective == "missions"
    assert validate_rules({"objective": "missions", "neutral": False}, 2).objective == "missions"


@pytest.mark.parametrize("players, neutral, expected", [
    (2, True, True), (2, False, False), (3, True, False), (6, True, False),
])
def test_it_plays_the_neutral_only_with_two_players(players, neutral, expected):
    assert Rules(neutral=neutral).has_neutral(players) is expected


@pytest.mark.parametrize("players, needed", [(2, 2), (3, 2), (4, 3), (5, 3), (6, 4)])
def test_it_counts_capitals_to_win_by_the_polish_table(players, needed):
    assert capitals_needed(Rules(objective="capitals"), players) == needed


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_it_counts_every_capital_in_play_under_all(players):
    assert capitals_needed(Rules(objective="capitals", capitals_to_win="all"), players) == players


def test_it_round_trips_rules_through_a_dict():
    rules = validate_rules({"fortify": "spread", "fixed_values": {"mixed": 9}}, 4)

    assert Rules.from_dict(rules.to_dict()) == rules


def test_it_starts_a_game_with_the_rules_it_was_given():
    outcome = start(3, rng=ScriptedDice(), fortify="connected", placement_batch=5)

    assert outcome.state.rules.fortify == "connected"
    assert outcome.state.rules.placement_batch == 5


def test_the_dice_caps_are_named_once_and_the_engine_and_its_audit_read_them():
    import inspect

    from engine import audit, odds, turn
    from engine.pieces import ATTACK_DICE, DEFENCE_DICE

    assert (ATTACK_DICE, DEFENCE_DICE) == (3, 2)
    assert odds.attacker_dice(10) == ATTACK_DICE and odds.defender_dice(10) == DEFENCE_DICE
    for module in (turn, audit):
        assert "min(3" not in inspect.getsource(module) and "min(2" not in inspect.getsource(module)
