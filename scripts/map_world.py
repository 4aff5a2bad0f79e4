"""The `world` map (World by countries) for scripts/make_maps.py: the countries of Natural
Earth's 1:110m selection drawn from its 1:50m coastlines, grouped by UN subregions (CLDR
names), with Alaska and French Guiana as territories of their own."""

from __future__ import annotations

import math
import sys

from mapgen import (
    Atlas,
    cldr_names,
    drop_far_islands,
    enlarge,
    label_point,
    lane,
    map_file,
    merge_small,
    slug,
    spread,
)

WIDTH, HEIGHT = 2400, 1320
WEST, EAST, NORTH, SOUTH = -169.0, 191.0, 84.0, -57.0
# Europe and the Near East, and the Caribbean, are magnified: lon, lat, radius, power.
LENSES = ((12.0, 50.0, 30.0, 1.8), (-78.0, 16.0, 18.0, 1.5), (35.5, 32.0, 8.0, 1.9),
          (45.0, 41.0, 9.0, 1.9), (-13.0, 11.0, 8.0, 1.5), (30.0, -2.0, 5.0, 1.5))

# group id -> (CLDR region code or English name, [cs, pl] when not CLDR, members)
GROUPS = {
    "north_america": ("003", None, "CA US alaska GL"),  # CLDR 021 reads "(oblast)" in cs
    "central_america": ("013", None, "MX GT BZ SV HN NI CR PA"),
    "caribbean": ("029", None, "CU JM HT DO PR BS TT"),
    "south_america": ("005", None, "CO VE GY SR GF EC PE BR BO PY CL AR UY FK"),
    "northern_europe": ("154", None, "IS NO SE FI DK GB IE EE LV LT"),
    "western_europe": ("155", None, "FR BE NL LU DE CH AT"),
    "eastern_europe": ("151", None, "PL CZ SK HU RO BG MD UA BY RU"),
    "southern_europe": ("039", None, "PT ES IT SI HR BA RS ME XK MK AL GR"),
    "northern_africa": ("015", None, "MA EH DZ TN LY EG SD"),
    "western_africa": ("011", None, "MR SN GM GW GN SL LR CI ML BF GH TG BJ NE NG"),
    "middle_africa": ("017", None, "TD CF CM GQ GA CG CD AO"),
    "eastern_africa": ("014", None, "ER DJ ET SO SS UG KE RW BI TZ MW MZ ZM ZW MG"),
    "southern_africa": ("018", None, "ZA NA BW LS SZ"),
    "western_asia": ("145", None, "TR CY GE AM AZ SY LB IL PS JO IQ"),
    "arabia": ("Arabian Peninsula", ["Arabský poloostrov", "Półwysep Arabski"],
               "SA KW QA AE OM YE"),
    "central_asia": ("143", None, "KZ UZ TM KG TJ"),
    "southern_asia": ("034", None, "IR AF PK IN NP BT BD LK"),
    "eastern_asia": ("030", None, "CN MN KP KR JP TW"),
    "south_eastern_asia": ("035", None, "MM TH LA KH VN MY BN ID PH TL"),
    "oceania": ("009", None, "AU NZ PG SB VU FJ NC"),
}
EXTRA = {"alaska": ("Alaska", {"cs": "Aljaška", "pl": "Alaska"})}
# Natural Earth features without an ISO numeric code, or merged into another country.
SPECIAL = {"Kosovo": "XK", "Somaliland": "SO", "N. Cyprus": "CY"}
# Labels placed by hand (lon, lat) where the largest piece is not the one to mark.
LABEL_AT = {"MY": (102.0, 4.3)}
SEA_LANES = """
alaska-RU GL-CA GL-IS IS-GB IS-NO GB-FR GB-NO GB-NL DK-NO DK-SE EE-FI SE-LT
ES-MA IT-TN IT-AL IT-GR CY-TR CY-SY CY-GR GR-TR GR-LY EG-SA YE-DJ YE-SO IR-AE
MG-MZ MG-TZ LK-IN JP-KR JP-RU JP-TW TW-CN TW-PH PH-MY PH-ID ID-AU TL-AU PG-AU
AU-NZ NZ-FJ AU-NC NC-VU VU-SB SB-PG FJ-VU CU-US CU-MX CU-JM CU-HT CU-BS BS-US
DO-PR TT-VE FK-AR
"""


def lens(lon, lat):
    """Magnify discs around crowded places (as the classic board does for Europe)."""
    for lens_lon, lens_lat, radius, power in LENSES:
        dx, dy = lon - lens_lon, (lat - lens_lat) * 1.25
        r = math.hypot(dx, dy)
        if 0 < r < radius:
            scale = power - (power - 1) * r / radius
            lon, lat = lens_lon + dx * scale, lens_lat + dy * scale / 1.25
    return lon, lat


def _miller(lat):
    return math.degrees(1.25 * math.log(math.tan(math.pi / 4 + 0.4 * math.radians(lat))))


def project(lon, lat):
    lon, lat = lens(lon + 360 if lon < WEST else lon, max(min(lat, NORTH), SOUTH))
    top, bottom = _miller(NORTH), _miller(SOUTH)
    return ((lon - WEST) / (EAST - WEST) * WIDTH,
            (top - _miller(lat)) / (top - bottom) * HEIGHT)


def _territory_of_code():
    member = {}
    for group, (_, _, codes) in GROUPS.items():
        for code in codes.split():
            member[code] = group
    return member


def _parts(code, shells):
    """Each part's territory: far-flung small islands go (Hawaii, the Canaries...), Alaska
    and French Guiana are their own territories."""
    out = []
    for shell in shells:
        c = shell.representative_point()
        west, _, east, _ = shell.bounds
        if west < WEST < east and east - west < 180:
            out.append(None)  # an islet across the map's edge
        elif code == "US" and c.y > 50:
            out.append("alaska" if c.x > -169 and c.x < -129 else None)
        elif code == "FR" and c.x < -40:
            out.append("GF" if c.y > 0 and c.x > -60 else None)
        else:
            out.append(code)
    return drop_far_islands(code, shells, out)


def world_map(path) -> dict:
    member = _territory_of_code()
    owner = merge_small(str(path), member, SPECIAL)

    def assign(object_id, name, shells):
        code = owner.get(name)
        return [None] * len(shells) if code is None else _parts(code, shells)

    atlas = Atlas(str(path), "countries", assign, project, tolerance=0.45, min_part=2.0)
    shapes = {t: s for t, s in atlas.shapes.items()}
    missing = set(member) - set(shapes)
    if missing:
        raise SystemExit(f"no shape for {sorted(missing)}")
    labels = {t: label_point(s) for t, s in shapes.items()}
    labels.update({t: tuple(round(v, 1) for v in project(*at)) for t, at in LABEL_AT.items()})
    spread(labels, gap=17.0)
    enlarged = enlarge(shapes, labels, radius=9.0)
    borders = set(atlas.land_pairs())
    lanes = {}
    for pair in SEA_LANES.split():
        a, b = pair.split("-")
        borders.add((a, b))
        lanes[(a, b)] = lane(shapes, a, b, width=WIDTH)
    ids, territories, continents = {}, [], []
    for code in member:
        en, names = EXTRA[code] if code in EXTRA else cldr_names(code)
        ids[code] = slug(en)
    for group, (region, translated, codes) in GROUPS.items():
        if translated:
            continents.append((group, region, {"cs": translated[0], "pl": translated[1]}))
        else:
            continents.append((group, *cldr_names(region)))
        for code in codes.split():
            en, names = EXTRA[code] if code in EXTRA else cldr_names(code)
            territories.append((ids[code], en, names, group))
    rename = ids.__getitem__
    data = map_file(
        "world", "World", {"cs": "Svět", "pl": "Świat"}, territories, continents,
        {(rename(a), rename(b)) for a, b in borders},
        {rename(t): s for t, s in shapes.items()}, {rename(t): p for t, p in labels.items()},
        {(rename(a), rename(b)): d for (a, b), d in lanes.items()}, WIDTH, HEIGHT)
    print(f"world: enlarged {sorted(map(rename, enlarged))}", file=sys.stderr)
    return data
