"""The two-player neutral army: its half of each reinforcement, placed by the opponent,
spread automatically or put on the mover's borders; it never draws cards and defends with
every die it may roll."""

from __future__ import annotations

import pytest

from engine import NEUTRAL, view
from engine.audit import audit
from engine.board import CONTINENTS, TERRITORIES
from engine.events import Event
from engine.evolve import evolve
from tests.engine.support import ALICE, BOB, card, given, play, position, refused, when

NO_CONTINENT = [t for _, ts in CONTINENTS.values() for t in ts[:-1]]
NEUTRALS = ["central_america", "argentina", "ukraine", "madagascar", "siam",
            "eastern_australia"]


def alice_reinforcing(owned=NO_CONTINENT[:14], hands=None, **rules):
    """Alice holds `owned`, the neutral the last territory of each continent, Bob the rest."""
    return given(position(players=2, owners={**dict.fromkeys(owned, ALICE),
                                             **dict.fromkeys(NEUTRALS, NEUTRAL)},
                          rest=BOB, hands=hands or {}, **rules))


def place_all(state, territory=NO_CONTINENT[0]):
    return when(state, ALICE, {"type": "place",
                               "placements": {territory: state.reinforcements}})


def place_neutral(**placements) -> dict:
    return {"type": "place_neutral", "placements": placements}


@pytest.mark.parametrize("owned, total, share", [
    (NO_CONTINENT[:14], 4, 2),
    (NO_CONTINENT[:21], 7, 3),
    (NO_CONTINENT[:8], 3, 1),
    (NO_CONTINENT[:15], 5, 2),
])
def test_it_gives_the_neutral_half_the_reinforcements_rounded_down(owned, total, share):
    state = alice_reinforcing(owned)
    assert state.reinforcements == total

    outcome = place_all(state)

    assert outcome.types() == ["armies_placed"]
    after = outcome.state
    assert (after.phase, after.turn_seat, after.current, after.reinforcements) == (
        "neutral_place", ALICE, BOB, share)
    assert view(after, BOB)["pending"]["reinforcements"] == share
    assert view(after, ALICE)["pending"]["reinforcements"] == 0


def test_it_lets_the_opponent_place_the_neutrals_share_after_the_player_placed():
    state = place_all(alice_reinforcing()).state

    outcome = when(state, BOB, place_neutral(siam=1, ukraine=1))

    assert outcome == [("armies_placed", {"seat": NEUTRAL, "placements": {"siam": 1, "ukraine": 1},
                                          "by": BOB})]
    assert (outcome.state.armies["siam"], outcome.state.armies["ukraine"]) == (3, 3)
    assert (outcome.state.phase, outcome.state.current) == ("attack", ALICE)


def test_it_lets_the_opponent_place_the_share_in_parts():
    state = place_all(alice_reinforcing()).state

    state = when(state, BOB, place_neutral(siam=1)).state
    assert (state.phase, state.reinforcements) == ("neutral_place", 1)
    state = when(state, BOB, place_neutral(siam=1)).state

    assert (state.phase, state.armies["siam"]) == ("attack", 4)


def test_it_refuses_more_than_the_neutrals_share():
    refused(place_all(alice_reinforcing()).state, BOB, place_neutral(siam=3), "bad_placement")


@pytest.mark.parametrize("territory", [NO_CONTINENT[0], TERRITORIES[-2]])
def test_it_places_the_neutrals_share_only_on_neutral_territories(territory):
    state = place_all(alice_reinforcing()).state
    assert state.owner[territory] != NEUTRAL

    refused(state, BOB, place_neutral(**{territory: 1}), "not_owner")


def test_it_refuses_the_reinforcing_player_placing_the_neutrals_share():
    refused(place_all(alice_reinforcing()).state, ALICE, place_neutral(siam=2), "not_your_turn")


def test_it_refuses_the_opponent_placing_own_armies_instead():
    state = place_all(alice_reinforcing()).state

    refused(state, BOB, {"type": "place", "placements": {TERRITORIES[-2]: 2}}, "not_your_turn")


@pytest.mark.parametrize("command", [
    {"type": "attack", "from": NO_CONTINENT[0], "to": "kamchatka"},
    {"type": "end_attack"},
    {"type": "end_turn"},
])
def test_it_holds_the_reinforcing_player_until_the_neutral_is_placed(command):
    refused(place_all(alice_reinforcing()).state, ALICE, command, "wrong_phase")


def test_it_refuses_a_neutral_placement_before_the_player_placed():
    refused(alice_reinforcing(), BOB, place_neutral(siam=1), "not_your_turn")


def test_it_refuses_a_neutral_placement_once_the_share_is_placed():
    state = play(place_all(alice_reinforcing()).state, (BOB, place_neutral(siam=2)))

    refused(state, ALICE, place_neutral(siam=1), "wrong_phase")
    refused(state, BOB, place_neutral(siam=1), "not_your_turn")


def test_it_counts_traded_sets_in_the_reinforcement_the_neutral_halves():
    hand = [card("alaska"), card("argentina"), card("china")]  # three infantry, not Alice's
    state = alice_reinforcing(NO_CONTINENT[1:15], hands={ALICE: hand})
    state = when(state, ALICE, {"type": "trade", "cards": hand}).state
    assert state.reinforcements == 4 + 4

    assert place_all(state, NO_CONTINENT[1]).state.reinforcements == 4


def test_it_spreads_the_neutrals_share_automatically_under_auto():
    state = alice_reinforcing(NO_CONTINENT[:21], neutral_reinforcement="auto")

    outcome = place_all(state)

    assert outcome == [
        ("armies_placed", {"seat": ALICE, "placements": {NO_CONTINENT[0]: 7}}),
        ("armies_placed", {"seat": NEUTRAL, "auto": True,
                           "placements": {"central_america": 1, "argentina": 1, "ukraine": 1}}),
    ]
    assert (outcome.state.phase, outcome.state.current) == ("attack", ALICE)


def test_it_spreads_the_share_onto_the_weakest_neutral_territories_first():
    # In Bob's turn before, the neutral's share (2) went onto Central America.
    state = given(position(players=2, owners={**dict.fromkeys(NO_CONTINENT[:21], ALICE),
                                              **dict.fromkeys(NEUTRALS, NEUTRAL)},
                           rest=BOB, seat=BOB, phase="fortify", neutral_reinforcement="auto"))
    assert [state.armies[t] for t in NEUTRALS] == [4, 2, 2, 2, 2, 2]
    state = when(state, BOB, {"type": "end_turn"}).state

    outcome = place_all(state)

    assert outcome.of("armies_placed")[1]["placements"] == {"argentina": 1, "ukraine": 1,
                                                            "madagascar": 1}


def test_it_places_the_share_on_the_movers_borders_under_borders():
    state = alice_reinforcing(NO_CONTINENT[:21], neutral_reinforcement="borders")
    neighbours = state.board.neighbours
    facing = {t for t in NEUTRALS if any(state.owner[n] == ALICE for n in neighbours[t])}

    outcome = place_all(state)

    placed = outcome.of("armies_placed")[1]
    assert placed["auto"] and sum(placed["placements"].values()) == 3
    assert set(placed["placements"]) <= facing < set(NEUTRALS)
    assert (outcome.state.phase, outcome.state.current) == ("attack", ALICE)


def test_it_gives_no_share_without_the_neutral():
    state = given(position(players=2, neutral=False))

    assert place_all(state, state.territories_of(ALICE)[0]).state.phase == "attack"


def test_it_gives_no_share_in_a_game_of_three():
    state = given(position(players=3, owners={"japan": NEUTRAL}))

    assert place_all(state, state.territories_of(ALICE)[0]).state.phase == "attack"


def test_it_gives_no_share_once_the_neutral_holds_nothing():
    state = given(position(players=2, owners=dict.fromkeys(NO_CONTINENT[:14], ALICE),
                           rest=BOB))
    assert state.territory_count(NEUTRAL) == 0

    assert place_all(state).state.phase == "attack"


def test_it_defends_the_neutral_with_two_dice():
    state = given(position(players=2, owners={"alaska": ALICE, "kamchatka": NEUTRAL},
                           armies={"alaska": 4}, phase="attack"))
    assert state.armies["kamchatka"] == 2

    outcome = when(state, ALICE, {"type": "attack", "from": "alaska", "to": "kamchatka"},
                   dice=[6, 6, 6, 6, 6])

    assert outcome.of("battle")[0]["defender_dice"] == [6, 6]


def test_it_never_gives_the_neutral_a_turn_or_a_card():
    state = given(position(players=2, owners={"alaska": ALICE, "kamchatka": NEUTRAL},
                           armies={"alaska": 8}, phase="attack", deck=[5, 6]))
    state = play(state, (ALICE, {"type": "attack", "from": "alaska", "to": "kamchatka"}),
                 (ALICE, {"type": "occupy", "armies": 3}), dice=[6, 6, 6, 1, 1])

    outcome = when(state, ALICE, {"type": "end_turn"})

    assert outcome.of("card_drawn") == [{"seat": ALICE, "card": 5}]
    assert outcome.of("turn_started")[0]["seat"] == BOB
    assert outcome.state.order == [ALICE, BOB]



def test_its_audit_takes_the_borders_placement_and_no_other():
    state = alice_reinforcing(NO_CONTINENT[:21], neutral_reinforcement="borders")
    mine, neutrals = place_all(state).events
    owed = evolve(state.copy(), mine)
    elsewhere = {t: 1 for t in NEUTRALS if t not in neutrals.data["placements"]}
    moved = Event(neutrals.seq, neutrals.type, {**neutrals.data, "placements": {
        next(iter(elsewhere)): sum(neutrals.data["placements"].values())}})

    assert audit(owed, neutrals) is None
    assert audit(owed, moved) == "is not the neutral's automatic spread"
