"""A map's drawing in SVG user units, whatever the map: the classic map's is
web/board_layout.py (its file says `{"layout": "classic"}`), every other map carries its own
under `drawing` (README "Maps"). Borders the drawing does not give are drawn as a straight
dashed lane between the two territories' labels."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from games.rules.maps import DEFAULT_MAP, Board

from . import board_layout

# Continents are told apart by a dashed outline (conquest.css .c-<n>: a hue no player wears
# and a dash pattern) and, where no owner colours the map (the map page, the thumbnails),
# by these fills, the n-th continent's in the n-th place, cycling on maps with more.
CONTINENT_FILLS = ("#d9c7ec", "#f6d2a8", "#b9e2df", "#dcc3a8", "#f0bfd9", "#c5c7ec",
                   "#d6e2b0", "#f0c4d6", "#c6d5dc", "#ecd9a8", "#ddd0f0", "#e8bfb2")
CONTINENT_STROKES = ("#7a3fb0", "#d26a00", "#0f8a8a", "#7b4a1e", "#c0307f", "#3c3f93",
                     "#5e7d1e", "#b0457a", "#4f6d7a", "#a8741a", "#8a5cc2", "#9c3d26")


@dataclass(frozen=True)
class Drawing:
    width: float
    height: float
    shapes: dict  # territory -> path d
    labels: dict  # territory -> (x, y)
    outlines: dict  # continent -> path d (may lack some)
    land: dict  # (a, b) as the map lists the border -> path d
    sea: dict  # (a, b) -> [path d, ...]


@lru_cache(maxsize=32)
def _drawing(board: Board) -> Drawing:
    spec = board.data.get("drawing") or {}
    if spec.get("layout") == "classic":
        return Drawing(board_layout.WIDTH, board_layout.HEIGHT, board_layout.SHAPES,
                       board_layout.LABELS, board_layout.CONTINENT_OUTLINES,
                       board_layout.LAND_BORDERS, board_layout.SEA_LANES)
    labels = {t: tuple(xy) for t, xy in spec.get("labels", {}).items()}
    given_land = {frozenset(pair[:2]): pair[2] for pair in spec.get("land_borders", [])}
    given_sea = {frozenset(pair[:2]): list(pair[2]) for pair in spec.get("sea_lanes", [])}
    land, sea = {}, {}
    for a, b in board.borders:
        pair = frozenset((a, b))
        if pair in given_land:
            land[(a, b)] = given_land[pair]
        elif pair in given_sea:
            sea[(a, b)] = given_sea[pair]
        elif a in labels and b in labels:
            (x1, y1), (x2, y2) = labels[a], labels[b]
            sea[(a, b)] = [f"M{x1:g} {y1:g}L{x2:g} {y2:g}"]
        else:
            sea[(a, b)] = []
    return Drawing(spec.get("width", 1000), spec.get("height", 600), spec.get("shapes", {}),
                   labels, spec.get("continent_outlines", {}), land, sea)


def drawing_of(board: Board) -> Drawing:
    return _drawing(board)


def continent_class(board: Board, continent: str) -> str:
    """The suffix of a continent's CSS class (.c-<suffix>): the classic map keeps its
    continents' ids, every other map numbers its continents in order (cycling)."""
    if board.id == DEFAULT_MAP:
        return continent
    return str(list(board.continents).index(continent) % len(CONTINENT_STROKES))


def continent_colours(board: Board) -> dict:
    """continent -> (fill, stroke), for drawings no owner colours."""
    return {c: (CONTINENT_FILLS[i % len(CONTINENT_FILLS)],
                CONTINENT_STROKES[i % len(CONTINENT_STROKES)])
            for i, c in enumerate(board.continents)}
