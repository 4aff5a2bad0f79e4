"""Choosing a team: POST /api/v1/games/{id}/join/ {"team"} and the creator's
POST /api/v1/games/{id}/seats/ {"seats": {username: seat}} before the start; the teams
chosen hold when the game starts, also when it starts before it is full."""

from __future__ import annotations

import pytest

from lobby.open_games import starting_seats
from tests.games.api_support import API, assert_error, game_url, unchanged
from tests.people import signed_up


def team_game(creator, players=4, team_size=2) -> int:
    answer = creator.post(f"{API}/games/", {"name": "Teams", "players": players,
                                            "rules": {"team_size": team_size}}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()["id"]


def teams(view) -> dict[str, int]:
    return {p["username"]: p["team"] for p in view["players"]}


def test_a_joiner_chooses_their_team(alice, bob):
    game_id = team_game(alice)
    answer = bob.post(game_url(game_id, "join/"), {"team": 0}, format="json")
    assert answer.status_code == 200, answer.content
    view = answer.json()
    assert view["you"]["seat"] == 2  # seat s plays in team s % 2: bob sits with alice
    assert teams(view) == {"alice": 0, "bob": 0}


def test_without_a_team_the_joiner_takes_the_lowest_free_seat(alice, bob):
    game_id = team_game(alice)
    assert bob.post(game_url(game_id, "join/")).json()["you"]["seat"] == 1


def test_the_chosen_teams_hold_when_the_game_fills(alice, bob, charlie):
    game_id = team_game(alice)
    bob.post(game_url(game_id, "join/"), {"team": 0}, format="json")
    charlie.post(game_url(game_id, "join/"), {"team": 1}, format="json")
    dave = signed_up("dave")
    view = dave.post(game_url(game_id, "join/"), {"team": 1}, format="json").json()
    assert view["status"] == "active"
    assert teams(view) == {"alice": 0, "bob": 0, "charlie": 1, "dave": 1}


@pytest.mark.parametrize("team, code", [(2, "bad_team"), (-1, "bad_team"), ("1", "bad_team"),
                                        (True, "bad_team")])
def test_a_team_that_does_not_exist_is_refused(alice, bob, team, code):
    game_id = team_game(alice)
    with unchanged(game_id):
        assert_error(bob.post(game_url(game_id, "join/"), {"team": team}, format="json"),
                     400, code)


def test_a_full_team_is_refused_and_nothing_changes(alice, bob, charlie):
    game_id = team_game(alice)
    bob.post(game_url(game_id, "join/"), {"team": 0}, format="json")
    with unchanged(game_id):
        body = assert_error(charlie.post(game_url(game_id, "join/"), {"team": 0},
                                         format="json"), 400, "team_full")
    assert "free seat" in body["detail"]


def test_a_team_in_a_game_without_teams_is_refused(alice, bob):
    answer = alice.post(f"{API}/games/", {"name": "Solo", "players": 3}, format="json")
    game_id = answer.json()["id"]
    with unchanged(game_id):
        assert_error(bob.post(game_url(game_id, "join/"), {"team": 0}, format="json"),
                     400, "bad_team")


def test_the_creator_arranges_the_seats_before_the_start(alice, bob, charlie):
    game_id = team_game(alice)
    bob.post(game_url(game_id, "join/"))
    charlie.post(game_url(game_id, "join/"))
    assert teams(alice.get(game_url(game_id)).json()) == {"alice": 0, "bob": 1, "charlie": 0}
    answer = alice.post(game_url(game_id, "seats/"), {"seats": {"bob": 2, "charlie": 1}},
                        format="json")
    assert answer.status_code == 200, answer.content
    assert teams(answer.json()) == {"alice": 0, "bob": 0, "charlie": 1}
    view = signed_up("dave").post(game_url(game_id, "join/")).json()
    assert view["status"] == "active" and view["you"]["seat"] == 3
    assert teams(view) == {"alice": 0, "bob": 0, "charlie": 1, "dave": 1}


@pytest.mark.parametrize("seats, code", [
    ({"bob": 1, "charlie": 1}, "bad_seats"),   # two on one seat
    ({"bob": 2}, "bad_seats"),                 # charlie sits there
    ({"bob": 4}, "bad_seats"),                 # no such seat
    ({"bob": "2"}, "bad_seats"),
    ({"nobody": 3}, "bad_seats"),
    ({"alice": 3}, "bad_seats"),               # the creator keeps seat 0
    ({"bob": 0}, "bad_seats"),
    ([], "bad_seats"),
    ({"bob": 3, "BOB": 1}, "bad_seats"),       # one player named twice: which is meant?
    ({"bob": -1}, "bad_seats"),
    ({"bob": 10**30}, "bad_seats"),
    ({"bob": 3.0}, "bad_seats"),
])
def test_a_bad_arrangement_is_refused_and_nothing_moves(alice, bob, charlie, seats, code):
    game_id = team_game(alice)
    bob.post(game_url(game_id, "join/"))
    charlie.post(game_url(game_id, "join/"))
    before = teams(alice.get(game_url(game_id)).json())
    assert_error(alice.post(game_url(game_id, "seats/"), {"seats": seats}, format="json"),
                 400, code)
    assert teams(alice.get(game_url(game_id)).json()) == before


def test_only_the_creator_arranges_and_only_before_the_start(alice, bob, charlie):
    game_id = team_game(alice)
    bob.post(game_url(game_id, "join/"))
    assert_error(bob.post(game_url(game_id, "seats/"), {"seats": {"bob": 3}}, format="json"),
                 403, "not_creator")
    charlie.post(game_url(game_id, "join/"))
    signed_up("dave").post(game_url(game_id, "join/"))
    assert_error(alice.post(game_url(game_id, "seats/"), {"seats": {"bob": 3, "dave": 1}},
                            format="json"), 400, "game_not_open")


def test_a_game_started_early_keeps_the_teams_chosen(alice, bob, charlie):
    """Six seats in three teams of two; four seated in two chosen teams: the game starts
    with those two teams, whatever seats they took."""
    game_id = team_game(alice, players=6)
    bob.post(game_url(game_id, "join/"), {"team": 2}, format="json")     # seat 2
    charlie.post(game_url(game_id, "join/"), {"team": 2}, format="json")  # seat 5
    signed_up("dave").post(game_url(game_id, "join/"), {"team": 0}, format="json")  # seat 3
    answer = alice.post(game_url(game_id, "start/"))
    assert answer.status_code == 200, answer.content
    view = answer.json()
    assert view["status"] == "active" and sorted(p["seat"] for p in view["players"]) == [0, 1, 2, 3]
    chosen = teams(view)
    assert chosen["alice"] == chosen["dave"] != chosen["bob"] == chosen["charlie"]
    assert view["creator"] == "alice"


def test_a_player_who_leaves_a_team_game_frees_their_seat_only(alice, bob, charlie):
    game_id = team_game(alice)
    bob.post(game_url(game_id, "join/"))
    charlie.post(game_url(game_id, "join/"), {"team": 1}, format="json")  # seat 3
    assert bob.post(game_url(game_id, "leave/")).status_code == 200
    assert teams(alice.get(game_url(game_id)).json()) == {"alice": 0, "charlie": 1}


@pytest.mark.parametrize("seats, players, size, expected", [
    ([0, 1, 2], 3, 1, {0: 0, 1: 1, 2: 2}),
    ([0, 2, 3], 4, 1, {0: 0, 2: 1, 3: 2}),
    ([0, 1, 2, 3], 4, 2, {0: 0, 1: 1, 2: 2, 3: 3}),
    # 6 seats in 3 teams: {0,3}, {1,4}, {2,5}; four seated of the teams {0,3} and {2,5}
    ([0, 3, 2, 5], 6, 2, {0: 0, 3: 2, 2: 1, 5: 3}),
    # the creator's team is not full, another one is: the creator still keeps seat 0
    ([0, 1, 2, 4], 6, 2, {0: 0, 2: 2, 1: 1, 4: 3}),
    # one full team; the two left alone make up the other
    ([0, 3, 1, 2], 6, 2, {0: 0, 3: 2, 1: 1, 2: 3}),
])
def test_starting_seats(seats, players, size, expected):
    assert starting_seats(seats, players, size) == expected
