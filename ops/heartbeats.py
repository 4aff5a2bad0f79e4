"""Heartbeats of the periodic jobs: a job that completes says so; readiness asks how long ago."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from ops.models import Heartbeat

DEADLINE_SWEEP = "deadline_sweep"


def beat(name: str) -> None:
    """Record that job `name` completed now."""
    now = timezone.now()
    if not Heartbeat.objects.filter(name=name).update(at=now):
        # The first beat ever; two workers may race to write it, and either is right.
        Heartbeat.objects.bulk_create([Heartbeat(name=name, at=now)], ignore_conflicts=True)


def last(name: str) -> datetime | None:
    """When job `name` last completed, or None if it never has."""
    return Heartbeat.objects.filter(name=name).values_list("at", flat=True).first()
