"""The classic board and deck of docs/players/rules.md and docs/players/maps.md, as data."""

from __future__ import annotations

import re
from collections import Counter, deque

import pytest

from engine.board import (
    BORDERS,
    CARDS,
    COLORS,
    CONTINENT_BONUS,
    CONTINENT_OF,
    CONTINENTS,
    NEIGHBOURS,
    STARTING_ARMIES,
    TERRITORIES,
    adjacent,
    territory_name,
)
from tests import contract


def test_it_has_the_42_territories_of_the_contract_in_their_continents():
    assert {c: (bonus, " ".join(ts)) for c, (bonus, ts) in CONTINENTS.items()} == (
        contract.CONTINENTS)
    assert len(TERRITORIES) == len(set(TERRITORIES)) == 42


@pytest.mark.parametrize("continent, bonus, size", [
    ("asia", 7, 12), ("north_america", 5, 9), ("europe", 5, 7), ("africa", 3, 6),
    ("south_america", 2, 4), ("australia", 2, 4),
])
def test_it_gives_each_continent_its_bonus_and_size(continent, bonus, size):
    assert CONTINENT_BONUS[continent] == bonus
    assert sum(1 for t in TERRITORIES if CONTINENT_OF[t] == continent) == size


def test_it_names_territories_in_snake_case():
    assert all(re.fullmatch(r"[a-z]+(_[a-z]+)*", t) for t in TERRITORIES)
    assert territory_name("western_united_states") == "Western United States"
    assert territory_name("new_guinea") == "New Guinea"


def test_it_has_exactly_the_83_borders_of_the_contract():
    borders = {frozenset(pair) for pair in BORDERS}

    assert len(contract.BORDERS) == 83
    assert borders == contract.BORDERS
    assert {frozenset((a, b)) for a in TERRITORIES for b in NEIGHBOURS[a]} == borders


def test_it_makes_every_border_work_both_ways():
    for territory in TERRITORIES:
        assert territory not in NEIGHBOURS[territory]
        for neighbour in NEIGHBOURS[territory]:
            assert territory in NEIGHBOURS[neighbour]
            assert adjacent(territory, neighbour) and adjacent(neighbour, territory)


@pytest.mark.parametrize("a, b", [
    ("alaska", "kamchatka"), ("brazil", "north_africa"), ("greenland", "iceland"),
    ("siam", "indonesia"), ("east_africa", "middle_east"), ("southern_europe", "egypt"),
    ("western_europe", "north_africa"),
])
def test_it_joins_the_sea_lanes(a, b):
    assert adjacent(a, b) and adjacent(b, a)


@pytest.mark.parametrize("a, b", [
    ("alaska", "greenland"), ("brazil", "egypt"), ("japan", "alaska"), ("ukraine", "china"),
    ("madagascar", "congo"), ("indonesia", "india"),
])
def test_it_keeps_apart_what_does_not_border(a, b):
    assert not adjacent(a, b)


def test_it_joins_every_territory_into_one_world():
    seen, queue = {"alaska"}, deque(["alaska"])
    while queue:
        for neighbour in NEIGHBOURS[queue.popleft()]:
            if neighbour not in seen:
                seen.add(neighbour)
                queue.append(neighbour)
    assert seen == set(TERRITORIES)


def test_it_has_a_deck_of_44_cards_one_per_territory_and_two_wilds():
    symbols = Counter(symbol for _, symbol in CARDS)

    assert len(CARDS) == 44
    assert symbols == {"infantry": 14, "cavalry": 14, "artillery": 14, "wild": 2}
    assert sorted(t for t, _ in CARDS if t) == sorted(TERRITORIES)
    assert [t for t, s in CARDS if s == "wild"] == [None, None]


def test_it_seats_colours_in_joining_order():
    assert COLORS == ("red", "blue", "green", "yellow", "black", "white")


@pytest.mark.parametrize("players, armies", [(2, 40), (3, 35), (4, 30), (5, 25), (6, 20)])
def test_it_gives_starting_armies_by_player_count(players, armies):
    assert STARTING_ARMIES[players] == armies
