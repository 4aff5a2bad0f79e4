"""Chat mentions: "@username" in a chat line mentions that player, only for players of the
game who read the line (moderation.access: a team's line mentions only its team), never its
author. The chat announces them with the line (config/reactions.py: "chat_line"); the
notifications app puts each in the player's notification list, never a mail."""

from __future__ import annotations

import re

from games.models import Game
from games.store.seats import Seats, read_seats
from moderation.access import seat_reading
from moderation.models import ChatMessage

# Usernames are Django's: letters, digits and @.+-_ (a trailing dot ends a sentence).
MENTION = re.compile(r"(?<![\w@.+-])@([\w.@+-]{1,150})")


def mentioned(text: str) -> set[str]:
    return {name.rstrip(".").lower() for name in MENTION.findall(text or "")}


def mentioned_players(game: Game, message: ChatMessage,
                      seats: Seats | None = None) -> list[int]:
    """The user ids `message` mentions that may read it (none of them its author or a bot);
    `seats`: the game's, if the caller read them (else read here, when it names anyone)."""
    names = mentioned(message.text)
    if not names:
        return []
    seats = read_seats(game) if seats is None else seats
    return [user_id for seat, user_id, username, bot in seats
            if username.lower() in names and user_id != message.user_id and bot is None
            and seat_reading(game, seat).reads(message)]
