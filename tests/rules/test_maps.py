"""Maps as data: the classic map file equals the classic board, versions are kept by hash,
and the validator names each fault of a bad map."""

from __future__ import annotations

import copy
import json

import pytest

from games.rules import board, maps
from games.rules.maps import MapError, build, validate_map

MISSION_IDS = (
    "north_america_africa", "north_america_australia", "asia_south_america", "asia_africa",
    "europe_south_america_plus_one", "europe_australia_plus_one", "occupy_18_with_2",
    "occupy_24",
)


def classic_data() -> dict:
    return json.loads((maps.FOLDER / "classic.json").read_text(encoding="utf-8"))


def test_it_equals_the_classic_constants():
    classic = maps.classic()
    assert classic.territories == board.TERRITORIES
    assert classic.continents == board.CONTINENTS
    assert classic.continent_of == board.CONTINENT_OF
    assert classic.continent_bonus == board.CONTINENT_BONUS
    assert classic.borders == board.BORDERS
    assert classic.neighbours == board.NEIGHBOURS
    assert classic.cards == board.CARDS
    assert classic.card_ids == board.CARD_IDS
    assert classic.territory_card_ids == board.TERRITORY_CARD_IDS
    assert classic.starting_armies == board.STARTING_ARMIES
    assert all(classic.territory_name(t) == board.territory_name(t) for t in board.TERRITORIES)
    assert classic.territory_name("north_america") == "North America"
    ids = [m["id"] for m in classic.missions]
    assert ids == [*MISSION_IDS, "destroy"]
    assert (classic.min_players, classic.max_players) == (2, 6)


def test_it_keeps_the_classic_version_games_started_on_by_hash():
    classic = maps.classic()
    assert classic.hash == maps.content_hash(classic_data())
    # Games without a recorded map played this version; it must stay kept.
    kept = maps.board_by_hash(maps.CLASSIC_FIRST_HASH)
    assert kept.territories == board.TERRITORIES
    path = maps.VERSIONS / f"{maps.CLASSIC_FIRST_HASH}.json"
    assert maps.content_hash(json.loads(path.read_bytes())) == maps.CLASSIC_FIRST_HASH


def test_every_shipped_map_version_is_kept():
    """Changing a map file without keeping the new version would lose a game's board:
    run maps.archive(board) (scripts/make_classic_map.py does it for classic)."""
    for shipped in maps.shipped_boards():
        assert (maps.VERSIONS / f"{shipped.hash}.json").is_file(), shipped.id


def test_it_caches_a_board_by_hash():
    assert maps.board_by_hash(maps.classic().hash) is maps.classic()
    with pytest.raises(LookupError):
        maps.board_by_hash("0" * 64)


def test_it_refuses_an_unknown_map():
    with pytest.raises(maps.UnknownMap, match="no map 'atlantis'"):
        maps.shipped("atlantis")


def test_the_default_deck_spreads_symbols_and_adds_two_wilds():
    data = classic_data()
    del data["deck"]
    cards = build(data).cards
    assert len(cards) == 44 and cards[-2:] == ((None, "wild"), (None, "wild"))
    for symbol in ("infantry", "cavalry", "artillery"):
        assert sum(1 for _, s in cards if s == symbol) == 14


def faults_of(change) -> list[str]:
    data = classic_data()
    change(data)
    with pytest.raises(MapError) as caught:
        validate_map(data)
    return caught.value.faults


def test_the_classic_map_is_valid():
    validate_map(classic_data())


@pytest.mark.parametrize("change, fault", [
    (lambda d: d["borders"].append(["alaska", "atlantis"]),
     "border 'alaska'-'atlantis' names unknown territory 'atlantis'"),
    (lambda d: d["borders"].append(["peru", "peru"]), "border from 'peru' to itself"),
    (lambda d: d["continents"][0]["territories"].remove("alaska"),
     "territory 'alaska' is in no continent"),
    (lambda d: d["continents"][1]["territories"].append("alaska"),
     "territory 'alaska' is in two continents: 'north_america' and 'south_america'"),
    (lambda d: d.update(borders=[b for b in d["borders"] if "madagascar" not in b]),
     "the board is disconnected: 'madagascar' cannot be reached from 'alaska'"),
    (lambda d: d["continents"].append({"id": "atlantis", "name": "Atlantis", "bonus": 1,
                                       "territories": []}),
     "continent 'atlantis' has no territories"),
    (lambda d: d["starting_armies"].update({"6": 6}),
     "starting armies for 6 players (6) are too few for 7 territories each"),
    (lambda d: d["territories"].append(dict(d["territories"][0])),
     "duplicate territory id 'alaska'"),
    (lambda d: d["territories"][3].update(name=""), "territory 'alberta' has no name"),
    (lambda d: d["continents"][0].pop("name"), "continent 'north_america' has no name"),
    (lambda d: d.update(format=7), "format 7 is not known (this service reads 1)"),
])
def test_it_names_each_fault(change, fault):
    assert fault in faults_of(change)


def test_a_border_listed_twice_is_a_fault():
    assert "border 'peru'-'brazil' is listed twice" in faults_of(
        lambda d: d["borders"].append(["peru", "brazil"]))


def test_each_board_is_built_once_per_version():
    data = copy.deepcopy(classic_data())
    data["name"] = "Classic, renamed"
    other = build(data)
    assert other.hash != maps.classic().hash and other.territories == board.TERRITORIES
