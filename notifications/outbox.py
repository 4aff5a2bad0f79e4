"""The outbox: which mails a game's new events cause, written in the append transaction.

Rows are unique per (recipient, cause), so this may run again for the same events and
write nothing twice. Delivery is queued only after the transaction commits.
"""

from __future__ import annotations

import logging
import os
import threading
import time

from django.conf import settings
from django.db import transaction

from accounts.models import Preferences
from engine import events as ev
from engine.moves import decision, seats_to_act
from games.store.append import RowsWrite
from games.store.seats import Seats
from lib import publish, sql
from notifications.models import Notification

log = logging.getLogger(__name__)

# Events everyone at the table hears about, and events only the player concerned does.
_TO_EVERYONE = {
    ev.GAME_FINISHED: Notification.FINISHED,
    ev.PLAYER_DROPPED: Notification.DROPPED,
    ev.TURN_TIMED_OUT: Notification.TIMED_OUT,
}
_TO_THE_PLAYER = {ev.PLAYER_ELIMINATED: Notification.ELIMINATED}
# Every moderator event (as declared) is mailed to the table in the narrator's words, but
# those with a mail of their own (a drop above, the new holder's below) and those the table
# is not mailed of: an absent player's ended turn (the turn mails it causes tell it), a
# hidden chat line (table talk is not mailed either).
_MODERATION = ev.MODERATOR_EVENTS - {ev.PLAYER_DROPPED, ev.PLAYER_REPLACED,
                                     ev.MODERATOR_ENDED_TURN, ev.CHAT_HIDDEN}


def rows_for(game, seats: Seats, events, before, after, started_by=None) -> list[Notification]:
    """The rows these events cause in `game`, seated as `seats`, from the state before them
    to the state after them.
    `started_by`: the user who started the game with this change (pressed start, created
    it full, seated its last computer player): they saw it start, and get no mail of it."""
    # Computer players get no mail (nor does a dropped player whose seat a bot plays on).
    bots = seats.bot_levels(after)
    users = {seat: user_id for seat, user_id in seats.user_ids().items() if seat not in bots}
    # Against computer players only, the turn comes back within seconds of a move: its
    # mail waits until the player has been away a while (notifications.presence).
    against_computers = {"against_computers": True} if bots and len(users) == 1 else {}
    rows: list[Notification] = []

    def add(kind, user_id, seq, digest=False, **payload):
        # Keyed by the event that caused it; shows the game as this append left it.
        rows.append(Notification(
            user_id=user_id, game=game, kind=kind, event_seq=after.version, payload=payload,
            key=f"{kind}:{game.pk}:{seq}", digest=digest,
        ))

    # The move that ends the game is told by one end mail (notifications.ending), not a
    # mail per departure and another that it is over.
    ending = any(event.type == ev.GAME_FINISHED for event in events)
    for event in events:
        if event.type == ev.GAME_STARTED:
            for user_id in users.values():
                if user_id != started_by:
                    add(Notification.STARTED, user_id, event.seq)
        elif event.type == ev.GAME_FINISHED:
            for user_id in users.values():
                add(Notification.FINISHED, user_id, event.seq, winner=event.data.get("winner"),
                    since=before.version if before is not None else 0)
        elif event.type in _TO_EVERYONE and not ending:
            for user_id in users.values():
                add(_TO_EVERYONE[event.type], user_id, event.seq,
                    seat=event.data.get("seat"), winner=event.data.get("winner"))
        elif event.type in _TO_THE_PLAYER and event.data["seat"] in users and not ending:
            add(_TO_THE_PLAYER[event.type], users[event.data["seat"]], event.seq,
                by=event.data["by"])
        elif event.type in _MODERATION:
            for user_id in users.values():
                add(Notification.MODERATED, user_id, event.seq, action=event.type,
                    reason=event.data.get("reason", ""), until=event.data.get("until"))
        elif event.type == ev.PLAYER_REPLACED:
            new_user = event.data["to_user_id"]
            add(Notification.REPLACED, new_user, event.seq, seat=event.data["seat"],
                reason=event.data.get("reason", ""))
            if event.data["seat"] in seats_to_act(after):
                add(Notification.TURN, new_user, event.seq, seat=event.data["seat"])
    # "Your turn" to every seat the game newly waits for (not again while one decision,
    # such as a whole turn or a simultaneous placement, is still open). A decision a
    # standing order made in the same commit (the neutral's half, for a player who chose
    # to have it placed) is not waited for after it, and the mover who goes on with the
    # same turn still owes the decision they owed before: neither is told.
    waiting = set(seats_to_act(after))
    if before is not None and decision(before) == decision(after):
        waiting -= set(seats_to_act(before))
    if waiting:
        digest_users = digest_takers(seats, users.values())
        for seat in sorted(waiting & set(users)):
            user_id = users[seat]
            add(Notification.TURN, user_id, events[-1].seq, digest=user_id in digest_users,
                seat=seat, **against_computers)
    return rows


def digest_takers(seats: Seats, user_ids) -> set[int]:
    """Which of the users take a daily digest instead of turn mails: as read with the seats
    (config.reactions.SEAT_FLAGS, or a sweep's for many games at once), else now."""
    known = seats.flagged("digest")
    if known is not None:
        return known & set(user_ids)
    return set(Preferences.objects.filter(user_id__in=list(user_ids),
                                          turn_mail=Preferences.DIGEST)
               .values_list("user_id", flat=True))


def digest_flag_sql(user_column: str) -> str:
    """Whether the user `user_column` names takes a daily digest, as SQL (a seat flag the
    store reads with the seats)."""
    q = sql.quote
    return (f"EXISTS (SELECT 1 FROM {sql.table(Preferences)} p "
            f"WHERE p.{q('user_id')} = {user_column} "
            f"AND p.{q('turn_mail')} = '{Preferences.DIGEST}')")


def outbox_writer(game, seats: Seats, events, before, after, started_by=None):
    """The rows these events cause, as a write for the commit step's transaction
    (notifications.reactions.outbox_rows); None if they cause none."""
    rows = rows_for(game, seats, events, before, after, started_by)
    if not rows:
        return None
    # The store may write the rows in the append's own statement; else in its transaction.
    return RowsWrite(Notification, rows, lambda: write_outbox_rows(game, rows),
                     lambda ids: transaction.on_commit(lambda: queue_delivery(ids)))


def write_outbox(game, seats: Seats, events, before, after) -> None:
    """Write the rows these events cause (inside the caller's transaction)."""
    write = outbox_writer(game, seats, events, before, after)
    if write is not None:
        write()


def write_outbox_rows(game, rows: list[Notification]) -> None:
    created = Notification.objects.bulk_create(rows, ignore_conflicts=True)
    ids = [row.pk for row in created if row.pk is not None]
    if not ids:  # some backends return no ids with ignore_conflicts: look them up
        keys = {(row.user_id, row.key) for row in rows}
        ids = [pk for pk, user_id, key in Notification.objects.filter(
            game=game, key__in={k for _, k in keys}).values_list("pk", "user_id", "key")
            if (user_id, key) in keys]
    transaction.on_commit(lambda: queue_delivery(ids))


def queue_delivery(ids) -> None:
    """After commit: hand the rows to the workers, from a thread of this process's own.

    The request (or task) that committed never waits on the broker: one that is down or
    slow to answer would otherwise add its connection timeout to every move. Rows this
    misses are sent by the outbox sweep once their grace is over. Rows handed over within
    CONQUEST_DELIVERY_LINGER_SECONDS of the first, or while the thread is busy, go out
    together, DELIVERY_BATCH to a task: publishing a task costs more than most moves, and
    under load a task per mail would cost more than the moves that cause them."""
    ids = list(ids)
    if not ids:
        return
    with _pending_lock:
        if _pending_owner[0] != os.getpid():  # a forked child: its parent's thread is not here
            _pending.clear()
            _pending_owner[0] = os.getpid()
        _pending.extend(ids)
        if len(_pending) > len(ids):
            return  # a publish is already queued and will take these too
    publish.in_publishing_thread(_publish_pending)


# Rows per delivery task: one task (and one SMTP session) per batch, not per mail.
DELIVERY_BATCH = 50
_pending: list[int] = []
_pending_owner = [os.getpid()]
_pending_lock = threading.Lock()


def _publish_pending() -> None:
    time.sleep(min(max(0.0, settings.CONQUEST_DELIVERY_LINGER_SECONDS), 60.0))
    with _pending_lock:
        ids = _pending[:]
        _pending.clear()
    _publish(ids)


def _publish(ids) -> None:
    from notifications.tasks import deliver_many

    if publish.paused(deliver_many):
        log.info("broker unavailable lately: %d notification(s) left to the outbox sweep",
                 len(ids))
        return
    for start in range(0, len(ids), DELIVERY_BATCH):
        if not publish.publish_now(deliver_many, (ids[start:start + DELIVERY_BATCH],)):
            log.warning("could not queue the mail of notifications %s; the outbox sweep "
                        "will send it", ids[start:])
            return
