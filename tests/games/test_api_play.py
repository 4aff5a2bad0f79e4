"""Whole games played through the HTTP API by bots, as a client would."""

from __future__ import annotations

import random

import pytest

from engine import verify
from engine.moves import seats_to_act
from games.models import Game
from games.store.states import load_state
from tests.engine.players import bot_command
from tests.games_in_states import new_game

# Whole games: CI plays them on the PostgreSQL pass only (tests/conftest.py).
pytestmark = pytest.mark.slow


@pytest.mark.parametrize("objective", ["domination", "missions", "capitals"])
def test_it_plays_a_whole_game_over_http(alice, bob, charlie, objective):
    game_id = new_game(alice, bob, charlie, objective=objective, placement_batch=5)
    clients = {0: alice, 1: bob, 2: charlie}
    rnd = random.Random(objective)
    game = Game.objects.get(pk=game_id)
    for moves in range(3000):
        state = load_state(game)
        if state.finished:
            break
        seat = rnd.choice(seats_to_act(state))
        command = bot_command(state, seat, rnd) | {"expected_version": state.version}
        if moves >= 800:  # long enough (rounds of every phase): players leave one by one
            command = {"type": "resign"}
        answer = clients[seat].post(f"/api/v1/games/{game_id}/commands/", command, format="json")
        assert answer.status_code in (201, 400), answer.content
        if answer.status_code == 201:
            assert answer.json()["version"] == answer.json()["game"]["version"]
    view = alice.get(f"/api/v1/games/{game_id}/").json()
    assert view["status"] == "finished" and view["winner"] is not None
    record = charlie.get(f"/api/v1/games/{game_id}/record/").json()
    assert record["seed"] and verify(record).ok
