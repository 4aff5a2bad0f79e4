"""The board without colour, mouse or a big screen (issue 58: 7, 8, 14, 15), in a real
browser: the classic map opens whole in a laptop's window with its zoom buttons in it and
keeps its frame after a move; owners are named ("alice (you)") and marked by shape, the
selection and the targets are in the accessible names; the focus ring shows on every
state, the arrows reach Eswatini, M comes back to the map, and the pinned map never covers
the focused control; stepping through a finished game moves the board, not the page."""

from __future__ import annotations

import pytest

from lobby import open_games
from tests.games_in_states import open_game
from tests.people import with_password
from tests.play import play_until
from tests.web.e2e.test_history_replay import finished  # noqa: F401 (a fixture)
from tests.web.e2e.test_keyboard import attack_game
from tests.web.e2e.test_phone_pages import SIZES, page_for

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 15_000  # ms
LAPTOP = {"width": 1366, "height": 768}

# The map points of three corners of the classic map, inside the board's viewBox or not.
IN_VIEW = """ids => { const svg = document.querySelector('svg.board');
  const [x, y, w, h] = svg.getAttribute('viewBox').split(/[ ,]+/).map(parseFloat);
  return ids.filter(id => { const c = svg.querySelector('.count[data-for="' + id + '"]');
    const m = /translate\\(([-\\d.]+)[ ,]+([-\\d.]+)\\)/.exec(c.getAttribute('transform'));
    const px = parseFloat(m[1]), py = parseFloat(m[2]);
    return px >= x && px <= x + w && py >= y && py <= y + h; }); }"""


def opened(browser, live_server, contexts, someone, game, size="laptop", viewport=None):
    page = page_for(browser, live_server, someone, size, contexts)
    if viewport:
        page.set_viewport_size(viewport)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".zoom:not([hidden])", timeout=WAIT)
    return page


def test_the_classic_map_opens_whole_with_its_buttons_in_the_window_and_keeps_its_frame(
        browser, live_server, contexts, screenshot):
    game, state, player = attack_game()
    page = opened(browser, live_server, contexts, player, game, viewport=LAPTOP)
    corners = ["alaska", "kamchatka", "eastern_australia", "argentina"]
    assert page.evaluate(IN_VIEW, corners) == corners
    for button in ("in", "out", "reset"):
        box = page.locator(f"[data-zoom={button}]").bounding_box()
        assert box["y"] + box["height"] <= LAPTOP["height"], (button, box)
    before = page.get_attribute("svg.board", "viewBox")
    screenshot(page, "classic-opened-1366x768", full_page=False)
    users = [with_password(name) for name in ("alice", "bob", "carol")]
    play_until(game, users, lambda s: s.version > state.version + 3)
    page.evaluate("() => window.htmx.ajax('GET', location.pathname, {target: '#game', swap: 'outerHTML'})")
    page.wait_for_function("v => document.getElementById('game').getAttribute('data-version') != v",
                           arg=str(state.version), timeout=WAIT)
    page.wait_for_timeout(200)
    assert page.get_attribute("svg.board", "viewBox") == before
    assert page.problems == []


@pytest.mark.parametrize("size", SIZES)
def test_owners_are_named_and_marked_and_the_selection_is_in_the_names(
        browser, live_server, contexts, size):
    game, state, player = attack_game()
    page = opened(browser, live_server, contexts, player, game, size)
    mine = next(t for t in state.owner if state.owner[t] == state.current and state.armies[t] >= 2
                and any(state.owner[n] != state.current for n in state.board.neighbours[t]))
    label = page.get_attribute(f'svg.board [data-territory="{mine}"]', "aria-label")
    assert f": {player.username} (you), {state.armies[mine]} armies" in label, label
    enemy = next(t for t in state.owner if state.owner[t] not in (state.current, None))
    enemy_label = page.get_attribute(f'svg.board [data-territory="{enemy}"]', "aria-label")
    assert "(you)" not in enemy_label and "Red" not in enemy_label and "Blue" not in enemy_label
    # the owner's mark: a shape per colour on every disc
    marks = page.locator("svg.board .count .owner-mark").evaluate_all(
        "us => us.map(u => u.getAttribute('href'))")
    assert len(marks) == 42 and len(set(marks)) == 3
    page.evaluate("id => document.querySelector('svg.board [data-territory=\"' + id + '\"]')"
                  ".dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}))", mine)
    chosen = page.locator(f'svg.board [data-territory="{mine}"]')
    assert chosen.get_attribute("aria-current") == "true"
    assert chosen.get_attribute("aria-label").endswith(", selected")
    target = page.locator("svg.board .territory.target").first
    assert target.get_attribute("aria-label").endswith(", a target of the selected territory")
    assert page.problems == []


def test_the_focus_ring_shows_on_every_state_and_m_comes_back_to_the_map(
        browser, live_server, contexts, screenshot):
    game, state, player = attack_game()
    page = opened(browser, live_server, contexts, player, game, viewport=LAPTOP)
    mine = next(t for t in state.owner if state.owner[t] == state.current and state.armies[t] >= 2
                and any(state.owner[n] != state.current for n in state.board.neighbours[t]))
    node = page.locator(f'svg.board [data-territory="{mine}"]')
    node.focus()
    page.keyboard.press("Enter")
    target = page.locator("svg.board .territory.target").first
    for which in (node, target):  # selected, then a target: the ring is the focus's own
        which.focus()
        ring = which.locator(".land").evaluate(
            "l => { const s = getComputedStyle(l); return [s.stroke, s.strokeDasharray]; }")
        assert ring == ["rgb(0, 0, 0)", "none"], ring
    screenshot(page, "focus-ring-on-a-target", full_page=False)
    page.locator("#play button[type=submit]").first.focus()
    page.keyboard.press("m")
    assert page.evaluate("() => !!document.activeElement.closest('svg.board')")
    assert page.problems == []


def test_the_arrows_reach_eswatini_and_qatar_on_the_world_map(browser, live_server, contexts):
    alice = with_password("alice")
    game = open_game(alice, 2, "Arrows", rules={"setup": "random"}, map_id="world")
    open_games.join_game(game, with_password("bob"))
    play_until(game, None, lambda s: s.phase == "reinforce" and s.current == 0)
    page = opened(browser, live_server, contexts, alice, game)
    keys = {"left": "ArrowLeft", "up": "ArrowUp", "right": "ArrowRight", "down": "ArrowDown"}
    for lonely, beside in (("eswatini", "south_africa"), ("eswatini", "mozambique"),
                           ("qatar", "saudi_arabia")):
        arrows = page.get_attribute(f'svg.board [data-territory="{beside}"]', "data-arrows").split()
        if lonely not in arrows:
            continue
        page.locator(f'svg.board [data-territory="{beside}"]').focus()
        page.keyboard.press(list(keys.values())[arrows.index(lonely)])
        assert page.evaluate("() => document.activeElement.getAttribute('data-territory')") == lonely
        break
    else:
        raise AssertionError("no neighbour's arrow leads to Eswatini")
    page.locator('svg.board [data-territory="saudi_arabia"]').focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.getAttribute('data-territory')") == "qatar"
    assert page.problems == []


# The focused control, when the pinned map lies over it: its box and the map's.
COVERED = """() => { const e = document.activeElement, area = document.getElementById('board');
  if (!e || area.contains(e) || getComputedStyle(area).position !== 'sticky') return null;
  const r = e.getBoundingClientRect(), b = area.getBoundingClientRect();
  return r.top < b.bottom - 1 && r.bottom > b.top + 1 && r.height > 0
    ? (e.id || e.tagName) + ' at ' + Math.round(r.top) + ' under the map down to ' + Math.round(b.bottom) : null; }"""


@pytest.mark.parametrize("width", [390, 640])
def test_the_pinned_map_never_covers_the_focused_control(browser, live_server, contexts, width):
    game, state, player = attack_game()
    page = opened(browser, live_server, contexts, player, game, "phone",
                  viewport={"width": width, "height": 844})
    page.locator("#play").scroll_into_view_if_needed()
    page.locator("body").focus()
    covered = []
    for _ in range(40):
        page.keyboard.press("Tab")
        page.wait_for_timeout(30)
        where = page.evaluate(COVERED)
        if where:
            covered.append(where)
    for _ in range(15):
        page.keyboard.press("Shift+Tab")
        page.wait_for_timeout(30)
        where = page.evaluate(COVERED)
        if where:
            covered.append(where)
    assert covered == []
    assert page.problems == []


def test_stepping_through_a_finished_game_moves_the_board_not_the_page(
        browser, live_server, contexts, screenshot, finished):  # noqa: F811
    game, alice = finished
    page = page_for(browser, live_server, alice, "laptop", contexts)
    page.set_viewport_size(LAPTOP)
    page.goto(f"{live_server.url}/games/{game.pk}/?at=40")
    page.wait_for_selector(".zoom:not([hidden])", timeout=WAIT)
    forward = page.locator("nav.steps [data-step=forward]")
    box = forward.bounding_box()
    assert box["y"] + box["height"] <= LAPTOP["height"], box
    play = page.locator("#history-play").bounding_box()
    assert play["y"] + play["height"] <= LAPTOP["height"], play
    scrolled = page.evaluate("() => window.scrollY")
    for at in (41, 42, 43):
        page.locator("nav.steps [data-step=forward]").click()
        page.wait_for_function("at => document.getElementById('game').getAttribute('data-version') == at",
                               arg=str(at), timeout=WAIT)
        assert page.evaluate("() => window.scrollY") == scrolled
        moved = (page.get_attribute("svg.board", "data-last-move") or "").split()
        assert page.evaluate(IN_VIEW, moved) == moved
    screenshot(page, "replay-1366x768", full_page=False)
    # the story's charts tell the players' lines apart by their dashes too
    page.goto(f"{live_server.url}/games/{game.pk}/")
    dashes = page.locator(".story-chart .chart-line").evaluate_all(
        "ls => ls.map(l => l.classList.value + ' ' + getComputedStyle(l).strokeDasharray)")
    by_colour = {line.split()[1]: line.split(" ", 2)[2] for line in dashes}
    assert len(set(by_colour.values())) == len(by_colour) >= 2, by_colour
    # and each chart's key shows each player's piece of line, in that dash, by name
    keys = page.locator(".chart-key li").evaluate_all("""items => items.map(li => {
        const line = li.querySelector('.chart-line');
        return [li.textContent.trim(), line.classList[1], getComputedStyle(line).strokeDasharray,
                line.getBoundingClientRect().width]; })""")
    names = {seat.user.username for seat in game.seats.all() if seat.user_id}
    assert all(any(user in name for name, _, _, _ in keys) for user in names), (keys, names)
    for name, colour, dash, width in keys:
        assert by_colour[colour] == dash and width >= 20, (name, colour, dash, by_colour)
    assert page.problems == []
