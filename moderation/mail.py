"""Table talk in the turn mail: the game's recent visible chat lines (notifications.mail
asks for them when it renders a game's mail)."""

from __future__ import annotations

from moderation.models import ChatMessage
from notifications.models import Notification

MAIL_LINES = 10


def chat_for_mail(notification: Notification, context: dict) -> dict:
    """{"chat": ["alice: hello", …]}: visible messages posted since this player's previous
    turn mail in this game (the last few of them), for turn mails only."""
    if notification.kind != Notification.TURN or notification.game_id is None:
        return {}
    previous = (Notification.objects.filter(
        user_id=notification.user_id, game_id=notification.game_id, kind=Notification.TURN,
        pk__lt=notification.pk).order_by("-pk").values_list("created_at", flat=True).first())
    rows = ChatMessage.objects.filter(game_id=notification.game_id, hidden=False)
    if previous is not None:
        rows = rows.filter(created_at__gt=previous)
    rows = rows.select_related("user").order_by("-id")[:MAIL_LINES]
    lines = [f"{m.user.get_username()}: {' '.join(m.text.split())}" for m in reversed(rows)]
    return {"chat": lines} if lines else {}
