"""Geometry for scripts/make_maps.py: TopoJSON decoding, projection, simplification, and
the map file (format 1) with its drawing, assembled from territory shapes.

A development tool, not part of the service: it needs `shapely` and `babel` (the dev extras).
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict

from shapely import geometry, make_valid, ops

# ---- TopoJSON ---------------------------------------------------------------------------


def load_topology(path: str, key: str):
    """(arcs in lon/lat or plane units, [(id, name, parts)]); a part is a list of rings,
    a ring a list of arc indexes (~i: arc i reversed)."""
    data = json.load(open(path, encoding="utf-8"))
    transform = data.get("transform")
    arcs = []
    for arc in data["arcs"]:
        if transform:
            (sx, sy), (tx, ty) = transform["scale"], transform["translate"]
            x = y = 0
            points = []
            for dx, dy in arc:
                x, y = x + dx, y + dy
                points.append((x * sx + tx, y * sy + ty))
        else:
            points = [tuple(p) for p in arc]
        arcs.append(points)
    objects = []
    for geom in data["objects"][key]["geometries"]:
        if geom["type"] not in ("Polygon", "MultiPolygon"):
            continue
        parts = geom["arcs"] if geom["type"] == "MultiPolygon" else [geom["arcs"]]
        objects.append((geom.get("id"), geom["properties"]["name"], parts))
    return arcs, objects


class Atlas:
    """Territory shapes from topology parts: `assign(id, name, [part shells in lon/lat])` gives
    each part's territory (or None to leave it out); borders are arcs shared by two
    territories."""

    def __init__(self, path, key, assign, project, tolerance, min_part=0.0):
        arcs, objects = load_topology(path, key)
        self.arc_users = defaultdict(set)
        flat = {}
        pieces = defaultdict(list)
        for object_id, name, parts in objects:
            parts = [p for p in parts if len(self._ring(arcs, p[0])) >= 4]
            shells = [geometry.Polygon(self._ring(arcs, p[0])) for p in parts]
            for part, territory in zip(parts, assign(object_id, name, shells), strict=True):
                if territory is None:
                    continue
                for ring in part:
                    for i in ring:
                        self.arc_users[i if i >= 0 else ~i].add(territory)
                flat[id(part)] = (territory, part)
        # Project and simplify each arc once, so that neighbours keep one shared edge.
        simple = {}
        for _, part in flat.values():
            for ring in part:
                for i in ring:
                    j = i if i >= 0 else ~i
                    if j not in simple:
                        line = [project(x, y) for x, y in arcs[j]]
                        if len(line) > 2 and line[0] != line[-1]:
                            line = list(geometry.LineString(line).simplify(tolerance).coords)
                        elif len(line) > 4:
                            reduced = geometry.Polygon(line).simplify(tolerance)
                            if reduced.geom_type == "Polygon" and not reduced.is_empty:
                                line = list(reduced.exterior.coords)
                        simple[j] = line
        for territory, part in flat.values():
            rings = [self._ring(simple, ring) for ring in part]
            if len(rings[0]) < 4:
                continue
            polygon = make_valid(geometry.Polygon(rings[0], [r for r in rings[1:] if len(r) > 3]))
            pieces[territory].append(polygon)
        # Islets too small to see go, but never a territory's largest piece.
        self.shapes = {}
        for t, ps in pieces.items():
            largest = max(p.area for p in ps)
            self.shapes[t] = ops.unary_union([p for p in ps if p.area >= min(min_part, largest)])

    @staticmethod
    def _ring(arcs, indexes):
        points = []
        for i in indexes:
            arc = arcs[i] if i >= 0 else list(reversed(arcs[~i]))
            points.extend(arc if not points else arc[1:])
        return points

    def land_pairs(self) -> set:
        pairs = set()
        for users in self.arc_users.values():
            users = sorted(users)
            for i, a in enumerate(users):
                for b in users[i + 1:]:
                    pairs.add((a, b))
        return pairs


# ---- which part is which territory ------------------------------------------------------


def merge_small(path, member, special, only=None):
    """Features of the 1:50m file that are no territory (of those whose code is in `only`,
    if given): merged into the territory they share most boundary with (Andorra, Monaco,
    Hong Kong...), else left out (islets)."""
    arcs, objects = load_topology(path, "countries")
    code_of, arcs_of = {}, defaultdict(set)
    for object_id, name, parts in objects:
        code_of[name] = alpha2(object_id, name, special)
        for part in parts:
            for ring in part:
                arcs_of[name].update(i if i >= 0 else ~i for i in ring)
    owner = {}
    for name, code in code_of.items():
        if code in member:
            owner[name] = code
    for name in code_of:
        if name in owner or (only is not None and code_of[name] not in only):
            continue
        shared = Counter()
        for other, other_code in owner.items():
            for i in arcs_of[name] & arcs_of[other]:
                shared[other_code] += len(arcs[i])
        if shared:
            owner[name] = shared.most_common(1)[0][0]
    return owner


def drop_far_islands(code, shells, out, near=6.0, share=0.1):
    """Parts of country `code` (lon/lat shells; `out` their territories so far): the small
    ones farther than `near` degrees from any kept part go (Hawaii, the Canaries...)."""
    kept = []
    order = sorted(range(len(shells)), key=lambda i: -shells[i].area)
    largest = shells[order[0]].area
    for i in order:
        if out[i] != code:
            continue
        close = any(shells[i].distance(shells[j]) < near for j in kept)
        if shells[i].area >= largest * share or close or not kept:
            kept.append(i)
        else:
            out[i] = None
    return out


# ---- projections ------------------------------------------------------------------------


def albers(lon0, lat0, lat1, lat2):
    """Albers equal-area conic (degrees in, unit-sphere plane out, y up)."""
    p1, p2, p0 = map(math.radians, (lat1, lat2, lat0))
    n = (math.sin(p1) + math.sin(p2)) / 2
    c = math.cos(p1) ** 2 + 2 * n * math.sin(p1)
    rho0 = math.sqrt(c - 2 * n * math.sin(p0)) / n

    def project(lon, lat):
        theta = n * math.radians(lon - lon0)
        rho = math.sqrt(max(c - 2 * n * math.sin(math.radians(lat)), 0)) / n
        return rho * math.sin(theta), rho0 - rho * math.cos(theta)

    return project


def fit(project, lon_lat_box, width, height, margin=10):
    """The projection scaled and moved so that the box (w, s, e, n) fills width x height
    (SVG y down)."""
    w, s, e, n = lon_lat_box
    points = [project(w + (e - w) * i / 40, s + (n - s) * j / 40)
              for i in range(41) for j in range(41)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    scale = min((width - 2 * margin) / (max(xs) - min(xs)),
                (height - 2 * margin) / (max(ys) - min(ys)))
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2

    def placed(lon, lat):
        x, y = project(lon, lat)
        return width / 2 + (x - cx) * scale, height / 2 - (y - cy) * scale

    return placed


# ---- SVG path data ----------------------------------------------------------------------


def fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def polygons(geom) -> list:
    if geom.geom_type == "Polygon":
        return [geom]
    return [g for g in getattr(geom, "geoms", []) if g.geom_type in ("Polygon", "MultiPolygon")
            for g in polygons(g)]


def path_of(geom) -> str:
    parts = []
    for polygon in polygons(geom):
        for ring in [polygon.exterior, *polygon.interiors]:
            coords = list(ring.coords)[:-1]
            if len(coords) >= 3:
                parts.append("M" + " ".join(f"{fmt(x)} {fmt(y)}" for x, y in coords) + "Z")
    return "".join(parts)


def line_path(geom) -> str:
    lines = [g for g in getattr(geom, "geoms", [geom]) if g.geom_type == "LineString"]
    if not lines:
        return ""
    merged = ops.linemerge(lines)
    parts = []
    for line in getattr(merged, "geoms", [merged]):
        if line.length >= 0.5:
            parts.append("M" + " ".join(f"{fmt(x)} {fmt(y)}" for x, y in line.coords))
    return "".join(parts)


def circle(x, y, r, steps=20):
    return geometry.Polygon([(x + r * math.cos(2 * math.pi * i / steps),
                              y + r * math.sin(2 * math.pi * i / steps)) for i in range(steps)])


# ---- from shapes to a drawing -----------------------------------------------------------


def label_point(shape) -> tuple[float, float]:
    biggest = max(polygons(shape), key=lambda p: p.area)
    point = ops.polylabel(biggest, tolerance=0.3)
    return round(point.x, 1), round(point.y, 1)


def spread(labels: dict, gap: float, rounds: int = 60) -> None:
    """Push apart labels closer than `gap` (army discs must not overlap), a little per round."""
    names = list(labels)
    for _ in range(rounds):
        moved = False
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                (ax, ay), (bx, by) = labels[a], labels[b]
                d = math.hypot(bx - ax, by - ay)
                if d >= gap:
                    continue
                ux, uy = ((bx - ax) / d, (by - ay) / d) if d > 1e-6 else (1.0, 0.0)
                push = min(gap - d, 2.0) / 2
                labels[a] = (round(ax - ux * push, 1), round(ay - uy * push, 1))
                labels[b] = (round(bx + ux * push, 1), round(by + uy * push, 1))
                moved = True
        if not moved:
            return


def enlarge(shapes: dict, labels: dict, radius: float, pinned=()) -> list:
    """Territories too small to click become at least a disc of `radius` around their label
    (taken from whatever lies under it); returns the ids enlarged."""
    enlarged = []
    for t, shape in shapes.items():
        point = geometry.Point(labels[t])
        inside = shape.boundary.distance(point) if shape.contains(point) else 0
        if t in pinned or inside >= radius * 0.75 or shape.area > 4 * math.pi * radius ** 2:
            continue
        disc = circle(*labels[t], radius)
        for other in shapes:
            if other != t and shapes[other].intersects(disc):
                shapes[other] = make_valid(shapes[other].difference(disc))
        shapes[t] = make_valid(shape.union(disc))
        enlarged.append(t)
    return enlarged


def edge_points(shape) -> list:
    return [c for p in polygons(shape) for c in p.exterior.coords]


def lane(shapes, a, b, width=None) -> list[str]:
    """A straight lane between the nearest points of two shapes, or two stubs off the
    map's left and right edges when the way round the back of the globe is shorter."""
    pa, pb = ops.nearest_points(shapes[a], shapes[b])
    west, east = (a, b) if shapes[a].bounds[0] < shapes[b].bounds[0] else (b, a)
    w = min(edge_points(shapes[west]))
    e = max(edge_points(shapes[east]))
    if width and w[0] + width - e[0] < pa.distance(pb):
        return [f"M{fmt(w[0])} {fmt(w[1])} L0 {fmt(w[1])}",
                f"M{fmt(e[0])} {fmt(e[1])} L{width} {fmt(e[1])}"]
    return [f"M{fmt(pa.x)} {fmt(pa.y)} L{fmt(pb.x)} {fmt(pb.y)}"]


def shared_edge(shapes, a, b) -> str:
    edge = shapes[a].boundary.intersection(shapes[b].buffer(0.3))
    return line_path(edge.simplify(0.2)) if not edge.is_empty else ""


def bonus(members: set, borders) -> int:
    """The stated rule: (territories + entry territories) / 2.5, rounded, at least 1; an entry
    territory borders a territory of another continent."""
    entries = {t for a, b in borders for t, o in ((a, b), (b, a)) if t in members
               and o not in members}
    return max(1, math.floor((len(members) + len(entries)) / 2.5 + 0.5))


FLOOR = {2: 20, 3: 18, 4: 15, 5: 12, 6: 10}


def starting_armies(territories: int, players=range(2, 7)) -> dict:
    """The stated rule: twice the territories each hand is dealt (two players share the board
    with the neutral: three hands), at least FLOOR."""
    armies = {}
    for n in players:
        hands = 3 if n == 2 else n
        armies[str(n)] = max(2 * -(-territories // hands), FLOOR[n])
    return armies


def map_file(map_id, name, names, territories, continents, borders, shapes, labels,
             sea_lanes, width, height, players=range(2, 7), land_borders=True) -> dict:
    """territories: [(id, name, {lang: name}, continent)]; continents: [(id, name, names)];
    borders: set of pairs; sea_lanes: {(a, b): [path d]} (the pairs not sharing an edge)."""
    order = [t for t, *_ in territories]
    members = defaultdict(set)
    for t, _, _, c in territories:
        members[c].add(t)
    pairs = sorted({tuple(sorted(p)) for p in borders}, key=lambda p: (order.index(p[0]),
                                                                         order.index(p[1])))
    drawn_land, drawn_sea = [], []
    for a, b in pairs:
        if (a, b) in sea_lanes or (b, a) in sea_lanes:
            drawn_sea.append([a, b, sea_lanes.get((a, b), sea_lanes.get((b, a)))])
            continue
        edge = shared_edge(shapes, a, b) if land_borders else ""
        if edge:  # else (a point, or an exclave left out) the pages draw a dashed line
            drawn_land.append([a, b, edge])
    outlines = {}
    for c, *_ in continents:
        merged = ops.unary_union([shapes[t].buffer(0.6) for t in members[c]]).buffer(-0.3)
        outlines[c] = path_of(merged.simplify(0.6))
    return {
        "format": 1, "id": map_id, "name": name, "names": names,
        "territories": [{"id": t, "name": n, "names": ns, "continent": c}
                        for t, n, ns, c in territories],
        "continents": [{"id": c, "name": n, "names": ns, "bonus": bonus(members[c], pairs),
                        "territories": [t for t in order if t in members[c]]}
                       for c, n, ns in continents],
        "borders": [list(p) for p in pairs],
        "starting_armies": starting_armies(len(order), players),
        "drawing": {
            "width": width, "height": height,
            "shapes": {t: path_of(shapes[t]) for t in order},
            "labels": {t: list(labels[t]) for t in order},
            "land_borders": drawn_land, "sea_lanes": drawn_sea,
            "continent_outlines": outlines,
        },
    }


# ---- names ------------------------------------------------------------------------------


def cldr_names(code: str) -> tuple[str, dict]:
    """(English name, {"cs": ..., "pl": ...}) of a country or UN region from CLDR (Babel);
    region names start with a capital as a title does."""
    from babel import Locale

    def name(lang):
        text = Locale(lang).territories[code]
        return text[0].upper() + text[1:]

    return name("en"), {"cs": name("cs"), "pl": name("pl")}


def slug(text: str) -> str:
    import re
    import unicodedata

    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "_", ascii_text.lower()).strip("_")


def alpha2(numeric: str | None, name: str, special: dict) -> str | None:
    """The ISO alpha-2 code of a Natural Earth feature (its id is the ISO numeric code)."""
    from babel.core import get_global

    if name in special:
        return special[name]
    codes = get_global("territory_aliases").get(numeric or "")
    return codes[0] if codes else None
