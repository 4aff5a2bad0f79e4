"""Chat mentions: "@username" in a chat line puts an entry in that player's notification
list (notifications.inbox), never a mail; only for players of the game who read the line
(moderation.access: a team's line mentions only its team), never for its author."""

from __future__ import annotations

import re

from django.utils import timezone

from games.models import Game
from games.reading import seat_rows
from moderation.access import seat_reading
from moderation.models import ChatMessage
from notifications.models import Notification

# Usernames are Django's: letters, digits and @.+-_ (a trailing dot ends a sentence).
MENTION = re.compile(r"(?<![\w@.+-])@([\w.@+-]{1,150})")


def mentioned(text: str) -> set[str]:
    return {name.rstrip(".").lower() for name in MENTION.findall(text or "")}


def write_mentions(game: Game, message: ChatMessage) -> int:
    """The entries `message` causes, in the caller's transaction; how many were written."""
    names = mentioned(message.text)
    if not names:
        return 0
    now = timezone.now()
    rows = [
        Notification(user_id=user_id, game=game, kind=Notification.MENTION,
                     key=f"mention:{message.pk}", payload={"author": message.user.username,
                                                           "message": message.pk},
                     # Shown on the site only: settled at once, so no worker mails it.
                     sent_at=now, skipped=True, last_error="shown on the site only")
        for seat, user_id, username, bot in seat_rows(game)
        if username.lower() in names and user_id != message.user_id and bot is None
        and seat_reading(game, seat).reads(message)
    ]
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)
