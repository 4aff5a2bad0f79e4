"""Ratings' reaction to a committed change (declared in settings.CONQUEST_REACTIONS): a game
that just finished with a result is recorded by a worker after commit (the command that
ended it does not wait for ratings)."""

from __future__ import annotations

from lib import publish
from ratings.tasks import record_results


def queue_recording(done) -> None:
    if done.finished_game:
        publish.on_commit(record_results)
