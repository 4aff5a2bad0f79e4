"""Where a finished game left each seat, in words: the headline a player reads on the game's
page and in the end mail ("You won", "You lost (3rd of 4)", "Your team won"), from the
log's placements (ratings.placement), the same ones ratings are computed from."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ratings.placement import PLACEMENT_EVENTS, placements


def places_of(events: list[dict], seats: int, team_size: int = 1) -> dict[int, int]:
    """{seat: place} of a finished game, from its events as dicts (type, data)."""
    return placements([(e["type"], e["data"]) for e in events if e["type"] in PLACEMENT_EVENTS],
                      seats, team_size)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd in English; "3." in Czech and Polish, as their ordinals are written."""
    if not (translation.get_language() or "en").startswith("en"):
        return f"{n}."
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def headline(places: dict[int, int], seat: int, team_size: int = 1) -> tuple[str, bool]:
    """The seat's result in words, and whether it won."""
    won = places[seat] == 1
    if team_size > 1:
        teams = len(places) // team_size
        if won:
            return _("Your team won"), True
        return ngettext("Your team lost (%(place)s of %(teams)s team)",
                        "Your team lost (%(place)s of %(teams)s teams)", teams) % {
            "place": ordinal(places[seat]), "teams": teams}, False
    if won:
        return _("You won"), True
    return _("You lost (%(place)s of %(seats)s)") % {
        "place": ordinal(places[seat]), "seats": len(places)}, False
