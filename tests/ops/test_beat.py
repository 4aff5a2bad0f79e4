"""One beat per deployment: a second one stands by, sending nothing, and takes over when
the first dies; the lease they share, on the database's clock."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Event, Game
from ops import leases
from ops.beat import holder_of
from ops.models import Lease
from tests.games_in_states import new_game
from tests.notifications.real_parts import Celery, wait_until
from tests.people import signed_up
from tests.ports import free_port

SENT = "Sending due task deadlines"


def test_a_lease_is_one_holders_until_it_lapses(db):
    assert leases.hold("beat", "first", 30)
    assert leases.hold("beat", "first", 30)  # renewed
    assert not leases.hold("beat", "second", 30)

    # The first stopped renewing it a while ago.
    Lease.objects.filter(name="beat").update(expires_at=timezone.now() - timedelta(seconds=1))
    assert leases.hold("beat", "second", 30)
    assert not leases.hold("beat", "first", 30)  # back too late: it stands by now
    leases.release("beat", "second")
    assert leases.hold("beat", "first", 30)  # a clean stop hands over at once


@pytest.mark.django_db(transaction=True)
def test_a_second_beat_stands_by_and_takes_over_when_the_first_dies():
    alice, bob = signed_up("alice"), signed_up("bob")
    game_id = new_game(alice, bob, placement_batch=3)
    celery = Celery("filesystem://", free_port(), CONQUEST_DEADLINE_SWEEP_SECONDS=1,
                    CONQUEST_BEAT_LEASE_SECONDS=6)
    try:
        celery.start_worker("--queues", "deadlines,celery")
        celery.start_beat("first")
        assert wait_until(lambda: SENT in celery.log("first"), 30), celery.log("first")
        celery.start_beat("second")
        assert wait_until(lambda: "stands by" in celery.log("second"), 30), celery.log("second")
        sent_by_first = celery.log("first").count(SENT)
        # Longer than a lease: the first renews it, the second only waits. (A lease of 3 s
        # left a beat starved of the processor for 2 s on a loaded machine to lose it.)
        time.sleep(7)
        assert celery.log("second").count(SENT) == 0, celery.log("second")
        assert celery.log("first").count(SENT) > sent_by_first

        celery.kill("first")  # SIGKILL: no clean stop, its lease has to lapse
        assert wait_until(lambda: SENT in celery.log("second"), 30), celery.log("second")
        assert "took over the lease" in celery.log("second")
        Game.objects.filter(pk=game_id).update(deadline=timezone.now())
        assert wait_until(lambda: Event.objects.filter(
            game_id=game_id, type="turn_timed_out").exists(), 30), celery.log("worker")
    finally:
        celery.stop()


def test_a_beat_on_the_same_schedule_file_keeps_its_holder_id_once_the_last_one_died(tmp_path):
    schedule = str(tmp_path / "celerybeat-schedule")
    first, lock = holder_of(schedule)
    assert lock is not None

    second, no_lock = holder_of(schedule)  # another beat on the same file, the first alive
    assert no_lock is None and second != first

    lock.close()  # the first died: the kernel drops its lock
    again, lock = holder_of(schedule)
    assert again == first and lock is not None
    lock.close()
    assert holder_of(str(tmp_path / "elsewhere"))[0] != first


@pytest.mark.django_db(transaction=True)
def test_a_beat_killed_and_started_again_takes_its_lease_back_at_once():
    celery = Celery("filesystem://", free_port(), CONQUEST_DEADLINE_SWEEP_SECONDS=1,
                    CONQUEST_BEAT_LEASE_SECONDS=120)
    try:
        celery.start_beat("beat")
        assert wait_until(lambda: SENT in celery.log("beat"), 30), celery.log("beat")
        holder = Lease.objects.get(name="beat").holder
        celery.kill("beat")  # SIGKILL: its lease of two minutes is left on the row
        before = len(celery.log("beat"))
        celery.start_beat("beat")  # the same schedule file, as systemd or compose restart it

        def restarted() -> str:
            return celery.log("beat")[before:]
        assert wait_until(lambda: SENT in restarted(), 30), restarted()
        assert "stands by" not in restarted()
        assert Lease.objects.get(name="beat").holder == holder
    finally:
        celery.stop()
