"""Boards as values: a map file (JSON, versioned by `format`) loaded, validated and cached
by its content hash, so a game plays the exact map version it started with.

Shipped maps live in this folder as `<id>.json`; every version a game may have started with
is kept in `versions/<sha256>.json` (the canonical serialisation, so the file's own hash is
its name) and is never deleted: `board_by_hash` finds a game's board there.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..errors import BadRules
from .validate import MapError, validate_map

FOLDER = Path(__file__).resolve().parent
VERSIONS = FOLDER / "versions"
FORMAT = 1
DEFAULT_MAP = "classic"
# The classic map's hash before games recorded theirs: game_started events without `map`
# played this board (games.upcasters, evolve_setup).
CLASSIC_FIRST_HASH = "4ae6117114616dfd0272c965a5f128227b7e2b1d89bed95e111cd1896d6b46e9"


# Where versions kept outside this folder are found: functions of a content hash that give
# that version's map data or None, registered by whoever keeps them (games.apps adds the
# database's imported maps), so the engine itself imports no storage.
FINDERS: list = []


class UnknownMap(BadRules):
    code = "unknown_map"


def canonical(data: dict) -> bytes:
    """The bytes a map's content hash is taken of: sorted keys, no spaces, UTF-8."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def content_hash(data: dict) -> str:
    return hashlib.sha256(canonical(data)).hexdigest()


@dataclass(frozen=True, eq=False)
class Board:
    """One version of a map, in the shapes the engine reads on its hot paths (built once)."""

    id: str
    name: str
    hash: str
    data: dict  # the map file as loaded (read-only by convention)
    territories: tuple  # ids in map order
    index: dict  # territory -> position in `territories`
    names: dict  # territory or continent id -> display name
    continents: dict  # continent -> (bonus, territories)
    continent_of: dict
    continent_bonus: dict
    continent_territories: dict  # continent -> frozenset
    borders: tuple  # (a, b) pairs
    neighbours: dict  # territory -> neighbours in map order
    cards: tuple  # card id -> (territory | None, symbol)
    card_ids: tuple
    territory_card_ids: tuple
    starting_armies: dict  # players -> armies
    missions: tuple  # mission definitions (dicts); empty: the map has none
    min_players: int
    max_players: int

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbours[a]

    def territory_name(self, territory: str) -> str:
        return self.names.get(territory, territory)

    def summary(self) -> dict:
        return {"id": self.id, "name": self.name, "territories": len(self.territories),
                "continents": len(self.continents), "min_players": self.min_players,
                "max_players": self.max_players, "hash": self.hash,
                "missions": bool(self.missions)}


def default_deck(territories, symbols=("infantry", "cavalry", "artillery"), wilds=2) -> list:
    """One card per territory, the symbols dealt in turn (spread evenly), plus the wilds."""
    cards = [{"territory": t, "symbol": symbols[i % len(symbols)]}
             for i, t in enumerate(territories)]
    return cards + [{"territory": None, "symbol": "wild"}] * wilds


def build(data: dict) -> Board:
    """A Board from map data; raises MapError naming every fault found."""
    validate_map(data)
    territories = tuple(t["id"] for t in data["territories"])
    index = {t: i for i, t in enumerate(territories)}
    continents = {c["id"]: (c["bonus"], tuple(c["territories"])) for c in data["continents"]}
    names = {t["id"]: t["name"] for t in data["territories"]}
    names.update({c["id"]: c["name"] for c in data["continents"]})
    borders = tuple((a, b) for a, b in data["borders"])
    around: dict = {t: set() for t in territories}
    for a, b in borders:
        around[a].add(b)
        around[b].add(a)
    deck = data.get("deck")
    cards = deck["cards"] if deck else default_deck(territories)
    card_tuple = tuple((c["territory"], c["symbol"]) for c in cards)
    armies = {int(k): v for k, v in data["starting_armies"].items()}
    return Board(
        id=data["id"], name=data["name"], hash=content_hash(data), data=data,
        territories=territories, index=index, names=names, continents=continents,
        continent_of={t: c for c, (_, ts) in continents.items() for t in ts},
        continent_bonus={c: bonus for c, (bonus, _) in continents.items()},
        continent_territories={c: frozenset(ts) for c, (_, ts) in continents.items()},
        borders=borders,
        neighbours={t: tuple(sorted(n, key=index.__getitem__)) for t, n in around.items()},
        cards=card_tuple, card_ids=tuple(range(len(card_tuple))),
        territory_card_ids=tuple(i for i, (t, _) in enumerate(card_tuple) if t),
        starting_armies=armies, missions=tuple(data.get("missions") or ()),
        min_players=min(armies), max_players=max(armies),
    )


_by_hash: dict[str, Board] = {}


def _load_file(path: Path) -> Board:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as problem:
        raise MapError([f"{path.name}: not readable JSON ({problem})"]) from problem
    board = _by_hash.get(content_hash(data))
    if board is None:
        board = build(data)
        _by_hash[board.hash] = board
    return board


@cache
def shipped_ids() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in FOLDER.glob("*.json")))


def shipped(map_id: str) -> Board:
    """The current version of a shipped map; UnknownMap if there is none by that id."""
    if not isinstance(map_id, str) or map_id not in shipped_ids():
        raise UnknownMap(f"no map {map_id!r}; the maps are: {', '.join(shipped_ids())}")
    return _shipped(map_id)


@cache
def _shipped(map_id: str) -> Board:
    return _load_file(FOLDER / f"{map_id}.json")


def shipped_boards() -> list[Board]:
    return [shipped(map_id) for map_id in shipped_ids()]


def board_by_hash(map_hash: str) -> Board:
    """The map version with this content hash (cached); LookupError if it is not kept."""
    board = _by_hash.get(map_hash)
    if board is not None:
        return board
    for map_id in shipped_ids():  # the current versions, loaded once
        if shipped(map_id).hash == map_hash:
            return shipped(map_id)
    path = VERSIONS / f"{map_hash}.json"
    if len(map_hash) == 64 and path.is_file():
        board = _load_file(path)
        if board.hash != map_hash:
            raise LookupError(f"map version file {path.name} does not hash to its name")
        return board
    for finder in FINDERS:
        data = finder(map_hash)
        if data is not None:
            if content_hash(data) != map_hash:
                raise LookupError(f"map version {map_hash} kept elsewhere does not hash to it")
            return remember(build(data))
    raise LookupError(f"map version {map_hash} is not kept")


def remember(board: Board) -> Board:
    """Make a map version found by its hash in this process (maps kept elsewhere)."""
    return _by_hash.setdefault(board.hash, board)


def archive(board: Board) -> Path:
    """Keep this version by its hash (idempotent): written once, never changed."""
    path = VERSIONS / f"{board.hash}.json"
    if not path.exists():
        path.write_bytes(canonical(board.data))
    return path


def classic() -> Board:
    return shipped(DEFAULT_MAP)


__all__ = ["CLASSIC_FIRST_HASH", "DEFAULT_MAP", "FINDERS", "FORMAT", "Board", "MapError", "UnknownMap",
           "archive", "board_by_hash", "remember", "build", "canonical", "classic", "content_hash",
           "default_deck", "shipped", "shipped_boards", "shipped_ids", "validate_map"]
