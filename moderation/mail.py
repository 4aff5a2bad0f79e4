"""Table talk in the turn mail: the game's recent chat lines the recipient reads as a player
(moderation.access; notifications.mail asks for them when it renders a game's mail)."""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from moderation.access import seat_reading
from moderation.models import ChatMessage
from notifications.models import Notification

MAIL_LINES = 10
TEAM_MARK = _("to the team")


def chat_for_mails(notifications: list[Notification], seats: dict) -> dict[int, dict]:
    """Table talk for turn mails (the wiring's MAIL_PARTS), in two queries: the last
    few visible messages posted since each reader's previous turn mail in its game, as
    {notification id: {"chat": [...]}} for those that carry table talk. `seats` is
    {(game id, user id): seat}."""
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
        reading = seat_reading(n.game, seats.get((n.game_id, n.user_id)))
        since = previous[n.pk]
        shown = [m for m in messages.get(n.game_id, ())
                 if reading.reads(m) and (since is None or m.created_at > since)][-MAIL_LINES:]
        if shown:
            found[n.pk] = {"chat": [
                f"{m.user.get_username()}{' (' + TEAM_MARK + ')' if m.team is not None else ''}"
                f": {' '.join(m.text.split())}" for m in shown]}
    return found
