"""Celery tasks: they take ids, are idempotent, and are acknowledged late.

The deadline sweep runs on a queue of its own (`deadlines`), never behind mail
(config/settings.py routes the rest of these to `mail`).
"""

from __future__ import annotations

import logging

from celery import shared_task

from notifications import delivery, push, reminders

log = logging.getLogger(__name__)


@shared_task(acks_late=True, ignore_result=True)
def deliver(notification_id: int) -> str:
    return delivery.send_one(notification_id)


@shared_task(acks_late=True, ignore_result=True)
def deliver_many(notification_ids: list[int]) -> int:
    """Send a batch of rows over one connection to the mail server."""
    return delivery.send_many(notification_ids)


@shared_task(acks_late=True, ignore_result=True)
def sweep_outbox() -> int:
    """Send what the fast path missed (the broker was down, a worker died mid-send)."""
    return delivery.send_many(delivery.unsent())


@shared_task(acks_late=True, ignore_result=True)
def sweep_reminders() -> int:
    written = reminders.sweep_reminders()
    delivery.send_many(delivery.unsent_reminders())
    return written


@shared_task(acks_late=True, ignore_result=True)
def send_digests() -> int:
    sent = 0
    for user_id in reminders.digest_users_due():
        digest = reminders.write_digest(user_id)
        if digest is not None:
            sent += delivery.send_one(digest.pk) == "sent"
    return sent


# A push the push service could not take (429, 5xx, no answer) is tried again after
# PUSH_RETRY_SECONDS times 1, 2, 4, ... for at most PUSH_RETRIES more times.
PUSH_RETRIES = 5
PUSH_RETRY_SECONDS = 15


@shared_task(bind=True, acks_late=True, ignore_result=True, max_retries=PUSH_RETRIES)
def deliver_push(self, notification_id: int, only: list[int] | None = None) -> str:
    """Push one outbox row to its recipient's browsers (notifications.push); a retry
    (`only`: the browsers whose push service failed) reuses the first try's hold on it."""
    if only is None and not push.take(notification_id):
        return "pushed already"
    outcome = push.send(notification_id, only, obsolete=delivery.obsolete_turn_mail)
    if outcome.why:
        return f"not pushed: {outcome.why}"
    if outcome.retry and self.request.retries < PUSH_RETRIES:
        raise self.retry(args=(notification_id, outcome.retry),
                         countdown=PUSH_RETRY_SECONDS * 2 ** self.request.retries)
    return f"pushed to {len(outcome.sent)}, {len(outcome.gone)} gone, {len(outcome.retry)} failed"
