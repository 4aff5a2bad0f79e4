"""Card sets: what makes a set, when a trade is forced, what a set is worth, territory bonus."""

from __future__ import annotations

from itertools import combinations

import pytest

from engine.board import CARDS
from engine.cards import escalating_value, is_set, next_set_value, set_kinds
from engine.options import Rules
from tests.engine.support import (
    ALICE,
    BOB,
    CAROL,
    WILDS,
    card,
    given,
    position,
    refused,
    when,
)

# Cards by what they show (docs/players/rules.md: each territory card has one symbol).
I1, I2, I3, I4, I5, I6 = (card(t) for t in ("alaska", "argentina", "china", "congo",
                                             "east_africa", "egypt"))
C1, C2, C3, C4, C5, C6 = (card(t) for t in ("afghanistan", "alberta", "greenland", "india",
                                             "irkutsk", "madagascar"))
A1, A2, A3, A4, A5, A6 = (card(t) for t in ("brazil", "central_america", "eastern_australia",
                                             "eastern_united_states", "great_britain",
                                             "indonesia"))
W1, W2 = WILDS


def alice_holding(hand, owners=None, phase="reinforce", **rules):
    """Alice to reinforce with `hand`; Bob owns every territory on a card she holds unless
    `owners` says otherwise."""
    shown = {CARDS[c][0]: BOB for c in hand if CARDS[c][0]}
    return given(position(hands={ALICE: list(hand)}, owners={**shown, **(owners or {})},
                          phase=phase, **rules))


def trade(*cards, bonus=None) -> dict:
    command = {"type": "trade", "cards": list(cards)}
    if bonus is not None:
        command["bonus_territory"] = bonus
    return command


# ---- what makes a set --------------------------------------------------------------------
@pytest.mark.parametrize("cards, kinds", [
    ((I1, I2, I3), ["infantry"]),
    ((C1, C2, C3), ["cavalry"]),
    ((A1, A2, A3), ["artillery"]),
    ((I1, C1, A1), ["mixed"]),
    ((C1, C2, W1), ["cavalry"]),
    ((I1, C1, W1), ["mixed"]),
    ((I1, W1, W2), ["infantry", "mixed"]),
    ((I1, I2, C1), []),
    ((A1, A2, I1), []),
    ((A1, I1, I2), []),
])
def test_it_knows_a_set(cards, kinds):
    assert set_kinds(cards) == kinds
    assert is_set(cards) is bool(kinds)


def test_it_makes_a_set_of_two_cavalry_and_a_wild():
    state = alice_holding([C1, C2, W1])

    outcome = when(state, ALICE, trade(C1, C2, W1))

    assert outcome == [("cards_traded", {"seat": ALICE, "cards": [C1, C2, W1], "value": 4,
                                         "bonus": {}})]


def test_it_turns_a_set_into_armies_and_discards_it():
    state = alice_holding([I1, I2, I3, C1])

    outcome = when(state, ALICE, trade(I1, I2, I3))

    after = outcome.state
    assert after.players[ALICE].cards == [C1]
    assert after.discard == [I1, I2, I3]
    assert (after.reinforcements, after.sets_traded) == (state.reinforcements + 4, 1)
    assert after.phase == "reinforce"


@pytest.mark.parametrize("cards", [(I1, I2, C1), (I1, I1, I2), (I1, I2, I4), (I1, I2, 99)])
def test_it_refuses_what_is_not_a_set_of_the_players_own_cards(cards):
    state = alice_holding([I1, I2, I3, C1])

    refused(state, ALICE, trade(*cards), "bad_cards")


@pytest.mark.parametrize("cards", [[I1, I2], [I1, I2, I3, C1], "all", [I1, I2, "x"],
                                   [I1, I2, True]])
def test_it_refuses_a_trade_that_is_not_three_card_ids(cards):
    state = alice_holding([I1, I2, I3, C1])

    refused(state, ALICE, {"type": "trade", "cards": cards}, "bad_cards")


def test_it_refuses_a_trade_out_of_turn():
    state = given(position(hands={ALICE: [I1, I2, I3], BOB: [C1, C2, C3]}))

    refused(state, BOB, trade(C1, C2, C3), "not_your_turn")


def test_it_trades_only_in_the_reinforce_phase():
    state = alice_holding([I1, I2, I3], phase="attack")

    refused(state, ALICE, trade(I1, I2, I3), "wrong_phase")


def test_it_ends_the_chance_to_trade_with_the_last_army_placed():
    state = alice_holding([I1, I2, I3], owners={"japan": ALICE})
    state = when(state, ALICE, {"type": "place",
                                "placements": {"japan": state.reinforcements}}).state

    refused(state, ALICE, trade(I1, I2, I3), "wrong_phase")


# ---- forced trades ------------------------------------------------------------------------
FIVE = [I1, I2, I3, C1, A1]


@pytest.mark.parametrize("command", [
    {"type": "place", "placements": {"japan": 1}},
    {"type": "attack", "from": "japan", "to": "kamchatka"},
    {"type": "end_attack"},
    {"type": "fortify", "from": "japan", "to": "kamchatka", "armies": 1},
    {"type": "end_turn"},
])
def test_it_forces_a_trade_with_five_cards(command):
    state = alice_holding(FIVE, owners={"japan": ALICE})

    refused(state, ALICE, command, "must_trade")


def test_it_lets_the_player_go_on_once_fewer_than_five_remain():
    state = alice_holding(FIVE, owners={"japan": ALICE})
    state = when(state, ALICE, trade(I1, I2, I3)).state

    outcome = when(state, ALICE, {"type": "place",
                                  "placements": {"japan": state.reinforcements}})

    assert outcome.state.phase == "attack"
    assert outcome.state.players[ALICE].cards == [C1, A1]


def test_it_forces_no_trade_with_four_cards():
    state = alice_holding([I1, I2, I3, C1], owners={"japan": ALICE})

    outcome = when(state, ALICE, {"type": "place",
                                  "placements": {"japan": state.reinforcements}})

    assert outcome.state.phase == "attack"
    assert len(outcome.state.players[ALICE].cards) == 4


TWO_ARTILLERY_THREE_INFANTRY = [A1, A2, I1, I2, I3]


@pytest.mark.parametrize("trio", [
    trio for trio in combinations(TWO_ARTILLERY_THREE_INFANTRY, 3) if A1 in trio or A2 in trio
])
def test_it_refuses_every_trio_with_artillery_from_two_artillery_and_three_infantry(trio):
    state = alice_holding(TWO_ARTILLERY_THREE_INFANTRY)

    refused(state, ALICE, trade(*trio), "bad_cards")


def test_it_takes_the_three_infantry_from_two_artillery_and_three_infantry():
    state = alice_holding(TWO_ARTILLERY_THREE_INFANTRY)

    outcome = when(state, ALICE, trade(I1, I2, I3))

    assert outcome.state.players[ALICE].cards == [A1, A2]


TWO_OF_EACH = [A1, A2, I1, I2, C1, C2]


def one_of_each(trio) -> bool:
    return len({CARDS[c][1] for c in trio}) == 3


@pytest.mark.parametrize("trio", [t for t in combinations(TWO_OF_EACH, 3) if not one_of_each(t)])
def test_it_refuses_two_of_a_kind_from_two_of_each(trio):
    state = alice_holding(TWO_OF_EACH)

    refused(state, ALICE, trade(*trio), "bad_cards")


@pytest.mark.parametrize("trio", [t for t in combinations(TWO_OF_EACH, 3) if one_of_each(t)])
def test_it_takes_one_of_each_from_two_of_each(trio):
    state = alice_holding(TWO_OF_EACH)

    outcome = when(state, ALICE, trade(*trio))

    assert outcome.of("cards_traded")[0]["value"] == 4
    assert len(outcome.state.players[ALICE].cards) == 3


# ---- escalating values -------------------------------------------------------------------
EIGHT_SETS = [(I1, I2, I3), (I4, I5, I6), (C1, C2, C3), (C4, C5, C6), (A1, A2, A3),
              (A4, A5, A6), (card("iceland"), card("kamchatka"), card("middle_east")),
              (card("mongolia"), card("new_guinea"), card("peru"))]


def test_it_escalates_set_values_4_6_8_10_12_15_20_25():
    hand = [c for trio in EIGHT_SETS for c in trio]
    state = alice_holding(hand, owners={"japan": ALICE})
    owed = state.reinforcements

    values = []
    for trio in EIGHT_SETS:
        outcome = when(state, ALICE, trade(*trio))
        values.append(outcome.of("cards_traded")[0]["value"])
        state = outcome.state

    assert values == [4, 6, 8, 10, 12, 15, 20, 25]
    assert state.reinforcements == owed + 100
    assert state.sets_traded == 8


@pytest.mark.parametrize("nth, value", [(1, 4), (2, 6), (3, 8), (4, 10), (5, 12), (6, 15),
                                        (7, 20), (8, 25), (9, 30), (12, 45)])
def test_it_counts_on_by_five_after_the_sixth_set(nth, value):
    assert escalating_value(nth) == value
    assert next_set_value(Rules(), nth - 1) == value


def test_it_counts_sets_traded_by_every_player():
    state = given(position(
        hands={ALICE: [I1, I2, I3]},
        traded=[(BOB, (C1, C2, C3)), (CAROL, (A1, A2, A3))],
        owners={"alaska": BOB, "argentina": BOB, "china": BOB},
    ))
    assert state.discard == [C1, C2, C3, A1, A2, A3]

    outcome = when(state, ALICE, trade(I1, I2, I3))

    assert outcome.of("cards_traded")[0]["value"] == 8


# ---- fixed values ------------------------------------------------------------------------
@pytest.mark.parametrize("trio, value", [
    ((I1, I2, I3), 4), ((C1, C2, C3), 6), ((A1, A2, A3), 8), ((I1, C1, A1), 10),
    ((C1, C2, W1), 6), ((I1, C1, W1), 10),
    ((I1, W1, W2), 10),  # a wild counts as whatever is worth most: here one of each
])
def test_it_values_sets_by_symbol_under_fixed_values(trio, value):
    state = alice_holding(trio, card_values="fixed")

    assert when(state, ALICE, trade(*trio)).of("cards_traded")[0]["value"] == value


def test_it_does_not_escalate_fixed_values():
    state = alice_holding([I1, I2, I3, I4, I5, I6], card_values="fixed")

    state = when(state, ALICE, trade(I1, I2, I3)).state

    assert when(state, ALICE, trade(I4, I5, I6)).of("cards_traded")[0]["value"] == 4
    assert next_set_value(state.rules, state.sets_traded) is None


CZECH = {"artillery": 4, "infantry": 6, "cavalry": 8, "mixed": 10}


@pytest.mark.parametrize("trio, value", [
    ((A1, A2, A3), 4), ((I1, I2, I3), 6), ((C1, C2, C3), 8), ((I1, C1, A1), 10),
    ((I1, I2, W1), 6),
])
def test_it_takes_the_czech_fixed_values(trio, value):
    state = alice_holding(trio, card_values="fixed", fixed_values=CZECH)

    assert when(state, ALICE, trade(*trio)).of("cards_traded")[0]["value"] == value


def test_it_ignores_fixed_values_when_values_escalate():
    state = alice_holding([A1, A2, A3], fixed_values=CZECH)

    assert when(state, ALICE, trade(A1, A2, A3)).of("cards_traded")[0]["value"] == 4


# ---- territory bonus ---------------------------------------------------------------------
OWNS_TWO = {"alaska": ALICE, "china": ALICE, "argentina": BOB}


def test_it_puts_two_armies_on_the_chosen_traded_territory_at_once():
    state = alice_holding([I1, I2, I3], owners=OWNS_TWO)

    outcome = when(state, ALICE, trade(I1, I2, I3, bonus="china"))

    assert outcome == [("cards_traded", {"seat": ALICE, "cards": [I1, I2, I3], "value": 4,
                                         "bonus": {"china": 2}})]
    assert outcome.state.armies["china"] == state.armies["china"] + 2
    assert outcome.state.armies["alaska"] == state.armies["alaska"]
    assert outcome.state.reinforcements == state.reinforcements + 4


def test_it_picks_the_first_owned_traded_territory_when_the_player_does_not_choose():
    state = alice_holding([I1, I2, I3], owners=OWNS_TWO)

    outcome = when(state, ALICE, trade(I3, I2, I1))

    assert outcome.of("cards_traded")[0]["bonus"] == {"china": 2}


@pytest.mark.parametrize("territory", ["argentina", "peru"])
def test_it_refuses_a_bonus_territory_that_is_not_a_traded_one_of_the_players(territory):
    state = alice_holding([I1, I2, I3], owners={**OWNS_TWO, "peru": ALICE})

    refused(state, ALICE, trade(I1, I2, I3, bonus=territory), "bad_cards")


def test_it_refuses_an_unknown_bonus_territory():
    state = alice_holding([I1, I2, I3], owners=OWNS_TWO)

    refused(state, ALICE, trade(I1, I2, I3, bonus="atlantis"), "unknown_territory")


def test_it_gives_no_bonus_when_no_traded_territory_is_the_players():
    state = alice_holding([I1, I2, W1])

    assert when(state, ALICE, trade(I1, I2, W1)).of("cards_traded")[0]["bonus"] == {}


def test_it_gives_the_bonus_for_each_matching_card_under_each():
    state = alice_holding([I1, I2, I3], owners=OWNS_TWO, card_territory_bonus="each")

    outcome = when(state, ALICE, trade(I1, I2, I3))

    assert outcome.of("cards_traded")[0]["bonus"] == {"alaska": 2, "china": 2}
    assert outcome.state.armies["alaska"] == state.armies["alaska"] + 2
    assert outcome.state.armies["china"] == state.armies["china"] + 2
