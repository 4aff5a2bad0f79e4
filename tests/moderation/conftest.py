"""People of the moderation tests besides alice, bob and charlie (tests/conftest.py: alice
and bob play, charlie plays nothing, maud moderates): the game they play."""

from __future__ import annotations

import pytest

from tests.moderation.support import started_game


@pytest.fixture
def game(alice, bob):
    """A running two-player game (random setup: alice or bob is reinforcing)."""
    return started_game([alice, bob])
