"""Celery tasks of the web pages: they take ids, are idempotent, acks_late. Drawing a
finished game's page ahead goes to the `analysis` queue (config.workers), heavy derived
work that never competes with the clock's."""

from __future__ import annotations

from celery import shared_task

from web.page.ahead import draw_finished_game


@shared_task(acks_late=True, ignore_result=True)
def draw_finished_page(game_id: int) -> bool:
    """Work out what a finished game's page keeps, before anyone asks for it."""
    return draw_finished_game(game_id)
