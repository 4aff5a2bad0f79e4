"""Secret missions: the fourteen cards, colour substitution, and winning in one's own turn."""

from __future__ import annotations

import pytest

from engine import view
from engine.board import CONTINENTS, TERRITORIES
from engine.missions import MISSIONS, describe, effective_mission, missions_in_play
from tests.engine.support import (
    ALICE,
    BOB,
    CAROL,
    ScriptedDice,
    given,
    play,
    position,
    start,
    when,
)


def continents(*names) -> list[str]:
    return [t for name in names for t in CONTINENTS[name][1]]


def alice_up_next(owned, mission, players=3, armies=None, earlier=(), out=(),
                  others_missions=None):
    """The seat before Alice ends its turn; Alice holds `owned` and has `mission`.
    Seats in `out` hold nothing (the test eliminates or drops them in `earlier`)."""
    owned = list(owned)
    living = [s for s in range(1, players) if s not in out]
    free = [t for t in TERRITORIES if t not in owned]
    owners = {**dict.fromkeys(owned, ALICE),
              **{free[i]: seat for i, seat in enumerate(living)}}
    missions = others_missions or ["occupy_24"] * players
    missions = [mission, *missions[1:players]]
    return given(position(
        players=players, owners=owners, rest=living[0], armies=armies or {},
        missions=missions, earlier=list(earlier), seat=living[-1], phase="fortify",
        objective="missions", neutral=False,
    )), living[-1]


def alice_wins(state, previous) -> bool:
    outcome = when(state, previous, {"type": "end_turn"})
    assert outcome.of("turn_started")[0]["seat"] == ALICE
    finished = outcome.of("game_finished")
    if finished:
        assert outcome.types()[-1] == "game_finished"
        assert finished == [{"winner": ALICE, "reason": "mission"}]
        assert outcome.state.finished and outcome.state.winner == ALICE
    return bool(finished)


# ---- the mission cards -------------------------------------------------------------------
def test_it_has_the_fourteen_missions():
    assert MISSIONS == (
        "north_america_africa", "north_america_australia", "asia_south_america", "asia_africa",
        "europe_south_america_plus_one", "europe_australia_plus_one", "occupy_18_with_2",
        "occupy_24", "destroy_red", "destroy_blue", "destroy_green", "destroy_yellow",
        "destroy_black", "destroy_white",
    )


@pytest.mark.parametrize("players, colours", [
    (2, ["red", "blue"]), (3, ["red", "blue", "green"]),
    (6, ["red", "blue", "green", "yellow", "black", "white"]),
])
def test_it_removes_the_cards_of_colours_not_in_play(players, colours):
    deck = missions_in_play(players)

    assert [m[8:] for m in deck if m.startswith("destroy_")] == colours
    assert len(deck) == 8 + players


def test_it_deals_each_player_one_secret_mission_when_the_game_starts():
    outcome = start(4, objective="missions", rng=ScriptedDice(shuffles=[[2, 0, 3, 1]]))

    assert outcome.types() == ["game_started", "territories_dealt", "deck_shuffled",
                               "missions_dealt"]
    missions = outcome.of("missions_dealt")[0]["missions"]
    # The mission deck unshuffled: seats take its cards in turn order.
    assert [missions[seat] for seat in [2, 0, 3, 1]] == list(missions_in_play(4)[:4])
    assert [p.mission for p in outcome.state.players] == missions


def test_it_deals_no_missions_to_two_players_with_the_neutral():
    outcome = start(2, objective="missions")

    assert "missions_dealt" not in outcome.types()
    assert [p.mission for p in outcome.state.players] == [None, None]


def test_it_deals_missions_to_two_players_without_the_neutral():
    outcome = start(2, objective="missions", neutral=False)

    assert "missions_dealt" in outcome.types()
    assert all(p.mission is not None for p in outcome.state.players)


def test_it_describes_the_missions():
    assert describe("north_america_africa") == "Conquer North America and Africa"
    assert describe("europe_australia_plus_one") == (
        "Conquer Europe and Australia and one more continent of your choice")
    assert describe("occupy_18_with_2") == "Occupy 18 territories with at least 2 armies on each"
    assert describe("occupy_24") == "Occupy 24 territories"
    assert describe("destroy_yellow") == "Destroy all armies of yellow"


# ---- each mission fulfilled ------------------------------------------------------------
@pytest.mark.parametrize("mission, owned", [
    ("north_america_africa", continents("north_america", "africa")),
    ("north_america_australia", continents("north_america", "australia")),
    ("asia_south_america", continents("asia", "south_america")),
    ("asia_africa", continents("asia", "africa")),
    ("europe_south_america_plus_one", continents("europe", "south_america", "australia")),
    ("europe_australia_plus_one", continents("europe", "australia", "africa")),
    ("occupy_24", TERRITORIES[:24]),
])
def test_it_wins_a_territorial_mission_at_the_start_of_the_owners_turn(mission, owned):
    state, previous = alice_up_next(owned, mission)

    assert alice_wins(state, previous)


@pytest.mark.parametrize("mission, owned", [
    ("north_america_africa", continents("north_america", "africa")[1:]),
    ("north_america_australia", continents("north_america")),
    ("asia_south_america", continents("asia", "south_america")[:-1]),
    ("asia_africa", continents("asia", "europe")),
    ("europe_south_america_plus_one", continents("europe", "south_america")),
    ("europe_australia_plus_one", continents("europe", "australia")),
    ("occupy_24", TERRITORIES[:23]),
])
def test_it_does_not_win_a_territorial_mission_short_of_its_goal(mission, owned):
    state, previous = alice_up_next(owned, mission)

    assert not alice_wins(state, previous)


def test_it_wins_eighteen_territories_with_two_armies_each():
    owned = TERRITORIES[:20]
    state, previous = alice_up_next(owned, "occupy_18_with_2",
                                    armies={**dict.fromkeys(owned[:18], 2),
                                            owned[18]: 1, owned[19]: 1})

    assert alice_wins(state, previous)


def test_it_does_not_count_territories_with_a_single_army_toward_eighteen():
    owned = TERRITORIES[:30]
    state, previous = alice_up_next(owned, "occupy_18_with_2",
                                    armies={**dict.fromkeys(owned, 1),
                                            **dict.fromkeys(owned[:17], 3)})

    assert not alice_wins(state, previous)


COLOURS = ["blue", "green", "yellow", "black", "white"]


@pytest.mark.parametrize("target", range(1, 6))
def test_it_wins_destroying_a_colour_the_owner_eliminated(target):
    state, previous = alice_up_next(
        ["alaska"], f"destroy_{COLOURS[target - 1]}", players=6, out=[target],
        earlier=[("player_eliminated", {"seat": target, "by": ALICE, "cards": []})])

    assert alice_wins(state, previous)


def test_it_does_not_win_destroying_a_colour_still_in_play():
    state, previous = alice_up_next(TERRITORIES[:23], "destroy_blue")

    assert not alice_wins(state, previous)


def test_it_wins_the_moment_a_conquest_completes_the_mission_in_the_owners_turn():
    owned = [t for t in continents("north_america", "africa") if t != "central_america"]
    state = given(position(
        owners={**dict.fromkeys(owned, ALICE), "central_america": BOB, "venezuela": BOB,
                "japan": CAROL},
        rest=BOB, armies={"eastern_united_states": 4, "central_america": 1},
        missions=["north_america_africa", "occupy_24", "occupy_24"], objective="missions",
        phase="attack",
    ))
    state = play(state, (ALICE, {"type": "attack", "from": "eastern_united_states",
                                 "to": "central_america"}), dice=[6, 6, 6, 1])

    outcome = when(state, ALICE, {"type": "occupy", "armies": 3})

    assert outcome.types() == ["occupied", "game_finished"]
    assert outcome.of("game_finished") == [{"winner": ALICE, "reason": "mission"}]


def test_it_wins_the_moment_placed_reinforcements_complete_the_mission():
    owned = TERRITORIES[:18]
    state = given(position(
        owners=dict.fromkeys(owned, ALICE), rest=BOB,
        armies={**dict.fromkeys(owned, 2), owned[0]: 1},
        missions=["occupy_18_with_2", "occupy_24", "occupy_24"], objective="missions",
    ))

    outcome = when(state, ALICE, {"type": "place", "placements": {owned[0]: 6}})

    assert outcome.types() == ["armies_placed", "game_finished"]


def test_it_wins_the_moment_a_fortification_completes_the_mission():
    owned = TERRITORIES[:18]  # alaska ... iceland; alaska borders northwest_territory
    state = given(position(
        owners=dict.fromkeys(owned, ALICE), rest=BOB,
        armies={**dict.fromkeys(owned, 2), "alaska": 1, "northwest_territory": 3},
        missions=["occupy_18_with_2", "occupy_24", "occupy_24"], objective="missions",
        phase="attack",
    ))

    outcome = when(state, ALICE, {"type": "fortify", "from": "northwest_territory",
                                  "to": "alaska", "armies": 1})

    assert outcome.types() == ["fortified", "game_finished"]
    assert outcome.of("game_finished") == [{"winner": ALICE, "reason": "mission"}]


# ---- colour substitution -----------------------------------------------------------------
def test_it_makes_destroying_ones_own_colour_occupy_24():
    state, previous = alice_up_next(TERRITORIES[:24], "destroy_red")

    assert effective_mission(state, ALICE) == "occupy_24"
    assert view(state, ALICE)["you"]["mission"] == {
        "id": "destroy_red", "description": "Destroy all armies of red",
        "effective": "occupy_24", "effective_description": "Occupy 24 territories",
    }
    assert alice_wins(state, previous)


def test_it_makes_a_colour_eliminated_by_someone_else_occupy_24():
    eliminated = [("player_eliminated", {"seat": BOB, "by": CAROL, "cards": []})]
    short, previous = alice_up_next(TERRITORIES[:23], "destroy_blue", out=[BOB],
                                    earlier=eliminated)
    enough, _ = alice_up_next(TERRITORIES[:24], "destroy_blue", out=[BOB], earlier=eliminated)

    assert effective_mission(short, ALICE) == "occupy_24"
    assert not alice_wins(short, previous)
    assert alice_wins(enough, previous)


def test_it_makes_a_colour_that_left_the_game_occupy_24():
    dropped = [("player_dropped", {"seat": BOB, "reason": "resigned"}, BOB)]
    state, previous = alice_up_next(TERRITORIES[:24], "destroy_blue", out=[BOB],
                                    earlier=dropped)

    assert effective_mission(state, ALICE) == "occupy_24"
    assert alice_wins(state, previous)


def test_it_keeps_the_colour_mission_while_its_target_plays():
    state, _ = alice_up_next(TERRITORIES[:24], "destroy_blue")

    assert effective_mission(state, ALICE) == "destroy_blue"


# ---- only in the owner's turn ------------------------------------------------------------
def test_it_does_not_win_a_mission_in_someone_elses_turn():
    # Alice holds 24 territories and must destroy green; Bob eliminates Carol (green),
    # which makes Alice's mission "occupy 24", fulfilled, but it is Bob's turn.
    owned = TERRITORIES[:24]
    state = given(position(
        owners={**dict.fromkeys(owned, ALICE), "japan": CAROL, "kamchatka": BOB},
        rest=BOB, armies={"kamchatka": 6, "japan": 1},
        missions=["destroy_green", "occupy_18_with_2", "occupy_24"], objective="missions",
        seat=BOB, phase="attack",
    ))
    state = play(state, (BOB, {"type": "attack", "from": "kamchatka", "to": "japan"}),
                 dice=[6, 6, 6, 1])
    assert state.players[CAROL].eliminated

    after_occupation = when(state, BOB, {"type": "occupy", "armies": 3})
    assert after_occupation.of("game_finished") == []
    assert effective_mission(after_occupation.state, ALICE) == "occupy_24"

    outcome = when(after_occupation.state, BOB, {"type": "end_turn"})

    assert outcome.types() == ["card_drawn", "turn_ended", "turn_started", "game_finished"]
    assert outcome.of("game_finished") == [{"winner": ALICE, "reason": "mission"}]


def test_it_does_not_win_a_mission_at_the_start_of_someone_elses_turn():
    state = given(position(
        owners={**dict.fromkeys(continents("north_america", "africa"), ALICE),
                "japan": CAROL},
        rest=BOB, missions=["north_america_africa", "asia_africa", "occupy_24"],
        objective="missions", seat=CAROL, phase="fortify", order=[2, 1, 0],
    ))

    outcome = when(state, CAROL, {"type": "end_turn"})

    assert outcome.of("turn_started")[0]["seat"] == BOB
    assert outcome.of("game_finished") == []


# ---- fulfilled in the owner's turn by someone else's act ---------------------------------
def test_it_wins_the_mission_when_its_target_resigns_in_the_owners_turn():
    # Alice (red) must destroy blue and holds 24 territories; Blue resigns in her attack.
    state = given(position(
        players=3, owners={**{t: ALICE for t in TERRITORIES[-24:]}, "peru": BOB},
        rest=CAROL, missions=["destroy_blue", "occupy_24", "occupy_24"], phase="attack",
        objective="missions", neutral=False,
    ))
    assert not state.finished

    outcome = when(state, BOB, {"type": "resign"})

    assert outcome.of("game_finished") == [{"winner": ALICE, "reason": "mission"}]
    assert outcome.types()[-1] == "game_finished"


def test_it_checks_the_mission_before_the_turn_passes():
    # Bob resigned during Alice's turn in a log written before the check: her end_turn must
    # still find the mission fulfilled rather than pass the turn on.
    earlier_state = given(position(
        players=3, owners={**{t: ALICE for t in TERRITORIES[-24:]}, "peru": BOB},
        rest=CAROL, missions=["destroy_blue", "occupy_24", "occupy_24"], phase="fortify",
        objective="missions", neutral=False,
    ))
    from engine import Event, evolve
    dropped = Event(earlier_state.version + 1, "player_dropped",
                    {"seat": BOB, "reason": "resigned", "cards_to": "deck"}, BOB)
    state = evolve(earlier_state, dropped)

    outcome = when(state, ALICE, {"type": "end_turn"})

    assert outcome.types() == ["game_finished"]
    assert outcome.of("game_finished") == [{"winner": ALICE, "reason": "mission"}]


def test_it_does_not_win_a_mission_in_another_players_turn_by_a_resignation():
    # Bob resigns during Carol's turn; Alice's fulfilled mission waits for her own turn.
    state = given(position(
        players=3, owners={**{t: ALICE for t in TERRITORIES[-24:]}, "peru": BOB},
        rest=CAROL, missions=["destroy_blue", "occupy_24", "occupy_24"], phase="attack",
        seat=CAROL, objective="missions", neutral=False,
    ))

    outcome = when(state, BOB, {"type": "resign"})

    assert not outcome.state.finished
