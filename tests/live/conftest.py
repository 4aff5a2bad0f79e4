"""Fixtures of the live tests: `stream_server`, the stream server most of them share, and
`serve_streams`, a server of the test's own settings."""

from __future__ import annotations

import pytest

from tests.live.support import StreamServer


@pytest.fixture
def serve_streams(contexts):
    """Starts a StreamServer (settings as keywords) for the test. At the end the test's
    browser contexts close first, so that no page of theirs still asks a server whose
    database is going away, then the server stops."""
    started = []

    def serve(**extra_env) -> StreamServer:
        started.append(StreamServer(**extra_env))
        return started[-1].start()

    yield serve
    for context in contexts:
        context.close()
    contexts.clear()
    for server in started:
        server.stop()


@pytest.fixture(scope="session")
def stream_server(django_db_setup):
    """One server of the default settings for every test of a test process that needs one
    (a start costs seconds of CPU): each test signs up users and makes games of its own,
    so none sees another's. A test that changes the server's settings, or stops it, starts
    a StreamServer of its own."""
    running = StreamServer().start()
    yield running
    running.stop()
