"""The site's notification list: the user's outbox rows worth showing there (your move, a
game started or finished, chat mentions, tournament news, invitations), read or unread.

An entry says no more than its mail does, which shows only what the recipient's seat may
see: a game's name, a tournament's news, who mentioned you (not the line, which a
moderator may hide later). Opening a game's page marks that game's entries read
(notifications.presence.seen).
"""

from __future__ import annotations

from django.db.models import OuterRef, Q, Subquery
from django.urls import reverse
from django.utils import timezone

from notifications.kinds import KINDS, LISTED
from notifications.models import Notification
from words.notices import listed_text
from words.titles import game_title

PAGE_SIZE = 50


def listed(user):
    """The user's entries, newest first. Of a game's "your move" rows only the newest
    counts: a game against bots writes one a turn, and they all say the same."""
    newest_turn = Notification.objects.filter(
        user_id=OuterRef("user_id"), game_id=OuterRef("game_id"), kind=Notification.TURN,
    ).order_by("-pk").values("pk")[:1]
    return (Notification.objects.filter(user=user, kind__in=LISTED)
            .exclude(Q(kind=Notification.TURN) & ~Q(pk=Subquery(newest_turn)))
            .select_related("game").order_by("-pk"))


def unread_count(user) -> int:
    if not user.is_authenticated:
        return 0
    return listed(user).filter(read_at__isnull=True).count()


def mark_read(user, ids=None) -> int:
    """Mark the user's entries `ids` (all, if None) read; how many were unread."""
    rows = Notification.objects.filter(user=user, kind__in=LISTED, read_at__isnull=True)
    if ids is not None:
        rows = rows.filter(pk__in=list(ids))
    return rows.update(read_at=timezone.now())


def text_of(row: Notification) -> str:
    """The entry in words, in the active language (the msgids the mails use, where the
    mails say the same: words/notices.py)."""
    game = game_title(row.game) if row.game is not None else ""
    return listed_text(row.kind, row.payload or {}, game)


def url_of(row: Notification) -> str:
    if row.kind == Notification.TOURNAMENT and (row.payload or {}).get("tournament_id"):
        return reverse("tournament", args=[row.payload["tournament_id"]])
    if row.game_id is None:
        return reverse("notices")
    return reverse("game", args=[row.game_id]) + KINDS[row.kind].anchor


def entry(row: Notification) -> dict:
    """One entry as the page and the API show it."""
    return {"id": row.pk, "kind": row.kind, "text": text_of(row), "url": url_of(row),
            "game": row.game_id, "created_at": row.created_at.isoformat(),
            "read": row.read_at is not None}


def entries(user, limit: int = PAGE_SIZE) -> list[dict]:
    return [entry(row) for row in listed(user)[:limit]]
