"""Reading the event log: a game's stored events (upcast to the current schema), many games'
ranges at once, and the events read along with the API's token lookup. Appending, the only
write, is games.store.append's: the unique (game, seq) rule makes two racing writers collide,
and the loser gets VersionConflict with nothing applied."""

from __future__ import annotations

from functools import lru_cache

from django.db import connection

import engine as rules
from games.models import Event, Game
from games.upcasters import current_version, upcast
from lib import sql

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


def event_from_row(seq, kind, data, actor, version) -> rules.Event:
    if version != current_version(kind):
        data = upcast(kind, version, data)
    return rules.Event(seq, kind, data, actor)


def stored_events(game: Game, after: int = 0, upto: int | None = None) -> list[rules.Event]:
    return [event_from_row(*row) for row in _event_rows(game, after, upto)]


def stored_events_with_times(game: Game, after: int = 0, upto: int | None = None) -> list:
    """[(event, when it was stored)], read in one query."""
    return [(event_from_row(*row[:5]), row[5]) for row in _event_rows(game, after, upto, "created_at")]


def events_with_times_of_many(ranges: list[tuple[int, int, int]]) -> list[tuple]:
    """[(game id, event, when it was stored)] of the events (after, upto] of each (game,
    after, upto), in game and seq order, in one query (a few for very many games)."""
    return [(game_id, event_from_row(*row[:5]), row[5])
            for game_id, *row in events_of_many(ranges, ("created_at",))]


def events_of_many(ranges: list[tuple[int, int, int]], extra: tuple = ()) -> list[list]:
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


@lru_cache(maxsize=4)
def events_after_column(vendor: str) -> str:
    """A game's events after one version, up to another, as one JSON column [[seq, type,
    data, actor, schema version], ...], for a statement that reads the game's row (the
    API's token lookup) to read what its remembered state missed too. Its params: the
    game's id, the version remembered and the highest seq wanted."""
    q = sql.quote
    aggregate, array = sql.json_functions(vendor)
    seq, kind, data, actor, version = (f"e.{q(Event._meta.get_field(name).column)}"
                                       for name in _EVENT_COLUMNS)
    if vendor != "postgresql":
        data = f"json({data})"  # SQLite keeps JSON as text
    return (f"(SELECT {aggregate}({array}({seq}, {kind}, {data}, {actor}, {version})) "
            f"FROM {sql.table(Event)} e WHERE e.{q('game_id')} = %s AND {seq} > %s "
            f"AND {seq} <= %s)")


def events_read_with(game: Game, after: int, column) -> None:
    """Hand events_after_column's value to the game's next load_state (see recall)."""
    game._events_after = (after, [event_from_row(*row) for row in sql.json_rows(column)])
