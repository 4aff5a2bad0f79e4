"""Bot accounts through the API (docs/bots/contract.md "Bot accounts"): turning an account into one
(only before it has played, once, never anonymously), seating one by the creator, joining
only games that allow bots or one is invited to, and the view's `bot: "account"` with
its `owner`."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.models import BotAccount
from engine.moves import seats_to_act
from games import computer
from games.models import Game, Seat
from games.store.seats import read_seats
from games.store.states import load_state
from lobby import challenges
from notifications.models import Notification
from tests.games.api_support import API, assert_error, game_url, send, unchanged
from tests.games_in_states import new_game

pytestmark = pytest.mark.django_db

BOT = f"{API}/account/bot/"


@pytest.fixture
def robo(alice, person):
    """A bot account a program signs in to, alice's (she proves it with one of her tokens):
    she may seat it in her games."""
    return bot_of(person, "robo", "alice")


@pytest.fixture
def bobs_bot(bob, person):
    """A bot account bob runs: nobody else may seat it."""
    return bot_of(person, "bobbot", "bob")


def bot_of(person, username: str, owner: str):
    client = person(username)
    answer = client.post(BOT, {"owner": owner, "owner_token": token_of(owner)}, format="json")
    assert answer.status_code == 200, answer.content
    return client


def token_of(username: str) -> str:
    answer = APIClient().post(f"{API}/auth/token/", {
        "username": username, "password": f"{username}-long-secret-1"}, format="json")
    assert answer.status_code == 200, answer.content
    return answer.json()["token"]


# ---- turning an account into a bot ------------------------------------------------------
def test_it_turns_a_fresh_account_into_a_bot_account(person):
    client = person("robo")

    answer = client.post(BOT, format="json")

    assert answer.status_code == 200, answer.content
    assert answer.json()["username"] == "robo" and answer.json()["bot"] is True
    assert answer.json()["owner"] == "robo"  # no owner named: it answers for itself
    assert BotAccount.objects.filter(user_id=client.user_id).exists()
    assert client.get(BOT).json()["owner"] == "robo"


def test_the_owner_is_the_account_that_proves_it_with_its_token(alice, person):
    client = person("robo")

    answer = client.post(BOT, {"owner": "alice", "owner_token": token_of("alice")},
                         format="json")

    assert answer.status_code == 200, answer.content
    assert answer.json()["owner"] == "alice"
    assert BotAccount.objects.get(user_id=client.user_id).owner_id == alice.user_id


@pytest.mark.parametrize("body", [
    {"owner": "alice"},  # a name without proof would let anyone claim anyone
    {"owner": "alice", "owner_token": "0" * 40},
    {"owner": "nobody", "owner_token": "0" * 40},
    {"owner_token": "x"},
    {"owner": ["alice"], "owner_token": "x"},
    {"owner": "ali\u0000ce", "owner_token": "x"},  # PostgreSQL refuses a NUL: no 500
])
def test_it_refuses_an_owner_not_proved(alice, person, body):
    client = person("robo")

    assert_error(client.post(BOT, body, format="json"), 400, "bad_owner")

    assert not BotAccount.objects.exists()


@pytest.mark.parametrize("body", [{"username": "another"}, ["robo"], "robo", 7])
def test_it_refuses_a_body_it_does_not_take(person, body):
    client = person("robo")

    assert_error(client.post(BOT, body, format="json"), 400, "bad_request")

    assert not BotAccount.objects.exists()


def test_a_bot_account_cannot_own_a_bot(robo, person):
    client = person("robo2")

    answer = client.post(BOT, {"owner": "robo", "owner_token": token_of("robo")},
                         format="json")

    assert_error(answer, 400, "bad_owner")


def test_it_refuses_an_account_that_has_played(alice, bob):
    new_game(alice, bob)

    assert_error(bob.post(BOT, format="json"), 400, "has_played")

    assert not BotAccount.objects.exists()


def test_it_refuses_an_account_seated_in_a_game_not_started_yet(alice, bob):
    game_id = new_game(alice, players=3)
    assert bob.post(game_url(game_id, "join/")).status_code == 200

    assert_error(bob.post(BOT, format="json"), 400, "has_played")
    assert_error(alice.post(BOT, format="json"), 400, "has_played")  # the creator's seat


def test_it_refuses_twice(robo):
    assert_error(robo.post(BOT, format="json"), 400, "already_bot")
    assert BotAccount.objects.count() == 1


def test_it_refuses_the_anonymous():
    answer = APIClient().post(BOT, format="json")

    assert_error(answer, 401)
    assert not BotAccount.objects.exists()


def test_it_says_whether_an_account_is_a_bot(alice):
    assert_error(alice.get(BOT), 404, "not_a_bot_account")


# ---- seating ------------------------------------------------------------------------------
def test_the_creator_seats_a_bot_account_shown_with_its_owner(alice, person):
    robo = person("robo")
    assert robo.post(BOT, {"owner": "alice", "owner_token": token_of("alice")},
                     format="json").status_code == 200
    game_id = new_game(alice, players=3)

    answer = alice.post(game_url(game_id, "bots/"), {"account": "Robo"}, format="json")

    assert answer.status_code == 200, answer.content
    seat = answer.json()["players"][1]
    assert seat["username"] == "robo" and seat["bot"] == "account" and seat["owner"] == "alice"
    assert Seat.objects.get(game_id=game_id, seat=1).bot is None  # not a computer player
    # A computer player keeps its shape beside it; the game starts when full.
    full = alice.post(game_url(game_id, "bots/"), {"level": "easy"}, format="json").json()
    assert full["status"] == "active"
    assert full["players"][2]["bot"] == "easy" and "owner" not in full["players"][2]
    assert full["players"][1]["bot"] == "account" and full["players"][1]["owner"] == "alice"
    assert full["players"][0]["bot"] is None and "owner" not in full["players"][0]
    record = alice.get(game_url(game_id, "record/")).json()
    assert record["seats"][1]["bot"] == "account" and record["seats"][1]["owner"] == "alice"
    listed = APIClient().get(game_url(game_id)).json()["players"][1]
    assert listed["bot"] == "account" and listed["owner"] == "alice"


@pytest.mark.parametrize("extra", [
    {"private": True, "rated": True},  # out of sight of its owner, moving its rating
    {"bots_allowed": True},  # it may join by itself: it is not seated by someone else
])
def test_a_creator_seats_no_bot_account_of_another_owner(alice, bobs_bot, extra):
    game_id = new_game(alice, players=2, options=extra)

    with unchanged(game_id):
        body = assert_error(alice.post(game_url(game_id, "bots/"), {"account": "bobbot"},
                                       format="json"), 403, "not_your_bot")

    assert "bob" in body["detail"]
    assert not Notification.objects.filter(user_id=bobs_bot.user_id, game_id=game_id).exists()
    # Its own owner's game, and one it joins by itself, still take it.
    joined = bobs_bot.post(game_url(game_id, "join/"))
    assert joined.status_code == (200 if extra.get("bots_allowed") else 404), joined.content


def test_only_the_creator_seats_a_bot_account(alice, bob, robo):
    game_id = new_game(alice, players=3)

    with unchanged(game_id):
        assert_error(bob.post(game_url(game_id, "bots/"), {"account": "robo"}, format="json"),
                     403, "not_creator")


@pytest.mark.parametrize("body, code", [
    ({"account": "bob"}, "not_a_bot_account"),  # a person is invited, not seated
    ({"account": "nobody"}, "not_a_bot_account"),
    ({"account": 7}, "bad_request"),
    ({"account": "ro\u0000bo"}, "bad_request"),  # PostgreSQL refuses a NUL: no 500
    ({"account": "robo", "level": "easy"}, "bad_request"),
])
def test_it_refuses_what_is_not_a_bot_account(alice, bob, robo, body, code):
    game_id = new_game(alice, players=3)

    with unchanged(game_id):
        assert_error(alice.post(game_url(game_id, "bots/"), body, format="json"), 400, code)


def test_a_bot_account_is_seated_once(alice, robo):
    game_id = new_game(alice, players=4)
    assert alice.post(game_url(game_id, "bots/"), {"account": "robo"},
                      format="json").status_code == 200

    with unchanged(game_id):
        assert_error(alice.post(game_url(game_id, "bots/"), {"account": "robo"},
                                format="json"), 400, "already_seated")


def test_a_bot_account_joins_only_games_that_allow_bots(alice, robo):
    closed = new_game(alice, players=3)
    allowing = new_game(alice, players=3, options={"bots_allowed": True})

    with unchanged(closed):
        assert_error(robo.post(game_url(closed, "join/")), 403, "bots_not_allowed")
    answer = robo.post(game_url(allowing, "join/"))

    assert answer.status_code == 200, answer.content
    assert answer.json()["bots_allowed"] is True
    assert answer.json()["players"][1]["bot"] == "account"
    listed = {g["id"]: g for g in alice.get(f"{API}/games/?status=open").json()}
    assert listed[allowing]["bots_allowed"] is True and listed[closed]["bots_allowed"] is False
    found = alice.get(f"{API}/games/?status=open&bots_allowed=yes").json()
    assert [g["id"] for g in found] == [allowing]
    assert closed in [g["id"] for g in alice.get(f"{API}/games/?bots_allowed=no").json()]


def test_an_invited_or_challenged_bot_account_joins(alice, robo):
    game_id = new_game(alice, players=3, options={"private": True})
    assert alice.post(game_url(game_id, "invite/"), {"username": "robo"},
                      format="json").status_code in (200, 201)

    answer = robo.post(game_url(game_id, "join/"))

    assert answer.status_code == 200, answer.content
    assert answer.json()["players"][1]["bot"] == "account"


def test_a_person_still_joins_a_game_that_allows_bots(alice, bob):
    game_id = new_game(alice, players=2, options={"bots_allowed": True})

    assert bob.post(game_url(game_id, "join/")).json()["status"] == "active"


def test_bots_allowed_must_be_a_boolean(alice):
    before = Game.objects.count()

    answer = alice.post(f"{API}/games/", {"name": "x", "players": 2, "bots_allowed": "yes"},
                        format="json")

    assert_error(answer, 400, "bad_request")
    assert Game.objects.count() == before


def test_a_seated_bot_account_plays_through_the_api_and_its_deadline_applies(alice, robo):
    game_id = new_game(alice, players=2, placement_batch=100)
    view = alice.post(game_url(game_id, "bots/"), {"account": "robo"}, format="json").json()
    assert view["status"] == "active"
    game = Game.objects.get(pk=game_id)

    # Nothing plays for it: the service waits for its program, on the game's clock.
    assert computer.owed(game, read_seats(game), load_state(game)) == []
    assert game.deadline is not None
    assert robo.get(game_url(game_id)).json()["you"]["seat"] == 1


def test_a_command_in_a_game_without_bot_accounts_asks_nothing_more(alice, bob):
    """Whether a seat is a bot account's is read with the seats (a seat flag): a command of
    a game of people looks up no owner."""
    game_id = new_game(alice, bob, placement_batch=100)
    state = load_state(Game.objects.get(pk=game_id))
    mover = alice if seats_to_act(state)[0] == 0 else bob
    with CaptureQueriesContext(connection) as queries:
        answer = send(mover, game_id, {"type": "set_defense", "policy": "one"})
    assert answer.status_code == 201, answer.content
    lookups = [q["sql"] for q in queries.captured_queries
               if q["sql"].lstrip().upper().startswith("SELECT")
               and 'FROM "accounts_botaccount"' in q["sql"]
               and "EXISTS" not in q["sql"]]
    assert lookups == []


def test_a_bot_account_that_never_played_is_deleted_with_its_account(robo):
    get_user_model().objects.filter(username="robo").delete()

    assert not BotAccount.objects.exists()


def test_a_challenged_bot_account_joins_through_the_api(alice, robo):
    game = challenges.challenge(get_user_model().objects.get(pk=alice.user_id), "robo", 2,
                                {"placement_batch": 100})

    answer = robo.post(game_url(game.pk, "join/"))

    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "active"
    assert answer.json()["players"][1]["bot"] == "account"
