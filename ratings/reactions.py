"""Ratings' reactions to a committed change (declared in the wiring's REACTIONS): a game
that just finished with a result is recorded, and analysed, by workers after commit (the
command that ended it waits for neither)."""

from __future__ import annotations

from django.conf import settings

from lib import publish
from ratings.tasks import analyse_game, record_results


def queue_recording(done) -> None:
    if done.finished_game:
        publish.on_commit(record_results)


def queue_analysis(done) -> None:
    """The analysis worker opens the game's analysis (the command's transaction only
    publishes a message, after its commit)."""
    if done.finished_game and settings.CONQUEST_ANALYSIS:
        publish.on_commit(analyse_game, (done.game.pk,))
