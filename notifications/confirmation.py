"""The mail that asks a user to confirm an address: an outbox row, sent like any other
(accounts.email makes and checks the link and announces "address_to_confirm"; this is the
reaction config/reactions.py declares for it). An address another account holds gets no
link: its owner is told that someone gave it (a sign-up, a profile's change), the mail
the address would have had otherwise, so that the one who gave it learns nothing."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts import email as addresses
from accounts.models import Preferences
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


def confirmation_mail(notification: Notification, preferences: Preferences,
                      message_id: str) -> EmailMultiAlternatives:
    """The link that confirms payload["email"], mailed to that address; or, where another
    account held it (payload["taken"]), the word to that account's owner."""
    email, taken = notification.payload["email"], notification.payload.get("taken")
    with translation.override(preferences.language):
        if taken:
            context = {"user": notification.user,
                       "signin_url": settings.SITE_URL + reverse("login"),
                       "reset_url": settings.SITE_URL + reverse("password_reset")}
            subject = _("Your address at Conquest")
        else:
            context = {"user": notification.user,
                       "confirm_url": addresses.confirm_url(notification.user, email),
                       "hours": settings.CONQUEST_CONFIRM_LINK_HOURS}
            subject = _("Confirm your address for Conquest")
        template = "mail/address_taken" if taken else "mail/confirm_email"
        text = render_to_string(f"{template}.txt", context)
        html = render_to_string(f"{template}.html", context)
    message = EmailMultiAlternatives(
        subject=subject, body=text, from_email=settings.DEFAULT_FROM_EMAIL, to=[email],
        headers={"Message-ID": message_id,
                 "X-Conquest-Notification": str(notification.pk)})
    message.attach_alternative(html, "text/html")
    return message

