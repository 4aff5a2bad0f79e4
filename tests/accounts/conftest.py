"""Players for the accounts tests."""

from __future__ import annotations

import pytest

from tests.games.conftest import fast_passwords, signed_up  # noqa: F401

PASSWORD = "alice-long-secret-1"


@pytest.fixture
def alice(db):
    return signed_up("alice")
