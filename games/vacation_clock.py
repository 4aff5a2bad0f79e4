"""The clock's own changes of a deadline for players on vacation: stretched while the seats
owing a decision are on vacation, pulled back when one of them returns early. Each is an
event committed like any other change (so replaying the log gives the deadline column); who
is on vacation, and until when, is the caller's to say (the vacations live in
notifications)."""

from __future__ import annotations

from datetime import datetime

import engine as rules
from engine import events as ev
from engine.commands import PULL_BACK, STRETCH
from games.clock import SETS_DEADLINE, game_deadline
from games.models import Event, Game
from games.service import CLOCK, MAX_RETRIES, Actor, Committed, submit
from games.store.append import VersionConflict
from games.store.row import Loaded
from games.store.seats import Seats
from games.store.states import load_state


def stretch(game: Game, state: rules.GameState, seats, back: datetime,
            seated: Seats | None = None) -> Committed:
    """The clock waits for `seats` (owing the decision `state` is at, away until `back`): the
    deadline becomes a full one counted from `back`. Raises VersionConflict if the game
    moved on since `state` (a move made meanwhile keeps its own deadline). `seated`: the
    game's Seats, if the caller read them."""
    return _moved(game, state, rules.MoveDeadline(
        STRETCH, tuple(seats), game_deadline(game, back).isoformat(), _was(game)), seated)


def pull_back(game: Game, seat: int, now: datetime) -> Committed | None:
    """`seat` is back before its vacation's end: if the game's deadline is one the clock
    stretched for it, and later than a full one counted from `now`, it becomes that full one
    (the sweep stretches it again if another owing player is still away). None if there is
    nothing to pull back: a moderator's extension, or a game that never waited for the
    seat, is left as it is (and its log says nothing of the vacation). A move racing it is
    read and the pull-back tried again."""
    for attempt in range(MAX_RETRIES):
        if attempt:
            game.refresh_from_db()
        normal = game_deadline(game, now)
        if game.status != Game.ACTIVE or game.deadline is None or game.deadline <= normal:
            return None
        if seat not in _waited_for(game):
            return None
        try:
            return _moved(game, load_state(game), rules.MoveDeadline(
                PULL_BACK, (seat,), normal.isoformat(), _was(game)))
        except VersionConflict:
            continue
    raise VersionConflict(game.version)


def _waited_for(game: Game) -> list[int]:
    """The seats the game's deadline waits for: those of the last event that set it, if that
    was the clock stretching it. (A deadline later than a full clock from now was set by
    such an event in the decision still owed: a full clock counted earlier ends earlier.)"""
    last = (Event.objects.filter(game=game, type__in=SETS_DEADLINE).order_by("-seq")
            .values_list("type", "data").first())
    return last[1].get("seats", []) if last and last[0] == ev.DEADLINE_STRETCHED else []


def _was(game: Game) -> str | None:
    return game.deadline.isoformat() if game.deadline else None


def _moved(game: Game, state, command: rules.MoveDeadline,
           seated: Seats | None = None) -> Committed:
    # The one place the clock's deadline changes enter the write path, through its front
    # door (the clock is the actor: no user, no seat), refused if the game moved past `state`.
    return submit(Actor(CLOCK), game if seated is None else Loaded(game, seated), command,
                  state.version, state=state)
