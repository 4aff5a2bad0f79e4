"""Playing a test game forward with the rules' bot, through the one write path."""

from __future__ import annotations

import random

from engine.moves import seats_to_act
from games import service
from games.models import Game, Seat
from games.store.states import load_state
from tests.engine.players import bot_command


def play_until(game: Game, users: list | None, wanted, seed: int | str = 1, limit: int = 4000):
    """Bot moves until wanted(state) holds; returns that state (fails if it never does).
    `users[seat]` plays each seat; with None, whoever holds the seat now."""
    rnd = random.Random(seed)
    for _ in range(limit):
        game.refresh_from_db()
        state = load_state(game)
        if wanted(state):
            return state
        assert not state.finished, "the game ended before the wanted position"
        seat = rnd.choice(seats_to_act(state))
        player = users[seat] if users is not None else \
            Seat.objects.select_related("user").get(game=game, seat=seat).user
        try:
            service.submit(service.player(player), game, bot_command(state, seat, rnd),
                         state.version)
        except Exception:  # noqa: BLE001 - the bot may ask for a refused move; ask again
            continue
    raise AssertionError("the wanted position never came")
