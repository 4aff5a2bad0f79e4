"""Fixtures of the notification tests (alice, bob and charlie: tests/conftest.py): `clock`
sets what timezone.now() answers."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.utils import timezone

from tests.notifications.support import Clock


@pytest.fixture
def clock(monkeypatch):
    """A settable now(), starting on Wednesday 2026-06-10 at 10:00 UTC."""
    fake = Clock(datetime(2026, 6, 10, 10, 0, tzinfo=UTC))
    monkeypatch.setattr(timezone, "now", fake)
    return fake
