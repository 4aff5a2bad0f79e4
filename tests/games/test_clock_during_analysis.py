"""The clock never waits for the analysis: with the workers `make run` starts (scripts/run.sh,
on the test database and the broker deployed beside it), a burst of just-finished games
being analysed does not delay a 10-second deadline nor a computer player's move, /readyz
stays ready, and each game's analysis runs once."""

from __future__ import annotations

import time

import pytest
from django.db import connection

from games.models import Event
from lib import publish
from ratings.models import GameAnalysis
from tests.notifications.real_parts import (
    RedisServer,
    database_url,
    publishing_into,
    publishing_to,
    wait_until,
)
from tests.ratings.support import finished_game, hand_to_the_bot, players, started_game
from tests.test_run_supervision import Served

pytestmark = pytest.mark.django_db(transaction=True)

BURST = 6
# Seconds past its due time a deadline and a bot's move may take, with the sweeps every
# second: the clock's own worker is idle, whatever the analysis worker is doing.
SLACK = 8
SWEEP = 2


@pytest.fixture
def broker_url():
    """Redis beside PostgreSQL (a server of this test's own), the filesystem broker in the
    service's var/ beside SQLite: as each is deployed."""
    if connection.vendor != "postgresql":
        yield "filesystem://"
        return
    redis = RedisServer()
    redis.start()
    try:
        yield redis.url
    finally:
        redis.stop()


def test_a_burst_of_finished_games_delays_neither_a_deadline_nor_a_computer_player(
        tmp_path, broker_url, monkeypatch):
    def into_the_served_broker():
        """What this process queues (the burst's results, tournament steps and analysis;
        the computer player's move) goes to the broker the served workers take from."""
        if broker_url != "filesystem://":
            return publishing_to(broker_url)
        for folder in ("queue", "control"):
            (tmp_path / "var" / "broker" / folder).mkdir(parents=True, exist_ok=True)
        return publishing_into(tmp_path / "var" / "broker", monkeypatch)

    people = players(*(f"p{i}" for i in range(2 * BURST)))
    with into_the_served_broker():
        burst = [finished_game(people[i:i + 2], turns=1, seed=i)
                 for i in range(0, 2 * BURST, 2)]
        publish.wait_for_publishing()  # (publishing_to leaves without waiting)
    served = Served(tmp_path, None, DATABASE_URL=database_url(), CELERY_BROKER_URL=broker_url,
                    # The bots sweep at its default (30 s): the move is the one the
                    # human's commit queues, not the sweep's.
                    CONQUEST_ANALYSIS_SWEEP_SECONDS="1",
                    CONQUEST_RESULTS_SWEEP_SECONDS="1",
                    # (A sweep not started within its interval is dropped; the embedded
                    # broker is polled every second.)
                    CONQUEST_DEADLINE_SWEEP_SECONDS=str(SWEEP))
    try:
        assert wait_until(lambda: served.call("GET", "/healthz")[0] == 200, 90), served.log()
        # The burst's analysis is under way before the clock is asked for anything.
        assert wait_until(lambda: GameAnalysis.objects.filter(
            state=GameAnalysis.RUNNING).exists(), 60, every=0.5), served.log()
        with into_the_served_broker():
            alice, bob, carol = players("alice", "bob", "carol")
            clocked = started_game([alice, bob], deadline_seconds=10)
            versus_bot = started_game([carol], bots=["easy"])
            hand_to_the_bot(versus_bot, carol)
            asked_at = time.monotonic()
            publish.wait_for_publishing()

        def timed_out():
            return Event.objects.filter(game=clocked, type="turn_timed_out").exists()

        def bot_moved():
            return Event.objects.filter(game=versus_bot, actor=1).exists()

        assert wait_until(bot_moved, SLACK, every=0.2), served.log()
        bot_after = time.monotonic() - asked_at
        assert wait_until(timed_out, 10 + SWEEP + SLACK, every=0.2), served.log()
        analysed_by_then = GameAnalysis.objects.filter(done_at__isnull=False).count()
        assert served.call("GET", "/readyz")[0] == 200, served.log()

        # It was a burst: the analysis worker was still at it when the clock had moved on.
        assert analysed_by_then < BURST, (analysed_by_then, bot_after)
        # Each game's analysis is worked out once: every chunk saved by the one task that
        # held its row (a copy of a message finds another token and does nothing).
        assert wait_until(lambda: GameAnalysis.objects.filter(
            done_at__isnull=False).exists(), 240, every=1), served.log()
        for row in GameAnalysis.objects.filter(game__in=burst):
            assert len({index for index, _, _ in row.estimates}) == len(row.estimates)
            assert row.done_at is None or row.chances
    finally:
        served.stop()
