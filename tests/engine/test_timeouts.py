"""Time (docs/players/rules.md): a missed deadline completes the owed decision the simplest legal way and
counts a miss; too many misses in a row, or resigning, drops the player to neutral."""

from __future__ import annotations

import pytest

from engine import NEUTRAL, Event, TimeOut, replay
from engine.board import TERRITORIES
from tests.engine.support import (
    ALICE,
    BOB,
    CAROL,
    card,
    given,
    play,
    position,
    refused,
    start,
    timeout,
    when,
)


def missed(seat, count=1) -> tuple:
    return ("turn_timed_out", {"seat": seat, "missed": count})


# ---- setup decisions ---------------------------------------------------------------------
def test_it_claims_a_random_territory_for_a_player_who_missed_the_claim():
    state = start(3, setup="claim").state

    outcome = timeout(state, picks=[5])

    assert outcome == [missed(ALICE), ("territory_claimed", {
        "seat": ALICE, "territory": TERRITORIES[5], "random": True})]
    assert outcome.state.current == BOB
    assert outcome.state.players[ALICE].missed_turns == 1


def test_it_places_a_missed_placement_turns_batch_at_random():
    state = start(3, placement_batch=3).state
    own = state.territories_of(ALICE)

    outcome = timeout(state, picks=[0, 1, 1])

    assert outcome == [missed(ALICE), ("armies_placed", {
        "seat": ALICE, "random": True, "placements": {own[0]: 1, own[1]: 2}})]
    assert (outcome.state.current, outcome.state.reinforcements) == (BOB, 3)


def test_it_keeps_random_setup_placements_under_the_cap():
    state = start(3, placement_batch=5, initial_max_per_territory=4).state
    own = state.territories_of(ALICE)

    outcome = timeout(state, picks=[0] * 5)

    assert outcome.of("armies_placed")[0]["placements"] == {own[0]: 3, own[1]: 2}


def test_it_places_the_missing_simultaneous_placements_at_random_and_reveals_them_all():
    state = start(3, initial_placement="simultaneous").state
    bobs = state.territories_of(BOB)[0]
    state = play(state, (BOB, {"type": "place", "placements": {bobs: 21}}))

    outcome = timeout(state)

    assert outcome.types() == ["turn_timed_out", "armies_placed", "turn_timed_out",
                               "armies_placed", "armies_placed", "turn_started"]
    assert [outcome[0], outcome[2]] == [missed(ALICE), missed(CAROL)]
    assert outcome[4] == ("armies_placed", {"seat": BOB, "placements": {bobs: 21}})
    assert outcome.state.armies[bobs] == 22
    assert outcome.state.players[BOB].missed_turns == 0


def test_it_chooses_a_random_capital_for_a_player_who_missed_the_choice():
    state = start(3, objective="capitals", setup="random").state
    alices = state.territories_of(ALICE)[0]
    state = play(state, (ALICE, {"type": "choose_capital", "territory": alices}))

    outcome = timeout(state, picks=[2, 3])

    assert outcome.types() == ["turn_timed_out", "capital_chosen", "turn_timed_out",
                               "capital_chosen", "turn_started"]
    assert outcome[1] == ("capital_chosen", {
        "seat": BOB, "territory": state.territories_of(BOB)[2], "random": True})
    assert outcome.state.players[CAROL].capital == state.territories_of(CAROL)[3]


def test_it_keeps_the_capital_of_a_player_later_in_turn_order_than_those_who_missed():
    """The last random choice ends the phase; the player who had chosen (after the absent
    ones in turn order) keeps the choice and counts no miss."""
    state = start(3, objective="capitals", setup="random").state
    carols = state.territories_of(CAROL)[0]
    state = play(state, (CAROL, {"type": "choose_capital", "territory": carols}))

    outcome = timeout(state, picks=[2, 3])

    assert outcome.types() == ["turn_timed_out", "capital_chosen", "turn_timed_out",
                               "capital_chosen", "turn_started"]
    assert [outcome[0], outcome[2]] == [missed(ALICE), missed(BOB)]
    assert outcome.state.players[CAROL].capital == carols
    assert outcome.state.players[CAROL].missed_turns == 0


def test_it_keeps_the_placement_of_a_player_later_in_turn_order_than_those_who_missed():
    state = start(3, initial_placement="simultaneous").state
    carols = state.territories_of(CAROL)[0]
    state = play(state, (CAROL, {"type": "place", "placements": {carols: 21}}))

    outcome = timeout(state)

    assert outcome.types() == ["turn_timed_out", "armies_placed", "turn_timed_out",
                               "armies_placed", "armies_placed", "turn_started"]
    assert [outcome[0], outcome[2]] == [missed(ALICE), missed(BOB)]
    assert outcome[4] == ("armies_placed", {"seat": CAROL, "placements": {carols: 21}})
    assert outcome.state.armies[carols] == 22
    assert outcome.state.players[CAROL].missed_turns == 0


# ---- turn decisions ----------------------------------------------------------------------
FIVE_CARDS = [card("alaska"), card("argentina"), card("china"), card("congo"),
              card("ural")]  # four infantry and a cavalry, none showing Alice's territories


def alice_on_japan_and_australia(**kwargs):
    """Alice holds Japan and Australia: her borders are Japan and Indonesia."""
    kwargs.setdefault("owners", {})
    kwargs["owners"] = {"japan": ALICE, "indonesia": ALICE, "new_guinea": ALICE,
                        "western_australia": ALICE, "eastern_australia": ALICE,
                        "siam": CAROL, **kwargs["owners"]}
    return given(position(rest=BOB, **kwargs))


def test_it_spreads_a_missed_reinforcement_over_the_border_territories_and_ends_the_turn():
    state = alice_on_japan_and_australia()
    assert state.reinforcements == 5

    outcome = timeout(state)

    assert outcome == [
        missed(ALICE),
        ("armies_placed", {"seat": ALICE, "placements": {"japan": 3, "indonesia": 2},
                           "auto": True}),
        ("turn_ended", {"seat": ALICE}),
        outcome[3],
    ]
    assert outcome[3][0] == "turn_started" and outcome[3][1]["seat"] == BOB
    assert outcome.state.players[ALICE].missed_turns == 1


def test_it_makes_the_forced_trade_of_a_missed_reinforcement():
    state = alice_on_japan_and_australia(hands={ALICE: FIVE_CARDS})

    outcome = timeout(state)

    assert outcome.types()[:3] == ["turn_timed_out", "cards_traded", "armies_placed"]
    assert outcome[1] == ("cards_traded", {
        "seat": ALICE, "cards": sorted(FIVE_CARDS[:4])[:3], "value": 4, "bonus": {}})
    assert outcome[2][1]["placements"] == {"japan": 5, "indonesia": 4}


def test_it_trades_the_most_valuable_set_for_an_absent_player():
    hand = [card("alaska"), card("argentina"), card("china"), card("brazil"), card("ural")]
    state = alice_on_japan_and_australia(hands={ALICE: hand}, card_values="fixed")

    outcome = timeout(state)

    assert outcome.of("cards_traded")[0]["value"] == 10  # one of each, not three infantry


def test_it_places_nothing_but_the_forced_trade_and_the_owed_armies():
    state = alice_on_japan_and_australia(hands={ALICE: FIVE_CARDS[:3]})

    outcome = timeout(state)

    assert outcome.of("cards_traded") == []
    assert outcome.state.players[ALICE].cards == FIVE_CARDS[:3]


def test_it_ends_a_missed_attack_phase_without_attacking():
    state = given(position(phase="attack"))

    outcome = timeout(state)

    assert outcome.types() == ["turn_timed_out", "turn_ended", "turn_started"]


def test_it_still_gives_the_card_of_a_conquest_made_before_the_deadline():
    state = given(position(owners={"alaska": ALICE, "kamchatka": BOB},
                           armies={"alaska": 8, "kamchatka": 1}, phase="attack", deck=[9]))
    state = play(state, (ALICE, {"type": "attack", "from": "alaska", "to": "kamchatka"}),
                 (ALICE, {"type": "occupy", "armies": 3}), dice=[6, 6, 6, 1])

    outcome = timeout(state)

    assert outcome.types() == ["turn_timed_out", "card_drawn", "turn_ended", "turn_started"]


def test_it_moves_the_minimum_into_a_conquest_left_unoccupied():
    state = given(position(owners={"alaska": ALICE, "kamchatka": BOB},
                           armies={"alaska": 8, "kamchatka": 1}, phase="attack", deck=[9]))
    state = play(state, (ALICE, {"type": "attack", "from": "alaska", "to": "kamchatka",
                                 "dice": 2}), dice=[6, 6, 1])

    outcome = timeout(state)

    assert outcome.types() == ["turn_timed_out", "occupied", "card_drawn", "turn_ended",
                               "turn_started"]
    assert outcome[1] == ("occupied", {"from": "alaska", "to": "kamchatka", "armies": 2})


def test_it_ends_a_missed_fortify_phase_without_fortifying():
    outcome = timeout(given(position(phase="fortify")))

    assert outcome.types() == ["turn_timed_out", "turn_ended", "turn_started"]


def test_it_places_the_neutrals_share_when_the_opponent_misses_it():
    state = given(position(players=2))
    state = play(state, (ALICE, {"type": "place", "placements": {
        state.territories_of(ALICE)[0]: state.reinforcements}}))
    assert (state.phase, state.current) == ("neutral_place", BOB)

    outcome = timeout(state)

    assert outcome.types() == ["turn_timed_out", "armies_placed"]
    assert outcome[0] == missed(BOB)
    assert outcome[1][1]["seat"] == NEUTRAL and outcome[1][1]["auto"]
    assert (outcome.state.phase, outcome.state.current) == ("attack", ALICE)


def test_it_leaves_the_neutrals_share_of_a_missed_reinforcement_to_the_opponent():
    state = given(position(players=2))

    outcome = timeout(state)

    assert outcome.types() == ["turn_timed_out", "armies_placed"]
    assert (outcome.state.phase, outcome.state.current) == ("neutral_place", BOB)
    assert outcome.state.players[BOB].missed_turns == 0


# ---- counting misses and dropping --------------------------------------------------------
def test_it_counts_misses_in_a_row():
    state = given(position(earlier=[missed(ALICE, 1)]))

    assert timeout(state)[0] == missed(ALICE, 2)


def test_it_forgets_the_misses_once_the_player_acts():
    state = given(position(earlier=[missed(ALICE, 2)]))

    outcome = when(state, ALICE, {"type": "set_defense", "policy": "one"})

    assert outcome.state.players[ALICE].missed_turns == 0


def alice_at_her_third_miss(**kwargs):
    """Alice's reinforcements are owed and she missed her last two turns."""
    kwargs.setdefault("earlier", [missed(ALICE, 2)])
    return given(position(owners={"alaska": ALICE, "japan": ALICE}, armies={"alaska": 5},
                          hands={ALICE: [card("peru"), 42]}, **kwargs))


def test_it_drops_a_player_after_three_misses_in_a_row():
    state = alice_at_her_third_miss()

    outcome = timeout(state)

    assert outcome.types() == ["turn_timed_out", "armies_placed", "player_dropped",
                               "turn_ended", "turn_started"]
    assert outcome[0] == missed(ALICE, 3)
    assert outcome[2] == ("player_dropped", {"seat": ALICE, "reason": "timeout", "cards_to": "deck"})
    assert outcome.of("turn_started")[0]["seat"] == BOB
    assert outcome.state.players[ALICE].dropped


def test_it_leaves_a_dropped_players_territories_neutral_with_their_armies():
    state = alice_at_her_third_miss()

    after = timeout(state).state

    placed = timeout(state).of("armies_placed")[0]["placements"]
    for territory in state.territories_of(ALICE):
        assert after.owner[territory] == NEUTRAL
        assert after.armies[territory] == state.armies[territory] + placed.get(territory, 0)


def test_it_puts_a_dropped_players_cards_back_into_the_deck():
    state = alice_at_her_third_miss()

    after = timeout(state).state

    assert after.players[ALICE].cards == []
    assert after.deck[-2:] == [card("peru"), 42]  # under the draw pile
    assert card("peru") not in after.discard
    hands = [c for p in after.players for c in p.cards]
    assert sorted(after.deck + after.discard + hands) == list(range(44))


def test_it_replays_drops_recorded_before_cards_went_to_the_deck_as_they_were():
    state = alice_at_her_third_miss()
    drop = dict(timeout(state).of("player_dropped")[0])
    drop.pop("cards_to")
    events = timeout(state).events
    old_events = [
        Event(e.seq, e.type, drop if e.type == "player_dropped" else e.data, e.actor)
        for e in events
    ]

    after = replay(old_events, state.copy())

    assert after.discard[-2:] == [card("peru"), 42]


def test_it_drops_after_the_number_of_misses_the_rules_say():
    state = alice_at_her_third_miss(earlier=[], max_missed_turns=1)

    assert "player_dropped" in timeout(state).types()


def test_it_drops_a_player_who_misses_whole_turns_in_a_row():
    state = given(position(players=2, neutral=False, max_missed_turns=2))

    state = timeout(state).state
    assert (state.turn_seat, state.players[ALICE].missed_turns) == (BOB, 1)
    state = play(state, (BOB, {"type": "place", "placements": {
        state.territories_of(BOB)[0]: state.reinforcements}}), (BOB, {"type": "end_turn"}))
    assert state.players[ALICE].missed_turns == 1
    outcome = timeout(state)

    assert outcome[0] == missed(ALICE, 2)
    assert outcome.of("player_dropped") == [{"seat": ALICE, "reason": "timeout", "cards_to": "deck"}]
    assert outcome.of("game_finished") == [{"winner": BOB, "reason": "domination"}]


def test_it_does_not_drop_before_the_limit():
    state = alice_at_her_third_miss(earlier=[missed(ALICE, 1)])

    assert "player_dropped" not in timeout(state).types()


def test_it_ends_a_two_player_game_when_one_is_dropped():
    state = given(position(players=2, earlier=[missed(ALICE, 2)]))

    outcome = timeout(state)

    assert outcome.types() == ["turn_timed_out", "armies_placed", "player_dropped",
                               "game_finished"]
    assert outcome.of("game_finished") == [{"winner": BOB, "reason": "domination"}]


def test_it_drops_a_player_who_keeps_missing_the_claim():
    state = start(3, setup="claim", max_missed_turns=1).state

    outcome = timeout(state)

    assert outcome.types() == ["turn_timed_out", "territory_claimed", "player_dropped"]
    assert outcome.state.owner[TERRITORIES[0]] == NEUTRAL
    assert outcome.state.current == BOB


def test_it_refuses_a_timeout_once_the_game_is_over():
    state = given(position(), ("game_finished", {"winner": ALICE, "reason": "domination"}))

    refused(state, None, TimeOut(), "game_not_active")


# ---- resigning ---------------------------------------------------------------------------
def test_it_lets_a_player_resign_in_the_own_turn_passing_the_turn_on():
    state = given(position(hands={ALICE: [3]}, phase="attack"))

    outcome = when(state, ALICE, {"type": "resign"})

    assert outcome.types() == ["player_dropped", "turn_ended", "turn_started"]
    assert outcome[0] == (
        "player_dropped", {"seat": ALICE, "reason": "resigned", "cards_to": "deck"})
    assert outcome.state.territory_count(ALICE) == 0
    assert outcome.state.deck[-1] == 3


def test_it_lets_a_player_resign_in_someone_elses_turn():
    state = given(position(phase="attack"))
    carols = state.territories_of(CAROL)

    outcome = when(state, CAROL, {"type": "resign"})

    assert outcome == [("player_dropped", {"seat": CAROL, "reason": "resigned", "cards_to": "deck"})]
    assert all(outcome.state.owner[t] == NEUTRAL for t in carols)
    assert (outcome.state.turn_seat, outcome.state.phase) == (ALICE, "attack")


def test_it_lets_a_player_resign_during_setup():
    state = start(3, setup="claim").state

    outcome = when(state, ALICE, {"type": "resign"})

    assert outcome.state.current == BOB
    assert outcome.state.players[ALICE].dropped


def test_it_occupies_for_a_player_who_resigns_with_a_conquest_pending():
    state = given(position(owners={"alaska": ALICE, "kamchatka": BOB},
                           armies={"alaska": 8, "kamchatka": 1}, phase="attack"))
    state = play(state, (ALICE, {"type": "attack", "from": "alaska", "to": "kamchatka"}),
                 dice=[6, 6, 6, 1])

    outcome = when(state, ALICE, {"type": "resign"})

    assert outcome.types() == ["occupied", "player_dropped", "turn_ended", "turn_started"]
    assert outcome.state.owner["kamchatka"] == NEUTRAL
    assert outcome.state.armies["kamchatka"] == 3


def test_it_makes_the_last_player_standing_the_winner_when_the_others_resign():
    state = given(position(phase="attack", earlier=[
        ("player_dropped", {"seat": CAROL, "reason": "resigned"}, CAROL)]))

    outcome = when(state, ALICE, {"type": "resign"})

    assert outcome.types() == ["player_dropped", "game_finished"]
    assert outcome.of("game_finished") == [{"winner": BOB, "reason": "domination"}]


@pytest.mark.parametrize("policy", ["one", "max"])
def test_it_defends_a_dropped_players_territory_with_the_maximum(policy):
    state = given(position(owners={"alaska": ALICE, "kamchatka": CAROL},
                           armies={"alaska": 5, "kamchatka": 3}, phase="attack",
                           earlier=[("defense_set", {"seat": CAROL, "policy": policy}, CAROL),
                                    ("player_dropped", {"seat": CAROL, "reason": "resigned"},
                                     CAROL)]))

    outcome = when(state, ALICE, {"type": "attack", "from": "alaska", "to": "kamchatka"},
                   dice=[6, 6, 6, 1, 1])

    assert outcome.of("battle")[0]["defender_dice"] == [1, 1]


def test_it_reveals_the_placements_in_when_the_last_player_waited_for_resigns():
    state = start(3, initial_placement="simultaneous").state
    bobs, carols = state.territories_of(BOB)[0], state.territories_of(CAROL)[0]
    state = play(state, (BOB, {"type": "place", "placements": {bobs: 21}}),
                 (CAROL, {"type": "place", "placements": {carols: 21}}))

    outcome = when(state, ALICE, {"type": "resign"})

    assert outcome.types() == ["player_dropped", "armies_placed", "armies_placed",
                               "turn_started"]
    assert outcome.of("turn_started")[0]["seat"] == BOB
    assert (outcome.state.armies[bobs], outcome.state.armies[carols]) == (22, 22)


def test_it_starts_the_game_when_the_last_capital_owed_is_owed_by_a_player_who_resigns():
    state = start(3, objective="capitals", setup="random").state
    state = play(state, *[(seat, {"type": "choose_capital",
                                  "territory": state.territories_of(seat)[0]})
                          for seat in (BOB, CAROL)])

    outcome = when(state, ALICE, {"type": "resign"})

    assert outcome.types() == ["player_dropped", "turn_started"]
    assert outcome.of("turn_started")[0]["seat"] == BOB


def test_it_ends_the_game_when_the_opponent_resigns_during_an_occupation():
    state = given(position(players=2, owners={"alaska": ALICE, "kamchatka": BOB},
                           armies={"alaska": 8, "kamchatka": 1}, phase="attack"))
    state = play(state, (ALICE, {"type": "attack", "from": "alaska", "to": "kamchatka"}),
                 dice=[6, 6, 6, 1])

    outcome = when(state, BOB, {"type": "resign"})

    assert outcome.types() == ["player_dropped", "occupied", "game_finished"]
    assert outcome.of("game_finished") == [{"winner": ALICE, "reason": "domination"}]


def test_it_trades_down_and_places_for_a_conqueror_who_misses_the_deadline():
    four = [card("peru"), card("brazil"), card("venezuela"), card("argentina")]
    state = given(position(owners={"alaska": ALICE, "kamchatka": BOB, "japan": CAROL,
                                   "peru": CAROL, "brazil": CAROL, "venezuela": CAROL,
                                   "argentina": CAROL, "iceland": CAROL, "ural": CAROL},
                           rest=CAROL, armies={"alaska": 10, "kamchatka": 1},
                           hands={ALICE: four, BOB: [card("iceland"), card("ural")]},
                           phase="attack"))
    state = play(state, (ALICE, {"type": "attack", "from": "alaska", "to": "kamchatka"}),
                 (ALICE, {"type": "occupy", "armies": 3}), dice=[6, 6, 6, 1])
    assert (state.phase, len(state.players[ALICE].cards)) == ("reinforce", 6)

    outcome = timeout(state)

    assert outcome.types() == ["turn_timed_out", "cards_traded", "armies_placed",
                               "card_drawn", "turn_ended", "turn_started"]
    assert len(outcome.state.players[ALICE].cards) == 4
