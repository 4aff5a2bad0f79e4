"""Counting wrong passwords: django-axes' handler, which here also locks out a client address
that tries many accounts, and the password a signed-in player types again to change it or
the email address, counted as a sign-in."""

from __future__ import annotations

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import authenticate
from django.db.models import Sum


def failures(request, **which) -> int:
    """Failures axes counted within the cool-off time, of the rows matching `which`."""
    since = get_cool_off_threshold(request)
    counted = AccessAttempt.objects.filter(attempt_time__gte=since, **which).aggregate(
        total=Sum("failures_since_start"))["total"]
    return counted or 0


class AddressLockingHandler(AxesDatabaseHandler):
    """axes locks an account for one address (AXES_LOCKOUT_PARAMETERS); this also locks an
    address, whatever usernames it tries, after CONQUEST_SIGNIN_FAILURES_PER_ADDRESS failures
    within the cool-off time (one password sprayed over many accounts). Not a lockout
    parameter of axes' own: those share one limit, and a success clears every failure of
    each (AXES_RESET_ON_SUCCESS), so signing in to one's own account would wipe the count of
    a spray."""

    def is_locked(self, request, credentials=None) -> bool:
        return super().is_locked(request, credentials) or self.address_locked(request)

    def user_login_failed(self, sender, credentials: dict, request=None, **kwargs):
        super().user_login_failed(sender, credentials, request=request, **kwargs)
        if request is not None and not request.axes_locked_out \
                and self.address_locked(request):
            request.axes_locked_out = True
            request.axes_credentials = credentials

    @staticmethod
    def address_locked(request) -> bool:
        return failures(request, ip_address=request.axes_ip_address) \
            >= settings.CONQUEST_SIGNIN_FAILURES_PER_ADDRESS


class Locked(Exception):
    """Too many wrong passwords: the password is not even checked."""


def password_is_right(request, user, password: str) -> bool:
    """Whether `password` is the signed-in `user`'s, checked through authenticate() so that
    django-axes counts a wrong one as a sign-in failure of the account from this address.
    Raises Locked, and leaves axes' middleware to answer with its lockout page (429), once
    axes locks the account for this address or the address, or the account has failed
    AXES_FAILURE_LIMIT times within the cool-off from anywhere: whoever holds a stolen
    session may change addresses between guesses."""
    credentials = {"username": user.get_username()}
    AxesProxyHandler.update_request(request)
    if _account_locked(request, credentials):
        raise Locked
    found = authenticate(request, username=credentials["username"], password=password)
    if getattr(request, "axes_locked_out", False):
        raise Locked
    if found is None or found.pk != user.pk:
        if _account_locked(request, credentials):
            raise Locked
        return False
    if settings.AXES_RESET_ON_SUCCESS:
        # As a sign-in does: the failures of the account from this address are forgiven.
        AxesProxyHandler.get_implementation().reset_user_attempts(request, credentials)
    return True


def _account_locked(request, credentials: dict) -> bool:
    if failures(request, username=credentials["username"]) \
            < get_failure_limit(request, credentials):
        return False
    request.axes_locked_out = True
    request.axes_credentials = credentials
    return True
