"""Leases on the database: who holds a role (beat) for now, taken over once it lapses."""

from __future__ import annotations

import os
import secrets
import socket
from datetime import timedelta

from django.db.models import Q
from django.db.models.functions import Now

from ops.models import Lease


def holder_id() -> str:
    """A new holder's id: the host, the process and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def hold(name: str, holder: str, seconds: float) -> bool:
    """Take lease `name` for `holder`, or renew it, for `seconds` from now: True while it is
    theirs, False while another holder's has not lapsed."""
    until = Now() + timedelta(seconds=seconds)
    if Lease.objects.filter(Q(holder=holder) | Q(expires_at__lte=Now()), name=name).update(
            holder=holder, expires_at=until):
        return True
    # Nobody ever held it: of two processes that race here, the first insert wins.
    Lease.objects.bulk_create([Lease(name=name, holder=holder, expires_at=until)],
                              ignore_conflicts=True)
    return Lease.objects.filter(name=name, holder=holder).exists()


def release(name: str, holder: str) -> None:
    """Let lease `name` go at once if `holder` has it (a clean stop: no wait for the next)."""
    Lease.objects.filter(name=name, holder=holder).update(expires_at=Now())


def current(name: str) -> Lease | None:
    return Lease.objects.filter(name=name).first()
