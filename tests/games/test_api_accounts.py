"""POST /api/v1/accounts/: sign up, answered with {id, username, token}."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from accounts.models import ApiToken, digest
from tests.games.api_support import API, assert_error

URL = f"{API}/accounts/"
GOOD = {"username": "dora", "email": "dora@example.com", "password": "dora-long-secret-1"}


def users() -> int:
    return get_user_model().objects.count()


def test_it_signs_up_and_answers_id_username_and_token(db):
    answer = APIClient().post(URL, GOOD, format="json")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert set(body) == {"id", "username", "token"}
    user = get_user_model().objects.get(pk=body["id"])
    assert body["username"] == user.username == "dora"
    assert user.email == "dora@example.com"
    assert user.check_password("dora-long-secret-1")
    assert ApiToken.objects.get(user=user).digest == digest(body["token"])


def test_it_gives_a_token_that_signs_requests_in(db):
    token = APIClient().post(URL, GOOD, format="json").json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    answer = client.post(f"{API}/games/", {"name": "Mine", "players": 2}, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["players"][0]["username"] == "dora"


def test_it_keeps_spaces_around_a_password(db):
    """A password is taken as typed; trimming it would let a shorter one in."""
    spaced = dict(GOOD, password="  dora long secret 1  ")
    assert APIClient().post(URL, spaced, format="json").status_code == 201
    user = get_user_model().objects.get(username="dora")
    assert user.check_password("  dora long secret 1  ")
    assert not user.check_password("dora long secret 1")


def test_it_refuses_a_taken_username_whatever_its_case(alice):
    before = users()
    for name in ("alice", "ALICE", "Alice"):
        body = dict(GOOD, username=name)
        assert_error(APIClient().post(URL, body, format="json"), 400, "username_taken")
    assert users() == before


@pytest.mark.parametrize("body", [
    {},
    {"email": GOOD["email"], "password": GOOD["password"]},
    {"username": "dora", "password": GOOD["password"]},
    {"username": "dora", "email": GOOD["email"]},
    dict(GOOD, username=""),
    dict(GOOD, username="has space"),
    dict(GOOD, username="semi;colon"),
    dict(GOOD, username="x" * 151),
    dict(GOOD, username="nul\x00byte"),
    dict(GOOD, username=None),
    dict(GOOD, username=["dora"]),
    dict(GOOD, username={"name": "dora"}),
    dict(GOOD, email="not-an-email"),
    dict(GOOD, email=""),
    dict(GOOD, email=5),
    dict(GOOD, email="d" * 250 + "@example.com"),
    dict(GOOD, password=""),
    dict(GOOD, password="x" * 4097),
    dict(GOOD, password=None),
    dict(GOOD, password=["dora-long-secret-1"]),
], ids=lambda body: ",".join(f"{k}={str(v)[:12]!r}" for k, v in body.items()) or "empty")
def test_it_refuses_a_bad_sign_up_and_makes_nobody(db, body):
    before = users()
    assert_error(APIClient().post(URL, body, format="json"), 400)
    assert users() == before


@pytest.mark.parametrize("raw, content_type", [
    ("not json", "application/json"),
    ('{"username": "dora",', "application/json"),
    ('["dora", "dora@example.com", "dora-long-secret-1"]', "application/json"),
    ('"dora"', "application/json"),
    ("null", "application/json"),
    ("[" * 100_000 + "]" * 100_000, "application/json"),
    ('{"username": "do\\ud800ra", "email": "dora@example.com", "password": "x-long-secret-1"}',
     "application/json"),
    ("username=dora&email=dora%40example.com&password=dora-long-secret-1",
     "application/x-www-form-urlencoded"),
    ("dora", "text/plain"),
])
def test_it_answers_400_to_a_body_that_is_not_a_json_object(db, raw, content_type):
    before = users()
    answer = APIClient().generic("POST", URL, raw, content_type=content_type)
    assert_error(answer, 400)
    assert users() == before


def test_it_needs_no_token_and_ignores_a_bad_one(db):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert client.post(URL, GOOD, format="json").status_code == 201


def test_it_answers_405_json_to_other_methods(db):
    assert_error(APIClient().get(URL), 405, "method_not_allowed")


@pytest.mark.parametrize("password", ["p", "pw", "short", "12345678901", "password",
                                      "dora@example"])
def test_it_applies_djangos_password_rules(db, password):
    before = users()

    assert_error(APIClient().post(URL, dict(GOOD, password=password), format="json"), 400)
    assert users() == before


def test_it_answers_an_address_in_use_as_any_other(db):
    first = APIClient().post(URL, GOOD, format="json")

    answer = APIClient().post(URL, dict(GOOD, username="dora2", email=GOOD["email"].upper()),
                              format="json")

    # The address's owner is told by mail (tests/accounts/test_taken_address.py).
    assert answer.status_code == first.status_code == 201
    assert set(answer.json()) == set(first.json())


def test_it_keeps_usernames_unique_whatever_their_case_in_the_database(db):
    from django.db import IntegrityError, transaction
    User = get_user_model()
    User.objects.create_user("RaceOwbz", "one@example.com", "a-long-secret-1")

    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("raceowbz", "two@example.com", "a-long-secret-1")


@pytest.mark.django_db(transaction=True)
def test_it_creates_one_account_when_case_variants_race():
    from tests.games.support import at_once
    names = ["RACEOWBZ", "raceowbz", "RaceOwbz", "rACEOWBZ", "raceOWBZ", "RACEowbz",
             "RaCeOwBz", "rAcEoWbZ"]

    answers = at_once([
        lambda i=i, name=name: APIClient().post(URL, {
            "username": name, "email": f"r{i}@example.com", "password": "a-long-secret-1",
        }, format="json").status_code
        for i, name in enumerate(names)])

    assert sorted(answers) == [201] + [400] * 7
    assert get_user_model().objects.filter(username__iexact="raceowbz").count() == 1
