"""Users, clients and games for the moderation tests, arranged through lobby.open_games and games.service."""

from __future__ import annotations

from io import StringIO

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from accounts import tokens
from games.models import Event, Game
from lobby import open_games


def user(name: str):
    """A user without a password (hashing one costs a quarter of a second)."""
    User = get_user_model()
    found = User.objects.filter(username=name).first()
    return found or User.objects.create(username=name, email=f"{name}@example.com")


def moderator(name: str):
    """`name` made a moderator the documented way, read again (permissions are cached)."""
    user(name)
    call_command("make_moderator", name, stdout=StringIO())
    return get_user_model().objects.get(username=name)


def web(someone) -> Client:
    client = Client()
    if someone is not None:
        client.force_login(someone)
    return client


def api(someone) -> APIClient:
    client = APIClient()
    if someone is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {tokens.issue(someone)}")
    return client


def started_game(users: list, **rules) -> Game:
    """A game created by users[0] and joined by the others (it starts when full); by default
    dealt at random, so that it is at once in the first player's reinforce phase."""
    rules = {"setup": "random", **rules}
    game = open_games.create_game(users[0], "Moderated game", len(users), rules)
    for other in users[1:]:
        open_games.join_game(game, other)
    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    return game


def last_event(game: Game) -> Event:
    return Event.objects.filter(game=game).order_by("-seq").first()


def event_count(game: Game) -> int:
    return Event.objects.filter(game=game).count()


def page_messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []
