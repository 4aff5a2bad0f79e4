"""Turns: the order of play, the card earned by a conquest, and the draw pile."""

from __future__ import annotations

from tests.engine.support import (
    ALICE,
    BOB,
    CAROL,
    given,
    play,
    position,
    refused,
    when,
)

ATTACK = {"type": "attack", "from": "alaska", "to": "kamchatka"}
CONQUEST = [6, 6, 6, 1]  # three dice against Kamchatka's single army


def alice_attacking(**kwargs):
    kwargs.setdefault("owners", {"alaska": ALICE, "kamchatka": BOB, "japan": BOB,
                                 "mongolia": BOB})
    kwargs.setdefault("armies", {"alaska": 8, "kamchatka": 1})
    return given(position(phase="attack", **kwargs))


def conquer_kamchatka(state):
    return play(state, (ALICE, ATTACK), (ALICE, {"type": "occupy", "armies": 3}),
                dice=CONQUEST)


# ---- order -------------------------------------------------------------------------------
def test_it_passes_the_turn_to_the_next_seat_in_the_drawn_order():
    state = given(position(order=[1, 0, 2], phase="fortify", turn=4))

    outcome = when(state, ALICE, {"type": "end_turn"})

    assert outcome[0] == ("turn_ended", {"seat": ALICE})
    assert outcome[1][0] == "turn_started"
    assert (outcome[1][1]["seat"], outcome[1][1]["turn"]) == (CAROL, 5)


def test_it_goes_round_from_the_last_seat_to_the_first():
    state = given(position(order=[1, 2, 0], phase="fortify"))

    assert when(state, ALICE, {"type": "end_turn"}).state.turn_seat == BOB


def test_it_skips_an_eliminated_seat():
    state = given(position(owners={"alaska": ALICE}, rest=CAROL, phase="fortify",
                           earlier=[("player_eliminated", {"seat": BOB, "by": CAROL,
                                                           "cards": []})]))

    assert when(state, ALICE, {"type": "end_turn"}).state.turn_seat == CAROL


def test_it_skips_a_dropped_seat():
    state = given(position(phase="fortify", earlier=[
        ("player_dropped", {"seat": BOB, "reason": "resigned"}, BOB)]))

    assert when(state, ALICE, {"type": "end_turn"}).state.turn_seat == CAROL


def test_it_refuses_to_end_someone_elses_turn():
    refused(given(position(phase="fortify")), BOB, {"type": "end_turn"}, "not_your_turn")


def test_it_refuses_commands_when_the_game_is_over():
    state = given(position(phase="fortify"), ("game_finished", {"winner": ALICE,
                                                                "reason": "domination"}))

    refused(state, ALICE, {"type": "end_turn"}, "game_not_active")
    refused(state, BOB, {"type": "set_defense", "policy": "one"}, "game_not_active")
    refused(state, BOB, {"type": "resign"}, "game_not_active")


def test_it_refuses_a_seat_that_does_not_play():
    refused(given(position(phase="fortify")), 5, {"type": "end_turn"}, "not_seated")


# ---- the card of a conquest -------------------------------------------------------------
def test_it_gives_one_card_from_the_top_of_the_pile_after_a_conquest():
    state = conquer_kamchatka(alice_attacking(deck=[7, 3, 9]))

    outcome = when(state, ALICE, {"type": "end_turn"})

    assert outcome.types() == ["card_drawn", "turn_ended", "turn_started"]
    assert outcome[0] == ("card_drawn", {"seat": ALICE, "card": 7})
    assert outcome.state.players[ALICE].cards == [7]
    assert outcome.state.deck == [3, 9]


def test_it_gives_only_one_card_however_many_conquests():
    state = alice_attacking(armies={"alaska": 12, "kamchatka": 1, "japan": 1})
    state = conquer_kamchatka(state)
    state = play(state, (ALICE, {"type": "attack", "from": "kamchatka", "to": "japan"}),
                 (ALICE, {"type": "occupy", "armies": 2}), dice=[6, 6, 1])

    outcome = when(state, ALICE, {"type": "end_turn"})

    assert len(outcome.of("card_drawn")) == 1


def test_it_gives_the_card_when_the_turn_ends_by_fortifying():
    state = conquer_kamchatka(alice_attacking())

    outcome = when(state, ALICE, {"type": "fortify", "from": "alaska", "to": "kamchatka",
                                  "armies": 1})

    assert outcome.types() == ["fortified", "card_drawn", "turn_ended", "turn_started"]


def test_it_gives_no_card_without_a_conquest():
    state = alice_attacking(armies={"alaska": 8, "kamchatka": 5})
    state = play(state, (ALICE, ATTACK), dice=[6, 6, 6, 1, 1])

    assert when(state, ALICE, {"type": "end_turn"}).types() == ["turn_ended", "turn_started"]


def test_it_gives_no_card_for_the_previous_turns_conquest():
    state = conquer_kamchatka(alice_attacking(order=[0, 1]))
    state = when(state, ALICE, {"type": "end_turn"}).state
    bob_owes = state.reinforcements
    state = play(state, (BOB, {"type": "place", "placements": {"japan": bob_owes}}))

    assert when(state, BOB, {"type": "end_turn"}).types() == ["turn_ended", "turn_started"]


def test_it_shuffles_the_traded_cards_back_when_the_pile_is_empty():
    traded = [(BOB, (0, 3, 6)), (CAROL, (1, 2, 4))]
    others = [c for c in range(44) if c not in (0, 3, 6, 1, 2, 4)]
    state = conquer_kamchatka(alice_attacking(
        traded=traded, deck=[], hands={ALICE: others[:4], BOB: others[4:24],
                                       CAROL: others[24:]},
    ))
    assert (state.deck, sorted(state.discard)) == ([], [0, 1, 2, 3, 4, 6])

    outcome = when(state, ALICE, {"type": "end_turn"}, shuffles=[[6, 2, 0, 4, 1, 3]])

    assert outcome.types() == ["deck_shuffled", "card_drawn", "turn_ended", "turn_started"]
    assert outcome[0] == ("deck_shuffled", {"cards": [6, 2, 0, 4, 1, 3]})
    assert outcome[1] == ("card_drawn", {"seat": ALICE, "card": 6})
    assert (outcome.state.deck, outcome.state.discard) == ([2, 0, 4, 1, 3], [])


def test_it_gives_no_card_when_every_card_is_in_a_hand():
    state = conquer_kamchatka(alice_attacking(
        deck=[], hands={ALICE: list(range(4)), BOB: list(range(4, 24)),
                        CAROL: list(range(24, 44))},
    ))

    assert when(state, ALICE, {"type": "end_turn"}).types() == ["turn_ended", "turn_started"]


# ---- the round limit -----------------------------------------------------------------------
def test_it_counts_a_round_each_time_the_order_comes_round():
    state = given(position(order=[1, 2, 0], phase="fortify", seat=BOB))
    assert state.round == 1

    state = when(state, BOB, {"type": "end_turn"}).state  # Carol: same round
    assert state.round == 1
    state = play(state, (CAROL, {"type": "place", "placements": {
        state.territories_of(CAROL)[0]: state.reinforcements}}), (CAROL, {"type": "end_turn"}))
    assert (state.turn_seat, state.round) == (ALICE, 1)
    state = play(state, (ALICE, {"type": "place", "placements": {
        state.territories_of(ALICE)[0]: state.reinforcements}}), (ALICE, {"type": "end_turn"}))
    assert (state.turn_seat, state.round) == (BOB, 2)


def test_it_ends_the_game_at_the_round_limit_with_the_player_holding_most_territories():
    owners = {t: CAROL for t in ("peru", "brazil", "venezuela", "argentina", "egypt")}
    state = given(position(order=[0, 1, 2], phase="fortify", seat=CAROL, owners=owners,
                           rest=BOB, round_limit=1))

    outcome = when(state, CAROL, {"type": "end_turn"})

    assert outcome.types() == ["turn_ended", "game_finished"]
    assert outcome.of("game_finished") == [{"winner": BOB, "reason": "round_limit"}]


def test_it_plays_on_before_the_round_limit():
    state = given(position(order=[0, 1, 2], phase="fortify", seat=CAROL, round_limit=2))

    outcome = when(state, CAROL, {"type": "end_turn"})

    assert outcome.types() == ["turn_ended", "turn_started"]
    assert outcome.state.round == 2


def test_it_breaks_a_tie_on_territories_by_armies():
    from engine.flow import round_leader
    state = given(position(players=2, neutral=False, order=[1, 0], phase="fortify",
                           armies={"alaska": 30}, owners={"alaska": ALICE, "peru": BOB}))
    assert state.territory_count(ALICE) == state.territory_count(BOB)

    assert round_leader(state) == ALICE
