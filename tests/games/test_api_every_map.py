"""A game on every shipped map made and played through the API to its end (docs/bots/contract.md
"Maps"): the game names its map and version, every decision of the setup and of the first
turns is sent as a client would send it, then a player resigns and the other has won; the
record verifies."""

from __future__ import annotations

import random

import pytest

from engine import verify
from engine.maps import shipped, shipped_ids
from engine.moves import seats_to_act
from games.models import Game
from games.store.states import load_state
from tests.engine.players import bot_command

# Whole games: CI plays them on the PostgreSQL pass only (tests/conftest.py).
pytestmark = pytest.mark.slow

TURNS = 4  # turns played before the resignation: attacks, conquests, cards, fortifying


@pytest.mark.parametrize("map_id", shipped_ids())
def test_a_game_on_each_shipped_map_plays_through_the_api_to_the_end(alice, bob, charlie,
                                                                       map_id):
    answer = alice.post("/api/v1/games/", {"name": f"On {map_id}", "players": 2,
                                           "map": map_id}, format="json")
    assert answer.status_code == 201, answer.content
    game_id = answer.json()["id"]
    assert bob.post(f"/api/v1/games/{game_id}/join/").status_code == 200
    view = alice.get(f"/api/v1/games/{game_id}/").json()
    board = shipped(map_id)
    assert (view["map"], view["map_hash"]) == (map_id, board.hash)
    assert set(view["territories"]) == set(board.territories)
    clients, rnd = {0: alice, 1: bob}, random.Random(map_id)
    game = Game.objects.get(pk=game_id)
    conquests, resigned = 0, False
    for _ in range(3000):
        state = load_state(game)
        if state.finished:
            break
        seat = rnd.choice(seats_to_act(state))
        command = bot_command(state, seat, rnd)
        if state.turn > TURNS:
            command, resigned = {"type": "resign"}, True
        answer = clients[seat].post(f"/api/v1/games/{game_id}/commands/",
                                    command | {"expected_version": state.version},
                                    format="json")
        assert answer.status_code in (201, 400), answer.content
        if answer.status_code == 201:
            events = answer.json()["events"]
            conquests += sum(1 for e in events if e["type"] == "battle"
                             and e["data"].get("conquered"))
    view = alice.get(f"/api/v1/games/{game_id}/").json()
    assert view["status"] == "finished" and view["winner"] is not None, view["status"]
    # Past TURNS a player resigned; a small map's dice may give a win by conquest before.
    assert conquests > 0 and (view["turn"] > TURNS) == resigned
    record = charlie.get(f"/api/v1/games/{game_id}/record/").json()
    assert record["map"] == map_id and record["map_hash"] == board.hash
    assert verify(record).ok
