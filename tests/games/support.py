"""Games for the store tests, made and played in-process through lobby.open_games and games.service."""

from __future__ import annotations

import random
import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections

from engine.moves import seats_to_act
from games import service
from games.models import Game
from games.states import load_state
from lobby import open_games
from tests.engine.players import bot_command


def at_once(calls) -> list:
    """Run each call in its own thread, all released together by a barrier; each call's
    result or the exception it raised, in order. Each thread closes its connections."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as error:  # noqa: BLE001 - the caller inspects every outcome
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def only_on_postgresql(why: str):
    """Skip on SQLite, saying why (CI runs the suite on PostgreSQL too, where it runs)."""
    return pytest.mark.skipif(connection.vendor != "postgresql",
                              reason=f"PostgreSQL only: {why}")


NAMES = ["alice", "bob", "dave", "erin", "frank", "grace"]  # charlie may see nothing


def players(count: int, prefix: str = "") -> list:
    """Users without a password (hashing one costs a quarter of a second)."""
    User = get_user_model()
    return [User.objects.create(username=f"{prefix}{name}") for name in NAMES[:count]]


def started_game(users: list, **rules) -> Game:
    """A game created by users[0], joined by the others in order (it starts when full)."""
    game = open_games.create_game(users[0], "Store test", len(users), rules)
    for user in users[1:]:
        open_games.join_game(game, user)
    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    return game


def play_one(game: Game, users: list, rnd: random.Random, command=None):
    """One bot command for a seat the game waits for, through the one write path."""
    state = load_state(game)
    seat = rnd.choice(seats_to_act(state))
    payload = command or bot_command(state, seat, rnd)
    return service.submit(service.player(users[seat]), game, payload, state.version)


def play(game: Game, users: list, rnd: random.Random, commands: int) -> list:
    """Up to `commands` bot commands (fewer if the game ends); returns what each did."""
    done = []
    for _ in range(commands):
        if game.status != Game.ACTIVE:
            break
        done.append(play_one(game, users, rnd))
    return done


def finish_by_resigning(game: Game, users: list) -> None:
    """Everyone but the last living seat resigns, which ends any game."""
    state = load_state(game)
    for seat in state.living()[:-1]:
        service.submit(service.player(users[seat]), game, {"type": "resign"})
    assert game.status == Game.FINISHED
