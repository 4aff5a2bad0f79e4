"""Every page at a phone's width (390 px) and a laptop's (1366 px) without sideways
scrolling; on the game page the zoom buttons cover no territory and a phone's first view of
the map shows the player's biggest stack. Screenshots go to var/screenshots/."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from engine.board import NEIGHBOURS
from engine.maps import classic
from games import service
from games.store.states import load_state
from lobby import open_games
from tests.games_in_states import open_game
from tests.people import places_the_neutral_by_hand, with_password
from tests.play import play_until
from tests.tournaments.support import create as create_tournament
from tests.web.e2e.support import SIZES, sign_in
from tests.web.support import started_game
from web.drawing import drawing_of

LABELS = drawing_of(classic()).labels  # where the classic board draws each army count


pytestmark = pytest.mark.django_db(transaction=True)



def page_for(browser, live_server, someone, size, contexts):
    """A page of a new browser context, signed in as `someone` (nobody: None)."""
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height},
                                  has_touch=size == "phone", device_scale_factor=1)
    contexts.append(context)
    if someone is not None:
        sign_in(context, live_server.url, someone)
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda error: page.problems.append(str(error)))
    return page


def sideways(page) -> int:
    """How many px the page is wider than the window (0: no sideways scrolling)."""
    return page.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")


def too_wide(page) -> list[str]:
    """The innermost elements that reach past the window's right edge, to name the culprit."""
    return page.evaluate("""() => Array.from(document.querySelectorAll('body *'))
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5)
        .filter(e => !Array.from(e.children).some(c => c.getBoundingClientRect().right > window.innerWidth + 0.5))
        .slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + (e.textContent || '').trim().slice(0, 40))""")


def games_in_every_phase(alice, bob, carol) -> dict[str, str]:
    """Name -> path of a game page (and its neighbours) in every phase a page can show."""
    paths = {}
    for someone in (alice, bob):  # so that a two-player game reaches its neutral placement
        places_the_neutral_by_hand(someone.pk)
    waiting = open_game(alice, 4, "A long name for a waiting game of two teams",
                        rules={"team_size": 2})
    open_games.join_game(waiting, bob)
    paths["open"] = f"/games/{waiting.pk}/"
    paths["claim"] = f"/games/{started_game([alice, bob, carol], setup='claim').pk}/"
    paths["setup_place"] = f"/games/{started_game([alice, bob, carol]).pk}/"
    paths["simultaneous"] = "/games/{}/".format(started_game(
        [alice, bob, carol], initial_placement="simultaneous").pk)
    paths["capital"] = "/games/{}/".format(started_game(
        [alice, bob, carol], setup="random", objective="capitals").pk)
    team = started_game([alice, bob, carol, with_password("dave")], setup="random", team_size=2,
                        fog=True)
    paths["reinforce_teams_fog"] = f"/games/{team.pk}/"
    for phase in ("attack", "occupy", "fortify"):
        game = started_game([alice, bob, carol], setup="random")
        play_until(game, [alice, bob, carol], lambda s, p=phase: s.phase == p)
        paths[phase] = f"/games/{game.pk}/"
    two = started_game([alice, bob], setup="random")
    play_until(two, [alice, bob], lambda s: s.phase == "neutral_place")
    paths["neutral_place"] = f"/games/{two.pk}/"
    finished = started_game([alice, bob], setup="random")
    play_until(finished, [alice, bob], lambda s: s.phase == "attack" and s.turn >= 2)
    service.submit(service.player(bob), finished, {"type": "resign"})
    paths["finished"] = f"/games/{finished.pk}/"
    paths["history"] = f"/games/{finished.pk}/?at=5"
    paths["board_list"] = f"/games/{team.pk}/board/"
    return paths


@pytest.mark.parametrize("size", SIZES)
def test_no_page_scrolls_sideways(browser, live_server, contexts, screenshot, size):
    alice, bob, carol = with_password("alice"), with_password("bob"), with_password("carol")
    paths = games_in_every_phase(alice, bob, carol)
    moderator = with_password("morgan")
    call_command("make_moderator", "morgan", stdout=StringIO())
    cup = create_tournament(moderator, name="Spring cup for players with long names")
    finished_id = paths["finished"].split("/")[2]
    pages = {
        "home": (alice, "/"), "lobby": (alice, "/games/"),
        **{f"game_{name}": (alice, path) for name, path in paths.items()},
        "player": (alice, "/players/alice/"), "leaderboard": (alice, "/leaderboard/"),
        "tournaments": (alice, "/tournaments/"), "tournament": (alice, f"/tournaments/{cup['id']}/"),
        "notifications": (alice, "/notifications/"), "profile": (alice, "/accounts/profile/"),
        "sign_in": (None, "/accounts/login/"), "sign_up": (None, "/accounts/signup/"),
        "home_anonymous": (None, "/"), "lobby_anonymous": (None, "/games/"),
        "moderation_queue": (moderator, "/moderation/"),
        "moderation_audit": (moderator, "/moderation/audit/"),
        "moderation_game": (moderator, f"/moderation/games/{finished_id}/"),
        "moderation_tournament": (moderator, f"/tournaments/{cup['id']}/"),
    }
    wide, problems = {}, []
    viewers = {}
    for name, (someone, path) in pages.items():
        key = someone.username if someone else ""
        if key not in viewers:
            viewers[key] = page_for(browser, live_server, someone, size, contexts)
        page = viewers[key]
        answer = page.goto(f"{live_server.url}{path}")
        assert answer.status == 200, (name, path, answer.status)
        page.wait_for_load_state("load")
        if sideways(page) > 0:
            wide[name] = (path, sideways(page), too_wide(page))
        if size == "phone" or name in ("tournament", "game_reinforce_teams_fog", "game_open"):
            screenshot(page, f"pages-{size}-{name}", full_page=False)
        problems += page.problems
    assert wide == {}, f"pages wider than the {SIZES[size][0]} px window: {wide}"
    assert problems == []


@pytest.mark.parametrize("size", SIZES)
def test_the_zoom_buttons_cover_no_territory(browser, live_server, contexts, size):
    alice, bob = with_password("alice"), with_password("bob")
    game = started_game([alice, bob], setup="random")
    page = page_for(browser, live_server, alice, size, contexts)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".zoom:not([hidden])")
    for how in ("reset", "in"):
        page.click(f'[data-zoom="{how}"]')
        board = page.locator("svg.board").bounding_box()
        for button in page.locator(".zoom button").all():
            if not button.is_visible():  # the wide map's button: wide screens only
                continue
            box = button.bounding_box()
            assert box["y"] >= board["y"] + board["height"] or box["y"] + box["height"] <= board["y"] \
                or box["x"] >= board["x"] + board["width"] or box["x"] + box["width"] <= board["x"], \
                (how, box, board)


def test_a_phones_first_view_shows_the_biggest_stack(browser, live_server, contexts, screenshot):
    """Alice's territories lie all over the map; she puts every starting army on the one
    farthest from the middle of them, where a view centred on them all would cut it off."""
    alice, bob = with_password("alice"), with_password("bob")
    game = started_game([alice, bob], initial_placement="simultaneous")
    state = load_state(game)
    mine = [t for t in NEIGHBOURS if state.owner[t] == 0]
    middle = sum(LABELS[t][0] for t in mine) / len(mine)
    far = max(mine, key=lambda t: abs(LABELS[t][0] - middle))
    for seat, player in ((0, alice), (1, bob)):
        state = load_state(game)
        owned = [t for t in NEIGHBOURS if state.owner[t] == seat]
        spot = far if seat == 0 else owned[0]
        service.submit(service.player(player), game, {
            "type": "place", "placements": {spot: state.players[seat].setup_armies}})
    page = page_for(browser, live_server, alice, "phone", contexts)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".zoom:not([hidden])")
    board = page.locator("svg.board").bounding_box()
    disc = page.locator(f'svg.board .count[data-for="{far}"] .disc circle').last.bounding_box()
    screenshot(page, "phone-first-view-biggest-stack")
    assert board["x"] <= disc["x"] and disc["x"] + disc["width"] <= board["x"] + board["width"], \
        (far, disc, board)
    assert board["y"] <= disc["y"] and disc["y"] + disc["height"] <= board["y"] + board["height"], \
        (far, disc, board)
