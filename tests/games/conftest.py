"""People of the API tests are API clients that signed up (alice creates and plays, bob is
her opponent, charlie may see nothing: tests/conftest.py), and the game they make."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient


def signed_up(username: str, confirm: bool = True) -> APIClient:
    """A player signed up through the API; with `confirm`, whose address is also confirmed,
    as following the link mailed does (tests/accounts/test_email.py follows the link
    itself; here it would only cost each of a thousand tests a page's round trip)."""
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
    from django.contrib.auth import get_user_model

    from accounts import email as addresses

    user = get_user_model().objects.get(pk=user_id)
    addresses.confirm(user, user.email)


@pytest.fixture
def person(db):
    return signed_up


@pytest.fixture
def anonymous(db):
    return APIClient()


def new_game(creator: APIClient, *joiners: APIClient, players=None, **rules):
    """A game created by `creator` and joined by `joiners` (it starts when full)."""
    answer = creator.post("/api/v1/games/", {
        "name": "Test game", "players": players or 1 + len(joiners), "rules": rules,
    }, format="json")
    assert answer.status_code == 201, answer.content
    game_id = answer.json()["id"]
    for joiner in joiners:
        joined = joiner.post(f"/api/v1/games/{game_id}/join/")
        assert joined.status_code == 200, joined.content
    return game_id
