"""GET /api/v1/games/{id}/record/: {id, rules, seats, seed_hash, seed, events}; the seed and
the hidden data only once the game is finished."""

from __future__ import annotations

import hashlib

from games.models import Game
from games.rules import verify
from tests.games.api_support import (
    API,
    DEFAULT_RULES,
    assert_error,
    assert_event,
    game_url,
    send,
)
from tests.games.conftest import new_game

RECORD_KEYS = {"id", "rules", "seats", "seed_hash", "seed", "events"}


def record(client, game_id) -> dict:
    answer = client.get(game_url(game_id, "record/"))
    assert answer.status_code == 200, answer.content
    return answer.json()


def test_it_answers_the_fields_of_the_contract(alice, bob):
    game_id = new_game(alice, bob)
    body = record(alice, game_id)
    assert RECORD_KEYS <= set(body)
    game = Game.objects.get(pk=game_id)
    assert body["id"] == game_id
    assert {k: body["rules"][k] for k in DEFAULT_RULES} == DEFAULT_RULES
    assert [{k: s[k] for k in ("seat", "username", "color")} for s in body["seats"]] == [
        {"seat": 0, "username": "alice", "color": "red"},
        {"seat": 1, "username": "bob", "color": "blue"},
    ]
    assert body["seed_hash"] == game.seed_hash
    assert [e["seq"] for e in body["events"]] == list(range(1, game.version + 1))
    for event in body["events"]:
        assert_event(event)


def test_it_keeps_the_seed_back_while_the_game_runs(alice, bob, charlie, anonymous):
    game_id = new_game(alice, bob)
    seed = Game.objects.get(pk=game_id).seed
    for client in (alice, bob, charlie, anonymous):
        body = record(client, game_id)
        assert body["seed"] is None
        assert seed not in client.get(game_url(game_id, "record/")).content.decode()
        assert not verify(body).ok


def test_it_reveals_the_seed_once_finished_and_the_record_verifies(alice, bob, charlie,
                                                                    anonymous):
    game_id = new_game(alice, bob)
    assert send(bob, game_id, {"type": "resign"}).status_code == 201
    for client in (alice, bob, charlie, anonymous):
        body = record(client, game_id)
        assert body["seed"] == Game.objects.get(pk=game_id).seed
        assert hashlib.sha256(bytes.fromhex(body["seed"])).hexdigest() == body["seed_hash"]
        result = verify(body)
        assert result.ok, result.problems
        assert result.checked_draws >= 3  # turn order, deal, deck


def test_it_reveals_the_whole_deck_once_finished(alice, bob, charlie):
    game_id = new_game(alice, bob)
    shuffled = next(e for e in record(charlie, game_id)["events"]
                    if e["type"] == "deck_shuffled")
    assert "cards" not in shuffled["data"]
    send(alice, game_id, {"type": "resign"})
    shuffled = next(e for e in record(charlie, game_id)["events"]
                    if e["type"] == "deck_shuffled")
    assert sorted(shuffled["data"]["cards"]) == list(range(44))


def test_it_records_an_open_game_with_no_events(alice):
    game_id = alice.post(f"{API}/games/", {"name": "Open", "players": 3},
                         format="json").json()["id"]
    body = record(alice, game_id)
    assert body["events"] == [] and body["seed"] is None
    assert [s["username"] for s in body["seats"]] == ["alice"]


def test_it_answers_404_json_for_an_unknown_game(alice, anonymous):
    for client in (alice, anonymous):
        assert_error(client.get(game_url(123456, "record/")), 404, "not_found")
