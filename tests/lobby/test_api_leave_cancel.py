"""Leaving an open game and cancelling one before it starts (API and page)."""

from __future__ import annotations

from games.models import Event, Game, Seat
from tests.games.api_support import assert_error, assert_game_view, game_url
from tests.games_in_states import new_game
from tests.lobby.test_api_join import join


def seats(game_id) -> list[tuple[int, str]]:
    return [(s.seat, s.user.username)
            for s in Seat.objects.filter(game_id=game_id).select_related("user")]


def test_a_player_leaves_an_open_game_and_the_later_seats_move_up(alice, bob, charlie):
    game_id = new_game(alice, players=4)
    join(bob, game_id)
    join(charlie, game_id)

    answer = bob.post(game_url(game_id, "leave/"))

    assert answer.status_code == 200, answer.content
    view = assert_game_view(answer.json(), seat=None)
    assert view["status"] == "open"
    assert seats(game_id) == [(0, "alice"), (1, "charlie")]
    assert join(bob, game_id).status_code == 200  # and may come back, at the end
    assert seats(game_id) == [(0, "alice"), (1, "charlie"), (2, "bob")]


def test_leaving_is_refused_with_a_reason(alice, bob, charlie):
    game_id = new_game(alice, players=3)
    assert_error(bob.post(game_url(game_id, "leave/")), 400, "not_seated")
    assert_error(alice.post(game_url(game_id, "leave/")), 400, "creator_cannot_leave")
    join(bob, game_id)
    join(charlie, game_id)  # full: it starts
    assert_error(bob.post(game_url(game_id, "leave/")), 400, "game_not_open")
    assert len(seats(game_id)) == 3


def test_the_creator_cancels_an_open_game(alice, bob):
    game_id = new_game(alice, players=3)
    join(bob, game_id)
    assert_error(bob.post(game_url(game_id, "cancel/")), 403, "not_creator")

    answer = alice.post(game_url(game_id, "cancel/"))

    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "aborted"
    assert Game.objects.get(pk=game_id).status == Game.ABORTED
    assert not Event.objects.filter(game_id=game_id).exists()
    assert_error(join(bob, game_id), 400, "game_not_open")
    assert_error(alice.post(game_url(game_id, "cancel/")), 400, "game_not_open")
    assert alice.get(game_url(game_id)).status_code == 200


def test_a_started_game_cannot_be_cancelled(alice, bob):
    game_id = new_game(alice, players=2)
    join(bob, game_id)
    assert_error(alice.post(game_url(game_id, "cancel/")), 400, "game_not_open")
    assert Game.objects.get(pk=game_id).status == Game.ACTIVE
