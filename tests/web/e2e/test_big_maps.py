"""Every shipped map is playable at the size a game opens, at a laptop's and a phone's size:
the board opens framed on the viewer's territories (all of them in sight, the classic map
never cropped on the phone), and no two army discs drawn lie on top of each other, opened
or zoomed in (a disc that does not fit is left out until the player zooms in). Screenshots
go to var/screenshots/bigmap-<map>-<size>-<opened|zoomed>."""

from __future__ import annotations

import pytest

from lobby import open_games
from tests.games_in_states import open_game
from tests.people import with_password
from tests.play import play_until
from tests.web.e2e.test_phone_pages import SIZES, page_for

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 15_000  # ms

# The drawn discs (not left out, inside the board's box) by their boxes on screen.
DISCS = """() => {
  const svg = document.querySelector('svg.board').getBoundingClientRect();
  return Array.from(document.querySelectorAll('svg.board .count .disc'))
    .filter(d => getComputedStyle(d).visibility !== 'hidden' && getComputedStyle(d).display !== 'none')
    .map(d => { const r = d.getBoundingClientRect();
                return {id: d.closest('.count').getAttribute('data-for'),
                        left: r.left, top: r.top, right: r.right, bottom: r.bottom}; })
    .filter(r => r.right > svg.left && r.left < svg.right && r.bottom > svg.top && r.top < svg.bottom);
}"""

# The viewer's territories whose label point lies outside the board's viewBox.
OUT_OF_SIGHT = """() => {
  const svg = document.querySelector('svg.board');
  const [x, y, w, h] = svg.getAttribute('viewBox').split(/[ ,]+/).map(parseFloat);
  return Array.from(svg.querySelectorAll('.territory.mine')).map(t => t.getAttribute('data-territory'))
    .filter(id => { const c = svg.querySelector('.count[data-for="' + id + '"]');
                    const m = /translate\\(([-\\d.]+)[ ,]+([-\\d.]+)\\)/.exec(c.getAttribute('transform'));
                    const px = parseFloat(m[1]), py = parseFloat(m[2]);
                    return px < x || px > x + w || py < y || py > y + h; });
}"""


def overlapping(discs: list[dict]) -> list[tuple[str, str]]:
    pairs = []
    for i, a in enumerate(discs):
        for b in discs[i + 1:]:
            if (a["left"] < b["right"] - .5 and b["left"] < a["right"] - .5
                    and a["top"] < b["bottom"] - .5 and b["top"] < a["bottom"] - .5):
                pairs.append((a["id"], b["id"]))
    return pairs


def opened_game(browser, live_server, contexts, size, map_id):
    alice = with_password("alice")
    game = open_game(alice, 2, "Big map", rules={"setup": "random"}, map_id=map_id)
    open_games.join_game(game, with_password("bob"))
    play_until(game, None, lambda state: state.phase == "reinforce" and state.current == 0)
    page = page_for(browser, live_server, alice, size, contexts)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#form-place", timeout=WAIT)
    page.wait_for_selector(".zoom:not([hidden])", timeout=WAIT)
    return page


@pytest.mark.parametrize("map_id", ["world", "europe", "classic"])
@pytest.mark.parametrize("size", SIZES)
def test_the_board_opens_on_the_viewer_s_territories_with_no_disc_on_another(
        browser, live_server, contexts, screenshot, size, map_id):
    page = opened_game(browser, live_server, contexts, size, map_id)
    screenshot(page, f"bigmap-{map_id}-{size}-opened", full_page=False)
    assert page.evaluate(OUT_OF_SIGHT) == []
    discs = page.evaluate(DISCS)
    assert len(discs) >= 12, discs
    assert overlapping(discs) == []
    for _ in range(2):
        page.click("[data-zoom=in]")
    screenshot(page, f"bigmap-{map_id}-{size}-zoomed", full_page=False)
    assert overlapping(page.evaluate(DISCS)) == []
    assert page.problems == []


def test_on_a_wide_screen_the_map_may_take_the_window_s_width(
        browser, live_server, contexts, screenshot):
    page = opened_game(browser, live_server, contexts, "laptop", "world")
    narrow = page.locator("svg.board").bounding_box()["width"]
    page.click("[data-zoom=wide]")
    page.wait_for_function("() => document.querySelector('.game-grid').classList.contains('wide-map')")
    wide = page.locator("svg.board").bounding_box()["width"]
    assert wide > narrow + 300 and wide > SIZES["laptop"][0] - 80, (narrow, wide)
    assert page.get_attribute("[data-zoom=wide]", "aria-pressed") == "true"
    assert overlapping(page.evaluate(DISCS)) == []
    screenshot(page, "bigmap-world-laptop-wide", full_page=False)
    page.reload()  # the choice is kept
    page.wait_for_selector(".zoom:not([hidden])")
    assert page.locator("svg.board").bounding_box()["width"] == wide
    assert page.problems == []
