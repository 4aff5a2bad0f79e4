"""bench_partitions' finished games kept as records: all of a game's events as one row
(zlib of their JSON in a bytea; a jsonb array in PostgreSQL's own TOAST compression), bytes
per game against the event rows they replace, and a game read back and replayed from either."""

from __future__ import annotations

import random
import statistics
import time
import zlib

import orjson
from django.db import connection

import engine as rules
from benchmarks import figures, partitioned
from benchmarks.fill_log import size
from games.store.log import event_from_row
from lib import sql

RECORD, RECORD_JSONB = "bench_game_record", "bench_game_record_jsonb"
READS = 60
# A record at most a quarter of the rows' bytes, and read back no slower than the rows.
BYTES_TARGET, READ_TARGET = 0.25, 1.0


def make_records(games: list[int]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE {RECORD} (game_id bigint PRIMARY KEY, events bytea "
                       f"NOT NULL)")
        # lz4 where the server has it (PostgreSQL 14 and later, built with it), else pglz.
        cursor.execute(f"CREATE TABLE {RECORD_JSONB} (game_id bigint PRIMARY KEY, events jsonb "
                       f"NOT NULL)")
        cursor.execute("SELECT count(*) FROM pg_settings WHERE name = "
                       "'default_toast_compression' AND 'lz4' = ANY(enumvals)")
        if cursor.fetchone()[0]:
            cursor.execute(f"ALTER TABLE {RECORD_JSONB} ALTER COLUMN events SET COMPRESSION lz4")
    # Read before the COPY begins: a connection in COPY runs no other statement.
    blobs = [(game, zlib.compress(orjson.dumps(partitioned.read(partitioned.PLAIN, game, 0)), 6))
             for game in games]
    connection.ensure_connection()
    with connection.cursor() as cursor, cursor.cursor.copy(
            f"COPY {RECORD} (game_id, events) FROM STDIN") as out:
        for row in blobs:
            out.write_row(row)
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {RECORD_JSONB} SELECT game_id, jsonb_agg(jsonb_build_array("
                       f"seq, type, data, actor, schema_version) ORDER BY seq) FROM "
                       f"{partitioned.PLAIN} WHERE game_id = ANY(%s) GROUP BY game_id", [games])
        cursor.execute(f"VACUUM ANALYZE {RECORD}")
        cursor.execute(f"VACUUM ANALYZE {RECORD_JSONB}")


def _from_rows(game: int) -> list:
    return partitioned.read(partitioned.PLAIN, game, 0)


def _from_zlib(game: int) -> list:
    blob = sql.execute(f"SELECT events FROM {RECORD} WHERE game_id = %s", [game], fetch=True)
    return orjson.loads(zlib.decompress(blob[0][0]))


def _from_jsonb(game: int) -> list:
    found = sql.execute(f"SELECT events FROM {RECORD_JSONB} WHERE game_id = %s", [game],
                        fetch=True)[0][0]
    return orjson.loads(found) if isinstance(found, str | bytes) else found


WAYS = {"rows": _from_rows, "zlib record": _from_zlib, "jsonb record": _from_jsonb}


def measure_records(games: list[int], load) -> None:
    """Records of `games` (the first partition's, all finished), against that partition."""
    started = time.perf_counter()
    make_records(games)
    print(f"records of the oldest partition's {len(games)} games made in "
          f"{time.perf_counter() - started:.1f} s")
    rows_bytes = size(f"{partitioned.PARTITIONED}_0") / len(games)
    zlib_bytes, jsonb_bytes = (size(table) / len(games) for table in (RECORD, RECORD_JSONB))
    print(f"   bytes per finished game: {rows_bytes / 1024:.0f} KiB of event rows with their "
          f"indexes (the partition), {zlib_bytes / 1024:.0f} KiB as a zlib record, "
          f"{jsonb_bytes / 1024:.0f} KiB as a jsonb record")
    rnd = random.Random(3)
    reading: dict = {way: [] for way in WAYS}
    replaying: dict = {way: [] for way in WAYS}
    order = list(WAYS)
    for round_number in range(READS + 5):
        game = rnd.choice(games)
        rnd.shuffle(order)  # each way first as often as the others
        for way in order:
            began = time.perf_counter()
            events = [event_from_row(*row) for row in WAYS[way](game)]
            read = time.perf_counter() - began
            began = time.perf_counter()
            rules.replay(events)
            if round_number >= 5:
                reading[way].append(read)
                replaying[way].append(time.perf_counter() - began)
    found = {way: (statistics.median(reading[way]), statistics.median(replaying[way]))
             for way in WAYS}
    for way, (read, replay) in found.items():
        print(f"   a finished game from its {way}: read {read * 1000:.1f} ms, replayed "
              f"{replay * 1000:.1f} ms (p50)")
    for name, value, target, what in (
            ("record_bytes_vs_rows", zlib_bytes / rows_bytes, BYTES_TARGET,
             "a finished game's zlib record against its event rows with their indexes"),
            ("record_read_vs_rows", found["zlib record"][0] / found["rows"][0], READ_TARGET,
             "a finished game's events read from its zlib record against from its rows")):
        figure = figures.record(name, value, target)
        print(f"{name}: {value:.3g} (target {target:g}, "
              f"{'met' if figure['met'] else 'MISSED'}): {what}; {load()}")
