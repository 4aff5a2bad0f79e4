"""Fog of war and teams through the JSON API: creation refuses the combinations docs/players/rules.md and
docs/bots/contract.md do not play; every seat, a signed-in spectator and an anonymous client see, in
the view, `?at=N`, `events/` and `record/`, only what the independent referee
(tests/engine/fog_referee.py) allows until the end, and everything after it."""

from __future__ import annotations

import random

import pytest

import engine as rules
from engine.board import NEIGHBOURS, TERRITORIES
from games.models import Game
from games.store.log import stored_events
from tests.engine import fog_referee
from tests.games.api_support import API, assert_error, game_url, play, send, state_of
from tests.games_in_states import new_game
from tests.people import signed_up


def create(client, players: int, **rules_):
    return client.post(f"{API}/games/", {"name": "Fog", "players": players, "rules": rules_},
                       format="json")


@pytest.mark.parametrize(("players", "rules_", "words"), [
    (3, {"team_size": 2}, "multiple"),
    (4, {"team_size": 4}, "team_size"),
    (4, {"team_size": 2, "objective": "missions"}, "teams"),
    (4, {"team_size": 2, "objective": "capitals"}, "teams"),
    (2, {"team_size": 2}, "team"),
    (3, {"fog": "yes"}, "fog"),
    (3, {"team_size": "2"}, "team_size"),
])
def test_creation_refuses_what_is_not_played_with_a_clear_error(alice, players, rules_, words):
    before = Game.objects.count()
    body = assert_error(create(alice, players, **rules_), 400)
    assert words in body["detail"], body
    assert Game.objects.count() == before


@pytest.mark.parametrize(("players", "rules_"), [
    (2, {"fog": True}),  # fog with the two-player neutral
    (4, {"team_size": 2, "fog": True}),
    (6, {"team_size": 2}),  # 2v2v2
    (6, {"team_size": 3}),
    (3, {"fog": True, "objective": "missions"}),
    (3, {"fog": True, "objective": "capitals"}),
])
def test_creation_accepts_the_combinations_that_are_played(alice, players, rules_):
    answer = create(alice, players, **rules_)
    assert answer.status_code == 201, answer.content
    shown = answer.json()["rules"]
    assert {k: shown[k] for k in rules_} == rules_


def observers(clients: dict):
    """(seat or None, client): every seat, a signed-in spectator and an anonymous client."""
    from rest_framework.test import APIClient

    return [*clients.items(), (None, signed_up("watcher")), (None, APIClient())]


def check_game_so_far(game_id: int, clients: dict, versions: int = 6) -> None:
    """Every observer's view, event stream and record against the referee, every field of
    them; and the view as of a few versions (?at=N)."""
    game = Game.objects.get(pk=game_id)
    events = stored_events(game)
    board = rules.replay(events[:1]).board  # the game's map, as its start names it
    sights = fog_referee.Sights(game.players, game.rules["team_size"], game.rules["fog"],
                                fog_referee.map_neighbours(board))
    rnd = random.Random(game_id)
    picked = set(rnd.sample(range(len(events)), min(versions, len(events))))
    owners, states, state = [], {}, None
    for index, event in enumerate(events):
        state = rules.evolve(state, event)
        owners.append(dict(state.owner))
        if index in picked:
            states[event.seq] = state.copy()
    for seat, client in observers(clients):
        view = client.get(game_url(game_id)).json()
        fog_referee.check_view(view, state, sights.reader(seat, state.owner))
        for endpoint in ("events/", "record/"):
            stream = client.get(game_url(game_id, endpoint)).json()
            stream = stream["events"] if isinstance(stream, dict) else stream
            assert [e["seq"] for e in stream] == [e.seq for e in events]
            before = dict.fromkeys(board.territories)
            for shown, event, owner in zip(stream, events, owners, strict=True):
                fog_referee.check_event(shown, event, sights.reader(seat, before, owner))
                before = owner
        for seq, then in states.items():
            at = client.get(game_url(game_id), {"at": seq}).json()
            fog_referee.check_view(at, then, sights.reader(seat, then.owner))


def test_a_fogged_game_shows_each_observer_only_what_it_may_see(alice, bob):
    dave = signed_up("dave")
    game_id = new_game(alice, bob, dave, setup="random", fog=True)
    clients = {0: alice, 1: bob, 2: dave}
    rnd = random.Random(7)
    state = play(game_id, clients, rnd, until=lambda s: s.turn >= 7)
    assert not state.finished
    check_game_so_far(game_id, clients)
    # Something was really hidden: the spectator sees no territory at all.
    spectator = signed_up("erin").get(game_url(game_id)).json()
    assert all(t == {"owner": None, "armies": None, "fog": True}
               for t in spectator["territories"].values())
    assert all(p["territories"] is None for p in spectator["players"])
    # After the end the fog lifts for everyone, in the view and the record.
    for seat in (0, 1):
        assert send(clients[seat], game_id, {"type": "resign"}).status_code == 201
    final = state_of(game_id)
    assert final.finished
    view = signed_up("frank").get(game_url(game_id)).json()
    assert view["fog"] is False
    assert {t: v["owner"] for t, v in view["territories"].items()} == final.owner
    record = alice.get(game_url(game_id, "record/")).json()
    full = [e.data for e in stored_events(Game.objects.get(pk=game_id))]
    assert [e["data"] for e in record["events"]] == full


def test_a_team_game_over_the_api(alice, bob):
    carol, dave = signed_up("carol"), signed_up("dave")
    game_id = new_game(alice, bob, carol, dave, setup="random", team_size=2, fog=True)
    clients = {0: alice, 1: bob, 2: carol, 3: dave}
    view = alice.get(game_url(game_id)).json()
    assert [p["team"] for p in view["players"]] == [0, 1, 0, 1]
    assert view["you"]["team"] == 0
    state = play(game_id, clients, random.Random(3), until=lambda s: s.turn >= 9)
    check_game_so_far(game_id, clients, versions=3)
    # Teammates see each other's cards; the other team sees only how many.
    view = alice.get(game_url(game_id)).json()
    players = {p["seat"]: p for p in view["players"]}
    assert [c["id"] for c in players[2]["hand"]] == list(state.players[2].cards)
    assert "hand" not in players[1] and players[1]["cards"] == len(state.players[1].cards)
    # An attack on a teammate is refused with a clear error and changes nothing.
    state = play(game_id, clients, random.Random(4),
                 until=lambda s: s.phase == "attack" and any(
                     s.owner[t] == s.current and s.armies[t] > 1 and any(
                         s.owner[n] in s.allies(s.current) and s.owner[n] != s.current
                         for n in NEIGHBOURS[t]) for t in TERRITORIES))
    assert not state.finished
    seat = state.current
    source, target = next(
        (t, n) for t in TERRITORIES if state.owner[t] == seat and state.armies[t] > 1
        for n in NEIGHBOURS[t]
        if state.owner[n] in state.allies(seat) and state.owner[n] != seat)
    body = assert_error(send(clients[seat], game_id, {
        "type": "attack", "from": source, "to": target}), 400)
    assert "teammate" in body["detail"]
    assert state_of(game_id).version == state.version
    # The other team resigns: both members of the last team standing are winners.
    for seat in (1, 3):
        assert send(clients[seat], game_id, {"type": "resign"}).status_code == 201
    final = state_of(game_id)
    assert final.finished and final.team_of(final.winner) == 0
    view = alice.get(game_url(game_id)).json()
    assert view["winners"] == sorted(final.allies(final.winner))
    assert view["winning_team"] == final.team_of(final.winner)
    record = bob.get(game_url(game_id, "record/")).json()
    assert record["events"][-1]["data"]["team"] == view["winning_team"]
