"""A game's title: what the service made a game as (a tournament's table, a game against the
computer), kept as data on the game (games.models.Game.title) and worded here in the
reader's language. A game its creator named has no title: its name is shown as given."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils import translation
from django.utils.translation import gettext as _

from engine.maps import shipped, shipped_ids

from .vocabulary import BOT_LEVELS, level_name, map_name

TOURNAMENT_GAME, COMPUTER_GAME = "tournament", "computer"


def tournament_game(tournament_id: int, tournament_name: str, round_number: int,
                    table: int) -> dict:
    """The title of table `table` of round `round_number` of a tournament."""
    return {"kind": TOURNAMENT_GAME, "tournament": tournament_id,
            "tournament_name": tournament_name, "round": round_number, "table": table}


def computer_game(username: str, board, levels, number: int) -> dict:
    """The title of `username`'s `number`th game (counted by games.computer) against the
    computer players of `levels` (one a seat) on `board`, made in one click."""
    return {"kind": COMPUTER_GAME, "user": username, "map": board.id,
            "map_name": board.data["name"], "levels": list(levels), "number": number}


def plain_name(title: dict) -> str:
    """The game's stored name for a title: the title in English, as admin search, the
    API and any list that does not word titles read it."""
    with translation.override("en"):
        return _worded(title)


def game_title(game) -> str:
    """A game's title in the reader's language, or its name as its creator gave it.
    `game`: a games.models.Game, or a mapping with its `name` and `title` (a list row)."""
    if isinstance(game, Mapping):
        name, title = game.get("name"), game.get("title")
    else:
        name, title = game.name, game.title
    return _worded(title) or name or ""


def _worded(title) -> str:
    """The title in the active language ("" for none, or one of a kind this release does
    not know)."""
    title = title if isinstance(title, Mapping) else {}
    kind = title.get("kind")
    if kind == TOURNAMENT_GAME:
        return _("%(tournament)s · round %(round)s · table %(table)s") % {
            "tournament": title["tournament_name"], "round": title["round"],
            "table": title["table"]}
    if kind == COMPUTER_GAME and "number" not in title:
        # Games made before the map, levels and number were part of it.
        return _("%(user)s against the computer") % {"user": title["user"]}
    if kind == COMPUTER_GAME:
        return _("%(user)s against the computer · %(map)s · %(levels)s · no. %(number)s") % {
            "user": title["user"], "map": _map_named(title),
            "levels": _levels_named(title["levels"]), "number": title["number"]}
    return ""


def _map_named(title: dict) -> str:
    """A shipped map's name in the reader's language; an imported map's as its file gave it
    when the game was made."""
    if title["map"] in shipped_ids():
        return map_name(shipped(title["map"]))
    return title["map_name"]


def _levels_named(levels: list) -> str:
    """The opponents' levels in the levels' order, each once with its count: "easy, 2 ×
    hard"."""
    named = []
    for level in [*BOT_LEVELS, *sorted(set(levels) - set(BOT_LEVELS))]:
        count = levels.count(level)
        if count:
            named.append(f"{count} × {level_name(level)}" if count > 1 else level_name(level))
    return ", ".join(named)
