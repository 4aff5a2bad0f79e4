"""Called by the commit step that ends a game: after commit, a worker counts its round."""

from __future__ import annotations

from django.db import transaction


def queue_advance(game_id: int) -> None:
    from notifications.outbox import publish_later

    transaction.on_commit(
        lambda: publish_later("tournaments.tasks.advance_for_game", (game_id,)))
