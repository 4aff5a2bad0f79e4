"""The open game's page: a player leaves, the creator cancels."""

from __future__ import annotations

from games.models import Game, Seat
from lobby import open_games
from tests.games_in_states import open_game
from tests.people import client_for, with_password


def test_a_seated_player_leaves_and_the_creator_cancels_from_the_page(db):
    alice, bob = with_password("alice"), with_password("bob")
    game = open_game(alice, 3, "Open table")
    open_games.join_game(game, bob)
    page = client_for(bob).get(f"/games/{game.pk}/").content.decode()
    assert "Leave this game" in page and "Cancel this game" not in page
    page = client_for(alice).get(f"/games/{game.pk}/").content.decode()
    assert "Cancel this game" in page and "Leave this game" not in page

    left = client_for(bob).post(f"/games/{game.pk}/leave/", follow=True)
    assert left.redirect_chain[-1][0] == "/games/"
    assert "You left the game." in left.content.decode()
    assert not Seat.objects.filter(game=game, user=bob).exists()

    cancelled = client_for(alice).post(f"/games/{game.pk}/cancel/", follow=True)
    assert "The game was cancelled." in cancelled.content.decode()
    assert Game.objects.get(pk=game.pk).status == Game.ABORTED
    assert client_for(alice).get(f"/games/{game.pk}/").status_code == 200


def test_the_page_says_why_leaving_is_refused(db):
    alice, bob = with_password("alice"), with_password("bob")
    game = open_game(alice, 2, "Full table")
    open_games.join_game(game, bob)  # full: it starts

    answer = client_for(bob).post(f"/games/{game.pk}/leave/", follow=True)

    assert "The game has started: resign to leave it." in answer.content.decode()
    assert Seat.objects.filter(game=game, user=bob).exists()
