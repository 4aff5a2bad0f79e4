"""While the database cannot be reached, the API answers 503 in its JSON error shape and the
pages a friendly 503 in the site's layout, both with Retry-After; the log says so in one
line, not a traceback per request; and all is served again once it is back."""

from __future__ import annotations

import logging

import pytest
from django.test import Client

from ops.outage import OUTAGES
from tests import people
from tests.ops.outages import database_down
from tests.people import signed_up

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def outage_log():
    OUTAGES.reset()
    yield
    OUTAGES.reset()


@pytest.fixture
def alice_signed_in():
    """A browser with alice's session, whose every request reads the session and her
    preferences (middleware, before any view)."""
    browser = Client(raise_request_exception=False)
    browser.force_login(people.user("alice", email=""))
    return browser


def test_the_api_answers_503_json_with_retry_after():
    alice = signed_up("alice")
    with database_down():
        listed = alice.get("/api/v1/games/")
        created = alice.post("/api/v1/games/", {"name": "g", "players": 2}, format="json")

    for response in (listed, created):
        assert response.status_code == 503
        assert response["Content-Type"] == "application/json"
        assert response.json()["error"] == "unavailable"
        assert response.json()["detail"]
        assert int(response["Retry-After"]) > 0


def test_an_anonymous_page_is_a_friendly_503_in_the_sites_layout(client):
    with database_down():
        response = client.get("/games/")

    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    assert int(response["Retry-After"]) > 0
    page = response.content.decode()
    assert '<header class="site">' in page and "back in a moment" in page
    assert "Server Error" not in page


def test_a_signed_in_players_page_is_the_same_503(alice_signed_in):
    with database_down():
        home = alice_signed_in.get("/")
        game = alice_signed_in.get("/games/1/")

    for response in (home, game):
        assert response.status_code == 503
        assert "back in a moment" in response.content.decode()
        assert int(response["Retry-After"]) > 0


@pytest.fixture
def logged():
    """What the loggers of requests and of outages write (both go to the console), as
    their handlers would receive it, tracebacks included."""
    lines = []

    class Keep(logging.Handler):
        def emit(self, record):
            lines.append(logging.Formatter().format(record))

    keep = Keep()
    loggers = [logging.getLogger(name) for name in ("django.request", "ops")]
    for logger in loggers:
        logger.addHandler(keep)
    yield lines
    for logger in loggers:
        logger.removeHandler(keep)


def test_it_logs_the_outage_in_one_line_not_a_traceback_per_request(
        client, alice_signed_in, logged):
    alice = signed_up("bob")
    with database_down():
        for _ in range(3):
            assert client.get("/games/").status_code == 503
            assert alice_signed_in.get("/").status_code == 503
            assert alice.get("/api/v1/games/").status_code == 503

    assert len(logged) == 1, logged
    assert "the database cannot be reached" in logged[0]
    assert "Traceback" not in logged[0] and "\n" not in logged[0]


def test_it_serves_again_once_the_database_is_back(client):
    with database_down():
        assert client.get("/games/").status_code == 503

    assert client.get("/games/").status_code == 200
