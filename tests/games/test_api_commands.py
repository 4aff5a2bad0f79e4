"""POST /api/v1/games/{id}/commands/: every command of docs/bots/contract.md, and every refusal, which
must leave the game exactly as it was."""

from __future__ import annotations

import random

import pytest

from engine.board import NEIGHBOURS, NEUTRAL
from engine.cards import find_sets
from games.models import Game
from tests.games.api_support import (
    API,
    assert_error,
    assert_event,
    assert_game_view,
    game_url,
    play,
    send,
    send_raw,
    state_of,
    unchanged,
)
from tests.games_in_states import new_game


@pytest.fixture
def trio(alice, bob, charlie):
    return {0: alice, 1: bob, 2: charlie}


def started(clients: dict, **rules) -> int:
    seats = [clients[s] for s in sorted(clients)]
    return new_game(seats[0], *seats[1:], **rules)


def accepted(answer, seat: int, before: int) -> dict:
    """docs/bots/contract.md: 201 {version, events: [...], game: view}, the events following `before`."""
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert {"version", "events", "game"} <= set(body)
    assert body["events"], body
    for event in body["events"]:
        assert_event(event)
    assert [e["seq"] for e in body["events"]] == list(range(before + 1, body["version"] + 1))
    assert_game_view(body["game"], seat=seat)
    assert body["game"]["version"] == body["version"]
    return body


def in_attack(game_id: int, clients: dict):
    """The seat to move puts all its reinforcements on a border territory: the attack phase."""
    state = state_of(game_id)
    seat = state.current
    border = next(t for t in state.border_territories(seat)
                  if any(state.owner[n] != seat for n in NEIGHBOURS[t]))
    answer = send(clients[seat], game_id, {"type": "place",
                                           "placements": {border: state.reinforcements}})
    assert answer.status_code == 201, answer.content
    state = state_of(game_id)
    assert state.phase == "attack" and state.current == seat
    return state, seat, border


def enemy_next_to(state, territory: str, seat: int) -> str:
    return next(n for n in NEIGHBOURS[territory] if state.owner[n] != seat)


# ---- the answer ------------------------------------------------------------------------
def test_it_answers_the_new_version_the_events_and_the_sender_s_view(alice, bob):
    clients = {0: alice, 1: bob}
    game_id = started(clients, placement_batch=2)
    state = state_of(game_id)
    seat = state.current
    territory = state.territories_of(seat)[0]
    body = accepted(send(clients[seat], game_id, {"type": "place",
                                                 "placements": {territory: 2}}),
                    seat, state.version)
    placed = [e for e in body["events"] if e["type"] == "armies_placed"]
    assert placed[0]["data"] == {"seat": seat, "placements": {territory: 2}}
    assert placed[0]["actor"] == seat
    assert body["game"]["territories"][territory]["armies"] == state.armies[territory] + 2
    assert body["version"] == Game.objects.get(pk=game_id).version


def test_it_answers_the_events_as_get_events_shows_them_to_the_sender(trio):
    game_id = started(trio, setup="random")
    state = state_of(game_id)
    seat = state.current
    body = send(trio[seat], game_id, {"type": "place", "placements": {
        state.territories_of(seat)[0]: state.reinforcements}}).json()
    shown = trio[seat].get(game_url(game_id, "events/"), {"after": state.version}).json()
    assert shown == {"version": body["version"], "events": body["events"]}


def test_it_takes_the_right_expected_version(alice, bob):
    clients = {0: alice, 1: bob}
    game_id = started(clients)
    state = state_of(game_id)
    seat = state.current
    command = {"type": "place", "placements": {state.territories_of(seat)[0]: 1},
               "expected_version": state.version}
    accepted(send(clients[seat], game_id, command), seat, state.version)


# ---- every command ---------------------------------------------------------------------
def test_it_claims_a_territory(alice, bob):
    clients = {0: alice, 1: bob}
    game_id = started(clients, setup="claim")
    state = state_of(game_id)
    assert state.phase == "claim"
    seat = state.current
    free = state.territories_of(None)[0]
    body = accepted(send(clients[seat], game_id, {"type": "claim", "territory": free}),
                    seat, state.version)
    assert body["events"][0]["type"] == "territory_claimed"
    assert body["events"][0]["data"] == {"seat": seat, "territory": free}
    assert body["game"]["territories"][free] == {"owner": seat, "armies": 1}
    assert body["game"]["current_seat"] == 1 - seat


def test_it_refuses_a_claimed_territory(alice, bob):
    clients = {0: alice, 1: bob}
    game_id = started(clients, setup="claim")
    state = state_of(game_id)
    taken = state.territories_of(NEUTRAL)[0]
    with unchanged(game_id):
        assert_error(send(clients[state.current], game_id,
                          {"type": "claim", "territory": taken}), 400, "bad_placement")


def test_it_takes_a_whole_simultaneous_placement_and_waits_for_the_others(trio):
    game_id = started(trio, initial_placement="simultaneous")
    state = state_of(game_id)
    own = state.territories_of(1)
    body = accepted(send(trio[1], game_id, {"type": "place", "placements": {
        own[0]: 11, own[1]: 10}}), 1, state.version)
    assert [e["type"] for e in body["events"]] == ["placement_submitted"]
    assert body["game"]["phase"] == "setup_place"
    assert body["game"]["pending"]["reinforcements"] == 0
    with unchanged(game_id):  # once in, it is in
        assert_error(send(trio[1], game_id, {"type": "place", "placements": {own[0]: 21}}),
                     403, "not_your_turn")
    with unchanged(game_id):  # the whole remainder at once
        assert_error(send(trio[0], game_id, {"type": "place", "placements": {
            state.territories_of(0)[0]: 20}}), 400, "bad_placement")


def test_it_takes_a_capital(trio):
    game_id = started(trio, setup="random", objective="capitals")
    state = state_of(game_id)
    assert state.phase == "capital"
    mine = state.territories_of(2)[3]
    body = accepted(send(trio[2], game_id, {"type": "choose_capital", "territory": mine}),
                    2, state.version)
    assert body["events"][0]["type"] == "capital_chosen"
    assert body["game"]["you"]["capital"] == mine
    with unchanged(game_id):
        assert_error(send(trio[0], game_id, {"type": "choose_capital",
                                             "territory": mine}), 400, "not_owner")


def test_it_places_reinforcements_in_parts(trio):
    game_id = started(trio, setup="random")
    state = state_of(game_id)
    seat = state.current
    owed = state.reinforcements
    first, second = state.territories_of(seat)[:2]
    body = accepted(send(trio[seat], game_id, {"type": "place", "placements": {first: 1}}),
                    seat, state.version)
    assert body["game"]["phase"] == "reinforce"
    assert body["game"]["pending"]["reinforcements"] == owed - 1
    body = accepted(send(trio[seat], game_id, {"type": "place", "placements": {
        second: owed - 1}}), seat, body["version"])
    assert body["game"]["phase"] == "attack"
    assert body["game"]["pending"]["reinforcements"] == 0


def test_it_attacks_occupies_ends_the_attack_and_fortifies(trio):
    game_id = started(trio, setup="random", occupy_minimum="one")
    state, seat, border = in_attack(game_id, trio)
    client = trio[seat]
    target = enemy_next_to(state, border, seat)
    body = accepted(send(client, game_id, {"type": "attack", "from": border, "to": target,
                                           "dice": 1}), seat, state.version)
    battle = body["events"][0]
    assert battle["type"] == "battle"
    assert {"seat", "from", "to", "attacker_dice", "defender_dice", "attacker_losses",
            "defender_losses", "conquered"} <= set(battle["data"])
    assert len(battle["data"]["attacker_dice"]) == 1
    if not battle["data"]["conquered"]:
        # Roll on until it falls (or the attacker cannot go on), each roll its own battle.
        body = accepted(send(client, game_id, {"type": "attack", "from": border, "to": target,
                                               "repeat": True}), seat, body["version"])
        assert all(e["type"] == "battle" for e in body["events"])
        assert len(body["events"]) >= 1
    state = state_of(game_id)
    if state.phase == "occupy":
        occupy = body["game"]["pending"]["occupy"]
        assert occupy == {"from": border, "to": target, "min": 1,
                          "max": state.armies[border] - 1}
        body = accepted(send(client, game_id, {"type": "occupy", "armies": 1}),
                        seat, state.version)
        assert body["events"][0]["type"] == "occupied"
        assert body["events"][0]["data"] == {"from": border, "to": target, "armies": 1}
    body = accepted(send(client, game_id, {"type": "end_attack"}), seat, body["version"])
    assert body["game"]["phase"] == "fortify"
    state = state_of(game_id)
    source, to = next((a, b) for a in state.territories_of(seat) if state.armies[a] >= 2
                      for b in NEIGHBOURS[a] if state.owner[b] == seat)
    body = accepted(send(client, game_id, {"type": "fortify", "from": source, "to": to,
                                           "armies": 1}), seat, state.version)
    assert body["events"][0]["type"] == "fortified"
    assert body["events"][0]["data"] == {"from": source, "to": to, "armies": 1}
    assert body["game"]["current_seat"] != seat  # fortifying ends the turn
    assert "turn_ended" in [e["type"] for e in body["events"]]
    started_turn = next(e for e in body["events"] if e["type"] == "turn_started")
    assert {"seat", "turn", "base", "continents", "total"} <= set(started_turn["data"])


def test_it_spreads_a_fortification_under_spread(trio):
    game_id = started(trio, setup="random", fortify="spread")
    state = state_of(game_id)
    seat = state.current

    def friends_of(territory):
        return [n for n in NEIGHBOURS[territory] if state.owner[n] == seat]

    # The reinforcements go where most own territories border, to be spread from there.
    source = max(state.territories_of(seat), key=lambda t: len(friends_of(t)))
    friends = friends_of(source)[:2]
    assert friends
    send(trio[seat], game_id, {"type": "place", "placements": {source: state.reinforcements}})
    assert send(trio[seat], game_id, {"type": "end_attack"}).status_code == 201
    state = state_of(game_id)
    moves = [{"to": friend, "armies": 1} for friend in friends]
    body = accepted(send(trio[seat], game_id, {"type": "fortify", "from": source,
                                              "moves": moves}), seat, state.version)
    moved = [e["data"] for e in body["events"] if e["type"] == "fortified"]
    assert moved == [{"from": source, "to": friend, "armies": 1} for friend in friends]
    assert body["game"]["territories"][source]["armies"] == state.armies[source] - len(friends)


def test_it_ends_a_turn(trio):
    game_id = started(trio, setup="random")
    state, seat, _ = in_attack(game_id, trio)
    body = accepted(send(trio[seat], game_id, {"type": "end_turn"}), seat, state.version)
    kinds = [e["type"] for e in body["events"]]
    assert kinds[:2] == ["turn_ended", "turn_started"]
    assert body["events"][0]["data"] == {"seat": seat}
    assert body["game"]["current_seat"] == state.next_seat(seat)
    assert body["game"]["turn"] == state.turn + 1


def test_it_lets_the_other_player_place_the_neutral_s_reinforcements(alice, bob):
    clients = {0: alice, 1: bob}
    game_id = started(clients, setup="random")
    state = state_of(game_id)
    seat = state.current
    send(clients[seat], game_id, {"type": "place", "placements": {
        state.territories_of(seat)[0]: state.reinforcements}})
    state = state_of(game_id)
    assert state.phase == "neutral_place" and state.current == 1 - seat
    owed = state.reinforcements
    view = clients[1 - seat].get(game_url(game_id)).json()
    assert view["phase"] == "neutral_place" and view["pending"]["reinforcements"] == owed
    neutral = state.territories_of(NEUTRAL)[0]
    with unchanged(game_id):  # it is the other player's to do
        assert_error(send(clients[seat], game_id, {"type": "place_neutral", "placements": {
            neutral: owed}}), 403, "not_your_turn")
    with unchanged(game_id):
        assert_error(send(clients[1 - seat], game_id, {"type": "place_neutral", "placements": {
            state.territories_of(seat)[0]: owed}}), 400, "not_owner")
    body = accepted(send(clients[1 - seat], game_id, {"type": "place_neutral", "placements": {
        neutral: owed}}), 1 - seat, state.version)
    assert body["events"][0]["data"]["placements"] == {neutral: owed}
    assert body["game"]["phase"] == "attack" and body["game"]["current_seat"] == seat


def test_it_sets_the_defense_policy_at_any_time(alice, bob):
    clients = {0: alice, 1: bob}
    game_id = started(clients)
    waiting = 1 - state_of(game_id).current
    version = state_of(game_id).version
    body = accepted(send(clients[waiting], game_id, {"type": "set_defense", "policy": "one"}),
                    waiting, version)
    assert body["events"][0]["type"] == "defense_set"
    assert body["game"]["you"]["defense"] == "one"
    other = clients[1 - waiting].get(game_url(game_id)).json()
    assert other["you"]["defense"] == "max"


def test_it_sets_the_neutrals_defence_where_the_opponent_decides_it(alice, bob):
    """Polish two-player game (`neutral_dice: opponent`): a standing order like set_defense."""
    clients = {0: alice, 1: bob}
    game_id = started(clients, preset="polish")
    version = state_of(game_id).version
    body = accepted(send(bob, game_id, {"type": "set_defense", "policy": "one",
                                        "neutral": True}), 1, version)
    assert body["events"][0]["data"] == {"seat": 1, "policy": "one", "neutral": True}
    assert body["game"]["you"]["neutral_defense"] == "one"
    assert body["game"]["you"]["defense"] == "max"


def test_it_refuses_a_neutral_defence_the_rules_do_not_give(alice, bob):
    game_id = started({0: alice, 1: bob})
    with unchanged(game_id):
        assert_error(send(bob, game_id, {"type": "set_defense", "policy": "one",
                                         "neutral": True}), 400, "bad_command")


def test_it_lets_a_player_resign_at_any_time(trio):
    game_id = started(trio)
    waiting = next(s for s in trio if s != state_of(game_id).current)
    version = state_of(game_id).version
    body = accepted(send(trio[waiting], game_id, {"type": "resign"}), waiting, version)
    assert body["events"][0]["type"] == "player_dropped"
    assert body["events"][0]["data"]["seat"] == waiting
    assert body["game"]["players"][waiting]["dropped"] is True
    with unchanged(game_id):  # gone is gone
        assert_error(send(trio[waiting], game_id, {"type": "set_defense", "policy": "one"}),
                     403, "not_your_turn")


def test_it_finishes_a_two_player_game_when_one_resigns(alice, bob):
    clients = {0: alice, 1: bob}
    game_id = started(clients)
    version = state_of(game_id).version
    body = accepted(send(bob, game_id, {"type": "resign"}), 1, version)
    assert body["events"][-1]["type"] == "game_finished"
    assert body["events"][-1]["data"] == {"winner": 0, "reason": "domination"}
    assert body["game"]["status"] == "finished" and body["game"]["winner"] == 0
    with unchanged(game_id):
        assert_error(send(alice, game_id, {"type": "end_turn"}), 400, "game_not_active")


def test_it_trades_a_set_of_cards(trio):
    game_id = started(trio, setup="random", placement_batch=100)
    rnd = random.Random(3)

    def can_trade(state):
        return state.phase == "reinforce" and find_sets(state.players[state.current].cards)

    state = play(game_id, trio, rnd, until=can_trade)
    seat = state.current
    cards = list(find_sets(state.players[seat].cards)[0])
    view = trio[seat].get(game_url(game_id)).json()
    assert sorted(c["id"] for c in view["you"]["cards"]) == sorted(state.players[seat].cards)
    body = accepted(send(trio[seat], game_id, {"type": "trade", "cards": cards}),
                    seat, state.version)
    traded = body["events"][0]
    assert traded["type"] == "cards_traded"
    assert {"seat", "cards", "value", "bonus"} <= set(traded["data"])
    assert sorted(traded["data"]["cards"]) == sorted(cards)
    assert body["game"]["pending"]["reinforcements"] == (
        state.reinforcements + traded["data"]["value"])
    assert body["game"]["sets_traded"] == state.sets_traded + 1
    held = {c["id"] for c in body["game"]["you"]["cards"]}
    assert not held & set(cards)
    with unchanged(game_id):  # the same cards again are no longer in hand
        assert_error(send(trio[seat], game_id, {"type": "trade", "cards": cards}),
                     400, "bad_cards")


# ---- refusals by the rules -------------------------------------------------------------
def test_it_answers_403_not_your_turn_out_of_turn(alice, bob):
    clients = {0: alice, 1: bob}
    game_id = started(clients)
    state = state_of(game_id)
    waiting = 1 - state.current
    with unchanged(game_id):
        assert_error(send(clients[waiting], game_id, {"type": "place", "placements": {
            state.territories_of(waiting)[0]: 1}}), 403, "not_your_turn")


def test_it_answers_403_not_your_turn_to_a_turn_command_out_of_turn(trio):
    game_id = started(trio, setup="random")
    state, seat, border = in_attack(game_id, trio)
    other = state.next_seat(seat)
    mine = next(t for t in state.territories_of(other) if state.armies[t] >= 2
                and any(state.owner[n] != other for n in NEIGHBOURS[t]))
    for command in (
        {"type": "attack", "from": mine, "to": enemy_next_to(state, mine, other)},
        {"type": "end_attack"}, {"type": "end_turn"}, {"type": "occupy", "armies": 1},
        {"type": "trade", "cards": [0, 1, 2]},
        {"type": "fortify", "from": mine, "to": mine, "armies": 1},
    ):
        with unchanged(game_id):
            assert_error(send(trio[other], game_id, command), 403, "not_your_turn")


def test_it_answers_403_to_a_player_who_is_not_seated(alice, bob, charlie):
    game_id = new_game(alice, bob)
    for command in ({"type": "end_turn"}, {"type": "resign"},
                    {"type": "set_defense", "policy": "one"}):
        with unchanged(game_id):
            assert_error(send(charlie, game_id, command), 403, "not_seated")


def test_it_answers_401_without_a_token(alice, bob, anonymous):
    game_id = new_game(alice, bob)
    with unchanged(game_id):
        assert_error(send(anonymous, game_id, {"type": "resign"}), 401, "not_authenticated")


def test_it_answers_404_json_for_an_unknown_game(alice):
    assert_error(send(alice, 7777777, {"type": "resign"}), 404, "not_found")


def test_it_answers_400_game_not_active_before_the_start(alice, bob):
    game_id = alice.post(f"{API}/games/", {"name": "Open", "players": 3},
                         format="json").json()["id"]
    bob.post(game_url(game_id, "join/"))
    with unchanged(game_id):
        assert_error(send(alice, game_id, {"type": "resign"}), 400, "game_not_active")
        assert_error(send(bob, game_id, {"type": "set_defense", "policy": "one"}),
                     400, "game_not_active")


def test_it_answers_400_wrong_phase(alice, bob):
    clients = {0: alice, 1: bob}
    game_id = started(clients)
    state = state_of(game_id)
    seat = state.current
    own = state.territories_of(seat)
    for command in ({"type": "attack", "from": own[0], "to": NEIGHBOURS[own[0]][0]},
                    {"type": "end_turn"}, {"type": "claim", "territory": own[0]},
                    {"type": "choose_capital", "territory": own[0]},
                    {"type": "place_neutral", "placements": {own[0]: 1}}):
        with unchanged(game_id):
            assert_error(send(clients[seat], game_id, command), 400, "wrong_phase")


def test_it_answers_the_contract_s_error_codes_in_the_attack_phase(trio):
    game_id = started(trio, setup="random")
    state, seat, border = in_attack(game_id, trio)
    client = trio[seat]
    target = enemy_next_to(state, border, seat)
    far = next(t for t in state.owner if state.owner[t] != seat
               and t not in NEIGHBOURS[border])
    single = next((t for t in state.territories_of(seat) if state.armies[t] == 1
                   and any(state.owner[n] != seat for n in NEIGHBOURS[t])), None)
    theirs = next(t for t in state.owner if state.owner[t] not in (seat, None))
    friend = next((n for n in NEIGHBOURS[border] if state.owner[n] == seat), None)
    cases = [
        ({"type": "attack", "from": border, "to": far}, "not_adjacent"),
        ({"type": "attack", "from": theirs, "to": border}, "not_owner"),
        ({"type": "attack", "from": border, "to": target, "dice": 4}, "bad_dice"),
        ({"type": "attack", "from": border, "to": target, "dice": 0}, "bad_dice"),
        ({"type": "place", "placements": {border: 1}}, "wrong_phase"),
        ({"type": "trade", "cards": [0, 1, 2]}, "wrong_phase"),
        ({"type": "occupy", "armies": 1}, "wrong_phase"),
        ({"type": "fortify", "from": border, "to": far, "armies": 1}, None),
    ]
    if single is not None:
        cases.append(({"type": "attack", "from": single,
                       "to": enemy_next_to(state, single, seat)}, "not_enough_armies"))
    if friend is not None:
        cases.append(({"type": "attack", "from": border, "to": friend}, "bad_target"))
    for command, code in cases:
        with unchanged(game_id):
            assert_error(send(client, game_id, command), 400, code)


def test_it_answers_the_contract_s_error_codes_in_the_reinforce_phase(trio):
    game_id = started(trio, setup="random")
    state = state_of(game_id)
    seat = state.current
    own = state.territories_of(seat)
    theirs = next(t for t in state.owner if state.owner[t] != seat)
    target = next((n for t in own for n in NEIGHBOURS[t] if state.owner[n] != seat
                   and state.armies[t] >= 2), None)
    cases = [
        ({"type": "place", "placements": {theirs: 1}}, "not_owner"),
        ({"type": "place", "placements": {own[0]: state.reinforcements + 1}}, "bad_placement"),
        ({"type": "end_attack"}, "reinforcements_left"),
        ({"type": "end_turn"}, "reinforcements_left"),
        ({"type": "trade", "cards": [0, 1, 2]}, "bad_cards"),
        ({"type": "trade", "cards": [5, 5, 5]}, "bad_cards"),
        ({"type": "trade", "cards": [-1, 99, 10**30]}, "bad_cards"),
        ({"type": "occupy", "armies": 1}, "wrong_phase"),
    ]
    if target is not None:
        source = next(t for t in own if target in NEIGHBOURS[t])
        cases.append(({"type": "attack", "from": source, "to": target},
                      "reinforcements_left"))
    for command, code in cases:
        with unchanged(game_id):
            assert_error(send(trio[seat], game_id, command), 400, code)


# ---- 409: a stale expected_version -----------------------------------------------------
def test_it_answers_409_with_the_current_version_to_a_stale_command(alice, bob):
    clients = {0: alice, 1: bob}
    game_id = started(clients)
    state = state_of(game_id)
    seat = state.current
    command = {"type": "place", "placements": {state.territories_of(seat)[0]: 1}}
    for stale in (0, 1, state.version - 1, state.version + 1, 10**30):
        with unchanged(game_id):
            answer = send(clients[seat], game_id, dict(command, expected_version=stale))
            body = assert_error(answer, 409, "version_conflict")
            assert body["current_version"] == state.version


def test_it_answers_409_even_when_the_stale_command_is_also_illegal(alice, bob):
    clients = {0: alice, 1: bob}
    game_id = started(clients)
    state = state_of(game_id)
    seat = state.current
    theirs = state.territories_of(1 - seat)[0]
    with unchanged(game_id):
        body = assert_error(send(clients[seat], game_id, {
            "type": "place", "placements": {theirs: 1}, "expected_version": state.version - 1,
        }), 409, "version_conflict")
    assert body["current_version"] == state.version


def test_it_answers_409_after_another_player_moved(alice, bob):
    clients = {0: alice, 1: bob}
    game_id = started(clients)
    seen = state_of(game_id).version
    mover = state_of(game_id).current
    # The waiting player changes their defense: the version moves on.
    assert send(clients[1 - mover], game_id, {"type": "set_defense", "policy": "one"}
                ).status_code == 201
    state = state_of(game_id)
    with unchanged(game_id):
        body = assert_error(send(clients[mover], game_id, {
            "type": "place", "placements": {state.territories_of(mover)[0]: 1},
            "expected_version": seen}), 409, "version_conflict")
    assert body["current_version"] == seen + 1


# ---- 400: malformed bodies -------------------------------------------------------------
@pytest.mark.parametrize("raw, content_type", [
    ("", "application/json"),
    ("not json", "application/json"),
    ('{"type": "end_turn"', "application/json"),
    ('{"type": "end_turn"} trailing', "application/json"),
    ("[]", "application/json"),
    ('[{"type": "end_turn"}]', "application/json"),
    ('"end_turn"', "application/json"),
    ("null", "application/json"),
    ("true", "application/json"),
    ("42", "application/json"),
    ('{"type": "occupy", "armies": NaN}', "application/json"),
    ('{"type": "occupy", "armies": Infinity}', "application/json"),
    ('{"type": "occupy", "armies": 1' + "0" * 5000 + "}", "application/json"),
    ('{"type": "end_turn", "x": ' + "[" * 50_000 + "]" * 50_000 + "}", "application/json"),
    ('{"type": "claim", "territory": "\\ud83d"}', "application/json"),
    ('{"type": "\\udc00"}', "application/json"),
    ('{"type": "place", "placements": {"\\ud800": 1}}', "application/json"),
    ("type=end_turn", "application/x-www-form-urlencoded"),
    ("type=end_turn", "text/plain"),
    (b"\xff\xfe{}", "application/json"),
])
def test_it_answers_400_to_a_body_that_is_not_a_json_object(alice, bob, raw, content_type):
    game_id = new_game(alice, bob)
    for client in (alice, bob):  # the player to move and the one waiting
        with unchanged(game_id):
            assert_error(send_raw(client, game_id, raw, content_type), 400)


MALFORMED = [
    {}, {"territory": "alaska"}, {"type": None}, {"type": 5}, {"type": ["place"]},
    {"type": {"name": "place"}}, {"type": ""}, {"type": "teleport"}, {"type": "PLACE"},
    {"type": "timeout"}, {"type": "start_game"},
    {"type": "claim"}, {"type": "claim", "territory": 5}, {"type": "claim", "territory": None},
    {"type": "claim", "territory": ["alaska"]}, {"type": "claim", "territory": ""},
    {"type": "place"}, {"type": "place", "placements": []}, {"type": "place", "placements": {}},
    {"type": "place", "placements": "alaska"}, {"type": "place", "placements": [["alaska", 1]]},
    {"type": "place", "placements": {"alaska": "1"}},
    {"type": "place", "placements": {"alaska": 0}},
    {"type": "place", "placements": {"alaska": -3}},
    {"type": "place", "placements": {"alaska": 1.5}},
    {"type": "place", "placements": {"alaska": 1.0}},
    {"type": "place", "placements": {"alaska": True}},
    {"type": "place", "placements": {"alaska": None}},
    {"type": "place", "placements": {"alaska": {"n": 1}}},
    {"type": "choose_capital"}, {"type": "choose_capital", "territory": 0},
    {"type": "trade"}, {"type": "trade", "cards": "0,1,2"}, {"type": "trade", "cards": [0, 1]},
    {"type": "trade", "cards": [0, 1, 2, 3]}, {"type": "trade", "cards": ["0", "1", "2"]},
    {"type": "trade", "cards": [0, 1, 2.0]}, {"type": "trade", "cards": [True, False, 1]},
    {"type": "trade", "cards": {"0": 1}}, {"type": "trade", "cards": [0, 1, None]},
    {"type": "trade", "cards": [0, 1, 2], "bonus_territory": 7},
    {"type": "attack"}, {"type": "attack", "from": "alaska"}, {"type": "attack", "to": "alaska"},
    {"type": "attack", "from": 1, "to": "alaska"},
    {"type": "attack", "from": "alaska", "to": "kamchatka", "dice": "3"},
    {"type": "attack", "from": "alaska", "to": "kamchatka", "dice": 2.5},
    {"type": "attack", "from": "alaska", "to": "kamchatka", "dice": True},
    {"type": "attack", "from": "alaska", "to": "kamchatka", "repeat": "yes"},
    {"type": "attack", "from": "alaska", "to": "kamchatka", "repeat": 1},
    {"type": "attack", "from": "alaska", "to": "kamchatka", "repeat": None},
    {"type": "occupy"}, {"type": "occupy", "armies": "2"}, {"type": "occupy", "armies": 0},
    {"type": "occupy", "armies": -1}, {"type": "occupy", "armies": 2.5},
    {"type": "occupy", "armies": None}, {"type": "occupy", "armies": [2]},
    {"type": "fortify"}, {"type": "fortify", "from": "alaska"},
    {"type": "fortify", "from": "alaska", "to": "alberta"},
    {"type": "fortify", "from": "alaska", "to": "alberta", "armies": "1"},
    {"type": "fortify", "from": "alaska", "to": "alberta", "armies": 0},
    {"type": "fortify", "from": "alaska", "moves": []},
    {"type": "fortify", "from": "alaska", "moves": "alberta"},
    {"type": "fortify", "from": "alaska", "moves": [5]},
    {"type": "fortify", "from": "alaska", "moves": [{"to": "alberta"}]},
    {"type": "fortify", "from": "alaska", "moves": [{"to": 5, "armies": 1}]},
    {"type": "fortify", "from": "alaska", "moves": [{"to": "alberta", "armies": "1"}]},
    {"type": "place_neutral"}, {"type": "place_neutral", "placements": {"alaska": 0}},
    {"type": "set_defense"}, {"type": "set_defense", "policy": "min"},
    {"type": "set_defense", "policy": None}, {"type": "set_defense", "policy": ["max"]},
    {"type": "set_defense", "policy": "MAX"},
    {"type": "resign", "expected_version": "3"}, {"type": "resign", "expected_version": 3.0},
    {"type": "resign", "expected_version": True}, {"type": "resign", "expected_version": [3]},
    {"type": "resign", "expected_version": -1},
]


@pytest.mark.parametrize("command", MALFORMED, ids=str)
def test_it_answers_400_to_a_malformed_command(alice, bob, command):
    game_id = new_game(alice, bob)
    for client in (alice, bob):
        with unchanged(game_id):
            assert_error(send(client, game_id, command), 400)


@pytest.mark.parametrize("command", [
    {"type": "claim", "territory": "atlantis"},
    {"type": "claim", "territory": "Alaska"},
    {"type": "choose_capital", "territory": "north_america"},
    {"type": "place", "placements": {"atlantis": 1}},
    {"type": "place", "placements": {"alaska": 1, "atlantis": 1}},
    {"type": "place_neutral", "placements": {"mu": 2}},
    {"type": "attack", "from": "atlantis", "to": "alaska"},
    {"type": "attack", "from": "alaska", "to": "atlantis"},
    {"type": "fortify", "from": "alaska", "to": "atlantis", "armies": 1},
    {"type": "fortify", "from": "atlantis", "to": "alaska", "armies": 1},
    {"type": "fortify", "from": "alaska", "moves": [{"to": "atlantis", "armies": 1}]},
    {"type": "trade", "cards": [0, 1, 2], "bonus_territory": "atlantis"},
], ids=str)
def test_it_answers_400_unknown_territory(alice, bob, command):
    game_id = new_game(alice, bob)
    for client in (alice, bob):
        with unchanged(game_id):
            assert_error(send(client, game_id, command), 400, "unknown_territory")


def test_it_checks_the_body_before_whose_turn_it_is(alice, bob, charlie):
    """well-formed first: a malformed command is a 400 for anyone signed in."""
    game_id = new_game(alice, bob)
    with unchanged(game_id):
        assert_error(send(charlie, game_id, {"type": "teleport"}), 400, "bad_command")


def test_a_field_the_command_does_not_take_is_refused_by_name_and_nothing_is_appended(
        alice, bob):
    game_id = new_game(alice, bob)

    with unchanged(game_id):
        answer = send(alice, game_id, {"type": "end_turn", "foo": 1})

    body = assert_error(answer, 400, "bad_command")
    assert "'foo' is not a field of end_turn" in body["detail"]
