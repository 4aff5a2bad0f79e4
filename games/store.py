"""Reading a game's events and state: the log, snapshots, the copy of each game's newest
state this process keeps, and the game's row with its seats in one query.

Appending, the only write, is games.appending's: the unique (game, seq) rule makes two
racing writers collide, and the loser gets VersionConflict with nothing applied.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from functools import lru_cache

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import OuterRef, Subquery
from django.utils.module_loading import import_string

import engine as rules
from games.models import Event, Game, Seat, Snapshot
from games.upcasters import current_version, upcast
from lib import sql

# The engine's version (engine.state: bumped when GameState's shape or a rule's
# behaviour changes): snapshots another version made are ignored and rebuilt.
ENGINE_VERSION = rules.ENGINE_VERSION

class VersionConflict(Exception):
    def __init__(self, current_version: int):
        super().__init__(f"the game is at version {current_version}")
        self.current_version = current_version


def snapshot_every() -> int:
    return getattr(settings, "CONQUEST_SNAPSHOT_EVERY", 100)


_EVENT_COLUMNS = ("seq", "type", "data", "actor", "schema_version")


def _event_rows(game: Game, after: int, upto: int | None, *extra: str) -> list[list]:
    statement, fields = _events_query(connection.vendor, upto is not None, extra)
    params = [game.pk, after] if upto is None else [game.pk, after, upto]
    return sql.rows(statement, params, fields)


@lru_cache(maxsize=16)
def _events_query(vendor: str, bounded: bool, extra: tuple) -> tuple[str, tuple]:
    fields = tuple(Event._meta.get_field(name) for name in _EVENT_COLUMNS + extra)
    q = sql.quote
    where = f"{q('game_id')} = %s AND {q('seq')} > %s"
    if bounded:
        where += f" AND {q('seq')} <= %s"
    columns = ", ".join(q(field.column) for field in fields)
    return (f"SELECT {columns} FROM {sql.table(Event)} WHERE {where} ORDER BY {q('seq')}",
            fields)


def _event(seq, kind, data, actor, version) -> rules.Event:
    if version != current_version(kind):
        data = upcast(kind, version, data)
    return rules.Event(seq, kind, data, actor)


def stored_events(game: Game, after: int = 0, upto: int | None = None) -> list[rules.Event]:
    return [_event(*row) for row in _event_rows(game, after, upto)]


def stored_events_with_times(game: Game, after: int = 0, upto: int | None = None) -> list:
    """[(event, when it was stored)], read in one query."""
    return [(_event(*row[:5]), row[5]) for row in _event_rows(game, after, upto, "created_at")]


# The newest state this process has loaded or made for each recently used game. Events
# never change, so the state at a version is the same wherever it was computed: it is
# used whenever the game's row shows that same version, which saves the snapshot and
# event reads of a move or a view; when the row is a little ahead (another process
# moved), it is caught up by replaying just the events since, read in one query or with
# the game's row (events_after_column). Keyed by the game's id, with its seed hash kept
# beside the state (an id can come back after a rolled-back insert on SQLite); only
# states of committed events go in; a copy goes in and comes out (evolve works in place).
# Like snapshots, it changes nothing but speed: CONQUEST_RECENT_STATES=0 turns it off.
_recent: OrderedDict = OrderedDict()
_recent_lock = threading.Lock()


def _recent_limit() -> int:
    return getattr(settings, "CONQUEST_RECENT_STATES", 256)


def _kept(game: Game) -> rules.GameState | None:
    """What this process remembers for the game (the caller holds _recent_lock)."""
    found = _recent.get(game.pk)
    return found[1] if found is not None and found[0] == game.seed_hash else None


def remembered_version(game_id: int) -> int | None:
    """The version of the state this process remembers for the game, if any: a statement
    that reads the game can read the events since with it (events_after_column)."""
    with _recent_lock:
        found = _recent.get(game_id)
    return None if found is None else found[1].version


def recall(game: Game) -> rules.GameState | None:
    """The state at the version the game's row shows, from what this process remembers
    (caught up if fewer than a snapshot interval behind), or None."""
    with _recent_lock:
        state = _kept(game)
    if state is None or not 0 <= game.version - state.version <= snapshot_every():
        return None
    if state.version == game.version:
        return state.copy()
    read = game.__dict__.get("_events_after")
    if read is not None and read[0] == state.version:  # read with the game's row
        missed = [event for event in read[1] if event.seq <= game.version]
    else:
        missed = stored_events(game, state.version, game.version)
    if len(missed) != game.version - state.version:
        return None  # the row is ahead of the log this connection sees: read afresh
    state = rules.replay(missed, state.copy())
    remember(game, state)  # (a copy of it)
    return state


def remember(game: Game, state: rules.GameState | None) -> None:
    """Keep `state` for `game` once the transaction that made it commits."""
    limit = _recent_limit()
    if state is None or limit <= 0:
        return
    key, seed_hash, kept = game.pk, game.seed_hash, state.copy()

    def keep():
        with _recent_lock:
            known = _recent.get(key)
            if known is None or known[0] != seed_hash or known[1].version <= kept.version:
                _recent[key] = (seed_hash, kept)
            _recent.move_to_end(key)
            while len(_recent) > limit:
                _recent.popitem(last=False)

    transaction.on_commit(keep)


def forget_recent() -> None:
    """Forget every state this process remembers: the next load reads the log (tests, and
    an operator's shell after the database was restored or edited by hand)."""
    with _recent_lock:
        _recent.clear()


def load_state(game: Game, upto: int | None = None) -> rules.GameState | None:
    """The state after event `upto` (default: the last): newest usable snapshot + replay."""
    if upto is None or upto == game.version:
        state = recall(game)
        if state is not None:
            return state
        state = _load(game, upto)
        remember(game, state)
        return state
    return _load(game, upto)


def load_states(games: list[Game]) -> dict[int, rules.GameState | None]:
    """{game id: its state at the version its row shows} for many games in three queries
    at most (what this process remembers, the newest snapshots, the events after them),
    where load_state takes one or two per game: for sweeps over many games."""
    states, starts, wanted = {}, {}, []
    with _recent_lock:
        kept = {game.pk: _kept(game) for game in games}
    for game in games:
        state = kept[game.pk]
        if state is not None and state.version == game.version:
            states[game.pk] = state.copy()
            continue
        if state is not None and 0 < game.version - state.version <= snapshot_every():
            starts[game.pk] = state.copy()  # caught up with the few events since
        wanted.append(game)
    if not wanted:
        return states
    newest = Snapshot.objects.filter(
        game_id=OuterRef("game_id"), engine_version=ENGINE_VERSION,
        seq__lte=OuterRef("game__version")).order_by("-seq").values("seq")[:1]
    from_snapshots = [game.pk for game in wanted if game.pk not in starts]
    for game_id, data in Snapshot.objects.filter(
            game_id__in=from_snapshots, engine_version=ENGINE_VERSION,
            seq=Subquery(newest)).values_list("game_id", "state"):
        starts[game_id] = rules.GameState.from_dict(data)
    events: dict[int, list[rules.Event]] = {game.pk: [] for game in wanted}
    ranges = [(game.pk, starts[game.pk].version if game.pk in starts else 0, game.version)
              for game in wanted]
    for game_id, *row in _events_of_many(ranges):
        events[game_id].append(_event(*row))
    for game in wanted:
        state = rules.replay(events[game.pk], starts.get(game.pk))
        states[game.pk] = state
        if state is not None and state.version == game.version:
            remember(game, state)
    return states


def events_with_times_of_many(ranges: list[tuple[int, int, int]]) -> list[tuple]:
    """[(game id, event, when it was stored)] of the events (after, upto] of each (game,
    after, upto), in game and seq order, in one query (a few for very many games)."""
    return [(game_id, _event(*row[:5]), row[5])
            for game_id, *row in _events_of_many(ranges, ("created_at",))]


def _events_of_many(ranges: list[tuple[int, int, int]], extra: tuple = ()) -> list[list]:
    """[game id, *event columns, *extra columns] of the events (after, upto] of each
    (game, after, upto), in game and seq order: one query for the lot (a few for very
    many)."""
    found = []
    fields = (None,) + tuple(Event._meta.get_field(name) for name in _EVENT_COLUMNS + extra)
    q = sql.quote
    columns = ", ".join([f"e.{q('game_id')}"] + [f"e.{q(field.column)}"
                                                  for field in fields[1:]])
    for start in range(0, len(ranges), 1000):
        batch = ranges[start:start + 1000]
        values = ", ".join(["(%s, %s, %s)"] * len(batch))
        statement = (
            f"WITH wanted (game, after, upto) AS (VALUES {values}) "
            f"SELECT {columns} FROM {sql.table(Event)} e JOIN wanted "
            f"ON e.{q('game_id')} = wanted.game AND e.{q('seq')} > wanted.after "
            f"AND e.{q('seq')} <= wanted.upto ORDER BY e.{q('game_id')}, e.{q('seq')}")
        found += sql.rows(statement, [value for one in batch for value in one], fields,
                          prepare=False)
    return found


def _load(game: Game, upto: int | None) -> rules.GameState | None:
    snapshots = Snapshot.objects.filter(game=game, engine_version=ENGINE_VERSION)
    if upto is not None:
        snapshots = snapshots.filter(seq__lte=upto)
    snapshot = snapshots.order_by("-seq").values_list("seq", "state").first()
    state, after = None, 0
    if snapshot is not None:
        after, data = snapshot
        state = rules.GameState.from_dict(data)
    return rules.replay(stored_events(game, after, upto), state)


def status_of(state: rules.GameState) -> str:
    if state.finished:
        return Game.ABORTED if state.finish_reason == "aborted" else Game.FINISHED
    return Game.PAUSED if state.paused else Game.ACTIVE


def fetch_game(pk) -> Game | None:
    """The game's row with its seats (see games.reading.seat_rows) in one query, or None:
    what every command and view reads first."""
    if not isinstance(pk, int) or not 0 < pk < 2**63:
        return None  # no such id (and SQLite refuses integers past 64 bits)
    columns, fields = game_columns(connection.vendor)
    found = sql.rows(f"SELECT {', '.join(columns)} FROM {sql.table(Game)} "
                     f"WHERE {sql.table(Game)}.{sql.quote('id')} = %s", [pk], fields)
    return game_from_columns(found[0]) if found else None


@lru_cache(maxsize=4)
def game_columns(vendor: str) -> tuple[tuple, tuple]:
    """What fetch_game reads of a game, for another statement to read it too (the API's
    token lookup does, games.api.auth): the columns' SQL over the game's table, and the
    field of each. game_from_columns makes the game of their values."""
    fields = tuple(Game._meta.concrete_fields)
    columns = tuple(f"{sql.table(Game)}.{sql.quote(field.column)}" for field in fields)
    return (*columns, _seats_column(vendor, with_flags=True)), (*fields, None)


def game_from_columns(values) -> Game | None:
    """The game of game_columns' values (None if the game's id is NULL: an outer join
    found no such game), with its seats and their flags (settings.CONQUEST_SEAT_FLAGS)."""
    *row, seats = values
    if row[0] is None:
        return None
    _, _, attnames = sql.all_columns(Game, connection.vendor)
    game = Game.from_db(connection.alias, attnames, row)
    seats = _json_rows(seats)
    game._seat_rows = [seat[:4] for seat in seats]
    # {flag: user ids it holds for}: a reaction asks on nearly every command (the outbox,
    # who takes a daily digest), so it is read with the seats.
    game._seat_flags = {name: {seat[1] for seat in seats if seat[4 + n]}
                        for n, name in enumerate(_seat_flags())}
    return game


def _json_functions(vendor: str) -> tuple[str, str]:
    """The SQL functions that gather rows into one JSON array of arrays."""
    if vendor == "postgresql":
        return "json_agg", "json_build_array"
    return "json_group_array", "json_array"  # SQLite


@lru_cache(maxsize=4)
def events_after_column(vendor: str) -> str:
    """A game's events after one version, up to another, as one JSON column [[seq, type,
    data, actor, schema version], ...], for a statement that reads the game's row (the
    API's token lookup) to read what its remembered state missed too. Its params: the
    game's id, the version remembered and the highest seq wanted."""
    q = sql.quote
    aggregate, array = _json_functions(vendor)
    seq, kind, data, actor, version = (f"e.{q(Event._meta.get_field(name).column)}"
                                       for name in _EVENT_COLUMNS)
    if vendor != "postgresql":
        data = f"json({data})"  # SQLite keeps JSON as text
    return (f"(SELECT {aggregate}({array}({seq}, {kind}, {data}, {actor}, {version})) "
            f"FROM {sql.table(Event)} e WHERE e.{q('game_id')} = %s AND {seq} > %s "
            f"AND {seq} <= %s)")


def events_read_with(game: Game, after: int, column) -> None:
    """Hand events_after_column's value to the game's next load_state (see recall)."""
    game._events_after = (after, [_event(*row) for row in _json_rows(column)])


def read_seats(game: Game) -> list[tuple[int, int, str, str | None]]:
    """[(seat, user id, username, bot level or None)] in seat order, as fetch_game reads
    them with the row."""
    found = sql.rows(f"SELECT {_seats_column(connection.vendor)} FROM {sql.table(Game)} "
                     f"WHERE {sql.table(Game)}.{sql.quote('id')} = %s", [game.pk], (None,))
    return _json_rows(found[0][0] if found else None)


def _json_rows(column) -> list[tuple]:
    """The rows of a JSON column of arrays (the seats, the events after a version), in
    order (SQLite's JSON aggregate keeps none)."""
    if isinstance(column, str | bytes):  # SQLite answers JSON as text
        column = json.loads(column)
    return sorted(tuple(row) for row in column or ())


def _seat_flags() -> dict:
    """settings.CONQUEST_SEAT_FLAGS: {name: dotted path of its SQL's function}."""
    return getattr(settings, "CONQUEST_SEAT_FLAGS", {})


@lru_cache(maxsize=4)
def _seats_column(vendor: str, with_flags: bool = False) -> str:
    """The seats as one JSON column of the game's row, [[seat, user id, username, bot],
    ...]: a join would repeat the whole row once per seat. `with_flags` adds each of
    settings.CONQUEST_SEAT_FLAGS for the seat's user. Each seat's user is looked up by its
    key: a join lets the planner scan the users' table (and the generic plan of a prepared
    statement, which guesses tables' sizes, did)."""
    User = get_user_model()
    q = sql.quote
    seat, user, bot = (q(Seat._meta.get_field(name).column) for name in ("seat", "user", "bot"))
    name = q(User._meta.get_field(User.USERNAME_FIELD).column)
    aggregate, array = _json_functions(vendor)
    values = [f"s.{seat}", f"s.{user}",
              f"(SELECT u.{name} FROM {sql.table(User)} u "
              f"WHERE u.{q(User._meta.pk.column)} = s.{user})", f"s.{bot}"]
    if with_flags:
        values += [import_string(path)(f"s.{user}") for path in _seat_flags().values()]
    return (f"(SELECT {aggregate}({array}({', '.join(values)})) FROM {sql.table(Seat)} s "
            f"WHERE s.{q('game_id')} = {sql.table(Game)}.{q('id')})")


def rebuild_snapshots(game: Game) -> int:
    """Drop a game's snapshots and take them again from a full replay; returns how many."""
    every = snapshot_every()
    state, taken = None, []
    # The log first, then drop and write in one go: a move landing meanwhile (with its own
    # snapshot, past the log read) neither collides with these nor leaves a window without.
    for event in stored_events(game):
        state = rules.evolve(state, event)
        if event.seq % every == 0:
            taken.append(Snapshot(game=game, seq=event.seq, state=state.to_dict(),
                                  engine_version=ENGINE_VERSION))
    with transaction.atomic():
        Snapshot.objects.filter(game=game).delete()
        Snapshot.objects.bulk_create(taken)
    return len(taken)
