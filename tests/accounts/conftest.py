"""People of the accounts tests sign up through the API, as in tests/games (tests/people.py)."""

from __future__ import annotations

import pytest

from tests import people

PASSWORD = "alice-long-secret-1"


@pytest.fixture
def person(db):
    return people.signed_up
