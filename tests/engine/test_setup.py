"""Setup: turn order, deal / claim / random, initial placement in turns or all at once."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import NEUTRAL, StartGame, maps, validate_rules, view
from engine.board import STARTING_ARMIES, TERRITORIES
from engine.state import ENGINE_VERSION
from tests.engine.support import (
    ALICE,
    BOB,
    CAROL,
    SPECTATOR,
    ScriptedDice,
    play,
    refused,
    start,
    when,
)


def first_own(state, seat) -> str:
    return state.territories_of(seat)[0]


def finish_turn_placements(state):
    """Every placement turn places its whole batch on the seat's first territory."""
    while state.phase == "setup_place":
        seat = state.current
        state = play(state, (seat, {
            "type": "place", "placements": {first_own(state, seat): state.reinforcements},
        }))
    return state


def armies_of(state, seat) -> int:
    return sum(state.armies[t] for t in state.territories_of(seat))


# ---- turn order and the deal -----------------------------------------------------------
def test_it_draws_the_turn_order():
    outcome = start(3, rng=ScriptedDice(shuffles=[[2, 0, 1]]))

    assert outcome[0] == ("game_started", {
        "order": [2, 0, 1], "players": 3, "rules": outcome.state.rules.to_dict(),
        "game_id": "g1", "engine": ENGINE_VERSION,
        "map": "classic", "map_hash": maps.classic().hash,
    })
    assert outcome.state.order == [2, 0, 1]
    assert outcome.state.engine == ENGINE_VERSION


def test_it_deals_the_shuffled_territories_round_robin_from_the_first_seat():
    outcome = start(3, rng=ScriptedDice(shuffles=[[2, 0, 1], list(reversed(TERRITORIES))]))

    owners = outcome.of("territories_dealt")[0]["owners"]
    assert [owners[t] for t in reversed(TERRITORIES)][:6] == [2, 0, 1, 2, 0, 1]
    assert Counter(owners.values()) == {0: 14, 1: 14, 2: 14}
    assert all(outcome.state.armies[t] == 1 for t in TERRITORIES)


@pytest.mark.parametrize("players, order, counts", [
    (4, [3, 1, 0, 2], {3: 11, 1: 11, 0: 10, 2: 10}),
    (5, [4, 0, 1, 2, 3], {4: 9, 0: 9, 1: 8, 2: 8, 3: 8}),
    (6, [0, 1, 2, 3, 4, 5], dict.fromkeys(range(6), 7)),
])
def test_it_gives_the_first_seats_one_territory_more_when_42_does_not_divide(
        players, order, counts):
    outcome = start(players, rng=ScriptedDice(shuffles=[order]))

    assert Counter(outcome.of("territories_dealt")[0]["owners"].values()) == counts


def test_it_shuffles_the_whole_deck_with_the_wilds_after_the_deal():
    outcome = start(3)

    assert outcome.types() == ["game_started", "territories_dealt", "deck_shuffled"]
    assert sorted(outcome.of("deck_shuffled")[0]["cards"]) == list(range(44))
    assert outcome.state.deck == list(range(44))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_it_leaves_each_player_the_starting_armies_less_one_per_territory(players):
    state = start(players, neutral=False).state

    for player in state.players:
        assert player.setup_armies + state.territory_count(player.seat) == (
            STARTING_ARMIES[players])


def test_it_deals_two_players_and_the_neutral_14_each_with_28_neutral_armies():
    outcome = start(2, rng=ScriptedDice(shuffles=[[1, 0]]))
    state = outcome.state

    owners = outcome.of("territories_dealt")[0]["owners"]
    assert [owners[t] for t in TERRITORIES[:3]] == [1, 0, NEUTRAL]
    assert Counter(owners.values()) == {0: 14, 1: 14, NEUTRAL: 14}
    assert all(state.armies[t] == 2 for t in state.territories_of(NEUTRAL))
    assert sum(state.armies[t] for t in state.territories_of(NEUTRAL)) == 28
    assert [p.setup_armies for p in state.players] == [26, 26]


def test_it_deals_two_players_21_each_without_the_neutral():
    outcome = start(2, neutral=False)

    assert Counter(outcome.of("territories_dealt")[0]["owners"].values()) == {0: 21, 1: 21}


# ---- placement in turns -----------------------------------------------------------------
def test_it_places_one_army_a_turn_in_seat_order_by_default():
    state = start(3, rng=ScriptedDice(shuffles=[[1, 2, 0]])).state
    assert (state.phase, state.current, state.reinforcements) == ("setup_place", BOB, 1)
    territory = first_own(state, BOB)

    outcome = when(state, BOB, {"type": "place", "placements": {territory: 1}})

    assert outcome == [("armies_placed", {"seat": BOB, "placements": {territory: 1}})]
    assert outcome.state.armies[territory] == 2
    assert (outcome.state.current, outcome.state.reinforcements) == (CAROL, 1)


def test_it_lets_a_placement_turn_place_its_batch_in_parts():
    state = start(3, placement_batch=3).state
    a, b = state.territories_of(ALICE)[:2]

    state = when(state, ALICE, {"type": "place", "placements": {a: 2}}).state
    assert (state.current, state.reinforcements) == (ALICE, 1)
    state = when(state, ALICE, {"type": "place", "placements": {b: 1}}).state

    assert (state.current, state.reinforcements) == (BOB, 3)
    assert (state.armies[a], state.armies[b]) == (3, 2)


def test_it_refuses_more_than_the_batch():
    state = start(3, placement_batch=3).state

    refused(state, ALICE, {"type": "place", "placements": {first_own(state, ALICE): 4}},
            "bad_placement")


def test_it_refuses_a_placement_on_someone_elses_territory():
    state = start(3).state

    refused(state, ALICE, {"type": "place", "placements": {first_own(state, BOB): 1}},
            "not_owner")


def test_it_refuses_a_placement_out_of_turn():
    state = start(3).state

    refused(state, BOB, {"type": "place", "placements": {first_own(state, BOB): 1}},
            "not_your_turn")


def test_it_refuses_a_placement_on_a_territory_that_does_not_exist():
    state = start(3).state

    refused(state, ALICE, {"type": "place", "placements": {"atlantis": 1}}, "unknown_territory")


@pytest.mark.parametrize(("count", "code"), [
    (0, "bad_placement"), (-1, "bad_placement"), ("1", "bad_command"), (True, "bad_command")])
def test_it_refuses_a_placement_that_is_not_a_positive_count(count, code):
    state = start(3).state

    refused(state, ALICE, {"type": "place", "placements": {first_own(state, ALICE): count}},
            code)


def test_it_makes_the_last_batch_of_a_player_only_what_is_left():
    state = start(3, placement_batch=15).state
    for seat in (ALICE, BOB, CAROL):
        state = play(state, (seat, {"type": "place", "placements": {first_own(state, seat): 15}}))

    assert (state.current, state.reinforcements) == (ALICE, 6)


def test_it_skips_a_seat_with_nothing_left_to_place():
    # Four players: seats 0 and 1 hold 11 territories (19 armies left), 2 and 3 hold 10 (20).
    state = start(4, placement_batch=19).state
    for seat in (0, 1, 2, 3):
        state = play(state, (seat, {"type": "place", "placements": {first_own(state, seat): 19}}))

    assert (state.current, state.reinforcements) == (2, 1)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_it_starts_the_first_turn_once_every_starting_army_is_placed(players):
    state = start(players, placement_batch=100, rng=ScriptedDice(
        shuffles=[list(reversed(range(players)))])).state

    state = finish_turn_placements(state)

    first = players - 1
    assert (state.phase, state.turn, state.turn_seat) == ("reinforce", 1, first)
    for seat in range(players):
        assert armies_of(state, seat) == STARTING_ARMIES[players]
    assert state.reinforcements == max(3, state.territory_count(first) // 3)


def test_it_emits_the_first_turn_with_the_last_placement():
    state = start(2, placement_batch=26).state
    state = play(state, (ALICE, {"type": "place", "placements": {first_own(state, ALICE): 26}}))

    outcome = when(state, BOB, {"type": "place", "placements": {first_own(state, BOB): 26}})

    assert outcome.types() == ["armies_placed", "turn_started"]
    assert outcome[1] == ("turn_started", {
        "seat": ALICE, "turn": 1, "base": 4, "continents": {}, "total": 4,
    })


@pytest.mark.parametrize("command", [
    {"type": "attack", "from": "alaska", "to": "kamchatka"},
    {"type": "trade", "cards": [0, 1, 2]},
    {"type": "end_turn"},
    {"type": "end_attack"},
    {"type": "occupy", "armies": 1},
    {"type": "fortify", "from": "alaska", "to": "alberta", "armies": 1},
    {"type": "place_neutral", "placements": {"alaska": 1}},
    {"type": "claim", "territory": "alaska"},
    {"type": "choose_capital", "territory": "alaska"},
])
def test_it_refuses_turn_commands_during_setup(command):
    state = start(3).state

    refused(state, ALICE, command, "wrong_phase")


def test_it_refuses_everything_before_the_game_starts():
    refused(None, ALICE, {"type": "place", "placements": {"alaska": 1}}, "game_not_active")


def test_it_refuses_to_start_a_game_twice():
    state = start(3).state

    refused(state, None, StartGame("g1", 3, validate_rules({}, 3)), "game_not_active")


# ---- initial_max_per_territory --------------------------------------------------------
def test_it_caps_a_territory_during_setup_placement():
    state = start(3, placement_batch=5, initial_max_per_territory=4).state
    territory = first_own(state, ALICE)

    refused(state, ALICE, {"type": "place", "placements": {territory: 4}}, "bad_placement")
    state = when(state, ALICE, {"type": "place", "placements": {territory: 3}}).state
    refused(state, ALICE, {"type": "place", "placements": {territory: 1}}, "bad_placement")


def test_it_lifts_the_cap_once_the_game_is_under_way():
    state = start(3, placement_batch=100, initial_max_per_territory=4).state
    while state.phase == "setup_place":
        seat = state.current
        count = state.reinforcements
        placements = {}
        for territory in state.territories_of(seat):
            take = min(3, count)
            if take:
                placements[territory] = take
                count -= take
        state = play(state, (seat, {"type": "place", "placements": placements}))
    territory = first_own(state, ALICE)
    assert state.armies[territory] == 4

    outcome = when(state, ALICE, {"type": "place", "placements": {territory: 4}})

    assert outcome.state.armies[territory] == 8


# ---- simultaneous placement -----------------------------------------------------------
def simultaneous_start(**rules):
    return start(3, initial_placement="simultaneous", **rules).state


def test_it_lets_everyone_place_at_once():
    state = simultaneous_start()

    assert (state.phase, state.current) == ("setup_place", None)
    assert [p.setup_armies for p in state.players] == [21, 21, 21]
    assert view(state, SPECTATOR)["current_seat"] is None
    assert [view(state, seat)["pending"]["reinforcements"] for seat in range(3)] == [21] * 3


def test_it_keeps_a_submitted_placement_off_the_board_until_all_are_in():
    state = simultaneous_start()
    territory = first_own(state, BOB)

    outcome = when(state, BOB, {"type": "place", "placements": {territory: 21}})

    assert outcome == [("placement_submitted", {"seat": BOB, "placements": {territory: 21}})]
    assert outcome.state.armies[territory] == 1
    assert outcome.state.players[BOB].submitted


def test_it_reveals_every_placement_in_seat_order_when_the_last_is_in():
    state = simultaneous_start()
    moves = {seat: first_own(state, seat) for seat in (ALICE, BOB, CAROL)}
    state = play(state, (CAROL, {"type": "place", "placements": {moves[CAROL]: 21}}),
                 (ALICE, {"type": "place", "placements": {moves[ALICE]: 21}}))

    outcome = when(state, BOB, {"type": "place", "placements": {moves[BOB]: 21}})

    assert outcome.types() == ["placement_submitted", "armies_placed", "armies_placed",
                               "armies_placed", "turn_started"]
    assert [data["seat"] for data in outcome.of("armies_placed")] == [ALICE, BOB, CAROL]
    assert all(outcome.state.armies[t] == 22 for t in moves.values())
    assert (outcome.state.phase, outcome.state.turn_seat) == ("reinforce", ALICE)


def test_it_wants_the_whole_remainder_at_once():
    state = simultaneous_start()

    refused(state, ALICE, {"type": "place", "placements": {first_own(state, ALICE): 20}},
            "bad_placement")
    refused(state, ALICE, {"type": "place", "placements": {first_own(state, ALICE): 22}},
            "bad_placement")


def test_it_takes_one_placement_a_player():
    state = simultaneous_start()
    state = play(state, (ALICE, {"type": "place", "placements": {first_own(state, ALICE): 21}}))

    refused(state, ALICE, {"type": "place", "placements": {first_own(state, ALICE): 21}},
            "not_your_turn")


def test_it_caps_a_simultaneous_placement_too():
    state = simultaneous_start(initial_max_per_territory=4)
    own = state.territories_of(ALICE)
    over = {own[0]: 4, **{t: 1 for t in own[1:18]}}

    refused(state, ALICE, {"type": "place", "placements": over}, "bad_placement")
    fits = {t: 3 for t in own[:7]}
    assert when(state, ALICE, {"type": "place", "placements": fits}).types() == [
        "placement_submitted"]


def test_it_refuses_a_simultaneous_placement_on_a_foreign_territory():
    state = simultaneous_start()

    refused(state, ALICE, {"type": "place", "placements": {first_own(state, BOB): 21}},
            "not_owner")


# ---- claim -------------------------------------------------------------------------------
def test_it_starts_a_claim_game_with_an_empty_board():
    outcome = start(3, setup="claim", rng=ScriptedDice(shuffles=[[1, 2, 0]]))

    assert outcome.types() == ["game_started", "deck_shuffled"]
    assert (outcome.state.phase, outcome.state.current) == ("claim", BOB)
    assert all(outcome.state.owner[t] is None for t in TERRITORIES)


def test_it_lets_players_claim_one_territory_each_in_turn():
    state = start(3, setup="claim").state

    outcome = when(state, ALICE, {"type": "claim", "territory": "japan"})

    assert outcome == [("territory_claimed", {"seat": ALICE, "territory": "japan"})]
    assert (outcome.state.owner["japan"], outcome.state.armies["japan"]) == (ALICE, 1)
    assert outcome.state.current == BOB


def test_it_refuses_a_claim_out_of_turn():
    state = start(3, setup="claim").state

    refused(state, BOB, {"type": "claim", "territory": "japan"}, "not_your_turn")


def test_it_refuses_a_territory_already_claimed():
    state = start(3, setup="claim").state
    state = play(state, (ALICE, {"type": "claim", "territory": "japan"}))

    refused(state, BOB, {"type": "claim", "territory": "japan"}, "bad_placement")


def test_it_refuses_claiming_an_unknown_territory():
    state = start(3, setup="claim").state

    refused(state, ALICE, {"type": "claim", "territory": "atlantis"}, "unknown_territory")


def test_it_refuses_placing_armies_while_territories_are_claimed():
    state = start(3, setup="claim").state

    refused(state, ALICE, {"type": "place", "placements": {"japan": 1}}, "wrong_phase")


def test_it_places_the_starting_armies_once_all_42_are_claimed():
    state = start(3, setup="claim").state
    for i, territory in enumerate(TERRITORIES):
        state = play(state, (i % 3, {"type": "claim", "territory": territory}))

    assert (state.phase, state.current, state.reinforcements) == ("setup_place", ALICE, 1)
    assert Counter(state.owner.values()) == {0: 14, 1: 14, 2: 14}
    assert [p.setup_armies for p in state.players] == [21, 21, 21]


def test_it_deals_the_neutral_its_share_before_two_players_claim():
    outcome = start(2, setup="claim")
    state = outcome.state

    assert outcome.types() == ["game_started", "territories_dealt", "deck_shuffled"]
    assert Counter(outcome.of("territories_dealt")[0]["owners"].values()) == {NEUTRAL: 14}
    assert state.phase == "claim"
    neutral = state.territories_of(NEUTRAL)[0]
    refused(state, ALICE, {"type": "claim", "territory": neutral}, "bad_placement")
    free = state.territories_of(None)
    assert len(free) == 28
    for i, territory in enumerate(free):
        state = play(state, (i % 2, {"type": "claim", "territory": territory}))
    assert Counter(state.owner.values()) == {0: 14, 1: 14, NEUTRAL: 14}
    assert state.phase == "setup_place"


def test_it_refuses_a_claim_in_a_dealt_game():
    state = start(3).state

    refused(state, ALICE, {"type": "claim", "territory": first_own(state, ALICE)},
            "wrong_phase")


# ---- random -------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_it_sets_up_a_random_game_without_any_player_input(players):
    outcome = start(players, setup="random")
    state = outcome.state

    assert outcome.types()[-1] == "turn_started"
    placed = outcome.of("armies_placed")
    assert [data["seat"] for data in placed] == list(range(players))
    assert all(data["random"] for data in placed)
    assert state.phase == "reinforce"
    for seat in range(players):
        assert armies_of(state, seat) == STARTING_ARMIES[players]


def test_it_keeps_a_random_setup_under_the_cap():
    state = start(3, setup="random", initial_max_per_territory=4).state

    assert max(state.armies.values()) == 4
    assert armies_of(state, ALICE) == 35


def test_it_places_random_armies_where_the_draws_say():
    # Alice holds TERRITORIES[0], [3], [6] ... (identity shuffles); picks index her territories.
    rng = ScriptedDice(picks=[1] * 21)
    state = start(3, setup="random", rng=rng).state

    assert state.armies[TERRITORIES[3]] == 22
