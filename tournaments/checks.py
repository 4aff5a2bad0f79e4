"""What a creator asks of a new tournament, checked: its format, table size, rounds, rules
on its map, sign-up window, clock and whether bot accounts may enter (ServiceError says
what is wrong); tournaments.services creates it from the result."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

import engine as rules
from engine.errors import BadRules
from games.boards import board_for_new_game
from games.errors import ServiceError
from lib import inputs
from lobby.new_game import check_clock, check_game_name
from tournaments.models import Tournament

MAX_PLAYERS = 256
MAX_DAYS_AHEAD = 365  # for signup_opens and signup_closes
# Tournament games are played by the day, so unless the organiser says otherwise (or names a
# rulebook) every starting army is placed at once, as the lobby's presets do
# (web.forms.game_settings.ASYNC_SETUP): one decision per player instead of dozens of placement turns.
FAST_SETUP = {"initial_placement": "simultaneous"}


# ---- checking what a creator asks for ------------------------------------------------
def _whole(data: dict, key: str, default, low: int, high: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ServiceError(400, "bad_request", f"{key} must be a whole number from {low} to "
                           f"{high}")
    return value


def _moment(data: dict, key: str, default: datetime, now: datetime) -> datetime:
    value = data.get(key)
    if value is None:
        return default
    moment = inputs.moment(value)
    if moment is None:
        raise ServiceError(400, "bad_request", f"{key} must be a date and time with a zone "
                           "(ISO 8601, e.g. 2026-12-01T18:00:00Z)")
    # Far dates serve no tournament, and the year 9999 leaves no room for a week more.
    if moment > now + timedelta(days=MAX_DAYS_AHEAD):
        raise ServiceError(400, "bad_request",
                           f"{key} must be at most {MAX_DAYS_AHEAD} days ahead")
    return moment


def check_tournament(data) -> dict:
    """The fields of a new tournament from a request body; ServiceError says what is wrong."""
    if not isinstance(data, dict):
        raise ServiceError(400, "bad_request", "send a JSON object")
    unknown = sorted(set(data) - {"name", "format", "seats", "advance", "rounds", "rules",
                                  "deadline_seconds", "signup_opens", "signup_closes",
                                  "max_players", "clock", "bots_allowed", "map"})
    if unknown:
        raise ServiceError(400, "bad_request", f"unknown field(s): {', '.join(unknown)}")
    name = check_game_name(data.get("name"))
    if len(name) > 60:  # room for " · round N · table M" in the games' names
        raise ServiceError(400, "bad_request", "name must be at most 60 characters")
    kind = data.get("format", Tournament.KNOCKOUT)
    if kind not in (Tournament.KNOCKOUT, Tournament.ROUND_ROBIN):
        raise ServiceError(400, "bad_request", "format must be knockout or round_robin")
    seats = _whole(data, "seats", 4, 2, 6)
    advance = (_whole(data, "advance", 1, 1, max(seats - 1, 1))
               if kind == Tournament.KNOCKOUT else 1)
    rounds = _whole(data, "rounds", 3, 1, 20)
    max_players = _whole(data, "max_players", 16, 2, MAX_PLAYERS)
    raw_rules = data.get("rules") or {}
    if not isinstance(raw_rules, dict):
        raise ServiceError(400, "bad_rules", "rules must be an object")
    if "preset" not in raw_rules:
        raw_rules = {**FAST_SETUP, **raw_rules}
    if "deadline_seconds" in data:
        raw_rules = {**raw_rules, "deadline_seconds": data["deadline_seconds"]}
    bots_allowed = data.get("bots_allowed", False)
    if not isinstance(bots_allowed, bool):
        raise ServiceError(400, "bad_request", "bots_allowed must be true or false")
    clock = {} if data.get("clock") is None else data["clock"]
    check_clock(clock)  # refuses a bad clock with its reason
    try:
        board = board_for_new_game(data.get("map"))
    except BadRules as problem:
        raise ServiceError(400, problem.code, str(problem)) from None
    try:
        checked = rules.validate_rules(raw_rules, seats, board)
        if checked.team_size != 1:
            raise BadRules("tournaments are played without teams")
        for size in range(2, seats):  # a round may seat fewer at a table
            rules.validate_rules(raw_rules, size, board)
    except BadRules as problem:
        raise ServiceError(400, "bad_rules", str(problem)) from None
    now = timezone.now()
    opens = _moment(data, "signup_opens", now, now)
    closes = _moment(data, "signup_closes", opens + timedelta(days=7), now)
    if closes <= now:
        raise ServiceError(400, "bad_request", "signup_closes must be in the future")
    if closes <= opens:
        raise ServiceError(400, "bad_request", "signup_closes must come after signup_opens")
    return {"name": name, "format": kind, "seats": seats, "advance": advance,
            "rounds": rounds, "max_players": max_players, "rules": checked.to_dict(),
            "deadline_seconds": checked.deadline_seconds, "signup_opens": opens,
            "signup_closes": closes, "clock": clock, "bots_allowed": bots_allowed,
            "map": board.id}
