"""The lobby in a real browser on a laptop (1366×900) and a phone (390×844): a returning
player sees the game waiting for their move first, the tab title says so, open games show
their rules, finished games their winner, and nothing needs sideways scrolling."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.games_in_states import open_game
from tests.notifications.support import conquer
from tests.people import with_password
from tests.web.e2e.support import SIZES, signed_in
from tests.web.support import started_game

pytestmark = pytest.mark.django_db(transaction=True)



@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_the_lobby_puts_your_move_first_at_both_sizes(browser, live_server, contexts,
                                                     screenshot, size):
    alice, bob = with_password("alice"), with_password("bob")
    theirs = started_game([alice, bob])
    Game.objects.filter(pk=theirs.pk).update(name="Bob to move", current_seat=1)
    mine = started_game([alice, bob])
    Game.objects.filter(pk=mine.pk).update(name="Alice to move", current_seat=0)
    done = started_game([alice, bob], initial_placement="simultaneous")
    Game.objects.filter(pk=done.pk).update(name="Over")
    conquer(done, alice)
    open_game(bob, 3, "Foggy evening", rules={"fog": True}, deadline_seconds=3600)

    page = signed_in(browser, live_server.url, "alice", contexts, size, form=True)

    assert page.title().startswith("(1) Your move")
    rows = page.locator("table.games tbody tr")
    assert "Alice to move" in rows.nth(0).inner_text()
    assert "Your move!" in rows.nth(0).inner_text()
    assert "Bob to move" in rows.nth(1).inner_text()
    assert "You won" in rows.nth(rows.count() - 1).inner_text()
    open_line = page.locator("#open-title ~ ul li", has_text="Foggy evening")
    assert "fog of war" in open_line.inner_text()
    assert "1 hour per move" in open_line.inner_text()
    # nothing wider than the screen: no sideways scrolling on a phone
    overflow = page.evaluate(
        "document.scrollingElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 1
    first = rows.nth(0).bounding_box()
    assert first["x"] >= 0 and first["x"] + first["width"] <= size[0] + 1
    screenshot(page, f"lobby-{size[0]}")
