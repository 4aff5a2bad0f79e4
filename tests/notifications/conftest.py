"""Fixtures of the notification tests (alice, bob and charlie: tests/conftest.py): `clock`
sets what timezone.now() answers; `redis`, a real Redis server of the test's own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.utils import timezone

from tests.notifications.real_parts import RedisServer
from tests.notifications.support import Clock


@pytest.fixture
def clock(monkeypatch):
    """A settable now(), starting on Wednesday 2026-06-10 at 10:00 UTC."""
    fake = Clock(datetime(2026, 6, 10, 10, 0, tzinfo=UTC))
    monkeypatch.setattr(timezone, "now", fake)
    return fake


@pytest.fixture
def redis():
    """A real Redis server started for the test (tests/notifications/real_parts.py)."""
    server = RedisServer()
    server.start()
    yield server
    server.stop()
