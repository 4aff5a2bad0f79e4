"""Who has a game's page open: a "your move" mail waits while its reader is there, and goes
out once they leave without moving.

The page polls /games/{id}/live/ every few seconds; each poll by a signed-in user refreshes
a `Presence` row (a database row, so it holds on SQLite and PostgreSQL alike, whatever
cache or broker runs). The player counts as present until CONQUEST_PRESENCE_SECONDS after
the last poll. Delivery (notifications.delivery) puts a turn mail of a present player back
unsent, without counting an attempt, and asks for it again when the presence runs out; by
then the mail is obsolete if they moved (the turn passed, a newer turn mail replaces it),
else it goes out, once.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from notifications.models import Notification, Presence

# A poll refreshes the row at most this often: a write every poll would be wasted.
REFRESH = timedelta(seconds=5)
# The mails a present reader does not need: they see the page say it.
WAITS_WHILE_PRESENT = (Notification.TURN, Notification.REMINDER)


def lasts() -> timedelta:
    return timedelta(seconds=settings.CONQUEST_PRESENCE_SECONDS)


def seen(user, game_id: int, shown: bool = True) -> bool:
    """Record that `user` has the game's page open now; whether the row was written (not
    within REFRESH of the previous write). `shown`: the page (re)drew the game, so the
    game's notifications in the site's list count as read, since it shows what they say
    (the poll that finds nothing new passes False)."""
    if not user.is_authenticated:
        return False
    now = timezone.now()
    refreshed = Presence.objects.filter(user=user, game_id=game_id,
                                        seen_at__lt=now - REFRESH).update(seen_at=now)
    if not refreshed and not Presence.objects.filter(user=user, game_id=game_id).exists():
        try:
            with transaction.atomic():
                Presence.objects.create(user=user, game_id=game_id, seen_at=now)
            refreshed = 1
        except IntegrityError:  # another request of the same user made it first
            pass
    if shown or refreshed:
        Notification.objects.filter(user=user, game_id=game_id,
                                    read_at__isnull=True).update(read_at=now)
    return bool(refreshed)


def present_until(pairs) -> dict[tuple[int, int], datetime]:
    """For each (user id, game id) whose reader is on that game's page now: until when
    they count as present."""
    pairs = set(pairs)
    if not pairs:
        return {}
    now = timezone.now()
    found = Presence.objects.filter(
        user_id__in={u for u, _ in pairs}, game_id__in={g for _, g in pairs},
        seen_at__gt=now - lasts()).values_list("user_id", "game_id", "seen_at")
    return {(u, g): at + lasts() for u, g, at in found if (u, g) in pairs}


def waiting(rows) -> dict[int, datetime]:
    """Of these outbox rows, the mails to hold back because their reader is on the game's
    page: row id -> when to try again."""
    candidates = [r for r in rows if r.kind in WAITS_WHILE_PRESENT and r.game_id]
    until = present_until((r.user_id, r.game_id) for r in candidates)
    return {r.pk: until[(r.user_id, r.game_id)] for r in candidates
            if (r.user_id, r.game_id) in until}
