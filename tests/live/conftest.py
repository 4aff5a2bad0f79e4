"""The stream server most live tests share."""

from __future__ import annotations

import pytest

from tests.live.support import StreamServer


@pytest.fixture(scope="session")
def stream_server(django_db_setup):
    """One server of the default settings for every test of a test process that needs one
    (a start costs seconds of CPU): each test signs up users and makes games of its own,
    so none sees another's. A test that changes the server's settings, or stops it, starts
    a StreamServer of its own."""
    running = StreamServer().start()
    yield running
    running.stop()
