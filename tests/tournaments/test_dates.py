"""Sign-up times, in the API and the form: read by the one strict parser (lib.inputs),
at most a year ahead; anything else is a 400 with a reason (a form message on the page),
never a 500, and creates nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Preferences
from tests import people
from tests.games.api_support import assert_error
from tests.people import api_client_for
from tests.tournaments.support import API
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def in_days(days: int) -> str:
    return (timezone.now() + timedelta(days=days)).isoformat()


@pytest.mark.parametrize("field, value", [
    ("signup_opens", "9999-12-31T23:00:00Z"),  # closing a week later is past any date
    ("signup_opens", "9999-12-31T23:59:59-05:00"),  # in UTC: the year 10000
    ("signup_closes", "9999-12-31T23:59:59-05:00"),
    ("signup_opens", "0001-01-01T00:00:00+01:00"),  # in UTC: the year 0
    ("signup_closes", "2030-02-30T12:00:00Z"),  # no such day
    ("signup_closes", "2030-01-01T00:00:00+25:00"),  # no such offset
    ("signup_closes", "２０３０-01-01T00:00:00Z"),  # digits, but not ASCII ones
    ("signup_closes", "2030-01-01T00:00:00"),  # no zone
    ("signup_closes", 20300101),
    ("signup_closes", ["2030-01-01T00:00:00Z"]),
    ("signup_opens", "in_days(400)"),  # more than a year ahead
    ("signup_closes", "in_days(400)"),
])
def test_the_api_refuses_a_sign_up_time_it_cannot_hold(field, value):
    alice, = people.players(1)
    if value == "in_days(400)":
        value = in_days(400)
    # Sign-up closes a week after it opens unless told: only the field tried is sent.
    body = {"name": "Cup", field: value}

    answer = api_client_for(alice).post(API, body, format="json")

    assert field in assert_error(answer, 400, "bad_request")["detail"]
    assert not Tournament.objects.exists()


def test_the_api_takes_a_time_in_any_zone_within_the_year():
    alice, = people.players(1)
    moment = timezone.now() + timedelta(days=300)
    closes = moment.astimezone(timezone.get_fixed_timezone(-300)).isoformat()

    answer = api_client_for(alice).post(API, {"name": "Cup", "signup_closes": closes},
                                    format="json")

    assert answer.status_code == 201, answer.content
    assert Tournament.objects.get().signup_closes == moment


def form(closes: str) -> dict:
    return {"name": "Autumn cup", "format": "knockout", "seats": "4", "advance": "1",
            "rounds": "3", "max_players": "8", "deadline_seconds": "86400",
            "signup_closes": closes}


@pytest.mark.parametrize("zone", ["UTC", "America/New_York", "Asia/Tokyo"])
@pytest.mark.parametrize("closes", ["9999-12-31T23:59", "far"])
def test_the_form_refuses_a_far_sign_up_time_with_a_message(zone, closes):
    alice, = people.players(1)
    Preferences.objects.update_or_create(user=alice, defaults={"time_zone": zone})
    if closes == "far":
        closes = (timezone.now() + timedelta(days=400)).strftime("%Y-%m-%dT%H:%M")
    client = Client()
    client.force_login(alice)

    answer = client.post("/tournaments/", form(closes))

    assert answer.status_code == 400
    assert "signup_closes must be at most 365 days ahead" in answer.content.decode()
    assert not Tournament.objects.exists()


def test_the_form_reads_its_time_as_utc_as_its_label_says():
    alice, = people.players(1)
    Preferences.objects.update_or_create(user=alice, defaults={"time_zone": "Asia/Tokyo"})
    closes = (timezone.now() + timedelta(days=3)).replace(second=0, microsecond=0)
    client = Client()
    client.force_login(alice)

    answer = client.post("/tournaments/", form(closes.strftime("%Y-%m-%dT%H:%M")))

    assert answer.status_code == 302
    assert Tournament.objects.get().signup_closes == closes
