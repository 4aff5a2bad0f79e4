"""Tournaments' reaction to a committed change (declared in the wiring's REACTIONS): when
a game finishes with a result, a worker counts its round after commit."""

from __future__ import annotations

from lib import publish
from tournaments.tasks import advance_for_game


def queue_advance(done) -> None:
    if done.finished_game:
        publish.on_commit(advance_for_game, (done.game.pk,))
