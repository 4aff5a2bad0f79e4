"""GET /api/v1/games/{id}/: the game as the caller may see it, and ?at=N, as of version N."""

from __future__ import annotations

import random

import pytest
from rest_framework.test import APIClient

from engine import view as engine_view
from games.models import Game
from games.store.states import load_state
from tests.games.api_support import (
    API,
    assert_error,
    assert_game_view,
    game_url,
    play,
    send,
    state_of,
)
from tests.games_in_states import new_game


def test_it_shows_a_seated_player_their_own_view(alice, bob):
    game_id = new_game(alice, bob)
    for seat, client in enumerate((alice, bob)):
        answer = client.get(game_url(game_id))
        assert answer.status_code == 200, answer.content
        view = assert_game_view(answer.json(), seat=seat)
        assert view["status"] == "active" and view["phase"] == "setup_place"
        assert view["version"] == Game.objects.get(pk=game_id).version


def test_it_shows_a_stranger_and_an_anonymous_caller_the_spectator_view(alice, bob, charlie,
                                                                         anonymous):
    game_id = new_game(alice, bob)
    seen = [assert_game_view(c.get(game_url(game_id)).json()) for c in (charlie, anonymous)]
    assert seen[0] == seen[1]
    assert seen[0]["you"] is None
    assert seen[0]["pending"] == {"reinforcements": 0, "must_trade": False, "occupy": None}


def test_it_shows_the_board_as_the_engine_has_it(alice, bob):
    game_id = new_game(alice, bob, setup="random")
    state = state_of(game_id)
    view = alice.get(game_url(game_id)).json()
    assert view["territories"] == {
        t: {"owner": state.owner[t], "armies": state.armies[t]} for t in state.owner}
    assert view["phase"] == "reinforce" and view["turn"] == 1
    assert view["current_seat"] == state.current
    you = view["you"]
    expected = engine_view(state, 0)["you"]
    assert {k: you[k] for k in ("seat", "cards", "mission", "capital", "defense")} == {
        k: expected[k] for k in ("seat", "cards", "mission", "capital", "defense")}
    assert view["pending"]["reinforcements"] == (state.reinforcements if state.current == 0
                                                 else 0)


def test_it_counts_armies_and_territories_per_player(alice, bob, charlie):
    game_id = new_game(alice, bob, charlie, setup="random")
    view = alice.get(game_url(game_id)).json()
    for player in view["players"]:
        mine = [t for t in view["territories"].values() if t["owner"] == player["seat"]]
        assert player["territories"] == len(mine) == 14
        assert player["armies"] == sum(t["armies"] for t in mine) == 35
        assert player["cards"] == 0 and player["missed_turns"] == 0
        assert player["eliminated"] is player["dropped"] is False


def test_it_says_whose_turn_it_is_and_what_they_owe(alice, bob):
    game_id = new_game(alice, bob, placement_batch=3)
    view = alice.get(game_url(game_id)).json()
    current = view["current_seat"]
    clients = {0: alice, 1: bob}
    theirs = clients[current].get(game_url(game_id)).json()
    other = clients[1 - current].get(game_url(game_id)).json()
    assert theirs["pending"]["reinforcements"] == 3
    assert other["pending"]["reinforcements"] == 0


def test_it_shows_null_current_seat_while_everyone_places_at_once(alice, bob, charlie):
    game_id = new_game(alice, bob, charlie, initial_placement="simultaneous")
    for client in (alice, bob, charlie):
        view = client.get(game_url(game_id)).json()
        assert view["phase"] == "setup_place" and view["current_seat"] is None
        assert view["pending"]["reinforcements"] == 35 - 14


# ---- ?at=N -----------------------------------------------------------------------------
def test_it_shows_every_version_as_it_was(alice, bob):
    game_id = new_game(alice, bob, placement_batch=10)
    play(game_id, {0: alice, 1: bob}, random.Random(7), until=lambda s: s.version >= 60)
    game = Game.objects.get(pk=game_id)
    for at in range(1, game.version + 1):
        answer = alice.get(game_url(game_id), {"at": at})
        assert answer.status_code == 200, (at, answer.content)
        view = assert_game_view(answer.json(), seat=0)
        assert view["version"] == at
        state = load_state(game, at)
        assert view["territories"] == {
            t: {"owner": state.owner[t], "armies": state.armies[t]} for t in state.owner}
        assert view["turn"] == state.turn
        assert view["current_seat"] == state.current


def test_it_shows_the_latest_version_as_the_plain_view(alice, bob):
    game_id = new_game(alice, bob)
    version = Game.objects.get(pk=game_id).version
    assert alice.get(game_url(game_id), {"at": version}).json() == alice.get(
        game_url(game_id)).json()


def test_it_goes_back_before_a_move(alice, bob):
    game_id = new_game(alice, bob, placement_batch=3)
    state = state_of(game_id)
    seat = state.current
    territory = state.territories_of(seat)[0]
    clients = {0: alice, 1: bob}
    answer = send(clients[seat], game_id, {"type": "place", "placements": {territory: 3}})
    assert answer.status_code == 201, answer.content
    before = alice.get(game_url(game_id), {"at": state.version}).json()
    now = alice.get(game_url(game_id)).json()
    assert before["territories"][territory]["armies"] == state.armies[territory]
    assert now["territories"][territory]["armies"] == state.armies[territory] + 3
    assert before["current_seat"] == seat and now["current_seat"] == 1 - seat


@pytest.mark.parametrize("at", [
    "0", "-1", "1.0", "abc", "", " 1", "1 ", "+1", "0x1", "\u00b2", "\u0663", "\uff11",
    "1e3", "99999", "9" * 30, "9" * 5000,
])
def test_it_answers_400_to_an_at_that_is_not_a_version(alice, bob, at):
    game_id = new_game(alice, bob)
    assert_error(alice.get(game_url(game_id), {"at": at}), 400, "bad_request")


def test_it_answers_400_to_any_at_before_the_game_starts(alice):
    game_id = alice.post(f"{API}/games/", {"name": "Open", "players": 3},
                         format="json").json()["id"]
    assert_error(alice.get(game_url(game_id), {"at": 1}), 400, "bad_request")


# ---- not found -------------------------------------------------------------------------
@pytest.mark.parametrize("path", [
    "games/987654/", "games/987654/events/", "games/987654/record/",
    "games/99999999999999999999999/",
])
def test_it_answers_404_json_for_an_unknown_game(alice, anonymous, path):
    for client in (alice, anonymous):
        assert_error(client.get(f"{API}/{path}"), 404, "not_found")


@pytest.mark.parametrize("path", [
    "", "nothing/", "games/abc/", "games/1/moves/", "games/-1/", "games", "maps",
    "accounts/1/", "games/1/events/extra/",
])
def test_it_answers_404_json_for_unknown_api_paths(alice, anonymous, path):
    for client in (alice, anonymous):
        assert_error(client.get(f"{API}/{path}"), 404, "not_found")
        assert_error(client.post(f"{API}/{path}", {}, format="json"), 404, "not_found")


@pytest.mark.parametrize("path", ["games/abc/commands/", "games/-1/join/", "nothing/"])
def test_it_answers_404_json_to_a_post_from_a_real_client(alice, path):
    """A real client gets no CSRF exemption from the test client: an unknown API path must
    still answer 404 JSON, not Django's HTML CSRF page."""
    client = APIClient(enforce_csrf_checks=True)
    client.cookies["sessionid"] = "whatever"
    assert_error(client.post(f"{API}/{path}", {"type": "end_turn"}, format="json"), 404,
                 "not_found")


def test_it_shows_the_status_and_winner_as_of_version_n(alice, bob):
    game_id = new_game(alice, bob)
    before = Game.objects.get(pk=game_id).version
    assert send(bob, game_id, {"type": "resign"}).status_code == 201
    then = alice.get(game_url(game_id), {"at": before}).json()
    assert (then["status"], then["winner"], then["phase"]) == ("active", None, "setup_place")
    now = alice.get(game_url(game_id), {"at": Game.objects.get(pk=game_id).version}).json()
    assert (now["status"], now["winner"]) == ("finished", 0)
