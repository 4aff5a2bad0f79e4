"""The step after one PostgreSQL, measured (docs/operators/capacity.md): the event log
partitioned by game against the table the migrations make, and finished games kept as one
compressed record each against their event rows.

Its own database (`conquest_bench_partitions`, CONQUEST_BENCH_PARTITIONS_DATABASE; made on
the server of DATABASE_URL, migrated, dropped at the end) gets games_event as the
migrations make it and games_event_parted, a copy partitioned by RANGE (game_id)
(benchmarks.partitioned), both filled with the same 10^6 events (10^7 with
CONQUEST_BENCH_LARGE=1): games the engine played, copied in bulk under many game ids,
with the running games the newest. Then, plain and partitioned in turn statement by
statement (so the machine's load falls on both alike):

- the append: games.store.append's one statement (the game's row and a command's three events,
  the unique (game, seq) rule and the log's triggers), in the running games;
- a game's read as games.store.log does it: its events after its last snapshot;
- the oldest partitions' games let go: DETACH and DROP against a DELETE of the same rows
  from the plain table and the VACUUM that makes their space reusable (time, and WAL
  written);
- those games' records: all of a game's events as one row (zlib of their JSON in a bytea;
  and a jsonb array in PostgreSQL's own TOAST compression, lz4), bytes per game against
  the rows they replace, and the time to read one back and replay it against reading the
  rows.

`python -m benchmarks partitions` runs it alone (some 2 to 3 minutes on 2 cores);
CONQUEST_BENCH_PARTITIONS_COUNT sets the number of partitions (8).
"""

from __future__ import annotations

import os
import random
import statistics
import time

from benchmarks import benchdb, figures

DATABASE = os.environ.get("CONQUEST_BENCH_PARTITIONS_DATABASE", "conquest_bench_partitions")
LARGE = os.environ.get("CONQUEST_BENCH_LARGE") == "1"
EVENTS = int(os.environ.get("CONQUEST_BENCH_PARTITIONS_EVENTS",
                            10_000_000 if LARGE else 1_000_000))
PARTITIONS = int(os.environ.get("CONQUEST_BENCH_PARTITIONS_COUNT", 8))
TEMPLATES = 6  # games the engine plays; every stored game is a copy of one of them
RUNNING = 100  # the newest games, cut short: the appends go there
PER_COMMAND = 3  # events a command appends
APPENDS, READS, WARMUP = 600, 600, 30
# Targets: the partitioned table costs an append or a read at most 1.2x the plain one;
# letting go of a partition costs a tenth of deleting its rows and vacuuming the table
# (benchmarks.records has
# the records' targets).
APPEND_RATIO, READ_RATIO, DROP_RATIO = 1.2, 1.2, 0.1


def database_url() -> str:
    return benchdb.named_url(DATABASE, "bench_partitions")



def main() -> None:
    url = database_url()
    benchdb.admin(url, f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)",
                  f"CREATE DATABASE {DATABASE}")
    try:
        os.environ["DATABASE_URL"] = url
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        import django
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0, interactive=False)
        run()
    finally:
        from django.db import connections

        connections.close_all()
        benchdb.admin(url, f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


def load() -> str:
    return f"load average {os.getloadavg()[0]:.1f}"


def p50(times: list[float]) -> float:
    return statistics.median(times)


def run() -> None:
    from benchmarks import fill_log, partitioned
    from benchmarks.records import measure_records

    print(f"database {DATABASE} (dropped at the end); {EVENTS:,} events in {PARTITIONS} "
          f"partitions; {load()} at the start, {os.cpu_count()} cores")
    started = time.perf_counter()
    stored = fill_log.write_log(EVENTS, TEMPLATES, RUNNING, random.Random(EVENTS))
    finished = stored.finished
    step = len(finished) // PARTITIONS
    bounds = [finished[n * step] for n in range(1, PARTITIONS)]
    print(f"{len(finished):,} finished games ({stored.events:,} events, "
          f"{stored.events / len(finished):,.0f} a game on average) and {RUNNING} running, "
          f"in games_event in {time.perf_counter() - started:.1f} s")
    started = time.perf_counter()
    partitioned.make(bounds)
    fill_log.copy_into(partitioned.PARTITIONED)
    print(f"the same rows in {partitioned.PARTITIONED} in {time.perf_counter() - started:.1f} s")
    tables = (partitioned.PLAIN, partitioned.PARTITIONED)
    sizes = fill_log.sizes(tables)
    for table in tables:
        print(f"   {table}: {sizes[table] / stored.events:.0f} bytes per event with indexes")
    appends(stored, tables)
    reads(stored, tables)
    oldest = [game for game in finished if game < bounds[0]]
    measure_records(oldest, load)
    drop_against_delete(bounds, tables)
    print(f"{load()} at the end")


def _figure(name: str, value: float, target: float, what: str) -> None:
    figure = figures.record(name, value, target)
    print(f"{name}: {value:.3g} (target {target:g}, {'met' if figure['met'] else 'MISSED'}): "
          f"{what}; {load()}")


def appends(stored, tables) -> None:
    from benchmarks import partitioned

    rnd = random.Random(1)
    times: dict = {table: [] for table in tables}
    for round_number in range(WARMUP + APPENDS):
        game = rnd.choice(stored.running)
        records, projection, expected = stored.next_command(game, PER_COMMAND)
        # Both tables take the same events; the game's row moves on twice.
        order = tables if round_number % 2 else tables[::-1]
        for n, table in enumerate(order):
            projection["version"] = expected + 2 * PER_COMMAND if n else expected + PER_COMMAND
            began = time.perf_counter()
            partitioned.append(table, game, expected + n * PER_COMMAND, records, projection)
            if round_number >= WARMUP:
                times[table].append(time.perf_counter() - began)
        stored.appended(game, PER_COMMAND)
    plain, parted = (p50(times[table]) for table in tables)
    print(f"append of {PER_COMMAND} events (one statement): p50 {plain * 1000:.2f} ms plain, "
          f"{parted * 1000:.2f} ms partitioned; p99 "
          f"{_p99(times[tables[0]]) * 1000:.2f} and {_p99(times[tables[1]]) * 1000:.2f} ms")
    _figure("partitioned_append_vs_plain", parted / plain, APPEND_RATIO,
            f"{APPENDS} appends each, in turn")


def _p99(times: list[float]) -> float:
    return sorted(times)[int(len(times) * 0.99)]


def reads(stored, tables) -> None:
    from benchmarks import partitioned

    rnd = random.Random(2)
    times: dict = {table: [] for table in tables}
    games = stored.running + stored.finished
    counts = []
    for round_number in range(WARMUP + READS):
        game = rnd.choice(games)
        after = stored.last_snapshot(game)
        for table in (tables if round_number % 2 else tables[::-1]):
            began = time.perf_counter()
            found = partitioned.read(table, game, after)
            if round_number >= WARMUP:
                times[table].append(time.perf_counter() - began)
        counts.append(len(found))
    plain, parted = (p50(times[table]) for table in tables)
    print(f"a game's events after its last snapshot ({statistics.mean(counts):.0f} on average):"
          f" p50 {plain * 1000:.2f} ms plain, {parted * 1000:.2f} ms partitioned")
    _figure("partitioned_read_vs_plain", parted / plain, READ_RATIO,
            f"{READS} reads each, in turn, of games in every partition")


def drop_against_delete(bounds, tables) -> None:
    """The two oldest partitions' games let go, one at a time: a DELETE of their rows from
    the plain table (the append-only guard lifted for it, as a maintenance command would)
    and the VACUUM that makes their space reusable, against DETACH and DROP of their
    partition; each pair in the other order. Time and write-ahead log written, each."""
    from django.db import connection, transaction

    plain, parted = tables
    ratios, against_delete = [], []

    def wal() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn")
            return int(cursor.fetchone()[0])

    for n, (low, high) in enumerate([(0, bounds[0]), (bounds[0], bounds[1])]):
        seconds, written = {}, {}
        for table in (tables if n % 2 == 0 else tables[::-1]):
            began, before = time.perf_counter(), wal()
            if table == plain:
                with transaction.atomic(), connection.cursor() as cursor:
                    cursor.execute(f"ALTER TABLE {plain} DISABLE TRIGGER {plain}_append_only")
                    cursor.execute(f"DELETE FROM {plain} WHERE game_id >= %s AND game_id < %s",
                                   [low, high])
                    cursor.execute(f"ALTER TABLE {plain} ENABLE TRIGGER {plain}_append_only")
                seconds["delete"] = time.perf_counter() - began
                with connection.cursor() as cursor:
                    cursor.execute(f"VACUUM {plain}")
            else:
                with connection.cursor() as cursor:
                    cursor.execute(f"ALTER TABLE {parted} DETACH PARTITION {parted}_{n}")
                    cursor.execute(f"DROP TABLE {parted}_{n}")
            seconds[table], written[table] = time.perf_counter() - began, wal() - before
        ratios.append(seconds[parted] / seconds[plain])
        against_delete.append(seconds[parted] / seconds["delete"])
        print(f"   partition {n}'s games let go: DELETE {seconds['delete'] * 1000:.0f} ms and "
              f"VACUUM {(seconds[plain] - seconds['delete']) * 1000:.0f} ms, "
              f"{written[plain] / 2**20:.1f} MiB of WAL; DETACH and DROP "
              f"{seconds[parted] * 1000:.0f} ms, {written[parted] / 1024:.0f} KiB of WAL")
    print(f"   DETACH and DROP against the DELETE alone: at most {max(against_delete):.2f}x")
    _figure("partition_drop_vs_delete", max(ratios), DROP_RATIO,
            "the larger of the two partitions' DETACH and DROP against DELETE and VACUUM")


if __name__ == "__main__":
    main()
