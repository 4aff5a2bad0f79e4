"""A private conversation in a real browser on a laptop (1366×900) and a phone (390×844):
the header counts the unread message, the list opens the conversation, an answer is sent
from the page's form, an empty one is refused beside the form, the other player's answer
comes in without a reload, and nothing scrolls sideways (a long unbroken word included)."""

from __future__ import annotations

import pytest

from conversations.messaging import send_message
from conversations.models import Message
from tests.conversations.support import finish_a_game
from tests.people import with_password
from tests.web.e2e.support import after_polls, signed_in
from tests.web.e2e.test_lobby_sizes import SIZES

pytestmark = pytest.mark.django_db(transaction=True)
WAIT = 10_000  # ms


def sideways(page) -> int:
    return page.evaluate(
        "document.scrollingElement.scrollWidth - document.documentElement.clientWidth")


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_a_conversation_at_both_sizes(browser, live_server, contexts, screenshot, size):
    alice, bob = with_password("alice"), with_password("bob")
    finish_a_game(alice)
    send_message(alice, bob, "Good game! Same time tomorrow? " + "Kamchatka" * 12)
    page = signed_in(browser, live_server.url, "bob", contexts, size, clock=True)

    count = page.locator("#messages-link .unread-count")
    assert count.inner_text().split()[0] == "1"
    box = count.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= size[0] + 1

    page.locator("#messages-link").click()
    page.wait_for_url(f"{live_server.url}/messages/")
    assert page.locator("ul.conversations li.unread").count() == 1
    page.locator("ul.conversations a", has_text="alice").click()
    page.wait_for_url(f"{live_server.url}/messages/alice/#latest")
    assert "Good game!" in page.locator("#conversation").inner_text()
    assert page.locator("#messages-link .unread-count").count() == 0  # read now
    assert sideways(page) <= 1

    page.locator("#id_text").fill(" ")
    page.get_by_role("button", name="Send").click()
    page.wait_for_selector("#message-error", timeout=WAIT)
    assert "empty" in page.locator("#message-error").inner_text()
    assert Message.objects.count() == 1

    page.locator("#id_text").fill("Yes! I take Asia this time.")
    page.get_by_role("button", name="Send").click()
    page.wait_for_url(f"{live_server.url}/messages/alice/#latest")
    latest = page.locator("#conversation li.own")
    assert latest.count() == 1 and "I take Asia" in latest.inner_text()
    box = latest.bounding_box()
    assert box["x"] + box["width"] <= size[0] + 1
    assert sideways(page) <= 1
    assert Message.objects.filter(sender=bob, recipient=alice).count() == 1
    screenshot(page, f"conversation-{size[0]}")

    # alice's answer comes in without a reload (the list polls), and is read at once
    send_message(alice, bob, "Deal. Bring snacks.")
    assert after_polls(page, lambda: page.locator(
        "#conversation li.theirs >> text=Bring snacks").count() == 1), "the answer never came"
    assert page.url == f"{live_server.url}/messages/alice/#latest"
    assert Message.objects.filter(recipient=bob, read_at__isnull=True).count() == 0
