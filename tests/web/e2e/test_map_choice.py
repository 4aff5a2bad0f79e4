"""Another map in a real browser at a laptop's and a phone's size: chosen in the lobby's
picker, the game created on it, a move played on its board (the starting armies placed
through the form, the arrow keys between its neighbours), and the map's own page.
Screenshots go to var/screenshots/ (map-page-*, map-game-*)."""

from __future__ import annotations

import pytest

from games.models import Game
from games.store.states import load_state
from lobby import open_games
from tests.people import with_password
from tests.web.e2e.support import SIZES, signed_in
from tests.web.e2e.test_phone_pages import sideways

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 15_000  # ms


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_a_game_is_created_on_the_picked_map_and_played(browser, live_server, contexts,
                                                        screenshot, islands, size):
    page = signed_in(browser, live_server.url, "alice", contexts, size)
    problems = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda message: problems.append(message.text)
            if "Content Security Policy" in message.text else None)

    # the map's own page, from the picker's link to the maps
    page.click("#field-map .help a")
    page.click('[data-map="test_islands"] a')
    page.wait_for_url(f"{live_server.url}/maps/test_islands/")
    assert page.locator("svg.map-drawing [data-territory]").count() == 10
    assert sideways(page) <= 1
    screenshot(page, f"map-page-{size[0]}")
    page.click("text=Start a game on this map")
    page.wait_for_url(f"{live_server.url}/games/?map=test_islands#create-game")
    assert page.is_checked('#field-map input[value="test_islands"]')
    screenshot(page.locator("#field-map"), f"map-picker-{size[0]}")

    page.click('#field-map input[value="classic"]')
    page.click('label[data-map="test_islands"]')  # the thumbnail and name pick it, too
    page.fill("#id_name", "Island hopping")
    page.select_option("#id_players", "2")
    page.locator("#create-game button[type=submit]").last.click()
    page.wait_for_url(f"{live_server.url}/games/*/")
    game = Game.objects.get(name="Island hopping")
    assert game.map == "test_islands"
    open_games.join_game(game, with_password("bob"))

    page.reload()
    page.wait_for_selector("#form-place", timeout=WAIT)
    assert page.locator("svg.board [data-territory]").count() == 10
    state = load_state(game)
    seat = 0
    first = next(t for t in state.board.territories if state.owner[t] == seat)
    owed = int(page.locator("#form-place").get_attribute("data-count"))
    page.fill(f"#place-{first}", str(owed))
    page.locator("#form-place").get_by_role("button", name="Place").click()
    page.wait_for_selector("#form-place", state="detached", timeout=WAIT)
    game.refresh_from_db()
    placed = load_state(game).players[seat]  # handed in, hidden until everyone has
    assert placed.submitted and placed.hidden_placement == {first: owed}

    # the arrow keys step between this map's neighbours
    page.reload()
    page.wait_for_selector(".zoom:not([hidden])", timeout=WAIT)
    page.focus(f'svg.board [data-territory="{first}"]')
    here = first
    for key in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"):
        page.keyboard.press(key)
        now = page.evaluate("() => document.activeElement.getAttribute('data-territory')")
        assert now == here or now in state.board.neighbours[here], (here, key, now)
        here = now
    # the board keeps the map's proportions (600 by 400)
    box = page.locator("svg.board").bounding_box()
    if size[0] > 1000:
        assert abs(box["width"] / box["height"] - 1.5) < 0.05, box
    assert sideways(page) <= 1
    screenshot(page, f"map-game-{size[0]}")
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, f"map-game-{size[0]}-window", full_page=False)
    assert problems == []
