"""Eliminating a player: their cards (never their mission) go to the conqueror, who trades
down at once with six or more; the last player standing wins."""

from __future__ import annotations

import pytest

from engine import NEUTRAL
from tests.engine.support import (
    ALICE,
    BOB,
    CAROL,
    card,
    given,
    play,
    position,
    refused,
    when,
)

ATTACK = {"type": "attack", "from": "alaska", "to": "kamchatka"}
WIN = [6, 6, 6, 1]  # three dice against Bob's last army

# Alice's and Bob's hands; none of these cards shows a territory either of them holds.
ALICE_FOUR = [card("peru"), card("brazil"), card("venezuela"), card("argentina")]
BOB_TWO = [card("iceland"), card("ukraine")]


def bob_on_his_last_territory(alice_hand=(), bob_hand=(), players=3, **rules):
    """Bob holds Kamchatka alone; Carol (or, with two players, Alice and the neutral) the rest."""
    if players == 2:
        others = dict.fromkeys(["indonesia", "new_guinea", "siam"], NEUTRAL)
        rest = ALICE
    else:
        others = dict.fromkeys(["peru", "brazil", "venezuela", "argentina", "iceland",
                                "ukraine", "ural"], CAROL)
        rest = CAROL
    if not rules.get("neutral", True) and players == 2:
        others = {}
    return given(position(
        players=players, owners={"alaska": ALICE, "kamchatka": BOB, **others}, rest=rest,
        armies={"alaska": 10, "kamchatka": 1},
        hands={ALICE: list(alice_hand), BOB: list(bob_hand)}, phase="attack", **rules,
    ))


def test_it_eliminates_a_player_who_loses_the_last_territory_and_hands_over_the_cards():
    state = bob_on_his_last_territory(alice_hand=ALICE_FOUR[:1], bob_hand=BOB_TWO)

    outcome = when(state, ALICE, ATTACK, dice=WIN)

    assert outcome.types() == ["battle", "player_eliminated"]
    assert outcome[1] == ("player_eliminated", {"seat": BOB, "by": ALICE, "cards": BOB_TWO})
    after = outcome.state
    assert after.players[BOB].eliminated and after.players[BOB].out
    assert after.players[BOB].cards == []
    assert after.players[ALICE].cards == ALICE_FOUR[:1] + BOB_TWO
    assert after.phase == "occupy"


def test_it_never_hands_over_the_mission():
    missions = ["occupy_24", "north_america_africa", "asia_africa"]
    state = bob_on_his_last_territory(missions=missions, objective="missions")

    after = when(state, ALICE, ATTACK, dice=WIN).state

    assert [p.mission for p in after.players] == missions


def test_it_lets_the_conqueror_go_on_with_five_cards():
    state = bob_on_his_last_territory(alice_hand=ALICE_FOUR[:3], bob_hand=BOB_TWO)
    state = play(state, (ALICE, ATTACK), dice=WIN)

    outcome = when(state, ALICE, {"type": "occupy", "armies": 3})

    assert outcome.state.phase == "attack"
    assert len(outcome.state.players[ALICE].cards) == 5


def six_cards_after_elimination():
    state = bob_on_his_last_territory(alice_hand=ALICE_FOUR, bob_hand=BOB_TWO)
    state = play(state, (ALICE, ATTACK), dice=WIN)
    return when(state, ALICE, {"type": "occupy", "armies": 3}).state


def test_it_sends_the_conqueror_of_six_cards_back_to_trading():
    state = six_cards_after_elimination()

    assert (state.phase, state.turn_seat, state.reinforcements) == ("reinforce", ALICE, 0)
    assert len(state.players[ALICE].cards) == 6


@pytest.mark.parametrize("command", [
    ATTACK | {"from": "kamchatka", "to": "japan"},
    {"type": "place", "placements": {"alaska": 1}},
    {"type": "end_attack"},
    {"type": "end_turn"},
    {"type": "fortify", "from": "alaska", "to": "kamchatka", "armies": 1},
])
def test_it_refuses_anything_but_a_trade_with_six_cards(command):
    refused(six_cards_after_elimination(), ALICE, command, "must_trade")


def test_it_wants_the_traded_armies_placed_before_attacking_again():
    state = six_cards_after_elimination()
    trio = [card("peru"), card("venezuela"), card("argentina")]  # three infantry

    state = when(state, ALICE, {"type": "trade", "cards": trio}).state
    assert (state.phase, state.reinforcements) == ("reinforce", 4)
    refused(state, ALICE, {"type": "attack", "from": "kamchatka", "to": "japan"},
            "reinforcements_left")
    outcome = when(state, ALICE, {"type": "place", "placements": {"kamchatka": 4}})

    assert outcome == [("armies_placed", {"seat": ALICE, "placements": {"kamchatka": 4}})]
    assert outcome.state.phase == "attack"
    assert outcome.state.armies["kamchatka"] == 7


def test_it_trades_down_until_four_or_fewer_remain():
    nine = ALICE_FOUR + [card("congo"), card("egypt"), card("east_africa")] + BOB_TWO
    state = bob_on_his_last_territory(alice_hand=nine[:4], bob_hand=nine[4:])
    state = play(state, (ALICE, ATTACK), (ALICE, {"type": "occupy", "armies": 3}), dice=WIN)
    assert len(state.players[ALICE].cards) == 9

    state = when(state, ALICE, {"type": "trade", "cards": nine[4:7]}).state
    refused(state, ALICE, {"type": "place", "placements": {"kamchatka": 1}}, "must_trade")
    state = when(state, ALICE, {"type": "trade", "cards": [card("peru"), card("venezuela"),
                                                          card("argentina")]}).state

    assert len(state.players[ALICE].cards) == 3
    assert state.reinforcements == 4 + 6
    assert when(state, ALICE, {"type": "place", "placements": {"alaska": 10}}).state.phase == (
        "attack")


def test_it_stops_the_trade_down_at_four():
    seven = ALICE_FOUR + [card("scandinavia"), card("ukraine"), card("ural")]  # + 3 cavalry
    state = bob_on_his_last_territory(alice_hand=seven[:4], bob_hand=seven[4:])
    state = play(state, (ALICE, ATTACK), (ALICE, {"type": "occupy", "armies": 3}), dice=WIN)

    state = when(state, ALICE, {"type": "trade", "cards": seven[4:]}).state
    state = when(state, ALICE, {"type": "place", "placements": {"alaska": 4}}).state

    assert state.phase == "attack"
    assert len(state.players[ALICE].cards) == 4


@pytest.mark.parametrize("rules", [{"neutral": False}, {"neutral": True}])
def test_it_ends_the_game_when_the_last_opponent_falls(rules):
    state = bob_on_his_last_territory(players=2, **rules)

    outcome = when(state, ALICE, ATTACK, dice=WIN)

    assert outcome == [
        ("battle", {"seat": ALICE, "from": "alaska", "to": "kamchatka", "defender": BOB,
                    "attacker_dice": [6, 6, 6], "defender_dice": [1], "attacker_losses": 0,
                    "defender_losses": 1, "conquered": True}),
        ("player_eliminated", {"seat": BOB, "by": ALICE, "cards": []}),
        ("occupied", {"from": "alaska", "to": "kamchatka", "armies": 3}),
        ("game_finished", {"winner": ALICE, "reason": "domination"}),
    ]
    assert outcome.state.finished and outcome.state.winner == ALICE


def test_it_wins_by_domination_with_neutral_territories_left_on_the_board():
    state = bob_on_his_last_territory(players=2)
    assert state.territory_count(NEUTRAL) > 0

    outcome = when(state, ALICE, ATTACK, dice=WIN)

    assert outcome.of("game_finished") == [{"winner": ALICE, "reason": "domination"}]


def test_it_refuses_an_eliminated_player():
    state = play(bob_on_his_last_territory(), (ALICE, ATTACK), dice=WIN)

    refused(state, BOB, {"type": "set_defense", "policy": "one"}, "not_your_turn")
    refused(state, BOB, {"type": "resign"}, "not_your_turn")


def test_it_refuses_a_trade_down_past_four_cards():
    infantry = [card("peru"), card("venezuela"), card("argentina")]
    cavalry = [card("scandinavia"), card("ukraine"), card("ural")]
    state = bob_on_his_last_territory(alice_hand=infantry + cavalry[:1], bob_hand=cavalry[1:])
    state = play(state, (ALICE, ATTACK), (ALICE, {"type": "occupy", "armies": 3}), dice=WIN)
    state = when(state, ALICE, {"type": "trade", "cards": infantry}).state
    assert sorted(state.players[ALICE].cards) == sorted(cavalry)
    sets_traded = state.sets_traded

    refused(state, ALICE, {"type": "trade", "cards": cavalry}, "wrong_phase")

    assert state.sets_traded == sets_traded
    assert when(state, ALICE, {"type": "place", "placements": {"alaska": 4}}).state.phase == (
        "attack")
