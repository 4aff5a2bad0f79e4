"""The board as a list, for screen readers and keyboards: each territory by continent with
its owner, armies and neighbours, as the viewer's seat may see it (under fog of war a
territory out of sight shows neither owner nor armies)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from engine.pieces import NEUTRAL
from games.boards import board_of_view
from words.vocabulary import color_name, continent_name, seat_color, territory_name


def owner_words(owner, players: dict) -> str:
    if owner is None:
        return _("nobody")
    if owner == NEUTRAL:
        return color_name(NEUTRAL)
    player = players.get(owner, {})
    words = color_name(seat_color(owner))
    if player.get("username"):
        words += f" ({player['username']})"
    if player.get("team") is not None:
        words += ", " + _("team %(number)d") % {"number": player["team"] + 1}
    return words


def board_rows(view: dict, seat: int | None) -> list[dict]:
    """Each continent of the game's map with its territories' rows, in the map's order."""
    board = board_of_view(view)
    players = {p["seat"]: p for p in view["players"]}
    capitals = dict(view.get("capitals") or {})
    mine = (view.get("you") or {}).get("capital")
    if mine:
        capitals[mine] = seat
    continents = []
    for continent, (bonus, members) in board.continents.items():
        rows = []
        for territory in members:
            square = view["territories"][territory]
            fogged = bool(square.get("fog"))
            rows.append({
                "id": territory, "name": territory_name(territory, board), "fogged": fogged,
                "owner": _("out of sight") if fogged else owner_words(square["owner"], players),
                "armies": "?" if fogged else square["armies"],
                "mine": seat is not None and square["owner"] == seat,
                "capital": territory in capitals,
                "neighbours": ", ".join(territory_name(n, board) for n in board.neighbours[territory]),
            })
        continents.append({"id": continent, "name": continent_name(continent, board), "bonus": bonus,
                           "territories": rows})
    return continents
