"""GET /api/v1/account/next-seed/: the server seed of the caller's next game or rematch
offer, drawn ahead so that their own entropy reaches the server after it is committed."""

from __future__ import annotations

from rest_framework.test import APIClient

from engine import seed_hash
from games.models import Game, SeedAhead
from tests.games.api_support import API, assert_error

NEXT = f"{API}/account/next-seed/"


def test_it_is_the_same_until_a_game_the_caller_creates_takes_it(alice):
    first = alice.get(NEXT).json()
    assert alice.get(NEXT).json() == first

    made = alice.post(f"{API}/games/", {"name": "Mine", "players": 2, "entropy": "after"},
                      format="json").json()

    game = Game.objects.get(pk=made["id"])
    assert made["seed_hash"] == first["seed_hash"] == seed_hash(game.seed)
    assert game.seed_committed_at.isoformat() == first["committed_at"]
    following = alice.get(NEXT).json()
    assert following["seed_hash"] != first["seed_hash"]  # never two games on one seed


def test_a_game_made_without_reading_it_draws_its_own(alice, bob):
    bob.get(NEXT)  # bob's is his: alice's game does not take it

    made = alice.post(f"{API}/games/", {"name": "Mine", "players": 2}, format="json").json()

    game = Game.objects.get(pk=made["id"])
    assert game.seed_committed_at is None
    assert SeedAhead.objects.filter(user_id=bob.user_id).exists()


def test_it_shows_the_hash_only(alice):
    answer = alice.get(NEXT)

    assert set(answer.json()) == {"seed_hash", "committed_at"}
    assert SeedAhead.objects.get(user_id=alice.user_id).seed not in answer.content.decode()


def test_it_refuses_the_anonymous(db):
    assert_error(APIClient().get(NEXT), 401)
    assert not SeedAhead.objects.exists()
