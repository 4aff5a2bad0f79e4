"""A map as its pages show it: the lobby's picker (each map's name, size, table sizes and
thumbnail), the map page (the drawing coloured by continent, each continent's bonus and
territories, the table sizes with their starting armies, the map's own missions) and the
thumbnail's drawing."""

from __future__ import annotations

import math

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.maps import Board
from games.boards import maps_for_new_games
from words.vocabulary import continent_name, map_name, territory_name

from ..drawing import continent_class, continent_colours, drawing_of


def map_summary(board: Board) -> dict:
    return {"id": board.id, "name": map_name(board), "territories": len(board.territories),
            "continents": len(board.continents), "min_players": board.min_players,
            "max_players": board.max_players, "missions": bool(board.missions),
            "url": reverse("map", args=[board.id]),
            "thumbnail": reverse("map-thumbnail", args=[board.id])}


def map_options() -> list[dict]:
    """Every map a game may be created on, as the lobby's picker and the maps' index list
    them."""
    return [map_summary(board) for board in maps_for_new_games()]


def _names(board: Board, ids) -> str:
    """Continents in words: "A", "A and B", "A, B and C"."""
    names = [continent_name(c, board) for c in ids]
    if len(names) < 2:
        return "".join(names)
    return _("%(some)s and %(last)s") % {"some": ", ".join(names[:-1]), "last": names[-1]}


def mission_words(mission: dict, board: Board) -> str:
    """One of a map's own secret missions in words (engine.missions' three kinds)."""
    kind = mission.get("kind")
    if kind == "conquer":
        extra = mission.get("extra") or 0
        words = _("Conquer %(continents)s") % {"continents": _names(board,
                                                                      mission["continents"])}
        if extra:
            words += " " + ngettext("and %(n)d more continent of your choice",
                                    "and %(n)d more continents of your choice",
                                    extra) % {"n": extra}
        return words
    if kind == "occupy":
        return ngettext("Occupy %(n)d territories with at least %(armies)d army on each",
                        "Occupy %(n)d territories with at least %(armies)d armies on each",
                        mission.get("armies", 1)) % {"n": mission.get("territories", 0),
                                                     "armies": mission.get("armies", 1)}
    fallback = next((m for m in board.missions if m.get("id") == mission.get("fallback")
                     and m.get("kind") != "destroy"), None)
    if fallback is None:
        return _("Destroy all armies of the colour on the card")
    return _("Destroy all armies of the colour on the card (if that colour is yours or "
             "gone: %(fallback)s)") % {"fallback": mission_words(fallback, board)}


def drawn_continents(board: Board, names: bool = True, shapes: dict | None = None) -> list[dict]:
    """The map's drawing by continent, filled in the continent's colour (no owners); `shapes`
    (territory -> path) in place of the drawing's own."""
    drawing = drawing_of(board)
    shapes = drawing.shapes if shapes is None else shapes
    colours = continent_colours(board)
    continents = []
    for continent, (bonus, members) in board.continents.items():
        fill, stroke = colours[continent]
        territories = []
        for territory in members:
            x, y = drawing.labels.get(territory, (0, 0))
            name = territory_name(territory, board) if names else territory
            territories.append({
                "id": territory, "name": name, "path": shapes.get(territory, ""),
                "x": x, "y": y,
                "neighbours": ", ".join(territory_name(n, board) for n in
                                        board.neighbours[territory]) if names else "",
            })
        continents.append({
            "id": continent, "name": continent_name(continent, board) if names else continent,
            "bonus": bonus, "css": continent_class(board, continent), "fill": fill,
            "stroke": stroke, "outline": drawing.outlines.get(continent, ""),
            "territories": territories,
        })
    return continents


# The smallest name drawn on a map's page, in screen px (the game page's zoom keeps its
# names at 10 px, static/js/board_zoom.js NAME_PX).
NAME_PX = 8


def drawing_context(board: Board, names: bool = True, shapes: dict | None = None) -> dict:
    drawing = drawing_of(board)
    # The names' size in map units: by the room each territory has (the classic map's 7.5).
    text = round((drawing.width * drawing.height / max(1, len(board.territories))) ** .5 / 16, 2)
    return {
        "width": drawing.width, "height": drawing.height,
        # The narrowest the drawing may be, in screen px, for its names to stay legible; the
        # page has no zoom, so a wider drawing scrolls in its box (the world's is ~2300 px).
        "legible_width": math.ceil(drawing.width * NAME_PX / text),
        "text": text, "dot": round(text * .35, 2), "below": round(text * 1.3, 2),
        "continents": drawn_continents(board, names, shapes),
        "land_borders": [{"a": a, "b": b, "d": d} for (a, b), d in drawing.land.items()],
        "sea_lanes": [{"a": a, "b": b, "paths": paths} for (a, b), paths in drawing.sea.items()],
    }


def map_context(board: Board) -> dict:
    """What templates/maps/map.html shows."""
    count = len(board.territories)
    tables = [{"players": n, "armies": armies, "territories": count // n,
               "spare": count % n} for n, armies in sorted(board.starting_armies.items())]
    return {
        "map": map_summary(board), "drawing": drawing_context(board), "tables": tables,
        "total_bonus": sum(board.continent_bonus.values()),
        "borders": len(board.borders),
        "missions": [mission_words(m, board) for m in board.missions
                     if m.get("kind") != "destroy"]
        + [mission_words(m, board) for m in board.missions if m.get("kind") == "destroy"],
    }
