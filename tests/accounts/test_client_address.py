"""Which client address the per-address limits count: the connection's own, unless
settings.CONQUEST_NUM_PROXIES proxies stand in front and say whom they forward for."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from accounts.throttles import client_address
from tests.people import signed_up

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "/api/v1/auth/token/"
ALICE = {"username": "alice", "password": "alice-long-secret-1"}


def forged(n: int) -> dict:
    """A header a client made up: a new address on every request."""
    return {"HTTP_X_FORWARDED_FOR": f"203.0.113.{n}"}


def rates(settings, **changed) -> None:
    settings.CONQUEST_THROTTLE_RATES = dict(settings.CONQUEST_THROTTLE_RATES, **changed)


def sign_up(n: int, **headers):
    return APIClient().post("/api/v1/accounts/", {
        "username": f"flood{n}", "email": f"flood{n}@example.com",
        "password": "flood-long-secret-1"}, format="json", **headers)


@pytest.mark.parametrize("proxies, header, remote, counted", [
    (0, "203.0.113.9", "192.0.2.1", "192.0.2.1"),
    (0, None, "192.0.2.1", "192.0.2.1"),
    (1, "203.0.113.9", "192.0.2.1", "203.0.113.9"),
    (1, "10.9.9.9, 203.0.113.9", "192.0.2.1", "203.0.113.9"),
    (2, "10.9.9.9,203.0.113.9, 192.0.2.50", "192.0.2.1", "203.0.113.9"),
    # Fewer addresses than proxies: not what the proxies wrote; the nearest one counts.
    (2, "203.0.113.9", "192.0.2.1", "192.0.2.1"),
    (1, None, "192.0.2.1", "192.0.2.1"),
    (1, "not-an-address", "192.0.2.1", "192.0.2.1"),
    (1, "", "192.0.2.1", "192.0.2.1"),
    # An IPv6 client holds a whole /64: it counts as one.
    (0, None, "2001:db8:1:2:3:4:5:6", "2001:db8:1:2::"),
    (1, "2001:db8:1:2:aaaa::1", "192.0.2.1", "2001:db8:1:2::"),
    (0, None, "::ffff:192.0.2.7", "192.0.2.7"),
    (0, None, "", None),
    # A proxy that writes the client's port with its address (ip:port, [v6]:port).
    (1, "203.0.113.9:51234", "192.0.2.1", "203.0.113.9"),
    (2, "10.9.9.9, 203.0.113.9:443, 192.0.2.50:8080", "192.0.2.1", "203.0.113.9"),
    (1, "[2001:db8:1:2:aaaa::1]:51234", "192.0.2.1", "2001:db8:1:2::"),
    (1, "[2001:db8:1:2:aaaa::1]", "192.0.2.1", "2001:db8:1:2::"),
    (1, "[::ffff:203.0.113.9]:80", "192.0.2.1", "203.0.113.9"),
    # Not an address with a port: the nearest proxy counts.
    (1, "203.0.113.9:", "192.0.2.1", "192.0.2.1"),
    (1, "203.0.113.9:http", "192.0.2.1", "192.0.2.1"),
    (1, "203.0.113.9:99999", "192.0.2.1", "192.0.2.1"),
    (1, "[203.0.113.9]:80", "192.0.2.1", "192.0.2.1"),
    (1, "2001:db8::1:80x", "192.0.2.1", "192.0.2.1"),
])
def test_it_takes_the_address_the_nearest_trusted_proxy_saw(settings, proxies, header, remote,
                                                            counted):
    settings.CONQUEST_NUM_PROXIES = proxies
    extra = {"REMOTE_ADDR": remote}
    if header is not None:
        extra["HTTP_X_FORWARDED_FOR"] = header

    assert client_address(RequestFactory().get("/", **extra)) == counted


def test_a_made_up_forwarded_for_does_not_escape_the_api_sign_up_limit(db, settings):
    rates(settings, signup_ip="3/hour")

    answers = [sign_up(n, **forged(n)) for n in range(5)]

    assert [a.status_code for a in answers] == [201, 201, 201, 429, 429]
    assert get_user_model().objects.filter(username__startswith="flood").count() == 3


def test_nor_the_sign_up_page(db, settings):
    rates(settings, signup_ip="2/hour")

    answers = [Client().post("/accounts/signup/", {
        "username": f"flood{n}", "email": f"flood{n}@example.com",
        "password1": "flood-long-secret-1", "password2": "flood-long-secret-1"}, **forged(n))
        for n in range(3)]

    assert [a.status_code for a in answers] == [302, 302, 429]


def test_nor_the_token_call(alice, settings):
    rates(settings, token_ip="3/minute", token_user="1000/hour")

    answers = [APIClient().post(TOKEN, ALICE, format="json", **forged(n)) for n in range(4)]

    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[3].json()["error"] == "throttled"


def test_nor_game_creation_by_api_or_lobby(alice, settings):
    rates(settings, create_game_ip="2/hour", create_game_user="1000/hour")
    browser = Client()
    browser.force_login(get_user_model().objects.get(username="alice"))

    api = [alice.post("/api/v1/games/", {"name": f"g{n}", "players": 2}, format="json",
                      **forged(n)) for n in range(2)]
    page = browser.post("/games/new/", {"name": "third", "players": "2", "preset": "classic"},
                        **forged(9))

    assert [a.status_code for a in api] == [201, 201]
    assert page.status_code == 429


def test_nor_reports_by_api_or_page(alice, settings):
    rates(settings, report_ip="2/hour", report_user="1000/hour")
    games = [alice.post("/api/v1/games/", {"name": f"g{n}", "players": 2}, format="json").json()
             for n in range(3)]
    reporter = signed_up("bob")
    browser = Client()
    browser.force_login(get_user_model().objects.get(username="bob"))

    api = [reporter.post("/api/v1/reports/", {"game": game["id"], "reason": "spam"},
                         format="json", **forged(n)) for n, game in enumerate(games[:2])]
    page = browser.post("/reports/new/", {"game": games[2]["id"], "reason": "spam"},
                        **forged(7))

    assert [a.status_code for a in api] == [201, 201]
    assert page.status_code == 429


def test_nor_the_sign_in_lock(alice):
    browser = Client()
    for n in range(12):
        browser.post("/accounts/login/", {"username": "alice", "password": f"guess-{n}"},
                     **forged(n))

    right = browser.post("/accounts/login/", ALICE, **forged(99))

    assert right.status_code == 429
    assert "_auth_user_id" not in browser.session


def test_behind_a_proxy_each_client_it_forwards_counts_apart(db, settings):
    settings.CONQUEST_NUM_PROXIES = 1
    rates(settings, signup_ip="2/hour")
    proxy = {"REMOTE_ADDR": "10.0.0.2"}

    # The client puts an address of its choice first; the proxy appends the one it saw.
    first = [sign_up(n, HTTP_X_FORWARDED_FOR=f"203.0.113.{n}, 198.51.100.7", **proxy)
             for n in range(3)]
    other = sign_up(9, HTTP_X_FORWARDED_FOR="198.51.100.8", **proxy)

    assert [a.status_code for a in first] == [201, 201, 429]
    assert other.status_code == 201


def test_a_forwarded_address_that_is_no_address_counts_as_the_proxy(alice, settings):
    settings.CONQUEST_NUM_PROXIES = 1

    answer = Client().post("/accounts/login/", {"username": "alice", "password": "wrong"},
                           HTTP_X_FORWARDED_FOR="<script>", REMOTE_ADDR="10.0.0.2")

    assert answer.status_code == 200
    assert 'role="alert"' in answer.content.decode()


def test_a_sign_in_from_a_connection_without_an_address_is_counted_not_refused(alice):
    answer = Client().post("/accounts/login/", {"username": "alice", "password": "wrong"},
                           REMOTE_ADDR="")

    assert answer.status_code == 200
    assert 'role="alert"' in answer.content.decode()


def test_it_refuses_to_start_with_a_negative_number_of_proxies():
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, text=True,
                            capture_output=True, timeout=120,
                            env={**os.environ, "CONQUEST_NUM_PROXIES": "-1"})

    assert result.returncode != 0
    assert "CONQUEST_NUM_PROXIES" in result.stderr
