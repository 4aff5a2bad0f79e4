"""Under a WSGI server (runserver, a test's live server, a web instance the proxy sent it
to) a stream is a 503 at once, never a thread held and a body buffered forever."""

from __future__ import annotations

import logging

import pytest

from tests.games_in_states import open_game

pytestmark = pytest.mark.django_db


def test_it_sends_streams_to_the_asgi_server(client, alice):
    game = open_game(alice, 2, "Here")
    for path in (f"/api/v1/games/{game.pk}/stream/", "/api/v1/stream/"):
        answer = client.get(path)
        assert answer.status_code == 503, path
        assert answer.json()["error"] == "unavailable"


def test_the_refusal_is_a_warning_that_points_at_the_proxy(client, alice, caplog):
    """A web instance the proxy sent a stream to is a routing mistake of the operator's,
    not a server error: a WARNING naming the proxy's routes, never an ERROR."""
    game = open_game(alice, 2, "Here")
    requests = []  # what django.request (which does not propagate) hands its handlers

    class Keep(logging.Handler):
        def emit(self, record):
            requests.append(record)
    keep = Keep()
    logging.getLogger("django.request").addHandler(keep)
    try:
        with caplog.at_level("DEBUG"):
            client.get(f"/api/v1/games/{game.pk}/stream/")
    finally:
        logging.getLogger("django.request").removeHandler(keep)
    assert requests == []
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
    warned = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any("proxy" in text and "deploy/nginx" in text for text in warned), warned
