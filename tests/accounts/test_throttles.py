"""Brute force and floods: sign-in, token, sign-up, game creation and reports are limited
per client address and per account."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from tests.games.conftest import signed_up

TOKEN = "/api/v1/auth/token/"
ALICE = {"username": "alice", "password": "alice-long-secret-1"}


def test_it_locks_the_token_call_after_wrong_passwords_even_for_the_right_one(alice):
    answers = [APIClient().post(TOKEN, dict(ALICE, password=f"guess-{n}"), format="json")
               for n in range(200)]
    right = APIClient().post(TOKEN, ALICE, format="json")

    assert answers[0].status_code == 400
    assert {a.status_code for a in answers[20:]} == {429}
    assert right.status_code == 429
    assert right.json()["error"] in ("too_many_attempts", "throttled")


def test_a_lock_on_one_account_leaves_the_others_alone(alice, settings):
    settings.CONQUEST_THROTTLE_RATES = dict(settings.CONQUEST_THROTTLE_RATES,
                                            token_ip="1000/minute", token_user="1000/hour")
    signed_up("bob")
    for n in range(12):
        APIClient().post(TOKEN, dict(ALICE, password=f"guess-{n}"), format="json")

    locked = APIClient().post(TOKEN, ALICE, format="json")
    bob = APIClient().post(TOKEN, {"username": "bob", "password": "bob-long-secret-1"},
                           format="json")

    assert locked.status_code == 429 and locked.json()["error"] == "too_many_attempts"
    assert bob.status_code == 200


def test_it_locks_the_sign_in_form_after_wrong_passwords(alice):
    browser = Client()
    for n in range(12):
        browser.post("/accounts/login/", {"username": "alice", "password": f"guess-{n}"})

    right = browser.post("/accounts/login/", ALICE)

    assert right.status_code == 429
    assert "Too many wrong passwords" in right.content.decode()
    assert "_auth_user_id" not in browser.session


def test_it_locks_the_admin_sign_in_as_well(db):
    get_user_model().objects.create_superuser("root", "root@example.com", "root-long-secret-1")
    browser = Client()
    for n in range(12):
        browser.post("/admin/login/", {"username": "root", "password": f"guess-{n}"})

    right = browser.post("/admin/login/", {"username": "root",
                                           "password": "root-long-secret-1"})

    assert right.status_code == 429
    assert "_auth_user_id" not in browser.session


def test_a_success_before_the_limit_resets_the_count(alice):
    for n in range(8):
        APIClient().post(TOKEN, dict(ALICE, password=f"guess-{n}"), format="json")
    assert APIClient().post(TOKEN, ALICE, format="json").status_code == 200
    for n in range(8):
        APIClient().post(TOKEN, dict(ALICE, password=f"guess-{n}"), format="json")

    assert APIClient().post(TOKEN, ALICE, format="json").status_code == 200


def test_it_limits_sign_ups_per_address(db, settings):
    settings.CONQUEST_THROTTLE_RATES = dict(settings.CONQUEST_THROTTLE_RATES,
                                            signup_ip="3/hour")
    answers = [APIClient().post("/api/v1/accounts/", {
        "username": f"flood{n}", "email": f"flood{n}@example.com",
        "password": "flood-long-secret-1"}, format="json") for n in range(5)]

    assert [a.status_code for a in answers] == [201, 201, 201, 429, 429]
    assert answers[3].json()["error"] == "throttled" and answers[3]["Retry-After"]
    assert get_user_model().objects.filter(username__startswith="flood").count() == 3


def test_the_sign_up_page_counts_against_the_same_limit(db, settings):
    settings.CONQUEST_THROTTLE_RATES = dict(settings.CONQUEST_THROTTLE_RATES,
                                            signup_ip="2/hour")
    for n in range(2):
        APIClient().post("/api/v1/accounts/", {
            "username": f"flood{n}", "email": f"flood{n}@example.com",
            "password": "flood-long-secret-1"}, format="json")

    page = Client().post("/accounts/signup/", {
        "username": "flood9", "email": "flood9@example.com",
        "password1": "flood-long-secret-1", "password2": "flood-long-secret-1"})

    assert page.status_code == 429
    assert "try again in" in page.content.decode()
    assert not get_user_model().objects.filter(username="flood9").exists()


@pytest.mark.parametrize("scope", ["create_game_user", "create_game_ip"])
def test_it_limits_game_creation(alice, settings, scope):
    settings.CONQUEST_THROTTLE_RATES = dict(settings.CONQUEST_THROTTLE_RATES, **{scope: "2/hour"})
    answers = [alice.post("/api/v1/games/", {"name": f"g{n}", "players": 2}, format="json")
               for n in range(3)]

    assert [a.status_code for a in answers] == [201, 201, 429]
    assert answers[2].json()["error"] == "throttled"
    assert alice.get("/api/v1/games/").status_code == 200  # reading is not limited


def test_the_lobby_form_counts_against_the_same_limit(alice, settings):
    settings.CONQUEST_THROTTLE_RATES = dict(settings.CONQUEST_THROTTLE_RATES,
                                            create_game_user="1/hour")
    alice.post("/api/v1/games/", {"name": "first", "players": 2}, format="json")
    browser = Client()
    browser.force_login(get_user_model().objects.get(username="alice"))

    page = browser.post("/games/new/", {"name": "second", "players": "2", "preset": "classic"})

    assert page.status_code == 429
    assert "try again in" in page.content.decode()


def test_it_limits_reports(alice, settings):
    settings.CONQUEST_THROTTLE_RATES = dict(settings.CONQUEST_THROTTLE_RATES,
                                            report_user="2/hour")
    games = [alice.post("/api/v1/games/", {"name": f"g{n}", "players": 2}, format="json").json()
             for n in range(3)]
    reporter = signed_up("bob")
    answers = [reporter.post("/api/v1/reports/", {"game": game["id"], "reason": "spam"},
                             format="json") for game in games]

    assert [a.status_code for a in answers] == [201, 201, 429]


def spray(path: str, count: int, **headers) -> list[int]:
    """Wrong passwords for `count` different accounts from one address: the sign-in lock of
    one account and address never fills."""
    return [Client().post(path, {"username": f"someone{n}", "password": "Summer2024!"},
                          **headers).status_code for n in range(count)]


def test_it_locks_an_address_that_tries_many_accounts_on_the_sign_in_page(alice, settings):
    answers = spray("/accounts/login/", 60)
    browser = Client()
    right = browser.post("/accounts/login/", ALICE)

    limit = settings.CONQUEST_SIGNIN_FAILURES_PER_ADDRESS
    assert 10 < limit < 60
    # As axes' own lock: the failure that reaches the limit is answered with the lock.
    assert set(answers[:limit - 1]) == {200} and set(answers[limit - 1:]) == {429}
    assert right.status_code == 429 and "_auth_user_id" not in browser.session
    elsewhere = Client().post("/accounts/login/", ALICE, REMOTE_ADDR="192.0.2.50")
    assert elsewhere.status_code == 302


def test_it_locks_an_address_that_tries_many_accounts_on_the_admin_sign_in(db, settings):
    get_user_model().objects.create_superuser("root", "root@example.com", "root-long-secret-1")
    answers = spray("/admin/login/", 60)
    browser = Client()
    right = browser.post("/admin/login/", {"username": "root",
                                           "password": "root-long-secret-1"})

    assert answers[-1] == 429
    assert right.status_code == 429 and "_auth_user_id" not in browser.session


def test_the_token_call_counts_against_the_same_address(alice, settings):
    settings.CONQUEST_THROTTLE_RATES = dict(settings.CONQUEST_THROTTLE_RATES,
                                            token_ip="1000/minute", token_user="1000/hour")
    spray("/accounts/login/", settings.CONQUEST_SIGNIN_FAILURES_PER_ADDRESS)

    answer = APIClient().post(TOKEN, ALICE, format="json")

    assert answer.status_code == 429 and answer.json()["error"] == "too_many_attempts"


def test_a_success_on_ones_own_account_does_not_clear_the_address(db, settings):
    settings.CONQUEST_SIGNIN_FAILURES_PER_ADDRESS = 6
    signed_up("mallory")
    mallory = {"username": "mallory", "password": "mallory-long-secret-1"}

    spray("/accounts/login/", 4)
    first = Client().post("/accounts/login/", mallory)
    spray("/accounts/login/", 2)
    second = Client().post("/accounts/login/", mallory)

    assert first.status_code == 302
    assert second.status_code == 429
