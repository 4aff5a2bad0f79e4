"""POST /api/v1/auth/token/: a username and password for {token}; and how tokens sign in."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.models import ApiToken, digest
from tests.games.api_support import API, assert_error, game_url, unchanged
from tests.games_in_states import new_game

URL = f"{API}/auth/token/"
ALICE = {"username": "alice", "password": "alice-long-secret-1"}


def signed_in(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_it_answers_the_token_of_the_sign_up(alice):
    answer = APIClient().post(URL, ALICE, format="json")
    assert answer.status_code == 200, answer.content
    assert set(answer.json()) == {"token"}
    assert ApiToken.objects.filter(user_id=alice.user_id,
                                   digest=digest(answer.json()["token"])).exists()
    game_id = new_game(signed_in(answer.json()["token"]), players=2)
    assert alice.get(game_url(game_id)).json()["you"]["seat"] == 0


def test_it_issues_a_token_per_call_and_each_keeps_working(alice):
    first = APIClient().post(URL, ALICE, format="json").json()["token"]
    second = APIClient().post(URL, ALICE, format="json").json()["token"]
    assert first != second
    for token in (first, second):
        assert signed_in(token).get(f"{API}/games/?mine=1").status_code == 200


def test_it_takes_the_password_exactly_as_typed(alice):
    for wrong in (" alice-long-secret-1", "alice-long-secret-1 ", "ALICE-LONG-SECRET-1"):
        body = dict(ALICE, password=wrong)
        assert_error(APIClient().post(URL, body, format="json"), 400, "bad_credentials")


@pytest.mark.parametrize("body", [
    dict(ALICE, password="wrong-password-1"),
    dict(ALICE, username="nobody"),
    dict(ALICE, username="ALICE"),
])
def test_it_refuses_wrong_credentials(alice, body):
    body = assert_error(APIClient().post(URL, body, format="json"), 400, "bad_credentials")
    assert "token" not in body


@pytest.mark.parametrize("body", [
    {}, {"username": "alice"}, {"password": "alice-long-secret-1"},
    dict(ALICE, username=""), dict(ALICE, password=""), dict(ALICE, username=None),
    dict(ALICE, password=["alice-long-secret-1"]), dict(ALICE, username={"u": "alice"}),
    dict(ALICE, username="ali\x00ce"),
], ids=str)
def test_it_answers_400_to_a_malformed_body(alice, body):
    assert_error(APIClient().post(URL, body, format="json"), 400)


@pytest.mark.parametrize("raw, content_type", [
    ("not json", "application/json"),
    ('["alice", "alice-long-secret-1"]', "application/json"),
    ("username=alice&password=alice-long-secret-1", "application/x-www-form-urlencoded"),
])
def test_it_answers_400_to_a_body_that_is_not_a_json_object(alice, raw, content_type):
    assert_error(APIClient().generic("POST", URL, raw, content_type=content_type), 400)


def test_it_answers_401_to_a_write_without_a_token(alice, anonymous):
    game_id = new_game(alice, players=2)
    with unchanged(game_id):
        assert_error(anonymous.post(f"{API}/games/", {"name": "x", "players": 2},
                                    format="json"), 401, "not_authenticated")
        assert_error(anonymous.post(game_url(game_id, "join/")), 401, "not_authenticated")
        assert_error(anonymous.post(game_url(game_id, "start/")), 401, "not_authenticated")
        assert_error(anonymous.post(game_url(game_id, "commands/"), {"type": "end_turn"},
                                    format="json"), 401, "not_authenticated")


@pytest.mark.parametrize("header", [
    "Token not-a-real-token", "Token", "Token a b", "Bearer abc", "Token \u00e9t\u00e9",
])
def test_it_answers_401_to_a_bad_token(alice, header):
    game_id = new_game(alice, players=2)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    with unchanged(game_id):
        assert_error(client.post(game_url(game_id, "join/")), 401)


def test_it_refuses_the_token_of_a_deactivated_user_and_changes_nothing(alice, bob):
    from django.contrib.auth import get_user_model

    game_id = new_game(alice, players=3)
    bob.post(game_url(game_id, "join/"))
    get_user_model().objects.filter(pk=bob.user_id).update(is_active=False)
    with unchanged(game_id):
        body = assert_error(bob.post(game_url(game_id, "start/")), 401, "authentication_failed")
        assert "inactive" in body["detail"]
        assert_error(bob.get(f"{API}/games/?mine=1"), 401, "authentication_failed")


def test_it_signs_each_request_in_as_the_token_s_owner(alice, bob):
    game_id = new_game(alice, players=3)
    assert alice.get(game_url(game_id)).json()["you"]["seat"] == 0
    assert bob.get(game_url(game_id)).json()["you"] is None
    bob.post(game_url(game_id, "join/"))
    assert bob.get(game_url(game_id)).json()["you"]["seat"] == 1
    assert alice.get(game_url(game_id)).json()["you"]["seat"] == 0
