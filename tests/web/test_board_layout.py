"""The drawn board: a shape and a label for every territory, every border drawn."""

from __future__ import annotations

import re

from engine.board import BORDERS, TERRITORIES
from web import board_layout as layout


def test_it_has_a_shape_and_a_label_inside_the_map_for_each_territory():
    assert set(layout.SHAPES) == set(TERRITORIES) == set(layout.LABELS)
    for territory, (x, y) in layout.LABELS.items():
        assert 0 <= x <= layout.WIDTH and 0 <= y <= layout.HEIGHT, territory
        assert layout.SHAPES[territory].startswith("M")


def test_it_draws_every_border_once_as_a_coast_or_a_sea_lane():
    drawn = set(layout.LAND_BORDERS) | set(layout.SEA_LANES)

    assert drawn == set(BORDERS) and len(drawn) == 83
    assert not set(layout.LAND_BORDERS) & set(layout.SEA_LANES)


def test_it_draws_alaska_kamchatka_across_the_edge_of_the_map():
    lane = layout.SEA_LANES[("alaska", "kamchatka")]
    ends = [float(re.findall(r"L(-?[\d.]+)", piece)[0]) for piece in lane]

    assert sorted(ends) == [0, layout.WIDTH]


def test_it_places_territories_where_they_are_on_the_world():
    x = {t: layout.LABELS[t][0] for t in TERRITORIES}
    y = {t: layout.LABELS[t][1] for t in TERRITORIES}

    assert x["alaska"] < x["ontario"] < x["greenland"] < x["iceland"] < x["ukraine"]
    assert x["ukraine"] < x["ural"] < x["siberia"] < x["yakutsk"] < x["kamchatka"]
    assert y["greenland"] < y["eastern_united_states"] < y["venezuela"] < y["argentina"]
    assert y["scandinavia"] < y["southern_europe"] < y["egypt"] < y["congo"] < y["south_africa"]
    assert y["siam"] < y["indonesia"] < y["western_australia"]
