"""Occupation after a conquest: at least the dice of the last battle (or one), at most all
but one army of the source."""

from __future__ import annotations

import pytest

from tests.engine.support import ALICE, BOB, CAROL, given, position, refused, when

WON_WITH_TWO_DICE = [6, 5, 1]  # two attacker dice against a lone defender's one


def conquered_with_two_dice(**rules):
    """Alice attacks with 5 armies and 2 dice, and wins Kamchatka."""
    state = given(position(
        owners={"alaska": ALICE, "kamchatka": BOB, "alberta": CAROL},
        armies={"alaska": 5, "kamchatka": 1}, phase="attack", **rules,
    ))
    outcome = when(state, ALICE, {"type": "attack", "from": "alaska", "to": "kamchatka",
                                  "dice": 2}, dice=WON_WITH_TWO_DICE)
    assert outcome.of("battle")[0]["conquered"]
    return outcome.state


def occupy(armies) -> dict:
    return {"type": "occupy", "armies": armies}


def test_it_takes_the_territory_and_waits_for_the_occupation():
    state = conquered_with_two_dice()

    assert state.phase == "occupy"
    assert (state.owner["kamchatka"], state.armies["kamchatka"]) == (ALICE, 0)
    assert state.occupation.source == "alaska"
    assert state.occupation.minimum == 2


@pytest.mark.parametrize("armies", [2, 3, 4])
def test_it_lets_five_armies_that_won_with_two_dice_move_two_to_four(armies):
    state = conquered_with_two_dice()

    outcome = when(state, ALICE, occupy(armies))

    assert outcome == [("occupied", {"from": "alaska", "to": "kamchatka", "armies": armies})]
    assert (outcome.state.armies["alaska"], outcome.state.armies["kamchatka"]) == (
        5 - armies, armies)
    assert outcome.state.phase == "attack"
    assert outcome.state.occupation is None


def test_it_refuses_to_move_all_five():
    refused(conquered_with_two_dice(), ALICE, occupy(5), "not_enough_armies")


def test_it_refuses_to_move_fewer_than_the_dice_rolled():
    refused(conquered_with_two_dice(), ALICE, occupy(1), "not_enough_armies")


def test_it_allows_one_army_under_occupy_minimum_one():
    state = conquered_with_two_dice(occupy_minimum="one")
    assert state.occupation.minimum == 1

    outcome = when(state, ALICE, occupy(1))

    assert (outcome.state.armies["alaska"], outcome.state.armies["kamchatka"]) == (4, 1)


def test_it_still_caps_the_move_under_occupy_minimum_one():
    refused(conquered_with_two_dice(occupy_minimum="one"), ALICE, occupy(5),
            "not_enough_armies")


def test_it_counts_the_dice_of_the_last_battle_of_a_repeated_attack():
    state = given(position(owners={"alaska": ALICE, "kamchatka": BOB},
                           armies={"alaska": 5, "kamchatka": 3}, phase="attack"))

    # Three dice lose two armies; the two battles after are rolled with two dice.
    outcome = when(state, ALICE, {"type": "attack", "from": "alaska", "to": "kamchatka",
                                  "repeat": True},
                   dice=[1, 1, 1, 6, 6] + [6, 6, 1, 1] + [6, 6, 1])

    assert [len(data["attacker_dice"]) for data in outcome.of("battle")] == [3, 2, 2]
    assert outcome.state.occupation.minimum == 2
    refused(outcome.state, ALICE, occupy(3), "not_enough_armies")
    assert when(outcome.state, ALICE, occupy(2)).state.armies["kamchatka"] == 2


@pytest.mark.parametrize("armies", [0, -2, "2", None])
def test_it_refuses_a_count_that_is_not_a_positive_number(armies):
    refused(conquered_with_two_dice(), ALICE, occupy(armies), "bad_command")


def test_it_refuses_an_occupation_when_nothing_was_conquered():
    state = given(position(owners={"alaska": ALICE}, armies={"alaska": 5}, phase="attack"))

    refused(state, ALICE, occupy(2), "wrong_phase")


def test_it_refuses_an_occupation_by_someone_else():
    refused(conquered_with_two_dice(), BOB, occupy(2), "not_your_turn")


@pytest.mark.parametrize("command", [
    {"type": "attack", "from": "alaska", "to": "alberta"},
    {"type": "end_attack"},
    {"type": "end_turn"},
    {"type": "fortify", "from": "alaska", "to": "kamchatka", "armies": 1},
    {"type": "place", "placements": {"alaska": 1}},
    {"type": "trade", "cards": [0, 1, 2]},
])
def test_it_wants_the_occupation_before_anything_else(command):
    refused(conquered_with_two_dice(), ALICE, command, "wrong_phase")
