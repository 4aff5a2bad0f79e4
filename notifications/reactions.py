"""The mail's reaction to a committed change (declared in settings.CONQUEST_REACTIONS): the
outbox rows its events cause, written in the append's own transaction (or statement) and
handed to the delivery workers once committed."""

from __future__ import annotations

from games.write import STANDING
from notifications import outbox


def outbox_rows(done):
    return outbox.outbox_writer(done.game, done.events, done.before, done.after,
                                done.actor.kind == STANDING)
