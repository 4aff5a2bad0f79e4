"""Moderation's reaction to a committed change (declared in the wiring's REACTIONS): a
chat_hidden event hides its chat line, in the same transaction."""

from __future__ import annotations

from engine.events import CHAT_HIDDEN
from moderation.models import ChatMessage


def hide_chat_line(done):
    """In the transaction: the line a chat_hidden event names is flagged hidden, by the
    moderator who acted, at that event."""
    hidden = [e for e in done.events if e.type == CHAT_HIDDEN]
    if not hidden:
        return None

    def write():
        for event in hidden:
            ChatMessage.objects.filter(pk=event.data["message"]).update(
                hidden=True, hidden_by_id=done.actor.user_id, hidden_seq=event.seq)
    return write
