"""Sign-up reveals no one's address: an address that has an account already gets the same
answer as any other, on the page and the API, and its owner is told by mail instead of the
link that would confirm it for the newcomer. Usernames stay public."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from accounts import email as addresses
from tests.notifications.support import send_everything
from tests.people import signed_up

SIGNUP_API = "/api/v1/accounts/"
PASSWORD = "a-long-secret-1"


def sign_up_by_api(username: str, email: str):
    return APIClient().post(SIGNUP_API, {"username": username, "email": email,
                                         "password": PASSWORD}, format="json")


def sign_up_on_the_page(username: str, email: str):
    return Client().post("/accounts/signup/", {"username": username, "email": email,
                                               "password1": PASSWORD, "password2": PASSWORD})


def test_the_api_answers_a_taken_address_as_a_free_one(db):
    signed_up("alice")  # alice@example.com, confirmed
    send_everything()

    taken = sign_up_by_api("mallory", "ALICE@example.com")
    free = sign_up_by_api("trent", "trent@example.com")

    assert taken.status_code == free.status_code == 201
    assert set(taken.json()) == set(free.json()) == {"id", "username", "token"}
    assert get_user_model().objects.filter(username="mallory").exists()
    assert not addresses.confirmed(get_user_model().objects.get(username="mallory"))


def test_the_page_answers_a_taken_address_as_a_free_one(db):
    signed_up("alice")
    send_everything()

    taken = sign_up_on_the_page("mallory", "alice@example.com")
    free = sign_up_on_the_page("trent", "trent@example.com")

    assert taken.status_code == free.status_code == 302
    assert taken["Location"] == free["Location"]
    welcome = Client()
    welcome.cookies = taken.cookies
    text = welcome.get(taken["Location"]).content.decode()
    assert "We mailed a link to alice@example.com" in text and "exists" not in text


def test_the_owner_is_told_and_the_newcomer_gets_no_link(db):
    signed_up("alice")
    send_everything()

    sign_up_by_api("mallory", "alice@example.com")
    sign_up_on_the_page("mallory2", "Alice@example.com")
    [told] = send_everything()  # once an hour, however many try

    assert told.to == ["alice@example.com"]
    assert "Hello alice," in told.body and "/accounts/password_reset/" in told.body
    assert "/accounts/confirm/" not in told.body and "mallory" not in told.body


def test_a_taken_username_is_still_refused(db):
    signed_up("alice")

    answer = sign_up_by_api("Alice", "someone@example.com")

    assert answer.status_code == 400 and answer.json()["error"] == "username_taken"


def test_a_profile_change_to_a_taken_address_is_answered_as_any(db):
    signed_up("alice")
    signed_up("bob")
    send_everything()
    bob = Client()
    bob.force_login(get_user_model().objects.get(username="bob"))
    profile = {"time_zone": "UTC", "language": "en", "turn_mail": "each",
               "reminder_hours": "12, 1", "digest_hour": "8", "game_mail": "on",
               "current_password": "bob-long-secret-1"}

    answer = bob.post("/accounts/profile/", dict(profile, email="alice@example.com"),
                      follow=True)

    assert "We mailed a link to alice@example.com" in answer.content.decode()
    [told] = send_everything()
    assert told.to == ["alice@example.com"] and "/accounts/confirm/" not in told.body
    assert get_user_model().objects.get(username="bob").email == "bob@example.com"
