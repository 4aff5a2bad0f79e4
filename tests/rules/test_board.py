"""The classic board and deck of RULES.md and CONTRACT.md, as data."""

from __future__ import annotations

import re
from collections import Counter, deque

import pytest

from games.rules import CARDS, CONTINENTS, NEIGHBOURS, TERRITORIES
from games.rules.board import (
    BORDERS,
    COLORS,
    CONTINENT_BONUS,
    CONTINENT_OF,
    STARTING_ARMIES,
    adjacent,
    territory_name,
)

# CONTRACT.md's lists, copied here so that a change to the board breaks a test.
CONTRACT_CONTINENTS = {
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

CONTRACT_BORDERS = """
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


def contract_borders() -> set[frozenset[str]]:
    return {
        frozenset((line.split(":")[0], other))
        for line in CONTRACT_BORDERS.strip().splitlines()
        for other in line.split(":")[1].split()
    }


def test_it_has_the_42_territories_of_the_contract_in_their_continents():
    assert {c: (bonus, " ".join(ts)) for c, (bonus, ts) in CONTINENTS.items()} == (
        CONTRACT_CONTINENTS)
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

    assert len(contract_borders()) == 83
    assert borders == contract_borders()
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
