"""Filters of the game lists (the lobby's open games and the API's list): by table size,
rules, turn length and rated or not, each a query parameter with a closed set of values,
so that a filtered list is a link to bookmark and the API takes the same words.

A new filter is one entry in FILTERS (its values) and one in _CONDITIONS (the rows it
keeps): a map filter, say, once games are played on more than one map."""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Q

from engine.options import CHOICES, PRESETS
from games.errors import ServiceError
from games.models import Seat

HOUR, DAY = 3600, 86400
# Turn length: up to an hour (played live), over an hour up to a day, longer.
DEADLINES = {"fast": (None, HOUR), "day": (HOUR + 1, DAY), "slow": (DAY + 1, None)}
YES_NO = ("yes", "no")

FILTERS: dict[str, tuple[str, ...]] = {
    "seats": tuple(str(n) for n in range(2, 7)),
    "objective": tuple(CHOICES["objective"]),
    "preset": tuple(PRESETS),
    "fog": YES_NO,
    "teams": YES_NO,
    "deadline": tuple(DEADLINES),
    "rated": YES_NO,
    # Whether bot accounts may join by themselves: a bot's program looks for its games.
    "bots_allowed": YES_NO,
}


def _deadline(value: str) -> Q:
    low, high = DEADLINES[value]
    where = Q()
    if low is not None:
        where &= Q(deadline_seconds__gte=low)
    if high is not None:
        where &= Q(deadline_seconds__lte=high)
    return where


def _rated(value: str) -> Q:
    # The creator's choice, else rated unless a computer player is seated (games.seat_views).
    with_bots = Q(pk__in=Seat.objects.filter(bot__isnull=False).values("game_id"))
    rated = Q(rated=True) | (Q(rated__isnull=True) & ~with_bots)
    return rated if value == "yes" else ~rated


def _yes(where: Q, value: str) -> Q:
    return where if value == "yes" else ~where


_CONDITIONS: dict[str, Callable[[str], Q]] = {
    "seats": lambda value: Q(players=int(value)),
    "objective": lambda value: Q(rules__objective=value),
    "preset": lambda value: Q(rules__preset=value),
    "fog": lambda value: _yes(Q(rules__fog=True), value),
    "teams": lambda value: _yes(Q(rules__team_size__gt=1), value),
    "deadline": _deadline,
    "rated": _rated,
    "bots_allowed": lambda value: _yes(Q(bots_allowed=True), value),
}


def parse(params) -> dict[str, str]:
    """The filters a query asks for ({name: value}; an empty value asks for none), or 400
    `bad_filter` naming the values the filter takes. Other parameters are not ours."""
    chosen = {}
    for name, values in FILTERS.items():
        value = params.get(name, "")
        if value in ("", None):
            continue
        if value not in values:
            raise ServiceError(400, "bad_filter",
                               f"{name} must be one of: {', '.join(values)}")
        chosen[name] = value
    return chosen


def where(chosen: dict[str, str]) -> Q:
    """The games every chosen filter keeps."""
    condition = Q()
    for name, value in chosen.items():
        condition &= _CONDITIONS[name](value)
    return condition
