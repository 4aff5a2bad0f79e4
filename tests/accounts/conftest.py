"""People of the accounts tests sign up through the API, as in tests/games."""

from __future__ import annotations

import pytest

from tests.games.conftest import signed_up

PASSWORD = "alice-long-secret-1"


@pytest.fixture
def person(db):
    return signed_up
