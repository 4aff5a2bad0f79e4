"""Calling an async stream view from a test: on a thread and event loop of its own, since a
browser test of the same process may leave an event loop running in the main thread."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor


def answer_of(view, request, *args):
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, view(request, *args)).result()
