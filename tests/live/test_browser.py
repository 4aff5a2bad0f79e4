"""The game page in a real browser, served as `make run` serves it (gunicorn's ASGI worker
on config.asgi): another player's move shows at once, through the game's stream, long
before the 4-second poll would have brought it."""

from __future__ import annotations

import time

import pytest

from games import service
from games.store.states import load_state
from tests.people import with_password
from tests.web.e2e.support import sign_in
from tests.web.support import started_game

pytestmark = pytest.mark.django_db(transaction=True)


def watching(browser, contexts, server):
    """A started game of alice and bob, and a page of the player who is not moving, signed
    in by a session the test makes (the server hashes passwords otherwise than the test's
    settings do), not yet opened: (game, its state, the players, the server's address, the
    page, the test client whose session it is)."""
    players = with_password("alice"), with_password("bob")
    game = started_game(list(players))
    state = load_state(game)
    base = f"http://127.0.0.1:{server.port}"
    context = browser.new_context()
    contexts.append(context)
    session = sign_in(context, base, players[1 - state.current])
    return game, state, players, base, context.new_page(), session


def move_and_watch(page, game, state, players) -> float:
    """The mover places one army; the seconds until the watching page shows the new
    version, stopping short of the page's poll (every 4 s), so only its stream can show it
    in time."""
    shown = page.locator("#game").get_attribute("data-version")
    mover = players[state.current]
    own = state.territories_of(state.current)[0]
    service.submit(service.player(mover), game, {"type": "place", "placements": {own: 1}})
    moved = time.monotonic()
    while time.monotonic() - moved < 3.5:
        if page.locator("#game").get_attribute("data-version") != shown:
            break
        page.wait_for_timeout(20)
    assert page.locator("#game").get_attribute("data-version") != shown, \
        "the move never showed (the page's stream did not bring it)"
    return time.monotonic() - moved


def test_a_move_by_another_player_shows_within_a_second(browser, contexts, stream_server):
    game, state, players, base, page, _ = watching(browser, contexts, stream_server)
    streams = []
    page.on("request", lambda r: f"/games/{game.pk}/stream/" in r.url
            and streams.append(r.url))
    page.goto(f"{base}/games/{game.pk}/")
    for _ in range(100):  # until the page's stream is open (its first event sent)
        if streams:
            break
        page.wait_for_timeout(50)
    page.wait_for_timeout(500)
    assert streams, "the game page opened no stream"
    took = move_and_watch(page, game, state, players)
    print(f"the move showed on the other player's page after {took * 1000:.0f} ms")
    assert took < 1.5, f"the move took {took:.2f} s to show: the poll, not the stream"


def test_the_page_comes_back_after_a_lifetime_and_not_after_signing_out(
        browser, contexts, serve_streams):
    server = serve_streams(CONQUEST_STREAM_MAX_SECONDS="2",
                           CONQUEST_STREAM_CHECK_SECONDS="0.5")
    game, state, players, base, page, client = watching(browser, contexts, server)
    streams = []
    # (The page's user stream, static/js/counters.js, comes and goes on its own.)
    page.on("response", lambda r: f"/games/{game.pk}/stream/" in r.url
            and streams.append(r.status))
    page.goto(f"{base}/games/{game.pk}/")
    for _ in range(200):  # a lifetime (2 s), then EventSource's own second
        if len(streams) >= 2:
            break
        page.wait_for_timeout(50)
    assert streams == [200, 200], "the page's stream did not come back after its lifetime"
    assert move_and_watch(page, game, state, players) < 1.5, \
        "the stream came back no more after a lifetime"

    client.logout()
    page.wait_for_timeout(4000)  # the stream ends; at most one try again, refused
    knocked = len(streams)
    page.wait_for_timeout(4000)
    assert len(streams) == knocked, f"the page keeps coming back: {streams}"
    assert set(streams[knocked - 1:]) <= {200, 401}
