"""Deadlines are data: the sweep applies every overdue timeout through the one write path.

Each timeout is submitted with the version the sweep read, so a player who moved at the
last second wins the race, and running the sweep twice (or in two workers) applies each
timeout once.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from accounts.models import Preferences
from engine.errors import RuleViolation
from engine.moves import seats_to_act
from games import absences, service
from games.log import VersionConflict
from games.models import Game, Seat
from games.states import load_state, load_states
from notifications.models import Notification, Vacation

log = logging.getLogger(__name__)


def vacations_ending(user_ids, now) -> dict[int, object]:
    """{user id: the latest end of a vacation covering `now`} for those away, in one
    query."""
    ends: dict[int, object] = {}
    for user_id, until in Vacation.objects.filter(
            user_id__in=set(user_ids), starts__lte=now, ends__gt=now).values_list(
            "user_id", "ends"):
        ends[user_id] = max(until, ends.get(user_id, until))
    return ends


def owing_seats(game, state) -> dict[int, int]:
    """{seat: user id} of the seats the game waits for (the seats as read with the game)."""
    seats = set(seats_to_act(state))
    return {row[0]: row[1] for row in seats.seat_rows(game) if row[0] in seats}


def owing_users(game, state) -> list[int]:
    """The users of the seats the game waits for."""
    return list(owing_seats(game, state).values())


def attach_seats(games) -> None:
    """Read the seats of all `games` in one query, as seats.seat_rows keeps them, and
    which of their players take a digest (notifications.outbox.digest_takers) in another."""
    found: dict[int, list] = {game.pk: [] for game in games}
    for game_id, *row in Seat.objects.filter(game_id__in=list(found)).values_list(
            "game_id", "seat", "user_id", "user__username", "bot").order_by("game_id", "seat"):
        found[game_id].append(tuple(row))
    takers = set(Preferences.objects.filter(
        user_id__in={row[1] for rows in found.values() for row in rows},
        turn_mail=Preferences.DIGEST).values_list("user_id", flat=True))
    for game in games:
        game._seat_rows = found[game.pk]
        game._seat_flags = {"digest": takers}


# Games read and decided together: their seats, states and vacations take a few queries
# per batch instead of several per game.
READ_BATCH = 250


def sweep_deadlines(limit: int = 1000) -> dict:
    """Apply the timeouts of active games whose deadline has passed (oldest first), at
    most `limit` of them; "backlog" says how many overdue games this run left for the
    next (the caller re-queues or waits for the next beat: deadlines are data, so no
    sweep is ever lost)."""
    now = timezone.now()
    counts = {"timed_out": 0, "moved_on": 0, "stretched": 0, "failed": 0}
    due = list(Game.objects.filter(status=Game.ACTIVE, deadline__lte=now)
               .order_by("deadline")[:limit])
    for start in range(0, len(due), READ_BATCH):
        batch = due[start:start + READ_BATCH]
        attach_seats(batch)
        states = _states(batch)
        batch = [game for game in batch if game.pk in states or _failed(game, counts)]
        owing = {game.pk: owing_seats(game, states[game.pk]) for game in batch}
        away = vacations_ending([user for seats in owing.values() for user in seats.values()],
                                now)
        for game in batch:
            _time_out(game, states[game.pk], owing[game.pk], away, counts)
    if len(due) == limit:
        counts["backlog"] = Game.objects.filter(
            status=Game.ACTIVE, deadline__lte=now).count()
    return counts


def _states(games) -> dict:
    """The games' states, read together; one by one if that fails, leaving out a game
    whose state cannot be read (a broken game must not hold up every other deadline)."""
    try:
        return load_states(games)
    except Exception:  # noqa: BLE001 - find the broken game, sweep the others
        log.exception("reading %d overdue games together failed; reading them one by one",
                      len(games))
    states = {}
    for game in games:
        try:
            states[game.pk] = load_state(game)
        except Exception:  # noqa: BLE001
            log.exception("the state of game %s cannot be read", game.pk)
    return states


def _failed(game, counts) -> bool:
    log.error("the timeout of game %s failed: its state cannot be read", game.pk)
    counts["failed"] += 1
    return False


def _time_out(game, state, owing, away, counts) -> None:
    """Apply one game's timeout through the one write path (or stretch its deadline for the
    owing players on vacation, an event too); the version read guards against a move made
    meanwhile."""
    version = game.version
    on_vacation = sorted(seat for seat, user in owing.items() if user in away)
    try:
        if on_vacation:
            # The clock starts again when the last of them is back.
            back = max(away[owing[seat]] for seat in on_vacation)
            absences.stretch(game, state, on_vacation, back)
            counts["stretched"] += 1
            return
        service.submit_timeout(game, version, state)
        counts["timed_out"] += 1
    except (VersionConflict, RuleViolation):
        counts["moved_on"] += 1
    except Exception:  # noqa: BLE001 - one broken game must not stop every deadline
        log.exception("the timeout of game %s failed", game.pk)
        counts["failed"] += 1


def sweep_reminders(now=None) -> int:
    """Write a reminder row for each owed decision whose reminder time has come."""
    now = now or timezone.now()
    horizon = max(settings.CONQUEST_REMINDER_HOURS_MAX, 1)
    games = Game.objects.filter(
        status=Game.ACTIVE, deadline__gt=now, deadline__lte=now + timedelta(hours=horizon)
    )
    rows = []
    for game in games:
        state = load_state(game)
        users = owing_users(game, state)
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
        {"id": g.pk, "name": g.name, "url": open_game_url(preferences.user, g.pk)}
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
