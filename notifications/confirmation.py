"""The mail that asks a user to confirm an address: an outbox row, sent like any other
(accounts.email makes and checks the link and announces "address_to_confirm"; this is the
reaction config/reactions.py declares for it)."""

from __future__ import annotations

import hashlib

from django.db import transaction
from django.utils import timezone

from notifications.models import Notification
from notifications.outbox import queue_delivery


def mail_confirmation_link(user, email: str) -> None:
    """Mail `email` a link that confirms it for `user` (at most one per address an hour)."""
    hour = timezone.now().strftime("%Y%m%d%H")
    address = hashlib.sha256(email.lower().encode()).hexdigest()[:16]
    notification, created = Notification.objects.get_or_create(
        user=user, key=f"confirm:{address}:{hour}",
        defaults={"kind": Notification.CONFIRM_EMAIL, "payload": {"email": email}})
    if created:
        transaction.on_commit(lambda: queue_delivery([notification.pk]))

