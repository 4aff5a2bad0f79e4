"""What a new game is made of, checked before anything is stored: its clock, its name,
whether it is rated, a player's entropy, and the speed preset's rules (lobby.open_games and
lobby.rematch create games with them)."""

from __future__ import annotations

import unicodedata

from engine.fair import entropy_problem
from games.clock import zone
from games.errors import ServiceError


def check_clock(clock) -> dict:
    """Clock options of a game: {time_zone, quiet_from, quiet_until, weekends}."""
    if clock is None:
        return {}
    if not isinstance(clock, dict) or set(clock) - {"time_zone", "quiet_from", "quiet_until",
                                                    "weekends"}:
        raise ServiceError(400, "bad_clock", "clock takes time_zone, quiet_from, quiet_until "
                           "and weekends")
    checked = {}
    if "time_zone" in clock:
        name = clock["time_zone"]
        if not isinstance(name, str) or zone(name).key != name:
            raise ServiceError(400, "bad_clock", "clock.time_zone must be an IANA zone name")
        checked["clock_time_zone"] = name
    quiet = [clock.get("quiet_from"), clock.get("quiet_until")]
    if any(hour is not None for hour in quiet):
        if any(isinstance(h, bool) or not isinstance(h, int) or not 0 <= h <= 23 for h in quiet):
            raise ServiceError(400, "bad_clock", "clock.quiet_from and quiet_until must both "
                               "be hours from 0 to 23")
        if quiet[0] == quiet[1]:
            raise ServiceError(400, "bad_clock", "clock.quiet_until must be another hour "
                               "than quiet_from")
        checked["quiet_from"], checked["quiet_until"] = quiet
    if "weekends" in clock:
        if not isinstance(clock["weekends"], bool):
            raise ServiceError(400, "bad_clock", "clock.weekends must be true or false")
        checked["pause_weekends"] = clock["weekends"]
    return checked


def check_game_name(name) -> str:
    """The name as stored: 1 to 100 characters, no control characters (it goes into pages
    and mail subjects, and PostgreSQL refuses NUL)."""
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        raise ServiceError(400, "bad_request", "name must be 1 to 100 characters")
    if any(unicodedata.category(char) in ("Cc", "Cs") for char in name):
        raise ServiceError(400, "bad_request", "name must not hold control characters")
    return name.strip()


def check_rated(rated) -> bool | None:
    """The creator's choice of whether the game is rated: true, false, or none (the default)."""
    if rated is not None and not isinstance(rated, bool):
        raise ServiceError(400, "bad_request", "rated must be true or false")
    return rated


def check_entropy(entropy) -> str | None:
    """A player's contribution to the game's seed (docs/players/fair-dice.md "The draws"), or None."""
    problem = None if entropy is None else entropy_problem(entropy)
    if problem:
        raise ServiceError(400, "bad_entropy", problem)
    return entropy


# A speed game: minutes a turn, not a day, and a computer player takes over the seat of a
# player who misses two turns in a row, so that nobody waits long for someone gone. The
# deadline sweep (CONQUEST_DEADLINE_SWEEP_SECONDS, 15 s) runs often enough for it.
SPEED_RULES = {"deadline_seconds": 180, "dropped_seat": "bot", "max_missed_turns": 2}
