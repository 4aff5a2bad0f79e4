"""The drawn classic board (its layout, engine/maps/layouts/classic.json): a shape and a
label for every territory, every border drawn."""

from __future__ import annotations

import re

from engine.board import BORDERS, TERRITORIES
from engine.maps import classic
from web.drawing import drawing_of

layout = drawing_of(classic())


def test_it_has_a_shape_and_a_label_inside_the_map_for_each_territory():
    assert set(layout.shapes) == set(TERRITORIES) == set(layout.labels)
    for territory, (x, y) in layout.labels.items():
        assert 0 <= x <= layout.width and 0 <= y <= layout.height, territory
        assert layout.shapes[territory].startswith("M")


def test_it_draws_every_border_once_as_a_coast_or_a_sea_lane():
    drawn = set(layout.land) | set(layout.sea)

    assert drawn == set(BORDERS) and len(drawn) == 83
    assert not set(layout.land) & set(layout.sea)


def test_it_draws_alaska_kamchatka_across_the_edge_of_the_map():
    lane = layout.sea[("alaska", "kamchatka")]
    ends = [float(re.findall(r"L(-?[\d.]+)", piece)[0]) for piece in lane]

    assert sorted(ends) == [0, layout.width]


def test_it_places_territories_where_they_are_on_the_world():
    x = {t: layout.labels[t][0] for t in TERRITORIES}
    y = {t: layout.labels[t][1] for t in TERRITORIES}

    assert x["alaska"] < x["ontario"] < x["greenland"] < x["iceland"] < x["ukraine"]
    assert x["ukraine"] < x["ural"] < x["siberia"] < x["yakutsk"] < x["kamchatka"]
    assert y["greenland"] < y["eastern_united_states"] < y["venezuela"] < y["argentina"]
    assert y["scandinavia"] < y["southern_europe"] < y["egypt"] < y["congo"] < y["south_africa"]
    assert y["siam"] < y["indonesia"] < y["western_australia"]
