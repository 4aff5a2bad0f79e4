"""GET /api/v1/maps/classic/: exactly the board of docs/players/maps.md."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests import contract
from tests.games.api_support import API, assert_error

URL = f"{API}/maps/classic/"

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
    expected = {t: c for c, (_, ts) in contract.CONTINENTS.items() for t in ts.split()}
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
    assert listed == {c: (bonus, sorted(ts.split())) for c, (bonus, ts) in contract.CONTINENTS.items()}


def test_it_lists_the_83_borders_once_each(board):
    borders = board["borders"]
    assert all(isinstance(pair, list) and len(pair) == 2 for pair in borders)
    pairs = [frozenset(pair) for pair in borders]
    assert len(pairs) == len(set(pairs)) == 83
    assert set(pairs) == contract.BORDERS


def test_it_is_the_same_for_a_signed_in_player(alice, board):
    assert alice.get(URL).json() == board


def test_it_answers_404_json_for_another_map(db):
    assert_error(APIClient().get(f"{API}/maps/mars/"), 404, "not_found")
