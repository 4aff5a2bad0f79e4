"""The mail that asks a user to confirm an address: an outbox row, sent like any other
(accounts.email makes and checks the link; mail is this app's concern)."""

from __future__ import annotations

import hashlib

from django.db import transaction
from django.utils import timezone

from accounts.models import Account
from notifications.models import Notification
from notifications.outbox import queue_delivery


def ask_to_confirm(user, email: str) -> None:
    """Mail `email` a link that confirms it for `user` (at most one per address an hour)."""
    hour = timezone.now().strftime("%Y%m%d%H")
    address = hashlib.sha256(email.lower().encode()).hexdigest()[:16]
    notification, created = Notification.objects.get_or_create(
        user=user, key=f"confirm:{address}:{hour}",
        defaults={"kind": Notification.CONFIRM_EMAIL, "payload": {"email": email}})
    if created:
        transaction.on_commit(lambda: queue_delivery([notification.pk]))


def start_unconfirmed(user) -> None:
    """A new self-service account: unconfirmed until the mailed link is followed."""
    Account.objects.update_or_create(user=user, defaults={"email_confirmed": False})
    ask_to_confirm(user, user.email)
