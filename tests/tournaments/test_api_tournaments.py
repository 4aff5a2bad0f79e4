"""The tournaments API: creating (and refusing bad settings), signing up, leaving, round
robin standings, and the moderators' cancel and replace."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Game
from tests import people
from tests.games.api_support import assert_error
from tests.people import api_client_for
from tests.tournaments.support import API, close_signup, create, finish_in_seat_order, tables
from tournaments.models import Entry, Tournament
from tournaments.tasks import advance_for_game, sweep_tournaments

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("fields, detail", [
    ({"format": "swiss"}, "format must be"),
    ({"seats": 7}, "seats must be"),
    ({"advance": 4}, "advance must be"),
    ({"max_players": 1}, "max_players must be"),
    ({"signup_closes": "yesterday"}, "signup_closes must be a date"),
    ({"signup_closes": "2020-01-01T00:00:00Z"}, "must be in the future"),
    ({"rules": {"team_size": 2}}, "without teams"),
    ({"rules": {"fog": "yes"}}, "rules.fog"),
    ({"colour": "red"}, "unknown field"),
    ({"name": ""}, "name must be"),
])
def test_it_refuses_bad_settings_with_a_reason(db, fields, detail):
    alice, = people.players(1)
    body = {"name": "Cup", "signup_closes": (timezone.now() + timedelta(days=1)).isoformat(),
            **fields}

    answer = api_client_for(alice).post(API, body, format="json")

    assert detail in assert_error(answer, 400)["detail"]
    assert not Tournament.objects.exists()


def test_anonymous_may_read_but_not_create(db):
    assert APIClient().get(API).status_code == 200
    assert_error(APIClient().post(API, {"name": "x"}, format="json"), 401)
    assert_error(APIClient().get(f"{API}999/"), 404, "not_found")


def test_sign_up_keeps_to_the_limit_and_the_window(db):
    alice, bob, dave = people.players(3)
    made = create(alice, max_players=2)
    url = f"{API}{made['id']}/"

    assert api_client_for(alice).post(url + "join/").status_code == 200
    assert_error(api_client_for(alice).post(url + "join/"), 400, "already_entered")
    assert api_client_for(bob).post(url + "join/").json()["players"] == 2
    assert_error(api_client_for(dave).post(url + "join/"), 400, "tournament_full")
    assert api_client_for(bob).post(url + "leave/").status_code == 200
    assert_error(api_client_for(bob).post(url + "leave/"), 400, "not_entered")
    assert api_client_for(dave).post(url + "join/").status_code == 200

    close_signup(made["id"])

    assert_error(api_client_for(bob).post(url + "join/"), 400, "signup_closed")
    assert api_client_for(bob).get(url).json()["status"] == "running"


def test_a_tournament_nobody_joined_is_cancelled_when_sign_up_closes(db):
    alice, = people.players(1)
    made = create(alice)
    api_client_for(alice).post(f"{API}{made['id']}/join/")

    close_signup(made["id"])

    assert Tournament.objects.get(pk=made["id"]).status == "cancelled"


def test_a_round_robin_adds_placement_points_each_round(db):
    players = people.players(4)
    made = create(players[0], format="round_robin", seats=2, rounds=2)
    for player in players:
        api_client_for(player).post(f"{API}{made['id']}/join/")
    close_signup(made["id"])

    for round_number in (1, 2):
        games = tables(made["id"], round_number)
        assert len(games) == 2
        for table in games:
            finish_in_seat_order(table.game)
        sweep_tournaments()  # the beat finds the round over

    body = APIClient().get(f"{API}{made['id']}/").json()
    assert body["status"] == "finished"
    assert sorted(row["points"] for row in body["standings"]) == [1, 1, 1, 1]
    assert body["winner"] == body["standings"][0]["username"]
    # The seating turned: who sat first in round 1 sits second in round 2.
    first_seats = {t.group: t.game.seats.get(seat=0).user_id for t in tables(made["id"], 1)}
    second_seats = {t.group: t.game.seats.get(seat=1).user_id for t in tables(made["id"], 2)}
    assert first_seats == second_seats


def test_only_a_moderator_cancels_and_running_games_are_aborted(db, maud):
    players = people.players(4)
    made = create(players[0])
    for player in players:
        api_client_for(player).post(f"{API}{made['id']}/join/")
    close_signup(made["id"])
    url = f"{API}{made['id']}/cancel/"

    assert_error(api_client_for(players[0]).post(url, {"reason": "x"}, format="json"), 403,
                 "not_moderator")
    answer = api_client_for(maud).post(url, {"reason": "server move"}, format="json")

    assert answer.status_code == 200 and answer.json()["status"] == "cancelled"
    assert tables(made["id"], 1)[0].game.status == Game.ABORTED
    assert_error(api_client_for(maud).post(url, {}, format="json"), 400, "tournament_over")


def test_a_moderator_replaces_a_player_in_their_entry_and_their_seat(db, maud):
    players = people.players(5)
    made = create(players[0])
    for player in players[:4]:
        api_client_for(player).post(f"{API}{made['id']}/join/")
    close_signup(made["id"])
    leaving, joining = players[2], players[4]
    url = f"{API}{made['id']}/replace/"

    assert_error(api_client_for(maud).post(url, {"leaving": "nobody", "joining": "ivan"},
                                       format="json"), 400)
    answer = api_client_for(maud).post(url, {"leaving": leaving.username,
                                         "joining": joining.username}, format="json")

    assert answer.status_code == 200, answer.content
    game = tables(made["id"], 1)[0].game
    assert game.seats.filter(user=joining).exists()
    assert not game.seats.filter(user=leaving).exists()
    assert Entry.objects.filter(tournament_id=made["id"], user=joining).exists()
    finish_in_seat_order(game)
    advance_for_game(game.pk)
    assert Tournament.objects.get(pk=made["id"]).status == "finished"
