"""Sending outbox rows: claim with a conditional update, send, stamp sent_at.

A claim is a lease: a worker that dies leaves a claim that expires, and the outbox sweep
(or a re-queue, such as presence's) takes the row over. Two workers never both hold a row,
and each claim has an id of its own (host, the claiming process's pid, a random part), so
no process, not even a pool child forked from the same parent, can release another's claim.

Delivery is at most once. Right before handing a mail to the SMTP server, its worker marks
the row `maybe_sent`, on the condition that it still holds the claim (begin_send): a worker
whose lease ran out while it was slow finds the row taken over and does not send it. A row
taken over with the mark on may have gone out (its worker died, or lost its lease, between
the mark and the stamp): it is settled as "sent or unknown" with its Message-ID, never sent
again, never counted as skipped. A row taken over without the mark provably never reached
the mail server, and is sent. A send that raises (the server refused it, or could not be
reached) takes the mark off again and leaves the row for the sweep.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.core.mail import get_connection
from django.db.models import F, Q
from django.utils import timezone

from games.models import Game, Invitation
from notifications import ending, mail, presence, push
from notifications.models import Notification

log = logging.getLogger(__name__)


def claim_id() -> str:
    """A new claim's id, read at claim time: a module-level pid would be the parent's in
    every forked pool child."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def lease() -> timedelta:
    return timedelta(seconds=settings.CONQUEST_MAIL_LEASE_SECONDS)


def claim_columns(now, mine) -> dict:
    """The columns a claim sets (a row marked maybe_sent keeps its mark)."""
    return {"claimed_at": now, "claimed_by": mine, "attempts": F("attempts") + 1}


def claim(pk: int) -> str | None:
    """Take the row for one send: the claim's id, or None if someone else holds it."""
    now, mine = timezone.now(), claim_id()
    taken = Notification.objects.filter(
        Q(claimed_at__isnull=True) | Q(claimed_at__lt=now - lease()),
        pk=pk, sent_at__isnull=True,
    ).update(**claim_columns(now, mine))
    return mine if taken == 1 else None


def begin_send(pk: int, mine: str) -> bool:
    """Mark the row as perhaps sent, right before its mail goes to the SMTP server, if the
    claim `mine` still holds it; False if another worker took it over (this one's lease
    ran out): then this one must not send it."""
    return Notification.objects.filter(
        pk=pk, claimed_by=mine, sent_at__isnull=True, maybe_sent=False,
    ).update(maybe_sent=True) == 1


def send_failed(pk: int, mine: str, problem: Exception) -> None:
    """Release the claim of a send that raised, the mark taken off: the mail server did not
    take the mail. The sweep tries again."""
    Notification.objects.filter(pk=pk, claimed_by=mine, sent_at__isnull=True).update(
        claimed_at=None, maybe_sent=False,
        last_error=f"{type(problem).__name__}: {problem}"[:2000])


def settle(row: Notification, now, why: str | None) -> Notification:
    """Stamp a row settled without a mail (not saved). One that may have gone out already
    is not skipped: it keeps the Message-ID it went out with and says why it is unknown."""
    row.sent_at, row.skipped, row.last_error, row.message_id = now, True, why or "", ""
    if row.maybe_sent:
        row.skipped, row.message_id = False, mail.message_id(row)
        row.last_error = ("sent or unknown: it may have been sent by a worker that died "
                          "or lost its claim before recording it; not sent again"
                          + (f": {why}" if why else ""))
    return row


def send_many(pks) -> int:
    """Send the rows as send_one does each (claimed, given up, skipped, sent, stamped),
    with a few queries for the batch instead of some fifteen a mail, and over one
    connection to the mail server; how many were sent."""
    pks = list(pks)
    if not pks:
        return 0
    now, mine = timezone.now(), claim_id()
    # Digest rows wait for the digest; rows someone else holds are theirs.
    Notification.objects.filter(
        Q(claimed_at__isnull=True) | Q(claimed_at__lt=now - lease()),
        pk__in=pks, sent_at__isnull=True, digest=False,
    ).update(**claim_columns(now, mine))
    rows = list(Notification.objects.filter(pk__in=pks, claimed_by=mine, sent_at__isnull=True)
                .select_related("user", "game").order_by("pk"))
    if not rows:
        return 0
    try:
        done, sendable = _settle_without_sending(rows)
        for held in (presence.waiting(sendable), ending.waiting_for_results(sendable)):
            if held:
                hold(held, mine)
                sendable = [row for row in sendable if row.pk not in held]
        push.queue(sendable)
        batch = mail.Batch(sendable)
    except Exception:
        Notification.objects.filter(pk__in=[row.pk for row in rows], claimed_by=mine,
                                    sent_at__isnull=True).update(claimed_at=None)
        raise
    connection = get_connection()
    try:
        for row in sendable:
            outcome = _render_and_send(row, mine, connection, batch)
            if outcome is None:
                connection.close()  # perhaps broken: the next send opens a new one
            elif outcome is not LOST:
                done.append(outcome)
    finally:
        connection.close()
    Notification.objects.bulk_update(
        done, ["sent_at", "skipped", "last_error", "message_id", "maybe_sent"],
        batch_size=500)
    return sum(1 for row in done if row.message_id and not row.maybe_sent)


# _render_and_send's answer for a row another worker took over before it went out.
LOST = object()


def hold(held: dict, mine: str) -> None:
    """Put back rows that must wait (their reader is on the game's page: presence.waiting;
    an end mail for its ratings: ending.waiting_for_results): unclaimed, the attempt not
    counted (a long visit must not use up the tries), and asked for again at the time
    given. The outbox sweep finds them too, should that task be lost."""
    Notification.objects.filter(pk__in=list(held), claimed_by=mine).update(
        claimed_at=None, claimed_by="", attempts=F("attempts") - 1)
    when = max(held.values())
    countdown = max(1.0, (when - timezone.now()).total_seconds() + 1)
    try:
        current_app.send_task("notifications.tasks.deliver_many", (sorted(held),),
                              countdown=countdown, retry=False)
    except Exception:  # noqa: BLE001 - any broker failure: the outbox sweep catches up
        log.info("could not queue the held mails %s; the outbox sweep will", sorted(held))


def _settle_without_sending(rows) -> tuple[list, list]:
    """Split claimed rows into those settled without a mail (given up, or no longer worth
    sending: stamped but not yet saved) and those to send."""
    now = timezone.now()
    newest_turn = {}
    turns = [row for row in rows if row.kind == Notification.TURN and row.game_id]
    if turns:
        for user_id, game_id, seq in Notification.objects.filter(
                kind=Notification.TURN, user_id__in={r.user_id for r in turns},
                game_id__in={r.game_id for r in turns}).values_list(
                "user_id", "game_id", "event_seq"):
            key = (user_id, game_id)
            newest_turn[key] = max(seq or 0, newest_turn.get(key, 0))
    done, sendable = [], []
    for row in rows:
        why = None
        if row.attempts > settings.CONQUEST_MAIL_MAX_ATTEMPTS:
            why = row.last_error  # given up: the last error says why
        elif stale_reminder(row):
            why = "the decision was made meanwhile"
        else:
            why = obsolete_turn_mail(row, newest_turn.get((row.user_id, row.game_id)))
        if why is None and not row.maybe_sent:
            sendable.append(row)
            continue
        # (A row marked maybe_sent is settled whether or not it is still worth sending.)
        done.append(settle(row, now, why))
    return done, sendable


def _render_and_send(row, mine, connection, batch):
    """Render and send one claimed row: the row stamped (not yet saved); LOST if another
    worker took it over meanwhile (nothing sent, nothing to stamp); None if it failed (its
    claim is released and the error recorded, for the sweep to try again)."""
    try:
        message = mail.render(row, batch)
        if message is not None:
            if not begin_send(row.pk, mine):
                return LOST
            message.connection = connection
            message.send()
    except Exception as problem:  # noqa: BLE001 - keep the row for the sweep, say why
        log.exception("notification %s failed", row.pk)
        send_failed(row.pk, mine, problem)
        return None
    if message is None:  # the recipient wants no such mail
        return settle(row, timezone.now(), row.last_error)
    row.sent_at, row.skipped, row.maybe_sent = timezone.now(), False, False
    row.message_id = message.extra_headers.get("Message-ID", "")
    return row


def send_one(pk: int, connection=None) -> str:
    """Send notification `pk` unless it is sent, claimed by someone else, or a digest row
    (over `connection` if given, else one of its own)."""
    if Notification.objects.filter(pk=pk, digest=True).exists():
        return "waits for the digest"
    mine = claim(pk)
    if mine is None:
        return "another worker got there first"
    notification = Notification.objects.select_related("user", "game").get(pk=pk)
    if notification.attempts > settings.CONQUEST_MAIL_MAX_ATTEMPTS:
        # A mail that keeps failing (a bad address, a broken template) stops being retried;
        # its last_error says why, for an operator to see in the admin.
        _save_settled(settle(notification, timezone.now(), notification.last_error))
        return "sent or unknown" if notification.maybe_sent else "gave up"
    why = stale_reminder(notification) and "the decision was made meanwhile" or (
        obsolete_turn_mail(notification))
    if why or notification.maybe_sent:
        _save_settled(settle(notification, timezone.now(), why))
        return "sent or unknown" if notification.maybe_sent else "skipped"
    held = presence.waiting([notification])
    if held:
        hold(held, mine)
        return "held: the player is on the game's page"
    held = ending.waiting_for_results([notification])
    if held:
        hold(held, mine)
        return "held: the game's ratings are not recorded yet"
    push.queue([notification])
    try:
        message = mail.render(notification)
        if message is not None:
            if not begin_send(pk, mine):
                return "another worker got there first"
            message.connection = connection
            message.send()
    except Exception as problem:  # noqa: BLE001 - keep the row for the sweep, say why
        log.exception("notification %s failed", pk)
        send_failed(pk, mine, problem)
        return "failed"
    if message is None:  # the recipient wants no such mail
        _save_settled(settle(notification, timezone.now(), notification.last_error))
        return "sent or unknown" if notification.maybe_sent else "skipped"
    Notification.objects.filter(pk=pk).update(
        sent_at=timezone.now(), skipped=False, maybe_sent=False,
        message_id=message.extra_headers.get("Message-ID", ""),
    )
    return "sent"


def _save_settled(row: Notification) -> None:
    Notification.objects.filter(pk=row.pk).update(
        sent_at=row.sent_at, skipped=row.skipped, last_error=row.last_error,
        message_id=row.message_id)


def stale_reminder(notification: Notification) -> bool:
    """A reminder for a deadline that has since moved on (the player moved, a moderator
    acted): it would only confuse."""
    if notification.kind != Notification.REMINDER or notification.game is None:
        return False
    deadline = notification.game.deadline
    return deadline is None or notification.payload.get("deadline", deadline.isoformat()) != (
        deadline.isoformat())


def obsolete_turn_mail(notification: Notification, newest_seq=None) -> str | None:
    """Why a "your move" mail is no longer worth sending when its turn to go out comes
    (a fast game moves on before a backlog of mail drains), or None while it is current.
    `newest_seq`: the newest event_seq of the recipient's turn mails in that game, if the
    caller has read it. An invitation's mail is not worth sending once it was answered or
    withdrawn, or its game started. Any other mail about a game is not worth sending once
    its reader saw it on the site (notifications.presence.seen_on_the_site)."""
    game = notification.game
    if notification.kind == Notification.INVITATION:
        return obsolete_invitation(notification) or (
            "its reader saw it on the site" if presence.seen_on_the_site(notification) else None)
    if presence.seen_on_the_site(notification):
        return "its reader saw it on the site"
    if notification.kind != Notification.TURN or game is None:
        return None
    if game.is_over:
        return "the game ended before it went out"
    if newest_seq is not None:
        newer = newest_seq > (notification.event_seq or 0)
    else:
        newer = Notification.objects.filter(
            user_id=notification.user_id, game=game, kind=Notification.TURN,
            event_seq__gt=notification.event_seq or 0).exists()
    if newer:
        return "a newer turn mail replaces it"
    seat = notification.payload.get("seat")
    if (game.current_seat is not None and seat is not None and game.current_seat != seat
            and game.version > (notification.event_seq or 0)):
        return "the turn passed before it went out"
    return None


def obsolete_invitation(notification: Notification) -> str | None:
    invitation = Invitation.objects.filter(
        pk=(notification.payload or {}).get("invitation")).select_related("game").first()
    if invitation is None or invitation.status != Invitation.PENDING:
        return "the invitation was answered or withdrawn before it went out"
    if invitation.game.status != Game.OPEN:
        return "the game started before the invitation went out"
    return None


def unsent(limit: int = 500) -> list[int]:
    """Rows the fast path missed: unclaimed for a while, or claimed by a worker that died."""
    now = timezone.now()
    grace = timedelta(seconds=settings.CONQUEST_OUTBOX_GRACE_SECONDS)
    return list(
        Notification.objects.filter(sent_at__isnull=True, digest=False)
        .filter(Q(claimed_at__isnull=True, created_at__lt=now - grace)
                | Q(claimed_at__lt=now - lease()))
        .order_by("created_at", "pk").values_list("pk", flat=True)[:limit]
    )


def unsent_reminders() -> list[int]:
    return list(
        Notification.objects.filter(
            kind=Notification.REMINDER, sent_at__isnull=True, claimed_at__isnull=True
        ).values_list("pk", flat=True)[:500]
    )
