"""The event log of bench_partitions, written in bulk: a few games the engine plays (with
their own seeds, so each replays), copied under many game ids on the server (one INSERT …
SELECT through the log's triggers), the newest cut short and left running; and what the
bench needs to append to those and read them back."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import timedelta

from django.db import connection
from django.utils import timezone

import engine as rules
from benchmarks import fill
from games.models import Event, Game
from games.store.states import snapshot_every, status_of
from games.upcasters import current_version

PLAYED_ROUNDS = fill.PLAYED_ROUNDS
RUNNING_CUT = 300  # events a running game holds when the appends begin


@dataclass
class Stored:
    """The games written: finished and running ids (ascending), each game's template and
    how many of its events are stored."""

    templates: list = field(default_factory=list)  # [(events, states at their ends)]
    template_of: dict = field(default_factory=dict)
    length: dict = field(default_factory=dict)
    finished: list = field(default_factory=list)
    running: list = field(default_factory=list)
    events: int = 0
    version: dict = field(default_factory=dict)  # the game row's version, running games

    def next_command(self, game: int, count: int) -> tuple[list[dict], dict, int]:
        """The `count` events that follow in `game`'s template, as games.store.append's records;
        a projection of the game's row; the row's version now."""
        log = self.templates[self.template_of[game]][0]
        now = timezone.now()
        records = [{"seq": e.seq, "type": e.type, "data": e.data, "actor": e.actor,
                    "user_id": None if e.actor is None else 1000 + e.actor,
                    "schema_version": current_version(e.type), "created_at": now}
                   for e in log[self.length[game]:self.length[game] + count]]
        projection = {"version": 0, "status": "running", "phase": "attack", "turn": 7,
                      "current_seat": 1, "winner": None, "deadline": now + timedelta(days=1)}
        return records, projection, self.version[game]

    def appended(self, game: int, count: int) -> None:
        self.length[game] += count
        self.version[game] += 2 * count  # the row moved on once for each table

    def last_snapshot(self, game: int) -> int:
        return self.length[game] // snapshot_every() * snapshot_every()


def _copy(statement: str, rows) -> None:
    connection.ensure_connection()
    with connection.cursor() as cursor, cursor.cursor.copy(statement) as out:
        for row in rows:
            out.write_row(row)


def write_log(events: int, templates: int, running: int, rnd: random.Random) -> Stored:
    """`events` events in games_event, in finished games and `running` running ones."""
    stored = Stored()
    creator = fill.users(1, "creator")[0]
    for n in range(templates):
        players = 2 + n % 5
        options = rules.validate_rules({"round_limit": PLAYED_ROUNDS}, players)
        game = fill._game(0, players, creator, options)
        log, state, _ = fill._play(game, options, rnd)
        stored.templates.append((log, state, game.seed, players, options))
    mean = sum(len(t[0]) for t in stored.templates) / templates
    finished = max(1, round((events - running * RUNNING_CUT) / mean))
    ids = fill.reserve_ids(Game, finished + running)
    stored.finished, stored.running = ids[:finished], ids[finished:]
    games, running_ids = [], set(stored.running)
    now = timezone.now()
    for number, pk in enumerate(ids):
        template = rnd.randrange(templates)
        log, state, seed, players, options = stored.templates[template]
        stored.template_of[pk] = template
        if pk in running_ids:
            state = rules.replay(log[:RUNNING_CUT])
            stored.length[pk], stored.version[pk] = RUNNING_CUT, state.version
        else:
            stored.length[pk] = len(log)
        at = now - timedelta(minutes=len(ids) - number)
        games.append(fill.row_of(fill._game(
            pk, players, creator, options, seed=seed, started_at=at, version=state.version,
            status=status_of(state), phase="setup" if state.phase == "setup_done" else state.phase,
            turn=state.turn, current_seat=state.current, winner=state.winner,
            finished_at=at if state.finished else None)))
    fill.copy(Game, games)
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE bench_template (template int, seq int, type varchar(40), "
                       "data jsonb, actor smallint, schema_version smallint)")
        cursor.execute("CREATE TABLE bench_fill (game_id bigint, template int, length int, "
                       "at timestamptz)")
    _copy("COPY bench_template FROM STDIN", (
        (n, e.seq, e.type, fill._value(e.data), e.actor, current_version(e.type))
        for n, template in enumerate(stored.templates) for e in template[0]))
    _copy("COPY bench_fill FROM STDIN", ((pk, stored.template_of[pk], stored.length[pk], now)
                                         for pk in ids))
    columns = "game_id, seq, type, data, actor, user_id, schema_version, created_at"
    with connection.cursor() as cursor:
        # In game and seq order: the gapless guard checks every row.
        cursor.execute(f"INSERT INTO {Event._meta.db_table} ({columns}) SELECT f.game_id, "
                       f"t.seq, t.type, t.data, t.actor, 1000 + t.actor, t.schema_version, "
                       f"f.at FROM bench_fill f JOIN bench_template t ON t.template = "
                       f"f.template AND t.seq <= f.length ORDER BY f.game_id, t.seq")
        stored.events = cursor.rowcount
        cursor.execute("DROP TABLE bench_fill, bench_template")
    return stored


def copy_into(table: str) -> None:
    """games_event's rows, ids and all, into `table` (of the same columns); then fresh
    statistics and visibility maps for both, as autovacuum would soon have."""
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {table} SELECT * FROM {Event._meta.db_table} "
                       f"ORDER BY game_id, seq")
        cursor.execute(f"VACUUM ANALYZE {Event._meta.db_table}")
        cursor.execute(f"VACUUM ANALYZE {table}")


def size(table: str) -> int:
    """Bytes of `table` with its indexes and TOAST; of all its partitions if it has any."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(sum(pg_total_relation_size(inhrelid)), 0) FROM "
                       "pg_inherits WHERE inhparent = %s::regclass", [table])
        parts = cursor.fetchone()[0]
        cursor.execute("SELECT pg_total_relation_size(%s::regclass)", [table])
        return int(parts) + cursor.fetchone()[0]


def sizes(tables) -> dict:
    return {table: size(table) for table in tables}
