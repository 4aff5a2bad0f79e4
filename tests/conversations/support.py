"""Arranging private message tests: a finished game (through lobby.open_games and games.service),
signed-in page and API clients, and what was stored."""

from __future__ import annotations

from games import service
from games.models import Game
from tests.moderation.support import api, started_game, user, web

__all__ = ["api", "finish_a_game", "user", "web"]


def finish_a_game(someone, opponent_name: str = "opponent"):
    """`someone` plays a two-player game that ends when the opponent resigns."""
    opponent = user(opponent_name)
    game = started_game([someone, opponent])
    service.submit(service.player(opponent), game, {"type": "resign"})
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    return someone
