"""The header at a phone's and a laptop's size: on a phone the links and the language fold
under a Menu button (a <details>, so it works without script too), the closed header is
one short row, and the menu opens and closes from the keyboard; a laptop shows the links
in a row with no button. Screenshots go to var/screenshots/."""

from __future__ import annotations

import pytest

from conversations.messaging import send_message
from tests.conversations.support import finish_a_game
from tests.people import with_password
from tests.web.e2e.support import sign_in
from tests.web.e2e.test_phone_pages import SIZES, page_for

pytestmark = pytest.mark.django_db(transaction=True)

PHONE_HEADER_PX = 80


def header_height(page) -> float:
    return page.locator("header.site").bounding_box()["height"]


@pytest.mark.parametrize("javascript", [True, False], ids=["script", "no-script"])
def test_a_phone_s_header_is_a_row_with_a_menu(browser, live_server, contexts, screenshot,
                                                javascript):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  java_script_enabled=javascript)
    contexts.append(context)
    sign_in(context, live_server.url, with_password("alice"))
    page = context.new_page()
    page.goto(f"{live_server.url}/games/")
    assert header_height(page) < PHONE_HEADER_PX, header_height(page)
    assert not page.locator("header.site a[href='/leaderboard/']").is_visible()
    assert not page.locator("#language-choice").is_visible()
    screenshot(page, f"header-phone-closed-{'script' if javascript else 'no-script'}",
               full_page=False)

    page.locator("header.site summary").click()
    assert page.locator("header.site a[href='/leaderboard/']").is_visible()
    assert page.locator("#language-choice").is_visible()
    screenshot(page, f"header-phone-open-{'script' if javascript else 'no-script'}",
               full_page=False)


def test_the_phone_s_menu_works_from_the_keyboard(browser, live_server, contexts):
    page = page_for(browser, live_server, with_password("alice"), "phone", contexts)
    page.goto(f"{live_server.url}/games/")
    summary = page.locator("header.site summary")
    summary.focus()
    assert summary.get_attribute("aria-expanded") in (None, "false")
    page.keyboard.press("Enter")
    assert page.locator("#site-menu").evaluate("d => d.open")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.getAttribute('href')") == "/games/"
    page.keyboard.press("Escape")
    assert not page.locator("#site-menu").evaluate("d => d.open")
    assert page.evaluate("() => document.activeElement.tagName") == "SUMMARY"
    assert not page.locator("header.site a[href='/leaderboard/']").is_visible()
    assert page.problems == []


@pytest.mark.parametrize("size", SIZES)
def test_the_links_show_without_a_click_only_on_a_wide_screen(browser, live_server, contexts,
                                                               screenshot, size):
    page = page_for(browser, live_server, with_password("alice"), size, contexts)
    page.goto(f"{live_server.url}/games/")
    links_shown = page.locator("header.site a[href='/leaderboard/']").is_visible()
    button_shown = page.locator("header.site summary").is_visible()
    screenshot(page, f"header-{size}", full_page=False)
    if size == "laptop":
        assert links_shown and not button_shown
        assert page.locator("#language-choice").is_visible()
        assert header_height(page) < PHONE_HEADER_PX
    else:
        assert button_shown and not links_shown
        assert header_height(page) < PHONE_HEADER_PX
    assert page.problems == []


def test_a_closed_menu_still_shows_what_is_unread(browser, live_server, contexts, screenshot):
    """The counts of unread notifications and messages stay in the phone's header row, a tap
    away, with the menu closed; links without a count stay folded."""
    alice, bob = with_password("alice"), with_password("bob")
    finish_a_game(alice)
    send_message(alice, bob, "Same time tomorrow?")
    page = page_for(browser, live_server, bob, "phone", contexts)
    page.goto(f"{live_server.url}/games/")
    count = page.locator("#messages-link .unread-count")
    assert count.is_visible() and count.inner_text().split()[0] == "1"
    box = count.bounding_box()
    assert 0 <= box["x"] and box["x"] + box["width"] <= 390
    assert not page.locator("header.site a[href='/leaderboard/']").is_visible()
    assert header_height(page) < PHONE_HEADER_PX, header_height(page)
    screenshot(page, "header-phone-closed-unread", full_page=False)
    page.locator("#messages-link").click()
    page.wait_for_url(f"{live_server.url}/messages/")
    page.goto(f"{live_server.url}/messages/alice/")
    assert not page.locator("#messages-link").is_visible()  # read: folded away again
