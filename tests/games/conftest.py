"""People of the API tests are API clients that signed up (tests/people.py: alice creates
and plays, bob is her opponent, charlie may see nothing)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests import people


@pytest.fixture
def person(db):
    return people.signed_up


@pytest.fixture
def anonymous(db):
    return APIClient()
