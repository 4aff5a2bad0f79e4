"""Who is at the screen: a mail about a game ("your move", "has started", "is over", ...)
waits while its reader is on the site, and goes out once they have been away a while, the
turn mail if they did not move, any other only if they did not see it on the site.

Two kinds of presence, both database rows (so they hold on SQLite and PostgreSQL alike,
whatever cache or broker runs): a game's page polls /games/{id}/live/ every few seconds (or
its stream reports it), and each poll by a signed-in user refreshes a `Presence` row for
that game; every request of a signed-in browser, to any page, refreshes their `OnSite` row
(notifications.middleware, at most once a minute, remembered in the session). A player
counts as on the site CONQUEST_ON_SITE_SECONDS after the newer of the two, and as on a
game's page CONQUEST_PRESENCE_SECONDS after its last poll. In a game against computer
players only, whose turns come back within seconds, the turn mail waits until the player
has been away CONQUEST_COMPUTER_GAME_AWAY_SECONDS. Delivery (notifications.delivery) puts
such a mail back unsent, without counting an attempt, and asks for it again when the
presence runs out; by then the mail is obsolete if they moved (the turn passed, a newer
turn mail replaces it), else it goes out, once. A player never seen on the site (playing by
mail or through the API) is mailed at once.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from notifications.models import Notification, OnSite, Presence

# A poll refreshes the row at most this often: a write every poll would be wasted.
REFRESH = timedelta(seconds=5)
# A browser's requests refresh its user's OnSite row at most this often.
ON_SITE_REFRESH = timedelta(seconds=60)
# The mails whose reader, once back from the screen, still needs them though the page showed
# the game: the decision is still theirs (they are obsolete once it is made instead). Every
# other mail about a game that the page showed them is not sent at all (`seen_on_the_site`).
STILL_OWED_AFTER_A_VISIT = (Notification.TURN, Notification.REMINDER)
# The answer to moves the reader mailed: they are at their mail, not the screen; it goes.
ANSWERS = (Notification.REPLY,)


def about_a_game(row) -> bool:
    return bool(row.game_id) and row.kind not in ANSWERS


def lasts() -> timedelta:
    return timedelta(seconds=settings.CONQUEST_PRESENCE_SECONDS)


def on_site_grace() -> timedelta:
    return timedelta(seconds=settings.CONQUEST_ON_SITE_SECONDS)


def away_from_computer_games() -> timedelta:
    return timedelta(seconds=settings.CONQUEST_COMPUTER_GAME_AWAY_SECONDS)


def on_site(user_id: int, now: datetime) -> None:
    """Record that the user's browser asked the site for something at `now`."""
    if OnSite.objects.filter(user_id=user_id).update(seen_at=now):
        return
    try:
        with transaction.atomic():
            OnSite.objects.create(user_id=user_id, seen_at=now)
    except IntegrityError:  # another request of the same user made it first
        OnSite.objects.filter(user_id=user_id).update(seen_at=now)


def last_on_site(user_ids) -> dict[int, datetime]:
    """When each of the users was last seen on the site: a page (OnSite) or a game's page
    open (Presence), whichever is newer; users never seen are left out."""
    user_ids = set(user_ids)
    if not user_ids:
        return {}
    found = dict(OnSite.objects.filter(user_id__in=user_ids).values_list("user_id", "seen_at"))
    for user_id, at in (Presence.objects.filter(user_id__in=user_ids).values("user_id")
                        .annotate(last=Max("seen_at")).values_list("user_id", "last")):
        found[user_id] = max(at, found.get(user_id, at))
    return found


def on_site_until(user_ids) -> dict[int, datetime]:
    """For each of the users who is on the site now: until when they count as there."""
    now = timezone.now()
    return {user_id: at + on_site_grace() for user_id, at in last_on_site(user_ids).items()
            if at + on_site_grace() > now}


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
    """Of these outbox rows, the mails about a game to hold back because their reader is at
    the screen (on the game's page, on the site, or, for a game against computer players,
    not away long enough): row id -> when to try again. Every kind about a game waits
    (started, over, eliminated, ...), not only the turn's."""
    candidates = [r for r in rows if about_a_game(r)]
    if not candidates:
        return {}
    on_page = present_until((r.user_id, r.game_id) for r in candidates)
    last = last_on_site(r.user_id for r in candidates)
    now, held = timezone.now(), {}
    for row in candidates:
        times = [on_page.get((row.user_id, row.game_id))]
        if row.user_id in last:
            computers = (row.payload or {}).get("against_computers")
            times.append(last[row.user_id]
                         + (away_from_computer_games() if computers else on_site_grace()))
        until = max((t for t in times if t is not None), default=None)
        if until is not None and until > now:
            held[row.pk] = until
    return held


def seen_on_the_site(row) -> bool:
    """Whether a mail about a game need not go because its reader saw what it says on the
    site (the game's page, or the site's list, marked it read): the game that started or
    ended while they were there, say. A turn mail still goes while the move is theirs."""
    return (about_a_game(row) and row.read_at is not None
            and row.kind not in STILL_OWED_AFTER_A_VISIT)
