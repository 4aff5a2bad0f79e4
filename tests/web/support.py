"""Games for the web page tests, arranged through lobby.open_games and games.service and the rules' bot, then
played through the pages' forms."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.test import Client

from engine import seed_hash
from games.models import Event, Game
from lobby import open_games

PASSWORD = "a-long-test-password-7"


def user(name: str):
    User = get_user_model()
    found = User.objects.filter(username=name).first()
    return found or User.objects.create_user(name, f"{name}@example.com", PASSWORD)


def client_for(someone) -> Client:
    client = Client()
    client.force_login(someone)
    return client


def started_game(users: list, seed: str = "5e" * 32, **rules) -> Game:
    """A game with a fixed secret seed (so the dice, and the tests, repeat), started by the
    last join."""
    game = open_games.create_game(users[0], "Web test", len(users), rules)
    Game.objects.filter(pk=game.pk).update(seed=seed, seed_hash=seed_hash(seed))
    game.refresh_from_db()
    for other in users[1:]:
        open_games.join_game(game, other)
    game.refresh_from_db()
    return game


def events(game: Game) -> int:
    return Event.objects.filter(game=game).count()


def post_play(client: Client, game: Game, fields: dict, version=None, **extra):
    game.refresh_from_db()
    data = {"version": str(game.version if version is None else version), **fields}
    return client.post(f"/games/{game.pk}/play/", data, **extra)
