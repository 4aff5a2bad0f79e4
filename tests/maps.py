"""A small map of the tests' own, "isles": twelve territories in three continents, names in
en, cs and pl, no missions. Games on it prove that nothing reads the classic board where
the game's is meant. `isles()` is its Board (remembered by hash, as a game's map version
is found); the `isles_map` fixture makes it a map new games may be made on (POST
/api/v1/games/ {"map": "isles"}), as a shipped map is."""

from __future__ import annotations

import copy

import pytest

from engine import maps

# id: (continent, English, Czech, Polish)
TERRITORIES = {
    "frost_point": ("north", "Frost Point", "Mrazivý mys", "Mroźny Przylądek"),
    "north_harbour": ("north", "North Harbour", "Severní přístav", "Port Północny"),
    "whale_bay": ("north", "Whale Bay", "Velrybí zátoka", "Zatoka Wielorybów"),
    "high_moor": ("north", "High Moor", "Vysoké vřesoviště", "Wysokie Wrzosowisko"),
    "sun_coast": ("south", "Sun Coast", "Sluneční pobřeží", "Słoneczne Wybrzeże"),
    "palm_key": ("south", "Palm Key", "Palmový ostrůvek", "Palmowa Wysepka"),
    "coral_reef": ("south", "Coral Reef", "Korálový útes", "Rafa Koralowa"),
    "south_cape": ("south", "South Cape", "Jižní mys", "Przylądek Południowy"),
    "amber_coast": ("east", "Amber Coast", "Jantarové pobřeží", "Bursztynowe Wybrzeże"),
    "iron_hills": ("east", "Iron Hills", "Železné kopce", "Żelazne Wzgórza"),
    "misty_fen": ("east", "Misty Fen", "Mlžná slať", "Mglisty Moczar"),
    "lighthouse": ("east", "Lighthouse", "Maják", "Latarnia"),
}
CONTINENTS = {
    "north": (3, "North Isles", "Severní ostrovy", "Wyspy Północne"),
    "south": (2, "South Isles", "Jižní ostrovy", "Wyspy Południowe"),
    "east": (2, "East Isles", "Východní ostrovy", "Wyspy Wschodnie"),
}
BORDERS = [
    ["frost_point", "north_harbour"], ["north_harbour", "whale_bay"],
    ["whale_bay", "high_moor"], ["high_moor", "frost_point"], ["north_harbour", "high_moor"],
    ["sun_coast", "palm_key"], ["palm_key", "coral_reef"], ["coral_reef", "south_cape"],
    ["south_cape", "sun_coast"],
    ["amber_coast", "iron_hills"], ["iron_hills", "misty_fen"], ["misty_fen", "lighthouse"],
    ["lighthouse", "amber_coast"],
    ["whale_bay", "sun_coast"], ["high_moor", "amber_coast"], ["coral_reef", "lighthouse"],
]

DATA = {
    "format": 1, "id": "isles", "name": "Isles", "names": {"cs": "Ostrovy", "pl": "Wyspy"},
    "territories": [
        {"id": t, "name": en, "continent": c, "names": {"cs": cs, "pl": pl}}
        for t, (c, en, cs, pl) in TERRITORIES.items()],
    "continents": [
        {"id": c, "name": en, "bonus": bonus, "names": {"cs": cs, "pl": pl},
         "territories": [t for t, row in TERRITORIES.items() if row[0] == c]}
        for c, (bonus, en, cs, pl) in CONTINENTS.items()],
    "borders": BORDERS,
    "starting_armies": {"2": 20, "3": 16, "4": 13, "5": 11, "6": 10},
}


def name(territory: str, language: str = "en") -> str:
    return TERRITORIES[territory][1 + ("en", "cs", "pl").index(language)]


def isles() -> maps.Board:
    """The map's Board, found by its hash from now on in this process."""
    return maps.remember(maps.build(copy.deepcopy(DATA)))


@pytest.fixture
def isles_map(monkeypatch):
    """"isles" among the maps a new game may be made on, for the test."""
    board = isles()
    shipped_ids, shipped = maps.shipped_ids, maps._shipped
    monkeypatch.setattr(maps, "shipped_ids", lambda: tuple(sorted((*shipped_ids(), "isles"))))
    monkeypatch.setattr(maps, "_shipped",
                        lambda map_id: board if map_id == "isles" else shipped(map_id))
    return board
