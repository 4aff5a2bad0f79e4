"""Named people of the moderation tests: alice and bob play, charlie is a plain user who
plays nothing, maud is a moderator (made with make_moderator)."""

from __future__ import annotations

import pytest

from tests.moderation.support import moderator, started_game, user


@pytest.fixture
def alice(db):
    return user("alice")


@pytest.fixture
def bob(db):
    return user("bob")


@pytest.fixture
def charlie(db):
    return user("charlie")


@pytest.fixture
def maud(db):
    return moderator("maud")


@pytest.fixture
def game(alice, bob):
    """A running two-player game (random setup: alice or bob is reinforcing)."""
    return started_game([alice, bob])
