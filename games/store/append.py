"""Appending a command's events: the only write to a game's log. The new events get the
next seqs in one transaction with the Game projection and the reactions' writes (in one
statement where it can be); the unique (game, seq) rule makes two racing writers collide,
and the loser gets VersionConflict with nothing applied."""

from __future__ import annotations

import json
from contextlib import nullcontext
from functools import lru_cache

import orjson
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

import engine as rules
from games.clock import next_deadline
from games.models import Event, Game, Snapshot
from games.store.states import ENGINE_VERSION, remember, snapshot_every, status_of
from games.upcasters import current_version
from lib import sql


class VersionConflict(Exception):
    """The game moved on from the version a command was decided at (another writer's
    events got the next seqs): nothing of the command was applied."""

    def __init__(self, current_version: int):
        super().__init__(f"the game is at version {current_version}")
        self.current_version = current_version


class RowsWrite:
    """A write of the append that only inserts rows (`instances` of `model`, each left
    alone if its unique key is already there): the append may fold it into its one
    statement. Called inside the append's transaction otherwise, as any write is.
    `written` gets the ids of the rows it inserted (not those already there) once they
    are committed."""

    def __init__(self, model, instances: list, in_transaction, written):
        self.model, self.instances = model, instances
        self.in_transaction, self.written = in_transaction, written

    def __call__(self):
        self.in_transaction()


def append(game: Game, events: list[rules.Event], before, after, user_ids=None,
           writes=()) -> Game:
    """Store `events` (made against `before`, whose version they follow), each with its
    user id in `user_ids` (one per event, in order; None: no user for any), and the
    projection of `after`, and call each of `writes` in the same transaction (the mail the
    events cause, a caller's projection). Raises VersionConflict if anyone appended since
    `before` was loaded. The deadline column is the projection of the events (games.clock:
    replaying the log gives it; nothing else writes it). Only games.service.commit calls
    this."""
    if user_ids is None:
        user_ids = [None] * len(events)
    elif len(user_ids) != len(events):
        raise ValueError(f"{len(user_ids)} user ids for {len(events)} events")
    expected = before.version if before is not None else 0
    if game.version != expected:
        # This copy of the row is older than `before`: the deadline and status it would
        # carry forward may have changed since. Read them as they stand (if the row has
        # moved past `before`, the conditional update below still refuses the append).
        game.refresh_from_db()
    now = timezone.now()
    projection = {
        "version": after.version,
        "status": status_of(after),
        "phase": "setup" if after.phase == "setup_done" else after.phase,
        "turn": after.turn,
        "current_seat": after.current,
        "winner": after.winner,
        "deadline": next_deadline(game, before, after, events, now, game.deadline),
    }
    if expected == 0:
        projection["started_at"] = now
    if after.finished and (before is None or not before.finished):
        projection["finished_at"] = now  # once: later events (a hidden message) keep it
    records = [
        {"seq": e.seq, "type": e.type, "data": e.data, "actor": e.actor, "user_id": user_id,
         "schema_version": current_version(e.type), "created_at": now}
        for e, user_id in zip(events, user_ids, strict=True)
    ]
    writes = [write for write in writes if write is not None]
    snapshot_due = after.version // snapshot_every() > expected // snapshot_every()
    folded = [write for write in writes if isinstance(write, RowsWrite)]
    try:
        if (len(folded) <= 1 and len(folded) == len(writes) and not snapshot_due
                and _one_statement_possible()):
            # In a caller's transaction (the deadline sweep's) the statement takes a
            # savepoint of its own: a lost race rolls back this append alone, and the
            # version is read below in a transaction still usable.
            with transaction.atomic() if connection.in_atomic_block else nullcontext():
                inserted = _append_in_one_statement(game, records, projection, expected,
                                                    folded[0] if folded else None)
            if folded:
                folded[0].written(inserted)
        else:
            with transaction.atomic():
                # The game's row first, as in the one statement: both paths take their
                # locks in the same order (the other way round, two of them deadlock).
                moved = sql.update(Game, projection, f"{sql.quote('id')} = %s AND "
                                   f"{sql.quote('version')} = %s", [game.pk, expected])
                if moved != 1:
                    raise IntegrityError("the game moved on")
                sql.insert(Event, [{"game_id": game.pk, **record} for record in records])
                if snapshot_due:
                    Snapshot.objects.create(
                        game=game, seq=after.version, state=after.to_dict(),
                        engine_version=ENGINE_VERSION,
                    )
                for write in writes:
                    write()
    except IntegrityError:
        current = Game.objects.filter(pk=game.pk).values_list("version", flat=True).first()
        raise VersionConflict(current if current is not None else expected) from None
    for field, value in projection.items():
        setattr(game, field, value)
    # When each new event was stored, for answers that show them (no read-back needed).
    game.appended_at = [now] * len(events)
    remember(game, after)
    return game


def _one_statement_possible() -> bool:
    """PostgreSQL, outside any transaction (one statement is one transaction) or inside
    one the caller opened (in a savepoint of its own)."""
    return connection.vendor == "postgresql" and (connection.get_autocommit()
                                                  or connection.in_atomic_block)


def _append_in_one_statement(game: Game, records: list[dict], projection: dict,
                             expected: int, rows: RowsWrite | None = None) -> list[int]:
    """The projection's UPDATE, the events' INSERT and the rows of `rows` as one
    statement: one round trip instead of four or more (BEGIN, UPDATE, INSERT..., COMMIT),
    for the common append that takes no snapshot. The events take their game id from what
    the UPDATE returns: if the version moved on, it matches no row, the id is NULL and the
    NOT NULL rule refuses the whole statement, an IntegrityError like any lost race.

    The events and rows go in as one JSON parameter each (jsonb_populate_recordset), so
    the statement has the same text and a dozen parameters however many there are: it is
    prepared once per connection, and psycopg keeps its parsed form (it keeps none for a
    statement of more than 50 parameters). Returns the ids of the rows inserted."""
    assignments, params = sql.prepared(Game, projection)
    params += [game.pk, expected, _as_json(Event, records)]
    row_model = rows.model if rows is not None and rows.instances else None
    if row_model is not None:
        params.append(_as_json(row_model, [_row_values(row_model, instance)
                                           for instance in rows.instances]))
    event_columns = tuple(Event._meta.get_field(name).column for name in records[0])
    statement = _one_statement(connection.vendor, tuple(assignments), event_columns, row_model)
    if row_model is None:
        sql.execute(statement, params)
        return []
    return [row[0] for row in sql.execute(statement, params, fetch=True)]


def _row_values(model, instance) -> dict:
    """{attname: value} of a new `model` row, its defaults and auto_now_add fields filled
    in as save() would."""
    return {field.attname: field.pre_save(instance, True)
            for field in model._meta.concrete_fields if field is not model._meta.pk}


def _as_json(model, records: list[dict]) -> str:
    """Records ({attname: value}) as a JSON array of {column: value}, for
    jsonb_populate_recordset; times in full ISO form (to the microsecond, as stored)."""
    columns = {field.attname: field.column for field in model._meta.concrete_fields}
    rows = [{columns[name]: value for name, value in record.items()} for record in records]
    try:  # orjson: several times faster, the same JSON
        return orjson.dumps(rows, default=_json_value, option=_JSON_OPTIONS).decode()
    except orjson.JSONEncodeError:  # what it refuses (an integer past 64 bits)
        return json.dumps(rows, default=_json_value)


_JSON_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME


def _json_value(value):
    if hasattr(value, "isoformat"):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


@lru_cache(maxsize=64)
def _one_statement(vendor: str, assignments: tuple, event_columns: tuple,
                   row_model=None) -> str:
    q = sql.quote

    def from_json(names) -> tuple[str, str]:
        """The columns, and them read from the JSON."""
        return (", ".join(q(name) for name in names),
                ", ".join(f"r.{q(name)}" for name in names))

    moved = (f"WITH moved AS (UPDATE {sql.table(Game)} SET "
             f"{', '.join(f'{column} = %s' for column in assignments)} "
             f"WHERE {q('id')} = %s AND {q('version')} = %s RETURNING {q('id')})")
    columns, values = from_json(event_columns)
    events = (f"INSERT INTO {sql.table(Event)} ({q('game_id')}, {columns}) "
              f"SELECT (SELECT {q('id')} FROM moved), {values} "
              f"FROM jsonb_populate_recordset(NULL::{sql.table(Event)}, %s::jsonb) r")
    if row_model is None:
        return f"{moved} {events}"
    # Data-modifying WITH parts always run to completion: the events go in (or the whole
    # statement fails) whether or not the final INSERT reads them.
    columns, values = from_json([field.column for field in row_model._meta.concrete_fields
                                 if field is not row_model._meta.pk])
    return (f"{moved}, appended AS ({events} RETURNING 1) "
            f"INSERT INTO {sql.table(row_model)} ({columns}) SELECT {values} "
            f"FROM jsonb_populate_recordset(NULL::{sql.table(row_model)}, %s::jsonb) r "
            f"ON CONFLICT DO NOTHING RETURNING {q(row_model._meta.pk.column)}")
