"""GET /api/v1/games/{id}/events/?after=N: {version, events} redacted for the caller."""

from __future__ import annotations

import json
import random

import pytest

from games.models import Event, Game
from tests.games.api_support import (
    API,
    assert_error,
    assert_event,
    game_url,
    play,
    send,
    state_of,
)
from tests.games_in_states import new_game
from tests.people import signed_up


@pytest.fixture
def played(alice, bob):
    """A three-player game some way in, with a battle fought (charlie is not in it). The deal
    is the game's own, so three turns of the bots' moves sometimes held no battle."""
    dave = signed_up("dave")
    clients = {0: alice, 1: bob, 2: dave}
    game_id = new_game(alice, bob, dave, placement_batch=20)
    play(game_id, clients, random.Random(11), until=lambda s: s.turn >= 4 and Event.objects
         .filter(game_id=game_id, type="battle").exists())
    return game_id


def events(client, game_id, **params):
    answer = client.get(game_url(game_id, "events/"), params)
    assert answer.status_code == 200, answer.content
    return answer.json()


def test_it_answers_the_version_and_every_event_counted_from_1(alice, played):
    body = events(alice, played)
    assert set(body) >= {"version", "events"}
    assert [e["seq"] for e in body["events"]] == list(range(1, body["version"] + 1))
    assert body["version"] == Game.objects.get(pk=played).version
    for event in body["events"]:
        assert_event(event)
        assert event["actor"] is None or isinstance(event["actor"], int)


def test_it_shows_the_types_and_data_fields_of_the_contract(alice, played):
    required = {
        "game_started": {"order"},
        "territories_dealt": {"owners"},
        "armies_placed": {"seat", "placements"},
        "turn_started": {"seat", "turn", "base", "continents", "total"},
        "battle": {"seat", "from", "to", "attacker_dice", "defender_dice", "attacker_losses",
                   "defender_losses", "conquered"},
        "occupied": {"from", "to", "armies"},
        "fortified": {"from", "to", "armies"},
        "card_drawn": {"seat"},
        "turn_ended": {"seat"},
        "cards_traded": {"seat", "cards", "value", "bonus"},
    }
    seen = {}
    for event in events(alice, played)["events"]:
        seen.setdefault(event["type"], event)
        if event["type"] in required:
            assert required[event["type"]] <= set(event["data"]), event
    assert {"game_started", "territories_dealt", "armies_placed", "turn_started", "battle",
            "turn_ended"} <= set(seen)


def test_it_answers_only_the_events_after_n(alice, played):
    everything = events(alice, played)
    for after in (0, 1, 5, everything["version"] - 1, everything["version"]):
        body = events(alice, played, after=after)
        assert body["version"] == everything["version"]
        assert body["events"] == everything["events"][after:]


def test_it_answers_no_events_after_the_last(alice, played):
    version = events(alice, played)["version"]
    for after in (version, version + 1, 10**17):
        assert events(alice, played, after=after) == {"version": version, "events": []}


def test_it_gives_every_event_its_time(alice, played):
    stored = dict(Event.objects.filter(game_id=played).values_list("seq", "created_at"))
    for event in events(alice, played)["events"]:
        assert event["at"] == stored[event["seq"]].isoformat()


def test_it_survives_a_round_trip_through_json(alice, played):
    body = events(alice, played)
    assert json.loads(json.dumps(body)) == body


def test_it_shows_the_same_public_events_to_everyone(alice, bob, charlie, anonymous, played):
    """Only the redacted parts differ between callers; the sequence is the same."""
    seen = [events(c, played)["events"] for c in (alice, bob, charlie, anonymous)]
    assert [[(e["seq"], e["type"]) for e in s] for s in seen[1:]] == [
        [(e["seq"], e["type"]) for e in seen[0]]] * 3
    assert seen[2] == seen[3]  # charlie, not seated, sees what anyone sees


def test_it_shows_a_move_just_made(alice, bob):
    game_id = new_game(alice, bob)
    state = state_of(game_id)
    seat = state.current
    clients = {0: alice, 1: bob}
    made = send(clients[seat], game_id, {"type": "place", "placements": {
        state.territories_of(seat)[0]: 1}}).json()
    body = events(clients[1 - seat], game_id, after=state.version)
    assert body["version"] == made["version"]
    assert [e["type"] for e in body["events"]] == [e["type"] for e in made["events"]]


def test_it_answers_an_open_game_with_no_events(alice):
    game_id = alice.post(f"{API}/games/", {"name": "Open", "players": 3},
                         format="json").json()["id"]
    assert events(alice, game_id) == {"version": 0, "events": []}


@pytest.mark.parametrize("after", [
    "-1", "abc", "", "1.5", " 2", "+2", "\u00b2", "\u0663", "\uff12", "1e3", "9" * 30,
])
def test_it_answers_400_to_an_after_that_is_not_a_whole_number(alice, bob, after):
    game_id = new_game(alice, bob)
    assert_error(alice.get(game_url(game_id, "events/"), {"after": after}), 400,
                 "bad_request")


def test_it_answers_404_json_for_an_unknown_game(alice, anonymous):
    for client in (alice, anonymous):
        assert_error(client.get(game_url(31337, "events/")), 404, "not_found")
