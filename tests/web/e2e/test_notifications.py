"""The notification list in a real browser on a laptop (1366×900) and a phone (390×844):
the unread count in the header, fully on screen; the list marks them read; the game page's
tab title turns to "Your move" when the live poll brings the viewer's turn."""

from __future__ import annotations

import pytest

from games import service
from games.store.states import load_state
from tests.people import with_password
from tests.web.e2e.support import after_polls, signed_in
from tests.web.e2e.test_lobby_sizes import SIZES
from tests.web.support import started_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_the_header_counts_unread_notifications_at_both_sizes(browser, live_server, contexts,
                                                              screenshot, size):
    alice, bob = with_password("alice"), with_password("bob")
    game = started_game([alice, bob])
    state = load_state(game)
    waiting = (alice, bob)[1 - state.current]  # not their move yet
    name = waiting.username

    page = signed_in(browser, live_server.url, name, contexts, size, clock=True)

    count = page.locator("#inbox-link .unread-count")
    assert count.inner_text().split()[0] == "1"  # the game started
    box = count.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= size[0] + 1
    assert page.evaluate(
        "document.scrollingElement.scrollWidth - document.documentElement.clientWidth") <= 1
    screenshot(page, f"inbox-header-{size[0]}")

    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert not page.title().startswith("Your move")
    mover = (alice, bob)[state.current]
    own = state.territories_of(state.current)[0]
    service.submit(service.player(mover), game, {"type": "place", "placements": {own: 1}})
    # the live poll (every 4 s) brings the viewer's turn, and the tab title says so
    assert after_polls(page, lambda: page.title().startswith("Your move"))
    assert page.title().startswith("Your move · Web test")

    page.goto(f"{live_server.url}/notifications/")
    entries = page.locator("ul.inbox li")
    assert entries.count() == 2
    assert page.locator("ul.inbox li.unread").count() == 0  # the game page read them
    assert page.locator("#inbox-link .unread-count").count() == 0
    assert page.evaluate(
        "document.scrollingElement.scrollWidth - document.documentElement.clientWidth") <= 1
    screenshot(page, f"inbox-list-{size[0]}")


def test_the_list_marks_an_entry_read(browser, live_server, contexts):
    alice, bob = with_password("alice"), with_password("bob")
    started_game([alice, bob])
    page = signed_in(browser, live_server.url, "alice", contexts, SIZES["phone"])
    before = int(page.locator("#inbox-link .unread-count").inner_text().split()[0])

    page.goto(f"{live_server.url}/notifications/")
    page.locator("ul.inbox li.unread button").first.click()
    page.wait_for_load_state()

    after = page.locator("#inbox-link .unread-count")
    assert (int(after.inner_text().split()[0]) if after.count() else 0) == before - 1
