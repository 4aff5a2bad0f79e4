"""Deadlines are data: the sweep applies every overdue timeout through the one write path.

Each timeout is submitted with the version the sweep read, so a player who moved at the
last second wins the race, and running the sweep twice (or in two workers) applies each
timeout once. A player on vacation (the wiring's ON_VACATION says who knows) stretches
the clock instead, an event too (games.vacation_clock).
"""

from __future__ import annotations

import logging

from django.utils import timezone

from engine.errors import RuleViolation
from engine.moves import seats_to_act
from games import service, vacation_clock
from games.models import Game
from games.store.append import VersionConflict
from games.store.row import Loaded
from games.store.seats import Seats, seats_of_games
from games.store.states import load_state, load_states
from lib.reactions import wired

log = logging.getLogger(__name__)


def _nobody_on_vacation(user_ids, now) -> dict:
    return {}


def vacation_ends(user_ids, now) -> dict[int, object]:
    """{user id: when they are back} for those of `user_ids` on vacation at `now`, as the
    wiring declares who knows (ON_VACATION, config/reactions.py)."""
    return wired("ON_VACATION", _nobody_on_vacation)(user_ids, now)


def owing_seats(seats: Seats, state) -> dict[int, int]:
    """{seat: user id} of the seats a game (seated as `seats`) waits for in `state`."""
    owing = set(seats_to_act(state))
    return {seat: user_id for seat, user_id in seats.user_ids().items() if seat in owing}


def owing_users(seats: Seats, state) -> list[int]:
    """The users of the seats a game (seated as `seats`) waits for."""
    return list(owing_seats(seats, state).values())


# Games read and decided together: their seats, states and vacations take a few queries
# per batch instead of several per game.
READ_BATCH = 250
# Each game's timeout is a transaction of its own. Committing 25 together, each in a
# savepoint, was tried: it spared a wait for the disk per game where the disk is slow (a
# busy machine: 0.65-0.85x the floor against 1.22x), but its four savepoint round trips per
# game cost more than that wait on a quiet one (1,000 timeouts in 1.8 s against 1.1-1.3 s),
# and a bench is measured quiet (docs/operators/capacity.md).


def sweep_deadlines(limit: int = 1000) -> dict:
    """Apply the timeouts of active games whose deadline has passed (oldest first), at
    most `limit` of them; "backlog" says how many overdue games this run left for the
    next (the caller re-queues or waits for the next beat: deadlines are data, so no
    sweep is ever lost)."""
    now = timezone.now()
    counts = {"timed_out": 0, "moved_on": 0, "stretched": 0, "failed": 0}
    # Ties broken by id: two sweeps take the same games in the same order.
    due = list(Game.objects.filter(status=Game.ACTIVE, deadline__lte=now)
               .order_by("deadline", "pk")[:limit])
    for start in range(0, len(due), READ_BATCH):
        batch = due[start:start + READ_BATCH]
        seats = seats_of_games(batch)  # with their flags: the outbox asks who takes a digest
        states = _states(batch)
        batch = [game for game in batch if game.pk in states or _failed(game, counts)]
        owing = {game.pk: owing_seats(seats[game.pk], states[game.pk]) for game in batch}
        back = vacation_ends([user for seats in owing.values() for user in seats.values()],
                             now)
        for game in batch:
            _time_out(Loaded(game, seats[game.pk], states[game.pk]), owing[game.pk], back,
                      counts)
    if len(due) == limit:
        counts["backlog"] = Game.objects.filter(
            status=Game.ACTIVE, deadline__lte=now).count()
    return counts


def _states(games) -> dict:
    """The games' states, read together; one by one if that fails, leaving out a game
    whose state cannot be read (a broken game must not hold up every other deadline)."""
    try:
        return load_states(games)
    except Exception:  # noqa: BLE001 - find the broken game, sweep the others
        log.exception("reading %d overdue games together failed; reading them one by one",
                      len(games))
    states = {}
    for game in games:
        try:
            states[game.pk] = load_state(game)
        except Exception:  # noqa: BLE001
            log.exception("the state of game %s cannot be read", game.pk)
    return states


def _failed(game, counts) -> bool:
    log.error("the timeout of game %s failed: its state cannot be read", game.pk)
    counts["failed"] += 1
    return False


def _time_out(loaded: Loaded, owing, vacation_back, counts) -> None:
    """Apply one game's timeout through the one write path (or stretch its deadline for the
    owing players on vacation, an event too); the version read guards against a move made
    meanwhile."""
    game, state = loaded.game, loaded.state
    version = game.version
    on_vacation = sorted(seat for seat, user in owing.items() if user in vacation_back)
    try:
        if on_vacation:
            # The clock starts again when the last of them is back.
            back = max(vacation_back[owing[seat]] for seat in on_vacation)
            vacation_clock.stretch(game, state, on_vacation, back, loaded.seats)
            counts["stretched"] += 1
            return
        service.submit_timeout(loaded, version)
        counts["timed_out"] += 1
    except (VersionConflict, RuleViolation):
        counts["moved_on"] += 1
    except Exception:  # noqa: BLE001 - one broken game must not stop every deadline
        log.exception("the timeout of game %s failed", game.pk)
        counts["failed"] += 1
