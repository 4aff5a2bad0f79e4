"""Fortify: one move to a neighbour (adjacent), along own territories (connected), or to
several neighbours (spread); at least one army stays; then the turn passes."""

from __future__ import annotations

import pytest

from engine import NEUTRAL
from tests.engine.support import ALICE, BOB, given, position, refused, when

# Alice holds a chain alaska - alberta - ontario - quebec; Bob the rest of North America.
CHAIN = {"alaska": ALICE, "alberta": ALICE, "ontario": ALICE, "quebec": ALICE,
         "northwest_territory": BOB, "greenland": BOB, "western_united_states": BOB,
         "eastern_united_states": BOB, "central_america": BOB, "kamchatka": BOB}


def alice_fortifying(phase="attack", owners=None, armies=None, **rules):
    return given(position(owners={**CHAIN, **(owners or {})},
                          armies={"alaska": 6, **(armies or {})}, phase=phase, **rules))


def fortify(source, target, armies) -> dict:
    return {"type": "fortify", "from": source, "to": target, "armies": armies}


def spread(source, **moves) -> dict:
    return {"type": "fortify", "from": source,
            "moves": [{"to": to, "armies": armies} for to, armies in moves.items()]}


@pytest.mark.parametrize("phase", ["attack", "fortify"])
def test_it_moves_armies_to_an_adjacent_own_territory_and_ends_the_turn(phase):
    state = alice_fortifying(phase)

    outcome = when(state, ALICE, fortify("alaska", "alberta", 3))

    assert outcome.types() == ["fortified", "turn_ended", "turn_started"]
    assert outcome[0] == ("fortified", {"from": "alaska", "to": "alberta", "armies": 3})
    assert outcome[1] == ("turn_ended", {"seat": ALICE})
    assert outcome.of("turn_started")[0]["seat"] == BOB
    assert (outcome.state.armies["alaska"], outcome.state.armies["alberta"]) == (
        3, state.armies["alberta"] + 3)


def test_it_lets_all_but_one_army_move():
    outcome = when(alice_fortifying(), ALICE, fortify("alaska", "alberta", 5))

    assert outcome.state.armies["alaska"] == 1


def test_it_leaves_at_least_one_army_behind():
    refused(alice_fortifying(), ALICE, fortify("alaska", "alberta", 6), "not_enough_armies")


def test_it_refuses_a_fortification_from_a_single_army():
    state = alice_fortifying(armies={"alaska": 1, "alberta": 3})

    refused(state, ALICE, fortify("alaska", "alberta", 1), "not_enough_armies")


def test_it_refuses_a_move_beyond_the_neighbours():
    refused(alice_fortifying(), ALICE, fortify("alaska", "ontario", 1), "not_adjacent")


@pytest.mark.parametrize("source, target", [
    ("alaska", "kamchatka"),  # an enemy's
    ("kamchatka", "alaska"),  # from an enemy's
    ("alaska", "alaska"),     # to itself
])
def test_it_moves_only_between_two_own_territories(source, target):
    state = alice_fortifying(armies={"kamchatka": 4})

    refused(state, ALICE, fortify(source, target, 1), "not_owner")


def test_it_refuses_a_fortification_into_neutral_territory():
    state = alice_fortifying(owners={"alberta": NEUTRAL})

    refused(state, ALICE, fortify("alaska", "alberta", 1), "not_owner")


@pytest.mark.parametrize("payload, code", [
    (fortify("alaska", "alberta", 0), "bad_command"),
    (fortify("alaska", "alberta", "2"), "bad_command"),
    ({"type": "fortify", "from": "alaska", "to": "alberta"}, "bad_command"),
    (fortify("alaska", "atlantis", 1), "unknown_territory"),
    ({"type": "fortify", "from": "alaska", "moves": []}, "bad_command"),
    ({"type": "fortify", "from": "alaska", "moves": ["alberta"]}, "bad_command"),
])
def test_it_refuses_a_malformed_fortification(payload, code):
    refused(alice_fortifying(), ALICE, payload, code)


def test_it_refuses_a_fortification_out_of_turn():
    state = alice_fortifying(armies={"northwest_territory": 4})

    refused(state, BOB, fortify("northwest_territory", "greenland", 1), "not_your_turn")


def test_it_allows_a_single_fortification_a_turn():
    state = when(alice_fortifying(), ALICE, fortify("alaska", "alberta", 1)).state

    refused(state, ALICE, fortify("alaska", "alberta", 1), "not_your_turn")


def test_it_moves_one_territory_under_adjacent_even_when_asked_for_more():
    refused(alice_fortifying(), ALICE, spread("alaska", alberta=1, northwest_territory=1),
            "bad_command")


def test_it_accepts_a_single_move_written_as_moves():
    outcome = when(alice_fortifying(), ALICE, spread("alaska", alberta=2))

    assert outcome[0] == ("fortified", {"from": "alaska", "to": "alberta", "armies": 2})


def test_it_ends_the_turn_without_fortifying():
    outcome = when(alice_fortifying("fortify"), ALICE, {"type": "end_turn"})

    assert outcome.types() == ["turn_ended", "turn_started"]
    assert outcome.state.turn_seat == BOB


# ---- connected ---------------------------------------------------------------------------
def test_it_moves_along_a_chain_of_own_territories_under_connected():
    state = alice_fortifying(fortify="connected")

    outcome = when(state, ALICE, fortify("alaska", "quebec", 4))

    assert outcome[0] == ("fortified", {"from": "alaska", "to": "quebec", "armies": 4})
    assert outcome.state.armies["quebec"] == state.armies["quebec"] + 4


def test_it_still_moves_to_a_neighbour_under_connected():
    outcome = when(alice_fortifying(fortify="connected"), ALICE, fortify("alaska", "alberta", 1))

    assert outcome.types()[0] == "fortified"


@pytest.mark.parametrize("breaker", [BOB, NEUTRAL])
def test_it_refuses_a_chain_broken_by_someone_elses_territory(breaker):
    state = alice_fortifying(owners={"ontario": breaker}, fortify="connected")

    refused(state, ALICE, fortify("alaska", "quebec", 1), "not_adjacent")


def test_it_still_leaves_one_army_under_connected():
    refused(alice_fortifying(fortify="connected"), ALICE, fortify("alaska", "quebec", 6),
            "not_enough_armies")


def test_it_makes_one_move_only_under_connected():
    refused(alice_fortifying(fortify="connected"), ALICE,
            spread("alaska", alberta=1, quebec=1), "bad_command")


# ---- spread ------------------------------------------------------------------------------
SPREAD_OWNERS = {"northwest_territory": ALICE}


def test_it_spreads_to_several_adjacent_own_territories_under_spread():
    state = alice_fortifying(owners=SPREAD_OWNERS, fortify="spread")

    outcome = when(state, ALICE, spread("alaska", alberta=2, northwest_territory=3))

    assert outcome.types() == ["fortified", "fortified", "turn_ended", "turn_started"]
    assert outcome.of("fortified") == [
        {"from": "alaska", "to": "alberta", "armies": 2},
        {"from": "alaska", "to": "northwest_territory", "armies": 3},
    ]
    assert outcome.state.armies["alaska"] == 1


def test_it_leaves_one_army_behind_over_all_the_spread_moves():
    state = alice_fortifying(owners=SPREAD_OWNERS, fortify="spread")

    refused(state, ALICE, spread("alaska", alberta=3, northwest_territory=3), "not_enough_armies")


def test_it_spreads_only_to_neighbours():
    state = alice_fortifying(owners=SPREAD_OWNERS, fortify="spread")

    refused(state, ALICE, spread("alaska", alberta=1, ontario=1), "not_adjacent")


def test_it_spreads_only_to_own_territories():
    state = alice_fortifying(owners=SPREAD_OWNERS, fortify="spread")

    refused(state, ALICE, spread("alaska", alberta=1, kamchatka=1), "not_owner")


def test_it_refuses_the_same_territory_twice_in_a_spread():
    state = alice_fortifying(owners=SPREAD_OWNERS, fortify="spread")
    payload = {"type": "fortify", "from": "alaska",
               "moves": [{"to": "alberta", "armies": 1}, {"to": "alberta", "armies": 1}]}

    refused(state, ALICE, payload, "bad_command")


def test_it_takes_the_classic_single_move_under_spread():
    state = alice_fortifying(owners=SPREAD_OWNERS, fortify="spread")

    outcome = when(state, ALICE, fortify("alaska", "alberta", 5))

    assert outcome.of("fortified") == [{"from": "alaska", "to": "alberta", "armies": 5}]
