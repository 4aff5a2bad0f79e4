"""The history view in a real browser at a laptop's and a phone's size: the slider moves one
move per arrow key however fast the keys come, the step links and the autoplay move the
board, and the address always names the move the board shows (after keys, clicks, reloads,
and the browser's back button). Screenshots go to /tmp/shots/."""

from __future__ import annotations

import re

import pytest

from engine.board import TERRITORIES
from games import service
from games.models import Game
from games.store.states import load_state
from tests.people import with_password
from tests.play import play_until
from tests.web.e2e.test_board import SIZES, shoot, signed_in_page
from tests.web.support import started_game

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 15_000  # ms


@pytest.fixture
def finished(db):
    alice, bob = with_password("alice"), with_password("bob")
    game = started_game([alice, bob], setup="random")
    play_until(game, [alice, bob], lambda s: s.version >= 80)
    service.submit(service.player(bob), game, {"type": "resign"})
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    return game, alice


def address_at(page, game: Game) -> int:
    found = re.search(r"[?&]at=(\d+)", page.url)
    return int(found.group(1)) if found else game.version


def board_at(page) -> int:
    return int(page.get_attribute("#game", "data-version"))


def settled_at(page, game: Game, at: int) -> None:
    """The board, the slider and the address all show move `at`."""
    page.wait_for_function(
        "at => document.querySelector('#game').getAttribute('data-version') == String(at)"
        " && document.getElementById('history-at').value == String(at)", arg=at, timeout=WAIT)
    page.wait_for_timeout(150)  # the address follows the swap at once; give it a frame
    assert board_at(page) == at
    assert address_at(page, game) == at
    assert page.input_value("#history-at") == str(at)


def board_matches(page, game: Game, at: int) -> None:
    past = load_state(game, at)
    drawn = page.evaluate("""() => Object.fromEntries(Array.from(
        document.querySelectorAll('svg.board [data-territory]')).map(
        t => [t.getAttribute('data-territory'), t.getAttribute('data-armies')]))""")
    assert {t: drawn[t] for t in TERRITORIES} == {t: str(past.armies[t]) for t in TERRITORIES}


def no_sideways_scroll(page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= page.viewport_size["width"]


@pytest.mark.parametrize("size", SIZES)
def test_the_slider_steps_once_per_key_and_the_address_follows_the_board(
        browser, live_server, contexts, finished, size):
    game, alice = finished
    page = signed_in_page(browser, live_server, alice, size, contexts)
    page.goto(f"{live_server.url}/games/{game.pk}/?at=20")
    assert "Red (alice) won" in page.inner_text(".game-head .state")
    settled_at(page, game, 20)

    page.focus("#history-at")
    for _ in range(30):
        page.keyboard.press("ArrowRight")
    settled_at(page, game, 50)
    board_matches(page, game, 50)
    # The keys go on moving the new board's slider: it kept the focus.
    for _ in range(7):
        page.keyboard.press("ArrowLeft")
        page.wait_for_timeout(60)
    settled_at(page, game, 43)
    board_matches(page, game, 43)
    shoot(page, f"history-{size}-slider")

    page.reload()
    settled_at(page, game, 43)
    board_matches(page, game, 43)
    no_sideways_scroll(page)
    assert page.problems == []


@pytest.mark.parametrize("size", SIZES)
def test_the_step_buttons_and_the_autoplay_move_the_board(browser, live_server, contexts,
                                                          finished, size):
    game, alice = finished
    page = signed_in_page(browser, live_server, alice, size, contexts)
    page.goto(f"{live_server.url}/games/{game.pk}/?at=30")
    settled_at(page, game, 30)

    page.click("nav.steps [data-step=back]")
    settled_at(page, game, 29)
    page.click("nav.steps [data-step=forward]")
    page.wait_for_function("() => document.querySelector('#game').getAttribute('data-version') == '30'")
    page.click("nav.steps [data-step=forward]")
    settled_at(page, game, 31)
    page.click("nav.steps [data-step=first]")
    settled_at(page, game, 1)
    assert page.locator("nav.steps [data-step=back]").count() == 0
    page.go_back()  # the browser's back button returns to the move before
    settled_at(page, game, 31)
    page.click("nav.steps [data-step=last]")
    settled_at(page, game, game.version)
    assert "?at=" not in page.url
    board_matches(page, game, game.version)

    page.click("nav.steps [data-step=first]")
    settled_at(page, game, 1)
    play = page.locator("#history-play")
    assert play.is_visible() and play.get_attribute("aria-pressed") == "false"
    play.click()
    page.wait_for_function(
        "() => Number(document.querySelector('#game').getAttribute('data-version')) >= 4",
        timeout=WAIT)
    assert page.get_attribute("#history-play", "aria-pressed") == "true"
    shoot(page, f"history-{size}-playing")
    page.click("#history-play")
    stopped = board_at(page)  # a frame on its way when paused is not drawn
    page.wait_for_timeout(2000)
    settled_at(page, game, stopped)  # paused: the board stays, the address agrees
    assert 4 <= stopped < game.version
    board_matches(page, game, stopped)

    # Paused while the next frame is on its way: its answer, come after, is not drawn.
    held = []

    def a_move(url: str) -> bool:
        return "?at=" in url

    page.route(a_move, lambda route: held.append(route))
    page.click("#history-play")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "autoplay asked for no next move"
    page.click("#history-play")
    held[0].continue_()
    page.unroute(a_move)
    page.wait_for_timeout(1500)
    settled_at(page, game, stopped)
    assert page.get_attribute("#history-play", "aria-pressed") == "false"
    no_sideways_scroll(page)
    assert page.problems == []


def test_the_history_works_without_javascript(browser, live_server, contexts, finished):
    game, alice = finished
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    contexts.append(context)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/?at=10")
    assert page.locator("#history-play").is_hidden()
    page.click("nav.steps [data-step=forward]")
    assert address_at(page, game) == 11 and board_at(page) == 11
    page.click("nav.steps [data-step=last]")
    assert "?at=" not in page.url and board_at(page) == game.version
    page.fill("#history-at", "7")
    page.click("form.history button[type=submit]")
    assert address_at(page, game) == 7 and board_at(page) == 7


@pytest.mark.parametrize("size", SIZES)
def test_show_keeps_the_board_in_sight_and_the_page_still(browser, live_server, contexts,
                                                          finished, size):
    """The player scrolls down to the slider (on a laptop the board's top leaves the window;
    on a phone the board is pinned) and presses "Show": the board is in sight after, the
    phone's page does not move under the finger, and the focus stays on the button."""
    game, alice = finished
    page = signed_in_page(browser, live_server, alice, size, contexts)
    page.goto(f"{live_server.url}/games/{game.pk}/?at=20")
    settled_at(page, game, 20)
    form_top = page.evaluate(
        "() => document.querySelector('form.history').getBoundingClientRect().top + scrollY")
    page.evaluate("y => window.scrollTo(0, y - 600)", form_top)
    page.wait_for_timeout(200)
    page.evaluate("() => { const s = document.getElementById('history-at'); s.value = 30;"
                  " s.setAttribute('value', 30); }")
    slider_before = page.locator("#history-at").bounding_box()["y"]
    button = page.locator("#history-show").bounding_box()
    page.mouse.click(button["x"] + button["width"] / 2, button["y"] + button["height"] / 2)
    settled_at(page, game, 30)
    board = page.locator("svg.board").bounding_box()
    shoot(page, f"history-{size}-after-show")
    assert board["y"] >= 0 and board["y"] + board["height"] <= page.viewport_size["height"], board
    if size == "phone":  # (what lies above it may be a line longer or shorter at move 30)
        assert abs(page.locator("#history-at").bounding_box()["y"] - slider_before) < 30
    assert page.evaluate("() => document.activeElement.id") == "history-show"
    assert page.locator("#history-show").is_visible()
