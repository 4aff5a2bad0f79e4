"""Celery tasks: they take ids, are idempotent, and are acknowledged late."""

from __future__ import annotations

from celery import shared_task

from notifications import deadlines, delivery


@shared_task(acks_late=True, ignore_result=True)
def deliver(notification_id: int) -> str:
    return delivery.send_one(notification_id)


@shared_task(acks_late=True, ignore_result=True)
def sweep_outbox() -> int:
    """Send what the fast path missed (the broker was down, a worker died mid-send)."""
    sent = 0
    for pk in delivery.unsent():
        sent += delivery.send_one(pk) == "sent"
    return sent


@shared_task(acks_late=True, ignore_result=True)
def sweep_deadlines() -> dict:
    return deadlines.sweep_deadlines()


@shared_task(acks_late=True, ignore_result=True)
def sweep_reminders() -> int:
    written = deadlines.sweep_reminders()
    for pk in delivery.unsent_reminders():
        delivery.send_one(pk)
    return written


@shared_task(acks_late=True, ignore_result=True)
def send_digests() -> int:
    sent = 0
    for user_id in deadlines.digest_users_due():
        digest = deadlines.write_digest(user_id)
        if digest is not None:
            sent += delivery.send_one(digest.pk) == "sent"
    return sent
