"""A private message wakes its recipient's user stream over Redis (live.publish), as a
chat line does: the notice comes at once, not at the stream's next safety poll."""

from __future__ import annotations

import time

import pytest
from django.conf import settings

from accounts.tokens import issue
from conversations import messaging
from tests.live.support import StreamServer

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not settings.CONQUEST_STREAM_REDIS_URL,
                       reason="without Redis the streams' hub polls: nothing to wake"),
]


def test_it_tells_the_recipients_stream_of_a_message_at_once(alice, bob):
    # The hub's own look at the database (for news Redis lost) and the stream's own read
    # after each heartbeat come once a minute here.
    server = StreamServer(CONQUEST_STREAM_SAFETY_POLL_SECONDS="60",
                          CONQUEST_STREAM_HEARTBEAT_SECONDS="60").start()
    try:
        notices = server.open("/api/v1/stream/", issue(alice))
        assert notices.status == 200
        notices.next(skip_heartbeats=False)  # the stream is open and has read once
        time.sleep(0.5)
        bob.is_staff = True  # (a newcomer may not start a conversation)
        messaging.send_message(bob, alice, "A game tonight?")
        sent = time.monotonic()
        kind, _, data = notices.next(within=10)
        assert (kind, data["kind"], data["sender"]) == ("notice", "message", "bob")
        assert time.monotonic() - sent < 3, "the notice waited for the safety poll"
        notices.close()
    finally:
        server.stop()
