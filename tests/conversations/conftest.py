"""People of the private message tests: alice and bob (tests/conftest.py) write to each
other, charlie is a third player; maud is a moderator. `veteran` makes someone who has
finished a game, which starting a conversation needs."""

from __future__ import annotations

import pytest

from tests.conversations.support import finish_a_game


@pytest.fixture
def veteran(db):
    return finish_a_game
