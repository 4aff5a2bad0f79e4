"""The mail of a private message: one for the first message the recipient has not read,
naming the sender and never the text (nor does any log line), as the recipient's
preferences allow."""

from __future__ import annotations

import logging

import pytest
from django.core import mail as outbox

from accounts.models import preferences_for
from conversations.messaging import mark_read, send_message
from notifications import delivery
from notifications import mail as mails
from notifications.models import Notification
from tests.people import client_for

pytestmark = pytest.mark.django_db
SECRET = "my phone number is 555-0199"


def rows():
    return list(Notification.objects.filter(kind=Notification.MESSAGE).order_by("pk"))


def test_it_mails_the_first_unread_message_only(alice, bob, veteran):
    veteran(alice)
    first = send_message(alice, bob, SECRET)
    send_message(alice, bob, "and another thing")
    [row] = rows()
    assert (row.user, row.game, row.payload) == (bob, None, {"sender": "alice"})
    assert row.key == f"message:{first.pk}"
    mark_read(bob, first.conversation)
    send_message(alice, bob, "are you there?")
    assert len(rows()) == 2
    send_message(bob, alice, "yes")  # an answer mails alice
    assert [r.user for r in rows()] == [bob, bob, alice]


def test_the_mail_names_the_sender_and_links_the_conversation(alice, bob, veteran, caplog):
    veteran(alice)
    caplog.set_level(logging.DEBUG)
    send_message(alice, bob, SECRET)
    [row] = rows()
    assert delivery.send_one(row.pk) == "sent"
    [sent] = outbox.outbox
    assert sent.subject == "alice sent you a message"
    assert sent.to == ["bob@example.com"]
    assert "http://testserver/messages/alice/" in sent.body or "/messages/alice/" in sent.body
    html = sent.alternatives[0][0]
    assert "/messages/alice/" in html
    assert "List-Unsubscribe" in sent.extra_headers
    for text in (sent.body, html, str(row.payload), caplog.text):
        assert "555-0199" not in text


def test_the_mail_is_in_the_reader_s_language(alice, bob, veteran):
    veteran(alice)
    preferences = preferences_for(bob)
    preferences.language = "cs"
    preferences.save()
    send_message(alice, bob, SECRET)
    [row] = rows()
    message = mails.render(row)
    assert message.subject == "alice vám posílá zprávu"


@pytest.mark.parametrize("field", ["message_mail", "unsubscribed"])
def test_the_preferences_turn_it_off(alice, bob, veteran, field):
    veteran(alice)
    preferences = preferences_for(bob)
    setattr(preferences, field, field == "unsubscribed")
    preferences.save()
    send_message(alice, bob, SECRET)
    [row] = rows()
    assert delivery.send_one(row.pk) == "skipped"
    assert outbox.outbox == []


def test_the_profile_has_the_preference(alice):
    client = client_for(alice)
    page = client.get("/accounts/profile/").content.decode()
    assert 'name="message_mail"' in page and "private message" in page
    assert preferences_for(alice).message_mail is True  # on by default


def test_the_profile_turns_the_mail_off_and_on(alice):
    fields = {"email": "alice@example.com", "time_zone": "UTC", "language": "en",
              "turn_mail": "each", "reminder_hours": "12, 1", "digest_hour": "8",
              "game_mail": "on"}
    assert client_for(alice).post("/accounts/profile/", fields).status_code == 302
    assert preferences_for(alice).message_mail is False  # unticked
    client_for(alice).post("/accounts/profile/", {**fields, "message_mail": "on"})
    assert preferences_for(alice).message_mail is True
