"""Finished games for the ratings tests, played through lobby.open_games and games.service: every seat plays
some turns of its own (a game must be played to count), then players leave by resigning in
a chosen order, which decides their placements."""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model

from engine.moves import seats_to_act
from games import computer, service
from games.models import Game
from games.states import load_state
from lobby import open_games
from ratings.played import MIN_OWN_TURNS
from tests.engine.players import bot_command

NAMES = ["alice", "bob", "dave", "erin", "frank", "grace"]  # charlie may see nothing


def players(*names: str) -> list:
    """Users without a password (hashing one costs a quarter of a second)."""
    User = get_user_model()
    return [User.objects.get_or_create(username=name)[0] for name in names]


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


def started_game(users: list, bots=None, rated=None, map_id=None, **rules) -> Game:
    """A game created by users[0] (with `bots` in the seats after hers) and joined by the
    other users, so that it has started; on the map `map_id` (default classic)."""
    rules = {"placement_batch": 100, **rules}  # setup in few commands
    game = open_games.create_game(users[0], "Rated game", len(users) + len(bots or []),
                                rules, bots=bots, rated=rated, map_id=map_id)
    for user in users[1:]:
        open_games.join_game(game, user)
    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    return game


def finish(game: Game, leave: list) -> Game:
    """The users in `leave` resign in that order; if that leaves more than one seat, the
    humans still in resign in seat order until one seat is left."""
    for user in leave:
        service.submit(service.player(user), game, {"type": "resign"})
    humans = {seat.seat: seat.user for seat in game.seats.filter(bot__isnull=True)}
    for seat in load_state(game).living():
        if game.status == Game.FINISHED:
            break
        if seat in humans:
            service.submit(service.player(humans[seat]), game, {"type": "resign"})
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    return game


def finished_game(users: list, leave: list | None = None, bots=None, rated=None,
                  turns: int = MIN_OWN_TURNS, seed: int = 1, map_id=None, **rules) -> Game:
    """A game of `users` (and `bots`) in which every seat played `turns` turns, ended by
    resignations: the users in `leave` resign in that order (default: every user but the
    first, last first), then the humans still in, until one seat is left."""
    game = started_game(users, bots=bots, rated=rated, map_id=map_id, **rules)
    play_turns(game, turns, seed)
    return finish(game, users[:0:-1] if leave is None else leave)
