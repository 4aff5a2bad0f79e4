"""Turn clocks: when a decision's deadline falls, counting only the hours the game's clock
runs (it may rest each night and on weekends, in the game's time zone), and the deadline as
a projection of the game's log."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from itertools import groupby
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import engine as rules
from engine import events as ev
from engine.moves import clock_key

MAX_STEPS = 4000  # a deadline is at most a year of clock time away: ample


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _resting_until(local: datetime, quiet_from, quiet_until, weekends: bool):
    """If the clock rests at `local`, the local time it runs again; else None."""
    if weekends and local.weekday() >= 5:
        monday = (local + timedelta(days=7 - local.weekday())).date()
        return _resting_until(
            datetime.combine(monday, time(0), local.tzinfo), quiet_from, quiet_until, False
        ) or datetime.combine(monday, time(0), local.tzinfo)
    if quiet_from is None or quiet_until is None or quiet_from == quiet_until:
        return None
    hour = local.hour
    if quiet_from < quiet_until:
        resting = quiet_from <= hour < quiet_until
        wake_day = local.date()
    else:  # over midnight, e.g. 22 to 7
        resting = hour >= quiet_from or hour < quiet_until
        wake_day = local.date() + timedelta(days=1) if hour >= quiet_from else local.date()
    if not resting:
        return None
    wake = datetime.combine(wake_day, time(quiet_until), local.tzinfo)
    if weekends and wake.weekday() >= 5:
        return _resting_until(wake, quiet_from, quiet_until, weekends)
    return wake


def _next_rest(local: datetime, quiet_from, quiet_until, weekends: bool) -> datetime:
    """The next local time, after `local`, at which the clock stops."""
    candidates = []
    if quiet_from is not None and quiet_until is not None and quiet_from != quiet_until:
        start = datetime.combine(local.date(), time(quiet_from), local.tzinfo)
        candidates.append(start if start > local else start + timedelta(days=1))
    if weekends:
        saturday = local.date() + timedelta(days=(5 - local.weekday()) % 7 or 7)
        if local.weekday() < 5:
            saturday = local.date() + timedelta(days=5 - local.weekday())
        candidates.append(datetime.combine(saturday, time(0), local.tzinfo))
    return min(candidates) if candidates else local + timedelta(days=3650)


def deadline_after(start: datetime, seconds: int, time_zone: str = "UTC",
                   quiet_from=None, quiet_until=None, weekends: bool = False) -> datetime:
    """`start` plus `seconds` of running clock (aware datetimes; the answer is in UTC)."""
    tz = zone(time_zone)
    now = start.astimezone(tz)
    remaining = timedelta(seconds=seconds)
    # Elapsed time is counted in UTC: Python subtracts and adds datetimes that share one
    # tzinfo as wall-clock times, which is an hour off across a daylight saving change.
    for _ in range(MAX_STEPS):
        wake = _resting_until(now, quiet_from, quiet_until, weekends)
        if wake is not None:
            now = wake
            continue
        rest = _next_rest(now, quiet_from, quiet_until, weekends)
        running = rest.astimezone(UTC) - now.astimezone(UTC)
        if remaining <= running:
            return now.astimezone(UTC) + remaining
        remaining -= running
        now = rest
    return now.astimezone(UTC) + remaining


def game_deadline(game, start: datetime) -> datetime:
    return deadline_after(
        start, game.deadline_seconds, game.clock_time_zone, game.quiet_from,
        game.quiet_until, game.pause_weekends,
    )


# Events that set the deadline to their `until`: a moderator's extension, and the clock
# waiting for players on vacation or running again for one back early.
SETS_DEADLINE = (ev.DEADLINE_EXTENDED, ev.DEADLINE_STRETCHED, ev.DEADLINE_PULLED_BACK)


def next_deadline(game, before, after, events, now, deadline):
    """The deadline once `events` (one commit's, made against `before`, leading to `after`,
    stored at `now`) are appended to a game whose deadline was `deadline`: the last `until`
    they set, else a full one from `now` when they open a new decision, else unchanged; None
    while no clock runs. The append (games.store.append) and replayed_deadline use this one rule,
    so the column is always what replaying the log gives."""
    return _deadline(game, clock_key(before), after, events, now, deadline)


def _deadline(game, key_before, after, events, now, deadline):
    for event in reversed(events):
        if event.type in SETS_DEADLINE:
            return datetime.fromisoformat(event.data["until"])
    key = clock_key(after)
    if key is None:
        return None
    if key_before != key or deadline is None:
        return game_deadline(game, now)
    return deadline


def replayed_deadline(game, stored) -> datetime | None:
    """The game's deadline replayed from its log, `stored`: [(event, when it was stored)]
    in seq order (games.store.log.stored_events_with_times).

    The rule applies per commit, not per event (a decision may close and open again inside
    one: a player's reinforcement, then the neutral's half placed automatically, and the
    same turn goes on). A commit's events share the moment of its append, and each commit
    reads the one before, so the runs of one moment are the commits; a deadline-setting
    event is a commit of its own, so a run is also cut after one (a clock frozen by tests
    may store several commits at one moment)."""
    state, deadline = None, None
    for at, run in groupby(stored, key=lambda pair: pair[1]):
        key_before, pending = clock_key(state), False
        for event, _ in run:
            state = rules.evolve(state, event)
            if event.type in SETS_DEADLINE:
                deadline = datetime.fromisoformat(event.data["until"])
                key_before, pending = clock_key(state), False
            else:
                pending = True
        if pending:
            deadline = _deadline(game, key_before, state, (), at, deadline)
    return deadline


def resting_until(game, now: datetime) -> datetime | None:
    """If the game's clock rests at `now` (its quiet hours, its weekend), when it runs
    again (UTC); else None."""
    local = now.astimezone(zone(game.clock_time_zone))
    wake = _resting_until(local, game.quiet_from, game.quiet_until, game.pause_weekends)
    return wake.astimezone(UTC) if wake is not None else None
