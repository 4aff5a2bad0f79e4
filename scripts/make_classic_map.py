"""Write engine/maps/classic.json from the classic board's constants (run once; the
map file is the source from then on, and tests/engine/test_maps.py keeps the two equal).

    .venv/bin/python scripts/make_classic_map.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import board  # noqa: E402
from engine.maps import FOLDER, FORMAT, archive, build  # noqa: E402

CONTINENT_NAMES = {
    "north_america": "North America", "south_america": "South America", "europe": "Europe",
    "africa": "Africa", "asia": "Asia", "australia": "Australia",
}
MISSIONS = [
    {"id": "north_america_africa", "kind": "conquer", "continents": ["north_america", "africa"],
     "extra": 0},
    {"id": "north_america_australia", "kind": "conquer",
     "continents": ["north_america", "australia"], "extra": 0},
    {"id": "asia_south_america", "kind": "conquer", "continents": ["asia", "south_america"],
     "extra": 0},
    {"id": "asia_africa", "kind": "conquer", "continents": ["asia", "africa"], "extra": 0},
    {"id": "europe_south_america_plus_one", "kind": "conquer",
     "continents": ["europe", "south_america"], "extra": 1},
    {"id": "europe_australia_plus_one", "kind": "conquer",
     "continents": ["europe", "australia"], "extra": 1},
    {"id": "occupy_18_with_2", "kind": "occupy", "territories": 18, "armies": 2},
    {"id": "occupy_24", "kind": "occupy", "territories": 24, "armies": 1},
    # One card per colour in play: destroy_<colour>, falling back to occupy_24.
    {"id": "destroy", "kind": "destroy", "fallback": "occupy_24"},
]


def classic_data() -> dict:
    return {
        "format": FORMAT,
        "id": "classic",
        "name": "Classic",
        "territories": [
            {"id": t, "name": board.territory_name(t), "continent": board.CONTINENT_OF[t]}
            for t in board.TERRITORIES
        ],
        "continents": [
            {"id": c, "name": CONTINENT_NAMES[c], "bonus": bonus, "territories": list(ts)}
            for c, (bonus, ts) in board.CONTINENTS.items()
        ],
        "borders": [list(pair) for pair in board.BORDERS],
        "deck": {"cards": [{"territory": t, "symbol": s} for t, s in board.CARDS]},
        "starting_armies": {str(k): v for k, v in board.STARTING_ARMIES.items()},
        "missions": MISSIONS,
        # Drawn by web/board_layout.py (scripts/make_board_layout.py).
        "drawing": {"layout": "classic"},
    }


if __name__ == "__main__":
    data = classic_data()
    built = build(data)
    (FOLDER / "classic.json").write_text(
        json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    archive(built)
    print(built.hash)
