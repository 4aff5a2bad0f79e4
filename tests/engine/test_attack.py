"""Attack: dice, the battle table, who may attack what, and repeated attacks."""

from __future__ import annotations

import pytest

from engine import NEUTRAL
from engine.turn import losses
from tests.engine.support import (
    ALICE,
    BOB,
    CAROL,
    battle,
    given,
    play,
    position,
    refused,
    when,
)


def alice_attacking(source_armies, target_armies, source="alaska", target="kamchatka",
                    defender=BOB, **rules):
    return given(position(
        owners={source: ALICE, target: defender},
        armies={source: source_armies, target: target_armies},
        phase="attack", **rules,
    ))


def attack(source="alaska", target="kamchatka", **extra) -> dict:
    return {"type": "attack", "from": source, "to": target, **extra}


def fought(attacker_dice, defender_dice, attacker_losses, defender_losses, conquered=False,
           source="alaska", target="kamchatka", defender=BOB):
    return ("battle", {
        "seat": ALICE, "from": source, "to": target, "defender": defender,
        "attacker_dice": attacker_dice,
        "defender_dice": defender_dice, "attacker_losses": attacker_losses,
        "defender_losses": defender_losses, "conquered": conquered,
    })


# The rulebooks' worked examples: (attacker, defender) -> (attacker loses, defender loses).
BATTLE_TABLE = [
    ([6, 6, 6], [1, 1], (0, 2)),
    ([6, 6, 6], [6, 1], (1, 1)),
    ([6, 6, 6], [6, 6], (2, 0)),
    ([5, 5], [1], (0, 1)),
    ([5, 2], [6, 1], (1, 1)),
    ([2], [1, 1], (0, 1)),
    ([2], [3, 1], (1, 0)),
]


@pytest.mark.parametrize("attacker, defender, expected", BATTLE_TABLE)
def test_it_counts_losses_as_the_rulebooks_do(attacker, defender, expected):
    assert losses(attacker, defender) == expected


@pytest.mark.parametrize("attacker, defender, expected", BATTLE_TABLE)
def test_it_fights_the_rulebooks_battles(attacker, defender, expected):
    # Enough armies on both sides that the attacker rolls all its dice and the defender
    # rolls as many as the example (one die: a single army, which then falls).
    state = alice_attacking(len(attacker) + 1, 5 if len(defender) == 2 else 1)

    outcome = when(state, ALICE, attack(), dice=attacker + defender)

    conquered = len(defender) == 1 and expected[1] == 1
    assert outcome == [fought(attacker, defender, *expected, conquered=conquered)]
    assert outcome.state.armies["alaska"] == len(attacker) + 1 - expected[0]


def test_it_records_the_dice_unsorted_as_drawn():
    state = alice_attacking(4, 5)

    outcome = when(state, ALICE, attack(), dice=[1, 4, 3, 2, 5])

    assert outcome == [fought([1, 4, 3], [2, 5], 1, 1)]


def test_it_gives_ties_to_the_defender():
    state = alice_attacking(4, 5)

    assert when(state, ALICE, attack(), dice=[4, 3, 1, 4, 3]) == [fought([4, 3, 1], [4, 3], 2, 0)]


def test_it_compares_only_as_many_dice_as_the_smaller_roll():
    state = alice_attacking(4, 1)

    assert when(state, ALICE, attack(), dice=[1, 1, 6, 5]) == [
        fought([1, 1, 6], [5], 0, 1, conquered=True)]


@pytest.mark.parametrize("armies, rolled", [(2, 1), (3, 2), (4, 3), (30, 3)])
def test_it_rolls_as_many_dice_as_it_may_by_default(armies, rolled):
    state = alice_attacking(armies, 5)

    outcome = when(state, ALICE, attack(), dice=[1] * rolled + [6, 6])

    assert len(outcome.of("battle")[0]["attacker_dice"]) == rolled


@pytest.mark.parametrize("dice", [1, 2, 3])
def test_it_rolls_fewer_dice_when_asked(dice):
    state = alice_attacking(10, 5)

    outcome = when(state, ALICE, attack(dice=dice), dice=[1] * dice + [6, 6])

    assert len(outcome.of("battle")[0]["attacker_dice"]) == dice


@pytest.mark.parametrize("armies, dice", [(2, 2), (3, 3), (10, 4)])
def test_it_refuses_more_dice_than_armies_less_one_or_more_than_three(armies, dice):
    state = alice_attacking(armies, 5)

    refused(state, ALICE, attack(dice=dice), "bad_dice")


@pytest.mark.parametrize("dice", [0, -1])
def test_it_refuses_no_dice_or_fewer(dice):
    state = alice_attacking(10, 5)

    refused(state, ALICE, attack(dice=dice), "bad_dice")


@pytest.mark.parametrize("dice", ["3", 2.5, True])
def test_it_refuses_dice_that_are_not_a_number(dice):
    state = alice_attacking(10, 5)

    refused(state, ALICE, attack(dice=dice), "bad_command")


@pytest.mark.parametrize("armies, rolled", [(1, 1), (2, 2), (9, 2)])
def test_it_defends_with_two_dice_given_two_armies(armies, rolled):
    state = alice_attacking(4, armies)

    outcome = when(state, ALICE, attack(), dice=[1, 1, 1] + [6] * rolled)

    assert len(outcome.of("battle")[0]["defender_dice"]) == rolled


def test_it_defends_with_one_die_under_the_one_policy():
    state = alice_attacking(4, 9)
    state = when(state, BOB, {"type": "set_defense", "policy": "one"}).state

    outcome = when(state, ALICE, attack(), dice=[1, 1, 1, 6])

    assert outcome == [fought([1, 1, 1], [6], 1, 0)]


def test_it_lets_a_player_set_the_defense_policy_in_anyones_turn():
    state = alice_attacking(4, 9)

    outcome = when(state, CAROL, {"type": "set_defense", "policy": "one"})

    assert outcome == [("defense_set", {"seat": CAROL, "policy": "one"})]
    assert outcome.state.players[CAROL].defense == "one"
    assert state.players[CAROL].defense == "max"


def test_it_refuses_an_unknown_defense_policy():
    refused(alice_attacking(4, 9), BOB, {"type": "set_defense", "policy": "some"},
            "bad_command")


@pytest.mark.parametrize("source, target", [
    ("alaska", "kamchatka"), ("brazil", "north_africa"), ("greenland", "iceland"),
    ("siam", "indonesia"), ("east_africa", "middle_east"), ("southern_europe", "egypt"),
    ("western_europe", "north_africa"),
])
def test_it_attacks_across_the_sea_lanes(source, target):
    state = alice_attacking(4, 5, source, target)

    outcome = when(state, ALICE, attack(source, target), dice=[1, 1, 1, 6, 6])

    assert outcome == [fought([1, 1, 1], [6, 6], 2, 0, source=source, target=target)]


def test_it_attacks_a_neutral_territory():
    state = alice_attacking(4, 1, defender=NEUTRAL)

    outcome = when(state, ALICE, attack(), dice=[6, 6, 6, 1])

    assert outcome.of("battle")[0]["conquered"]
    assert outcome.state.owner["kamchatka"] == ALICE


def test_it_refuses_an_attack_from_a_territory_not_owned():
    state = alice_attacking(4, 5)

    refused(state, ALICE, attack("kamchatka", "alaska"), "not_owner")


def test_it_refuses_an_attack_on_an_own_territory():
    state = given(position(owners={"alaska": ALICE, "kamchatka": ALICE},
                           armies={"alaska": 4}, phase="attack"))

    refused(state, ALICE, attack(), "bad_target")


def test_it_refuses_an_attack_on_a_territory_that_does_not_border():
    state = given(position(owners={"alaska": ALICE, "japan": BOB}, armies={"alaska": 4},
                           phase="attack"))

    refused(state, ALICE, attack("alaska", "japan"), "not_adjacent")


def test_it_refuses_an_attack_from_a_single_army():
    state = alice_attacking(1, 1)

    refused(state, ALICE, attack(), "not_enough_armies")


@pytest.mark.parametrize("payload", [
    {"type": "attack", "from": "atlantis", "to": "kamchatka"},
    {"type": "attack", "from": "alaska", "to": "mu"},
])
def test_it_refuses_an_attack_on_or_from_nowhere(payload):
    refused(alice_attacking(4, 5), ALICE, payload, "unknown_territory")


@pytest.mark.parametrize("payload", [
    {"type": "attack", "to": "kamchatka"}, {"type": "attack", "from": "alaska"},
    {"type": "attack", "from": "alaska", "to": "kamchatka", "repeat": "yes"},
    {"type": "bombard", "from": "alaska", "to": "kamchatka"}, {"from": "alaska"}, ["attack"],
])
def test_it_refuses_a_malformed_attack(payload):
    refused(alice_attacking(4, 5), ALICE, payload, "bad_command")


def test_it_refuses_an_attack_out_of_turn():
    state = given(position(owners={"alaska": ALICE, "kamchatka": BOB},
                           armies={"kamchatka": 4}, phase="attack"))

    refused(state, BOB, attack("kamchatka", "alaska"), "not_your_turn")


def test_it_refuses_an_attack_after_the_attack_ended():
    state = given(position(owners={"alaska": ALICE, "kamchatka": BOB},
                           armies={"alaska": 4}, phase="fortify"))

    refused(state, ALICE, attack(), "wrong_phase")


def test_it_refuses_an_attack_before_the_conquered_territory_is_occupied():
    state = given(
        position(owners={"alaska": ALICE, "kamchatka": BOB, "alberta": CAROL},
                 armies={"alaska": 6, "kamchatka": 1}, phase="attack"),
        battle(ALICE, "alaska", "kamchatka", [6, 6, 6], [1], conquered=True, defender=BOB),
    )

    refused(state, ALICE, attack("alaska", "alberta"), "wrong_phase")


def test_it_lets_attacks_come_from_any_territories_in_any_order():
    state = given(position(
        owners={"alaska": ALICE, "kamchatka": BOB, "japan": ALICE, "mongolia": CAROL},
        armies={"alaska": 4, "japan": 4, "kamchatka": 5, "mongolia": 5}, phase="attack",
    ))

    state = play(state, (ALICE, attack()), (ALICE, attack("japan", "mongolia")),
                 (ALICE, attack("japan", "kamchatka")),
                 dice=[6, 6, 6, 1, 1] * 3)

    assert (state.armies["kamchatka"], state.armies["mongolia"]) == (1, 3)
    assert state.phase == "attack"


# ---- repeat --------------------------------------------------------------------------------
def test_it_repeats_until_the_territory_falls_recording_each_battle():
    state = alice_attacking(10, 4)

    outcome = when(state, ALICE, attack(repeat=True),
                   dice=[6, 6, 6, 1, 1] + [1, 1, 1, 6, 6] + [6, 5, 4, 3, 3])

    assert outcome == [
        fought([6, 6, 6], [1, 1], 0, 2),
        fought([1, 1, 1], [6, 6], 2, 0),
        fought([6, 5, 4], [3, 3], 0, 2, conquered=True),
    ]
    assert outcome.state.phase == "occupy"


def test_it_repeats_until_the_attacker_cannot_go_on_rolling_fewer_dice_as_it_shrinks():
    state = alice_attacking(4, 9)

    outcome = when(state, ALICE, attack(repeat=True),
                   dice=[1, 1, 1, 6, 6] + [1, 6, 6])

    assert outcome == [fought([1, 1, 1], [6, 6], 2, 0), fought([1], [6, 6], 1, 0)]
    assert outcome.state.armies["alaska"] == 1
    assert outcome.state.phase == "attack"


def test_it_repeats_with_the_dice_asked_for():
    state = alice_attacking(10, 3)

    outcome = when(state, ALICE, attack(dice=1, repeat=True), dice=[6, 1, 1] + [6, 1, 1] + [6, 1])

    assert [len(data["attacker_dice"]) for data in outcome.of("battle")] == [1, 1, 1]
    assert outcome.of("battle")[-1]["conquered"]


def test_it_attacks_once_without_repeat():
    state = alice_attacking(10, 4)

    assert len(when(state, ALICE, attack(), dice=[1, 1, 1, 6, 6])) == 1


# ---- ending the attack ---------------------------------------------------------------------
def test_it_ends_the_attack_phase():
    state = alice_attacking(4, 5)

    outcome = when(state, ALICE, {"type": "end_attack"})

    assert outcome == [("attack_ended", {"seat": ALICE})]
    assert outcome.state.phase == "fortify"


def test_it_refuses_to_end_the_attack_twice():
    state = given(position(phase="fortify"))

    refused(state, ALICE, {"type": "end_attack"}, "wrong_phase")


def test_it_refuses_to_end_someone_elses_attack():
    state = alice_attacking(4, 5)

    refused(state, BOB, {"type": "end_attack"}, "not_your_turn")
