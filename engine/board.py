"""The classic world board's constants: territories, continents, borders and the 44-card
deck, as docs/players/maps.md tables them. Classic-specific: the engine and every consumer read the
game's board (engine.maps: `state.board`, `board_by_hash(view["map_hash"])`); this
module is the source scripts/make_classic_map.py wrote classic.json from, and what tests of
the classic board compare with. Nothing generic imports it."""

from __future__ import annotations

from .pieces import ARTILLERY, CAVALRY, COLORS, INFANTRY, NEUTRAL, SYMBOLS, WILD

CONTINENTS: dict[str, tuple[int, tuple[str, ...]]] = {
    "north_america": (5, (
        "alaska", "northwest_territory", "greenland", "alberta", "ontario", "quebec",
        "western_united_states", "eastern_united_states", "central_america",
    )),
    "south_america": (2, ("venezuela", "peru", "brazil", "argentina")),
    "europe": (5, (
        "iceland", "scandinavia", "great_britain", "northern_europe", "western_europe",
        "southern_europe", "ukraine",
    )),
    "africa": (3, ("north_africa", "egypt", "east_africa", "congo", "south_africa", "madagascar")),
    "asia": (7, (
        "ural", "siberia", "yakutsk", "kamchatka", "irkutsk", "mongolia", "japan",
        "afghanistan", "china", "middle_east", "india", "siam",
    )),
    "australia": (2, ("indonesia", "new_guinea", "western_australia", "eastern_australia")),
}

# Each territory with the neighbours not already listed above it (docs/players/maps.md's table).
_BORDER_TABLE = """
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

BORDERS: tuple[tuple[str, str], ...] = tuple(
    (line.split(":")[0], other)
    for line in _BORDER_TABLE.strip().splitlines()
    for other in line.split(":")[1].split()
)

TERRITORIES: tuple[str, ...] = tuple(t for _, ts in CONTINENTS.values() for t in ts)
CONTINENT_OF: dict[str, str] = {t: c for c, (_, ts) in CONTINENTS.items() for t in ts}
CONTINENT_BONUS: dict[str, int] = {c: bonus for c, (bonus, _) in CONTINENTS.items()}
CONTINENT_TERRITORIES: dict[str, frozenset[str]] = {
    c: frozenset(ts) for c, (_, ts) in CONTINENTS.items()
}

_neighbours: dict[str, set[str]] = {t: set() for t in TERRITORIES}
for _a, _b in BORDERS:
    _neighbours[_a].add(_b)
    _neighbours[_b].add(_a)
# Neighbours in board order, so that nothing depends on set iteration (hash seeds differ).
_INDEX = {t: i for i, t in enumerate(TERRITORIES)}
NEIGHBOURS: dict[str, tuple[str, ...]] = {
    t: tuple(sorted(n, key=_INDEX.__getitem__)) for t, n in _neighbours.items()
}
del _neighbours, _a, _b

_NAME_EXCEPTIONS = {"western_united_states": "Western United States"}


def territory_name(territory: str) -> str:
    """The English display name of a territory or continent id."""
    return _NAME_EXCEPTIONS.get(territory, territory.replace("_", " ").title())


def adjacent(a: str, b: str) -> bool:
    return b in NEIGHBOURS[a]


# The deck: 42 territory cards, 14 of each symbol, then two wilds. A card's id is its index.

_CARD_SYMBOLS = {
    INFANTRY: (
        "alaska", "argentina", "china", "congo", "east_africa", "egypt", "iceland",
        "kamchatka", "middle_east", "mongolia", "new_guinea", "peru", "siam", "venezuela",
    ),
    CAVALRY: (
        "afghanistan", "alberta", "greenland", "india", "irkutsk", "madagascar",
        "north_africa", "ontario", "quebec", "scandinavia", "siberia", "ukraine", "ural",
        "yakutsk",
    ),
    ARTILLERY: (
        "brazil", "central_america", "eastern_australia", "eastern_united_states",
        "great_britain", "indonesia", "japan", "northern_europe", "northwest_territory",
        "south_africa", "southern_europe", "western_australia", "western_europe",
        "western_united_states",
    ),
}
_SYMBOL_OF = {t: s for s, ts in _CARD_SYMBOLS.items() for t in ts}

# CARDS[id] = (territory or None, symbol)
CARDS: tuple[tuple[str | None, str], ...] = tuple(
    (t, _SYMBOL_OF[t]) for t in TERRITORIES
) + ((None, WILD), (None, WILD))
CARD_IDS: tuple[int, ...] = tuple(range(len(CARDS)))
TERRITORY_CARD_IDS: tuple[int, ...] = tuple(i for i, (t, _) in enumerate(CARDS) if t)

STARTING_ARMIES = {2: 40, 3: 35, 4: 30, 5: 25, 6: 20}

assert len(TERRITORIES) == 42 and len(set(TERRITORIES)) == 42
assert len(set(frozenset(b) for b in BORDERS)) == len(BORDERS) == 83
assert all(len(ts) == 14 for ts in _CARD_SYMBOLS.values()) and len(_SYMBOL_OF) == 42

__all__ = ["ARTILLERY", "BORDERS", "CARDS", "CARD_IDS", "CAVALRY", "COLORS", "CONTINENTS",
           "CONTINENT_BONUS", "CONTINENT_OF", "CONTINENT_TERRITORIES", "INFANTRY", "NEIGHBOURS",
           "NEUTRAL", "STARTING_ARMIES", "SYMBOLS", "TERRITORIES", "TERRITORY_CARD_IDS", "WILD",
           "adjacent", "territory_name"]
