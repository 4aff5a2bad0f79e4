"""Celery tasks of tournaments: closing sign-ups and counting finished rounds. They take
ids, are idempotent (each step runs under the tournament's lock and checks its status),
and are acknowledged late. A step that fails holds its tournament up (steps.attempt)."""

from __future__ import annotations

from celery import shared_task

from tournaments import services, steps
from tournaments.models import Table, Tournament


@shared_task(acks_late=True, ignore_result=True)
def sweep_tournaments() -> int:
    """Beat: draw the tournaments whose sign-up has closed, and count every round that
    is over (what the game-ending queue missed). Returns how many steps were taken."""
    steps = 0
    for pk in services.due_for_draw():
        steps += _step(services.close_signup, pk)
    for pk in services.running():
        while _step(services.advance, pk):  # a round may end at once (all games aborted)
            steps += 1
    return steps


@shared_task(acks_late=True, ignore_result=True)
def advance_for_game(game_id: int) -> bool:
    """A game ended: if it was a tournament's, count its round if the round is over."""
    table = Table.objects.filter(game_id=game_id).select_related("tournament").first()
    if table is None:
        return False
    return bool(_step(services.advance, table.tournament_id))


def _step(action, pk: int) -> int:
    tournament = Tournament.objects.filter(pk=pk).first()
    if tournament is None:
        return 0
    return steps.attempt(action, tournament)
