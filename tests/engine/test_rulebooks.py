"""Each rulebook as written (docs/players/rulebooks.md): the options that make the Czech, Polish, encyclopedia
and online rules playable, the presets that bundle them, and the four places where docs/players/rules.md
is silent and the engine chose (docs/players/rulebooks.md "Rules the engine chose")."""

from __future__ import annotations

import pytest

from engine import NEUTRAL, RuleViolation, validate_rules, view
from engine.board import CARDS
from engine.cards import find_sets
from engine.options import PRESETS
from tests.engine.support import (
    ALICE,
    BOB,
    CAROL,
    WILDS,
    ScriptedDice,
    card,
    given,
    play,
    position,
    refused,
    start,
    timeout,
    when,
)

AUSTRALIA = ["indonesia", "new_guinea", "western_australia", "eastern_australia"]
END_TURN = {"type": "end_turn"}
END_ATTACK = {"type": "end_attack"}
I1, I2, I3 = card("argentina"), card("alaska"), card("china")  # three infantry


def refuses(raw, players=3) -> str:
    with pytest.raises(RuleViolation) as refusal:
        validate_rules(raw, players)
    assert refusal.value.code == "bad_rules"
    return str(refusal.value)


def turn_started(outcome) -> dict:
    return outcome.of("turn_started")[0]


# ---- the reinforcement: continent after a round, minimum over the total ----------------
def carols_turn_ending(alice_owns, **rules):
    """Carol fortifies (the turn before Alice's); Alice holds `alice_owns`, Bob the rest."""
    owners = {**dict.fromkeys(alice_owns, ALICE), "peru": CAROL, "brazil": CAROL}
    return given(position(owners=owners, rest=BOB, seat=CAROL, phase="fortify", **rules))


def test_it_pays_a_continent_at_once_by_default():
    outcome = when(carols_turn_ending(AUSTRALIA), CAROL, END_TURN)

    assert turn_started(outcome)["continents"] == {"australia": 2}


def test_it_pays_no_continent_on_a_players_first_turn_under_continent_bonus_after_round():
    outcome = when(carols_turn_ending(AUSTRALIA, continent_bonus_after_round=True), CAROL,
                   END_TURN)

    started = turn_started(outcome)
    assert (started["seat"], started["continents"], started["total"]) == (ALICE, {}, 3)


def alice_takes_indonesia_then_a_round_passes(**rules):
    """Two players, no neutral: Alice holds Australia but Indonesia, takes it, and Bob plays
    his turn; returns the turn_started of Alice's next turn and the state after it."""
    owners = {**dict.fromkeys(AUSTRALIA[1:], ALICE), "siam": ALICE, "indonesia": BOB}
    state = given(position(players=2, neutral=False, owners=owners, rest=BOB,
                           armies={"siam": 10}, phase="attack", **rules))
    state = play(state, (ALICE, {"type": "attack", "from": "siam", "to": "indonesia"}),
                 (ALICE, {"type": "occupy", "armies": 3}), (ALICE, END_TURN), dice=[6, 6, 6, 1])
    bob_owes = state.reinforcements
    state = play(state, (BOB, {"type": "place", "placements": {
        state.territories_of(BOB)[0]: bob_owes}}))
    outcome = when(state, BOB, END_TURN)
    return turn_started(outcome), outcome.state


def test_it_pays_a_continent_taken_in_the_previous_turn_at_once_by_default():
    started, _ = alice_takes_indonesia_then_a_round_passes()

    assert started["continents"] == {"australia": 2}


def test_it_waits_a_round_before_paying_a_continent_under_continent_bonus_after_round():
    started, state = alice_takes_indonesia_then_a_round_passes(continent_bonus_after_round=True)
    assert started["continents"] == {}

    # Held through Bob's turn since this turn started: paid the turn after.
    state = play(state, (ALICE, {"type": "place", "placements": {"siam": state.reinforcements}}))
    state = play(state, (ALICE, END_TURN))
    state = play(state, (BOB, {"type": "place", "placements": {
        state.territories_of(BOB)[0]: state.reinforcements}}))
    assert turn_started(when(state, BOB, END_TURN))["continents"] == {"australia": 2}


@pytest.mark.parametrize("owned, rule, base, total", [
    # six territories with Australia: 6 // 3 = 2, plus 2
    (AUSTRALIA + ["siam", "china"], "territories", 3, 5),
    (AUSTRALIA + ["siam", "china"], "total", 2, 4),
    # four territories, Australia only: nothing from territories, the bonus tops it up
    (AUSTRALIA, "total", 1, 3),
    # no continent: the minimum of 3 either way
    (["siam", "china"], "total", 3, 3),
])
def test_it_applies_the_minimum_of_three_to_what_the_rule_says(owned, rule, base, total):
    outcome = when(carols_turn_ending(owned, minimum_reinforcement=rule), CAROL, END_TURN)

    assert (turn_started(outcome)["base"], turn_started(outcome)["total"]) == (base, total)


# ---- cards: a hand limit, eliminations, forced trades -----------------------------------
def bob_on_kamchatka(alice_hand, bob_hand, players=3, **rules):
    """Bob's last territory is Kamchatka; Alice attacks it from Alaska with 10 armies."""
    owners = {"alaska": ALICE, "kamchatka": BOB, "peru": CAROL, "brazil": CAROL,
              "venezuela": CAROL, "argentina": CAROL, "china": CAROL}
    return given(position(players=players, owners=owners, rest=CAROL,
                          armies={"alaska": 10, "kamchatka": 1},
                          hands={ALICE: list(alice_hand), BOB: list(bob_hand)},
                          phase="attack", **rules))


ATTACK = {"type": "attack", "from": "alaska", "to": "kamchatka"}
WIN = [6, 6, 6, 1]
OCCUPY = {"type": "occupy", "armies": 3}


def eliminating_bob(alice_hand, bob_hand, **rules):
    state = bob_on_kamchatka(alice_hand, bob_hand, **rules)
    return when(play(state, (ALICE, ATTACK), dice=WIN), ALICE, OCCUPY).state


def hand_of(*territories):
    """Cards by territory; in these games none shows a territory Alice holds."""
    return [card(t) for t in territories]


def test_it_trades_after_an_elimination_at_five_under_elimination_trade_at_5():
    alice, bob = hand_of("peru", "brazil", "venezuela"), hand_of("argentina", "china")

    assert eliminating_bob(alice, bob).phase == "attack"  # six by default
    state = eliminating_bob(alice, bob, elimination_trade_at=5)

    assert (state.phase, state.reinforcements) == ("reinforce", 0)
    assert view(state, ALICE)["pending"]["must_trade"]
    refused(state, ALICE, {"type": "attack", "from": "kamchatka", "to": "japan"}, "must_trade")


def test_it_lets_the_cards_of_an_elimination_wait_under_next_reinforce():
    alice, bob = hand_of("peru", "brazil", "venezuela", "argentina"), hand_of("china", "egypt")

    state = eliminating_bob(alice, bob, elimination_trade_when="next_reinforce")

    assert state.phase == "attack" and len(state.players[ALICE].cards) == 6
    assert not view(state, ALICE)["pending"]["must_trade"]
    when(state, ALICE, END_TURN)  # nothing owed before the next reinforce phase


def test_it_trades_down_to_the_hand_limit_when_an_elimination_goes_above_it():
    alice, bob = hand_of("peru", "brazil", "venezuela", "argentina"), hand_of("china", "egypt")
    state = eliminating_bob(alice, bob, elimination_trade_when="next_reinforce", max_cards=5)
    assert (state.phase, view(state, ALICE)["trade_limit"]) == ("reinforce", 5)

    trio = find_set(state.players[ALICE].cards)
    state = when(state, ALICE, {"type": "trade", "cards": trio}).state

    assert len(state.players[ALICE].cards) == 3
    refused(state, ALICE, {"type": "trade", "cards": state.players[ALICE].cards}, "wrong_phase")
    after = when(state, ALICE, {"type": "place", "placements": {"alaska": state.reinforcements}})
    assert after.state.phase == "attack"


def test_it_stops_at_the_hand_limit_not_at_four():
    seven = hand_of("peru", "brazil", "venezuela", "argentina", "china", "egypt", "congo")
    state = eliminating_bob(seven[:4], seven[4:] + [card("ural")], max_cards=7,
                            elimination_trade_at=10)
    assert len(state.players[ALICE].cards) == 8 and state.phase == "reinforce"

    state = when(state, ALICE, {"type": "trade", "cards": find_set(state.players[ALICE].cards)})
    state = state.state

    assert len(state.players[ALICE].cards) == 5 and not state.trade_owed(ALICE)


def find_set(hand):
    return list(find_sets(hand)[0])


def alice_conquered_with(hand, **rules):
    """Alice has taken Kamchatka this turn (Bob keeps Japan) and holds `hand`."""
    owners = {"alaska": ALICE, "kamchatka": BOB, "japan": BOB, "peru": CAROL,
              "brazil": CAROL, "venezuela": CAROL, "argentina": CAROL, "china": CAROL}
    state = given(position(owners=owners, rest=CAROL, armies={"alaska": 10, "kamchatka": 1},
                           hands={ALICE: list(hand)}, phase="attack", **rules))
    return play(state, (ALICE, ATTACK), (ALICE, OCCUPY), dice=WIN)


def test_it_draws_the_turns_card_when_the_turn_ends_by_default():
    state = alice_conquered_with([])

    assert when(state, ALICE, END_ATTACK).types() == ["attack_ended"]
    assert when(state, ALICE, END_TURN).types()[:2] == ["card_drawn", "turn_ended"]


def test_it_draws_the_turns_card_before_fortifying_under_before_fortify():
    state = alice_conquered_with([], card_draw="before_fortify")

    outcome = when(state, ALICE, END_ATTACK)

    assert outcome.types() == ["attack_ended", "card_drawn"]
    assert outcome.state.phase == "fortify" and len(outcome.state.players[ALICE].cards) == 1
    assert when(outcome.state, ALICE, END_TURN).types()[0] == "turn_ended"  # no second card


def test_it_draws_before_a_fortification_sent_in_the_attack_phase_under_before_fortify():
    state = alice_conquered_with([], card_draw="before_fortify")

    outcome = when(state, ALICE, {"type": "fortify", "from": "alaska", "to": "kamchatka",
                                  "armies": 1})

    assert outcome.types()[:2] == ["card_drawn", "fortified"]


def test_it_draws_no_card_in_a_game_without_cards():
    state = alice_conquered_with([], cards=False)

    assert "card_drawn" not in when(state, ALICE, END_TURN).types()


def test_it_makes_a_player_at_the_hand_limit_trade_for_the_turns_card():
    """Czech: five cards at most. A conquest's card taking the hand to six is traded down
    at once; the turn ends with the traded armies placed."""
    five = hand_of("peru", "brazil", "venezuela", "argentina", "egypt")
    # Five cards in the attack phase: an elimination brought them (not above the limit).
    state = eliminating_bob(five[:4], five[4:], max_cards=5)
    assert state.phase == "attack" and len(state.players[ALICE].cards) == 5

    outcome = when(state, ALICE, END_TURN)

    assert outcome.types() == ["card_drawn"]
    state = outcome.state
    assert (state.phase, state.current, view(state, ALICE)["trade_limit"]) == (
        "reinforce", ALICE, 5)
    refused(state, ALICE, END_TURN, "must_trade")
    state = when(state, ALICE, {"type": "trade", "cards": find_set(state.players[ALICE].cards)}
                 ).state
    outcome = when(state, ALICE, {"type": "place", "placements": {"alaska": state.reinforcements}})
    assert outcome.types()[:3] == ["armies_placed", "turn_ended", "turn_started"]
    assert turn_started(outcome)["seat"] == CAROL


def test_it_trades_for_an_absent_player_at_the_hand_limit():
    five = hand_of("peru", "brazil", "venezuela", "argentina", "egypt")
    state = eliminating_bob(five[:4], five[4:], max_cards=5)

    outcome = timeout(state)

    assert outcome.types()[:5] == ["turn_timed_out", "card_drawn", "cards_traded",
                                   "armies_placed", "turn_ended"]
    assert len(outcome.state.players[ALICE].cards) == 3


@pytest.mark.parametrize("value", [4, 0, "5", True, 45])
def test_it_refuses_a_hand_limit_below_five_or_not_a_number(value):
    assert "max_cards" in refuses({"max_cards": value})


@pytest.mark.parametrize("value", [4, "6", 45])
def test_it_refuses_an_elimination_threshold_below_five(value):
    assert "elimination_trade_at" in refuses({"elimination_trade_at": value})


EIGHT = hand_of("peru", "brazil", "venezuela", "argentina",  # infantry/cavalry/artillery mix
                "china", "egypt", "congo", "ural")


def alice_reinforcing_with(hand, **rules):
    """Alice holds Japan and Kamchatka; Carol every territory on her cards, Bob the rest."""
    shown = {CARDS[c][0]: CAROL for c in hand if CARDS[c][0]}
    return given(position(owners={**shown, "japan": ALICE, "kamchatka": ALICE}, rest=BOB,
                          hands={ALICE: list(hand)}, **rules))


def test_it_forces_trades_until_fewer_than_five_remain_by_default():
    state = alice_reinforcing_with(EIGHT)
    state = when(state, ALICE, {"type": "trade", "cards": find_set(EIGHT)}).state

    assert len(state.players[ALICE].cards) == 5
    refused(state, ALICE, {"type": "place", "placements": {"japan": 1}}, "must_trade")


def test_it_forces_one_set_only_under_one_set():
    state = alice_reinforcing_with(EIGHT, forced_trade="one_set")
    refused(state, ALICE, {"type": "place", "placements": {"japan": 1}}, "must_trade")

    state = when(state, ALICE, {"type": "trade", "cards": find_set(EIGHT)}).state

    assert len(state.players[ALICE].cards) == 5
    assert not view(state, ALICE)["pending"]["must_trade"]
    assert "trade" in view(state, ALICE)["you"]["may"]["commands"]  # more by choice
    outcome = when(state, ALICE, {"type": "place", "placements": {"japan": state.reinforcements}})
    assert outcome.state.phase == "attack"


def test_it_puts_traded_cards_on_the_discard_pile_by_default():
    hand = [I1, I2, I3]
    state = alice_reinforcing_with(hand)

    after = when(state, ALICE, {"type": "trade", "cards": hand}).state

    assert after.discard == hand and after.deck == state.deck


def test_it_puts_traded_cards_under_the_draw_pile_in_the_order_traded_under_bottom():
    hand = [I3, I1, I2]
    state = alice_reinforcing_with(hand, traded_cards="bottom")

    after = when(state, ALICE, {"type": "trade", "cards": hand}).state

    assert after.discard == [] and after.deck == state.deck + [I3, I1, I2]


# ---- the two-player neutral's dice -------------------------------------------------------
def alice_attacking_the_neutral(**rules):
    return given(position(players=2, owners={"alaska": ALICE, "kamchatka": NEUTRAL},
                          armies={"alaska": 10, "kamchatka": 2}, phase="attack", **rules))


NEUTRAL_ATTACK = {"type": "attack", "from": "alaska", "to": "kamchatka", "dice": 3}


def test_it_defends_the_neutral_with_two_dice_whatever_the_opponent_says_by_default():
    state = alice_attacking_the_neutral()
    refused(state, BOB, {"type": "set_defense", "policy": "one", "neutral": True}, "bad_command")

    outcome = when(state, ALICE, NEUTRAL_ATTACK, dice=[1, 1, 1, 6, 6])

    assert len(outcome.of("battle")[0]["defender_dice"]) == 2


def test_it_lets_the_player_not_attacking_decide_the_neutrals_dice_under_opponent():
    state = alice_attacking_the_neutral(neutral_dice="opponent")
    assert len(when(state, ALICE, NEUTRAL_ATTACK, dice=[1, 1, 1, 6, 6]).of("battle")[0][
        "defender_dice"]) == 2  # the maximum until the opponent says otherwise

    outcome = when(state, BOB, {"type": "set_defense", "policy": "one", "neutral": True})
    assert outcome == [("defense_set", {"seat": BOB, "policy": "one", "neutral": True})]
    state = outcome.state
    assert state.players[BOB].defense == "max"  # Bob's own defence is not changed
    assert view(state, BOB)["you"]["neutral_defense"] == "one"

    battle = when(state, ALICE, NEUTRAL_ATTACK, dice=[1, 1, 1, 6]).of("battle")[0]
    assert battle["defender_dice"] == [6]


# ---- capitals: the capital's card out ------------------------------------------------------
def capitals_chosen(**rules):
    state = start(3, setup="random", objective="capitals", **rules).state
    assert state.phase == "capital"
    for seat in (ALICE, BOB, CAROL):
        state = when(state, seat, {"type": "choose_capital",
                                   "territory": state.territories_of(seat)[0]}).state
    return state


def test_it_keeps_every_card_in_the_deck_by_default():
    assert len(capitals_chosen().deck) == 44


def test_it_takes_each_capitals_card_out_of_the_deck_under_capital_card_out():
    state = capitals_chosen(capital_card_out=True)

    capitals = [p.capital for p in state.players]
    assert sorted(CARDS[c][0] for c in state.removed) == sorted(capitals)
    assert len(state.deck) == 41 and not set(state.removed) & set(state.deck)
    assert state.phase == "reinforce"


# ---- play order ----------------------------------------------------------------------------
def everyone_placed(picks=(), **rules):
    state = start(3, initial_placement="simultaneous", **rules).state
    outcome = None
    for seat in (ALICE, BOB, CAROL):
        spot = state.territories_of(seat)[0]
        outcome = when(state, seat, {"type": "place", "placements": {
            spot: state.players[seat].setup_armies}}, picks=picks if seat == CAROL else ())
        state = outcome.state
    return outcome


def test_it_plays_on_in_the_order_drawn_at_the_start_by_default():
    outcome = everyone_placed()

    assert "play_order_drawn" not in outcome.types()
    assert turn_started(outcome)["seat"] == ALICE


def test_it_draws_who_plays_first_afresh_after_setup_under_redraw():
    outcome = everyone_placed(picks=[2], play_order="redraw")

    assert outcome.of("play_order_drawn") == [{"order": [CAROL, ALICE, BOB]}]
    assert turn_started(outcome)["seat"] == CAROL
    assert outcome.state.order == [CAROL, ALICE, BOB]


# ---- presets -------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_it_starts_from_a_rulebooks_options_and_records_the_preset(name):
    rules = validate_rules({"preset": name}, 3)

    assert rules.preset == name
    for key, value in PRESETS[name].items():
        assert getattr(rules, key) == value, key


def test_it_lets_other_keys_override_the_preset():
    rules = validate_rules({"preset": "czech", "max_cards": 7, "fortify": "adjacent"}, 4)

    assert (rules.max_cards, rules.fortify, rules.continent_bonus_after_round) == (
        7, "adjacent", True)


def test_it_refuses_an_unknown_preset():
    assert "czech, polish, encyclopedia, howto, online" in refuses({"preset": "german"})


def test_the_online_preset_plays_without_cards_or_neutral():
    rules = validate_rules({"preset": "online"}, 2)

    assert (rules.cards, rules.neutral, rules.setup, rules.minimum_reinforcement) == (
        False, False, "random", "total")


# ---- what the presets set from the rulebooks' own text (docs/players/rulebooks.md "The presets") ----
def test_the_howto_preset_sets_up_by_claiming():
    """How-to article: "One at a time each player places one army … in any one of the 42
    unoccupied territories … Once every territory has been claimed players continue to
    place one army on any territory they control." """
    outcome = start(3, preset="howto")

    assert "territories_dealt" not in outcome.types()
    assert (outcome.state.phase, outcome.state.current) == ("claim", ALICE)
    claimed = when(outcome.state, ALICE, {"type": "claim", "territory": "alaska"})
    assert claimed == [("territory_claimed", {"seat": ALICE, "territory": "alaska"})]
    assert claimed.state.current == BOB


def test_the_encyclopedia_preset_plays_its_standard_setup_by_claiming():
    """Encyclopedia: the standard setup is taking turns claiming territories; dealing them
    out is its alternate method (docs/players/rulebooks.md: "the encyclopedia's standard method")."""
    outcome = start(3, preset="encyclopedia")

    assert outcome.state.rules.setup == "claim"
    assert "territories_dealt" not in outcome.types()
    assert (outcome.state.phase, outcome.state.current) == ("claim", ALICE)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_czech_preset_is_a_missions_game(players):
    """Czech: "Vyhrává ten hráč, který splnil úkol (misi)" (the winner is the player who
    fulfilled their mission)."""
    outcome = start(players, preset="czech")

    assert outcome.state.rules.objective == "missions"
    assert len(outcome.of("missions_dealt")[0]["missions"]) == players
    assert all(player.mission for player in outcome.state.players)


@pytest.mark.parametrize("raw", [{"preset": "czech"},
                                 {"preset": "czech", "objective": "domination"}])
def test_the_czech_preset_refuses_two_players(raw):
    """Czech: "Je určena pro tři až šest hráčů" (it is meant for three to six players)."""
    assert "three to six players" in refuses(raw, players=2)


def alice_trading_three_of_her_own(**rules):
    """Alice trades three infantry cards, each showing a territory she holds; returns the
    state before and the outcome."""
    hand = [I1, I2, I3]
    owners = {CARDS[c][0]: ALICE for c in hand}
    missions = ["occupy_24"] * 3 if rules.get("preset") == "czech" else None
    state = given(position(owners=owners, rest=BOB, hands={ALICE: hand}, missions=missions,
                           **rules))
    return state, when(state, ALICE, {"type": "trade", "cards": hand})


def test_it_pays_one_traded_territory_by_default():
    _, outcome = alice_trading_three_of_her_own()

    assert outcome.of("cards_traded")[0]["bonus"] == {"argentina": 2}


@pytest.mark.parametrize("preset", ["czech", "polish"])
def test_the_czech_and_polish_presets_pay_each_traded_territory(preset):
    """Czech: "Pokud hráč vlastní území vyobrazeném na kartě, získá navíc +2 armády na toto
    území"; Polish: "Jeśli na wymienianej karcie znajduje się terytorium należące do gracza,
    otrzymuje on dwa Premiowe Bataliony": +2 for each traded card showing an own territory."""
    before, outcome = alice_trading_three_of_her_own(preset=preset)

    assert outcome.state.rules.card_territory_bonus == "each"
    assert outcome.of("cards_traded")[0]["bonus"] == {
        "argentina": 2, "alaska": 2, "china": 2}
    for territory in ("argentina", "alaska", "china"):
        assert outcome.state.armies[territory] == before.armies[territory] + 2


# ---- the neutral's half after a missed reinforcement ----------------------------------------
def alice_missed_her_reinforcement(**kwargs):
    """Two players and the neutral: Alice's reinforcement timed out."""
    return timeout(given(position(players=2, **kwargs)))


def test_it_leaves_the_neutrals_half_of_a_missed_reinforcement_to_the_opponent():
    """docs/players/rules.md: the neutral's half is placed "by the other player after the reinforcing
    player has placed theirs"; a missed deadline completes the owed decision only."""
    outcome = alice_missed_her_reinforcement()

    assert outcome.types() == ["turn_timed_out", "armies_placed"]
    placed = outcome.of("armies_placed")[0]
    assert placed["seat"] == ALICE and placed["auto"]
    state = outcome.state
    share = sum(placed["placements"].values()) // 2
    assert (state.phase, state.turn_seat, state.current, state.reinforcements) == (
        "neutral_place", ALICE, BOB, share)
    assert view(state, BOB)["pending"]["reinforcements"] == share
    assert "place_neutral" in view(state, BOB)["you"]["may"]["commands"]


def test_it_lets_the_opponent_miss_the_neutrals_half_of_a_missed_reinforcement_too():
    state = alice_missed_her_reinforcement().state

    outcome = timeout(state)

    assert outcome.types() == ["turn_timed_out", "armies_placed", "turn_ended", "turn_started"]
    assert outcome[0] == ("turn_timed_out", {"seat": BOB, "missed": 1})
    assert outcome[1][1]["seat"] == NEUTRAL and outcome[1][1]["auto"]
    assert turn_started(outcome)["seat"] == BOB
    assert [p.missed_turns for p in outcome.state.players] == [1, 1]


def test_it_spreads_the_neutrals_half_of_a_missed_reinforcement_under_auto():
    outcome = alice_missed_her_reinforcement(neutral_reinforcement="auto")

    assert outcome.types() == ["turn_timed_out", "armies_placed", "armies_placed",
                               "turn_ended", "turn_started"]
    assert outcome[2][1]["seat"] == NEUTRAL and outcome[2][1]["auto"]


def test_it_keeps_the_automatic_spread_in_games_started_before_the_change():
    """Stored games play on as they began: engine 2 spread the neutral's half itself."""
    outcome = alice_missed_her_reinforcement(engine=2)

    assert outcome.types() == ["turn_timed_out", "armies_placed", "armies_placed",
                               "turn_ended", "turn_started"]
    assert outcome[2][1]["seat"] == NEUTRAL and outcome[2][1]["auto"]
    assert turn_started(outcome)["seat"] == BOB


# ---- where docs/players/rules.md is silent: the engine's choices (docs/players/rulebooks.md "Rules the engine chose") ----
def test_decision_the_neutral_halves_the_reinforcement_without_a_sets_territory_bonus():
    """A set's territory bonus goes straight onto the territory; it is not part of the
    reinforcement the player places, so the neutral's half does not count it."""
    hand = [card("alaska"), card("argentina"), card("china")]  # three infantry, Alaska hers
    state = given(position(players=2, owners={"alaska": ALICE, "kamchatka": NEUTRAL},
                           hands={ALICE: hand}))
    base = state.reinforcements
    outcome = when(state, ALICE, {"type": "trade", "cards": hand, "bonus_territory": "alaska"})
    assert outcome.of("cards_traded")[0]["bonus"] == {"alaska": 2}
    state = outcome.state

    after = when(state, ALICE, {"type": "place", "placements": {
        "alaska": state.reinforcements}}).state

    assert (after.phase, after.reinforcements) == ("neutral_place", (base + 4) // 2)


def test_decision_a_missed_turn_ends_once_the_opponent_has_placed_the_neutrals_half():
    """docs/players/rules.md has the opponent place the neutral's half and a missed deadline end the
    turn; the turn ends as soon as the half is placed, without waiting on the absent player
    a second time (one absence, one miss)."""
    state = alice_missed_her_reinforcement().state

    outcome = when(state, BOB, {"type": "place_neutral", "placements": {
        state.territories_of(NEUTRAL)[0]: state.reinforcements}})

    assert outcome.types() == ["armies_placed", "turn_ended", "turn_started"]
    assert outcome[0][1]["seat"] == NEUTRAL and outcome[0][1]["by"] == BOB
    assert outcome[1] == ("turn_ended", {"seat": ALICE})
    assert turn_started(outcome)["seat"] == BOB
    assert [p.missed_turns for p in outcome.state.players] == [1, 0]


@pytest.mark.parametrize("trio, values, worth", [
    ((card("alaska"), *WILDS), None, 10),  # infantry or one of each: the mixed 10
    ((card("peru"), card("brazil"), WILDS[0]), None, 10),  # two kinds and a wild: mixed
    ((card("argentina"), card("alaska"), WILDS[0]), None, 4),  # only three infantry
    ((card("argentina"), card("alaska"), WILDS[0]),
     {"infantry": 12, "cavalry": 6, "artillery": 8, "mixed": 10}, 12),
])
def test_decision_a_set_with_a_wild_is_worth_the_most_it_can_count_as(trio, values, worth):
    rules = {"card_values": "fixed"} | ({"fixed_values": values} if values else {})
    state = alice_reinforcing_with(list(trio), **rules)

    assert when(state, ALICE, {"type": "trade", "cards": list(trio)}).of("cards_traded")[0][
        "value"] == worth


def test_decision_setup_placement_follows_the_drawn_turn_order_not_the_seats():
    state = start(3, rng=ScriptedDice(shuffles=[[2, 0, 1]])).state

    assert state.order == [CAROL, ALICE, BOB]
    assert state.current == CAROL
    spot = state.territories_of(CAROL)[0]
    assert when(state, CAROL, {"type": "place", "placements": {spot: 1}}).state.current == ALICE
