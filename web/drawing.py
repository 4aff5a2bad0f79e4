"""A map's drawing in SVG user units, whatever the map: its file's `drawing` (docs/players/maps.md;
the classic map's names the layout engine/maps/layouts/classic.json, the same data kept
beside it). Borders the drawing does not give are drawn as a straight dashed lane between
the two territories' labels."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from engine.maps import DEFAULT_MAP, Board
from engine.maps.drawing import drawing_data

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
    spec = drawing_data(board.data)
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


# A shape drawn as polygons only (M x y x y ... Z, as every shipped map and the community
# formats' import draw them); other path data is drawn as it is.
_POLYGONS = re.compile(r"(?:M[-\d.eE\s,]+Z?\s*)+")
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _kept(points: list, tolerance: float) -> list:
    """Douglas-Peucker: the points of a ring that its drawing at `tolerance` units needs."""
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    spans = [(0, len(points) - 1)]
    while spans:
        first, last = spans.pop()
        (x1, y1), (x2, y2) = points[first], points[last]
        dx, dy = x2 - x1, y2 - y1
        length = (dx * dx + dy * dy) ** .5
        far, farthest = -1.0, first
        for i in range(first + 1, last):
            x, y = points[i]
            d = (abs(dy * (x - x1) - dx * (y - y1)) / length if length
                 else ((x - x1) ** 2 + (y - y1) ** 2) ** .5)
            if d > far:
                far, farthest = d, i
        if far > tolerance:
            keep[farthest] = True
            spans += [(first, farthest), (farthest, last)]
    return [point for point, kept in zip(points, keep, strict=True) if kept]


def _number(value: float, places: int) -> str:
    return f"{value:.{places}f}".rstrip("0").rstrip(".") if places else f"{value:.0f}"


def simplified(path: str, tolerance: float) -> str:
    """A polygon shape with the detail a drawing `tolerance` units coarse cannot show left
    out, its numbers rounded to a power of ten no coarser than a tenth of that; other path
    data comes back as it is."""
    if tolerance <= 0 or not _POLYGONS.fullmatch(path.strip()):
        return path
    places = max(0, -math.floor(math.log10(tolerance / 10))) if tolerance < 10 else 0
    rings = []
    for ring in path.split("M")[1:]:
        closed = "Z" in ring
        numbers = [float(n) for n in _NUMBER.findall(ring.replace("Z", " "))]
        if len(numbers) % 2:
            return path  # not x y pairs: drawn as it is
        points = list(zip(numbers[0::2], numbers[1::2], strict=True))
        if len(points) > 2:  # a closed ring's last side (back to its first point) counts too
            points = _kept(points + points[:1], tolerance)[:-1] if closed else \
                _kept(points, tolerance)
        if len(points) < 3 and closed:
            continue  # an islet narrower than the drawing's grain
        rings.append("M" + " ".join(f"{_number(x, places)} {_number(y, places)}"
                                    for x, y in points) + ("Z" if closed else ""))
    return "".join(rings) or path


@lru_cache(maxsize=32)
def thumbnail_shapes(board: Board, width: int) -> dict:
    """territory -> its shape for a picture `width` px wide: detail under half a pixel left
    out (the world map's shapes are 300 KB in full, a picture of them much less)."""
    drawing = drawing_of(board)
    tolerance = drawing.width / width / 2
    return {t: simplified(d, tolerance) for t, d in drawing.shapes.items()}
