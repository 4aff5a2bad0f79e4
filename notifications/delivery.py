"""Sending outbox rows: claim with a conditional update, send, stamp sent_at.

A claim is a lease: a worker that dies mid-send leaves a claim that expires, and the
outbox sweep sends the row again. Two workers never both hold a row.
"""

from __future__ import annotations

import logging
import os
import socket
from datetime import timedelta

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from notifications import mail
from notifications.models import Notification

log = logging.getLogger(__name__)
WORKER = f"{socket.gethostname()}:{os.getpid()}"


def lease() -> timedelta:
    return timedelta(seconds=settings.CONQUEST_MAIL_LEASE_SECONDS)


def claim(pk: int) -> bool:
    now = timezone.now()
    claimed = Notification.objects.filter(
        Q(claimed_at__isnull=True) | Q(claimed_at__lt=now - lease()),
        pk=pk, sent_at__isnull=True,
    ).update(claimed_at=now, claimed_by=WORKER, attempts=F("attempts") + 1)
    return claimed == 1


def send_one(pk: int) -> str:
    """Send notification `pk` unless it is sent, claimed by someone else, or a digest row."""
    if Notification.objects.filter(pk=pk, digest=True).exists():
        return "waits for the digest"
    if not claim(pk):
        return "another worker got there first"
    notification = Notification.objects.select_related("user", "game").get(pk=pk)
    if notification.attempts > settings.CONQUEST_MAIL_MAX_ATTEMPTS:
        # A mail that keeps failing (a bad address, a broken template) stops being retried;
        # its last_error says why, for an operator to see in the admin.
        Notification.objects.filter(pk=pk).update(sent_at=timezone.now(), skipped=True)
        return "gave up"
    if stale_reminder(notification):
        Notification.objects.filter(pk=pk).update(
            sent_at=timezone.now(), skipped=True, last_error="the decision was made meanwhile")
        return "skipped"
    try:
        message = mail.render(notification)
        if message is not None:
            message.send()
    except Exception as problem:  # noqa: BLE001 - keep the row for the sweep, say why
        log.exception("notification %s failed", pk)
        Notification.objects.filter(pk=pk, claimed_by=WORKER).update(
            claimed_at=None, last_error=f"{type(problem).__name__}: {problem}"[:2000]
        )
        return "failed"
    Notification.objects.filter(pk=pk).update(
        sent_at=timezone.now(), skipped=message is None,
        message_id=message.extra_headers.get("Message-ID", "") if message else "",
    )
    return "skipped" if message is None else "sent"


def stale_reminder(notification: Notification) -> bool:
    """A reminder for a deadline that has since moved on (the player moved, a moderator
    acted): it would only confuse."""
    if notification.kind != Notification.REMINDER or notification.game is None:
        return False
    deadline = notification.game.deadline
    return deadline is None or notification.payload.get("deadline", deadline.isoformat()) != (
        deadline.isoformat())


def unsent(limit: int = 500) -> list[int]:
    """Rows the fast path missed: unclaimed for a while, or claimed by a worker that died."""
    now = timezone.now()
    grace = timedelta(seconds=settings.CONQUEST_OUTBOX_GRACE_SECONDS)
    return list(
        Notification.objects.filter(sent_at__isnull=True, digest=False)
        .filter(Q(claimed_at__isnull=True, created_at__lt=now - grace)
                | Q(claimed_at__lt=now - lease()))
        .order_by("created_at").values_list("pk", flat=True)[:limit]
    )


def unsent_reminders() -> list[int]:
    return list(
        Notification.objects.filter(
            kind=Notification.REMINDER, sent_at__isnull=True, claimed_at__isnull=True
        ).values_list("pk", flat=True)[:500]
    )
