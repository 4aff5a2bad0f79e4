"""The `islands` map for scripts/make_maps.py: a small hand-designed board for quick games
(two to four players): four islands of three territories each, joined in a ring of sea
lanes with one lane across the middle. Each island is a smooth blob cut into its
territories by the Voronoi cells of one seed point per territory."""

from __future__ import annotations

import math

from mapgen import circle, label_point, lane, map_file
from shapely import geometry, ops

WIDTH, HEIGHT = 1000, 640

# island -> (en, cs, pl, centre, radius, wobble: [(harmonic, size, phase)])
ISLANDS = {
    "west": ("Western Isle", "Západní ostrov", "Wyspa Zachodnia", (215, 300), 150,
             [(2, 0.16, 0.3), (3, 0.08, 1.9), (5, 0.04, 0.7)]),
    "north": ("Northern Isle", "Severní ostrov", "Wyspa Północna", (530, 160), 140,
              [(2, 0.22, 1.2), (3, 0.07, 0.4), (4, 0.05, 2.6)]),
    "east": ("Eastern Isle", "Východní ostrov", "Wyspa Wschodnia", (820, 340), 135,
             [(2, 0.15, 2.2), (3, 0.10, 0.1), (5, 0.05, 1.1)]),
    "south": ("Southern Isle", "Jižní ostrov", "Wyspa Południowa", (500, 495), 135,
              [(2, 0.20, 0.0), (3, 0.06, 2.4), (4, 0.05, 1.5)]),
}
# territory -> (en, cs, pl, island, seed point)
TERRITORIES = {
    "harbour": ("Harbour", "Přístav", "Port", "west", (230, 400)),
    "lighthouse": ("Lighthouse", "Maják", "Latarnia", "west", (285, 230)),
    "pine_ridge": ("Pine Ridge", "Borový hřbet", "Sosnowy Grzbiet", "west", (130, 270)),
    "glacier": ("Glacier", "Ledovec", "Lodowiec", "north", (430, 130)),
    "fjord": ("Fjord", "Fjord", "Fiord", "north", (630, 130)),
    "highlands": ("Highlands", "Vysočina", "Wyżyna", "north", (530, 230)),
    "volcano": ("Volcano", "Sopka", "Wulkan", "east", (810, 250)),
    "lagoon": ("Lagoon", "Laguna", "Laguna", "east", (900, 380)),
    "cliffs": ("Cliffs", "Útesy", "Klify", "east", (760, 410)),
    "marsh": ("Marsh", "Močál", "Bagna", "south", (500, 420)),
    "dunes": ("Dunes", "Duny", "Wydmy", "south", (410, 540)),
    "reef": ("Reef", "Korálový útes", "Rafa", "south", (600, 540)),
}
SEA_LANES = [("lighthouse", "glacier"), ("fjord", "volcano"), ("cliffs", "reef"),
             ("dunes", "harbour"), ("highlands", "marsh")]


def blob(centre, radius, wobble, steps=120):
    x0, y0 = centre
    points = []
    for i in range(steps):
        a = 2 * math.pi * i / steps
        r = radius * (1 + sum(size * math.sin(k * a + phase) for k, size, phase in wobble))
        points.append((x0 + r * math.cos(a), y0 + 0.8 * r * math.sin(a)))
    return geometry.Polygon(points)


def islands_map() -> dict:
    seeds = geometry.MultiPoint([seed for *_, seed in TERRITORIES.values()])
    cells = ops.voronoi_diagram(seeds, envelope=geometry.box(-100, -100, WIDTH + 100,
                                                             HEIGHT + 100))
    shapes = {}
    for t, (*_, island, seed) in TERRITORIES.items():
        cell = next(c for c in cells.geoms if c.contains(geometry.Point(seed)))
        en, cs, pl, centre, radius, wobble = ISLANDS[island]
        shapes[t] = cell.intersection(blob(centre, radius, wobble)).simplify(0.3)
    borders = {(a, b) for a in shapes for b in shapes if a < b
               and TERRITORIES[a][3] == TERRITORIES[b][3]
               and shapes[a].intersection(shapes[b]).length > 5}
    borders.update(SEA_LANES)
    labels = {t: label_point(s) for t, s in shapes.items()}
    lanes = {pair: lane(shapes, *pair) for pair in SEA_LANES}
    territories = [(t, en, {"cs": cs, "pl": pl}, island)
                   for t, (en, cs, pl, island, _) in TERRITORIES.items()]
    continents = [(i, en, {"cs": cs, "pl": pl}) for i, (en, cs, pl, *_) in ISLANDS.items()]
    assert all(circle(*labels[t], 9).within(shapes[t].buffer(1)) for t in shapes)
    return map_file("islands", "Four Isles", {"cs": "Čtyři ostrovy", "pl": "Cztery wyspy"},
                    territories, continents, borders, shapes, labels, lanes, WIDTH, HEIGHT,
                    players=range(2, 5))
