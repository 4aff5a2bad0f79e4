"""The people of the tests, made in one place: alice plays, bob is her opponent, charlie may
see nothing (healthchecks.io's habit), more names for fuller tables, moderators, and the
clients through which each kind of test meets them.

A person is what a directory's tests drive (tests/conftest.py's `person`, overridden by a
directory's conftest): a `user` with an address and no password (the default); a user
`with_password` who signs in through the pages (tests/web); an API client that `signed_up`
(tests/games, tests/accounts)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from accounts import email as addresses
from accounts import tokens
from accounts.models import Preferences
from moderation.permissions import make_moderator

# Beside alice and bob, for tables of up to eight (charlie may see nothing, so he is not
# dealt in by a count).
NAMES = ["alice", "bob", "dave", "erin", "frank", "grace", "heidi", "ivan"]
PASSWORD = "a-long-test-password-7"


def user(name: str, password: str | None = None, email: str | None = None, **preferences):
    """The user `name`, made if new: with the address name@example.com unless `email` says
    otherwise ("" for none), no password unless given (hashing one costs time even with
    the tests' hasher), and `preferences` (accounts.models.Preferences) if any."""
    User = get_user_model()
    found = User.objects.filter(username=name).first()
    if found is not None:
        return found
    address = f"{name}@example.com" if email is None else email
    if password is None:
        made = User.objects.create(username=name, email=address)
    else:
        made = User.objects.create_user(name, address, password)
    if preferences:
        Preferences.objects.create(user=made, **preferences)
    return made


def users(*names: str, **options) -> list:
    """`user(name, **options)` for each name, in order."""
    return [user(name, **options) for name in names]


def players(count: int, prefix: str = "", **options) -> list:
    """The first `count` of NAMES (alice, bob, dave, ...), each name after `prefix`."""
    return users(*(f"{prefix}{name}" for name in NAMES[:count]), **options)


def with_password(name: str):
    """The user `name` who signs in with PASSWORD, through the login form or a browser."""
    return user(name, password=PASSWORD)


def moderator(name: str):
    """The user `name` made a moderator, read again (permissions are cached on the user)."""
    make_moderator(user(name))
    return get_user_model().objects.get(username=name)


def signed_up(username: str, confirm: bool = True) -> APIClient:
    """A player signed up through the API, as an API client with its token (`user_id`
    says who it is); with `confirm`, whose address is also confirmed, as following the link
    mailed does (tests/accounts/test_email.py follows the link itself; here it would only
    cost each of a thousand tests a page's round trip)."""
    client = APIClient()
    answer = client.post("/api/v1/accounts/", {
        "username": username, "email": f"{username}@example.com",
        "password": f"{username}-long-secret-1",
    }, format="json")
    assert answer.status_code == 201, answer.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    client.user_id = answer.json()["id"]
    if confirm:
        confirm_address(client.user_id)
    return client


def confirm_address(user_id: int) -> None:
    someone = get_user_model().objects.get(pk=user_id)
    addresses.confirm(someone, someone.email)


def client_for(someone) -> Client:
    """A browser's client with `someone`'s session (None: nobody signed in)."""
    client = Client()
    if someone is not None:
        client.force_login(someone)
    return client


def token_client_for(someone) -> APIClient:
    """An API client sending `someone`'s token, as a program would (None: no token)."""
    client = APIClient()
    if someone is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {tokens.issue(someone)}")
    return client


def api_client_for(someone) -> APIClient:
    """An API client taken for `someone` without a token (what the endpoint does with its
    user is the test, not how it authenticates)."""
    client = APIClient()
    client.force_authenticate(someone)
    return client


def places_the_neutral_by_hand(user_id: int) -> None:
    """The user chose to place the two-player neutral's armies themselves."""
    Preferences.objects.update_or_create(user_id=user_id, defaults={
        "neutral_placement": Preferences.ASK_ME, "neutral_question_answered": True})
