"""Celery tasks of the games app: computer players' moves. They take ids and are
idempotent (games.computer.play plays only what a bot owes now)."""

from __future__ import annotations

from celery import shared_task

from games import computer


@shared_task(acks_late=True, ignore_result=True)
def play_bots(game_id: int) -> int:
    return computer.play(game_id)


@shared_task(acks_late=True, ignore_result=True)
def sweep_bots() -> int:
    """Moves the queue missed (a broker that was down, a worker that died)."""
    return computer.sweep()
