"""API tokens: stored as digests, revoked on request and by a password change, refused
once idle too long."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import tokens
from accounts.models import ApiToken, digest

URL = "/api/v1/auth/token/"
MINE = "/api/v1/games/?mine=1"
ALICE = {"username": "alice", "password": "alice-long-secret-1"}


def client_with(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def new_token() -> str:
    answer = APIClient().post(URL, ALICE, format="json")
    assert answer.status_code == 200, answer.content
    return answer.json()["token"]


def test_it_stores_no_key_in_plain_text(alice):
    token = new_token()

    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {ApiToken._meta.db_table}")
        stored = repr(cursor.fetchall())
    assert token not in stored
    assert ApiToken.objects.filter(digest=digest(token)).exists()


def test_it_revokes_the_token_it_is_called_with(alice):
    kept, revoked = new_token(), new_token()

    answer = client_with(revoked).delete(URL)

    assert answer.status_code == 204
    assert client_with(revoked).get(MINE).status_code == 401
    assert client_with(kept).get(MINE).status_code == 200


def test_it_revokes_every_token_of_the_account_on_request(alice):
    first, second = new_token(), new_token()

    assert client_with(first).delete(f"{URL}?all=1").status_code == 204

    assert client_with(first).get(MINE).status_code == 401
    assert client_with(second).get(MINE).status_code == 401


def test_it_refuses_to_revoke_without_a_token(alice):
    answer = APIClient().delete(URL)

    assert answer.status_code == 401 and answer.json()["error"] == "not_authenticated"


def test_it_refuses_a_bad_all_flag(alice):
    token = new_token()

    answer = client_with(token).delete(f"{URL}?all=yes")

    assert answer.status_code == 400 and answer.json()["error"] == "bad_request"
    assert client_with(token).get(MINE).status_code == 200


def test_a_password_change_revokes_every_token(alice):
    token = new_token()
    user = get_user_model().objects.get(username="alice")

    user.set_password("a-new-long-secret-2")
    user.save()

    assert client_with(token).get(MINE).status_code == 401
    assert not ApiToken.objects.filter(user=user).exists()


def test_a_password_change_through_the_site_revokes_every_token(alice, client):
    token = new_token()
    client.force_login(get_user_model().objects.get(username="alice"))

    changed = client.post("/accounts/password_change/", {
        "old_password": ALICE["password"], "new_password1": "a-new-long-secret-2",
        "new_password2": "a-new-long-secret-2"})

    assert changed.status_code == 302
    assert client_with(token).get(MINE).status_code == 401


def test_other_saves_of_the_account_keep_its_tokens(alice):
    token = new_token()
    user = get_user_model().objects.get(username="alice")

    user.first_name = "Alice"
    user.save()

    assert client_with(token).get(MINE).status_code == 200


def test_it_refuses_a_token_idle_longer_than_allowed(alice, settings):
    settings.CONQUEST_API_TOKEN_IDLE_DAYS = 30
    token = new_token()
    ApiToken.objects.filter(digest=digest(token)).update(
        last_used_at=timezone.now() - timedelta(days=31))

    answer = client_with(token).get(MINE)

    assert answer.status_code == 401 and "not used for 30 days" in answer.json()["detail"]
    assert not ApiToken.objects.filter(digest=digest(token)).exists()


def test_using_a_token_keeps_it_alive(alice, settings):
    settings.CONQUEST_API_TOKEN_IDLE_DAYS = 30
    token = new_token()
    ApiToken.objects.filter(digest=digest(token)).update(
        last_used_at=timezone.now() - timedelta(days=29))

    assert client_with(token).get(MINE).status_code == 200

    used = ApiToken.objects.get(digest=digest(token)).last_used_at
    assert timezone.now() - used < timedelta(minutes=1)


def test_an_issued_key_signs_in_its_user(alice):
    user = get_user_model().objects.get(username="alice")

    key = tokens.issue(user)

    assert client_with(key).get(MINE).status_code == 200
