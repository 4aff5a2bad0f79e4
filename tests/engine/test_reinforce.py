"""Reinforce: territories // 3 (at least 3) plus continents, placed anywhere before attacking."""

from __future__ import annotations

import pytest

from engine.board import CONTINENTS, TERRITORIES
from tests.engine.support import ALICE, BOB, CAROL, given, position, refused, when

# Every territory but the last of each continent: any prefix completes no continent.
NO_CONTINENT = [t for _, ts in CONTINENTS.values() for t in ts[:-1]]


def alice_next(owned, players=2) -> object:
    """Bob ends his turn; Alice holds `owned` and Bob everything else."""
    return given(position(
        players=players, neutral=False, owners=dict.fromkeys(owned, ALICE), rest=BOB,
        seat=BOB, phase="attack",
    ))


def turn_started(outcome) -> dict:
    return outcome.of("turn_started")[0]


@pytest.mark.parametrize("territories, base", [(11, 3), (22, 7), (17, 5), (4, 3), (1, 3),
                                               (12, 4), (36, 12)])
def test_it_reinforces_territories_divided_by_three_and_at_least_three(territories, base):
    state = alice_next(NO_CONTINENT[:territories])

    outcome = when(state, BOB, {"type": "end_turn"})

    assert outcome == [
        ("turn_ended", {"seat": BOB}),
        ("turn_started", {"seat": ALICE, "turn": 2, "base": base, "continents": {},
                          "total": base}),
    ]
    assert (outcome.state.phase, outcome.state.reinforcements) == ("reinforce", base)


@pytest.mark.parametrize("continent, bonus", [
    ("asia", 7), ("north_america", 5), ("europe", 5), ("africa", 3), ("south_america", 2),
    ("australia", 2),
])
def test_it_adds_the_bonus_of_a_continent_held_whole(continent, bonus):
    state = alice_next(CONTINENTS[continent][1])

    data = turn_started(when(state, BOB, {"type": "end_turn"}))

    base = max(3, len(CONTINENTS[continent][1]) // 3)
    assert (data["base"], data["continents"], data["total"]) == (
        base, {continent: bonus}, base + bonus)


def test_it_adds_every_continent_held():
    owned = [*CONTINENTS["asia"][1], *CONTINENTS["south_america"][1]]
    state = alice_next(owned)

    data = turn_started(when(state, BOB, {"type": "end_turn"}))

    assert data == {"seat": ALICE, "turn": 2, "base": 5,
                    "continents": {"asia": 7, "south_america": 2}, "total": 14}


def test_it_gives_no_bonus_for_a_continent_short_of_one_territory():
    state = alice_next(CONTINENTS["australia"][1][:3] + CONTINENTS["africa"][1][:5])

    assert turn_started(when(state, BOB, {"type": "end_turn"}))["continents"] == {}


def test_it_gives_a_nearly_complete_world_its_due():
    state = alice_next([t for t in TERRITORIES if t != "japan"])

    data = turn_started(when(state, BOB, {"type": "end_turn"}))

    assert data["base"] == 13
    assert data["continents"] == {"north_america": 5, "south_america": 2, "europe": 5,
                                  "africa": 3, "australia": 2}
    assert data["total"] == 30


# ---- placing -----------------------------------------------------------------------------
def alice_reinforcing():
    """Alice holds North America (3 + 5 = 8 to place), Bob and Carol the rest."""
    return given(position(
        owners={**dict.fromkeys(CONTINENTS["north_america"][1], ALICE), "japan": CAROL},
        rest=BOB,
    ))


def test_it_owes_the_continent_bonus_in_the_turn():
    state = alice_reinforcing()

    assert (state.phase, state.turn_seat, state.reinforcements) == ("reinforce", ALICE, 8)


def test_it_lets_reinforcements_be_split_over_any_own_territories():
    state = alice_reinforcing()

    outcome = when(state, ALICE, {"type": "place",
                                  "placements": {"alaska": 1, "quebec": 2, "ontario": 5}})

    assert outcome == [("armies_placed", {
        "seat": ALICE, "placements": {"alaska": 1, "quebec": 2, "ontario": 5}})]
    assert outcome.state.phase == "attack"
    assert outcome.state.armies["ontario"] == state.armies["ontario"] + 5


def test_it_puts_no_cap_on_a_territory():
    state = alice_reinforcing()

    outcome = when(state, ALICE, {"type": "place", "placements": {"alaska": 8}})

    assert outcome.state.armies["alaska"] == state.armies["alaska"] + 8


def test_it_lets_reinforcements_be_placed_in_several_goes():
    state = alice_reinforcing()

    state = when(state, ALICE, {"type": "place", "placements": {"alaska": 3}}).state
    assert (state.phase, state.reinforcements) == ("reinforce", 5)
    state = when(state, ALICE, {"type": "place", "placements": {"quebec": 5}}).state

    assert (state.phase, state.reinforcements) == ("attack", 0)


def test_it_refuses_more_than_owed():
    state = alice_reinforcing()

    refused(state, ALICE, {"type": "place", "placements": {"alaska": 5, "quebec": 4}},
            "bad_placement")


def test_it_refuses_a_placement_on_a_territory_not_owned():
    state = alice_reinforcing()

    refused(state, ALICE, {"type": "place", "placements": {"alaska": 1, "japan": 1}},
            "not_owner")


def test_it_refuses_an_unknown_territory():
    state = alice_reinforcing()

    refused(state, ALICE, {"type": "place", "placements": {"atlantis": 1}},
            "unknown_territory")


@pytest.mark.parametrize(("payload", "code"), [
    ({"type": "place"}, "bad_command"),
    ({"type": "place", "placements": ["alaska"]}, "bad_command"),
    ({"type": "place", "placements": {"alaska": "2"}}, "bad_command"),
    ({"type": "place", "placements": {}}, "bad_placement"),
    ({"type": "place", "placements": {"alaska": 0}}, "bad_placement"),
])
def test_it_refuses_a_malformed_placement(payload, code):
    refused(alice_reinforcing(), ALICE, payload, code)


def test_it_refuses_a_placement_in_someone_elses_turn():
    state = alice_reinforcing()

    refused(state, CAROL, {"type": "place", "placements": {"japan": 1}}, "not_your_turn")


@pytest.mark.parametrize("command", [
    {"type": "attack", "from": "alaska", "to": "kamchatka"},
    {"type": "end_attack"},
    {"type": "fortify", "from": "alaska", "to": "alberta", "armies": 1},
    {"type": "end_turn"},
])
def test_it_wants_every_reinforcement_placed_before_going_on(command):
    state = alice_reinforcing()
    state = when(state, ALICE, {"type": "place", "placements": {"alaska": 7}}).state

    refused(state, ALICE, command, "reinforcements_left")


def test_it_refuses_a_placement_once_the_attack_began():
    state = given(position(phase="attack", owners={"alaska": ALICE}))

    refused(state, ALICE, {"type": "place", "placements": {"alaska": 1}}, "wrong_phase")
