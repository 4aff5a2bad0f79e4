"""The tournaments' pages: list, creation form, sign-up, standings, moderators' form."""

from __future__ import annotations

import pytest
from django.test import Client

from moderation.permissions import make_moderator
from tests import people
from tests.people import client_for
from tests.tournaments.support import close_signup, create, form
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def test_a_player_opens_a_tournament_from_the_form_and_signs_up():
    alice, = people.players(1)
    client = client_for(alice)

    answer = client.post("/tournaments/", form(preset="fog"))

    made = Tournament.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/tournaments/{made.pk}/"
    assert made.rules["fog"] is True
    assert client.post(f"/tournaments/{made.pk}/join/").status_code == 302
    assert Entry.objects.filter(tournament=made, user=alice).exists()
    page = client.get(f"/tournaments/{made.pk}/").content.decode()
    assert 'data-username="alice"' in page and "Leave the tournament" in page
    assert 'href="/tournaments/"' in page  # in the site's navigation


@pytest.mark.parametrize("fields, message", [
    ({"signup_closes": "2020-01-01T00:00"}, "must be in the future"),
    ({"seats": "9"}, "Select a valid choice"),
    ({"advance": "3", "seats": "3"}, "advance must be"),
])
def test_a_bad_form_gets_a_message_not_a_500(fields, message):
    alice, = people.players(1)

    answer = client_for(alice).post("/tournaments/", form(**fields))

    assert answer.status_code == 400
    assert message in answer.content.decode()
    assert not Tournament.objects.exists()


def test_the_page_shows_the_bracket_once_drawn_and_a_moderator_can_cancel():
    *players, mona = people.players(5)
    make_moderator(mona)
    made = create(players[0])
    for player in players:
        client_for(player).post(f"/tournaments/{made['id']}/join/")
    close_signup(made["id"])

    page = Client().get(f"/tournaments/{made['id']}/").content.decode()
    assert "Table 1" in page and "round 1" in page
    assert "Moderate" not in page
    assert client_for(players[0]).post(f"/tournaments/{made['id']}/moderate/",
                                      {"action": "cancel"}).status_code == 403

    answer = client_for(mona).post(f"/tournaments/{made['id']}/moderate/",
                                  {"action": "cancel", "reason": "test"})

    assert answer.status_code == 302
    assert Tournament.objects.get(pk=made["id"]).status == "cancelled"


def test_an_unknown_tournament_page_is_a_404(db):
    assert Client().get("/tournaments/12345/").status_code == 404
