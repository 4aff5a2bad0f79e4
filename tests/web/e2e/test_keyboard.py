"""The game page by keyboard, at a laptop's and a phone's size: the first tab stop skips to
the move, the move's form is a few tab stops away even without it (the map is one stop),
the arrow keys move between neighbouring territories and Enter or Space acts as a click;
the board as a list is a link away. Screenshots go to var/screenshots/."""

from __future__ import annotations

import pytest

from engine.board import NEIGHBOURS
from engine.maps import classic
from tests.people import with_password
from tests.play import play_until
from tests.web.e2e.support import timers_run
from tests.web.e2e.test_phone_pages import SIZES, page_for
from tests.web.support import started_game
from web.drawing import drawing_of

LABELS = drawing_of(classic()).labels  # where the classic board draws each army count


pytestmark = pytest.mark.django_db(transaction=True)


def attack_game():
    alice, bob, carol = with_password("alice"), with_password("bob"), with_password("carol")
    game = started_game([alice, bob, carol], setup="random")
    state = play_until(game, [alice, bob, carol], lambda s: s.phase == "attack" and any(
        s.owner[t] == s.current and s.armies[t] >= 2
        and any(s.owner[n] != s.current for n in NEIGHBOURS[t]) for t in NEIGHBOURS))
    return game, state, [alice, bob, carol][state.current]


def focused(page) -> dict:
    return page.evaluate("""() => { const e = document.activeElement;
        return {tag: e.tagName.toLowerCase(), id: e.id, href: e.getAttribute('href') || '',
                territory: e.getAttribute('data-territory') || '',
                inPlay: !!e.closest('#play'), text: (e.textContent || '').trim().slice(0, 60)}; }""")


@pytest.mark.parametrize("size", SIZES)
def test_the_move_form_is_a_few_tab_stops_away(browser, live_server, contexts, screenshot, size):
    game, state, mover = attack_game()
    page = page_for(browser, live_server, mover, size, contexts)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".zoom:not([hidden])")
    page.keyboard.press("Tab")
    first = focused(page)
    assert first["href"] == "#play" and first["text"] == "Skip to your move", first
    screenshot(page, f"keyboard-{size}-skip-link")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert focused(page)["inPlay"], focused(page)

    # without the skip link: the map is one tab stop, not 42
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".zoom:not([hidden])")
    stops, territories = 0, set()
    while stops < 40:
        page.keyboard.press("Tab")
        stops += 1
        now = focused(page)
        if now["territory"]:
            territories.add(now["territory"])
        if now["inPlay"]:
            break
    # (the header's links, the map, its zoom buttons, the wide map's on a wide screen, and
    # the field that finds a territory)
    assert focused(page)["inPlay"] and stops <= 27, (stops, focused(page))
    assert len(territories) == 1, territories


@pytest.mark.parametrize("size", SIZES)
def test_arrow_keys_move_between_neighbours_and_enter_chooses(browser, live_server, contexts,
                                                             screenshot, size):
    game, state, mover = attack_game()
    seat = state.current
    page = page_for(browser, live_server, mover, size, contexts)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".zoom:not([hidden])")
    # one territory of the map is in the Tab order: the player's own first one
    tabbable = page.evaluate("""() => Array.from(document.querySelectorAll('svg.board [data-territory]'))
        .filter(t => t.getAttribute('tabindex') === '0').map(t => t.getAttribute('data-territory'))""")
    assert len(tabbable) == 1 and state.owner[tabbable[0]] == seat, tabbable
    page.focus(f'svg.board [data-territory="{tabbable[0]}"]')

    def step(key: str) -> str:
        before = focused(page)["territory"]
        page.keyboard.press(key)
        after = focused(page)["territory"]
        if after != before:
            assert after in NEIGHBOURS[before], (before, key, after)
            dx = LABELS[after][0] - LABELS[before][0]
            dx = min((dx, dx - 1000, dx + 1000), key=abs)  # across the map's edge
            dy = LABELS[after][1] - LABELS[before][1]
            along = {"ArrowRight": dx, "ArrowLeft": -dx, "ArrowDown": dy, "ArrowUp": -dy}[key]
            assert along > 0, (before, key, after)
        return after

    visited = {tabbable[0]}
    for key in ["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"] * 3:
        visited.add(step(key))
    assert len(visited) >= 3, visited
    # a source that can attack, reached by the arrows from the current focus
    source = next(t for t in NEIGHBOURS if state.owner[t] == seat and state.armies[t] >= 2
                  and any(state.owner[n] != seat for n in NEIGHBOURS[t]))
    page.focus(f'svg.board [data-territory="{source}"]')
    assert page.get_attribute(f'svg.board [data-territory="{source}"]', "tabindex") == "0"
    assert page.locator('svg.board [data-territory][tabindex="0"]').count() == 1
    page.keyboard.press("Enter")
    assert page.input_value("#attack-from") == source
    target = next(n for n in NEIGHBOURS[source] if state.owner[n] != seat)
    page.focus(f'svg.board [data-territory="{target}"]')
    page.keyboard.press(" ")
    assert page.input_value("#attack-to") == target
    screenshot(page, f"keyboard-{size}-chosen-by-keys")
    assert page.problems == []


def test_the_board_as_a_list_is_a_link_away(browser, live_server, contexts, screenshot):
    game, state, mover = attack_game()
    page = page_for(browser, live_server, mover, "phone", contexts)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert focused(page)["text"] == "The board as a list"
    page.keyboard.press("Enter")
    page.wait_for_url(f"{live_server.url}/games/{game.pk}/board/")
    assert page.locator("tr[data-territory]").count() == 42
    screenshot(page, "keyboard-phone-board-list")


@pytest.mark.parametrize("size", SIZES)
def test_enter_on_a_territory_that_is_no_neighbour_says_why(browser, live_server, contexts,
                                                            screenshot, size):
    game, state, mover = attack_game()
    seat = state.current
    page = page_for(browser, live_server, mover, size, contexts)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".zoom:not([hidden])")
    source = next(t for t in NEIGHBOURS if state.owner[t] == seat and state.armies[t] >= 2
                  and any(state.owner[n] != seat for n in NEIGHBOURS[t]))
    far = next(t for t in NEIGHBOURS if state.owner[t] != seat and t not in NEIGHBOURS[source])
    page.focus(f'svg.board [data-territory="{source}"]')
    page.keyboard.press("Enter")
    assert page.input_value("#attack-from") == source
    # What choosing the source makes the page say (the border it leaves) is said first.
    timers_run(page)
    page.focus(f'svg.board [data-territory="{far}"]')
    page.keyboard.press("Enter")
    timers_run(page)
    live = page.locator("#selection")
    # Said through the page's live region, outside the area the live poll replaces.
    assert page.locator("#game-news").get_attribute("aria-live") == "polite"
    names = page.evaluate("""ids => ids.map(id => document.querySelector(
        `svg.board [data-territory="${id}"]`).getAttribute('data-name'))""", [far, source])
    assert live.inner_text() == (f"{names[0]} does not border {names[1]}: you can attack only "
                                 "a territory next to the one you attack from.")
    assert live.is_visible()
    assert live.inner_text() in page.locator("#game-news").text_content()
    assert page.input_value("#attack-from") == source  # the choice stands
    screenshot(page, f"keyboard-{size}-not-a-neighbour", full_page=False)
    assert page.problems == []
