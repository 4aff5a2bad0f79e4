"""An open stream lives no longer than the credential that opened it: a token revoked (one,
or all of the account's), a session signed out, a password changed, an account closed, a
private game's invitation withdrawn; within seconds the stream says `close`
(`credentials_ended`) and ends, and what happens after is not sent on it. And every stream
ends after CONQUEST_STREAM_MAX_SECONDS, telling the client to come back (`retry:`)."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.test import Client

from accounts.tokens import issue
from tests.games_in_states import new_game
from tests.live.support import StreamServer

pytestmark = pytest.mark.django_db(transaction=True)

CHECK_SECONDS = 0.5
# Longer than the re-check takes to notice: news made after this must not be sent.
SETTLE = 4 * CHECK_SECONDS
ENDED = {"reason": "credentials_ended"}


@pytest.fixture(scope="module")
def server(django_db_setup):
    """Credentials re-checked every half second; heartbeats (and with them the old re-read
    of a game's row) seldom, so that only the re-check can end a stream in time."""
    running = StreamServer(CONQUEST_STREAM_CHECK_SECONDS=str(CHECK_SECONDS),
                           CONQUEST_STREAM_HEARTBEAT_SECONDS="10").start()
    yield running
    running.stop()


def ends(stream, within: float = 8):
    """The stream's next word is `close` (credentials_ended), and then it ends."""
    started = time.monotonic()
    kind, _, data = stream.next(within=within)
    assert (kind, data) == ("close", ENDED)
    assert stream.answer.read() == b""
    assert time.monotonic() - started < within


def session_of(user) -> tuple[Client, dict]:
    """A signed-in session of `user` (the test's client holds it) and the header that
    sends its cookie."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    return client, {"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"}


def opened(stream):
    assert stream.status == 200, stream.json()
    return stream


def test_it_ends_the_streams_of_a_revoked_token_and_only_theirs(server, alice, bob):
    revoked, kept, bobs = issue(alice), issue(alice), issue(bob)
    game_id = new_game(server.client(revoked), players=2)
    notices = opened(server.open("/api/v1/stream/", revoked))
    watching = opened(server.open(f"/api/v1/games/{game_id}/stream/", revoked))
    still = opened(server.open(f"/api/v1/games/{game_id}/stream/", kept))
    assert watching.next()[0] == "view" and still.next()[0] == "view"

    assert server.call("DELETE", "/api/v1/auth/token/", revoked)[0] == 204
    assert server.call("GET", "/api/v1/games/", revoked)[0] == 401
    time.sleep(SETTLE)
    status, _ = server.call("POST", f"/api/v1/games/{game_id}/join/", bobs)
    assert status == 200  # the game starts: news for alice's streams

    ends(notices)
    ends(watching)
    assert still.next()[0] == "game_event"  # the token not revoked goes on
    still.close()


def test_it_ends_every_stream_of_the_account_when_all_its_tokens_go(server, alice, charlie):
    first, second, charlies = issue(alice), issue(alice), issue(charlie)
    notices = opened(server.open("/api/v1/stream/", first))
    more = opened(server.open("/api/v1/stream/", second))

    assert server.call("DELETE", "/api/v1/auth/token/?all=1", first)[0] == 204
    time.sleep(SETTLE)
    # A private game's invitation: its notice must not reach a stream of a revoked token.
    game_id = new_game(server.client(charlies), players=2, options={"private": True})
    status, _ = server.call("POST", f"/api/v1/games/{game_id}/invite/", charlies,
                            {"username": "alice"})
    assert status == 201

    ends(notices)
    ends(more)


def test_it_ends_a_session_signed_out(server, alice, bob):
    client, cookie = session_of(alice)
    game_id = new_game(server.client(issue(alice)), players=2)
    notices = opened(server.open("/api/v1/stream/", headers=cookie))
    watching = opened(server.open(f"/api/v1/games/{game_id}/stream/", headers=cookie))
    assert watching.next()[0] == "view"

    client.logout()  # the session is gone, as the page's "Sign out" leaves it
    time.sleep(SETTLE)
    assert server.call("POST", f"/api/v1/games/{game_id}/join/", issue(bob))[0] == 200

    ends(notices)
    ends(watching)


def test_it_ends_the_streams_of_a_changed_password(server, alice, bob):
    _, cookie = session_of(alice)
    token = issue(alice)
    game_id = new_game(server.client(token), players=2)
    by_session = opened(server.open(f"/api/v1/games/{game_id}/stream/", headers=cookie))
    by_token = opened(server.open("/api/v1/stream/", token))
    assert by_session.next()[0] == "view"

    # The session's row stays: only the password it was signed in with changed.
    alice.set_password("a new secret, somewhere else")
    alice.save()
    time.sleep(SETTLE)
    assert server.call("POST", f"/api/v1/games/{game_id}/join/", issue(bob))[0] == 200

    ends(by_session)
    ends(by_token)


def test_it_ends_the_streams_of_a_closed_account(server, alice, bob):
    _, cookie = session_of(alice)
    token = issue(alice)
    game_id = new_game(server.client(token), players=2)
    by_session = opened(server.open("/api/v1/stream/", headers=cookie))
    by_token = opened(server.open(f"/api/v1/games/{game_id}/stream/", token))
    assert by_token.next()[0] == "view"

    alice.is_active = False  # how the admin closes an account
    alice.save()
    time.sleep(SETTLE)
    assert server.call("POST", f"/api/v1/games/{game_id}/join/", issue(bob))[0] == 200

    ends(by_session)
    ends(by_token)


def test_it_ends_a_private_game_stream_when_its_invitation_is_withdrawn(
        server, alice, bob, charlie):
    alices, charlies = issue(alice), issue(charlie)
    game_id = new_game(server.client(alices), players=3, options={"private": True})
    status, _ = server.call("POST", f"/api/v1/games/{game_id}/invite/", alices,
                            {"username": "charlie"})
    assert status == 201
    watching = opened(server.open(f"/api/v1/games/{game_id}/stream/", charlies))
    assert watching.next()[0] == "view"

    status, _ = server.call("POST", f"/api/v1/games/{game_id}/withdraw/", alices,
                            {"username": "charlie"})
    assert status == 200

    ends(watching)
    assert server.open(f"/api/v1/games/{game_id}/stream/", charlies).status == 404


def test_it_ends_every_stream_after_its_lifetime_and_says_come_back(alice, bob,
                                                                     django_db_setup):
    server = StreamServer(CONQUEST_STREAM_MAX_SECONDS="2").start()
    try:
        token = issue(alice)
        game_id = new_game(server.client(token), players=2)
        assert server.call("POST", f"/api/v1/games/{game_id}/join/", issue(bob))[0] == 200
        watching = opened(server.open(f"/api/v1/games/{game_id}/stream/", token,
                                      {"Last-Event-ID": "0"}))
        notices = opened(server.open("/api/v1/stream/", token,
                                     {"Accept": "application/x-ndjson"}))
        started = time.monotonic()
        assert watching.next()[0] == "view"
        seen = None
        while (found := watching.next())[0] == "game_event":
            seen = found[1]
        # The close carries where the stream stood: EventSource resumes from there.
        assert found == ("close", seen, {"reason": "max_lifetime"})
        assert watching.retry == 1000
        assert watching.answer.read() == b""
        while (found := notices.next())[0] == "notice":
            pass
        assert (found[0], found[2]) == ("close", {"reason": "max_lifetime"})
        assert notices.answer.read() == b""
        assert time.monotonic() - started < 10
        # The client comes back, and goes on from where it was.
        again = opened(server.open(f"/api/v1/games/{game_id}/stream/", token,
                                   {"Last-Event-ID": str(seen)}))
        assert again.next()[0] == "view"
        again.close()
    finally:
        server.stop()
