"""The mail that asks a user to confirm an address: an outbox row, sent like any other
(accounts.email makes and checks the link and announces "address_to_confirm"; this is the
reaction config/reactions.py declares for it). An address another account holds gets no
link: its owner is told that someone gave it (a sign-up, a profile's change), the mail
the address would have had otherwise, so that the one who gave it learns nothing."""

from __future__ import annotations

import hashlib

from django.db import transaction
from django.utils import timezone

from accounts import email as addresses
from notifications.models import Notification
from notifications.outbox import queue_delivery


def mail_confirmation_link(user, email: str) -> None:
    """Mail `email` a link that confirms it for `user`, or, if another account holds it,
    a word to that account (at most one per address and recipient an hour: a flood of
    sign-ups with someone's address mails them once an hour)."""
    hour = timezone.now().strftime("%Y%m%d%H")
    address = hashlib.sha256(email.lower().encode()).hexdigest()[:16]
    owner = addresses.held_by_another(user, email)
    payload, cause = ({"email": email}, "confirm") if owner is None \
        else ({"email": email, "taken": True}, "taken")
    notification, created = Notification.objects.get_or_create(
        user=owner or user, key=f"{cause}:{address}:{hour}",
        defaults={"kind": Notification.CONFIRM_EMAIL, "payload": payload})
    if created:
        transaction.on_commit(lambda: queue_delivery([notification.pk]))
