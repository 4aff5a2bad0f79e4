"""The event log partitioned by game beside the table the migrations make (PostgreSQL's
declarative partitioning, PARTITION BY RANGE (game_id)): its DDL, derived from games_event's
own columns, constraints, indexes and triggers as they stand in the database, and the log's
own statements (games.store.append's one-statement append, games.store.log's read of a game's
events) aimed at either table. For bench_partitions and its test; nothing in the service uses it."""

from __future__ import annotations

import re

from django.db import connection

from games.models import Event, Game
from games.store import append as appending
from games.store import log
from lib import sql

PLAIN = Event._meta.db_table  # games_event, as the migrations make it
PARTITIONED = "games_event_parted"


def _aimed(text: str, table: str) -> str:
    """`text` (a statement, a definition) about games_event made about `table`."""
    return re.sub(rf"\b{PLAIN}\b", table, text)


def ddl(bounds: list[int], table: str = PARTITIONED) -> list[str]:
    """The statements that make `table`: games_event's columns (with their defaults,
    identity and checks), its constraints and indexes, its triggers (their functions
    copied where they name the table), partitioned by RANGE (game_id) into len(bounds) + 1
    partitions `table`_0... split at `bounds` (the first from MINVALUE, the last to
    MAXVALUE).

    Every unique rule of a partitioned table must contain the partition key: (game, seq),
    the log's whole concurrency story, does; the primary key on id alone cannot, so it
    becomes (game_id, id) (Django 5.2's CompositePrimaryKey, or id unique per game)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint "
                       "WHERE conrelid = %s::regclass AND contype IN ('p', 'u', 'f') "
                       "ORDER BY conname", [PLAIN])
        constraints = cursor.fetchall()
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s "
                       "ORDER BY indexname", [PLAIN])
        indexes = cursor.fetchall()
        cursor.execute("SELECT tgname, pg_get_triggerdef(t.oid), p.proname, "
                       "pg_get_functiondef(p.oid) FROM pg_trigger t JOIN pg_proc p "
                       "ON p.oid = t.tgfoid WHERE t.tgrelid = %s::regclass AND NOT t.tgisinternal "
                       "ORDER BY tgname", [PLAIN])
        triggers = cursor.fetchall()
    statements = [f"CREATE TABLE {table} (LIKE {PLAIN} INCLUDING DEFAULTS INCLUDING IDENTITY "
                  f"INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMPRESSION) "
                  f"PARTITION BY RANGE (game_id)"]
    for name, kind, definition in constraints:
        if kind == "p":
            definition = "PRIMARY KEY (game_id, id)"
        statements.append(f"ALTER TABLE {table} ADD CONSTRAINT {name}_parted {definition}")
    made = {name for name, *_ in constraints}
    for name, definition in indexes:
        if name not in made:
            definition = definition.replace(f"INDEX {name} ", f"INDEX {name}_parted ", 1)
            statements.append(_aimed(definition, table))
    for _name, trigger, function, body in triggers:
        if re.search(rf"\b{PLAIN}\b", body):  # the gapless guard reads the table itself
            own = f"{function}_{table}"
            statements.append(_aimed(body, table).replace(f".{function}(", f".{own}(", 1))
            trigger = trigger.replace(f"{function}()", f"{own}()")
        statements.append(_aimed(trigger, table))
    edges = ["MINVALUE", *map(str, bounds), "MAXVALUE"]
    statements += [f"CREATE TABLE {table}_{n} PARTITION OF {table} FOR VALUES FROM "
                   f"({edges[n]}) TO ({edges[n + 1]})" for n in range(len(edges) - 1)]
    return statements


def make(bounds: list[int], table: str = PARTITIONED) -> None:
    for statement in ddl(bounds, table):
        sql.execute(statement, None, prepare=False)


def append(table: str, game_id: int, expected: int, records: list[dict],
           projection: dict) -> None:
    """games.store.append's one statement (the game's row moved on from version `expected`,
    `records` appended), its events going into `table`: raises IntegrityError when the
    version moved on or a seq is taken, as the append does."""
    assignments, params = sql.prepared(Game, projection)
    params += [game_id, expected, appending._as_json(Event, records)]
    sql.execute(append_statement(table, tuple(assignments), tuple(records[0])), params)


def append_statement(table: str, assignments: tuple, names: tuple) -> str:
    columns = tuple(Event._meta.get_field(name).column for name in names)
    return _aimed(appending._one_statement("postgresql", assignments, columns), table)


def read(table: str, game_id: int, after: int) -> list[list]:
    """A game's events after seq `after` in `table`, as games.store.log reads them (rows of
    seq, type, data, actor, schema version)."""
    statement, fields = log._events_query("postgresql", False, ())
    return sql.rows(_aimed(statement, table), [game_id, after], fields)
