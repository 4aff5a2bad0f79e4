"""Private games and the lobby's filters in a real browser, on a laptop (1366×900) and a
phone (390×844): filter the open games (the choice lands in the address, to bookmark);
create a private game, invite one friend by name and another by its link, and both join;
nothing needs sideways scrolling."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.games_in_states import open_game
from tests.people import with_password
from tests.web.e2e.support import SIZES, signed_in

pytestmark = pytest.mark.django_db(transaction=True)



def no_sideways_scrolling(page) -> None:
    overflow = page.evaluate(
        "document.scrollingElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 1, overflow


def show_below_the_map(page) -> None:
    """Scroll the invitations into view under the board, which stays on top on a phone."""
    page.evaluate("""() => {
        const area = document.querySelector('.board-area');
        const covered = area && getComputedStyle(area).position === 'sticky'
            ? area.getBoundingClientRect().height : 0;
        const panel = document.querySelector('#invitations');
        window.scrollBy(0, panel.getBoundingClientRect().top - covered - 10);
    }""")


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_the_lobby_filters_open_games_at_both_sizes(browser, live_server, contexts,
                                                    screenshot, size):
    bob = with_password("bob")
    open_game(bob, 2, "Quick foggy duel", rules={"fog": True}, deadline_seconds=600)
    open_game(bob, 4, "Four for missions", rules={"objective": "missions"})
    open_game(bob, 4, "Friendly four", rated=False)
    open_game(bob, 4, "Hidden four", private=True)

    page = signed_in(browser, live_server.url, "alice", contexts, size)
    listed = page.locator("#open-title ~ ul.game-list")
    assert "Hidden four" not in listed.inner_text()
    page.locator("#game-filters summary").click()
    page.select_option("#filter-seats", "4")
    page.select_option("#filter-rated", "yes")
    page.locator("#game-filters button[type=submit]").click()
    page.wait_for_url("**/games/?*seats=4*")
    assert "rated=yes" in page.url
    text = page.locator("#open-title ~ ul.game-list").inner_text()
    assert "Four for missions" in text
    assert "Friendly four" not in text and "Quick foggy duel" not in text
    assert "Hidden four" not in text
    screenshot(page, f"lobby-filters-{size[0]}")
    no_sideways_scrolling(page)
    # The address is the bookmark: opened again, it shows the same list
    page.goto(page.url)
    assert page.locator("#filter-seats").input_value() == "4"
    page.goto(f"{live_server.url}/games/?seats=nine")
    assert "This filter has no such choice" in page.locator("#game-filters").inner_text()


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_a_private_game_by_invitation_at_both_sizes(browser, live_server, contexts,
                                                    screenshot, size):
    with_password("bob"), with_password("charlie"), with_password("dora")
    alice = signed_in(browser, live_server.url, "alice", contexts, size)
    alice.fill("#id_name", "Friends only")
    alice.check("#id_private")
    alice.locator("#create-game button[type=submit]").click()
    alice.wait_for_url("**/games/*/")
    game = Game.objects.get(name="Friends only")
    assert game.private
    link = alice.locator("#invite-link").input_value()
    assert link.startswith(f"{live_server.url}/games/invite/{game.pk}-")
    alice.fill("#invite-username", "bob")
    alice.locator("form.invite-by-name button").click()
    alice.wait_for_selector("text=bob is invited")
    assert "invited, no answer yet" in alice.locator("#invitations").inner_text()
    screenshot(alice, f"private-creator-{size[0]}")
    show_below_the_map(alice)
    screenshot(alice, f"private-creator-panel-{size[0]}", full_page=False)
    no_sideways_scrolling(alice)

    # Bob finds it in his lobby and joins; dora, not invited, finds nothing
    bob = signed_in(browser, live_server.url, "bob", contexts, size)
    invited = bob.locator(".your-invitations")
    assert "Friends only" in invited.inner_text() and "alice" in invited.inner_text()
    assert bob.locator("#inbox-link .unread-count").inner_text().startswith("1")
    screenshot(bob, f"private-invitee-lobby-{size[0]}")
    no_sideways_scrolling(bob)
    invited.locator("a", has_text="Friends only").click()
    bob.wait_for_url(f"**/games/{game.pk}/")
    assert "alice invites you to this game." in bob.locator("#invitations").inner_text()
    screenshot(bob, f"private-invitee-game-{size[0]}")
    show_below_the_map(bob)
    screenshot(bob, f"private-invitee-panel-{size[0]}", full_page=False)
    no_sideways_scrolling(bob)
    bob.locator("button", has_text="Join this game").click()
    bob.wait_for_selector("text=You joined the game.")

    dora = signed_in(browser, live_server.url, "dora", contexts, size)
    assert "Friends only" not in dora.content()
    answer = dora.goto(f"{live_server.url}/games/{game.pk}/")
    assert answer.status == 404

    # Charlie follows the link alice sent, and his join fills the table: it starts
    charlie = signed_in(browser, live_server.url, "charlie", contexts, size)
    charlie.goto(link)
    charlie.wait_for_url(f"**/games/{game.pk}/")
    charlie.locator("button", has_text="Join this game").click()
    charlie.wait_for_selector("text=You joined the game.")
    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    assert [s.user.username for s in game.seats.order_by("seat")] == ["alice", "bob",
                                                                       "charlie"]
    screenshot(charlie, f"private-started-{size[0]}")
    no_sideways_scrolling(charlie)
