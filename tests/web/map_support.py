"""A small map for the web's tests: ten rectangular islands in three continents, with names
in Czech and Polish, its own missions and an inline drawing (docs/players/maps.md), offered beside
the shipped maps for as long as a test runs (the `islands` fixture of conftest.py)."""

from __future__ import annotations

from engine import maps

MAP_ID = "test_islands"


def _box(x1, y1, x2, y2) -> str:
    return f"M{x1} {y1}H{x2}V{y2}H{x1}Z"


BOXES = {
    "northcape": (20, 20, 140, 120), "fjord": (140, 20, 260, 120),
    "moor": (20, 120, 140, 220), "heath": (140, 120, 260, 220),
    "lagoon": (20, 280, 140, 380), "reef": (140, 280, 260, 380), "atoll": (260, 280, 380, 380),
    "dune": (340, 20, 460, 120), "oasis": (460, 20, 580, 120), "mesa": (400, 120, 520, 220),
}
NAMES = {  # en, cs, pl
    "northcape": ("North Cape", "Severní mys", "Przylądek Północny"),
    "fjord": ("Fjord", "Fjord", "Fiord"), "moor": ("Moor", "Slatiniště", "Wrzosowisko"),
    "heath": ("Heath", "Vřesoviště", "Wrzos"), "lagoon": ("Lagoon", "Laguna", "Laguna"),
    "reef": ("Reef", "Útes", "Rafa"), "atoll": ("Atoll", "Atol", "Atol"),
    "dune": ("Dune", "Duna", "Wydma"), "oasis": ("Oasis", "Oáza", "Oaza"),
    "mesa": ("Mesa", "Stolová hora", "Płaskowyż"),
}
CONTINENTS = {
    "north": ((3, ["northcape", "fjord", "moor", "heath"]), ("The North", "Sever", "Północ")),
    "south": ((2, ["lagoon", "reef", "atoll"]), ("The South", "Jih", "Południe")),
    "east": ((2, ["dune", "oasis", "mesa"]), ("The East", "Východ", "Wschód")),
}
LAND = [("northcape", "fjord", "M140 20V120"), ("northcape", "moor", "M20 120H140"),
        ("fjord", "heath", "M140 120H260"), ("moor", "heath", "M140 120V220"),
        ("lagoon", "reef", "M140 280V380"), ("reef", "atoll", "M260 280V380"),
        ("dune", "oasis", "M460 20V120"), ("dune", "mesa", "M400 120H460"),
        ("oasis", "mesa", "M460 120H520")]
SEA = [("moor", "lagoon", ["M80 220V280"]), ("heath", "reef", ["M200 220V280"]),
       ("atoll", "mesa", ["M320 280L460 220"])]
UNDRAWN = [("fjord", "dune")]  # drawn as a straight lane between the labels


def islands_data() -> dict:
    def named(key, en, cs, pl, **rest):
        return {"id": key, "name": en, "names": {"cs": cs, "pl": pl}, **rest}

    return {
        "format": 1, "id": MAP_ID, "name": "Test Islands",
        "names": {"cs": "Testovací ostrovy", "pl": "Wyspy testowe"},
        "territories": [named(t, *NAMES[t], continent=c)
                        for c, ((_, ts), _) in CONTINENTS.items() for t in ts],
        "continents": [named(c, *words, bonus=bonus, territories=ts)
                       for c, ((bonus, ts), words) in CONTINENTS.items()],
        "borders": [[a, b] for a, b, _ in LAND] + [[a, b] for a, b, _ in SEA]
        + [list(pair) for pair in UNDRAWN],
        "starting_armies": {"2": 20, "3": 15, "4": 12},
        "missions": [
            {"id": "north_south", "kind": "conquer", "continents": ["north", "south"],
             "extra": 0},
            {"id": "east_plus_one", "kind": "conquer", "continents": ["east"], "extra": 1},
            {"id": "occupy_7", "kind": "occupy", "territories": 7, "armies": 2},
            {"id": "destroy", "kind": "destroy", "fallback": "occupy_7"},
        ],
        "drawing": {
            "width": 600, "height": 400,
            "shapes": {t: _box(*box) for t, box in BOXES.items()},
            "labels": {t: [(x1 + x2) / 2, (y1 + y2) / 2] for t, (x1, y1, x2, y2) in BOXES.items()},
            "land_borders": [list(b) for b in LAND],
            "sea_lanes": [list(b) for b in SEA],
            "continent_outlines": {"north": _box(16, 16, 264, 224),
                                   "south": _box(16, 276, 384, 384),
                                   "east": "M336 16H584V124H524V224H396V124H336Z"},
        },
    }


def install(monkeypatch) -> maps.Board:
    """Offer the test map beside the shipped ones (engine.maps finds it by id and by
    its hash) until the test ends."""
    board = maps.remember(maps.build(islands_data()))
    shipped_ids, shipped = maps.shipped_ids, maps._shipped
    monkeypatch.setattr(maps, "shipped_ids", lambda: (*shipped_ids(), MAP_ID))
    monkeypatch.setattr(maps, "_shipped",
                        lambda map_id: board if map_id == MAP_ID else shipped(map_id))
    return board
