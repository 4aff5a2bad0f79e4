"""GET /api/v1/games/{id}/record/: {id, rules, seats, seed_hash, server_seed, contributions,
seed, events}; the players' entropy once the game has started, the seeds and the hidden data
only once it is finished."""

from __future__ import annotations

import hashlib
import hmac

from engine import verify
from games.models import Game
from tests.games.api_support import (
    API,
    DEFAULT_RULES,
    assert_error,
    assert_event,
    game_url,
    send,
)
from tests.games_in_states import new_game

RECORD_KEYS = {"id", "rules", "seats", "seed_hash", "server_seed", "contributions", "seed",
               "events"}


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
        assert body["seed"] is None and body["server_seed"] is None
        assert body["contributions"] == []
        assert seed not in client.get(game_url(game_id, "record/")).content.decode()
        assert not verify(body).ok


def test_it_reveals_the_seed_once_finished_and_the_record_verifies(alice, bob, charlie,
                                                                    anonymous):
    game_id = new_game(alice, bob)
    assert send(bob, game_id, {"type": "resign"}).status_code == 201
    for client in (alice, bob, charlie, anonymous):
        body = record(client, game_id)
        assert body["seed"] == body["server_seed"] == Game.objects.get(pk=game_id).seed
        assert body["contributions"] == []
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
    assert body["server_seed"] is None and body["contributions"] is None
    assert [s["username"] for s in body["seats"]] == ["alice"]


def test_it_answers_404_json_for_an_unknown_game(alice, anonymous):
    for client in (alice, anonymous):
        assert_error(client.get(game_url(123456, "record/")), 404, "not_found")


def entropy_game(alice, bob, charlie) -> int:
    game_id = alice.post(f"{API}/games/", {"name": "Mixed", "players": 3, "entropy": "a1"},
                         format="json").json()["id"]
    bob.post(game_url(game_id, "join/"))
    charlie.post(game_url(game_id, "join/"), {"entropy": "c3 c3"}, format="json")
    return game_id


def test_it_lists_the_players_entropy_but_keeps_both_seeds_back_while_it_runs(
        alice, bob, charlie, anonymous):
    game_id = entropy_game(alice, bob, charlie)
    game = Game.objects.get(pk=game_id)
    for client in (alice, bob, charlie, anonymous):
        body = record(client, game_id)
        assert body["contributions"] == ["a1", "c3 c3"]
        assert body["server_seed"] is None and body["seed"] is None
        text = client.get(game_url(game_id, "record/")).content.decode()
        assert game.seed not in text and game.dice_seed not in text


def test_it_shows_how_the_seed_was_made_once_finished(alice, bob, charlie, anonymous):
    game_id = entropy_game(alice, bob, charlie)
    assert send(charlie, game_id, {"type": "resign"}).status_code == 201
    assert send(bob, game_id, {"type": "resign"}).status_code == 201
    for client in (alice, bob, charlie, anonymous):
        body = record(client, game_id)
        server_seed = bytes.fromhex(body["server_seed"])
        assert hashlib.sha256(server_seed).hexdigest() == body["seed_hash"]
        assert body["contributions"] == ["a1", "c3 c3"]
        assert body["seed"] == hmac.new(server_seed, b"a1\nc3 c3", hashlib.sha256).hexdigest()
        assert body["events"][0]["data"]["contributions"] == body["contributions"]
        result = verify(body)
        assert result.ok, result.problems
        assert result.checked_draws >= 3


def test_it_fails_a_finished_record_whose_entropy_was_changed(alice, bob, charlie):
    game_id = entropy_game(alice, bob, charlie)
    send(charlie, game_id, {"type": "resign"})
    send(bob, game_id, {"type": "resign"})
    body = record(alice, game_id)
    body["contributions"] = body["events"][0]["data"]["contributions"] = ["a1", "c3 c4"]
    assert not verify(body).ok
