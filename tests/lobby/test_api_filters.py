"""GET /api/v1/games/ takes the lobby's filters: size, objective, rulebook, fog, teams,
time per move, rated; an unknown value is a 400 naming the values it takes."""

from __future__ import annotations

import pytest

from tests.games.api_support import API, assert_error


def make(client, name, players=3, rules=None, **extra) -> int:
    answer = client.post(f"{API}/games/", {"name": name, "players": players,
                                           "rules": rules or {}, **extra}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()["id"]


@pytest.fixture
def tables(alice):
    return {
        "classic": make(alice, "classic", 3),
        "missions": make(alice, "missions", 4, {"objective": "missions"}),
        "fog": make(alice, "fog", 2, {"fog": True}, deadline_seconds=600),
        "teams": make(alice, "teams", 4, {"team_size": 2}, deadline_seconds=3 * 86400),
        "czech": make(alice, "czech", 5, {"preset": "czech"}),
        "friendly": make(alice, "friendly", 3, rated=False),
        "bots": make(alice, "bots", 3, bots=["easy"]),
        "bots_rated": make(alice, "bots rated", 3, bots=["easy"], rated=True),
        "private": make(alice, "private", 3, private=True),
    }


def listed(client, query: str) -> set[str]:
    answer = client.get(f"{API}/games/?status=open&{query}")
    assert answer.status_code == 200, answer.content
    return {g["name"] for g in answer.json()}


@pytest.mark.parametrize("query, names", [
    ("", {"classic", "missions", "fog", "teams", "czech", "friendly", "bots", "bots rated"}),
    ("seats=4", {"missions", "teams"}),
    ("seats=2", {"fog"}),
    ("objective=missions", {"missions", "czech"}),
    ("preset=czech", {"czech"}),
    ("fog=yes", {"fog"}),
    ("teams=yes", {"teams"}),
    ("teams=no&seats=4", {"missions"}),
    ("deadline=fast", {"fog"}),
    ("deadline=slow", {"teams"}),
    ("rated=no", {"friendly", "bots"}),
    ("rated=yes&seats=3", {"classic", "bots rated"}),
    ("objective=domination&fog=no&seats=3&rated=yes&deadline=day", {"classic", "bots rated"}),
])
def test_it_filters_the_open_games(bob, tables, query, names):
    assert listed(bob, query) == names


@pytest.mark.parametrize("query", ["seats=7", "seats=two", "objective=world", "fog=maybe",
                                   "deadline=0", "rated=1", "preset=classic", "teams=YES"])
def test_it_refuses_an_unknown_filter_value(bob, tables, query):
    body = assert_error(bob.get(f"{API}/games/?{query}"), 400, "bad_filter")
    assert query.split("=")[0] in body["detail"]
