"""Playing a test game forward with the rules' bot, through the one write path."""

from __future__ import annotations

import random

from games import write
from games.models import Game
from games.rules.moves import seats_to_act
from games.store import load_state
from tests.rules.players import bot_command


def play_until(game: Game, users: list, wanted, seed: int = 1, limit: int = 4000):
    """Bot moves until wanted(state) holds; returns that state (fails if it never does).
    `users[seat]` plays each seat."""
    rnd = random.Random(seed)
    for _ in range(limit):
        state = load_state(game)
        if wanted(state):
            game.refresh_from_db()
            return state
        assert not state.finished, "the game ended before the wanted position"
        seat = rnd.choice(seats_to_act(state))
        try:
            write.submit(write.player(users[seat]), game, bot_command(state, seat, rnd), state.version)
        except Exception:  # noqa: BLE001 - the bot may ask for a refused move; ask again
            continue
    raise AssertionError("the wanted position never came")
