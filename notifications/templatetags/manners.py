"""Template filters for manners and words: `view|your_decision` (the tab title says "Your
move"), `game|game_title` (a game's title in the reader's language, or its name) and
`iso|moment` (an ISO 8601 string as a date-time, for the `date` filter to show in the
reader's language and time zone), `value|signed:digits` (a signed value in the one
format every page shows them in: lib.numbers.signed) and `moment|when` (a date and time
as the reader's language writes it: "29 Nov 2026, 14:03", "29. listopadu 2026, 14:03")."""

from __future__ import annotations

from django import template
from django.utils import formats
from django.utils.dateparse import parse_datetime
from django.utils.translation import pgettext

from lib import numbers
from words.titles import game_title as title_of

register = template.Library()

# What a seated player may always do, whoever's move it is.
_STANDING = {"set_defense", "set_neutral_defense", "resign"}


@register.filter
def your_decision(view) -> bool:
    """The engine's "what may I do now" (view.you.may) holds a decision, not only the
    standing orders every seat may give at any time."""
    you = (view or {}).get("you") or {}
    return bool(set((you.get("may") or {}).get("commands", [])) - _STANDING)


@register.filter
def game_title(game) -> str:
    """A Game, or a list row's mapping with its `name` and `title` (words.titles)."""
    return title_of(game)


@register.filter
def moment(value):
    """An ISO 8601 date-time string as a datetime (anything else as it is)."""
    if isinstance(value, str):
        try:
            return parse_datetime(value) or value
        except ValueError:
            return value
    return value


@register.filter
def signed(value, digits=0):
    """+23, −1,4, ±0 (lib.numbers.signed); nothing for no value."""
    if value is None or value == "":
        return ""
    return numbers.signed(value, int(digits))


@register.filter(expects_localtime=True)
def when(value, length="long"):
    """A date and time in the reader's language and time zone, with the year (`long`) or
    without it (`short`, for this week's moves): Czech and Polish write the month's name in
    full ("29. listopadu"), where Django's abbreviations read "29 Lis"."""
    if not value:
        return ""
    if length == "short":
        shape = pgettext("date and time on a page, no year", "j M H:i")
    else:
        shape = pgettext("date and time on a page", "j M Y, H:i")
    return formats.date_format(value, shape)
