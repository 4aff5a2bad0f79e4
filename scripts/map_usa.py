"""The `usa` map for scripts/make_maps.py: the 50 states (US Census cartographic boundaries
of us-atlas, already in Albers USA with Alaska and Hawaii as insets), grouped by the nine
census divisions; the District of Columbia is part of Maryland."""

from __future__ import annotations

import sys

from mapgen import (
    Atlas,
    edge_points,
    enlarge,
    fmt,
    label_point,
    lane,
    map_file,
    polygons,
    slug,
    spread,
)

SCALE = 1.35
LEFT, TOP = 58.0, -4.0  # the file's frame starts left of 0 (Alaska's Aleutians)
WIDTH, HEIGHT = round((958 + LEFT) * SCALE), round((607 + TOP) * SCALE)

# division -> (en, cs, pl, states)
DIVISIONS = {
    "new_england": ("New England", "Nová Anglie", "Nowa Anglia", "ME NH VT MA RI CT"),
    "middle_atlantic": ("Middle Atlantic", "Středoatlantské státy",
                        "Stany środkowoatlantyckie", "NY NJ PA"),
    "east_north_central": ("East North Central", "Východní Středozápad",
                           "Wschodni Środkowy Zachód", "OH IN IL MI WI"),
    "west_north_central": ("West North Central", "Západní Středozápad",
                           "Zachodni Środkowy Zachód", "MN IA MO ND SD NE KS"),
    "south_atlantic": ("South Atlantic", "Jižní Atlantik", "Południowy Atlantyk",
                       "DE MD VA WV NC SC GA FL"),
    "east_south_central": ("East South Central", "Východní centrální Jih",
                           "Wschodnie Południe Środkowe", "KY TN MS AL"),
    "west_south_central": ("West South Central", "Západní centrální Jih",
                           "Zachodnie Południe Środkowe", "AR LA OK TX"),
    "mountain": ("Mountain", "Horské státy", "Stany górskie", "MT ID WY CO NM AZ UT NV"),
    "pacific": ("Pacific", "Pacifické státy", "Stany pacyficzne", "WA OR CA AK HI"),
}
# code: English | Czech | Polish (the file's FIPS names are English)
STATES = """
AL Alabama|Alabama|Alabama; AK Alaska|Aljaška|Alaska; AZ Arizona|Arizona|Arizona;
AR Arkansas|Arkansas|Arkansas; CA California|Kalifornie|Kalifornia;
CO Colorado|Colorado|Kolorado; CT Connecticut|Connecticut|Connecticut;
DE Delaware|Delaware|Delaware; FL Florida|Florida|Floryda; GA Georgia|Georgie|Georgia;
HI Hawaii|Havaj|Hawaje; ID Idaho|Idaho|Idaho; IL Illinois|Illinois|Illinois;
IN Indiana|Indiana|Indiana; IA Iowa|Iowa|Iowa; KS Kansas|Kansas|Kansas;
KY Kentucky|Kentucky|Kentucky; LA Louisiana|Louisiana|Luizjana; ME Maine|Maine|Maine;
MD Maryland|Maryland|Maryland; MA Massachusetts|Massachusetts|Massachusetts;
MI Michigan|Michigan|Michigan; MN Minnesota|Minnesota|Minnesota;
MS Mississippi|Mississippi|Missisipi; MO Missouri|Missouri|Missouri;
MT Montana|Montana|Montana; NE Nebraska|Nebraska|Nebraska; NV Nevada|Nevada|Nevada;
NH New Hampshire|New Hampshire|New Hampshire; NJ New Jersey|New Jersey|New Jersey;
NM New Mexico|Nové Mexiko|Nowy Meksyk; NY New York|New York|Nowy Jork;
NC North Carolina|Severní Karolína|Karolina Północna;
ND North Dakota|Severní Dakota|Dakota Północna; OH Ohio|Ohio|Ohio;
OK Oklahoma|Oklahoma|Oklahoma; OR Oregon|Oregon|Oregon;
PA Pennsylvania|Pensylvánie|Pensylwania; RI Rhode Island|Rhode Island|Rhode Island;
SC South Carolina|Jižní Karolína|Karolina Południowa;
SD South Dakota|Jižní Dakota|Dakota Południowa; TN Tennessee|Tennessee|Tennessee;
TX Texas|Texas|Teksas; UT Utah|Utah|Utah; VT Vermont|Vermont|Vermont;
VA Virginia|Virginie|Wirginia; WA Washington|Washington|Waszyngton;
WV West Virginia|Západní Virginie|Wirginia Zachodnia; WI Wisconsin|Wisconsin|Wisconsin;
WY Wyoming|Wyoming|Wyoming
"""
SEA_LANES = "AK-WA AK-HI HI-CA"


def _states():
    out = {}
    for item in STATES.replace("\n", " ").split(";"):
        code, names = item.strip().split(" ", 1)
        en, cs, pl = names.split("|")
        out[code] = (en, {"cs": cs, "pl": pl})
    return out


def project(x, y):
    return (x + LEFT) * SCALE, (y + TOP) * SCALE


def _alaska_lane(shapes) -> list[str]:
    """Alaska's inset sits below California: its lane to Washington runs up the Pacific,
    off the west coast, not across the states."""
    x = min(shapes["CA"].bounds[0], shapes["WA"].bounds[0]) - 14
    start = min(edge_points(shapes["AK"]), key=lambda p: p[1])
    end = min(edge_points(shapes["WA"]), key=lambda p: p[0])
    points = [start, (x, start[1] - 20), (x, end[1] + 10), end]
    return ["M" + " ".join(f"{fmt(px)} {fmt(py)}" for px, py in points)]


def usa_map(path) -> dict:
    states = _states()
    by_name = {en: code for code, (en, _) in states.items()}
    member = {code: div for div, (*_, codes) in DIVISIONS.items() for code in codes.split()}

    def assign(object_id, name, shells):
        code = by_name.get(name) or ("MD" if name == "District of Columbia" else None)
        return [code] * len(shells)

    atlas = Atlas(str(path), "states", assign, project, tolerance=0.3, min_part=1.0)
    shapes = dict(atlas.shapes)
    assert set(shapes) == set(member), set(member) ^ set(shapes)
    labels = {t: label_point(s) for t, s in shapes.items()}
    spread(labels, gap=19.0)
    enlarged = enlarge(shapes, labels, radius=10.0)
    borders = set(atlas.land_pairs())
    lanes = {}
    for pair in SEA_LANES.split():
        a, b = pair.split("-")
        borders.add((a, b))
        if {a, b} == {"AK", "WA"}:
            lanes[(a, b)] = _alaska_lane(shapes)
        elif {a, b} == {"HI", "CA"}:  # from the Big Island, apart from Alaska's lane at Kauai
            big = max(polygons(shapes["HI"]), key=lambda p: p.area)
            lanes[(a, b)] = lane({"HI": big, "CA": shapes["CA"]}, a, b)
        else:
            lanes[(a, b)] = lane(shapes, a, b)
    ids = {code: slug(states[code][0]) for code in member}
    territories, continents = [], []
    for div, (en, cs, pl, codes) in DIVISIONS.items():
        continents.append((div, en, {"cs": cs, "pl": pl}))
        for code in codes.split():
            territories.append((ids[code], *states[code], div))
    rename = ids.__getitem__
    print(f"usa: enlarged {sorted(map(rename, enlarged))}", file=sys.stderr)
    return map_file(
        "usa", "United States", {"cs": "Spojené státy", "pl": "Stany Zjednoczone"},
        territories, continents, {(rename(a), rename(b)) for a, b in borders},
        {rename(t): s for t, s in shapes.items()}, {rename(t): p for t, p in labels.items()},
        {(rename(a), rename(b)): d for (a, b), d in lanes.items()}, WIDTH, HEIGHT)

