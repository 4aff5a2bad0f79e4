"""A whole knockout tournament: 8 players, 4-player games, the best 2 of each go through;
from sign-up to a winner with the worker's tasks, the games played by the rules' bot and
ended by resignations."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from engine import FairDice
from notifications.models import Notification
from tests import people
from tests.people import api_client_for
from tests.play import play_until
from tests.tournaments.support import API, close_signup, create, finish_in_seat_order, tables
from tournaments.tasks import advance_for_game

pytestmark = pytest.mark.django_db


def test_an_eight_player_knockout_is_played_to_a_winner(django_capture_on_commit_callbacks,
                                                        monkeypatch):
    players = people.players(8)
    made = create(players[0])
    tournament_id = made["id"]
    assert made["seed"] is None and len(made["seed_hash"]) == 64
    for player in players:
        assert api_client_for(player).post(f"{API}{tournament_id}/join/").status_code == 200

    close_signup(tournament_id)

    first = tables(tournament_id, 1)
    assert [len(t.game.seats.all()) for t in first] == [4, 4]
    assert all(t.game.status == "active" and t.game.rated for t in first)
    assert Notification.objects.filter(kind="tournament", payload__what="round").count() == 8

    # Round 1: some real play, then the seats leave in reverse order (seat 0 wins).
    queued = []
    monkeypatch.setattr("lib.publish.publish_later",
                        lambda task, args=(), countdown=0: queued.append((task.name, args)))
    for table in first:
        seated = [s.user for s in table.game.seats.order_by("seat")]
        play_until(table.game, seated, lambda state: state.turn >= 5)
        with django_capture_on_commit_callbacks(execute=True):
            finish_in_seat_order(table.game)
        assert ("tournaments.tasks.advance_for_game", (table.game_id,)) in queued
        advance_for_game(table.game_id)  # the worker runs the queued task

    through = {s.user.username for t in first for s in t.game.seats.filter(seat__lt=2)}
    second = tables(tournament_id, 2)
    assert len(second) == 1
    final = second[0].game
    assert {s.user.username for s in final.seats.all()} == through

    # The final: seat 0 wins it.
    finish_in_seat_order(final)
    advance_for_game(final.pk)
    advance_for_game(final.pk)  # a second delivery of the task changes nothing

    body = APIClient().get(f"{API}{tournament_id}/").json()
    champion = final.seats.get(seat=0).user.username
    assert body["status"] == "finished" and body["winner"] == champion
    assert body["standings"][0]["username"] == champion
    assert [row["out_in_round"] for row in body["standings"]] == [None, 2, 2, 2, 1, 1, 1, 1]
    assert [r["round"] for r in body["bracket"]] == [1, 2]
    assert [row["through"] for row in body["bracket"][0]["tables"][0]["result"]] == [
        True, True, False, False]

    # The seed is revealed, and with it anyone can check the first round's draw.
    assert body["seed"] is not None
    ids = sorted(p.pk for p in players)
    FairDice(body["seed"], f"tournament-{tournament_id}").at(1).shuffle(ids)
    assert [[s.user_id for s in t.game.seats.order_by("seat")] for t in first] == [
        ids[:4], ids[4:]]

    assert Notification.objects.filter(kind="tournament", payload__what="round").count() == 12
    assert Notification.objects.filter(kind="tournament", payload__what="finished").count() == 8
    assert Notification.objects.filter(kind="tournament", payload__what="out").count() == 7
