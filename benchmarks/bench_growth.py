"""Growth figures on PostgreSQL: whether each cost stays flat as the data grows.

The database (`conquest_bench_growth`, CONQUEST_BENCH_GROWTH_DATABASE; dropped and made
again on the server of DATABASE_URL, and dropped at the end) is filled in bulk with
synthetic but valid data (benchmarks.fill: games the engine played with their own seeds,
written by COPY through the log's triggers), then measured at each size in one run:

- a command's p50 over HTTP with 10^4, 10^6 (and, CONQUEST_BENCH_LARGE=1, 10^7) events
  stored in other games, each against the framework floor measured right after it;
- a game's view and a move's answer in a game of 10,000 events against one of 100;
- the deadline sweep of 1,000 overdue games among 100,000 active against 10,000;
- the lobby (100 open games besides the 100,000 running), a player page (10,000 finished
  games), the leaderboard (100,000 rated players), the moderation queue and the admin's
  game list: p50 of each page;
- the bytes each stored event takes (table and indexes), and each finished game.

`python -m benchmarks growth` runs it alone; the 10^7 size adds some 10 minutes of
filling on a 2-core machine and some 6 GB of disk.
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks import benchdb, figures

ROOT = Path(__file__).resolve().parent.parent
DATABASE = os.environ.get("CONQUEST_BENCH_GROWTH_DATABASE", "conquest_bench_growth")
LARGE = os.environ.get("CONQUEST_BENCH_LARGE") == "1"
SIZES = [10_000, 1_000_000] + ([10_000_000] if LARGE else [])
PLAYERS = 100_000  # accounts, each with a rating: the leaderboard's size
PLAYER_GAMES = 10_000  # finished games of the player whose page is measured
COMMANDS = 200  # timed per size, each followed by one floor request
VIEW_REQUESTS = 60
PAGE_REQUESTS = 20
OPEN_GAMES = 100  # waiting for players when the lobby is measured
SWEEP_SIZES = (10_000, 100_000)
# The targets.
COMMAND_GROWTH, VIEW_GROWTH, SWEEP_GROWTH, PAGE_P50_MS = 1.2, 1.5, 1.3, 50
# Printed for capacity planning; the target only flags a change of the schema that doubles it.
BYTES_PER_EVENT = 1024


def database_url() -> str:
    return benchdb.named_url(DATABASE, "bench_growth")



def main() -> None:

    from benchmarks import bench_service as service

    url = database_url()
    benchdb.admin(url, f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)",
                  f"CREATE DATABASE {DATABASE}")
    broker_dir = tempfile.mkdtemp(prefix="conquest-bench-growth-")
    for folder in ("queue", "control"):
        os.makedirs(os.path.join(broker_dir, folder))
    try:
        service.setup_django(url, broker_dir)
        run(url, broker_dir, service)
    finally:
        from django.db import connections

        connections.close_all()
        benchdb.admin(url, f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        shutil.rmtree(broker_dir, ignore_errors=True)


def run(url: str, broker_dir: str, service) -> None:
    from benchmarks import fill

    print(f"database {DATABASE} (dropped at the end); sizes {', '.join(f'{s:,}' for s in SIZES)}"
          f" events; load average {os.getloadavg()[0]:.1f} at the start")
    started = time.perf_counter()
    players = fill.users(PLAYERS, "p")
    fill.ratings(players)
    print(f"{PLAYERS:,} accounts with ratings in {time.perf_counter() - started:.1f} s")
    commands = command_growth(url, broker_dir, service, players)
    views = view_growth(url, broker_dir, service, players)
    sweeps = sweep_growth(players)
    pages(players)
    storage()
    smallest, largest = commands[SIZES[0]], commands[SIZES[-1]]
    growth = largest["vs_floor"] / smallest["vs_floor"]
    print(f"command p50 from {SIZES[0]:,} to {SIZES[-1]:,} events: {smallest['p50'] * 1000:.1f}"
          f" -> {largest['p50'] * 1000:.1f} ms; against each size's own floor "
          f"{smallest['vs_floor']:.2f}x -> {largest['vs_floor']:.2f}x: growth {growth:.2f}x "
          f"(the floor's table never grows, so dividing by it takes out the machine's "
          f"changing load)")
    figures.record(f"growth_command_1e{len(str(SIZES[-1])) - 1}_vs_1e4", growth, COMMAND_GROWTH)
    figures.record("growth_view_10000_vs_100_events", max(views), VIEW_GROWTH)
    figures.record("growth_sweep_100k_vs_10k_active", sweeps, SWEEP_GROWTH)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


def command_growth(url, broker_dir, service, players) -> dict:
    from django.db import connections

    from benchmarks import fill

    stored, found = 0, {}
    for size in SIZES:
        started = time.perf_counter()
        games, written = fill.played_games(size - stored, players, seed=size)
        stored += written
        print(f"filled {games:,} finished games ({written:,} events, {stored:,} in all) in "
              f"{time.perf_counter() - started:.1f} s")
        _analyze()
        table = service.new_table(service.make_users(6, f"g{size}-"), 6)
        connections.close_all()
        with service.Server(url, broker_dir) as server:
            service.WARMUP, service.LATENCY_COMMANDS = 20, COMMANDS
            measured = service.latency(server.port, table)
        p50 = service.percentile(measured["commands"], 0.5)
        floor = service.percentile(measured["floor"], 0.5)
        found[size] = {"p50": p50, "vs_floor": p50 / floor}
        print(f"   {stored:,} events stored: command p50 {p50 * 1000:.1f} ms, p99 "
              f"{service.percentile(measured['commands'], 0.99) * 1000:.1f} ms; floor p50 "
              f"{floor * 1000:.1f} ms ({p50 / floor:.2f}x)")
    return found


def view_growth(url, broker_dir, service, players) -> tuple[float, float]:
    """A game's view and a move's answer, p50 over HTTP, in a game of 10,000 events
    against one of 100 (both with the snapshots the append path takes)."""
    from django.contrib.auth import get_user_model
    from django.db import connections

    from accounts import tokens
    from benchmarks import fill
    from games.models import Game, Seat

    tables = {}
    for events in (100, 10_000):
        pk = fill.long_game(events, players, seed=events)
        game = Game.objects.get(pk=pk)
        seated = {row.seat: row.user_id for row in Seat.objects.filter(game=game)}
        users = get_user_model().objects.in_bulk(seated.values())
        tables[events] = service.Table(game, {seat: tokens.issue(users[user_id])
                                              for seat, user_id in seated.items()})
    _analyze()
    connections.close_all()
    views = {events: [] for events in tables}
    moves = {events: [] for events in tables}
    with service.Server(url, broker_dir) as server:
        # The two games in turn, request by request: the workers' warming and the
        # machine's load fall on both alike; the first rounds are left out.
        for round_number in range(VIEW_REQUESTS + 10):
            for events, table in tables.items():
                seat = next(iter(table.tokens))
                seconds = service.timed(server.port, "GET", f"/api/v1/games/{table.id}/",
                                        table.tokens[seat], None)[0]
                if round_number >= 10:
                    views[events].append(seconds)
                rnd = random.Random(events * 1000 + round_number)
                while not table.state.finished:
                    seconds, status, *_ = service.play_over_http(server.port, table, rnd)
                    if status == 201:
                        if round_number >= 10:
                            moves[events].append(seconds)
                        break
    found = {events: (statistics.median(views[events]), statistics.median(moves[events]))
             for events in tables}
    for events, (view, move) in found.items():
        print(f"   a game of {events:,} events: view p50 {view * 1000:.1f} ms, move p50 "
              f"{move * 1000:.1f} ms")
    view = found[10_000][0] / found[100][0]
    move = found[10_000][1] / found[100][1]
    print(f"view growth {view:.2f}x, move growth {move:.2f}x (figure: the larger)")
    return view, move


def sweep_growth(players) -> float:
    from benchmarks import fill
    from benchmarks.bench_notifications import overdue, timed_sweep

    active, seconds = [], {}
    for size in SWEEP_SIZES:
        started = time.perf_counter()
        active += fill.active_games(size - len(active), players)
        print(f"filled {size:,} active games in {time.perf_counter() - started:.1f} s")
        _analyze()
        overdue(active[-1000:])
        seconds[size], counts = timed_sweep()
        print(f"   sweep of 1,000 overdue among {size:,} active games: {seconds[size]:.2f} s "
              f"({counts['timed_out']} timeouts applied)")
    return seconds[SWEEP_SIZES[-1]] / seconds[SWEEP_SIZES[0]]


def pages(players) -> None:
    """p50 of each page, in this process through Django's whole request handling."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from benchmarks import fill

    star = fill.users(1, "star")[0]
    started = time.perf_counter()
    fill.resigned_games(PLAYER_GAMES, star, players[:1000])
    print(f"filled {PLAYER_GAMES:,} finished games of one player in "
          f"{time.perf_counter() - started:.1f} s")
    _analyze()
    User = get_user_model()
    # Games waiting for players, as a busy lobby has them: more than its first page.
    from lobby import open_games

    for number, user in enumerate(User.objects.filter(pk__in=players[1000:1000 + OPEN_GAMES])):
        open_games.create_game(user, f"Open table {number}", 2 + number % 5)
    admin = User.objects.create_superuser("chief", "chief@example.com", "x")
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    for name, path, who in (
        ("lobby_p50_ms", "/games/", User.objects.get(pk=star)),
        ("player_page_p50_ms", "/players/star0/", None),
        ("leaderboard_p50_ms", "/leaderboard/", None),
        ("moderation_queue_p50_ms", "/moderation/", admin),
        ("admin_game_list_p50_ms", "/admin/games/game/", admin),
    ):
        client = Client()
        if who is not None:
            client.force_login(who)
        times = []
        for n in range(PAGE_REQUESTS + 3):
            began = time.perf_counter()
            answer = client.get(path, secure=True)
            if n >= 3:
                times.append(time.perf_counter() - began)
            if answer.status_code != 200:
                raise SystemExit(f"{path} answered {answer.status_code}")
        p50 = statistics.median(times) * 1000
        print(f"   {path:<22} p50 {p50:7.1f} ms ({len(answer.content) / 1024:.0f} KiB)")
        figures.record(name, p50, PAGE_P50_MS)


def storage() -> None:
    """Bytes per stored event (the events' table with its indexes and TOAST), and per
    finished game (its events, its row and seats, its results)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE games_event")
        cursor.execute("SELECT pg_total_relation_size('games_event'), "
                       "pg_relation_size('games_event'), count(*) FROM games_event")
        total, heap, events = cursor.fetchone()
        cursor.execute("SELECT count(*), coalesce(sum(version), 0) FROM games_game "
                       "WHERE status = 'finished'")
        finished, finished_events = cursor.fetchone()
        cursor.execute("SELECT count(*) FROM games_game")
        games = cursor.fetchone()[0]
        per_game_rows = 0
        for table in ("games_game", "games_seat", "ratings_gameresult", "ratings_playerresult",
                      "games_snapshot"):
            cursor.execute(f"SELECT pg_total_relation_size('{table}')")
            per_game_rows += cursor.fetchone()[0]
    per_event = total / events
    per_game = per_event * finished_events / finished + per_game_rows / games
    print(f"storage: {events:,} events take {total / 2**20:,.0f} MiB with their indexes "
          f"({heap / 2**20:,.0f} MiB the table): {per_event:.0f} bytes per event; a finished "
          f"game ({finished_events / finished:,.0f} events on average) {per_game / 1024:.0f} KiB")
    figures.record("bytes_per_event", round(per_event), BYTES_PER_EVENT)


def _analyze() -> None:
    """Fresh planner statistics after a bulk fill, as autovacuum would soon have."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


if __name__ == "__main__":
    main()
