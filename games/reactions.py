"""The games app's own reactions to a committed change (declared in
the wiring's REACTIONS): a replaced player's seat changes hands, and a computer
player that owes the next decision is woken."""

from __future__ import annotations

from engine import events as ev
from games import computer, tasks
from games.models import Seat
from games.service import COMPUTER, Committed


def hand_over_seat(done: Committed):
    """In the transaction: a player_replaced event seats its new holder (a person: a
    computer player that held the seat stops playing it). games.service.commit reads the
    seats again after it, for the reactions after the commit."""
    handed = [e.data for e in done.events if e.type == ev.PLAYER_REPLACED]
    if not handed:
        return None

    def write():
        for data in handed:
            Seat.objects.filter(game=done.game, seat=data["seat"]).update(
                user_id=data["to_user_id"], bot=None)
    return write


def queue_bots(done: Committed) -> None:
    """After commit: a run of the bots if one owes the next decision (the bots' own run
    plays on by itself without queueing another)."""
    if done.actor.kind != COMPUTER and computer.owed(done.game, done.seats, done.after):
        tasks.queue_bots(done.game.pk)
