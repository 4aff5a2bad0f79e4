"""A worker that loses a pool process (what the kernel's OOM killer does) still takes the
next deadline sweep, on the embedded broker and on Redis; a worker that takes no sweep at
all makes the site not ready."""

from __future__ import annotations

import os
import signal
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Event, Game
from ops import health, heartbeats
from tests.games_in_states import new_game
from tests.notifications.real_parts import (
    Celery,
    RedisServer,
    publishing_to,
    wait_until,
)
from tests.people import signed_up
from tests.ports import free_port

pytestmark = pytest.mark.django_db(transaction=True)

SWEEP = "games.tasks.sweep_deadlines["


@pytest.fixture(params=["filesystem", "redis"])
def broker(request):
    if request.param == "filesystem":
        yield "filesystem://"
        return
    server = RedisServer()
    server.start()
    with publishing_to(server.url):
        yield server.url
    server.stop()


def sweeps_done(celery: Celery) -> int:
    return sum(1 for line in celery.log("worker").splitlines()
               if SWEEP in line and " succeeded " in line)


def timed_out(game_id: int) -> bool:
    return Event.objects.filter(game_id=game_id, type="turn_timed_out").exists()


def test_it_applies_the_next_deadline_after_the_pool_process_is_killed(broker):
    alice, bob = signed_up("alice"), signed_up("bob")
    game_id = new_game(alice, bob, placement_batch=3)
    celery = Celery(broker, free_port(), CONQUEST_DEADLINE_SWEEP_SECONDS=1)
    try:
        # As scripts/run.sh starts the deadlines worker, with nothing said about its pool.
        celery.start_worker("--queues", "deadlines,celery", "--concurrency", "1")
        celery.start_beat()
        assert wait_until(lambda: sweeps_done(celery) >= 1, 30), celery.log("worker")
        done = sweeps_done(celery)
        assert wait_until(lambda: sweeps_done(celery) > done, 10), celery.log("worker")
        # Killed while it waits for its next task, as the OOM killer would.
        lost = celery.pool_processes()
        for pid in lost:
            os.kill(pid, signal.SIGKILL)
        Game.objects.filter(pk=game_id).update(deadline=timezone.now())

        assert wait_until(lambda: timed_out(game_id), 30), celery.log("worker")
        assert heartbeats.last(heartbeats.DEADLINE_SWEEP) is not None
    finally:
        celery.stop()
    if broker.startswith("redis"):
        assert lost  # a process per task slot, which the worker replaced
    else:
        # The embedded broker's worker has no pool process to lose: its tasks run in
        # threads (config/settings.py says why).
        assert lost == []


def test_a_worker_that_takes_no_sweep_makes_the_site_not_ready(client, settings, monkeypatch):
    settings.CONQUEST_READY_SWEEP_SECONDS = 4
    monkeypatch.setattr(health, "STARTED", timezone.now() - timedelta(hours=1))
    celery = Celery("filesystem://", free_port(), CONQUEST_DEADLINE_SWEEP_SECONDS=1)
    worker = None
    try:
        celery.start_worker("--queues", "deadlines,celery", "--concurrency", "1")
        celery.start_beat()
        assert wait_until(lambda: client.get("/readyz").status_code == 200, 30), (
            client.get("/readyz").json(), celery.log("worker"))
        worker = celery.processes["worker"].pid
        os.killpg(worker, signal.SIGSTOP)  # stuck: alive, but it takes nothing

        assert wait_until(lambda: client.get("/readyz").status_code == 503, 30)
        assert client.get("/readyz").json()["checks"]["deadline_sweep"].startswith(
            "last completed")
        os.killpg(worker, signal.SIGCONT)
        assert wait_until(lambda: client.get("/readyz").status_code == 200, 30)
    finally:
        if worker is not None:
            os.killpg(worker, signal.SIGCONT)
        celery.stop()
