"""Reminders: a mail before a deadline, and the daily digest of the games that wait for a
player (the sweep of overdue deadlines is the game core's, games.deadlines)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from accounts.models import Preferences
from games.deadlines import owing_users
from games.models import Game
from games.store.seats import seats_of_games
from games.store.states import load_state
from notifications.models import Notification


def sweep_reminders(now=None) -> int:
    """Write a reminder row for each owed decision whose reminder time has come."""
    now = now or timezone.now()
    horizon = max(settings.CONQUEST_REMINDER_HOURS_MAX, 1)
    games = Game.objects.filter(
        status=Game.ACTIVE, deadline__gt=now, deadline__lte=now + timedelta(hours=horizon)
    )
    rows = []
    games = list(games)
    seats = seats_of_games(games)
    for game in games:
        state = load_state(game)
        users = owing_users(seats[game.pk], state)
        hours_of = dict(
            Preferences.objects.filter(user_id__in=users).values_list("user_id", "reminder_hours")
        )
        for user_id in users:
            hours = hours_of.get(user_id, [12, 1])
            due = [h for h in hours
                   if isinstance(h, int) and 0 < h * 3600 < game.deadline_seconds
                   and game.deadline - timedelta(hours=h) <= now]
            if not due:
                continue
            hour = min(due)  # only the nearest: a late sweep sends one reminder, not three
            rows.append(Notification(
                user_id=user_id, game=game, kind=Notification.REMINDER,
                key=f"reminder:{game.pk}:{game.deadline.isoformat()}:{hour}",
                payload={"hours": hour, "deadline": game.deadline.isoformat()},
            ))
    # bulk_create answers every row it was given, conflicts included: count the new ones.
    written = set(Notification.objects.filter(
        kind=Notification.REMINDER, key__in=[row.key for row in rows]
    ).values_list("user_id", "key"))
    rows = [row for row in rows if (row.user_id, row.key) not in written]
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def digest_users_due(now=None) -> list[int]:
    """Users who take a daily digest and whose local digest hour is now."""
    from games.clock import zone

    now = now or timezone.now()
    due = []
    for user_id, tz_name, hour in Preferences.objects.filter(
        turn_mail=Preferences.DIGEST, unsubscribed=False
    ).values_list("user_id", "time_zone", "digest_hour"):
        if now.astimezone(zone(tz_name)).hour == hour:
            due.append(user_id)
    return due


def write_digest(user_id: int, now=None) -> Notification | None:
    """One digest row listing the games that wait for the user; folds their turn rows."""
    from games.clock import zone
    from notifications.links import open_game_url

    now = now or timezone.now()
    # Read once: a row written while this runs waits for the next digest, not folded unseen.
    waiting = dict(Notification.objects.filter(
        user_id=user_id, digest=True, sent_at__isnull=True
    ).filter(Q(kind=Notification.TURN)).values_list("pk", "game_id"))
    game_ids = sorted(set(waiting.values()))
    if not game_ids:
        return None
    preferences = Preferences.objects.select_related("user").get(user_id=user_id)
    tz = zone(preferences.time_zone)
    games = Game.objects.filter(pk__in=game_ids, status=Game.ACTIVE)
    payload = {"games": [
        {"id": g.pk, "name": g.name, "title": g.title,
         "url": open_game_url(preferences.user, g.pk)}
        for g in games
    ]}
    if not payload["games"]:  # those games are over: no digest of nothing
        Notification.objects.filter(pk__in=list(waiting)).update(
            sent_at=now, skipped=True, last_error="the game no longer waits for a move")
        return None
    digest, created = Notification.objects.get_or_create(
        user_id=user_id, key=f"digest:{now.astimezone(tz).date().isoformat()}",
        defaults={"kind": Notification.DIGEST, "payload": payload},
    )
    if not created:
        return None  # today's digest is out: these rows wait for tomorrow's
    Notification.objects.filter(pk__in=list(waiting)).update(
        sent_at=now, skipped=True, last_error="folded into the daily digest")
    return digest
