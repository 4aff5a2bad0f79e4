"""Calling an async stream view from a test: on a thread and event loop of its own, since a
browser test of the same process may leave an event loop running in the main thread; the
loop's hub closes its database connections after (the test database is dropped at the
end, which an open connection prevents)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from live import hub


def answer_of(view, request, *args):
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, _answer(view, request, *args)).result()


async def _answer(view, request, *args):
    try:
        return await view(request, *args)
    finally:
        await asyncio.get_running_loop().run_in_executor(None, hub.hub().let_go)
