"""Teams in a real browser at a laptop's and a phone's size: choosing a team on the lobby's
join form, the creator's seating form, and the team marks on the map and in the legend once
the game runs. Screenshots go to var/screenshots/."""

from __future__ import annotations

import pytest

from games.models import Game
from lobby import open_games
from tests.games_in_states import open_game
from tests.people import with_password
from tests.web.e2e.test_phone_pages import SIZES, page_for, sideways

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("size", SIZES)
def test_choosing_and_arranging_teams_then_seeing_them_on_the_map(browser, live_server,
                                                                   contexts, screenshot, size):
    alice, bob, carol = with_password("alice"), with_password("bob"), with_password("carol")
    game = open_game(alice, 4, "Two by two", rules={"team_size": 2, "setup": "random"})
    open_games.join_game(game, carol)  # seat 1: team 2

    page = page_for(browser, live_server, bob, size, contexts)
    page.goto(f"{live_server.url}/games/")
    entry = page.locator(".game-list li", has_text="Two by two")
    entry.locator("select[name=team]").select_option(label="Team 1: alice")
    screenshot(page, f"teams-{size}-join-form")
    entry.get_by_role("button", name="Join Two by two").click()
    page.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    assert dict(game.seats.values_list("user__username", "seat"))["bob"] == 2

    creator = page_for(browser, live_server, alice, size, contexts)
    creator.goto(f"{live_server.url}/games/{game.pk}/")
    form = creator.locator("form.seating")
    form.locator("select[name=seat-bob]").select_option("1")
    form.locator("select[name=seat-carol]").select_option("2")
    screenshot(creator, f"teams-{size}-seating-form")
    form.get_by_role("button", name="Arrange the seats").click()
    creator.wait_for_selector("text=The seats are arranged.")
    assert dict(game.seats.values_list("user__username", "seat")) == {
        "alice": 0, "bob": 1, "carol": 2}

    open_games.join_game(game, with_password("dave"))
    assert Game.objects.get(pk=game.pk).status == Game.ACTIVE
    creator.goto(f"{live_server.url}/games/{game.pk}/")
    creator.wait_for_selector(".zoom:not([hidden])")
    assert creator.locator("svg.board .count .team-mark").count() == 42
    teams = creator.locator("#legend .teams li").all_inner_texts()
    assert [t.split("\n")[-1].strip() for t in teams] == [  # after the mark's own "1"
        "Team 1: Red (alice), Green (carol)", "Team 2: Blue (bob), Yellow (dave)"]
    # the mark is drawn, not hidden under the disc: as wide as a few screen pixels
    mark = creator.locator("svg.board .count .team-mark rect").first.bounding_box()
    assert mark["width"] >= 6, mark
    assert sideways(creator) <= 0
    creator.locator("#legend").scroll_into_view_if_needed()
    screenshot(creator, f"teams-{size}-map-and-legend")
    assert page.problems == [] and creator.problems == []
