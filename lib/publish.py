"""Publishing Celery tasks after commit, from one thread of the process's own: the request
(or task) that committed never waits on the broker, and after a failure publishing to that
broker pauses for a while (the sweeps send what waits meanwhile)."""

from __future__ import annotations

import contextvars
import logging
import os
import time
from concurrent.futures import Future, ThreadPoolExecutor

from django.db import transaction

log = logging.getLogger(__name__)

# After a failure, publishing to that broker pauses this long: the sweep sends what waits
# meanwhile.
PAUSE_AFTER_FAILURE = 30.0
_paused: dict[str, float] = {}
_pool: tuple[int, ThreadPoolExecutor] | None = None


def resume_publishing() -> None:
    """Publish to every broker again at once, not PAUSE_AFTER_FAILURE after its last failure
    (an operator who brought the broker back, a test that pointed the app elsewhere)."""
    _paused.clear()


def on_commit(task, args: tuple = (), countdown: float = 0) -> None:
    """When the caller's transaction commits (at once outside one): publish `task` (a Celery
    task object) with `args`, from the publishing thread."""
    args = tuple(args)
    transaction.on_commit(lambda: publish_later(task, args, countdown))


def publish_later(task, args: tuple = (), countdown: float = 0) -> None:
    """Send `task` with `args` to the workers from the publishing thread, never blocking the
    caller (the sweeps catch up on what a dead broker loses)."""
    in_publishing_thread(_publish_one, task, tuple(args), countdown)


def _publish_one(task, args: tuple, countdown: float) -> None:
    if not publish_now(task, args, countdown):
        log.warning("broker unavailable: %s%r left to its sweep", task.name, args)


def paused(task) -> bool:
    """Whether publishing to `task`'s broker is paused after a recent failure."""
    return time.monotonic() < _paused.get(str(task.app.conf.broker_url), 0.0)


def publish_now(task, args: tuple, countdown: float = 0) -> bool:
    """Publish `task` now, in the calling thread (the publishing thread's work); False if
    its broker failed now or lately, and nothing was sent."""
    broker = str(task.app.conf.broker_url)
    if time.monotonic() < _paused.get(broker, 0.0):
        return False
    try:
        if countdown:
            task.apply_async(args, countdown=countdown, retry=False)
        else:
            task.apply_async(args, retry=False)
    except Exception:  # noqa: BLE001 - any broker failure: the sweep will catch up
        _paused[broker] = time.monotonic() + PAUSE_AFTER_FAILURE
        return False
    _paused.pop(broker, None)
    return True


def in_publishing_thread(work, *args) -> Future:
    """Run `work(*args)` in the publishing thread, after whatever was handed to it before,
    in the caller's context (a task published there carries the id of the request that
    queued it: ops.request_id)."""
    return _publisher().submit(contextvars.copy_context().run, work, *args)


def wait_for_publishing(timeout: float = 10.0) -> None:
    """Until what was handed to the publishing thread so far has been published (tests,
    and a process about to exit)."""
    _publisher().submit(lambda: None).result(timeout)


def _publisher() -> ThreadPoolExecutor:
    global _pool
    if _pool is None or _pool[0] != os.getpid():  # a forked child starts its own thread
        _pool = (os.getpid(), ThreadPoolExecutor(1, thread_name_prefix="conquest-publish"))
    return _pool[1]
