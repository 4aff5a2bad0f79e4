"""/api/v1/vacations/ and notifications/vacations.py: declared vacations and the yearly
allowance."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from rest_framework.test import APIClient

from notifications.models import Vacation
from notifications.vacations import VacationError, days_in_year, declare
from tests import people

URL = "/api/v1/vacations/"


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def iso(moment: datetime) -> str:
    return moment.isoformat()


def test_it_declares_a_vacation(alice, clock):
    starts, ends = clock.now + timedelta(days=1), clock.now + timedelta(days=8)

    answer = api(alice).post(URL, {"starts": iso(starts), "ends": iso(ends)}, format="json")

    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["days"] == 7.0
    assert datetime.fromisoformat(body["starts"]) == starts
    assert datetime.fromisoformat(body["ends"]) == ends
    assert Vacation.objects.get(pk=body["id"]).user == alice


def test_it_lists_only_the_players_own_coming_vacations(alice, bob, clock):
    mine = declare(alice, clock.now + timedelta(days=1), clock.now + timedelta(days=2))
    declare(bob, clock.now + timedelta(days=1), clock.now + timedelta(days=2))
    over = declare(alice, clock.now, clock.now + timedelta(hours=1))
    clock.advance(hours=2)

    answer = api(alice).get(URL)

    assert answer.status_code == 200
    assert [v["id"] for v in answer.json()] == [mine.pk]
    assert over.pk not in [v["id"] for v in answer.json()]


def test_it_lets_a_player_cancel_their_vacation(alice, clock):
    vacation = declare(alice, clock.now + timedelta(days=1), clock.now + timedelta(days=2))

    answer = api(alice).delete(f"{URL}{vacation.pk}/")

    assert answer.status_code == 204
    assert not Vacation.objects.filter(pk=vacation.pk).exists()


def test_it_hides_another_players_vacation(alice, charlie, clock):
    vacation = declare(alice, clock.now + timedelta(days=1), clock.now + timedelta(days=2))

    assert api(charlie).delete(f"{URL}{vacation.pk}/").status_code == 404
    assert api(charlie).get(URL).json() == []
    assert Vacation.objects.filter(pk=vacation.pk).exists()


def test_it_wants_a_signed_in_player(db, clock):
    assert api().get(URL).status_code == 401
    assert api().post(URL, {}, format="json").status_code == 401
    assert not Vacation.objects.exists()


@pytest.mark.parametrize("body, detail", [
    ({}, "starts and ends must be ISO 8601 date-times"),
    ({"starts": "tomorrow", "ends": "next week"}, "starts and ends must be ISO 8601"),
    ({"starts": "2026-06-11T10:00:00+00:00"}, "starts and ends must be ISO 8601"),
    ({"starts": "2026-06-11T10:00:00", "ends": "2026-06-12T10:00:00"},
     "give times with a time zone"),
    # Read strictly (lib.inputs.moment): ASCII digits only, a possible instant.
    ({"starts": "٢٠٢٦-٠٦-١١T10:00:00+00:00", "ends": "2026-06-12T10:00:00+00:00"},
     "starts and ends must be ISO 8601"),
    ({"starts": "2026-06-11T10:00:00+00:00", "ends": "2026-06-1²T10:00:00+00:00"},
     "starts and ends must be ISO 8601"),
    ({"starts": "2026-06-11T10:00:00+00:00", "ends": "2026-06-12T10:00:00+25:00"},
     "starts and ends must be ISO 8601"),
    ({"starts": "2026-06-11T10:00:00+00:00", "ends": "9999-12-31T23:59:00-05:00"},
     "starts and ends must be ISO 8601"),
    ({"starts": "2026-06-11T10:00:00+00:00", "ends": 20260612},
     "starts and ends must be ISO 8601"),
    ({"starts": "2026-06-12T10:00:00+00:00", "ends": "2026-06-11T10:00:00+00:00"},
     "a vacation must end after it starts"),
    ({"starts": "2026-06-01T10:00:00+00:00", "ends": "2026-06-09T10:00:00+00:00"},
     "a vacation cannot end in the past"),
    ({"starts": "2026-06-11T10:00:00+00:00", "ends": "2026-07-11T10:00:00+00:00"},
     "that would make 30 days of vacation in 2026; the allowance is 21 days a year"),
])
def test_it_refuses_a_bad_vacation(alice, clock, body, detail):
    answer = api(alice).post(URL, body, format="json")

    assert answer.status_code == 400
    assert answer.json()["error"] in ("bad_request", "bad_vacation")
    assert detail in answer.json()["detail"]
    assert not Vacation.objects.exists()


def test_it_refuses_a_body_that_is_not_an_object(alice, clock):
    answer = api(alice).post(URL, ["2026-06-11T10:00:00+00:00"], format="json")

    assert answer.status_code == 400
    assert answer.json()["error"] == "bad_request"


def test_it_counts_the_allowance_over_all_vacations_of_the_year(alice, clock, settings):
    settings.CONQUEST_VACATION_DAYS_PER_YEAR = 10
    declare(alice, clock.now + timedelta(days=1), clock.now + timedelta(days=7))

    with pytest.raises(VacationError, match=r"make 11 days of vacation in 2026.*\(6 used\)"):
        declare(alice, clock.now + timedelta(days=20), clock.now + timedelta(days=25))
    declare(alice, clock.now + timedelta(days=20), clock.now + timedelta(days=24))

    assert days_in_year(alice, 2026) == pytest.approx(10)


def test_it_gives_the_allowance_back_for_a_cancelled_vacation(alice, clock, settings):
    settings.CONQUEST_VACATION_DAYS_PER_YEAR = 10
    first = declare(alice, clock.now + timedelta(days=1), clock.now + timedelta(days=11))

    assert api(alice).delete(f"{URL}{first.pk}/").status_code == 204
    answer = api(alice).post(URL, {"starts": iso(clock.now + timedelta(days=30)),
                                   "ends": iso(clock.now + timedelta(days=40))}, format="json")
    assert answer.status_code == 201


def test_it_counts_each_calendar_year_on_its_own(alice, clock, settings):
    settings.CONQUEST_VACATION_DAYS_PER_YEAR = 10
    clock.set(datetime(2026, 12, 20, tzinfo=UTC))

    # Dec 24 to Jan 7: 8 days in 2026, 6 in 2027.
    declare(alice, datetime(2026, 12, 24, tzinfo=UTC), datetime(2027, 1, 7, tzinfo=UTC))

    assert days_in_year(alice, 2026) == pytest.approx(8)
    assert days_in_year(alice, 2027) == pytest.approx(6)
    with pytest.raises(VacationError, match="in 2026"):
        declare(alice, datetime(2026, 12, 28, tzinfo=UTC), datetime(2026, 12, 31, tzinfo=UTC))
    declare(alice, datetime(2027, 3, 1, tzinfo=UTC), datetime(2027, 3, 5, tzinfo=UTC))
    with pytest.raises(VacationError, match="in 2027"):
        declare(alice, datetime(2027, 6, 1, tzinfo=UTC), datetime(2027, 6, 2, tzinfo=UTC))


def test_it_keeps_each_players_allowance_apart(alice, bob, clock, settings):
    settings.CONQUEST_VACATION_DAYS_PER_YEAR = 5
    declare(alice, clock.now, clock.now + timedelta(days=5))

    declare(bob, clock.now, clock.now + timedelta(days=5))

    assert days_in_year(alice, 2026) == days_in_year(bob, 2026) == pytest.approx(5)


def test_it_starts_a_vacation_declared_backwards_now(alice, clock):
    vacation = declare(alice, clock.now - timedelta(days=3), clock.now + timedelta(days=2))

    assert vacation.starts == clock.now
    assert vacation.days == pytest.approx(2)


def test_it_keeps_a_start_a_few_minutes_ago(alice, clock):
    # A form filled in a minute ago says "now": that is not declaring backwards.
    vacation = declare(alice, clock.now - timedelta(minutes=2), clock.now + timedelta(days=1))

    assert vacation.starts == clock.now - timedelta(minutes=2)


def test_it_reads_times_in_any_offset(alice, clock):
    answer = api(alice).post(URL, {"starts": "2026-06-11T12:00:00+02:00",
                                   "ends": "2026-06-12T12:00:00+02:00"}, format="json")

    assert answer.status_code == 201
    assert Vacation.objects.get().starts == datetime(2026, 6, 11, 10, tzinfo=UTC)


def test_it_ends_a_vacation_under_way_now_and_keeps_its_days_counted(alice, clock, settings):
    settings.CONQUEST_VACATION_DAYS_PER_YEAR = 10
    vacation = declare(alice, clock.now, clock.now + timedelta(days=10))
    clock.set(clock.now + timedelta(days=4))

    assert api(alice).delete(f"{URL}{vacation.pk}/").status_code == 204

    vacation.refresh_from_db()
    assert vacation.ends == clock.now
    assert days_in_year(alice, clock.now.year) == pytest.approx(4)
    assert api(alice).get(URL).json() == []
    assert api(alice).delete(f"{URL}{vacation.pk}/").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_it_never_grants_more_than_the_allowance_to_racing_declarations(settings, clock):

    from tests.games.support import at_once
    settings.CONQUEST_VACATION_DAYS_PER_YEAR = 21
    racer = people.user("racer", password="pw")
    # Ten weeks in one year, all within a year from now: the clock's now (in June), as
    # from January 1 to 22 of a real year the last weeks lie more than 366 days ahead.
    start = datetime(clock.now.year + 1, 1, 5, tzinfo=UTC)

    outcomes = at_once([
        lambda i=i: declare(racer, start + timedelta(days=7 * i),
                            start + timedelta(days=7 * i + 6))
        for i in range(10)])

    granted = [o for o in outcomes if isinstance(o, Vacation)]
    assert len(granted) == 3
    assert all(isinstance(o, VacationError) for o in outcomes if o not in granted)
    assert sum(v.days for v in Vacation.objects.filter(user=racer)) <= 21
