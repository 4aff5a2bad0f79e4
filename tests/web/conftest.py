"""People of the web tests are users who can sign in with a password (alice creates and
plays, bob is her opponent, charlie only watches: tests/conftest.py), and their browsers."""

from __future__ import annotations

import pytest

from tests.web.map_support import install
from tests.web.support import client_for, user


@pytest.fixture
def person(db):
    return user


@pytest.fixture
def as_alice(alice):
    return client_for(alice)


@pytest.fixture
def as_bob(bob):
    return client_for(bob)


@pytest.fixture
def as_charlie(charlie):
    return client_for(charlie)


@pytest.fixture
def islands(monkeypatch):
    """A small test map offered beside the shipped ones (tests/web/map_support.py)."""
    return install(monkeypatch)
