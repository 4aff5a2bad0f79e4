"""The game view, its events and the 409 against the OpenAPI schema, every object of the schema
closed here (additionalProperties false, imposed by the test, never by the answers): live views
of every phase, each seat's and a spectator's, under fog, in teams, with missions and capitals,
and finished; so a field the view gains without a schema fails here."""

from __future__ import annotations

import copy
import random

import pytest
from jsonschema import Draft202012Validator
from rest_framework.test import APIClient

from engine.moves import seats_to_act
from tests.games.api_support import game_url, play, send
from tests.games_in_states import new_game

# Whole games: CI plays them on the PostgreSQL pass only (tests/conftest.py).
pytestmark = pytest.mark.slow

# Each game, and its rules: between them every phase, fog, teams, missions, capitals, a
# two-player neutral, simultaneous placement and trades come up.
GAMES = {
    "claim, a neutral": (2, {"setup": "claim"}),
    "missions, simultaneous": (3, {"objective": "missions", "initial_placement": "simultaneous"}),
    "capitals": (3, {"setup": "random", "objective": "capitals"}),
    "fog": (3, {"fog": True, "initial_placement": "simultaneous"}),
    "teams": (4, {"team_size": 2, "setup": "random", "initial_placement": "simultaneous"}),
}
ALL_PHASES = {"claim", "setup_place", "capital", "reinforce", "attack", "occupy", "fortify",
              "neutral_place"}


def closed(node):
    """The schema with every object that lists its properties closed to any other."""
    if isinstance(node, list):
        return [closed(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: closed(value) for key, value in node.items()}
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


class Shapes:
    """Validators of the schema's components, closed."""

    def __init__(self, schema: dict):
        self.components = closed(copy.deepcopy(schema["components"]))

    def errors(self, name: str, value) -> list[str]:
        validator = Draft202012Validator(
            {"components": self.components, "$ref": f"#/components/schemas/{name}"})
        return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
                for e in validator.iter_errors(value)]

    def check(self, name: str, value, where: str = "") -> None:
        errors = self.errors(name, value)
        assert not errors, (where, name, errors[:5])


@pytest.fixture(scope="module")
def shapes():
    """The served schema's shapes."""
    return Shapes(APIClient().get("/api/v1/schema/?format=json").json())


def seen_views(game_id: int, clients: dict, spectator) -> dict:
    """The game as each seat and a spectator see it now, by who asks."""
    views = {seat: client.get(game_url(game_id)).json() for seat, client in clients.items()}
    views["spectator"] = spectator.get(game_url(game_id)).json()
    return views


def play_and_look(game_id: int, clients: dict, spectator, rnd, shapes, turns: int = 5,
                  enough=lambda phases: False):
    """Play until `turns` turns are over (or `enough(phases seen)`), checking each
    command's answer, and each view whenever the phase changes; the phases seen."""
    phases: set = set()

    def check(seat, command, answer):
        if answer.status_code == 201:
            shapes.check("CommandOut", answer.json(), command)

    def look(state):
        if state.phase not in phases and seats_to_act(state):
            phases.add(state.phase)
            for who, view in seen_views(game_id, clients, spectator).items():
                shapes.check("GameView", view, (state.phase, who))
        return state.turn > turns or enough(phases)

    play(game_id, clients, rnd, until=look, check=check)
    return phases


def finish(game_id: int, clients: dict) -> None:
    for client in list(clients.values())[:-1]:
        send(client, game_id, {"type": "resign"})


@pytest.mark.parametrize("name", sorted(GAMES))
def test_live_views_of_every_phase_events_and_record_match_the_schema(
        shapes, person, anonymous, name):
    players, rules = GAMES[name]
    people = [person(n) for n in ("alice", "bob", "charlie", "dave")[:players]]
    # Open: the creator's view and a spectator's, before any deal.
    answer = people[0].post("/api/v1/games/", {"name": "Typed", "players": players,
                                               "rules": rules}, format="json")
    shapes.check("GameView", answer.json(), "created")
    game_id = answer.json()["id"]
    shapes.check("GameView", anonymous.get(game_url(game_id)).json(), "open, spectator")
    for joiner in people[1:]:
        shapes.check("GameView", joiner.post(game_url(game_id, "join/")).json(), "joined")
    clients = dict(enumerate(people))

    phases = play_and_look(game_id, clients, anonymous, random.Random(name), shapes)
    finish(game_id, clients)

    for who, view in seen_views(game_id, clients, anonymous).items():
        assert view["status"] == "finished"
        shapes.check("GameView", view, ("finished", who))
    shapes.check("GameView", people[0].get(game_url(game_id) + "?at=3").json(), "at=3")
    for client in (people[1], anonymous):
        shapes.check("EventsOut", client.get(game_url(game_id, "events/")).json(), "events")
        shapes.check("RecordOut", client.get(game_url(game_id, "record/")).json(), "record")
    assert phases >= {"reinforce", "attack"}, phases


def test_between_them_the_games_reach_every_phase(shapes, person, anonymous):
    """The games above in one: the phases each reaches add up to all of them."""
    reached: set = set()
    for name, (players, rules) in sorted(GAMES.items()):
        people = [person(f"{n}{len(reached)}{name[:3]}") for n in "abcd"[:players]]
        game_id = new_game(people[0], *people[1:], players=players, **rules)
        # The random players may end a turn without fortifying: each game plays on (a few
        # turns more at most) until what all of them saw adds up to every phase.
        reached |= play_and_look(game_id, dict(enumerate(people)), anonymous,
                                 random.Random(name), shapes, turns=12,
                                 enough=lambda phases, seen=frozenset(reached): (
                                     seen | phases) >= ALL_PHASES)
    assert reached >= ALL_PHASES, ALL_PHASES - reached


def test_a_field_the_schema_does_not_name_fails_the_check(shapes, person, anonymous):
    alice, bob = person("alice"), person("bob")
    view = alice.get(game_url(new_game(alice, bob))).json()
    shapes.check("GameView", view)

    for where in (view, view["players"][0], view["you"], view["pending"], view["you"]["may"],
                  next(iter(view["territories"].values())), view["rules"]):
        where["surprise"] = 1
        assert any("surprise" in error for error in shapes.errors("GameView", view)), where
        del where["surprise"]


def test_a_409_carries_the_current_version_as_its_schema_says(shapes, person):
    alice, bob = person("alice"), person("bob")
    game_id = new_game(alice, bob)

    answer = send(alice, game_id, {"type": "resign", "expected_version": 1})

    assert answer.status_code == 409
    shapes.check("VersionConflict", answer.json())
    assert isinstance(answer.json()["current_version"], int)
