"""What the operator's checks read from the database, which every machine shares."""

from __future__ import annotations

from django.db import models


class Heartbeat(models.Model):
    """When a periodic job (the deadline sweep) last completed: written by whichever worker
    ran it, read by every web process's readiness check."""

    name = models.CharField(max_length=50, primary_key=True)
    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} at {self.at:%Y-%m-%d %H:%M:%S}"


class Lease(models.Model):
    """A role that one process of the deployment holds at a time (beat, the clock that
    starts the periodic tasks), for as long as it keeps renewing it. Times are the
    database's own clock, which every machine shares."""

    name = models.CharField(max_length=50, primary_key=True)
    holder = models.CharField(max_length=200)
    expires_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} held by {self.holder} until {self.expires_at:%H:%M:%S}"
