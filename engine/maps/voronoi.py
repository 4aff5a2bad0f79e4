"""A drawing (maps_spec "drawing": shapes, labels, land borders, sea lanes, continent
outlines) made from nothing but the territories' points, for maps whose own picture is a
bitmap: each territory is its Voronoi cell, clipped to a disc around its point and to a
padded hull around its continent, so continents stand apart with sea between them.

Two cells whose territories border each other share their edge (a land border where it is
long enough); two that do not are kept a narrow channel apart, so a shared edge always
means a border. A border whose cells do not touch is a straight sea lane from coast to
coast (across the map's edge when the map wraps east to west). Pure Python: every cell is
a convex polygon cut by half-planes, nearest points first, O(n^2) at worst per map.
"""

from __future__ import annotations

import math
from statistics import median

SIZE = 1000.0  # the longer side of the drawing, in SVG user units
DISC_SIDES = 20
NUDGE = 6.0  # how far apart two territories drawn at one spot are set
NUDGES = 64  # turns of the curl that sets them apart, before a grid takes over
MIN_SPAN = 1e-6  # points whose box is narrower, in the file's units, are at one spot
COAST = None  # the tag of a cell's edge that faces the sea (others: the territory beyond)


def _fmt(value: float) -> str:
    text = f"{value:.1f}"
    text = text[:-2] if text.endswith(".0") else text
    return "0" if text == "-0" else text


def _path(points, close: bool = True) -> str:
    head, *rest = points
    d = f"M{_fmt(head[0])},{_fmt(head[1])}" + "".join(f"L{_fmt(x)},{_fmt(y)}" for x, y in rest)
    return d + "Z" if close else d


def _clip(poly: list, normal, limit: float, tag) -> list:
    """The part of a convex polygon [(vertex, tag of the edge leaving it)] where
    normal . x <= limit; the new edge along the cut carries `tag`."""
    nx, ny = normal
    out = []
    count = len(poly)
    for i in range(count):
        (a, tag_a), (b, _) = poly[i], poly[(i + 1) % count]
        da = nx * a[0] + ny * a[1] - limit
        db = nx * b[0] + ny * b[1] - limit
        if da <= 0:
            out.append((a, tag_a))
        if (da <= 0) != (db <= 0):
            t = da / (da - db)
            cut = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
            out.append((cut, tag if da <= 0 else tag_a))
    return out


def _disc(centre, radius: float, sides: int = DISC_SIDES) -> list:
    return [(centre[0] + radius * math.cos(2 * math.pi * k / sides),
             centre[1] + radius * math.sin(2 * math.pi * k / sides)) for k in range(sides)]


def _hull(points: list) -> list:
    """Convex hull, counter-clockwise (monotone chain)."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list = []
    upper: list = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _half_planes(hull: list) -> list:
    """(normal, limit) of each edge of a counter-clockwise hull: inside is normal.x <= limit."""
    planes = []
    for i, a in enumerate(hull):
        b = hull[(i + 1) % len(hull)]
        normal = (b[1] - a[1], a[0] - b[0])
        planes.append((normal, normal[0] * a[0] + normal[1] * a[1]))
    return planes


def _scaled(points: dict) -> tuple[dict, float]:
    """Points in the drawing's units (the longer side of their box SIZE), spread apart
    where two coincide; and their typical spacing (the median nearest-point distance)."""
    xs = [p[0] for p in points.values()]
    ys = [p[1] for p in points.values()]
    left, top = min(xs), min(ys)
    span = max(max(xs) - left, max(ys) - top)
    # Points closer together than this are one spot (spread apart below); a narrower box
    # scaled to SIZE would overflow to infinity (a span of 5e-324 is a float).
    scale = SIZE / (span if span >= MIN_SPAN else 1.0)
    placed: dict = {}
    seen: set = set()
    for t, (x, y) in points.items():
        x, y = (x - left) * scale, (y - top) * scale
        spot = (x, y)
        turn = 0
        # Two territories at one spot: nudged apart along a curl, as every drawing made so
        # far was; the curl stays within a circle of about 40 cells, so past NUDGES turns
        # the point takes the nearest free cell of a grid around its spot instead.
        while (round(x), round(y)) in seen and turn < NUDGES:
            turn += 1
            x, y = x + NUDGE * math.cos(turn), y + NUDGE * math.sin(turn)
        if (round(x), round(y)) in seen:
            x, y = _free_cell(spot, seen)
        seen.add((round(x), round(y)))
        placed[t] = (x, y)
    spacing = median(min(math.dist(p, q) for u, q in placed.items() if u != t)
                     for t, p in placed.items())
    return placed, spacing


def _free_cell(spot, seen: set) -> tuple[float, float]:
    """The first point of a grid NUDGE apart around `spot`, ring after ring, whose cell no
    point holds. The grid's points fall in distinct cells, and ring r closes a square of
    (2r + 1)^2 of them: more than `seen` holds by the last ring tried."""
    x, y = spot
    for ring in range(1, math.isqrt(len(seen)) // 2 + 2):
        for i, j in _ring(ring):
            cell = (x + NUDGE * i, y + NUDGE * j)
            if (round(cell[0]), round(cell[1])) not in seen:
                return cell
    raise AssertionError("a square of more cells than points has a free one")


def _ring(ring: int):
    """The grid steps (i, j) at a distance of `ring` steps (along either axis), in turn
    around the square from its top left corner."""
    for i in range(-ring, ring):
        yield i, -ring
    for j in range(-ring, ring):
        yield ring, j
    for i in range(ring, -ring, -1):
        yield i, ring
    for j in range(ring, -ring, -1):
        yield -ring, j


def _framed(points: dict, cells: dict, spacing: float):
    """Points and cells moved so the cells fit the drawing with a small margin; and the
    drawing's width and height."""
    xs = [v[0] for poly in cells.values() for v, _ in poly]
    ys = [v[1] for poly in cells.values() for v, _ in poly]
    margin = 0.25 * spacing
    dx, dy = margin - min(xs), margin - min(ys)
    moved = {t: (x + dx, y + dy) for t, (x, y) in points.items()}
    framed = {t: [((x + dx, y + dy), tag) for (x, y), tag in poly]
              for t, poly in cells.items()}
    return moved, framed, max(xs) - min(xs) + 2 * margin, max(ys) - min(ys) + 2 * margin


def _cells(points: dict, continent_of: dict, neighbours: dict, spacing: float) -> dict:
    hull_planes = {}
    for continent in set(continent_of.values()):
        around = [v for t, p in points.items() if continent_of[t] == continent
                  for v in _disc(p, 0.75 * spacing, 12)]
        hull_planes[continent] = _half_planes(_hull(around))
    channel = 0.1 * spacing
    cells = {}
    for t, p in points.items():
        reach = [math.dist(p, points[n]) for n in neighbours[t]]
        radius = min(max([0.62 * r for r in reach] + [0.8 * spacing]), 2.2 * spacing)
        poly = [(v, COAST) for v in _disc(p, radius)]
        for normal, limit in hull_planes[continent_of[t]]:
            poly = _clip(poly, normal, limit, COAST)
        others = sorted((math.dist(p, q), u, q) for u, q in points.items() if u != t)
        for distance, u, q in others:
            if distance > 2 * radius:
                break
            normal = (q[0] - p[0], q[1] - p[1])
            middle = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
            gap = 0 if u in neighbours[t] else min(channel, 0.3 * distance)
            limit = normal[0] * middle[0] + normal[1] * middle[1] - gap / 2 * distance
            poly = _clip(poly, normal, limit, u)
        cells[t] = poly
    return cells


def _shared_edge(cells: dict, a: str, b: str, least: float):
    """The stretch of edge cells a and b share (they lie on one bisector), or None."""
    edges = []
    for own, other in ((a, b), (b, a)):
        poly = cells[own]
        found = [(poly[i][0], poly[(i + 1) % len(poly)][0])
                 for i in range(len(poly)) if poly[i][1] == other]
        if not found:
            return None
        edges.append(found[0])
    (p1, p2), (q1, q2) = edges
    length = math.dist(p1, p2)
    if length < least:
        return None
    ux, uy = (p2[0] - p1[0]) / length, (p2[1] - p1[1]) / length
    along = [ux * (x - p1[0]) + uy * (y - p1[1]) for x, y in (q1, q2)]
    low, high = max(0.0, min(along)), min(length, max(along))
    if high - low < least:
        return None
    return [(p1[0] + ux * s, p1[1] + uy * s) for s in (low, high)]


def _leave(cell: list, start, end) -> float:
    """How far (0..1) along start->end the segment leaves the convex cell holding start."""
    t_out = 1.0
    vertices = [v for v, _ in cell]
    for i, a in enumerate(vertices):
        b = vertices[(i + 1) % len(vertices)]
        normal = (b[1] - a[1], a[0] - b[0])
        # Orientation-free: the outward side is away from the cell's start point.
        side = normal[0] * (start[0] - a[0]) + normal[1] * (start[1] - a[1])
        if side > 0:
            normal = (-normal[0], -normal[1])
        denominator = normal[0] * (end[0] - start[0]) + normal[1] * (end[1] - start[1])
        if denominator > 1e-12:
            numerator = normal[0] * (a[0] - start[0]) + normal[1] * (a[1] - start[1])
            t_out = min(t_out, numerator / denominator)
    return max(0.0, t_out)


def _lane(cells, points, a, b, width: float, wrap: bool) -> list[str]:
    pa, pb = points[a], points[b]
    direct = math.dist(pa, pb)
    shift = width if pa[0] < pb[0] else -width
    across = math.dist(pa, (pb[0] - shift, pb[1]))
    if wrap and across < direct or (abs(pa[0] - pb[0]) > 0.6 * width and across < direct / 2):
        return [_stub(cells[a], pa, (pb[0] - shift, pb[1]), width),
                _stub(cells[b], pb, (pa[0] + shift, pa[1]), width)]
    t_a = _leave(cells[a], pa, pb)
    t_b = 1 - _leave(cells[b], pb, pa)
    if t_a >= t_b:
        t_a, t_b = 0.0, 1.0
    return [_path([_at(pa, pb, t_a), _at(pa, pb, t_b)], close=False)]


def _at(p, q, t):
    return (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))


def _stub(cell, start, beyond, width: float) -> str:
    """A lane from a cell's coast towards a point past the map's side, cut at that side."""
    edge = 0.0 if beyond[0] < start[0] else width
    t_edge = (edge - start[0]) / (beyond[0] - start[0]) if beyond[0] != start[0] else 1.0
    return _path([_at(start, beyond, _leave(cell, start, beyond)),
                  _at(start, beyond, min(1.0, t_edge))], close=False)


def draw(points: dict, continent_of: dict, borders: list, wrap: bool = False) -> dict:
    """The drawing of a map from {territory: (x, y)} (any units; y grows downwards as in
    the source pictures), {territory: continent} and its borders."""
    placed, spacing = _scaled(points)
    neighbours: dict = {t: set() for t in placed}
    for a, b in borders:
        neighbours[a].add(b)
        neighbours[b].add(a)
    moved, cells, width, height = _framed(
        placed, _cells(placed, continent_of, neighbours, spacing), spacing)
    land, sea = [], []
    for a, b in borders:
        shared = _shared_edge(cells, a, b, 0.08 * spacing)
        if shared:
            land.append([a, b, _path(shared, close=False)])
        else:
            sea.append([a, b, _lane(cells, moved, a, b, width, wrap)])
    outlines: dict = {}
    for t, poly in cells.items():
        own = continent_of[t]
        for i, (v, tag) in enumerate(poly):
            if tag is COAST or continent_of.get(tag) != own:
                outlines.setdefault(own, []).append(
                    _path([v, poly[(i + 1) % len(poly)][0]], close=False))
    return {
        "width": round(width), "height": round(height),
        "shapes": {t: _path([v for v, _ in poly]) for t, poly in cells.items()},
        "labels": {t: [round(x, 1), round(y, 1)] for t, (x, y) in moved.items()},
        "land_borders": land,
        "sea_lanes": sea,
        "continent_outlines": {c: "".join(parts) for c, parts in sorted(outlines.items())},
    }
