"""Celery tasks of the games app: computer players' moves. They take ids and are
idempotent (games.computer.play plays only what a bot owes now)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from games import computer
from lib import publish


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
