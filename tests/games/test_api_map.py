"""GET /api/v1/maps/classic/: exactly the board of CONTRACT.md."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.games.api_support import API, assert_error

URL = f"{API}/maps/classic/"

# CONTRACT.md "The classic board", copied here so the test checks the API against the
# contract rather than against the code that makes the answer.
CONTINENTS = {
    "north_america": (5, "alaska northwest_territory greenland alberta ontario quebec "
                         "western_united_states eastern_united_states central_america"),
    "south_america": (2, "venezuela peru brazil argentina"),
    "europe": (5, "iceland scandinavia great_britain northern_europe western_europe "
                  "southern_europe ukraine"),
    "africa": (3, "north_africa egypt east_africa congo south_africa madagascar"),
    "asia": (7, "ural siberia yakutsk kamchatka irkutsk mongolia japan afghanistan china "
                "middle_east india siam"),
    "australia": (2, "indonesia new_guinea western_australia eastern_australia"),
}
BORDERS = """
alaska: northwest_territory alberta kamchatka
northwest_territory: alberta ontario greenland
greenland: ontario quebec iceland
alberta: ontario western_united_states
ontario: western_united_states eastern_united_states quebec
quebec: eastern_united_states
western_united_states: eastern_united_states central_america
eastern_united_states: central_america
central_america: venezuela
venezuela: peru brazil
peru: brazil argentina
brazil: argentina north_africa
iceland: great_britain scandinavia
scandinavia: great_britain northern_europe ukraine
great_britain: northern_europe western_europe
northern_europe: ukraine southern_europe western_europe
western_europe: southern_europe north_africa
southern_europe: ukraine middle_east egypt north_africa
ukraine: ural afghanistan middle_east
north_africa: egypt east_africa congo
egypt: middle_east east_africa
east_africa: congo south_africa madagascar middle_east
congo: south_africa
south_africa: madagascar
ural: siberia china afghanistan
siberia: yakutsk irkutsk mongolia china
yakutsk: irkutsk kamchatka
kamchatka: irkutsk mongolia japan
irkutsk: mongolia
mongolia: china japan
afghanistan: china india middle_east
china: siam india
middle_east: india
india: siam
siam: indonesia
indonesia: new_guinea western_australia
new_guinea: western_australia eastern_australia
western_australia: eastern_australia
"""
CONTRACT_BORDERS = {
    frozenset((a, b))
    for line in BORDERS.strip().splitlines()
    for a, rest in [line.split(":")]
    for b in rest.split()
}


@pytest.fixture
def board(db):
    answer = APIClient().get(URL)
    assert answer.status_code == 200, answer.content
    return answer.json()


def test_it_answers_territories_continents_and_borders(board):
    assert {"territories", "continents", "borders"} <= set(board)
    for territory in board["territories"]:
        assert {"id", "name", "continent"} <= set(territory)
    for continent in board["continents"]:
        assert {"id", "name", "bonus", "territories"} <= set(continent)


def test_it_lists_exactly_the_42_territories_each_in_its_continent(board):
    expected = {t: c for c, (_, ts) in CONTINENTS.items() for t in ts.split()}
    assert len(expected) == 42
    listed = {t["id"]: t["continent"] for t in board["territories"]}
    assert len(board["territories"]) == 42
    assert listed == expected


def test_it_names_every_territory_and_continent_in_words(board):
    for item in board["territories"] + board["continents"]:
        assert isinstance(item["name"], str) and item["name"].strip()
        assert "_" not in item["name"]
    names = {t["id"]: t["name"] for t in board["territories"]}
    assert names["western_united_states"] == "Western United States"


def test_it_lists_the_six_continents_with_their_bonuses_and_territories(board):
    listed = {c["id"]: (c["bonus"], sorted(c["territories"])) for c in board["continents"]}
    assert listed == {c: (bonus, sorted(ts.split())) for c, (bonus, ts) in CONTINENTS.items()}


def test_it_lists_the_83_borders_once_each(board):
    borders = board["borders"]
    assert all(isinstance(pair, list) and len(pair) == 2 for pair in borders)
    pairs = [frozenset(pair) for pair in borders]
    assert len(pairs) == len(set(pairs)) == 83
    assert set(pairs) == CONTRACT_BORDERS


def test_it_is_the_same_for_a_signed_in_player(alice, board):
    assert alice.get(URL).json() == board


def test_it_answers_404_json_for_another_map(db):
    assert_error(APIClient().get(f"{API}/maps/mars/"), 404, "not_found")
