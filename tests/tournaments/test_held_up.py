"""A step that fails (the draw of a round, the count of one) holds the tournament up: a
state with its reason on the tournament's page, the API and the moderators' queue, tried
no more by the sweep until a moderator tries again or calls it off."""

from __future__ import annotations

import logging

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from moderation.permissions import make_moderator
from tests import people
from tests.games.api_support import assert_error
from tests.people import api_client_for, client_for
from tests.tournaments.support import API, close_signup, create, tables
from tournaments.models import Tournament
from tournaments.tasks import sweep_tournaments

pytestmark = pytest.mark.django_db


@pytest.fixture
def held_up(caplog):
    """Four entrants; the tournament's stored rules went bad, so no game can be made."""
    players = people.players(5)
    mona = players.pop()
    make_moderator(mona)
    mona = get_user_model().objects.get(pk=mona.pk)
    made = create(players[0])
    for player in players:
        api_client_for(player).post(f"{API}{made['id']}/join/")
    good_rules = Tournament.objects.get(pk=made["id"]).rules
    Tournament.objects.filter(pk=made["id"]).update(rules={**good_rules, "fog": "yes"})
    with caplog.at_level(logging.ERROR):
        close_signup(made["id"])
    return Tournament.objects.get(pk=made["id"]), players, mona, good_rules


def test_a_failed_draw_holds_the_tournament_up_with_its_reason(held_up, caplog):
    tournament, players, mona, _ = held_up

    assert tournament.status == "stalled"
    assert "round 1" in tournament.reason and "rules.fog" in tournament.reason
    assert not tables(tournament.pk, 1)
    body = api_client_for(players[0]).get(f"{API}{tournament.pk}/").json()
    assert body["status"] == "stalled" and body["reason"] == tournament.reason
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "held up" in page and "rules.fog" in page
    queue = client_for(mona).get("/moderation/").content.decode()
    assert f'href="/tournaments/{tournament.pk}/"' in queue and "rules.fog" in queue

    # The sweep does not try again every minute: one log line, not one a minute.
    logged = len(caplog.records)
    for _ in range(3):
        sweep_tournaments()
    assert len(caplog.records) == logged
    assert Tournament.objects.get(pk=tournament.pk).status == "stalled"


def test_a_moderator_tries_again_once_the_cause_is_mended(held_up):
    tournament, players, mona, good_rules = held_up
    assert_error(api_client_for(players[0]).post(f"{API}{tournament.pk}/retry/"), 403)

    # Tried while the cause remains, it is held up again with the reason.
    again = client_for(mona).post(f"/tournaments/{tournament.pk}/moderate/",
                                 {"action": "retry"})
    assert again.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).status == "stalled"

    Tournament.objects.filter(pk=tournament.pk).update(rules=good_rules)
    answer = api_client_for(mona).post(f"{API}{tournament.pk}/retry/")

    assert answer.status_code == 200 and answer.json()["status"] == "running"
    assert answer.json()["reason"] == ""
    assert [t.game.seats.count() for t in tables(tournament.pk, 1)] == [4]


def test_a_moderator_calls_off_a_held_up_tournament(held_up):
    tournament, players, mona, _ = held_up
    assert_error(api_client_for(mona).post(f"{API}999999/retry/"), 404, "not_found")

    answer = api_client_for(mona).post(f"{API}{tournament.pk}/cancel/", {"reason": "bad rules"},
                                   format="json")

    assert answer.json()["status"] == "cancelled" and answer.json()["reason"] == "bad rules"
    assert_error(api_client_for(mona).post(f"{API}{tournament.pk}/retry/"), 400, "not_held_up")
