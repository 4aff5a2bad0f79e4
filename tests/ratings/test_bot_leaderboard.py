"""Bot accounts are rated apart (docs/bots/contract.md "Bot accounts"): people's leaderboard leaves
them out, the bots' one (API and page) lists only them, with their owners; a bot account's
page says what it is."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import BotAccount
from ratings.models import PlayerResult
from ratings.tasks import record_results
from tests.games.api_support import assert_error
from tests.ratings.support import finished_game, players

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(db):
    alice, bob, robo = players("alice", "bob", "robo")
    finished_game([alice, bob, robo], leave=[robo, bob])
    finished_game([robo, alice, bob], leave=[alice, bob])
    record_results()
    # The account became a bot before its games in real life; rated the same way.
    BotAccount.objects.create(user=robo, owner=alice)
    return alice, bob, robo


def test_peoples_leaderboard_leaves_bot_accounts_out(played):
    body = APIClient().get("/api/v1/leaderboard/").json()

    assert sorted(row["username"] for row in body["results"]) == ["alice", "bob"]
    assert body["count"] == 2 and body["bots"] is False


def test_the_bots_leaderboard_lists_only_bot_accounts_with_their_owners(played):
    body = APIClient().get("/api/v1/leaderboard/bots/").json()

    assert [(r["username"], r["owner"]) for r in body["results"]] == [("robo", "alice")]
    assert body["count"] == 1 and body["bots"] is True and body["results"][0]["rank"] == 1
    assert_error(APIClient().get("/api/v1/leaderboard/bots/?players=9"), 400)


def test_the_pages_keep_them_apart_too(played):
    people = Client().get("/leaderboard/").content.decode()
    bots = Client().get("/leaderboard/bots/").content.decode()

    assert 'data-username="robo"' not in people and 'data-username="alice"' in people
    assert 'data-username="robo"' in bots and 'data-username="alice"' not in bots
    assert "bot of alice" in bots


def test_a_bot_accounts_profile_says_so(played):
    robo = APIClient().get("/api/v1/players/robo/").json()
    alice = APIClient().get("/api/v1/players/alice/").json()

    assert robo["bot"] is True and robo["owner"] == "alice"
    assert alice["bot"] is False and alice["owner"] is None
    assert "A bot account, run by alice" in Client().get("/players/robo/").content.decode()



def test_a_game_with_a_bot_account_at_its_owners_table_moves_no_rating(db):
    """Its owner could seat it to lose on purpose: such a game is not rated, for anyone;
    the same bot at a table without its owner is rated as usual."""
    alice, bob, robo = players("alice", "bob", "robo")
    with_owner = finished_game([alice, robo], leave=[robo])
    without = finished_game([bob, robo], leave=[robo])
    # Seated by the creator in real life; here made a bot after the games (as above).
    BotAccount.objects.create(user=robo, owner=alice)
    record_results()

    assert not PlayerResult.objects.filter(game_id=with_owner.pk, rated=True).exists()
    assert PlayerResult.objects.filter(game_id=with_owner.pk).count() == 2  # still recorded
    assert PlayerResult.objects.filter(game_id=without.pk, rated=True).count() == 2
