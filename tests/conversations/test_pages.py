"""The private message pages: writing, the list with unread counts, the header's count,
the refusals (each changing nothing), blocking and the new-account rule."""

from __future__ import annotations

import re

import pytest

from conversations.models import Block, Conversation, Message
from notifications.models import Notification
from tests.conversations.support import finish_a_game
from tests.people import client_for, user

pytestmark = pytest.mark.django_db


def without_tokens(page: str) -> str:
    return re.sub(r'(csrfmiddlewaretoken" value=|X-CSRFToken": )"[^"]*"', "", page)


def send(client, to: str, text: str):
    return client.post(f"/messages/{to}/", {"text": text})


def test_it_sends_a_message_and_the_recipient_sees_it_unread(alice, bob, veteran):
    veteran(alice)
    answer = send(client_for(alice), "bob", "Good game! Rematch?")
    assert answer.status_code == 302 and answer["Location"] == "/messages/bob/#latest"
    message = Message.objects.get()
    assert (message.sender, message.recipient, message.text) == (alice, bob,
                                                                  "Good game! Rematch?")
    his = client_for(bob)
    header = his.get("/messages/").content.decode()
    assert 'id="messages-link">Messages <span class="unread-count">1' in header
    assert "Good game! Rematch?" in header  # the list's preview
    page = his.get("/messages/alice/").content.decode()
    assert "Good game! Rematch?" in page and 'id="message-form"' in page
    # opening the conversation read it
    assert Message.objects.get().read_at is not None
    assert 'class="unread-count"' not in his.get("/messages/").content.decode()


def test_the_list_is_newest_first_with_unread_counts(alice, bob, charlie, veteran):
    veteran(bob)
    veteran(charlie, "someone else")
    send(client_for(bob), "alice", "one")
    send(client_for(bob), "alice", "two")
    send(client_for(charlie), "alice", "three")
    page = client_for(alice).get("/messages/")
    entries = page.context["entries"]
    assert [(e["username"], e["unread"]) for e in entries] == [("charlie", 1), ("bob", 2)]
    assert page.context["unread_messages"] == 3


def test_a_new_account_cannot_start_a_conversation(alice, bob):
    page = client_for(alice).get("/messages/bob/").content.decode()
    assert "once you have finished a game" in page and 'id="message-form"' not in page
    answer = send(client_for(alice), "bob", "Buy gold at ...")
    assert answer.status_code == 403
    assert "once you have finished a game" in answer.content.decode()
    assert Message.objects.count() == 0 and Conversation.objects.count() == 0


def test_a_new_account_may_answer_and_finishing_a_game_lets_it_start(alice, bob, charlie,
                                                                     veteran):
    veteran(bob)
    send(client_for(bob), "alice", "Welcome!")
    assert send(client_for(alice), "bob", "Thanks!").status_code == 302  # answering is allowed
    assert send(client_for(alice), "charlie", "Hello").status_code == 403
    finish_a_game(alice, "another opponent")
    assert send(client_for(alice), "charlie", "Hello").status_code == 302
    assert Message.objects.count() == 3


@pytest.mark.parametrize(("to", "text", "status", "words"), [
    ("bob", "", 400, "The message is empty"),
    ("bob", "   \n ", 400, "The message is empty"),
    ("bob", "x" * 2001, 400, "at most 2000 characters long; this one has 2001"),
    ("bob", "a\x00b", 400, "control characters"),
    ("alice", "hi me", 400, "cannot send a message to yourself"),
    ("nobody-here", "hello", 404, "no player of that name"),
])
def test_bad_input_is_refused_and_changes_nothing(alice, bob, veteran, to, text, status,
                                                  words):
    veteran(alice)
    answer = send(client_for(alice), to, text)
    assert answer.status_code == status
    assert words in answer.content.decode()
    assert Message.objects.count() == 0 and Conversation.objects.count() == 0
    assert not Notification.objects.filter(kind=Notification.MESSAGE).exists()


def test_a_refused_message_keeps_what_was_typed(alice, bob, veteran):
    veteran(alice)
    answer = send(client_for(alice), "bob", "y" * 2001)
    assert "y" * 2001 in answer.content.decode()


def test_a_computer_player_takes_no_messages(alice, veteran):
    from games.computer import bot_user

    veteran(alice)
    bot = bot_user("easy", set())
    answer = send(client_for(alice), bot.username, "hello bot")
    assert answer.status_code == 400 and "Computer players" in answer.content.decode()
    assert Message.objects.count() == 0


def test_blocking_is_silent_to_the_blocked_player(alice, bob, veteran):
    veteran(alice)
    veteran(bob, "someone else")
    send(client_for(alice), "bob", "first")
    hers = client_for(alice)
    before = without_tokens(hers.get("/messages/bob/").content.decode())
    answer = client_for(bob).post("/messages/alice/block/")
    assert answer.status_code == 302 and Block.objects.filter(blocker=bob, blocked=alice).exists()
    # alice's page is as it was: nothing says she is blocked
    assert without_tokens(hers.get("/messages/bob/").content.decode()) == before
    # her message is taken as anyone's (test_blocking.py), and never reaches bob
    assert send(client_for(alice), "bob", "are you there?").status_code == 302
    assert Message.objects.count() == 2
    # bob is told he blocks her, and may unblock
    his = client_for(bob).get("/messages/alice/").content.decode()
    assert "You have blocked alice" in his and 'id="message-form"' not in his
    assert "are you there?" not in his
    assert send(client_for(bob), "alice", "hm").status_code == 403
    client_for(bob).post("/messages/alice/unblock/")
    assert send(client_for(alice), "bob", "again").status_code == 302
    assert "again" in client_for(bob).get("/messages/alice/").content.decode()


def test_blocked_players_do_not_count_in_the_header(alice, bob, veteran):
    veteran(alice)
    send(client_for(alice), "bob", "first")
    client_for(bob).post("/messages/alice/block/")
    page = client_for(bob).get("/messages/")
    assert page.context["unread_messages"] == 0
    assert "alice" in page.context["blocked"]


def test_nobody_blocks_themselves(alice):
    client_for(alice).post("/messages/alice/block/")
    assert Block.objects.count() == 0


def test_the_player_page_offers_to_send_a_message(alice, bob):
    page = client_for(alice).get("/players/bob/").content.decode()
    assert 'href="/messages/bob/" id="send-message"' in page
    assert 'id="send-message"' not in client_for(bob).get("/players/bob/").content.decode()


def test_the_list_opens_a_conversation_by_name(alice, bob):
    assert client_for(alice).get("/messages/?to=BOB")["Location"] == "/messages/bob/"
    answer = client_for(alice).get("/messages/?to=nobody-here")
    assert answer.status_code == 404 and "no player of that name" in answer.content.decode()


def test_it_is_for_signed_in_players(db):
    user("bob")
    assert client_for(None).get("/messages/bob/")["Location"].startswith("/accounts/login/")
    assert client_for(None).post("/messages/bob/", {"text": "hi"}).status_code == 302
    assert Message.objects.count() == 0


def test_it_throttles_messages(alice, bob, veteran, settings):
    veteran(alice)
    settings.CONQUEST_THROTTLE_RATES = {**settings.CONQUEST_THROTTLE_RATES,
                                        "message_user": "2/hour"}
    hers = client_for(alice)
    assert [send(hers, "bob", f"m{i}").status_code for i in range(3)] == [302, 302, 429]
    assert Message.objects.count() == 2


def test_it_limits_new_conversations_a_day(alice, veteran, settings):
    veteran(alice)
    settings.CONQUEST_CONVERSATIONS_PER_DAY = 2
    for name in ("p1", "p2"):
        user(name)
        assert send(client_for(alice), name, "hello").status_code == 302
    user("p3")
    answer = send(client_for(alice), "p3", "hello")
    assert answer.status_code == 429 and "wait until tomorrow" in answer.content.decode()
    assert send(client_for(alice), "p1", "more").status_code == 302  # not a new one
