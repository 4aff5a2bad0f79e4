"""Words a newcomer meets on an open game's page, in a real browser at a laptop's and a
phone's size: the share of the dice is folded away under "Join this game" (and says what it
is for when opened), and the computer players and the player's own programs are one
section. Screenshots go to var/screenshots/."""

from __future__ import annotations

import re

import pytest

from accounts import tokens
from lobby import bot_accounts
from tests.games_in_states import open_game
from tests.people import with_password
from tests.web.e2e.test_phone_pages import SIZES, page_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("size", SIZES)
def test_the_share_of_the_dice_is_folded_away_and_says_what_it_is(
        browser, live_server, contexts, screenshot, size):
    alice, bob = with_password("alice"), with_password("bob")
    game = open_game(alice, 3, "Come and play")
    page = page_for(browser, live_server, bob, size, contexts)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    join = page.locator(f'form[action="/games/{game.pk}/join/"]')
    assert join.locator("button[type=submit]").is_visible()
    assert "entropy" not in join.inner_text().lower()
    field = join.locator("input[name=entropy]")
    assert not field.is_visible()
    assert re.fullmatch(r"[0-9a-f]{32}", field.input_value())  # filled in all the same
    screenshot(page, f"newcomer-{size}-join-folded", full_page=False)

    join.locator("details.entropy summary").click()
    assert field.is_visible()
    assert "nobody, not even the server" in join.inner_text()
    screenshot(page, f"newcomer-{size}-join-opened", full_page=False)
    assert page.problems == []


@pytest.mark.parametrize("size", SIZES)
def test_computer_players_and_the_player_s_programs_are_one_section(
        browser, live_server, contexts, screenshot, size):
    alice = with_password("alice")
    bot_accounts.convert(with_password("robo"), "alice", tokens.issue(alice))
    game = open_game(alice, 3, "Fill me", bots_allowed=True)
    page = page_for(browser, live_server, alice, size, contexts)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    section = page.locator("#play .fill-seat")
    assert section.count() == 1
    assert section.locator("#bot-level").is_visible()
    assert section.locator("#bot-account").is_visible()
    words = section.inner_text()
    assert "Seat this bot account" not in words
    assert "plays through the API" in words
    section.scroll_into_view_if_needed()
    screenshot(page, f"newcomer-{size}-fill-seat", full_page=False)
    assert page.problems == []
