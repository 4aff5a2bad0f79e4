"""Playing the store tests' games in-process through games.service (people: tests/people.py;
games in each state: tests/games_in_states.py), and running calls side by side."""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connection, connections

from engine.moves import seats_to_act
from games import service
from games.models import Game
from games.store.states import load_state
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
