"""Password reset by mail: only to a confirmed address, a few an hour per address and per
client, and the same answer whether a mail went or not."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from tests.people import confirm_address, signed_up

RESET = "/accounts/password_reset/"
DONE = "/accounts/password_reset/done/"


def reset(email: str, client_address: str = "127.0.0.1"):
    return Client().post(RESET, {"email": email}, REMOTE_ADDR=client_address)


def reset_mails(to: str) -> list:
    return [m for m in mail.outbox if m.to == [to] and "/accounts/reset/" in m.body]


@pytest.fixture
def generous(settings):
    """Room for the requests of one test from one client address."""
    settings.CONQUEST_THROTTLE_RATES = dict(settings.CONQUEST_THROTTLE_RATES,
                                            password_reset_ip="1000/hour")


def test_it_mails_a_confirmed_address(db):
    signed_up("alice")

    answer = reset("alice@example.com")

    assert answer.status_code == 302 and answer["Location"] == DONE
    assert len(reset_mails("alice@example.com")) == 1


def test_it_mails_an_address_the_operator_set(db):
    get_user_model().objects.create_user("olga", "olga@example.com", "olga-long-secret-1")

    reset("olga@example.com")

    assert len(reset_mails("olga@example.com")) == 1


def test_it_mails_nothing_to_an_address_never_confirmed(db, generous):
    signed_up("dora", confirm=False)

    answers = [reset("dora@example.com") for _ in range(25)]

    assert {(a.status_code, a["Location"]) for a in answers} == {(302, DONE)}
    assert reset_mails("dora@example.com") == []


def test_it_mails_it_once_its_owner_has_confirmed_it(db):
    dora = signed_up("dora", confirm=False)
    reset("dora@example.com")

    confirm_address(dora.user_id)
    reset("dora@example.com")

    assert len(reset_mails("dora@example.com")) == 1


def test_every_address_gets_the_same_answer(db, generous):
    signed_up("alice")
    signed_up("dora", confirm=False)

    answers = [reset(email) for email in
               ("alice@example.com", "dora@example.com", "nobody@example.com")]

    assert len({(a.status_code, a["Location"], a.content) for a in answers}) == 1
    assert len(reset_mails("alice@example.com")) == 1


def test_it_mails_one_address_a_few_times_an_hour_whoever_asks(db, settings):
    signed_up("alice")
    few = int(settings.CONQUEST_THROTTLE_RATES["password_reset_email"].split("/")[0])

    answers = [reset("Alice@Example.com" if n % 2 else "alice@example.com", f"192.0.2.{n}")
               for n in range(25)]

    assert 1 <= few <= 5
    assert {(a.status_code, a["Location"]) for a in answers} == {(302, DONE)}
    assert len(reset_mails("alice@example.com")) == few


def test_it_limits_the_resets_one_client_asks_for(db, settings):
    users = [signed_up(f"user{n}") for n in range(8)]
    few = int(settings.CONQUEST_THROTTLE_RATES["password_reset_ip"].split("/")[0])

    answers = [reset(f"user{n}@example.com") for n in range(len(users))]

    assert 1 <= few < len(users)
    assert [a.status_code for a in answers] == [302] * few + [429] * (len(users) - few)
    assert "try again in" in answers[-1].content.decode()
    assert len(mail.outbox) == few


def test_a_refused_reset_changes_nothing_and_says_why(db):
    answer = Client().post(RESET, {"email": "not an address"})

    assert answer.status_code == 200
    assert 'role="alert"' in answer.content.decode()
    assert mail.outbox == []
