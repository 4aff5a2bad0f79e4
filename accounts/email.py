"""Confirming email addresses: mail goes only to an address its owner confirmed.

A self-service sign-up starts unconfirmed and is mailed a link; so is the new address of a
profile's email change, which takes effect only when that link is followed. An address
another account holds is taken like any other (so that nobody learns whose it is), and
never confirmed for a second account: its owner is told instead. A link is
bound to the account's password and current address: a password change, or the change it
confirms, makes it useless."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import Account, lock_account
from lib.reactions import announce

SALT = "conquest.accounts.confirm-email"


def _bound_to(user) -> str:
    raw = f"{user.pk}:{user.password}:{(user.email or '').lower()}"
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def confirm_url(user, email: str) -> str:
    token = signing.dumps({"u": user.pk, "e": email, "s": _bound_to(user)}, salt=SALT,
                          compress=True)
    return settings.SITE_URL + reverse("email-confirm", args=[token])


def read_confirmation(token: str):
    """(user, address) of a link still valid, else None."""
    try:
        data = signing.loads(token, salt=SALT,
                             max_age=settings.CONQUEST_CONFIRM_LINK_HOURS * 3600)
        user_id, email, bound = int(data["u"]), str(data["e"]), str(data["s"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None or bound != _bound_to(user):
        return None
    return user, email


def confirmed(user) -> bool:
    """Whether mail may go to the user's address: confirmed, or set by the operator (an
    account without an Account row, see accounts.models.Account)."""
    if not user.email:
        return False
    state = Account.objects.filter(user_id=user.pk).values_list(
        "email_confirmed", flat=True).first()
    return state is None or state


class AddressTaken(Exception):
    pass


def held_by_another(user, email: str):
    """The account other than `user` whose address `email` is (in any case), a confirmed
    one first; None if there is none. Nobody is told this but the address itself: a
    sign-up or a change to a taken address is answered as any other, and the link mailed
    for it becomes a word to the address's owner (notifications.confirmation)."""
    others = get_user_model().objects.filter(email__iexact=email).exclude(pk=user.pk)
    return next((other for other in others.order_by("pk") if confirmed(other)),
                others.order_by("pk").first())


def confirm(user, email: str) -> None:
    """Make `email` the user's confirmed address (the link was followed)."""
    User = get_user_model()
    with transaction.atomic():
        lock_account(user)
        if User.objects.filter(email__iexact=email).exclude(pk=user.pk).exists():
            raise AddressTaken(email)
        if user.email != email:
            user.email = email
            user.save(update_fields=["email"])
        Account.objects.update_or_create(user=user, defaults={
            "email_confirmed": True, "email_confirmed_at": timezone.now()})


def ask_to_confirm(user, email: str) -> None:
    """Have a link that confirms `email` for `user` mailed to it (the reactions declared for
    "address_to_confirm" send it; mail is the notifications app's concern)."""
    announce("address_to_confirm", user, email)


def start_unconfirmed(user) -> None:
    """A new self-service account: unconfirmed until the mailed link is followed."""
    Account.objects.update_or_create(user=user, defaults={"email_confirmed": False})
    ask_to_confirm(user, user.email)
