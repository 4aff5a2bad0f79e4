"""Plain SQL for the few queries every command makes, still converted through the models.

The ORM compiles every query afresh: here that is about half a millisecond of Python per
query, several times what PostgreSQL takes to answer it, and a command made seven. These
helpers build each statement once and pass every value both ways through the model's own
fields (get_db_prep_save on the way in, the backend's and the field's converters on the
way out), so they work on every database Django does. Everything else uses the ORM.
It holds up `make bench`'s `command_p50_vs_floor` and `command_p99_ms` (a command near
the floor of one round trip per statement), through Django's public interfaces only
(connections[...], the fields' and the operations' converters, the cursor wrappers'
execute; tests/test_library_insides.py guards it).
"""

from __future__ import annotations

import datetime
import json
from functools import lru_cache

from django.conf import settings
from django.db import (
    DEFAULT_DB_ALIAS,
    InterfaceError,
    NotSupportedError,
    OperationalError,
    connection,
    connections,
)
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper

try:
    import psycopg
except ImportError:  # SQLite only
    psycopg = None


if psycopg is not None:
    class PreparingCursor(psycopg.Cursor):
        """Binds parameters on the server and prepares each statement the first time a
        connection runs it: later runs skip PostgreSQL's parse and plan."""

        def execute(self, query, params=None, *, prepare=True, binary=None):
            return super().execute(query, params, prepare=prepare, binary=binary)

    from psycopg.pq import Format
    from psycopg.types.datetime import TimestamptzLoader

    _TIMESTAMPTZ = psycopg.postgres.types["timestamptz"].oid
    # psycopg's C loader where psycopg[binary] is installed, else the same Python class.
    _FAST_TIMESTAMPTZ = psycopg.adapters.get_loader(_TIMESTAMPTZ, Format.TEXT)

    class UtcTimestamptzLoader(TimestamptzLoader):
        """Django's loader of times on a connection in UTC, which parses each one in
        Python and then sets its zone, parsing in psycopg's C loader instead: the same
        values (psycopg gives UTC times Python's own UTC zone), several times faster
        (Django ticket #36960; the C class cannot be subclassed)."""

        timezone = datetime.UTC

        def __init__(self, oid, context=None):
            super().__init__(oid, context)
            self.load = _FAST_TIMESTAMPTZ(oid, context).load


def load_times_in_c(sender, connection, **kwargs) -> None:
    """On each new PostgreSQL connection in UTC (USE_TZ, as here), read times with
    UtcTimestamptzLoader (connected to Django's connection_created by GamesConfig)."""
    if (connection.vendor == "postgresql" and psycopg is not None
            and _FAST_TIMESTAMPTZ is not TimestamptzLoader
            and connection.timezone is datetime.UTC
            and connection.connection.info.parameter_status("TimeZone") == "UTC"):
        connection.connection.adapters.register_loader(_TIMESTAMPTZ, UtcTimestamptzLoader)


def prepared_statements() -> bool:
    """Whether these statements are prepared (PostgreSQL, unless turned off for a pooler
    that cannot keep prepared statements; see config/settings.py)."""
    return (connection.vendor == "postgresql" and psycopg is not None
            and settings.DATABASES[connection.alias].get("OPTIONS", {}).get(
                "prepare_threshold") is not None)


def open_cursor(check_health: bool = True):
    """A cursor for these statements: Django's own, around a preparing one where
    prepared_statements() says so (the ORM's cursors bind on the client and never
    prepare). Wrapped as Django wraps its cursors, so errors and query logging work
    the same. Without `check_health`, the caller's statement is the health check."""
    if not prepared_statements():
        return connection.cursor()
    db = _db()
    if check_health:
        # As connection.cursor() does: drop a kept connection that fails its health
        # check (the server restarted, say) and open a new one.
        db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_thread_sharing()
    with db.wrap_database_errors:
        raw = PreparingCursor(db.connection)
    return _LoggedCursor(raw, db) if db.queries_logged else db.make_cursor(raw)


def execute(sql: str, params, fetch: bool = False, prepare: bool = True):
    """Run one statement: its rows if `fetch`, else how many rows it changed. `prepare`
    False for a statement whose text changes from call to call (a list of values): it
    would only fill the connection's prepared-statement cache.

    A statement prepared on a kept connection fails once a migration changes the columns
    it reads ("cached plan must not change result type"). Outside a transaction nothing
    has run: the connection is closed, and the statement runs again on a new one; inside
    one, the rollback that follows drops them (psycopg deallocates on rollback).

    A read that is the first statement of a request on a kept connection is its health
    check (Django's costs a round trip of its own, SELECT 1, on every request): if the
    connection turns out dead, the read runs again on a new one."""
    for attempt in (1, 2):
        probing = attempt == 1 and prepare and _read_checks_health(sql)
        try:
            with (open_cursor(check_health=not probing) if prepare
                  else connection.cursor()) as cursor:
                cursor.execute(sql, params)
                result = cursor.fetchall() if fetch else cursor.rowcount
        except NotSupportedError as error:
            if attempt == 2 or not _stale_plan(error) or connection.in_atomic_block:
                raise
            _db().close()
            continue
        except (OperationalError, InterfaceError):
            if not probing:
                raise
            _db().close()  # the server dropped the connection: read again on a new one
            continue
        if probing:
            _db().health_check_done = True
        return result


def _read_checks_health(sql: str) -> bool:
    """Whether this statement can stand in for the request's health check: a read,
    outside any transaction, on a kept connection not yet checked in this request."""
    if not sql.startswith("SELECT") or not prepared_statements():
        return False
    db = _db()
    return (db.connection is not None and db.health_check_enabled
            and not db.health_check_done and not db.in_atomic_block)


def _stale_plan(error: Exception) -> bool:
    cause = error.__cause__
    return (psycopg is not None and isinstance(cause, psycopg.errors.FeatureNotSupported)
            and "cached plan must not change result type" in str(cause))


class _LoggedCursor(CursorDebugWrapper):
    """Django's query log, with each statement as written: psycopg keeps no text of a
    prepared statement's run for Django to show."""

    def execute(self, sql, params=None):
        with self.debug_sql(sql, params, use_last_executed_query=False):
            # the plain wrapper's execute: the statement run as Django runs any
            return CursorWrapper.execute(self, sql, params)


def quote(name: str) -> str:
    return connection.ops.quote_name(name)


def _db():
    """This thread's connection itself: `connection` is a proxy that looks it up anew on
    every attribute, which adds up over a statement's dozens of values."""
    return connections[DEFAULT_DB_ALIAS]


@lru_cache(maxsize=32)
def _columns_of(model, vendor: str) -> dict:
    """{attname: (field, quoted column)} of the model's concrete fields."""
    return {f.attname: (f, quote(f.column)) for f in model._meta.concrete_fields}


def table(model) -> str:
    return quote(model._meta.db_table)


@lru_cache(maxsize=64)
def _converters(fields: tuple, vendor: str) -> tuple:
    """(position, [converter, ...], expression) for each field whose values need one."""
    found = []
    for position, field in enumerate(fields):
        if field is None:
            continue
        expression = field.get_col(field.model._meta.db_table)
        functions = connection.ops.get_db_converters(expression) + field.get_db_converters(
            connection)
        if functions:
            found.append((position, tuple(functions), expression))
    return tuple(found)


def rows(sql: str, params, fields: tuple, prepare: bool = True) -> list[list]:
    """Run a SELECT; `fields` names the model field (or None) of each column, whose
    values are converted as the ORM would."""
    fetched = execute(sql, params, fetch=True, prepare=prepare)
    db = _db()
    converters = _converters(fields, db.vendor)
    if not converters:
        return [list(row) for row in fetched]
    out = []
    for row in fetched:
        row = list(row)
        for position, functions, expression in converters:
            value = row[position]
            for function in functions:
                value = function(value, expression, db)
            row[position] = value
        out.append(row)
    return out


@lru_cache(maxsize=32)
def all_columns(model, vendor: str, only: tuple | None = None) -> tuple[str, tuple, tuple]:
    """The model's columns as a SELECT list (each named with its table), their fields and
    their attnames, in the same order; with `only`, just the fields of those attnames."""
    fields = tuple(f for f in model._meta.concrete_fields if only is None or f.attname in only)
    columns = ", ".join(f"{table(model)}.{quote(f.column)}" for f in fields)
    return columns, fields, tuple(f.attname for f in fields)


def instance(model, where: str, params, joins: str = ""):
    """The one `model` row matching `where` (SQL, with %s params) as a model instance,
    or None."""
    return instance_with(model, where, params, joins)[0]


def instance_with(model, where: str, params, joins: str = "", extra: tuple = (),
                  only: tuple | None = None):
    """The `model` row matching `where`, read with more columns in the same query:
    (the instance or None, [the `extra` columns of each row found]). `extra` is
    ((SQL expression, field or None), ...). With `only` (attnames), the other fields are
    deferred: read by the ORM if they are ever asked for."""
    columns, fields, attnames = all_columns(model, connection.vendor, only)
    if extra:
        columns += ", " + ", ".join(expression for expression, _ in extra)
    found = rows(f"SELECT {columns} FROM {table(model)} {joins} WHERE {where}", params,
                 fields + tuple(field for _, field in extra))
    if not found:
        return None, []
    count = len(fields)
    return (model.from_db(connection.alias, attnames, found[0][:count]),
            [row[count:] for row in found])


def prepared(model, values: dict) -> tuple[list[str], list]:
    """Quoted column names and database values of {attname: value}."""
    db = _db()
    known = _columns_of(model, db.vendor)
    columns, params = [], []
    for name, value in values.items():
        field, column = known[name]
        columns.append(column)
        params.append(field.get_db_prep_save(value, db))
    return columns, params


# PostgreSQL takes at most 65,535 parameters in a statement and SQLite 32,766: a long
# history appended at once (an import, a crafted test game) goes in several statements.
INSERT_BATCH = 1000


def insert(model, records: list[dict]) -> None:
    """INSERT the records ({attname: value}, all with the same keys): one statement for
    each INSERT_BATCH of them (the caller's transaction keeps them together)."""
    for start in range(0, len(records), INSERT_BATCH):
        batch = records[start:start + INSERT_BATCH]
        columns, params = prepared(model, batch[0])
        for record in batch[1:]:
            params += prepared(model, record)[1]
        one = "(" + ", ".join(["%s"] * len(columns)) + ")"
        execute(f"INSERT INTO {table(model)} ({', '.join(columns)}) VALUES "
                + ", ".join([one] * len(batch)), params)


def update(model, values: dict, where: str, params) -> int:
    """UPDATE the rows matching `where` to `values` ({attname: value}); rows changed."""
    columns, prepared_values = prepared(model, values)
    assignments = ", ".join(f"{column} = %s" for column in columns)
    return execute(f"UPDATE {table(model)} SET {assignments} WHERE {where}",
                   [*prepared_values, *params])


def json_functions(vendor: str) -> tuple[str, str]:
    """The SQL functions that gather rows into one JSON array of arrays."""
    if vendor == "postgresql":
        return "json_agg", "json_build_array"
    return "json_group_array", "json_array"  # SQLite


def json_rows(column) -> list[tuple]:
    """The rows of a JSON column of arrays (a game's seats, its events after a version), in
    order (SQLite's JSON aggregate keeps none)."""
    if isinstance(column, str | bytes):  # SQLite answers JSON as text
        column = json.loads(column)
    return sorted(tuple(row) for row in column or ())
