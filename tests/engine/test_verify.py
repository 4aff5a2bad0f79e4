"""verify() replays a record through the rules: a forged event whose draws still match the
seed is caught where the rules would not have produced it, not only a die that differs."""

from __future__ import annotations

import copy

from engine import FairDice, replay, verify
from engine.turn import defender_dice, losses, roll
from tests.engine.test_properties import play_game


def honest(game_number=3, **rules):
    record = play_game(game_number, timeouts=0.05, **rules)[2]
    assert verify(record).ok
    return copy.deepcopy(record)


def state_before(record, event):
    return replay(record["events"][: event.seq - 1])


def first_problem(record) -> str:
    result = verify(record)
    assert not result.ok
    return result.problems[0]


def test_it_rejects_more_attacker_dice_than_the_armies_allow_even_with_the_seeds_dice():
    record = honest()
    dice = FairDice(record["seed"], record["id"])
    for event in record["events"]:
        if event.type != "battle":
            continue
        state = state_before(record, event)
        if state.armies[event.data["from"]] <= 3 and len(event.data["attacker_dice"]) < 3:
            break
    else:
        raise AssertionError("no battle with a small attacking army")
    # The seed's own dice for three attackers: only the count is against the rules.
    attacker, defending = roll(dice.at(event.seq), 3, defender_dice(state, event.data["to"]))
    attacker_losses, defender_losses = losses(attacker, defending)
    event.data.update(attacker_dice=attacker, defender_dice=defending,
                      attacker_losses=attacker_losses, defender_losses=defender_losses)

    assert first_problem(record).startswith(f"event {event.seq}: battle the rules would not")


def test_it_rejects_a_battle_whose_conquest_flag_was_flipped():
    record = honest()
    event = next(e for e in record["events"] if e.type == "battle" and not e.data["conquered"])
    event.data["conquered"] = True

    assert first_problem(record).startswith(f"event {event.seq}: battle the rules would not")


def test_it_rejects_a_random_starting_placement_altered_and_unmarked():
    record = honest(setup="random")
    event = next(e for e in record["events"] if e.type == "armies_placed" and e.data.get("random"))
    placements = event.data["placements"]
    first, *_ = placements
    state = state_before(record, event)
    other = next(t for t in state.territories_of(event.data["seat"]) if t != first)
    placements[first] -= 1
    placements[other] = placements.get(other, 0) + 1
    if not placements[first]:
        del placements[first]
    del event.data["random"]

    assert first_problem(record).startswith(f"event {event.seq}: armies_placed")


def test_it_rejects_a_card_drawn_by_a_player_whose_turn_it_is_not():
    record = honest()
    event = next(e for e in record["events"] if e.type == "card_drawn")
    players = state_before(record, event).seats
    event.data["seat"] = (event.data["seat"] + 1) % players

    assert first_problem(record).startswith(f"event {event.seq}: card_drawn")


def test_it_rejects_an_inflated_reinforcement():
    record = honest()
    event = next(e for e in record["events"] if e.type == "turn_started")
    event.data["total"] += 5
    event.data["base"] += 5

    assert first_problem(record).startswith(f"event {event.seq}: turn_started")


def test_it_rejects_a_trade_worth_more_than_the_rules_give():
    for number in range(3, 40):
        record = honest(number)
        event = next((e for e in record["events"] if e.type == "cards_traded"), None)
        if event is not None:
            break
    event.data["value"] += 10

    assert first_problem(record).startswith(f"event {event.seq}: cards_traded")


def test_it_rejects_a_gap_in_the_numbering():
    record = honest()
    del record["events"][20]

    assert first_problem(record).startswith("event 22")


def test_it_reports_an_event_of_a_type_the_rules_do_not_know_instead_of_skipping_it():
    record = honest()
    event = record["events"][5]
    record["events"][5] = type(event)(event.seq, "forged", {}, event.actor)

    assert first_problem(record) == (
        "event 6: forged the rules would not produce: an event of a type the rules do not "
        "know (forged)")


def test_it_rejects_a_captured_capital_that_hands_over_other_cards():
    record = honest(1, objective="capitals", team_size=1)
    event = next(e for e in record["events"]
                 if e.type == "capital_captured" and e.data["cards"])
    state = state_before(record, event)
    event.data["cards"] = [c for c in range(44) if c not in state.players[event.data["owner"]]
                           .cards][:len(event.data["cards"])]

    assert first_problem(record).startswith(
        f"event {event.seq}: capital_captured the rules would not produce: takes other cards")


def test_it_rejects_a_capture_of_a_territory_that_is_no_capital():
    record = honest(1, objective="capitals", team_size=1)
    event = next(e for e in record["events"] if e.type == "capital_captured")
    state = state_before(record, event)
    event.data["territory"] = next(t for t, owner in state.owner.items()
                                   if owner == event.data["seat"] and state.is_capital(t) is None)

    assert first_problem(record).startswith(
        f"event {event.seq}: capital_captured the rules would not produce: captures a territory "
        "that is not another player's capital")
