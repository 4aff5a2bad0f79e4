"""Capitals: chosen in secret after setup, captured with the owner's cards, collapsing under
`capital_collapse`, and won by holding enough of them, one's own included."""

from __future__ import annotations

import pytest

from engine import NEUTRAL, view
from tests.engine.support import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    ScriptedDice,
    card,
    given,
    play,
    position,
    refused,
    start,
    when,
)

CAPITALS = {ALICE: "alaska", BOB: "kamchatka", CAROL: "brazil", DAVE: "egypt"}
TAKE_KAMCHATKA = {"type": "attack", "from": "alaska", "to": "kamchatka"}
WIN = [6, 6, 6, 1]


def after_setup(players=3, **rules):
    """Everyone has placed every starting army."""
    state = start(players, objective="capitals", placement_batch=100, **rules).state
    while state.phase == "setup_place":
        seat = state.current
        state = play(state, (seat, {"type": "place", "placements": {
            state.territories_of(seat)[0]: state.reinforcements}}))
    return state


def alice_takes_kamchatka(players=4, owners=None, armies=None, hands=None, capitals=None,
                          earlier=(), rest=None, **rules):
    capitals = capitals or {s: CAPITALS[s] for s in range(players)}
    owners = {**{territory: seat for seat, territory in capitals.items()},
              **(owners or {})}
    state = given(position(
        players=players, owners=owners, rest=rest,
        armies={"alaska": 8, "kamchatka": 1, **(armies or {})},
        hands=hands or {}, capitals=capitals, earlier=list(earlier), phase="attack",
        objective="capitals", **rules,
    ))
    return when(state, ALICE, TAKE_KAMCHATKA, dice=WIN)


def occupy(state, armies=3):
    return when(state, ALICE, {"type": "occupy", "armies": armies})


# ---- choosing ----------------------------------------------------------------------------
def test_it_asks_every_player_for_a_capital_once_the_armies_are_placed():
    state = after_setup()

    assert (state.phase, state.current) == ("capital", None)
    assert view(state, ALICE)["current_seat"] is None


def test_it_takes_the_capitals_in_any_order_and_then_starts_the_first_turn():
    state = after_setup()
    picks = {seat: state.territories_of(seat)[2] for seat in (ALICE, BOB, CAROL)}

    state = play(state, (CAROL, {"type": "choose_capital", "territory": picks[CAROL]}),
                 (ALICE, {"type": "choose_capital", "territory": picks[ALICE]}))
    outcome = when(state, BOB, {"type": "choose_capital", "territory": picks[BOB]})

    assert outcome.types() == ["capital_chosen", "turn_started"]
    assert outcome[0] == ("capital_chosen", {"seat": BOB, "territory": picks[BOB]})
    assert [p.capital for p in outcome.state.players] == [picks[s] for s in range(3)]
    assert outcome.state.phase == "reinforce"


def test_it_asks_for_capitals_after_a_random_setup_too():
    state = start(3, objective="capitals", setup="random").state

    assert state.phase == "capital"


def test_it_asks_only_the_two_players_for_capitals_never_the_neutral():
    state = after_setup(players=2)
    picks = {seat: state.territories_of(seat)[0] for seat in (ALICE, BOB)}

    state = play(state, (ALICE, {"type": "choose_capital", "territory": picks[ALICE]}))
    outcome = when(state, BOB, {"type": "choose_capital", "territory": picks[BOB]})

    assert outcome.types() == ["capital_chosen", "turn_started"]


def test_it_refuses_a_capital_the_player_does_not_own():
    state = after_setup()

    refused(state, ALICE, {"type": "choose_capital", "territory": state.territories_of(BOB)[0]},
            "not_owner")


def test_it_refuses_a_second_capital():
    state = after_setup()
    state = play(state, (ALICE, {"type": "choose_capital",
                                 "territory": state.territories_of(ALICE)[0]}))

    refused(state, ALICE, {"type": "choose_capital",
                           "territory": state.territories_of(ALICE)[1]}, "not_your_turn")


def test_it_refuses_a_capital_before_the_armies_are_placed():
    state = start(3, objective="capitals").state

    refused(state, ALICE, {"type": "choose_capital",
                           "territory": state.territories_of(ALICE)[0]}, "wrong_phase")


def test_it_refuses_a_capital_once_the_game_is_under_way():
    capitals = {ALICE: "alaska", BOB: "kamchatka", CAROL: "brazil"}
    state = given(position(objective="capitals", capitals=capitals,
                           owners={"alaska": ALICE, "kamchatka": BOB, "brazil": CAROL,
                                   "japan": ALICE}))

    refused(state, ALICE, {"type": "choose_capital", "territory": "japan"}, "wrong_phase")


# ---- capturing ---------------------------------------------------------------------------
def test_it_reveals_a_captured_capital_and_hands_its_owners_cards_to_the_captor():
    bob_cards = [card("peru"), card("ural"), 42]
    outcome = alice_takes_kamchatka(hands={BOB: bob_cards, ALICE: [card("india")]})

    assert outcome.types() == ["battle", "capital_captured"]
    assert outcome[1] == ("capital_captured", {
        "seat": ALICE, "owner": BOB, "territory": "kamchatka", "cards": bob_cards,
        "collapsed": [],
    })
    after = outcome.state
    assert after.players[ALICE].cards == [card("india"), *bob_cards]
    assert after.players[BOB].cards == []
    assert after.revealed_capitals == ["kamchatka"]
    assert view(after, CAROL)["capitals"] == {"kamchatka": BOB}


def test_it_does_not_win_with_fewer_capitals_than_the_table_asks():
    outcome = occupy(alice_takes_kamchatka(players=4).state)

    assert outcome.types() == ["occupied"]


@pytest.mark.parametrize("players, capitals", [
    (3, {ALICE: "alaska", BOB: "kamchatka", CAROL: "brazil"}),
    (4, {ALICE: "alaska", BOB: "kamchatka", CAROL: "brazil", DAVE: "egypt"}),
])
def test_it_wins_holding_as_many_capitals_as_the_table_asks(players, capitals):
    owners = {"brazil": ALICE} if players == 4 else {}
    outcome = occupy(alice_takes_kamchatka(players=players, capitals=capitals,
                                           owners=owners).state)

    assert outcome.types() == ["occupied", "game_finished"]
    assert outcome.of("game_finished") == [{"winner": ALICE, "reason": "capitals"}]


def test_it_wins_a_two_player_game_holding_both_capitals_while_the_neutral_holds_none():
    capitals = {ALICE: "alaska", BOB: "kamchatka"}
    outcome = occupy(alice_takes_kamchatka(players=2, capitals=capitals,
                                           owners={"japan": BOB, "siam": NEUTRAL}).state)

    assert outcome.of("game_finished") == [{"winner": ALICE, "reason": "capitals"}]
    assert not outcome.state.players[BOB].out


def test_it_wants_every_capital_under_all():
    capitals = {ALICE: "alaska", BOB: "kamchatka", CAROL: "brazil"}

    two = occupy(alice_takes_kamchatka(players=3, capitals=capitals,
                                       capitals_to_win="all").state)
    three = occupy(alice_takes_kamchatka(players=3, capitals=capitals, owners={"brazil": ALICE},
                                         capitals_to_win="all").state)

    assert two.types() == ["occupied"]
    assert three.of("game_finished") == [{"winner": ALICE, "reason": "capitals"}]


def test_it_wants_the_players_own_capital_held_to_win():
    # Bob took Alice's capital; Alice holds Carol's and now takes Bob's: two, not her own.
    capitals = {ALICE: "alberta", BOB: "kamchatka", CAROL: "brazil"}
    outcome = occupy(alice_takes_kamchatka(
        players=3, capitals=capitals, owners={"alberta": BOB, "brazil": ALICE}).state)

    assert outcome.types() == ["occupied"]
    assert not outcome.state.finished


def test_it_hands_over_nothing_for_a_capital_taken_from_a_third_player():
    capitals = {ALICE: "alaska", BOB: "kamchatka", CAROL: "brazil", DAVE: "egypt"}
    earlier = [("capital_captured", {"seat": CAROL, "owner": BOB, "territory": "kamchatka",
                                     "cards": [], "collapsed": []}, CAROL)]
    outcome = alice_takes_kamchatka(
        capitals=capitals, owners={"kamchatka": CAROL}, earlier=earlier,
        hands={CAROL: [card("peru")], BOB: [card("ural")]})

    assert outcome.types() == ["battle"]
    assert outcome.state.players[CAROL].cards == [card("peru")]
    assert outcome.state.players[BOB].cards == [card("ural")]


def test_it_hands_over_the_cards_again_when_the_owner_lost_the_capital_twice():
    earlier = [("capital_captured", {"seat": CAROL, "owner": BOB, "territory": "kamchatka",
                                     "cards": [], "collapsed": []}, CAROL)]
    outcome = alice_takes_kamchatka(earlier=earlier, hands={BOB: [card("ural")]})

    assert outcome.of("capital_captured")[0]["cards"] == [card("ural")]


def test_it_announces_nothing_when_a_player_retakes_the_own_capital():
    capitals = {ALICE: "kamchatka", BOB: "alaska", CAROL: "brazil", DAVE: "egypt"}
    earlier = [("capital_captured", {"seat": BOB, "owner": ALICE, "territory": "kamchatka",
                                     "cards": [], "collapsed": []}, BOB)]
    outcome = alice_takes_kamchatka(
        capitals=capitals, owners={"alaska": ALICE, "kamchatka": BOB, "alberta": BOB},
        earlier=earlier)

    assert outcome.types() == ["battle"]


# ---- collapse ----------------------------------------------------------------------------
COLLAPSE_BOARD = {"japan": BOB, "mongolia": BOB, "india": BOB, "siam": CAROL, "alberta": BOB}


def test_it_collapses_the_losers_armies_on_the_capitals_continent():
    outcome = alice_takes_kamchatka(
        owners=COLLAPSE_BOARD, rest=CAROL, armies={"japan": 5, "mongolia": 3, "alberta": 4},
        capital_collapse=True)

    assert outcome.types() == ["battle", "capital_captured"]
    assert outcome[1][1]["collapsed"] == ["mongolia", "japan", "india"]  # board order
    after = outcome.state
    for territory in ("mongolia", "japan", "india"):
        assert (after.owner[territory], after.armies[territory]) == (ALICE, 1)
    assert (after.owner["siam"], after.owner["alberta"], after.armies["alberta"]) == (
        CAROL, BOB, 4)


def test_it_collapses_nothing_by_default():
    outcome = alice_takes_kamchatka(owners=COLLAPSE_BOARD, rest=CAROL, armies={"japan": 5})

    assert outcome[1][1]["collapsed"] == []
    assert (outcome.state.owner["japan"], outcome.state.armies["japan"]) == (BOB, 5)


def test_it_eliminates_a_player_whose_last_territories_collapse():
    outcome = alice_takes_kamchatka(
        players=3, capitals={ALICE: "alaska", BOB: "kamchatka", CAROL: "brazil"},
        owners={"japan": BOB}, rest=CAROL, hands={BOB: [card("ural")]}, capital_collapse=True)

    assert outcome.types() == ["battle", "capital_captured", "player_eliminated"]
    assert outcome[2] == ("player_eliminated", {"seat": BOB, "by": ALICE, "cards": []})
    assert outcome.state.players[ALICE].cards == [card("ural")]


def test_it_chooses_a_capital_for_nobody_in_a_game_without_capitals():
    state = start(3, rng=ScriptedDice()).state

    assert all(p.capital is None for p in state.players)


def test_it_counts_the_capital_of_a_player_who_left_once_taken_from_the_neutral():
    capitals = {ALICE: "alaska", BOB: "kamchatka", CAROL: "brazil"}
    dropped = [("player_dropped", {"seat": BOB, "reason": "resigned"}, BOB)]
    outcome = alice_takes_kamchatka(players=3, capitals=capitals, earlier=dropped,
                                    owners={"japan": BOB})

    assert outcome.of("capital_captured") == [{
        "seat": ALICE, "owner": BOB, "territory": "kamchatka", "cards": [], "collapsed": []}]
    assert occupy(outcome.state).of("game_finished") == [
        {"winner": ALICE, "reason": "capitals"}]


# ---- capitals in play: only the capitals that exist count ------------------------------
def test_it_wants_only_the_capitals_in_play_when_a_player_left_before_choosing():
    # Carol resigned during the capital phase without choosing: two capitals exist.
    capitals = {ALICE: "alaska", BOB: "kamchatka"}
    dropped = [("player_dropped", {"seat": CAROL, "reason": "resigned"}, CAROL)]
    outcome = occupy(alice_takes_kamchatka(players=3, capitals=capitals, earlier=dropped,
                                           capitals_to_win="all").state)

    assert outcome.of("game_finished") == [{"winner": ALICE, "reason": "capitals"}]


def test_it_wins_by_capitals_after_the_last_chooser_resigns_in_the_capital_phase():
    state = after_setup(players=3, capitals_to_win="all")
    picks = {seat: state.territories_of(seat)[0] for seat in (ALICE, BOB)}
    state = play(state, (ALICE, {"type": "choose_capital", "territory": picks[ALICE]}),
                 (BOB, {"type": "choose_capital", "territory": picks[BOB]}),
                 (CAROL, {"type": "resign"}))

    assert state.phase == "reinforce"
    assert [p.capital for p in state.players] == [picks[ALICE], picks[BOB], None]
    from engine.flow import capitals_to_win
    assert capitals_to_win(state) == 2


def test_it_never_wants_more_capitals_than_are_in_play_under_the_table():
    # Four players, the table asks for 3; two left before choosing, so only 2 exist.
    capitals = {ALICE: "alaska", BOB: "kamchatka"}
    dropped = [("player_dropped", {"seat": seat, "reason": "resigned"}, seat)
               for seat in (CAROL, DAVE)]
    outcome = occupy(alice_takes_kamchatka(players=4, capitals=capitals, earlier=dropped).state)

    assert outcome.of("game_finished") == [{"winner": ALICE, "reason": "capitals"}]
