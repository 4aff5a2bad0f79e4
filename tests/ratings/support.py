"""Finished games for the ratings tests, played through games.service (started and ended by
tests/games_in_states.py): every seat plays some turns of its own (a game must be played
to count), then players leave by resigning in a chosen order, which decides their
placements."""

from __future__ import annotations

import random
from functools import partial

from engine.moves import seats_to_act
from games import computer, service
from games.models import Game
from games.states import load_state
from ratings.played import MIN_OWN_TURNS
from tests import games_in_states, people
from tests.engine.players import bot_command
from tests.games_in_states import finish

# Without an address: their finished games mail nobody (test_end_mail.py gives one back).
players = partial(people.users, email="")

# The setup in few commands.
started_game = partial(games_in_states.started_game, name="Rated game", placement_batch=100)


def play_turns(game: Game, turns: int, seed: int = 1, limit: int = 6000) -> None:
    """Play on until every seat has played `turns` turns of its own (round `turns` + 1 has
    begun): people by their own commands, as a client would send them, computer players
    by theirs. With 0 turns nothing is played."""
    if turns <= 0:
        return
    humans = {seat.seat: seat.user for seat in game.seats.filter(bot__isnull=True)}
    rnd = random.Random(seed)
    for _ in range(limit):
        state = load_state(game)
        assert not state.finished, "the game ended while it was being played"
        if state.round > turns:
            game.refresh_from_db()
            return
        seat = rnd.choice(seats_to_act(state))
        if seat not in humans:
            computer.play(game.pk)
            continue
        try:
            service.submit(service.player(humans[seat]), game, bot_command(state, seat, rnd), state.version)
        except Exception:  # noqa: BLE001 - the bot may ask for a refused move; ask again
            continue
    raise AssertionError(f"the seats did not play {turns} turns each")


def finished_game(users: list, leave: list | None = None, bots=None, rated=None,
                  turns: int = MIN_OWN_TURNS, seed: int = 1, map_id=None, **rules) -> Game:
    """A game of `users` (and `bots`) in which every seat played `turns` turns, ended by
    resignations: the users in `leave` resign in that order (default: every user but the
    first, last first), then the humans still in, until one seat is left."""
    game = started_game(users, bots=bots, rated=rated, map_id=map_id, **rules)
    play_turns(game, turns, seed)
    return finish(game, users[:0:-1] if leave is None else leave)


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
