"""Which maps games are played on: the shipped map files (engine.maps) and the
community maps imported into the database (ImportedMap), each version of those kept by its
hash (MapVersion) and found by engine.maps.board_by_hash through `stored_version`,
which games.apps registers at start-up. The one place a map id is resolved to a board (a
new game, a tournament's games, the bot arena) and the board of a game someone reads (its
view's map version). Importing, enabling and deleting maps live here too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from engine import maps as files
from engine.events import GAME_STARTED
from engine.maps import CLASSIC_FIRST_HASH, DEFAULT_MAP, Board, UnknownMap
from engine.maps.community import read
from engine.maps.formats import MAX_BYTES as MAX_FILE_BYTES
from engine.maps.formats import MapFileError
from games.models import Event, Game, ImportedMap, MapVersion

MAP_ID = re.compile(r"^[a-z0-9](?:[a-z0-9_]{0,46}[a-z0-9])?$")
MAP_HASH = re.compile(r"[0-9a-f]{64}")


class ImportRefused(ValueError):
    """An import that would clash with a map already here; nothing was stored."""


class MapInUse(ValueError):
    """A map some game is played on: it can be disabled, never deleted."""


# ---- lookups -----------------------------------------------------------------------------
def stored_version(map_hash: str) -> dict | None:
    """The data of an imported map's version by its hash (engine.maps.FINDERS)."""
    return MapVersion.objects.filter(hash=map_hash).values_list("data", flat=True).first()


def _imported(map_id, **only) -> Board | None:
    # Only an id an import could have made is looked up (PostgreSQL refuses a NUL in a
    # query: a 500 for what is no more than an unknown map).
    if not isinstance(map_id, str) or not MAP_ID.fullmatch(map_id) \
            or map_id in files.shipped_ids():
        return None
    found = ImportedMap.objects.filter(pk=map_id, **only).values_list("hash", flat=True)
    return files.board_by_hash(found[0]) if found else None


def available_boards() -> list[Board]:
    """Every map a new game may be created on: the shipped ones, then the enabled imports."""
    imported = (ImportedMap.objects.filter(enabled=True)
                .exclude(pk__in=files.shipped_ids()).values_list("hash", flat=True))
    return files.shipped_boards() + [files.board_by_hash(h) for h in imported]


def maps_for_new_games() -> list[Board]:
    """Every map a new game may be made on, the default first (then by size and id)."""
    return sorted(available_boards(),
                  key=lambda b: (b.id != DEFAULT_MAP, len(b.territories), b.id))


def board_for_new_game(map_id=None) -> Board:
    """The current version of a map a new game may be created on (None: the default map);
    UnknownMap (a refusal, 400) otherwise: no such map, or an imported map a moderator
    disabled."""
    if map_id is None:
        map_id = DEFAULT_MAP
    if not isinstance(map_id, str):
        raise UnknownMap("map must be a map's id (GET /api/v1/maps/)")
    if isinstance(map_id, str) and map_id in files.shipped_ids():
        return files.shipped(map_id)
    board = _imported(map_id, enabled=True)
    if board is None:
        raise UnknownMap(f"no map {map_id!r} to play on (GET /api/v1/maps/ lists them)")
    return board


def hold_for_new_game(board: Board) -> None:
    """Inside the new game's transaction, before it is stored: an imported map's row locked
    and still enabled, so that delete_map waits for the game and then counts it; UnknownMap
    if a moderator disabled or deleted it since board_for_new_game read it."""
    if board.id in files.shipped_ids():
        return
    if ImportedMap.objects.select_for_update().filter(pk=board.id, enabled=True) \
            .values_list("pk", flat=True).first() is None:
        raise UnknownMap(f"no map {board.id!r} to play on (GET /api/v1/maps/ lists them)")


def board_of_map(map_id) -> Board:
    """The current version of any map kept, disabled ones too: an open game created on it
    starts on it, its rematch plays it again and its page shows it; UnknownMap if none."""
    if isinstance(map_id, str) and map_id in files.shipped_ids():
        return files.shipped(map_id)
    board = _imported(map_id)
    if board is None:
        raise UnknownMap(f"no map {map_id!r}")
    return board


def board_of_version(map_id, map_hash) -> Board:
    """The version of map `map_id` with content hash `map_hash` (the one a game records),
    kept for as long as the map is; UnknownMap if there is none."""
    board = None
    if isinstance(map_hash, str) and MAP_HASH.fullmatch(map_hash):
        try:
            board = files.board_by_hash(map_hash)
        except LookupError:
            pass
    if board is None or board.id != map_id:
        raise UnknownMap(f"no version {map_hash!r} of the map {map_id!r}")
    return board


def board_of_view(view: dict) -> Board:
    """The map version a game view shows: its `map_hash` once the game has started, else
    the current version of its `map` (an open game starts on that, disabled or not)."""
    map_hash = view.get("map_hash")
    if map_hash:
        return files.board_by_hash(map_hash)
    return board_of_map(view.get("map") or DEFAULT_MAP)


def board_of_game(game) -> Board:
    """The map version `game` plays (its game_started's; one that recorded none played the
    classic map's first version), or for a game not started yet the one it will start
    on. Read once per Game object."""
    board = game.__dict__.get("_board")
    if board is None:
        started = (Event.objects.filter(game_id=game.pk, type=GAME_STARTED)
                   .values_list("data", flat=True).first())
        if started is None:
            board = board_of_map(game.map)
        else:
            board = files.board_by_hash(started.get("map_hash") or CLASSIC_FIRST_HASH)
        game._board = board
    return board


def games_using(map_id: str) -> int:
    return Game.objects.filter(map=map_id).count()


# ---- importing and moderating --------------------------------------------------------------
@dataclass(frozen=True)
class MapRead:
    """A community map file read, checked and drawn, ready to be stored."""

    data: dict
    hash: str
    warnings: list  # (line, text): what was read leniently (borders made two-way, ...)
    source_format: str


@dataclass(frozen=True)
class Imported:
    map: ImportedMap
    warnings: list  # (line, text): what was read leniently (borders made two-way, ...)
    outcome: str  # "new", "new version" or "unchanged"


def import_map(raw: bytes, filename: str = "", map_id: str | None = None,
               name: str | None = None, replace: bool = False, by=None) -> Imported:
    """Read a community map file and keep it as a map of this service. MapFileError (the
    file's faults, by line) or ImportRefused; either way nothing is stored. With `replace`,
    a map already imported under that id gets a new current version; the old ones stay."""
    return store_map(read_map(raw, filename, map_id, name), replace=replace, by=by)


def read_map(raw: bytes, filename: str = "", map_id: str | None = None,
             name: str | None = None) -> MapRead:
    """The slow part of an import, which touches no database: the file read, checked and
    drawn (bounded: engine.maps.formats' limits). Call it outside any transaction:
    on SQLite an open one holds the write lock, and every other write waits for it.
    MapFileError or ImportRefused (an id no import may take)."""
    if map_id is not None and not (isinstance(map_id, str) and MAP_ID.fullmatch(map_id)):
        raise ImportRefused(f"map id {map_id!r}: lower-case letters, digits and _ only, "
                            f"at most 48")
    data, warnings, source = read(raw, filename, map_id, name)
    if data["id"] in files.shipped_ids():
        raise ImportRefused(shadowed(data["id"], named=map_id is None))
    return MapRead(data, files.content_hash(data), warnings, source)


def store_map(done: MapRead, replace: bool = False, by=None) -> Imported:
    """A map read by read_map kept, in one short transaction; ImportRefused if its id is
    taken (and not `replace`)."""
    data, map_hash, map_id = done.data, done.hash, done.data["id"]
    now = timezone.now()
    with transaction.atomic():
        row = ImportedMap.objects.select_for_update().filter(pk=map_id).first()
        if row is not None and not replace:
            raise ImportRefused(f"a map {map_id!r} was imported already: --replace imports "
                                f"a new version of it, --id gives this one another id")
        if row is not None and row.hash == map_hash:
            return Imported(row, done.warnings, "unchanged")
        outcome = "new" if row is None else "new version"
        row = row or ImportedMap(pk=map_id, enabled=True)
        row.name, row.data, row.hash = data["name"], data, map_hash
        row.source_format, row.imported_at, row.imported_by = done.source_format, now, by
        try:
            with transaction.atomic():
                # A new id is inserted, never saved over a map imported meanwhile.
                row.save(force_insert=outcome == "new")
        except IntegrityError:
            raise ImportRefused(f"a map {map_id!r} was imported at the same moment: "
                                f"try again") from None
        MapVersion.objects.get_or_create(
            hash=map_hash, defaults={"map": row, "data": data, "imported_at": now})
    files.remember(files.build(data))
    return Imported(row, done.warnings, outcome)


def shadowed(map_id: str, named: bool = False) -> str:
    """Why an import may not take a shipped map's id: every lookup of a map by its id finds
    the shipped map first (`named`: the id was made from the map's name)."""
    made = " (made from the map's name)" if named else ""
    return (f"the id {map_id!r}{made} is the shipped map {files.shipped(map_id).name!r}'s: "
            f"games, pages and the API would find that map under it, never the import; "
            f"give the import another id (--id, or Id in the admin)")


def shadowed_imports(using: str = "default") -> list[str]:
    """Imported maps kept under a shipped map's id (imported before that map shipped): the
    shipped map is the one found by that id; games started on the import keep its version."""
    return list(ImportedMap.objects.using(using).filter(pk__in=files.shipped_ids())
                .values_list("pk", flat=True))


def set_enabled(row: ImportedMap, enabled: bool) -> None:
    ImportedMap.objects.filter(pk=row.pk).update(enabled=enabled)
    row.enabled = enabled


def delete_map(row: ImportedMap) -> None:
    """Delete a disabled imported map and its versions; MapInUse if any game is played on
    it. Only a disabled map: no new game can then be created on it while it goes."""
    with transaction.atomic():
        locked = ImportedMap.objects.select_for_update().filter(pk=row.pk).first()
        if locked is None:
            return
        used = games_using(row.pk)
        if used:
            raise MapInUse(f"the map {row.pk!r} is played in {used} game(s): it can be "
                           f"disabled, never deleted")
        if locked.enabled:
            raise MapInUse(f"the map {row.pk!r} is enabled: disable it first, then delete it")
        locked.delete()


__all__ = ["MAX_FILE_BYTES", "ImportRefused", "Imported", "MapFileError", "MapInUse", "MapRead",
           "UnknownMap", "available_boards", "board_for_new_game", "board_of_game",
           "board_of_map", "board_of_version", "board_of_view", "delete_map", "games_using",
           "hold_for_new_game", "import_map", "maps_for_new_games", "read_map", "set_enabled",
           "shadowed", "shadowed_imports", "stored_version", "store_map"]
