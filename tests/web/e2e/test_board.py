"""The board in a real browser at a laptop's and a phone's size: zooming and panning with the
buttons, names big enough to read, the move's form in sight together with the map, the
attack kept chosen after a roll, the neutral in the legend and the players' table.
Screenshots go to var/screenshots/board-* for a person to look at."""

from __future__ import annotations

import re

import pytest

from engine.board import NEIGHBOURS, NEUTRAL
from games.store.states import load_state
from tests.people import with_password
from tests.play import play_until
from tests.web.e2e.conftest import save_screenshot
from tests.web.e2e.support import SIZES, sign_in
from tests.web.support import started_game

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 15_000  # ms
SMALLEST_NAME_PX = 9


def attack_position(users):
    """A two-player game (with the neutral) where the mover can attack with 4+ armies."""
    game = started_game(users, setup="random")

    def can_attack(state):
        return state.phase == "attack" and any(
            state.owner[t] == state.current and state.armies[t] >= 6
            and any(state.owner[n] not in (state.current,) for n in NEIGHBOURS[t])
            for t in NEIGHBOURS)
    state = play_until(game, users, can_attack)
    return game, state


def signed_in_page(browser, live_server, someone, size, contexts):
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height},
                                  has_touch=size == "phone", device_scale_factor=1)
    contexts.append(context)
    sign_in(context, live_server.url, someone)
    page = context.new_page()
    problems = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda message: problems.append(message.text)
            if "Content Security Policy" in message.text else None)
    page.problems = problems
    return page


def view_box(page) -> list[float]:
    return [float(n) for n in page.get_attribute("svg.board", "viewBox").split()]


def name_sizes(page) -> list[float]:
    """The rendered height in px of every territory name shown (not hidden as crowded)."""
    return page.evaluate("""() => Array.from(document.querySelectorAll('svg.board .count .name'))
        .filter(t => getComputedStyle(t).visibility !== 'hidden')
        .filter(t => { const r = t.getBoundingClientRect(), b = document.querySelector('svg.board').getBoundingClientRect();
                       return r.right > b.left && r.left < b.right && r.bottom > b.top && r.top < b.bottom; })
        .map(t => { const m = t.getScreenCTM(); return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b); })""")


def in_viewport(page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    return (box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]
            and box["x"] >= 0 and box["x"] + box["width"] <= size["width"])


def shoot(page, name: str) -> None:
    save_screenshot(page, f"board-{name}", full_page=False)


@pytest.fixture
def players(db):
    return [with_password("alice"), with_password("bob")]


@pytest.mark.parametrize("size", SIZES)
def test_the_map_zooms_and_pans_and_its_names_stay_legible(browser, live_server, contexts,
                                                           players, size):
    game, state = attack_position(players)
    page = signed_in_page(browser, live_server, players[state.current], size, contexts)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".zoom:not([hidden])")
    shoot(page, f"{size}-1-start")

    # the phone opens on the whole map (never cropped): fewer names fit until a zoom (which
    # show depends on the deal's crowding: 7 to 15 in 160 random games)
    sizes = name_sizes(page)
    assert len(sizes) >= (8 if size == "laptop" else 4) and min(sizes) >= SMALLEST_NAME_PX, sizes

    start = view_box(page)
    page.get_by_role("button", name="Zoom in").click()
    zoomed = view_box(page)
    assert zoomed[2] < start[2] * 0.8 and zoomed[3] < start[3] * 0.8
    assert min(name_sizes(page)) >= SMALLEST_NAME_PX

    # drag the map: the view moves the other way
    board = page.locator("svg.board").bounding_box()
    x, y = board["x"] + board["width"] / 2, board["y"] + board["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 60, y - 30, steps=5)
    page.mouse.up()
    panned = view_box(page)
    assert panned[0] > zoomed[0] or panned[1] > zoomed[1], (zoomed, panned)
    shoot(page, f"{size}-2-zoomed")

    # the live refresh redraws the map in the player's view
    page.evaluate("""() => window.htmx.ajax('GET', location.pathname, {target: '#game', swap: 'outerHTML'})""")
    page.wait_for_timeout(500)
    assert view_box(page) == panned

    page.get_by_role("button", name="Zoom out").click()
    assert view_box(page)[2] > panned[2]
    page.get_by_role("button", name="The whole map").click()
    whole = view_box(page)
    assert whole[2] >= 1000 - 0.5 or whole[3] >= 600 - 0.5
    assert min(name_sizes(page) or [SMALLEST_NAME_PX]) >= SMALLEST_NAME_PX
    assert page.problems == []


@pytest.mark.parametrize("size", SIZES)
def test_the_attack_form_is_in_sight_with_the_map_and_stays_chosen(browser, live_server,
                                                                   contexts, players, size):
    game, state = attack_position(players)
    seat = state.current
    source = max((t for t in NEIGHBOURS if state.owner[t] == seat
                  and any(state.owner[n] != seat for n in NEIGHBOURS[t])),
                 key=lambda t: state.armies[t])
    target = max((n for n in NEIGHBOURS[source] if state.owner[n] != seat),
                 key=lambda n: state.armies[n])
    page = signed_in_page(browser, live_server, players[seat], size, contexts)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".zoom:not([hidden])")

    page.select_option("#attack-from", source)
    page.select_option("#attack-to", target)
    page.select_option("#attack-dice", "1")
    roll = page.get_by_role("button", name="Roll the dice")
    roll.scroll_into_view_if_needed()
    # the form's button and the map are on the screen at once
    assert in_viewport(page, "#form-attack button.primary")
    map_box = page.locator("svg.board").bounding_box()
    assert map_box["y"] >= -1 and map_box["y"] + map_box["height"] <= SIZES[size][1] + 1
    shoot(page, f"{size}-3-attack-chosen")

    roll.click()
    page.wait_for_selector("#game .last-roll", timeout=WAIT)
    page.wait_for_timeout(300)  # htmx settles, and the answer is brought into sight
    after = load_state(game)
    if after.phase == "attack" and after.owner[target] != seat and after.armies[source] >= 2:
        assert page.input_value("#attack-from") == source
        assert page.input_value("#attack-to") == target
        assert page.input_value("#attack-dice") == "1"
        assert "selected" in page.get_attribute(f'svg.board [data-territory="{source}"]', "class")
    # the dice, sorted high to low, with the compared pairs shown, and the form still
    # on the screen with the map
    dice = page.locator("#game .last-roll .duel").first
    assert re.fullmatch(r"\d\s*[>=<]\s*\d", dice.inner_text().strip()), dice.inner_text()
    assert in_viewport(page, "#game .last-roll") and in_viewport(page, "svg.board")
    shoot(page, f"{size}-4-after-roll")

    # a repeated attack: one battle per line
    if page.locator("#attack-repeat").count():
        page.check("#attack-repeat")
        page.get_by_role("button", name="Roll the dice").click()
        page.wait_for_selector("#game .last-roll li:nth-child(2), #form-occupy", timeout=WAIT)
        page.wait_for_timeout(300)
        lines = page.locator("#game .last-roll li")
        assert all(lines.nth(i).locator(".duel").count() >= 1 for i in range(lines.count()))
        shoot(page, f"{size}-5-after-repeat")
    assert page.problems == []


@pytest.mark.parametrize("size", SIZES)
def test_the_legend_and_the_players_table_show_the_neutral(browser, live_server, contexts,
                                                          players, size):
    game, state = attack_position(players)
    assert any(owner == NEUTRAL for owner in state.owner.values())
    page = signed_in_page(browser, live_server, players[0], size, contexts)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert "Neutral" in page.locator("#legend .owners").inner_text()
    assert "Neutral" in page.locator(".players tbody").inner_text()
    assert page.locator("#legend .continents li").count() == 6
    page.locator("#legend").scroll_into_view_if_needed()
    shoot(page, f"{size}-6-legend")


def touch(cdp, kind: str, points: list[tuple[float, float]]) -> None:
    cdp.send("Input.dispatchTouchEvent", {
        "type": kind, "touchPoints": [{"x": x, "y": y, "id": n} for n, (x, y) in enumerate(points)]})


def test_fingers_pinch_to_zoom_and_drag_to_pan_on_a_phone(browser, live_server, contexts,
                                                          players):
    game, state = attack_position(players)
    page = signed_in_page(browser, live_server, players[state.current], "phone", contexts)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".zoom:not([hidden])")
    cdp = page.context.new_cdp_session(page)
    board = page.locator("svg.board").bounding_box()
    x, y = board["x"] + board["width"] / 2, board["y"] + board["height"] / 2
    start = view_box(page)

    # two fingers spread apart: the map zooms in around them
    touch(cdp, "touchStart", [(x - 30, y), (x + 30, y)])
    for step in range(1, 6):
        touch(cdp, "touchMove", [(x - 30 - 14 * step, y), (x + 30 + 14 * step, y)])
    touch(cdp, "touchEnd", [])
    pinched = view_box(page)
    assert pinched[2] < start[2] * 0.6, (start, pinched)
    assert min(name_sizes(page)) >= SMALLEST_NAME_PX

    # one finger drags the map, and no territory is chosen by the drag
    touch(cdp, "touchStart", [(x, y)])
    for step in range(1, 6):
        touch(cdp, "touchMove", [(x + 12 * step, y + 6 * step)])
    touch(cdp, "touchEnd", [])
    dragged = view_box(page)
    assert dragged[0] < pinched[0] and dragged[1] < pinched[1], (pinched, dragged)
    assert page.input_value("#attack-from") == ""
    assert page.problems == []
