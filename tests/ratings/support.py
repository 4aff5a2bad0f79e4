"""The ratings tests' games (tests/games_in_states.py, under the name "Rated game" and
placed in few commands): finished ones, in which every seat played some turns of its own
(a game must be played to count), then players left by resigning in a chosen order, which
decides their placements."""

from __future__ import annotations

import random
from functools import partial

from engine.moves import seats_to_act
from games import service
from games.models import Game
from games.store.states import load_state
from tests import games_in_states, people
from tests.engine.players import bot_command

# Without an address: their finished games mail nobody (test_end_mail.py gives one back).
players = partial(people.users, email="")

# The setup in few commands.
started_game = partial(games_in_states.started_game, name="Rated game", placement_batch=100)
finished_game = partial(games_in_states.finished_game, name="Rated game", placement_batch=100)


def hand_to_the_bot(game: Game, human, seed: int = 1, limit: int = 200) -> None:
    """`human` (seat 0) plays on until a computer player (seat 1) owes the next decision."""
    rnd = random.Random(seed)
    for _ in range(limit):
        state = load_state(game)
        if 1 in seats_to_act(state):
            return
        try:
            service.submit(service.player(human), game, bot_command(state, 0, rnd),
                           state.version)
        except Exception:  # noqa: BLE001 - the bot may ask for a refused move; ask again
            continue
    raise AssertionError("the computer player was never owed a decision")
