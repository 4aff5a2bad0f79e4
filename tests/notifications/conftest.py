"""Fixtures of the notification tests: alice plays, bob is her opponent, charlie takes a
third seat or may see nothing; `clock` sets what timezone.now() answers."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.utils import timezone

from tests.notifications.support import Clock, player


@pytest.fixture
def alice(db):
    return player("alice")


@pytest.fixture
def bob(db):
    return player("bob")


@pytest.fixture
def charlie(db):
    return player("charlie")


@pytest.fixture
def clock(monkeypatch):
    """A settable now(), starting on Wednesday 2026-06-10 at 10:00 UTC."""
    fake = Clock(datetime(2026, 6, 10, 10, 0, tzinfo=UTC))
    monkeypatch.setattr(timezone, "now", fake)
    return fake
