"""Named players for the web tests: alice creates and plays, bob is her opponent, charlie
only watches."""

from __future__ import annotations

import pytest

from tests.web.support import client_for, user


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
def as_alice(alice):
    return client_for(alice)


@pytest.fixture
def as_bob(bob):
    return client_for(bob)


@pytest.fixture
def as_charlie(charlie):
    return client_for(charlie)


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Hashing real passwords costs a quarter of a second each."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
