"""The classic board's constants (territories, continents, borders, the 44-card deck, the
starting armies), read from its map file, engine/maps/classic.json, the one source. The
engine and every consumer read the game's board (engine.maps: `state.board`,
`board_by_hash(view["map_hash"])`); these names are for tests and tools about the classic
board in particular. Nothing generic imports it."""

from __future__ import annotations

from .maps import classic
from .pieces import ARTILLERY, CAVALRY, COLORS, INFANTRY, NEUTRAL, SYMBOLS, WILD

CLASSIC = classic()

CONTINENTS: dict[str, tuple[int, tuple[str, ...]]] = CLASSIC.continents
BORDERS: tuple[tuple[str, str], ...] = CLASSIC.borders
TERRITORIES: tuple[str, ...] = CLASSIC.territories
CONTINENT_OF: dict[str, str] = CLASSIC.continent_of
CONTINENT_BONUS: dict[str, int] = CLASSIC.continent_bonus
CONTINENT_TERRITORIES: dict[str, frozenset[str]] = CLASSIC.continent_territories
# Neighbours in board order, so that nothing depends on set iteration (hash seeds differ).
NEIGHBOURS: dict[str, tuple[str, ...]] = CLASSIC.neighbours

# CARDS[id] = (territory or None, symbol): a territory card each, in board order, two wilds.
CARDS: tuple[tuple[str | None, str], ...] = CLASSIC.cards
CARD_IDS: tuple[int, ...] = CLASSIC.card_ids
TERRITORY_CARD_IDS: tuple[int, ...] = CLASSIC.territory_card_ids

STARTING_ARMIES: dict[int, int] = CLASSIC.starting_armies


def territory_name(territory: str) -> str:
    """The English display name of a territory or continent id."""
    return CLASSIC.territory_name(territory)


def adjacent(a: str, b: str) -> bool:
    return CLASSIC.adjacent(a, b)


__all__ = ["ARTILLERY", "BORDERS", "CARDS", "CARD_IDS", "CAVALRY", "CLASSIC", "COLORS",
           "CONTINENTS", "CONTINENT_BONUS", "CONTINENT_OF", "CONTINENT_TERRITORIES", "INFANTRY",
           "NEIGHBOURS", "NEUTRAL", "STARTING_ARMIES", "SYMBOLS", "TERRITORIES",
           "TERRITORY_CARD_IDS", "WILD", "adjacent", "territory_name"]
