"""The pages' scripts in a browser: a page without a board runs its own scripts (forms.js,
the menu, the counters) without the board's and without an error; the game page, live and
in its history, runs the board's, which share window.conquestBoard (board.js first)."""

from __future__ import annotations

import pytest

from tests.people import with_password
from tests.web.e2e.support import signed_in
from tests.web.support import started_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_pages_run_their_scripts_without_an_error(browser, live_server, contexts):
    alice, bob = with_password("alice"), with_password("bob")
    game = started_game([alice, bob], setup="random")
    page = signed_in(browser, live_server.url, "alice", contexts, at="/accounts/profile/")
    errors = []
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))

    for url in ("/games/", "/accounts/profile/", "/maps/classic/", f"/games/{game.pk}/board/"):
        page.goto(f"{live_server.url}{url}")
        page.wait_for_load_state("load")
        assert page.evaluate("() => window.conquestBoard === undefined"), url
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/?at=2"):
        page.goto(f"{live_server.url}{url}")
        page.wait_for_load_state("load")
        assert page.locator("svg.board.zoomable").count() == 1, url  # board_zoom.js ran
        assert page.locator(".zoom").is_visible() and page.locator(".find").is_visible(), url
        assert page.evaluate("""() => ['onTerritory', 'initMap', 'rovingTo', 'tick', 'labelPoint']
            .every((name) => typeof window.conquestBoard[name] === 'function')"""), url

    assert errors == []
