"""The chat box in a real browser (Debian's chromium, driven by Playwright): a message sent
without leaving the game page, read by the other player, hostile text staying text."""

from __future__ import annotations

import pytest

from moderation.models import ChatMessage
from tests.moderation.support import started_game
from tests.people import user
from tests.web.e2e.support import sign_in

WAIT = 10_000  # ms

pytestmark = pytest.mark.django_db(transaction=True)


def page_for(browser, base, someone, contexts):
    context = browser.new_context()
    contexts.append(context)
    sign_in(context, base, someone)
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda error: page.problems.append(str(error)))
    page.on("dialog", lambda dialog: (page.problems.append("dialog: " + dialog.message),
                                      dialog.dismiss()))
    return page


def test_it_chats_without_leaving_the_game_page(browser, live_server, contexts):
    alice, bob = user("alice"), user("bob")
    game = started_game([alice, bob])
    base = live_server.url
    hers, his = page_for(browser, base, alice, contexts), page_for(browser, base, bob, contexts)
    hers.goto(f"{base}/games/{game.pk}/")
    his.goto(f"{base}/games/{game.pk}/")
    hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script>'
    hers.fill("#chat-text", "Good luck! " + hostile)
    hers.get_by_role("button", name="Send").click()
    hers.wait_for_selector("#chat-lines li[data-message]", timeout=WAIT)
    assert hers.url == f"{base}/games/{game.pk}/"  # no page load
    assert hers.locator("#chat-text").input_value() == ""
    assert hostile in hers.locator("#chat-lines").inner_text()
    assert ChatMessage.objects.get().text == "Good luck! " + hostile
    his.evaluate("window.conquestChat.refresh()")
    his.wait_for_selector("#chat-lines li[data-message]", timeout=WAIT)
    assert "Good luck!" in his.locator("#chat-lines").inner_text()
    assert his.locator("#chat-lines img").count() == 0
    hers.fill("#chat-text", " ")
    hers.get_by_role("button", name="Send").click()
    hers.wait_for_selector("#chat [role=alert]", timeout=WAIT)
    assert hers.problems == [] and his.problems == []
