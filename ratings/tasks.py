"""Celery tasks of the ratings app: they take ids or nothing, are idempotent, acks_late.
The analysis' tasks go to the `analysis` queue (config.workers), never the clock's."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from lib import publish
from lib.reactions import announce
from ratings import analysis, recording


@shared_task(acks_late=True, ignore_result=True)
def record_results() -> int:
    """Record every finished game not recorded yet (the game-ending commit queues this;
    beat runs it too, for what a broker that was down lost)."""
    done = 0
    while True:
        recorded = recording.record_pending()
        done += len(recorded)
        # Committed: what waits for these games' ratings may go (config/reactions.py).
        announce("results_recorded", recorded)
        if len(recorded) < recording.BATCH:
            break
    return done


@shared_task(acks_late=True, ignore_result=True)
def sweep_analysis() -> int:
    """Queue the analyses due (finished games without one, leases that lapsed)."""
    due = analysis.sweep()
    for game_id, token in due:
        publish.publish_later(analyse_game, (game_id, token))
    return len(due)


@shared_task(acks_late=True, ignore_result=True,
             time_limit=settings.CONQUEST_ANALYSIS_TASK_SECONDS,
             soft_time_limit=max(settings.CONQUEST_ANALYSIS_TASK_SECONDS - 10, 1))
def analyse_game(game_id: int, token: str = "") -> None:
    """A chunk of a finished game's analysis, if `token` holds its row (without one: the
    game just finished, and its analysis is opened); the next chunk is queued behind the
    other games' chunks."""
    token = token or analysis.queue(game_id)
    if token:
        following = analysis.run_chunk(game_id, token)
        if following:
            publish.publish_later(analyse_game, (game_id, following))
