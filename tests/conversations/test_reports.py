"""Reporting a private message: the recipient's report joins the moderators' queue; a
moderator reads the reported message and nothing else of the conversation, hides it and
closes the report; a moderator who wrote or received it does not handle it."""

from __future__ import annotations

import pytest

from conversations.messaging import send_message
from conversations.models import Message, MessageReport
from tests.people import client_for, moderator

pytestmark = pytest.mark.django_db


@pytest.fixture
def reported(alice, bob, veteran):
    """alice wrote bob two messages, and bob reported the second."""
    veteran(alice)
    send_message(alice, bob, "a private word about our alliance")
    rude = send_message(alice, bob, "you play like a potato")
    answer = client_for(bob).post(f"/messages/alice/report/{rude.pk}/", {"reason": "insulting"})
    assert answer.status_code == 302
    return MessageReport.objects.get()


def test_the_recipient_reports_from_the_conversation(alice, bob, veteran):
    veteran(alice)
    rude = send_message(alice, bob, "you play like a potato")
    page = client_for(bob).get("/messages/alice/").content.decode()
    assert f'href="/messages/alice/report/{rude.pk}/"' in page
    assert "/report/" not in client_for(alice).get("/messages/bob/").content.decode()  # not her own
    form = client_for(bob).get(f"/messages/alice/report/{rude.pk}/")
    assert form.status_code == 200 and "you play like a potato" in form.content.decode()
    refused = client_for(bob).post(f"/messages/alice/report/{rude.pk}/", {"reason": "  "})
    assert refused.status_code == 400 and MessageReport.objects.count() == 0
    assert client_for(alice).get(f"/messages/bob/report/{rude.pk}/").status_code == 404
    client_for(bob).post(f"/messages/alice/report/{rude.pk}/", {"reason": "insulting"})
    report = MessageReport.objects.get()
    assert (report.reporter, report.message, report.reason) == (bob, rude, "insulting")


def test_the_queue_lists_it_and_the_moderator_reads_only_that_message(reported, maud):
    queue = client_for(maud).get("/moderation/").content.decode()
    assert "Reported private messages" in queue
    assert f'href="/moderation/private-messages/{reported.pk}/"' in queue
    assert "insulting" in queue
    page = client_for(maud).get(f"/moderation/private-messages/{reported.pk}/").content.decode()
    assert "you play like a potato" in page
    assert "alliance" not in page  # the rest of the conversation stays private
    # nor does any page of the conversation open to her
    assert client_for(maud).get("/messages/alice/").context["messages_shown"] == []


def test_a_moderator_hides_the_message_and_closes_the_report(reported, alice, bob, maud):
    url = f"/moderation/private-messages/{reported.pk}/"
    assert client_for(maud).post(url, {"action": "hide", "reason": ""}).status_code == 400
    assert not Message.objects.get(pk=reported.message_id).hidden
    client_for(maud).post(url, {"action": "hide", "reason": "insults"})
    message = Message.objects.get(pk=reported.message_id)
    assert message.hidden and message.hidden_by == maud
    for viewer, other in ((alice, "bob"), (bob, "alice")):
        page = client_for(viewer).get(f"/messages/{other}/").content.decode()
        assert "potato" not in page and "Hidden by a moderator." in page
        assert "alliance" in page
    client_for(maud).post(url, {"action": "close", "note": "hidden, warned"})
    reported.refresh_from_db()
    assert (reported.status, reported.closed_by, reported.note) == ("closed", maud,
                                                                    "hidden, warned")
    assert f"/moderation/private-messages/{reported.pk}/" not in client_for(maud).get(
        "/moderation/").content.decode()


def test_moderators_who_wrote_or_received_it_do_not_handle_it(alice, bob, veteran):
    veteran(alice)
    boss = moderator("boss")
    rude = send_message(alice, boss, "you moderate like a potato")
    client_for(boss).post(f"/messages/alice/report/{rude.pk}/", {"reason": "insulting"})
    report = MessageReport.objects.get()
    assert f"private-messages/{report.pk}/" not in client_for(boss).get("/moderation/").content.decode()
    assert client_for(boss).get(f"/moderation/private-messages/{report.pk}/").status_code == 403
    client_for(boss).post(f"/moderation/private-messages/{report.pk}/",
                   {"action": "hide", "reason": "mine"})
    assert not Message.objects.get(pk=rude.pk).hidden


def test_players_do_not_see_the_moderators_page(reported, alice, bob):
    for someone in (alice, bob):
        assert client_for(someone).get(f"/moderation/private-messages/{reported.pk}/").status_code \
            == 403


def test_reports_count_against_the_daily_limit(alice, bob, veteran, settings):
    veteran(alice)
    settings.CONQUEST_REPORTS_PER_DAY = 1
    first, second = send_message(alice, bob, "one"), send_message(alice, bob, "two")
    client_for(bob).post(f"/messages/alice/report/{first.pk}/", {"reason": "spam"})
    answer = client_for(bob).post(f"/messages/alice/report/{second.pk}/", {"reason": "spam"})
    assert answer.status_code == 429 and MessageReport.objects.count() == 1


def test_a_hidden_message_keeps_its_place_in_the_api(reported, alice, bob, maud):
    from tests.people import token_client_for

    client_for(maud).post(f"/moderation/private-messages/{reported.pk}/",
                   {"action": "hide", "reason": "insults"})
    messages = token_client_for(bob).get("/api/v1/messages/alice/").json()["messages"]
    assert [(m["text"], m["hidden"]) for m in messages] == [
        ("a private word about our alliance", False), (None, True)]


def test_no_admin_page_lists_private_messages():
    from django.contrib import admin

    assert [model for model in admin.site._registry
            if model._meta.app_label == "conversations"] == []
