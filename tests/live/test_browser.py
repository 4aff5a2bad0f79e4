"""The game page in a real browser, served as `make run` serves it (gunicorn's ASGI worker
on config.asgi): another player's move shows at once, through the game's stream, long
before the 4-second poll would have brought it."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.test import Client

from games import service
from games.states import load_state
from tests.people import with_password
from tests.web.support import started_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_move_by_another_player_shows_within_a_second(browser, contexts, stream_server):
    server = stream_server
    alice, bob = with_password("alice"), with_password("bob")
    game = started_game([alice, bob])
    state = load_state(game)
    watcher = (alice, bob)[1 - state.current]
    base = f"http://127.0.0.1:{server.port}"
    # Signed in by a session the test makes (the server hashes passwords otherwise
    # than the test's settings do).
    client = Client()
    client.force_login(watcher)
    context = browser.new_context()
    contexts.append(context)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": base,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    page = context.new_page()
    streams = []
    page.on("request", lambda r: f"/games/{game.pk}/stream/" in r.url
            and streams.append(r.url))
    page.goto(f"{base}/games/{game.pk}/")
    shown = page.locator("#game").get_attribute("data-version")
    for _ in range(100):  # until the page's stream is open (its first event sent)
        if streams:
            break
        page.wait_for_timeout(50)
    page.wait_for_timeout(500)
    assert streams, "the game page opened no stream"
    mover = (alice, bob)[state.current]
    own = state.territories_of(state.current)[0]
    service.submit(service.player(mover), game, {"type": "place", "placements": {own: 1}})
    moved = time.monotonic()
    while time.monotonic() - moved < 3.5:  # the poll comes every 4 s
        if page.locator("#game").get_attribute("data-version") != shown:
            break
        page.wait_for_timeout(20)
    took = time.monotonic() - moved
    assert page.locator("#game").get_attribute("data-version") != shown, \
        "the move never showed (the page's stream did not bring it)"
    print(f"the move showed on the other player's page after {took * 1000:.0f} ms")
    assert took < 1.5, f"the move took {took:.2f} s to show: the poll, not the stream"


def test_the_page_comes_back_after_a_lifetime_and_not_after_signing_out(
        browser, contexts, serve_streams):
    server = serve_streams(CONQUEST_STREAM_MAX_SECONDS="2",
                           CONQUEST_STREAM_CHECK_SECONDS="0.5")
    alice, bob = with_password("alice"), with_password("bob")
    game = started_game([alice, bob])
    state = load_state(game)
    watcher = (alice, bob)[1 - state.current]
    base = f"http://127.0.0.1:{server.port}"
    client = Client()
    client.force_login(watcher)
    context = browser.new_context()
    contexts.append(context)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": base,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    page = context.new_page()
    streams = []
    # (The page's user stream, static/js/counters.js, comes and goes on its own.)
    page.on("response", lambda r: f"/games/{game.pk}/stream/" in r.url
            and streams.append(r.status))
    page.goto(f"{base}/games/{game.pk}/")
    shown = page.locator("#game").get_attribute("data-version")
    for _ in range(200):  # a lifetime (2 s), then EventSource's own second
        if len(streams) >= 2:
            break
        page.wait_for_timeout(50)
    assert streams == [200, 200], "the page's stream did not come back after its lifetime"
    mover = (alice, bob)[state.current]
    own = state.territories_of(state.current)[0]
    service.submit(service.player(mover), game, {"type": "place", "placements": {own: 1}})
    moved = time.monotonic()
    while time.monotonic() - moved < 3.5:  # the poll comes every 4 s
        if page.locator("#game").get_attribute("data-version") != shown:
            break
        page.wait_for_timeout(20)
    assert time.monotonic() - moved < 1.5, "the stream came back no more after a lifetime"

    client.logout()
    page.wait_for_timeout(4000)  # the stream ends; at most one try again, refused
    knocked = len(streams)
    page.wait_for_timeout(4000)
    assert len(streams) == knocked, f"the page keeps coming back: {streams}"
    assert set(streams[knocked - 1:]) <= {200, 401}
