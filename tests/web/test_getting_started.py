"""Getting started (issue 28, item 9): a game against the computer from the lobby in one
click, open seats said plainly on the lobby and the game page, and a home page that speaks
to a signed-in player as one."""

from __future__ import annotations

from games.models import Game
from tests.games_in_states import open_game
from tests.web.support import started_game


def test_the_lobby_offers_a_game_against_the_computer_that_starts_at_once(as_alice):
    page = as_alice.get("/games/").content.decode()
    form = page[page.index('id="play-computer-lobby"'):]
    assert 'action="/games/against-the-computer/"' in page
    assert 'name="back" value="lobby"' in form and 'name="opponents"' in form
    assert "A game against the computer starts at once" in page  # nothing of hers yet

    response = as_alice.post("/games/against-the-computer/", {
        "level": "hard", "opponents": "2", "back": "lobby"})

    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.pk}/"
    assert game.status == Game.ACTIVE and game.players == 3
    assert list(game.seats.order_by("seat").values_list("bot", flat=True)) == [
        None, "hard", "hard"]
    assert game.rules["initial_placement"] == "simultaneous"  # the lobby's fast setup


def test_a_refused_game_against_the_computer_goes_back_to_the_lobby(as_alice):
    response = as_alice.post("/games/against-the-computer/", {
        "level": "hard", "opponents": "9", "back": "lobby"}, follow=True)

    assert response.redirect_chain[-1][0] == "/games/"
    assert "Choose a level and one to five computer opponents." in response.content.decode()
    assert not Game.objects.exists()


def test_the_lobby_and_the_game_page_say_how_many_seats_are_open(as_alice, as_bob, bob):
    game = open_game(bob, 4, "Waiting room")

    listed = as_alice.get("/games/").content.decode()
    assert "Waiting for 3 more players: the game starts by itself when they join." in listed
    page = as_alice.get(f"/games/{game.pk}/").content.decode()
    assert "Waiting for players: 1 of 4 have joined." in page
    assert "Waiting for 3 more players: the game starts by itself when they join." in page
    mine = as_bob.get(f"/games/{game.pk}/").content.decode()
    assert "Fill the open seats with computer players" in mine

    as_alice.post(f"/games/{game.pk}/join/")
    open_game(bob, 2, "Two seats")
    listed = as_alice.get("/games/").content.decode()
    assert "Waiting for 2 more players: the game starts by itself when they join." in listed
    assert "Waiting for 1 more player: the game starts by itself when they join." in listed


def test_the_home_page_speaks_to_a_signed_in_player_as_one(as_alice, alice, bob):
    game = started_game([alice, bob])
    Game.objects.filter(pk=game.pk).update(current_seat=0, name="Alice to move")

    home = as_alice.get("/").content.decode()

    assert "Sign in and play" not in home
    assert "Welcome back, alice." in home
    assert "1 game is waiting for your move." in home
    assert f'href="/games/{game.pk}/"' in home
    assert 'href="/games/#mine-title"' in home and 'href="#computer-title"' in home
    assert 'id="play-computer-home"' in home


def test_the_home_page_asks_a_visitor_to_sign_in(client, db):
    home = client.get("/").content.decode()

    assert "Sign in and play against the computer" in home
    assert "Welcome back" not in home and "play-computer" not in home


def test_a_placement_everyone_makes_at_once_counts_as_waiting_for_you(as_alice):
    as_alice.post("/games/against-the-computer/", {"level": "easy", "opponents": "1"})
    game = Game.objects.get()
    assert game.current_seat is None  # every seat places its starting armies at once

    assert "1 game is waiting for your move." in as_alice.get("/").content.decode()
    assert as_alice.get("/games/").content.decode().count("Your move!") == 1
