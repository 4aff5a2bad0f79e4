"""Getting started and the end of a game in a real browser, on a laptop (1366×900) and a
phone (390×844), with no sideways scrolling (issue 28, items 9 and 10): a new player starts
a game against the computer from the lobby; a finished game heads with each player's result
and rating change, and the players start a rematch with a click each."""

from __future__ import annotations

import pytest

from games.models import Game, Rematch
from lobby import rematch
from ratings import recording
from ratings.models import PlayerResult
from tests.people import with_password
from tests.ratings.support import finished_game
from tests.web.e2e.support import after_polls, signed_in
from tests.web.e2e.test_lobby_sizes import SIZES

pytestmark = pytest.mark.django_db(transaction=True)

OVERFLOW = "document.scrollingElement.scrollWidth - document.documentElement.clientWidth"


def on_screen(page, selector: str, width: int) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_a_new_player_starts_a_game_against_the_computer_from_the_lobby(
        browser, live_server, contexts, screenshot, size):
    page = signed_in(browser, live_server.url, "alice", contexts, size)

    assert page.locator("#computer-title").is_visible()
    assert "starts at once" in page.locator("section.computer").inner_text()
    on_screen(page, "#play-computer-lobby button", size[0])
    assert page.evaluate(OVERFLOW) <= 1
    screenshot(page, f"lobby-computer-{size[0]}")
    page.select_option("#computer-opponents-lobby", "3")
    page.locator("#play-computer-lobby button").click()

    page.wait_for_url(f"{live_server.url}/games/*/")
    game = Game.objects.get()
    assert game.status == Game.ACTIVE and game.players == 4
    assert page.locator("#game").get_attribute("data-phase") == "setup_place"
    assert page.evaluate(OVERFLOW) <= 1
    screenshot(page, f"computer-game-{size[0]}")

    page.goto(f"{live_server.url}/")
    assert "Welcome back, alice." in page.locator("main").inner_text()
    assert "Sign in and play" not in page.locator("main").inner_text()
    assert page.evaluate(OVERFLOW) <= 1
    screenshot(page, f"home-signed-in-{size[0]}")


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_the_players_read_their_result_and_start_a_rematch(browser, live_server, contexts,
                                                            screenshot, size, settings):
    settings.CONQUEST_RATING_ESTABLISHED_GAMES = 0
    alice, bob, charlie = with_password("alice"), with_password("bob"), with_password("charlie")
    game = finished_game([alice, bob, charlie])  # each played; charlie, then bob resigned
    Game.objects.filter(pk=game.pk).update(name="Friday night")
    recording.record_pending()
    change = PlayerResult.objects.get(game=game, user=bob)
    assert change.rated and change.rating != change.rating_before

    bobs = signed_in(browser, live_server.url, "bob", contexts, size, at=f"/games/{game.pk}/",
                     clock=True)
    assert bobs.locator("#result-title").inner_text() == "You lost (2nd of 3)"
    assert (f"Your rating: {change.rating_before} \u2192 {change.rating}"
            in bobs.locator(".rating-change").inner_text())
    on_screen(bobs, "#result", size[0])
    assert bobs.evaluate(OVERFLOW) <= 1
    screenshot(bobs, f"result-lost-{size[0]}")
    bobs.get_by_role("button", name="Rematch: play again").click()
    bobs.wait_for_url(f"{live_server.url}/games/{game.pk}/#result")
    assert "Waiting for: alice, charlie." in bobs.locator("#rematch").inner_text()

    alices = signed_in(browser, live_server.url, "alice", contexts, size, at=f"/games/{game.pk}/")
    assert alices.locator("#result-title").inner_text() == "You won"
    assert "bob offers a rematch" in alices.locator("#rematch").inner_text()
    on_screen(alices, "#rematch button.primary", size[0])
    assert alices.evaluate(OVERFLOW) <= 1
    screenshot(alices, f"result-rematch-offered-{size[0]}")
    alices.get_by_role("button", name="Accept the rematch").click()
    alices.wait_for_url(f"{live_server.url}/games/{game.pk}/#result")
    assert Rematch.objects.get(game=game).new_game is None
    # charlie accepts elsewhere (the API, another page): bob's page, polling, shows it
    game.refresh_from_db()
    rematch.offer_or_accept(game, charlie)
    new = Rematch.objects.get(game=game).new_game
    assert new.status == Game.ACTIVE and new.name == "Friday night #2"
    assert after_polls(bobs, lambda: bobs.locator("#rematch a").count() > 0), \
        "bob's page never showed the new game"
    bobs.locator("#rematch a", has_text="go to the new game").click()
    bobs.wait_for_url(f"{live_server.url}/games/{new.pk}/")
    assert bobs.evaluate(OVERFLOW) <= 1
    screenshot(bobs, f"rematch-started-{size[0]}")
