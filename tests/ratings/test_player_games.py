"""A player's games on their page and in the API: filtered (in progress, finished, won,
lost), private games named only to who may know of them, and the challenge form."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game, Invitation
from notifications.models import Notification
from ratings.tasks import record_results
from tests.games_in_states import open_game
from tests.people import client_for, with_password
from tests.ratings.support import finished_game, players

pytestmark = pytest.mark.django_db


@pytest.fixture
def record(db):
    alice, bob = players("alice", "bob")
    won = finished_game([alice, bob])
    Game.objects.filter(pk=won.pk).update(name="Alice won this")
    lost = finished_game([bob, alice], leave=[alice])
    Game.objects.filter(pk=lost.pk).update(name="Alice lost this")
    secret = finished_game([alice, bob], seed=2)
    Game.objects.filter(pk=secret.pk).update(name="Quiet win", private=True)
    open_game(alice, 3, "Still filling")
    open_game(alice, 3, "Friends filling", private=True)
    record_results()
    return alice, bob


def names(client, query="") -> set[str]:
    answer = client.get(f"/api/v1/players/alice/{query}")
    assert answer.status_code == 200, answer.content
    data = answer.json()
    return {g["name"] for g in data["recent"]} | {g["name"] for g in data["current"]}


def test_private_games_are_named_only_to_who_may_know_of_them(record):
    alice, bob = record
    everyone = {"Alice won this", "Alice lost this", "Still filling"}
    assert names(Client()) == everyone
    assert names(client_for(with_password("charlie"))) == everyone
    assert names(client_for(bob)) == everyone | {"Quiet win"}  # he played in it
    assert names(client_for(alice)) == everyone | {"Quiet win", "Friends filling"}
    data = Client().get("/api/v1/players/alice/").json()
    # its rating change counts, its result only for who may know of it
    assert data["games"] == 2 and data["wins"] == 1 and data["rated_games"] == 3
    quiet = Game.objects.get(name="Quiet win").pk
    assert quiet not in [p["game"] for p in data["history"] + data["luck"]["per_game"]]
    page = Client().get("/players/alice/").content.decode()
    assert "Quiet win" not in page and "Friends filling" not in page
    assert f"/games/{quiet}/" not in page


@pytest.mark.parametrize("games, shown", [
    ("current", {"Still filling"}),
    ("finished", {"Alice won this", "Alice lost this"}),
    ("won", {"Alice won this"}),
    ("lost", {"Alice lost this"}),
])
def test_the_player_games_are_filtered(record, games, shown):
    assert names(Client(), f"?games={games}") == shown
    page = Client().get(f"/players/alice/?games={games}").content.decode()
    for name in {"Alice won this", "Alice lost this", "Still filling"}:
        assert (name in page) == (name in shown), name


def test_an_unknown_list_of_games_is_refused(record):
    answer = Client().get("/api/v1/players/alice/?games=drawn")
    assert answer.status_code == 400 and answer.json()["error"] == "bad_filter"
    page = Client().get("/players/alice/?games=drawn")
    assert page.status_code == 400
    assert "There is no such list of games" in page.content.decode()


def test_a_challenge_makes_a_private_game_with_the_opponent_invited(db):
    alice, bob = with_password("alice"), with_password("bob")
    as_alice = client_for(alice)
    page = as_alice.get("/players/bob/").content.decode()
    assert "Challenge bob" in page
    assert "Challenge alice" not in as_alice.get("/players/alice/").content.decode()
    assert "Challenge bob" not in Client().get("/players/bob/").content.decode()
    answer = as_alice.post("/players/bob/challenge/", {
        "preset": "fog", "players": "2", "deadline_seconds": "3600"}, follow=True)
    game = Game.objects.get()
    assert answer.redirect_chain[-1][0] == f"/games/{game.pk}/"
    assert game.private and game.players == 2 and game.rules["fog"] is True
    assert game.deadline_seconds == 3600 and game.creator == alice
    assert [s.user for s in game.seats.all()] == [alice]
    assert Invitation.objects.get(game=game).user == bob
    assert Notification.objects.filter(user=bob, kind=Notification.INVITATION).exists()
    assert "bob" in game.name and "alice" in game.name
    assert client_for(bob).post(f"/games/{game.pk}/join/").status_code == 302
    game.refresh_from_db()
    assert game.status == Game.ACTIVE


def test_a_refused_challenge_makes_nothing(db):
    alice = with_password("alice")
    as_alice = client_for(alice)
    for target, data in (("alice", {"preset": "classic", "players": "2",
                                    "deadline_seconds": "86400"}),
                         ("bob", {"preset": "nonsense", "players": "2",
                                  "deadline_seconds": "86400"}),
                         ("nobody", {"preset": "classic", "players": "2",
                                     "deadline_seconds": "86400"})):
        with_password("bob")
        answer = as_alice.post(f"/players/{target}/challenge/", data, follow=True)
        assert answer.status_code in (200, 404)
        assert not Game.objects.exists(), target
        if target != "nobody":  # (no page for a player who does not exist)
            assert '<p class="message error">' in answer.content.decode(), target
    # The czech rulebook is for three to six: a form message, no game
    answer = as_alice.post("/players/bob/challenge/", {
        "preset": "czech", "players": "2", "deadline_seconds": "86400"}, follow=True)
    assert not Game.objects.exists() and not Invitation.objects.exists()
    assert answer.redirect_chain[-1][0] == "/players/bob/#challenge"
    assert '<p class="message error">' in answer.content.decode()
