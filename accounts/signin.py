"""Counting wrong passwords: django-axes' handler, which here also locks out a client address
that tries many accounts."""

from __future__ import annotations

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt
from django.conf import settings
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
