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


def chat_for_mails(notifications: list[Notification], seats: dict) -> dict[int, dict]:
    """chat_for_mail for many mails at once, in two queries: {notification id: {"chat":
    [...]}} for those that carry table talk. `seats` is {(game id, user id): seat}."""
    turns = [n for n in notifications if n.kind == Notification.TURN and n.game_id]
    if not turns:
        return {}
    games = {n.game_id for n in turns}
    # Each recipient's earlier turn mails in these games: the latest before each one.
    earlier: dict[tuple, list] = {}
    for pk, user_id, game_id, created_at in Notification.objects.filter(
            game_id__in=games, user_id__in={n.user_id for n in turns},
            kind=Notification.TURN).values_list("pk", "user_id", "game_id", "created_at"):
        earlier.setdefault((user_id, game_id), []).append((pk, created_at))
    previous = {}
    for n in turns:
        before = [row for row in earlier.get((n.user_id, n.game_id), ()) if row[0] < n.pk]
        previous[n.pk] = max(before)[1] if before else None
    oldest = {}
    for n in turns:
        if n.game_id in oldest and oldest[n.game_id] is None:
            continue
        since = previous[n.pk]
        oldest[n.game_id] = since if since is None or n.game_id not in oldest else min(
            since, oldest[n.game_id])
    wanted = Q()
    for game_id, since in oldest.items():
        wanted |= Q(game_id=game_id) if since is None else Q(game_id=game_id,
                                                            created_at__gt=since)
    messages: dict[int, list] = {}
    for message in ChatMessage.objects.filter(wanted, hidden=False).select_related(
            "user").order_by("id"):
        messages.setdefault(message.game_id, []).append(message)
    found = {}
    for n in turns:
        seat = seats.get((n.game_id, n.user_id))
        team = None if seat is None else team_of(n.game, seat)
        since = previous[n.pk]
        shown = [m for m in messages.get(n.game_id, ())
                 if (m.team is None or (team is not None and m.team == team))
                 and (since is None or m.created_at > since)][-MAIL_LINES:]
        if shown:
            found[n.pk] = {"chat": [
                f"{m.user.get_username()}{' (' + TEAM_MARK + ')' if m.team is not None else ''}"
                f": {' '.join(m.text.split())}" for m in shown]}
    return found
