"""Signing up, in and out, resetting a password by mail, preferences, language."""

from __future__ import annotations

import re
import zoneinfo
from datetime import datetime, time, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone

from accounts.models import Preferences
from tests.people import PASSWORD


def test_it_signs_up_a_player_and_signs_them_in(client, db):
    response = client.post("/accounts/signup/", {
        "username": "dora", "email": "dora@example.com",
        "password1": PASSWORD, "password2": PASSWORD,
    })

    assert response.status_code == 302 and response["Location"] == "/games/"
    dora = get_user_model().objects.get(username="dora")
    assert dora.email == "dora@example.com"
    assert Preferences.objects.filter(user=dora).exists()
    assert "dora" in client.get("/games/").content.decode()


def test_it_refuses_a_bad_sign_up(client, alice):
    taken = client.post("/accounts/signup/", {
        "username": "alice", "email": "a@example.com", "password1": PASSWORD,
        "password2": PASSWORD})
    mismatch = client.post("/accounts/signup/", {
        "username": "erin", "email": "e@example.com", "password1": PASSWORD,
        "password2": PASSWORD + "x"})
    no_mail = client.post("/accounts/signup/", {
        "username": "fred", "email": "", "password1": PASSWORD, "password2": PASSWORD})

    assert taken.status_code == mismatch.status_code == no_mail.status_code == 400
    assert "already exists" in taken.content.decode()
    assert 'role="alert"' in mismatch.content.decode()
    assert get_user_model().objects.filter(username__in=["erin", "fred"]).count() == 0


def test_it_signs_in_and_out(client, alice):
    page = client.get("/accounts/login/")
    wrong = client.post("/accounts/login/", {"username": "alice", "password": "nope"})
    right = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    out = client.post("/accounts/logout/")

    assert page.status_code == 200
    assert wrong.status_code == 200 and 'role="alert"' in wrong.content.decode()
    assert right.status_code == 302 and right["Location"] == "/games/"
    assert out.status_code == 302
    assert "Sign in" in client.get("/").content.decode()


def test_it_resets_a_password_by_mail(client, alice):
    asked = client.post("/accounts/password_reset/", {"email": "alice@example.com"})

    assert asked.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["alice@example.com"]
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {
        "new_password1": "a-brand-new-secret-9", "new_password2": "a-brand-new-secret-9"})
    assert done.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("a-brand-new-secret-9")


def test_it_edits_the_preferences(as_alice, alice):
    page = as_alice.get("/accounts/profile/")
    saved = as_alice.post("/accounts/profile/", {
        "email": "alice@example.com", "time_zone": "Europe/Prague", "language": "cs",
        "turn_mail": "digest", "reminder_hours": "1, 12", "digest_hour": "7",
        "game_mail": "", "unsubscribed": "on",
    })

    assert page.status_code == 200 and "Time zone" in page.content.decode()
    assert saved.status_code == 302
    preferences = Preferences.objects.get(user=alice)
    assert (preferences.time_zone, preferences.language, preferences.turn_mail) == (
        "Europe/Prague", "cs", "digest")
    assert preferences.reminder_hours == [12, 1] and preferences.digest_hour == 7
    assert preferences.game_mail is False and preferences.unsubscribed is True
    assert saved.cookies["django_language"].value == "cs"


def test_it_keeps_the_standing_choice_for_the_neutrals_armies(as_alice, alice):
    page = as_alice.get("/accounts/profile/").content.decode()
    assert 'name="neutral_placement" value="ask"' in page and "on the borders" in page
    fields = {"email": "alice@example.com", "time_zone": "UTC", "language": "en",
              "turn_mail": "each", "reminder_hours": "12", "digest_hour": "8"}

    assert as_alice.post("/accounts/profile/", {
        **fields, "neutral_placement": "borders"}).status_code == 302
    assert Preferences.objects.get(user=alice).neutral_placement == "borders"
    assert as_alice.post("/accounts/profile/", fields).status_code == 302  # kept as it was
    assert Preferences.objects.get(user=alice).neutral_placement == "borders"
    refused = as_alice.post("/accounts/profile/", {**fields, "neutral_placement": "sea"})
    assert refused.status_code == 400 and "Select a valid choice" in refused.content.decode()
    assert Preferences.objects.get(user=alice).neutral_placement == "borders"


def test_it_refuses_bad_preferences(as_alice, alice):
    response = as_alice.post("/accounts/profile/", {
        "email": "alice@example.com", "time_zone": "Mars/Olympus", "language": "cs",
        "turn_mail": "each", "reminder_hours": "soon", "digest_hour": "25",
    })

    assert response.status_code == 400
    html = response.content.decode()
    assert "Select a valid choice" in html and "from 1 to 168" in html
    assert Preferences.objects.get(user=alice).time_zone == "UTC"


def test_it_needs_a_sign_in_for_the_profile(client, db):
    response = client.get("/accounts/profile/")

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_it_switches_the_language_and_remembers_it(as_alice, alice):
    response = as_alice.post("/i18n/setlang/", {"language": "pl", "next": "/games/"})

    assert response.status_code == 302 and response["Location"] == "/games/"
    assert Preferences.objects.get(user=alice).language == "pl"
    assert "Gry" in as_alice.get("/games/").content.decode()


def test_it_shows_the_players_language_and_time_zone(client, alice, bob):
    from tests.people import client_for
    from tests.web.support import started_game
    Preferences.objects.create(user=alice, language="cs", time_zone="Asia/Tokyo")
    game = started_game([alice, bob], setup="random")

    html = client_for(alice).get(f"/games/{game.pk}/").content.decode()

    assert 'lang="cs"' in html and "Tah" in html
    assert "JST" in html


def test_it_declares_and_calls_off_a_vacation_in_the_players_time_zone(as_alice, alice):
    from accounts.models import preferences_for
    from notifications.models import Vacation
    from notifications.vacations import days_in_year

    preferences = preferences_for(alice)
    preferences.time_zone = "Europe/Prague"
    preferences.save()
    first = timezone.localdate() + timedelta(days=10)

    response = as_alice.post("/accounts/vacations/", {
        "first_day": first.isoformat(), "last_day": (first + timedelta(days=2)).isoformat()})

    assert response.status_code == 302
    vacation = Vacation.objects.get(user=alice)
    prague = zoneinfo.ZoneInfo("Europe/Prague")
    assert vacation.starts == datetime.combine(first, time.min, tzinfo=prague)
    assert vacation.days == pytest.approx(3, abs=1 / 24)  # a clock change may fall inside
    profile = as_alice.get("/accounts/profile/")
    page = profile.content.decode()
    used = days_in_year(alice, timezone.now().year)
    assert profile.context["vacation_days_used"] == round(used, 1)
    shown = f"{used:.1f}".removesuffix(".0")  # "3", never "3.0"
    assert f"you have used {shown} in" in page
    assert f"/accounts/vacations/{vacation.pk}/cancel/" in page

    assert as_alice.post(f"/accounts/vacations/{vacation.pk}/cancel/").status_code == 302
    assert not Vacation.objects.exists()


def days_from_today(n: int) -> str:
    return (timezone.localdate() + timedelta(days=n)).isoformat()


@pytest.mark.parametrize(("first", "last", "message"), [
    ("2026-13-01", "2026-12-02", "Enter a valid date."),
    ("", "", "This field is required."),
    # 48 days: over the allowance however a year's end splits them (31 days from the
    # 8th to the 19th of December were 21 and 10, each within its year's allowance).
    (3, 50, "the allowance is 21 days a year"),
    (3, 2, "The last day cannot come before the first."),
    (-3, -2, "a vacation cannot end in the past"),
])
def test_it_refuses_a_vacation_that_makes_no_sense(as_alice, first, last, message):
    from notifications.models import Vacation

    fields = {"first_day": days_from_today(first) if isinstance(first, int) else first,
              "last_day": days_from_today(last) if isinstance(last, int) else last}

    response = as_alice.post("/accounts/vacations/", fields)

    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Vacation.objects.exists()


def test_it_keeps_other_players_vacations_out_of_reach(as_alice, bob):
    from notifications.models import Vacation

    theirs = Vacation.objects.create(user=bob, starts=timezone.now() + timedelta(days=1),
                                     ends=timezone.now() + timedelta(days=2))

    assert as_alice.post(f"/accounts/vacations/{theirs.pk}/cancel/").status_code == 404
    assert as_alice.get(f"/accounts/vacations/{theirs.pk}/cancel/").status_code == 405
    assert Vacation.objects.filter(pk=theirs.pk).exists()


def test_a_sign_up_with_an_address_in_use_is_answered_as_any(client, alice):
    response = client.post("/accounts/signup/", {
        "username": "alias", "email": alice.email.upper(), "password1": PASSWORD,
        "password2": PASSWORD})

    # The address's owner is told by mail (tests/accounts/test_taken_address.py).
    assert response.status_code == 302
    assert get_user_model().objects.filter(username="alias").exists()


def test_it_refuses_a_sign_up_whose_name_differs_only_in_case(client, alice):
    response = client.post("/accounts/signup/", {
        "username": "ALICE", "email": "other@example.com", "password1": PASSWORD,
        "password2": PASSWORD})

    assert response.status_code == 400
    assert get_user_model().objects.filter(username__iexact="alice").count() == 1
