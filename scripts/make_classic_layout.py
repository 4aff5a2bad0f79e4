"""Regenerates engine/maps/layouts/classic.json, the drawn classic board (the drawing its map
file names, `{"layout": "classic"}`, in the format of any map's `drawing`), from real
coastlines.

A development tool, not part of the service: it needs `shapely` (pip) and the
`land-110m.json` file of the `world-atlas` npm package (Natural Earth land, public domain):

    npm pack world-atlas@2.0.2 && tar xzf world-atlas-2.0.2.tgz
    .venv/bin/python scripts/make_classic_layout.py package/land-110m.json

The land is projected (equirectangular, cut at 169°W so that Alaska sits on the left edge and
Chukotka on the right, with Europe magnified), then cut into the 42 territories by the
Voronoi cells of a few seed points per territory. Territories that share a coast line become
land borders; every other border of the board is drawn as a sea lane between the nearest
points of the two territories (alaska–kamchatka across the edge of the map).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import shapely.affinity
from shapely import geometry, ops

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.board import BORDERS, CONTINENT_OF, TERRITORIES  # noqa: E402
from engine.maps.drawing import LAYOUTS  # noqa: E402

WIDTH, HEIGHT = 1000, 600
WEST, EAST = -169.0, 191.0  # longitudes of the left and right edges
NORTH, SOUTH = 84.0, -57.0
# Europe is small on the globe and holds seven territories: magnify it around this centre.
LENS_LON, LENS_LAT, LENS_RADIUS, LENS_POWER = 12.0, 50.0, 34.0, 1.75
ISLAND_AREA = 2500  # pieces of land smaller than this are never split

SEEDS: dict[str, list[tuple[float, float]]] = {
    "alaska": [(-152, 64), (-160, 60), (-145, 62)],
    "northwest_territory": [(-122, 65), (-100, 66), (-90, 75), (-72, 69), (-135, 66), (-70, 67)],
    "greenland": [(-42, 72), (-42, 64), (-35, 80), (-28, 69), (-36, 65)],
    "alberta": [(-115, 55), (-122, 52)],
    "ontario": [(-90, 51), (-96, 55), (-84, 49)],
    "quebec": [(-72, 52), (-65, 50), (-73, 56), (-72, 60.5)],
    "western_united_states": [(-113, 41), (-119, 37), (-106, 36)],
    "eastern_united_states": [(-86, 37), (-78, 40), (-95, 33), (-82, 30)],
    "central_america": [(-102, 23), (-90, 15), (-108, 28), (-79, 21.5), (-72, 19)],
    "venezuela": [(-66, 7), (-74, 5)],
    "peru": [(-75, -10), (-66, -16), (-78, -3)],
    "brazil": [(-50, -10), (-44, -18), (-60, -6), (-52, -28)],
    "argentina": [(-65, -35), (-70, -45), (-62, -28), (-69, -52)],
    "iceland": [(-19, 65)],
    "scandinavia": [(15, 63), (26, 65), (9, 60), (20, 69)],
    "great_britain": [(-2, 53), (-8, 53)],
    "northern_europe": [(11, 52), (20, 52)],
    "western_europe": [(2, 46), (-4, 40)],
    "southern_europe": [(13, 43), (22, 41), (25, 45)],
    "ukraine": [(33, 50), (42, 55), (34, 62), (45, 47), (50, 60)],
    "north_africa": [(0, 26), (-8, 19), (8, 12), (12, 26), (-2, 10)],
    "egypt": [(29, 26), (24, 24), (32, 21)],
    "east_africa": [(38, 8), (35, -4), (45, 5), (30, 13), (24, 14), (37, -13)],
    "congo": [(22, -2), (15, -5), (20, 3)],
    "south_africa": [(25, -27), (24, -17), (32, -20), (18, -30), (34, -24)],
    "madagascar": [(47, -19), (45.5, -23), (49, -15)],
    "ural": [(60, 58), (66, 66), (58, 52), (72, 52)],
    "siberia": [(86, 64), (92, 74), (82, 56), (76, 70)],
    "yakutsk": [(126, 66), (116, 70), (130, 60)],
    "kamchatka": [(158, 60), (170, 66), (145, 62), (180, 67), (137, 49), (140, 55)],
    "irkutsk": [(108, 57), (120, 54)],
    "mongolia": [(103, 46), (115, 47), (93, 47), (124, 46), (129, 44)],
    "japan": [(138, 37), (142, 43), (131, 33)],
    "afghanistan": [(66, 35), (62, 45), (69, 41), (52, 45)],
    "china": [(106, 32), (115, 28), (86, 37), (118, 40), (95, 31), (85, 45), (127, 37)],
    "middle_east": [(45, 28), (38, 36), (53, 32), (48, 18)],
    "india": [(78, 22), (78, 12), (72, 28), (85, 25)],
    "siam": [(100, 16), (106, 13), (102, 4), (103, 1.5)],
    "indonesia": [(113, 0), (100.5, -1.5), (110, -7), (121, -2)],
    "new_guinea": [(142, -5), (137, -3)],
    "western_australia": [(122, -25), (129, -19)],
    "eastern_australia": [(145, -25), (146, -35), (141, -18), (147, -42)],
}

# Land the classic board leaves out (New Zealand, the Falklands, Hawaii, Antarctica...).
LEAVE_OUT = [(160, -50, 191, -30), (-63, -53, -56, -50.5)]


def decode_topojson(path: str) -> geometry.base.BaseGeometry:
    data = json.load(open(path))
    (sx, sy), (tx, ty) = data["transform"]["scale"], data["transform"]["translate"]
    arcs = []
    for arc in data["arcs"]:
        x = y = 0
        points = []
        for dx, dy in arc:
            x, y = x + dx, y + dy
            points.append((x * sx + tx, y * sy + ty))
        arcs.append(points)

    def ring(indexes):
        points = []
        for i in indexes:
            arc = arcs[i] if i >= 0 else list(reversed(arcs[~i]))
            points.extend(arc if not points else arc[1:])
        return points

    polygons = []
    for geom in data["objects"]["land"]["geometries"]:
        parts = geom["arcs"] if geom["type"] == "MultiPolygon" else [geom["arcs"]]
        for part in parts:
            rings = [ring(r) for r in part]
            polygons.append(geometry.Polygon(rings[0], rings[1:]))
    return polygons


def shift_lon(lon: float) -> float:
    return lon + 360 if lon < WEST else lon


def lens(lon: float, lat: float) -> tuple[float, float]:
    """Magnify a disc around Europe; the map outside the disc is left as it is."""
    dx, dy = lon - LENS_LON, (lat - LENS_LAT) * 1.25
    r = math.hypot(dx, dy)
    if r == 0 or r >= LENS_RADIUS:
        return lon, lat
    t = r / LENS_RADIUS
    # h(0)=0, h(1)=1, h'(0)=LENS_POWER, monotonic while LENS_POWER <= 2.
    scale = (LENS_POWER - (LENS_POWER - 1) * t)
    return LENS_LON + dx * scale, LENS_LAT + dy * scale / 1.25


def project(lon: float, lat: float) -> tuple[float, float]:
    lon, lat = lens(lon if lon >= WEST else lon + 360, lat)
    # A mild Miller-like stretch towards the poles, as on the printed boards.
    y = math.degrees(1.25 * math.log(math.tan(math.pi / 4 + 0.4 * math.radians(lat))))
    top = math.degrees(1.25 * math.log(math.tan(math.pi / 4 + 0.4 * math.radians(NORTH))))
    bottom = math.degrees(1.25 * math.log(math.tan(math.pi / 4 + 0.4 * math.radians(SOUTH))))
    px = (lon - WEST) / (EAST - WEST) * WIDTH
    py = (top - y) / (top - bottom) * HEIGHT
    return px, py


def project_geometry(geom):
    # Densify first, so that straight edges bend with the lens.
    geom = geom.segmentize(1.0)
    return ops.transform(lambda xs, ys, zs=None: tuple(zip(*[project(x, y) for x, y in zip(xs, ys, strict=True)], strict=True)), geom)


def land() -> list:
    pieces = []
    for polygon in decode_topojson(sys.argv[1]):
        if polygon.area < 1.1:
            continue
        if polygon.bounds[3] < -58:
            continue
        minx, _, maxx, _ = polygon.bounds
        if maxx - minx > 180:
            # Eurasia crosses the antimeridian: Chukotka's points go to the right edge, so
            # that the ring no longer jumps across the map.
            polygon = geometry.Polygon(
                [(shift_lon(x), y) for x, y in polygon.exterior.coords],
                [[(shift_lon(x), y) for x, y in ring.coords] for ring in polygon.interiors],
            )
        elif polygon.centroid.x < WEST:
            polygon = shapely.affinity.translate(polygon, xoff=360)
        pieces.append(polygon)
    merged = ops.unary_union([p.buffer(0.01) for p in pieces]).buffer(-0.01)
    merged = merged.intersection(geometry.box(WEST, SOUTH, EAST, NORTH))
    for box in LEAVE_OUT:
        merged = merged.difference(geometry.box(*box))
    merged = merged.simplify(0.25)
    return project_geometry(merged)


def territories(world):
    points, owners = [], []
    for territory, seeds in SEEDS.items():
        for lon, lat in seeds:
            points.append(geometry.Point(project(lon, lat)))
            owners.append(territory)
    cells = ops.voronoi_diagram(
        geometry.MultiPoint(points), envelope=geometry.box(-500, -500, WIDTH + 500, HEIGHT + 500)
    )
    regions: dict[str, list] = {t: [] for t in SEEDS}
    for cell in cells.geoms:
        for point, owner in zip(points, owners, strict=True):
            if cell.contains(point):
                regions[owner].append(cell)
                break
    cells_of = {t: ops.unary_union(parts) for t, parts in regions.items()}
    pieces: dict[str, list] = {t: [] for t in SEEDS}
    for piece in getattr(world, "geoms", [world]):
        if piece.area < ISLAND_AREA:
            # An island goes whole to the territory holding most of it.
            owner = max(cells_of, key=lambda t: cells_of[t].intersection(piece).area)
            pieces[owner].append(piece)
            continue
        for territory, cell in cells_of.items():
            part = cell.intersection(piece)
            pieces[territory].extend(p for p in getattr(part, "geoms", [part])
                                     if p.geom_type == "Polygon" and p.area > 2.0)
    return {t: geometry.MultiPolygon(ps) for t, ps in pieces.items()}


def fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def path_of(geom) -> str:
    parts = []
    for polygon in getattr(geom, "geoms", [geom]):
        for ring in [polygon.exterior, *polygon.interiors]:
            coords = list(ring.coords)[:-1]
            parts.append("M" + " ".join(f"{fmt(x)} {fmt(y)}" for x, y in coords) + "Z")
    return "".join(parts)


def line_path(geom) -> str:
    parts = []
    merged = ops.linemerge(geom) if geom.geom_type == "MultiLineString" else geom
    for line in getattr(merged, "geoms", [merged]):
        if line.geom_type != "LineString" or line.length < 0.5:
            continue
        parts.append("M" + " L".join(f"{fmt(x)} {fmt(y)}" for x, y in line.coords))
    return "".join(parts)


def coords(shape) -> list[tuple[float, float]]:
    return [c for polygon in shape.geoms for c in polygon.exterior.coords]


def main() -> None:
    world = land()
    shapes = territories(world)
    labels = {}
    for territory, shape in shapes.items():
        biggest = max(shape.geoms, key=lambda p: p.area)
        point = ops.polylabel(biggest, tolerance=0.5)
        labels[territory] = (round(point.x, 1), round(point.y, 1))
    land_borders, sea_lanes = {}, {}
    for a, b in BORDERS:
        shared = shapes[a].boundary.intersection(shapes[b].boundary)
        if shared.length >= 2.0:
            land_borders[(a, b)] = line_path(shared)
            continue
        if {a, b} == {"alaska", "kamchatka"}:
            west = min(coords(shapes["alaska"]))
            east = max(coords(shapes["kamchatka"]))
            sea_lanes[(a, b)] = [
                f"M{fmt(west[0])} {fmt(west[1])} L0 {fmt(west[1])}",
                f"M{fmt(east[0])} {fmt(east[1])} L{WIDTH} {fmt(east[1])}",
            ]
            continue
        pa, pb = ops.nearest_points(shapes[a], shapes[b])
        sea_lanes[(a, b)] = [f"M{fmt(pa.x)} {fmt(pa.y)} L{fmt(pb.x)} {fmt(pb.y)}"]
    touching = []
    for i, a in enumerate(TERRITORIES):
        for b in TERRITORIES[i + 1:]:
            if (a, b) in land_borders or (b, a) in land_borders:
                continue
            if shapes[a].boundary.intersection(shapes[b].boundary).length >= 2.0:
                touching.append((a, b))
    for pair in touching:
        print(f"# WARNING: {pair[0]} and {pair[1]} touch but do not border", file=sys.stderr)
    print(f"# land borders {len(land_borders)}, sea lanes {len(sea_lanes)}", file=sys.stderr)
    continents = {}
    for continent in sorted(set(CONTINENT_OF.values())):
        members = [shapes[t] for t in TERRITORIES if CONTINENT_OF[t] == continent]
        continents[continent] = path_of(ops.unary_union(members).buffer(0.2).simplify(0.3))

    drawing = {
        "width": WIDTH, "height": HEIGHT,
        "shapes": {t: path_of(shapes[t]) for t in TERRITORIES},
        "labels": {t: list(labels[t]) for t in TERRITORIES},
        "land_borders": [[a, b, d] for (a, b), d in land_borders.items()],
        "sea_lanes": [[a, b, ds] for (a, b), ds in sea_lanes.items()],
        "continent_outlines": continents,
    }
    LAYOUTS.joinpath("classic.json").write_text(
        json.dumps(drawing, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
