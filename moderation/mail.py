"""Table talk in the turn mail: the game's recent visible chat lines (notifications.mail
asks for them when it renders a game's mail)."""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Seat
from games.services import team_of
from moderation.models import ChatMessage
from notifications.models import Notification

MAIL_LINES = 10
TEAM_MARK = _("to the team")


def chat_for_mail(notification: Notification, context: dict) -> dict:
    """{"chat": ["alice: hello", …]}: visible messages posted since this player's previous
    turn mail in this game (the last few of them), for turn mails only."""
    if notification.kind != Notification.TURN or notification.game_id is None:
        return {}
    previous = (Notification.objects.filter(
        user_id=notification.user_id, game_id=notification.game_id, kind=Notification.TURN,
        pk__lt=notification.pk).order_by("-pk").values_list("created_at", flat=True).first())
    rows = ChatMessage.objects.filter(game_id=notification.game_id, hidden=False)
    # table talk, and the recipient's own team chat in a team game
    seat = (Seat.objects.filter(game_id=notification.game_id, user_id=notification.user_id)
            .values_list("seat", flat=True).first())
    team = None if seat is None else team_of(notification.game, seat)
    rows = rows.filter(Q(team__isnull=True) | Q(team=team)) if team is not None \
        else rows.filter(team__isnull=True)
    if previous is not None:
        rows = rows.filter(created_at__gt=previous)
    rows = rows.select_related("user").order_by("-id")[:MAIL_LINES]
    lines = [f"{m.user.get_username()}{' (' + TEAM_MARK + ')' if m.team is not None else ''}: "
             f"{' '.join(m.text.split())}" for m in reversed(rows)]
    return {"chat": lines} if lines else {}
