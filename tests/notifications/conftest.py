"""Fixtures of the notification tests (alice, bob and charlie: tests/conftest.py): `clock`
sets what timezone.now() answers; `game`, alice and bob's game; `redis`, a real Redis
server of the test's own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.utils import timezone

from tests.notifications.real_parts import RedisServer
from tests.notifications.support import Clock, at_first_reinforce, started


@pytest.fixture
def clock(monkeypatch):
    """A settable now(), starting on Wednesday 2026-06-10 at 10:00 UTC."""
    fake = Clock(datetime(2026, 6, 10, 10, 0, tzinfo=UTC))
    monkeypatch.setattr(timezone, "now", fake)
    return fake


@pytest.fixture
def game(alice, bob, clock):
    """alice and bob's game, started (dealt from tests/notifications/support.py's SEED) at
    the clock's time."""
    return started(alice, bob)


@pytest.fixture
def three_at_first_reinforce(alice, bob, charlie, clock):
    """alice, bob and charlie at the first turn's reinforce phase (the modules that play it
    take it as their `game`)."""
    return at_first_reinforce(alice, bob, charlie, placement_batch=50)


@pytest.fixture
def redis():
    """A real Redis server started for the test (tests/notifications/real_parts.py)."""
    server = RedisServer()
    server.start()
    yield server
    server.stop()
