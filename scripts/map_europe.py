"""The `europe` map for scripts/make_maps.py: Europe's countries (Natural Earth 1:50m) in an
Albers projection; the microstates join the neighbour they share most border with, Russia
west of the frame's edge is cut into north and south (level with Latvia's southern corner), and Kaliningrad stands
alone."""

from __future__ import annotations

import sys

from mapgen import (
    Atlas,
    albers,
    cldr_names,
    drop_far_islands,
    enlarge,
    fit,
    fmt,
    label_point,
    lane,
    map_file,
    merge_small,
    slug,
    spread,
)
from shapely import geometry, make_valid

WIDTH, HEIGHT = 1400, 1050
FRAME = (-24.5, 34.0, 50.0, 71.5)  # lon/lat box the projection fits
project = fit(albers(14.0, 52.0, 40.0, 64.0), FRAME, WIDTH, HEIGHT, margin=-60)

GROUPS = {
    "nordic": ("Nordic countries", "Severské země", "Kraje nordyckie", "IS FO NO SE FI DK"),
    "british_isles": ("British Isles", "Britské ostrovy", "Wyspy Brytyjskie", "GB IE"),
    "western": ("Western Europe", "Západní Evropa", "Europa Zachodnia", "FR BE NL LU"),
    "central": ("Central Europe", "Střední Evropa", "Europa Środkowa",
                "DE CH AT PL CZ SK HU"),
    "southern": ("Southern Europe", "Jižní Evropa", "Europa Południowa", "PT ES IT MT"),
    "balkans": ("Balkans", "Balkán", "Bałkany", "SI HR BA RS ME XK MK AL GR BG"),
    "baltic": ("Baltic states", "Pobaltí", "Państwa bałtyckie", "EE LV LT kaliningrad"),
    "eastern": ("Eastern Europe", "Východní Evropa", "Europa Wschodnia",
                "RO MD UA BY north_russia south_russia"),
    "anatolia_caucasus": ("Anatolia and the Caucasus", "Anatolie a Kavkaz", "Anatolia i Kaukaz",
                          "TR CY GE AM AZ"),
}
EXTRA = {
    "kaliningrad": ("Kaliningrad", {"cs": "Kaliningradská oblast",
                                    "pl": "Obwód królewiecki"}),
    "north_russia": ("Northern Russia", {"cs": "Severní Rusko", "pl": "Północna Rosja"}),
    "south_russia": ("Southern Russia", {"cs": "Jižní Rusko", "pl": "Południowa Rosja"}),
}
SPECIAL = {"Kosovo": "XK", "N. Cyprus": "CY"}
MICROSTATES = {"AD", "MC", "SM", "VA", "LI", "GI"}
SPLIT_AT = (28.2, 56.1)  # Russia is cut level with the Latvia-Belarus-Russia corner
SEA_LANES = """
IS-FO IS-NO FO-GB FO-NO GB-FR GB-NL GB-NO DK-NO DK-SE FI-EE SE-LV SE-kaliningrad
IT-MT MT-GR IT-AL IT-GR GR-CY TR-CY UA-TR
"""
# Lanes drawn by hand (lon, lat) where the nearest coasts would mislead: Odesa to Sinop.
LANE_AT = {("UA", "TR"): [(30.9, 46.2), (34.9, 42.1)]}


def _member():
    return {code: group for group, (*_, codes) in GROUPS.items() for code in codes.split()}


def _split_russia(shapes, borders):
    """Cut Russia level with SPLIT_AT; each half borders what it touches."""
    russia = shapes.pop("RU")
    _, y = project(*SPLIT_AT)
    north = geometry.box(-1, -1, WIDTH + 1, y)
    shapes["north_russia"] = make_valid(russia.intersection(north))
    shapes["south_russia"] = make_valid(russia.difference(north))
    neighbours = {b if a == "RU" else a for a, b in borders if "RU" in (a, b)}
    borders = {p for p in borders if "RU" not in p}
    borders.add(("north_russia", "south_russia"))
    for other in neighbours:
        for half in ("north_russia", "south_russia"):
            if shapes[half].buffer(0.5).intersection(shapes[other]).area > 0.5:
                borders.add((half, other))
    return borders


def europe_map(path) -> dict:
    member = _member()
    owner = merge_small(str(path), {**member, "RU": "eastern"}, SPECIAL, MICROSTATES)

    def assign(object_id, name, shells):
        code = owner.get(name)
        if code is None:
            return [None] * len(shells)
        out = []
        for shell in shells:
            c = shell.representative_point()
            if code == "RU" and c.x < 23 and c.y > 53:
                out.append("kaliningrad")
            elif code == "NO" and c.y > 72:
                out.append(None)  # Svalbard is off the map
            elif not (FRAME[0] < c.x < FRAME[2] + 40 and FRAME[1] - 2 < c.y < FRAME[3] + 3):
                out.append(None)
            else:
                out.append(code)
        return drop_far_islands(code, shells, out)

    atlas = Atlas(str(path), "countries", assign, project, tolerance=0.35, min_part=1.5)
    frame = geometry.box(0, 0, WIDTH, HEIGHT)
    shapes = {t: make_valid(s.intersection(frame)) for t, s in atlas.shapes.items()}
    borders = _split_russia(shapes, atlas.land_pairs())
    missing = set(member) - set(shapes)
    if missing:
        raise SystemExit(f"no shape for {sorted(missing)}")
    labels = {t: label_point(s) for t, s in shapes.items()}
    spread(labels, gap=19.0)
    enlarged = enlarge(shapes, labels, radius=10.0)
    lanes = {}
    for pair in SEA_LANES.split():
        a, b = pair.split("-")
        borders.add((a, b))
        if (a, b) in LANE_AT:
            points = [project(*at) for at in LANE_AT[(a, b)]]
            lanes[(a, b)] = ["M" + " ".join(f"{fmt(x)} {fmt(y)}" for x, y in points)]
        else:
            lanes[(a, b)] = lane(shapes, a, b)

    def named(code):
        return EXTRA[code] if code in EXTRA else cldr_names(code)

    ids = {code: slug(named(code)[0]) for code in member}
    territories, continents = [], []
    for group, (en, cs, pl, codes) in GROUPS.items():
        continents.append((group, en, {"cs": cs, "pl": pl}))
        for code in codes.split():
            territories.append((ids[code], *named(code), group))
    rename = ids.__getitem__
    print(f"europe: enlarged {sorted(map(rename, enlarged))}", file=sys.stderr)
    return map_file(
        "europe", "Europe", {"cs": "Evropa", "pl": "Europa"}, territories, continents,
        {(rename(a), rename(b)) for a, b in borders},
        {rename(t): s for t, s in shapes.items()}, {rename(t): p for t, p in labels.items()},
        {(rename(a), rename(b)): d for (a, b), d in lanes.items()}, WIDTH, HEIGHT)
