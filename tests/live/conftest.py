"""Fixtures of the live tests: `serve_streams`, a real stream server for the test."""

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
