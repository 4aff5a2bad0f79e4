"""The web pages' reaction to a committed change (declared in the wiring's REACTIONS): a
game that just finished has its page's parts drawn ahead by a worker after commit (the
command that ended it does not wait for it)."""

from __future__ import annotations

from lib import publish
from web.tasks import draw_finished_page


def queue_finished_page(done) -> None:
    if done.finished_game:
        publish.on_commit(draw_finished_page, (done.game.pk,))
