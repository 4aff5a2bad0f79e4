"""Celery tasks of the game core: computer players' moves and the deadline sweep. They take
ids or nothing and are idempotent (games.computer.play plays only what a bot owes now; the
sweep submits each timeout with the version it read)."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

from games import computer, deadlines
from lib import publish

log = logging.getLogger(__name__)


@shared_task(acks_late=True, ignore_result=True)
def play_bots(game_id: int) -> int:
    return _play(game_id)


@shared_task(acks_late=True, ignore_result=True)
def sweep_bots() -> int:
    """Moves the queue missed (a broker that was down, a worker that died)."""
    return sum(_play(pk) for pk in computer.games_waiting_for_bots())


def _play(game_id: int) -> int:
    played = computer.play(game_id)
    if played >= computer.MOVES_PER_RUN:
        queue_bots(game_id)  # more to play: a fresh task, so one game cannot hold a worker
    return played


def queue_bots(game_id: int) -> None:
    """After the transaction commits: ask a worker to play the bots' moves of the game."""
    # Half the delay, so that a worker's pick-up time keeps the move within it.
    publish.on_commit(play_bots, (game_id,), countdown=settings.CONQUEST_BOT_DELAY_SECONDS / 2)


@shared_task(acks_late=True, ignore_result=True)
def sweep_deadlines() -> dict:
    """One bounded run of the deadline sweep. When more games are overdue than one run
    takes, it says so in the log and queues the next run at once; a run lost with its
    worker loses nothing either, since the next finds every deadline still overdue."""
    done = deadlines.sweep_deadlines(limit=settings.CONQUEST_DEADLINE_SWEEP_BATCH)
    backlog = done.get("backlog", 0)
    if backlog:
        log.warning("the deadline sweep is behind: %d overdue games wait (%d timed out "
                    "in this run); sweeping on at once", backlog, done["timed_out"])
        if done["timed_out"] or done["stretched"] or done["moved_on"]:
            # (Not when nothing moved: only broken games are left, and they would spin.)
            sweep_deadlines.apply_async()
    return done
