"""Finished games for the ratings tests, played through games.services: players leave by
resigning in a chosen order, which decides their placements."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from games import services
from games.models import Game
from games.store import load_state

NAMES = ["alice", "bob", "dave", "erin", "frank", "grace"]  # charlie may see nothing


def players(*names: str) -> list:
    """Users without a password (hashing one costs a quarter of a second)."""
    User = get_user_model()
    return [User.objects.get_or_create(username=name)[0] for name in names]


def finished_game(users: list, leave: list | None = None, bots=None, rated=None,
                  **rules) -> Game:
    """A game created by users[0] (with `bots` in the seats after hers) and joined by the
    other users, ended by resignations: the users in `leave` resign in that order (default:
    every user but the first, last first); if that leaves more than one seat, the humans
    still in resign in seat order until one seat is left."""
    game = services.create_game(users[0], "Rated game", len(users) + len(bots or []),
                                rules, bots=bots, rated=rated)
    for user in users[1:]:
        services.join_game(game, user)
    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    for user in users[:0:-1] if leave is None else leave:
        services.submit(game, user, {"type": "resign"})
    humans = {seat.seat: seat.user for seat in game.seats.filter(bot__isnull=True)}
    for seat in load_state(game).living():
        if game.status == Game.FINISHED:
            break
        if seat in humans:
            services.submit(game, humans[seat], {"type": "resign"})
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    return game
