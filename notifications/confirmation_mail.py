"""The confirmation mail itself (notifications.confirmation queues it): the link that
confirms an address, or the word to the owner of an address another account gave."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import email as addresses
from accounts.models import Preferences
from notifications.models import Notification


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

