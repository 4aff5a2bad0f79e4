"""The clock's own changes of a deadline for players away: stretched while the seats owing a
decision are on vacation, pulled back when one of them returns early. Each is an event
committed like any other change (so replaying the log gives the deadline column); who is
away, and until when, is the caller's to say (the vacations live in notifications)."""

from __future__ import annotations

from datetime import datetime

from games import rules
from games.clock import game_deadline
from games.models import Game
from games.rules.commands import PULL_BACK, STRETCH
from games.services import MAX_RETRIES, Submitted, commit
from games.store import VersionConflict, load_state


def stretch(game: Game, state: rules.GameState, seats, back: datetime) -> Submitted:
    """The clock waits for `seats` (owing the decision `state` is at, away until `back`): the
    deadline becomes a full one counted from `back`. Raises VersionConflict if the game
    moved on since `state` (a move made meanwhile keeps its own deadline)."""
    return _moved(game, state, rules.MoveDeadline(
        STRETCH, tuple(seats), game_deadline(game, back).isoformat(), _was(game)))


def pull_back(game: Game, seat: int, now: datetime) -> Submitted | None:
    """`seat` is back before its vacation's end: a deadline of the game later than a full one
    counted from `now` was stretched, and becomes that full one (the sweep stretches it
    again if another owing player is still away). None if there is nothing to pull back.
    A move racing it is read and the pull-back tried again."""
    for attempt in range(MAX_RETRIES):
        if attempt:
            game.refresh_from_db()
        normal = game_deadline(game, now)
        if game.status != Game.ACTIVE or game.deadline is None or game.deadline <= normal:
            return None
        try:
            return _moved(game, load_state(game), rules.MoveDeadline(
                PULL_BACK, (seat,), normal.isoformat(), _was(game)))
        except VersionConflict:
            continue
    raise VersionConflict(game.version)


def _was(game: Game) -> str | None:
    return game.deadline.isoformat() if game.deadline else None


def _moved(game: Game, state, command: rules.MoveDeadline) -> Submitted:
    # The one place the clock's deadline changes enter the write path (the clock is the
    # actor: no user, no seat).
    return commit(game, state, command)
