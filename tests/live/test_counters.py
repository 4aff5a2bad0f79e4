"""The counters of every signed-in page in a real browser, served as `make run` serves it
(gunicorn's ASGI worker on config.asgi): alice has the lobby open; bob invites her, writes to
her, makes the move that leaves the next one to her; her header's badges, her tab title
and her lobby's lists follow within seconds, through her user stream, without a reload."""

from __future__ import annotations

import time

import pytest

from conversations import messaging
from engine.moves import seats_to_act
from games.models import Seat
from lobby import invitations
from tests.games_in_states import open_game
from tests.people import with_password
from tests.play import play_until
from tests.web.e2e.support import sign_in
from tests.web.support import started_game

pytestmark = pytest.mark.django_db(transaction=True)

SOON = 5.0  # seconds: a notice comes through the stream in well under one


def shows(page, check, within: float = SOON) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if check():
            return True
        page.wait_for_timeout(50)
    return check()


def opened(browser, contexts, base, user, at):
    """A page where `user` is signed in, at `at`, once its user stream is open."""
    context = browser.new_context()
    contexts.append(context)
    sign_in(context, base, user)
    page = context.new_page()
    streams = []
    page.on("response", lambda r: r.url.split("?")[0].endswith("/api/v1/stream/")
            and streams.append(r.status))
    page.goto(f"{base}{at}")
    assert shows(page, lambda: bool(streams)), "the page opened no user stream"
    assert streams == [200]
    page.wait_for_timeout(300)  # its first read done: what follows is news
    return page


def badge(page, link: str) -> int:
    """The header link's unread count (0: no badge)."""
    count = page.locator(f"#{link} .unread-count")
    return int(count.inner_text().split()[0]) if count.count() else 0


def test_it_brings_an_invitation_a_message_and_a_turn_to_the_open_lobby(browser, contexts,
                                                                       stream_server):
    base = f"http://127.0.0.1:{stream_server.port}"
    alice, bob = with_password("alice"), with_password("bob")
    game = started_game([alice, bob])
    seat_of_alice = Seat.objects.get(game=game, user=alice).seat
    play_until(game, None, lambda s: seats_to_act(s) == [1 - seat_of_alice])
    page = opened(browser, contexts, base, alice, "/games/")
    assert "Your move" not in page.title()
    assert page.locator("#my-games tr.your-turn").count() == 0
    assert page.locator(".your-invitations").count() == 0
    unread = badge(page, "inbox-link")  # the game's start, her first move
    assert badge(page, "messages-link") == 0

    private = open_game(bob, 3, "Bob's table", private=True)
    invitations.invite(private, bob, "alice")
    assert shows(page, lambda: "Bob's table" in (
        page.locator("#lobby-invitations").inner_text())), "the invitation never showed"
    assert shows(page, lambda: badge(page, "inbox-link") == unread + 1)

    bob.is_staff = True  # (a newcomer may not start a conversation)
    messaging.send_message(bob, alice, "A game tonight?")
    assert shows(page, lambda: badge(page, "messages-link") == 1), \
        "the unread message never showed in the header"

    play_until(game, None, lambda s: seat_of_alice in seats_to_act(s))
    assert shows(page, lambda: "Your move" in page.title()), \
        f"the tab title never said it was her move: {page.title()!r}"
    assert page.locator("#my-games tr.your-turn").count() == 1
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1


def test_it_brings_the_header_and_the_list_up_to_date_elsewhere(browser, contexts, stream_server):
    base = f"http://127.0.0.1:{stream_server.port}"
    alice, bob = with_password("alice"), with_password("bob")
    page = opened(browser, contexts, base, alice, "/notifications/")
    private = open_game(bob, 3, "Bob's table", private=True)
    invitations.invite(private, bob, "alice")
    assert shows(page, lambda: "Bob's table" in page.locator("#inbox-entries").inner_text()), \
        "the open notification list never showed the invitation"
    assert shows(page, lambda: badge(page, "inbox-link") == 1)

    profile = opened(browser, contexts, base, alice, "/accounts/profile/")
    other = open_game(bob, 3, "Bob's second table", private=True)
    invitations.invite(other, bob, "alice")
    assert shows(profile, lambda: badge(profile, "inbox-link") == 2), \
        "the header's badge on another page never counted the invitation"


def test_it_asks_now_and_then_where_no_stream_is_served(live_server, browser, contexts):
    """A WSGI server (the test's live server) answers the stream with 503: the page asks
    again every half minute instead."""
    alice, bob = with_password("alice"), with_password("bob")
    context = browser.new_context()
    contexts.append(context)
    sign_in(context, live_server.url, alice)
    page = context.new_page()
    page.clock.install()
    refused, asked = [], []
    page.on("response", lambda r: "/api/v1/stream/" in r.url and refused.append(r.status))
    page.on("request", lambda r: r.url.endswith("/notifications/") and asked.append(r.url))
    page.goto(f"{live_server.url}/accounts/profile/")
    assert shows(page, lambda: bool(refused)) and refused == [503]
    invitations.invite(open_game(bob, 3, "Bob's table", private=True), bob, "alice")
    page.clock.run_for(31_000)
    assert shows(page, lambda: badge(page, "inbox-link") == 1), \
        "the page never asked again after the stream was refused"
    assert asked


def test_her_tabs_share_one_stream_and_the_next_takes_it_up(browser, contexts, stream_server):
    base = f"http://127.0.0.1:{stream_server.port}"
    alice, bob = with_password("alice"), with_password("bob")
    context = browser.new_context()
    contexts.append(context)
    sign_in(context, base, alice)
    streams = []
    context.on("request", lambda r: r.url.split("?")[0].endswith("/api/v1/stream/")
               and streams.append(r.url))
    first, second = context.new_page(), context.new_page()
    first.goto(f"{base}/accounts/profile/")
    assert shows(first, lambda: bool(streams)), "no tab opened the user stream"
    second.goto(f"{base}/notifications/")
    second.wait_for_timeout(1000)
    assert len(streams) == 1, f"each tab opened a stream of its own: {streams}"

    invitations.invite(open_game(bob, 3, "Bob's table", private=True), bob, "alice")
    assert shows(first, lambda: badge(first, "inbox-link") == 1)
    assert shows(second, lambda: badge(second, "inbox-link") == 1), \
        "the tab without the stream never heard of the invitation"

    first.close()  # the tab holding the stream goes: the other takes it up
    assert shows(second, lambda: len(streams) == 2), "no tab took the stream up"
    assert "last_event_id=" in streams[1]
    invitations.invite(open_game(bob, 3, "Bob's 2nd", private=True), bob, "alice")
    assert shows(second, lambda: "Bob's 2nd" in second.locator("#inbox-entries").inner_text())


def test_the_lobby_a_refused_form_brought_back_still_follows(browser, contexts, stream_server):
    base = f"http://127.0.0.1:{stream_server.port}"
    alice, bob = with_password("alice"), with_password("bob")
    page = opened(browser, contexts, base, alice, "/games/")
    page.fill("#create-game [name=name]", "Keep me")
    page.evaluate("document.querySelector('#create-game [name=players]')"
                  ".add(new Option('99', '99', true, true))")  # no such choice
    page.locator("#create-game button[type=submit]").click()
    page.wait_for_load_state()
    assert page.locator("#create-game .error").count(), "the form was not refused"
    assert "/games/" != page.url.removeprefix(base)  # the address of the form's answer
    page.wait_for_timeout(500)
    invitations.invite(open_game(bob, 3, "Bob's table", private=True), bob, "alice")
    assert shows(page, lambda: "Bob's table" in (
        page.locator("#lobby-invitations").inner_text())), "the invitation never showed"
    assert page.locator("#create-game [name=name]").input_value() == "Keep me"
