"""The news streams wait for, published on Redis once the change is committed: "g:GAME:SEQ"
(a game moved), "u:USER" (a user may have a new notice), "c:GAME" (a chat line). Without
Redis (CONQUEST_STREAM_REDIS_URL empty) nothing is sent: the streams' hub polls."""

from __future__ import annotations

import logging
import os
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import transaction

from games.models import Seat

log = logging.getLogger(__name__)
_client: tuple[int, object] | None = None
_thread: tuple[int, ThreadPoolExecutor] | None = None


def game_moved(done) -> None:
    """After commit (config.reactions): the game's streams, and its players' own streams
    (the move may be their turn, the game's start or end), hear of it."""
    if not settings.CONQUEST_STREAM_REDIS_URL:
        return
    bots = done.seats.bot_levels(done.after)
    messages = [f"g:{done.game.pk}:{done.after.version}"]
    messages += [f"u:{row.user_id}" for row in done.seats if row.seat not in bots]
    _on_commit(messages)


def invitation_news(what, invitation) -> None:
    """An invitation made, withdrawn, declined or accepted: the invitee's stream hears
    (not of one withheld from them)."""
    if settings.CONQUEST_STREAM_REDIS_URL and invitation.user_id and invitation.delivered:
        _on_commit([f"u:{invitation.user_id}"])


def chat_line(game, message, mentioned) -> None:
    """A chat line written (moderation.chat; config/reactions.py): its game's streams, and
    the players' (a mention)."""
    if not settings.CONQUEST_STREAM_REDIS_URL:
        return
    players = Seat.objects.filter(game_id=message.game_id, bot__isnull=True)
    _on_commit([f"c:{message.game_id}",
                *(f"u:{user_id}" for user_id in players.values_list("user_id", flat=True))])


def _on_commit(messages: list[str]) -> None:
    # From a thread of its own: a Redis that is slow or away never holds up the move, and
    # the news never waits behind the mail publisher's lingering (lib.publish's thread).
    transaction.on_commit(lambda: _sender().submit(send, messages))


def _sender() -> ThreadPoolExecutor:
    global _thread
    if _thread is None or _thread[0] != os.getpid():  # a forked child starts its own
        _thread = (os.getpid(), ThreadPoolExecutor(1, thread_name_prefix="conquest-live"))
    return _thread[1]


def send(messages: list[str]) -> None:
    global _client
    try:
        if _client is None or _client[0] != os.getpid():
            import redis  # here: a process that publishes nothing (mail, embedded) skips 85 ms

            _client = (os.getpid(), redis.Redis.from_url(
                settings.CONQUEST_STREAM_REDIS_URL, socket_timeout=2, socket_connect_timeout=2))
        pipe = _client[1].pipeline(transaction=False)
        for message in messages:
            pipe.publish(settings.CONQUEST_STREAM_CHANNEL, message)
        pipe.execute()
    except Exception as problem:  # noqa: BLE001 - the streams' own poll catches up
        log.warning("could not publish stream news to Redis: %s", problem)


def message_sent(message, first_unread: bool) -> None:
    """A private message written (conversations.messaging; config/reactions.py): its
    recipient's stream hears of it (their unread count), unless it was withheld from them."""
    if settings.CONQUEST_STREAM_REDIS_URL and message.delivered:
        _on_commit([f"u:{message.recipient_id}"])
