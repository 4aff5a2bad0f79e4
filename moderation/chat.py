"""Game chat: seated players post, moderators hide; who reads which line is
moderation.access's.

Posting writes a ChatMessage row and leaves the game's log and version alone. Hiding is a
moderator's action and so an event, `chat_hidden {message, author_seat, by, reason}`,
decided by the engine and submitted through games.service.submit like every other, with
the message's `hidden` flag (its projection) set in the same transaction.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

import engine as rules
from engine.events import CHAT_HIDDEN
from engine.pieces import COLORS
from games.errors import ServiceError
from games.models import Game, Seat
from games.moderation import check_not_playing
from games.service import MODERATOR, Actor, submit
from games.store.append import VersionConflict
from games.store.row import team_of
from games.store.seats import Seats
from lib.reactions import announce
from moderation.mentions import mentioned_players
from moderation.models import ChatMessage
from moderation.text import clean_text

__all__ = ["CHAT_HIDDEN", "hide_message", "post_message", "recent_messages"]
MAX_LENGTH = 1000


def per_minute() -> int:
    return getattr(settings, "CONQUEST_CHAT_PER_MINUTE", 5)


def chat_open(game: Game) -> bool:
    """Chat opens when the game starts (hiding needs a log to record it in)."""
    return game.status != Game.OPEN


def check_post(game: Game, user, text) -> str:
    text = clean_text(text, "message", MAX_LENGTH)
    if user is None or not user.is_authenticated:
        raise ServiceError(401, "not_authenticated", "sign in to chat")
    if not chat_open(game):
        raise ServiceError(400, "chat_closed", "the chat opens when the game starts")
    return text


def team_game(game: Game) -> bool:
    return game.rules.get("team_size", 1) > 1


def post_message(game: Game, user, text, team: bool = False,
                 seats: Seats | None = None) -> ChatMessage:
    """Post `text` as `user`, a seated player of `game`, to the table or (`team`) to their
    team only; refused past the rate limit. `seats`: the game's, if the caller read them
    (the players it mentions are found among them)."""
    text = check_post(game, user, text)
    if team is not True and team is not False:
        raise ServiceError(400, "bad_request", "team must be true or false")
    if team and not team_game(game):
        raise ServiceError(400, "bad_request", "this game has no teams: write to the table")
    with transaction.atomic():
        # Locking the author's seat makes their posts in this game take turns, so two at
        # once cannot both slip under the limit.
        seat = (Seat.objects.select_for_update().filter(game=game, user=user)
                .values_list("seat", flat=True).first())
        if seat is None:
            raise ServiceError(403, "not_seated", "only the players of this game may chat")
        now = timezone.now()
        recent = ChatMessage.objects.filter(game=game, user=user,
                                            created_at__gt=now - timedelta(minutes=1)).count()
        limit = per_minute()
        if recent >= limit:
            raise ServiceError(429, "rate_limited",
                               f"at most {limit} messages a minute: wait a moment")
        message = ChatMessage.objects.create(game=game, user=user, seat=seat, text=text,
                                             team=team_of(game, seat) if team else None,
                                             created_at=now)
        # Its streams hear of it, and the players it mentions (config/reactions.py).
        announce("chat_line", game, message, mentioned_players(game, message, seats))
        return message


def check_hider(user) -> None:
    if (user is None or not user.is_authenticated or not user.is_staff
            or not user.has_perm("moderation.change_chatmessage")):
        raise ServiceError(403, "not_moderator", "only moderators may hide messages")


def hide_message(message: ChatMessage, moderator, reason) -> ChatMessage:
    """Hide `message` as `moderator`: a chat_hidden event in its game's log."""
    check_hider(moderator)
    check_not_playing(message.game_id, moderator)
    reason = clean_text(reason, "reason", 500)
    message.refresh_from_db()
    if message.hidden:
        raise ServiceError(400, "moderation_refused", "the message is already hidden")
    game = Game.objects.get(pk=message.game_id)
    command = rules.Moderate("hide_message", moderator.get_username(), reason, facts={
        "message": message.pk, "author_seat": message.seat, "team": message.team})
    try:
        # Hiding does not depend on the board: a move landing meanwhile is retried by the
        # front door. (moderation.reactions.hide_chat_line flags the line with the event.)
        submit(Actor(MODERATOR, moderator.pk), game, command)
    except VersionConflict:
        raise ServiceError(409, "version_conflict", "the game kept moving; try again") from None
    message.refresh_from_db()
    return message


def recent_messages(game: Game, reading, limit: int = 50, after: int | None = None) -> list:
    """The last `limit` messages that have a place in `reading` (moderation.access)."""
    rows = ChatMessage.objects.filter(reading.seen(), game=game).select_related("user")
    if after is not None:
        rows = rows.filter(pk__gt=after)
    return list(reversed(rows.order_by("-id")[:limit]))


def message_dict(message: ChatMessage, reading) -> dict:
    """A message as the API shows it to `reading`: a hidden one keeps its place, not its
    text."""
    return {
        "id": message.pk, "seat": message.seat, "username": message.user.get_username(),
        "color": COLORS[message.seat],
        "text": message.text if reading.reads(message) else None, "hidden": message.hidden,
        "team": message.team,
        "created_at": message.created_at.isoformat(),
    }
