"""People of the web tests are users who can sign in with a password (tests/people.py: alice
creates and plays, bob is her opponent, charlie only watches), and their browsers."""

from __future__ import annotations

import pytest

from tests import people
from tests.web.map_support import install


@pytest.fixture
def person(db):
    return people.with_password


@pytest.fixture
def as_alice(alice):
    return people.client_for(alice)


@pytest.fixture
def as_bob(bob):
    return people.client_for(bob)


@pytest.fixture
def as_charlie(charlie):
    return people.client_for(charlie)


@pytest.fixture
def islands(monkeypatch):
    """A small test map offered beside the shipped ones (tests/web/map_support.py)."""
    return install(monkeypatch)
