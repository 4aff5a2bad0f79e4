"""Celery tasks of the ratings app: they take ids or nothing, are idempotent, acks_late."""

from __future__ import annotations

from celery import shared_task

from lib import publish
from lib.reactions import announce
from ratings import analysis, recording


@shared_task(acks_late=True, ignore_result=True)
def record_results() -> int:
    """Record every finished game not recorded yet (the game-ending commit queues this;
    beat runs it too, for what a broker that was down lost), and queue the analysis of
    finished games that have none yet."""
    done = 0
    while True:
        recorded = recording.record_pending()
        done += len(recorded)
        # Committed: what waits for these games' ratings may go (config/reactions.py).
        announce("results_recorded", recorded)
        if len(recorded) < recording.BATCH:
            break
    for game_id in analysis.pending():
        publish.publish_later(analyse_game, (game_id,))
    return done


@shared_task(acks_late=True, ignore_result=True)
def analyse_game(game_id: int) -> None:
    """A chunk of a finished game's analysis; the next chunk is queued behind other work."""
    if analysis.do_analyse(game_id):
        publish.publish_later(analyse_game, (game_id,))
