"""A computer player's move never waits behind the results and tournament steps a burst of
finished games queues (issue 54). On the embedded broker a worker takes one message of its
queues in turn, about one a second: a move queued behind 20 games' results and tournament
steps on `celery` came 71 s after it was owed. With the clock's worker as scripts/run.sh
starts it, and no bots sweep to catch up, the move is played while that backlog waits."""

from __future__ import annotations

import pytest

from games.models import Event
from ratings.tasks import record_results
from tests.notifications.real_parts import Celery, publishing_into, wait_until
from tests.ports import free_port
from tests.ratings.support import hand_to_the_bot, players, started_game

pytestmark = pytest.mark.django_db(transaction=True)

# Cheap messages on `celery` ahead of the move: at a message a second or two, more than the
# move could wait for behind them.
BACKLOG = 30


def test_a_computer_players_move_does_not_wait_behind_the_results_of_finished_games(
        monkeypatch):
    carol, = players("carol")
    celery = Celery("filesystem://", free_port())
    broker = celery.logs / "var" / "broker"
    for folder in ("queue", "control"):
        (broker / folder).mkdir(parents=True, exist_ok=True)
    try:
        with publishing_into(broker, monkeypatch):
            for _ in range(BACKLOG):  # what 15 finished games queue (results, tournaments)
                record_results.apply_async()
            versus_bot = started_game([carol], bots=["easy"])
            hand_to_the_bot(versus_bot, carol)  # its move queued as the human's commits
        # The clock's worker as scripts/run.sh starts it; no beat, so no bots sweep.
        celery.start_worker("--queues", "deadlines,celery", "--concurrency", "1")

        def moved():
            return Event.objects.filter(game=versus_bot, actor=1).exists()

        assert wait_until(moved, 120, every=0.2), celery.log("worker")
        taken = [line for line in celery.log("worker").splitlines()
                 if "ratings.tasks.record_results[" in line and " received" in line]
        # The move was played while most of the backlog still waited.
        assert len(taken) < BACKLOG // 2, celery.log("worker")
    finally:
        celery.stop()
