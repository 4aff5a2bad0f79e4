"""The standing choice "place the neutral's armies for me on the borders", through the API:
with it the neutral's half is placed the moment it falls to the player (rule-legal, as a
manual placement's event), the game goes straight on and nobody is told "your move" for it;
without it the game waits for the player as docs/players/rules.md has it."""

from __future__ import annotations

import random

import pytest

from accounts.models import Preferences
from engine.board import NEIGHBOURS, NEUTRAL, TERRITORIES
from games.models import Game
from notifications.models import Notification
from tests.games.api_support import assert_error, play, send
from tests.games_in_states import new_game

PREFERENCES = "/api/v1/preferences/"


def _to_reinforcement(alice, bob, **rules):
    """A two-player game with the neutral, played to a reinforce phase; (game id, state,
    clients by seat)."""
    game_id = new_game(alice, bob, initial_placement="simultaneous", **rules)
    clients = {0: alice, 1: bob}
    state = play(game_id, clients, random.Random(7), until=lambda s: s.phase == "reinforce"
                 and not s.trade_owed(s.current))
    return game_id, state, clients


def _place_all(client, game_id, state):
    own = state.territories_of(state.current)
    answer = send(client, game_id, {"type": "place", "placements": {own[0]: state.reinforcements},
                                    "expected_version": state.version})
    assert answer.status_code == 201, answer.content
    return answer.json()


def _expected_borders(owner, armies, count, mover) -> dict:
    """The rule as docs/players/mail.md states it, worked out again from the full board (no fog here)."""
    neutral = [t for t in TERRITORIES if owner[t] == NEUTRAL]
    facing = [t for t in neutral if any(owner[n] == mover for n in NEIGHBOURS[t])]
    armies = {t: armies[t] for t in facing or neutral}
    placed: dict[str, int] = {}
    for _ in range(count):
        territory = min(armies, key=lambda t: (armies[t], TERRITORIES.index(t)))
        armies[territory] += 1
        placed[territory] = placed.get(territory, 0) + 1
    return placed


def _turn_rows(game_id) -> list[int]:
    return list(Notification.objects.filter(game_id=game_id, kind=Notification.TURN)
                .order_by("pk").values_list("user_id", flat=True))


def test_preferences_say_and_change_the_standing_choice(alice):
    assert alice.get(PREFERENCES).json() == {"neutral_placement": "ask"}
    answer = alice.patch(PREFERENCES, {"neutral_placement": "borders"}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"neutral_placement": "borders"}
    assert alice.get(PREFERENCES).json() == {"neutral_placement": "borders"}


def test_a_choice_through_the_api_answers_the_pages_one_time_question(alice):
    assert alice.patch(PREFERENCES, {"neutral_placement": "ask"},
                       format="json").status_code == 200

    assert Preferences.objects.get(user__username="alice").neutral_question_answered


@pytest.mark.parametrize("body", [{"neutral_placement": "anywhere"}, {"colour": "red"}, {},
                                  {"neutral_placement": None}])
def test_bad_preferences_are_refused_and_change_nothing(alice, body):
    assert_error(alice.patch(PREFERENCES, body, format="json"), 400, "bad_request")
    assert alice.get(PREFERENCES).json() == {"neutral_placement": "ask"}


def test_preferences_need_a_signed_in_player(anonymous):
    assert_error(anonymous.get(PREFERENCES), 401)


def test_with_the_choice_the_neutrals_half_is_placed_at_once_on_the_movers_borders(alice, bob):
    game_id, state, clients = _to_reinforcement(alice, bob)
    mover, placer = state.current, 1 - state.current
    assert clients[placer].patch(PREFERENCES, {"neutral_placement": "borders"},
                                 format="json").status_code == 200
    turn_rows = _turn_rows(game_id)

    body = _place_all(clients[mover], game_id, state)

    # The mover's answer already shows the neutral's half placed: the turn goes on.
    assert body["game"]["phase"] == "attack" and body["game"]["current_seat"] == mover
    placed = [e for e in body["events"] if e["type"] == "armies_placed"]
    assert [e["data"]["seat"] for e in placed] == [mover, NEUTRAL]
    neutral_event = placed[1]["data"]
    half = state.reinforcements // 2
    assert sum(neutral_event["placements"].values()) == half
    assert neutral_event["by"] == placer  # the same event as a manual placement
    armies = dict(state.armies)  # the board as the placer found it
    armies[state.territories_of(mover)[0]] += state.reinforcements
    assert neutral_event["placements"] == _expected_borders(state.owner, armies, half, mover)
    stored = Game.objects.get(pk=game_id)
    assert stored.phase == "attack" and stored.version == body["version"]
    # Nobody was told "your move" for it: not the placer, not the mover going on.
    assert _turn_rows(game_id) == turn_rows
    # And the mover plays on at once.
    assert send(clients[mover], game_id, {"type": "end_attack"}).status_code == 201


def test_without_the_choice_the_game_waits_for_the_player(alice, bob):
    game_id, state, clients = _to_reinforcement(alice, bob)
    mover, placer = state.current, 1 - state.current
    turn_rows = _turn_rows(game_id)

    body = _place_all(clients[mover], game_id, state)

    assert body["game"]["phase"] == "neutral_place" and body["game"]["current_seat"] == placer
    assert [e["data"]["seat"] for e in body["events"] if e["type"] == "armies_placed"] == [mover]
    assert _turn_rows(game_id) == [*turn_rows, clients[placer].user_id]
    assert_error(send(clients[mover], game_id, {"type": "end_attack"}), 400)


def test_the_choice_of_the_player_moving_changes_nothing(alice, bob):
    game_id, state, clients = _to_reinforcement(alice, bob)
    mover = state.current
    clients[mover].patch(PREFERENCES, {"neutral_placement": "borders"}, format="json")

    body = _place_all(clients[mover], game_id, state)

    assert body["game"]["phase"] == "neutral_place"


def test_the_choice_is_read_with_the_seats(alice, bob, django_assert_num_queries):
    from games.standing_orders import borders_takers
    from games.store.row import load_game

    game_id = new_game(alice, bob)
    both = [alice.user_id, bob.user_id]
    seats = load_game(game_id).seats
    with django_assert_num_queries(0):  # read with the seats, not asked again
        assert borders_takers(seats, both) == set()
    bob.patch(PREFERENCES, {"neutral_placement": "borders"}, format="json")
    seats = load_game(game_id).seats
    with django_assert_num_queries(0):
        assert borders_takers(seats, both) == {bob.user_id}


def test_choosing_it_places_the_half_already_waiting(alice, bob):
    game_id, state, clients = _to_reinforcement(alice, bob)
    mover, placer = state.current, 1 - state.current
    body = _place_all(clients[mover], game_id, state)
    assert body["game"]["phase"] == "neutral_place"

    clients[placer].patch(PREFERENCES, {"neutral_placement": "borders"}, format="json")

    game = Game.objects.get(pk=game_id)
    assert game.phase == "attack" and game.current_seat == mover
    last = clients[mover].get(f"/api/v1/games/{game_id}/events/?after={body['version']}").json()
    assert [(e["type"], e["data"]["seat"], e["data"]["by"]) for e in last["events"]] == [
        ("armies_placed", NEUTRAL, placer)]


def test_under_fog_it_places_only_where_the_placer_sees(alice, bob):
    from engine.sight import in_sight

    for seed in range(12):  # until the placer sees some neutral territory but not all
        game_id = new_game(alice, bob, initial_placement="simultaneous", fog=True)
        clients = {0: alice, 1: bob}
        state = play(game_id, clients, random.Random(seed),
                     until=lambda s: s.phase == "reinforce" and not s.trade_owed(s.current))
        mover, placer = state.current, 1 - state.current
        seen = set(in_sight(state, placer))
        neutral = {t for t in TERRITORIES if state.owner[t] == NEUTRAL}
        if seen & neutral and neutral - seen:
            break
    else:
        pytest.fail("no game left the placer some neutral territory out of sight")
    clients[placer].patch(PREFERENCES, {"neutral_placement": "borders"}, format="json")

    body = _place_all(clients[mover], game_id, state)

    game = Game.objects.get(pk=game_id)
    assert game.phase == "attack"
    placed = [e for e in game.events.filter(type="armies_placed").order_by("seq")
              if e.data.get("seat") == NEUTRAL and e.seq > state.version]
    assert len(placed) == 1 and placed[0].data["by"] == placer
    assert set(placed[0].data["placements"]) <= seen
    # The mover's answer shows nothing of the neutral's placement out of their sight.
    assert all(e["data"] in ({}, None) or e["data"].get("seat") != NEUTRAL
               or set(e["data"].get("placements", {})) <= set(in_sight(state, mover))
               for e in body["events"])
