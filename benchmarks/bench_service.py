"""Service figures on PostgreSQL: command latency over HTTP into a 5,000-event game against
the framework floor, commands per second with 50 bot games at once against gunicorn, and
the load time of a long game with and without snapshots.

Works in its own database, `conquest_bench_service`, dropped and made again on the server
of DATABASE_URL (default: the local PostgreSQL), so it never touches a real one; and in a
process of its own when another benchmark has already set Django up in this one.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import random
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import orjson

from benchmarks import figures as printed

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/conquest"
# CONQUEST_BENCH_SERVICE_DATABASE: another name, for benches of several checkouts at once.
BENCH_DATABASE = os.environ.get("CONQUEST_BENCH_SERVICE_DATABASE", "conquest_bench_service")
SETTINGS_MODULE = "benchmarks.server_settings"
ROOT = Path(__file__).resolve().parent.parent

LONG_GAME_EVENTS = 5_000
LATENCY_COMMANDS = 300  # timed, each paired with one floor request
WARMUP = 20
LOAD_GAMES = 50
LOAD_SECONDS = 30
LOAD_MAX_COMMANDS = 30_000
# The commands' and the floor's LOAD_SECONDS each, in slices taken in turn (commands, floor,
# floor, commands, commands, floor): what else the machine does drifts over a minute, and
# falls on both alike.
LOAD_SLICES = 3
LOAD_RUNS = 7
SERVER_WORKERS, SERVER_THREADS = 3, 4  # 2 cores here; the settings' defaults are 2 x 4
# The targets: each a ratio to the floor measured in the same run, or a time.
P50_VS_FLOOR, P99_MS = 1.3, 50
LOAD_VS_FLOOR, LOAD_P99_MS = 0.8, 250


# ---- the database and Django -----------------------------------------------------------
def bench_database_url() -> str:
    """The bench database on the server DATABASE_URL names (never that database itself)."""
    url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql", "pgsql"):
        raise SystemExit(f"bench_service needs PostgreSQL; DATABASE_URL is {parts.scheme}://")
    return urlunsplit(parts._replace(path=f"/{BENCH_DATABASE}"))


def recreate_database(url: str) -> str:
    import psycopg

    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DATABASE} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {BENCH_DATABASE}")
        return conn.execute("SHOW server_version").fetchone()[0]


def setup_django(url: str, broker_dir: str) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = SETTINGS_MODULE
    os.environ["DATABASE_URL"] = url
    os.environ["CONQUEST_BENCH_BROKER_DIR"] = broker_dir
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0, interactive=False)
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE bench_floor (id bigserial PRIMARY KEY, game_id bigint, "
                       "body jsonb, at timestamptz DEFAULT now())")


# ---- games -----------------------------------------------------------------------------
class Table:
    """A game as the bench plays it: its users' tokens, and a mirror of its state kept by
    deciding each command locally with the game's seed (the server decides the same)."""

    def __init__(self, game, tokens: dict[int, str]):
        import engine as rules
        from games.store.row import dice_for
        from games.store.states import load_state

        self.id = game.pk
        self.tokens = tokens
        self.dice = dice_for(game)
        self.state = load_state(game)
        self.rules = rules

    def next_command(self, rnd: random.Random):
        """A bot command for a seat the game waits for, and the events it will make."""
        from engine.moves import seats_to_act
        from tests.engine.players import bot_command

        seat = rnd.choice(seats_to_act(self.state))
        payload = bot_command(self.state, seat, rnd)
        events = self.rules.decide(self.state, self.rules.parse_command(payload, seat), self.dice)
        return seat, payload, events

    def apply(self, events) -> None:
        state = self.state.copy()
        for event in events:
            state = self.rules.evolve(state, event)
        self.state = state


def make_users(count: int, prefix: str) -> list:
    from django.contrib.auth import get_user_model

    from accounts import tokens

    User = get_user_model()
    users = [User.objects.create(username=f"{prefix}{n}") for n in range(count)]
    for user in users:
        user.token = tokens.issue(user)
    return users


def new_table(users: list, players: int, **rules) -> Table:
    from lobby import open_games

    seated = users[:players]
    game = open_games.create_game(seated[0], "Bench game", players, rules)
    for user in seated[1:]:
        open_games.join_game(game, user)
    game.refresh_from_db()
    return Table(game, {seat: user.token for seat, user in enumerate(seated)})


def long_game(users: list, events_wanted: int) -> tuple[Table, float]:
    """A six-player game with `events_wanted` events, played by bots straight into the
    store (no HTTP); made again if it ends too soon. Returns it and the seconds it took."""
    from games.models import Game
    from games.store.append import append

    started = time.perf_counter()
    for attempt in range(20):
        table = new_table(users, 6)
        game = Game.objects.get(pk=table.id)
        rnd = random.Random(attempt)
        while table.state.version < events_wanted and not table.state.finished:
            _, _, events = table.next_command(rnd)
            before = table.state
            table.apply(events)
            append(game, events, before, table.state)
        if not table.state.finished:
            return table, time.perf_counter() - started
    raise SystemExit("no bot game lasted long enough")


# ---- HTTP ------------------------------------------------------------------------------
class Server:
    """gunicorn serving the product (and the floor view) on a free loopback port; stopped
    on leaving the `with` block, whatever happened."""

    def __init__(self, url: str, broker_dir: str, conn_max_age: int | None = None):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        # As in production (DEBUG off, a key of its own), but over plain HTTP on loopback.
        env = dict(os.environ, DJANGO_SETTINGS_MODULE=SETTINGS_MODULE, DATABASE_URL=url,
                   DEBUG="0", CONQUEST_BENCH_BROKER_DIR=broker_dir,
                   SECRET_KEY=secrets.token_urlsafe(50), SECURE_SSL_REDIRECT="0",
                   SECURE_HSTS_SECONDS="0")
        env.pop("CONN_MAX_AGE", None)
        # The rate-limit counters (every command counts against two) where a deployment on
        # PostgreSQL keeps them, in Redis (deploy/: CACHE_URL); files (the embedded default)
        # when no Redis answers. Their keys expire by themselves.
        self.cache = cache_url()
        env["CACHE_URL"] = self.cache
        # Counted as ever, never refused: the bench's clients are 50 players at one address
        # where real ones are at many, and a few bench users play every table.
        env.update(CONQUEST_THROTTLE_COMMAND_IP="10000000/minute",
                   CONQUEST_THROTTLE_COMMAND_USER="10000000/minute")
        if conn_max_age is not None:
            env["CONN_MAX_AGE"] = str(conn_max_age)
        self.connections = (
            "persistent database connections (the product's default, CONN_MAX_AGE=60)"
            if conn_max_age is None else
            "a new database connection per request (CONN_MAX_AGE=0)" if conn_max_age == 0
            else f"CONN_MAX_AGE={conn_max_age}")
        self.log = tempfile.TemporaryFile()
        # CONQUEST_BENCH_SERVER=asgi: the site as `make run` serves it, gunicorn's ASGI
        # worker on config.asgi (the pages and commands on WSGI threads, a2wsgi).
        self.asgi = os.environ.get("CONQUEST_BENCH_SERVER") == "asgi"
        command = [sys.executable, "-m", "gunicorn", "config.asgi:application", "-k", "asgi",
                   "--bind", f"127.0.0.1:{self.port}", "--workers", str(SERVER_WORKERS),
                   "--chdir", str(ROOT), "--log-level", "warning", "--timeout", "60"] \
            if self.asgi else \
            [sys.executable, "-m", "gunicorn", "config.wsgi:application",
             "--bind", f"127.0.0.1:{self.port}", "--workers", str(SERVER_WORKERS),
             "--threads", str(SERVER_THREADS), "--worker-class", "gthread",
             "--chdir", str(ROOT), "--log-level", "warning", "--timeout", "60"]
        self.process = subprocess.Popen(
            command,
            env=env, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def __enter__(self):
        try:
            self.wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc):
        self.stop()

    def wait_ready(self, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                if request(self.port, "GET", "/healthz", None, None)[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        self.log.seek(0)
        raise SystemExit("gunicorn did not come up:\n" + self.log.read().decode()[-3000:])

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def cpu_seconds(self) -> float:
        """CPU time used so far by gunicorn and its workers (Linux /proc)."""
        tick = os.sysconf("SC_CLK_TCK")
        total, pending = 0.0, [self.process.pid]
        while pending:
            pid = pending.pop()
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / tick
                for task in Path(f"/proc/{pid}/task").iterdir():
                    pending += [int(c) for c in (task / "children").read_text().split()]
            except (OSError, ValueError):
                continue
        return total

    def describe(self) -> str:
        if self.asgi:
            return (f"gunicorn -k asgi on 127.0.0.1:{self.port}, {SERVER_WORKERS} workers, "
                    f"DEBUG off, {self.connections}")
        return (f"gunicorn on 127.0.0.1:{self.port}, {SERVER_WORKERS} workers x "
                f"{SERVER_THREADS} threads (gthread), DEBUG off, {self.connections}, "
                f"rate limits in {self.cache or 'files (no Redis answered)'}")


def cache_url() -> str:
    """CONQUEST_BENCH_CACHE_URL (default: a database of the local Redis) if it answers."""
    url = os.environ.get("CONQUEST_BENCH_CACHE_URL", "redis://127.0.0.1:6379/12")
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
        return url
    except Exception:  # noqa: BLE001 - no Redis here: the files, as the embedded default
        return ""


def request(port: int, method: str, path: str, token: str | None, body: dict | None):
    """One request on a fresh connection (no keep-alive: nothing is ever sent twice)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        headers = {"Connection": "close"}
        data = None
        if token:
            headers["Authorization"] = f"Token {token}"
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        connection.request(method, path, body=data, headers=headers)
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def timed(port, method, path, token, body):
    started = time.perf_counter()
    status, content = request(port, method, path, token, body)
    return time.perf_counter() - started, status, content


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:6.1f} ms"


def play_over_http(port: int, table: Table, rnd: random.Random, body_extra=None):
    """One bot command through POST /commands/; returns (seconds, status, request body)."""
    seat, payload, events = table.next_command(rnd)
    body = payload | {"expected_version": table.state.version}
    seconds, status, content = timed(
        port, "POST", f"/api/v1/games/{table.id}/commands/", table.tokens[seat], body)
    if status == 201:
        table.apply(events)
        if orjson.loads(content)["version"] != table.state.version:
            raise SystemExit(f"game {table.id}: the server's game and the mirror differ")
    return seconds, status, seat, body, content


# ---- the figures -----------------------------------------------------------------------
def latency(port: int, table: Table, renew=None) -> dict:
    """Commands into `table` one at a time, each followed by one floor request; a game the
    dice end before the last is replaced by `renew()` (another long game), so the figures
    always hold LATENCY_COMMANDS samples."""
    rnd = random.Random(1)
    command_times, floor_times, statuses = [], [], Counter()
    for n in range(WARMUP + LATENCY_COMMANDS):
        if table.state.finished and renew is not None:
            table = renew()
            print(f"   (the long game ended: another of {table.state.version:,} events)")
        if table.state.finished:
            break
        seconds, status, seat, body, content = play_over_http(port, table, rnd)
        statuses[status] += 1
        if status != 201:
            print(f"   unexpected {status} for {body}: {content[:200]!r}")
            break
        floor_seconds, floor_status, _ = timed(
            port, "POST", f"/bench/floor/{table.id}/", table.tokens[seat], body)
        statuses[f"floor {floor_status}"] += 1
        if n >= WARMUP:
            command_times.append(seconds)
            floor_times.append(floor_seconds)
    return {"commands": command_times, "floor": floor_times, "statuses": statuses}


def load_in_slices(server: Server, seconds: float, max_commands: int) -> tuple[dict, dict]:
    """The commands' and the floor's figures under load, each over `seconds` in all, in
    LOAD_SLICES slices taken in turn; the games carry on from one slice to the next."""
    tables = {False: spare_tables(LOAD_GAMES * 3), True: spare_tables(LOAD_GAMES * 3)}
    order = [False, True, True, False] * LOAD_SLICES
    figures: dict = {False: [], True: []}
    for floor in order[:2 * LOAD_SLICES]:
        figures[floor].append(load(server, tables[floor], seconds / LOAD_SLICES,
                                   max_commands // LOAD_SLICES, floor=floor))
    return together(figures[False]), together(figures[True])


def together(slices: list[dict]) -> dict:
    """The figures of several slices as one."""
    out = {"statuses": Counter(), "times": [], "problems": []}
    for figures in slices:
        out["statuses"].update(figures["statuses"])
        out["times"] += figures["times"]
        out["problems"] += figures["problems"][:5 - len(out["problems"])]
        for key in ("elapsed", "server_cpu", "client_cpu", "commands", "games_finished"):
            out[key] = out.get(key, 0) + figures[key]
    database = [figures["database_cpu"] for figures in slices]
    out["database_cpu"] = None if None in database else sum(database)
    return out


def database_cpu() -> dict[int, float] | None:
    """CPU time used so far by each of this machine's PostgreSQL processes (Linux /proc),
    or None if none can be seen (a server elsewhere)."""
    tick, found = os.sysconf("SC_CLK_TCK"), {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            name, fields = stat.read_text().split("(", 1)[1].rsplit(")", 1)
        except (OSError, IndexError, ValueError):
            continue
        if name.startswith("postgres"):
            fields = fields.split()
            found[int(stat.parent.name)] = (int(fields[11]) + int(fields[12])) / tick
    return found or None


def database_cpu_since(before: dict[int, float] | None) -> float | None:
    """PostgreSQL's CPU seconds since `before` (a process that ended meanwhile is missed)."""
    after = database_cpu()
    if before is None or after is None:
        return None
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


def load(server: Server, tables: queue.Queue, seconds: float, max_commands: int,
         floor: bool = False) -> dict:
    """LOAD_GAMES bot clients, one per game, as fast as the server answers; a client whose
    game ends takes a fresh one, and leaves its game in `tables` at the end. With `floor`,
    each client posts its next command's body to the framework floor instead, over and
    over: the floor's throughput under the same load, for the commands' to be measured
    against."""
    lock = threading.Lock()
    statuses: Counter = Counter()
    times: list[float] = []
    problems: list[str] = []
    stop_at = time.monotonic() + seconds
    done = {"commands": 0, "games_finished": 0}

    def client(number: int) -> None:
        rnd = random.Random(1000 + number)
        table = tables.get_nowait()
        try:
            while time.monotonic() < stop_at:
                with lock:
                    if done["commands"] >= max_commands:
                        return
                    done["commands"] += 1
                if table.state.finished:
                    with lock:
                        done["games_finished"] += 1
                    table = tables.get_nowait()
                if floor:
                    seat, payload, _ = table.next_command(rnd)
                    body = payload | {"expected_version": table.state.version}
                    took, status, content = timed(server.port, "POST", f"/bench/floor/{table.id}/",
                                                  table.tokens[seat], body)
                else:
                    took, status, _, body, content = play_over_http(server.port, table, rnd)
                with lock:
                    statuses[status] += 1
                    times.append(took)
                    if status not in (201, 409) and len(problems) < 5:
                        problems.append(f"{status} {body} -> {content[:200]!r}")
        except Exception as error:  # noqa: BLE001 - counted and printed, not raised
            with lock:
                statuses[type(error).__name__] += 1
                problems.append(repr(error))
        else:
            if not table.state.finished:
                tables.put(table)  # for the next slice

    started, client_cpu, server_cpu = time.perf_counter(), time.process_time(), server.cpu_seconds()
    database_before = database_cpu()
    threads = [threading.Thread(target=client, args=(n,), daemon=True)  # Ctrl-C: no wait
               for n in range(LOAD_GAMES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    return {"statuses": statuses, "times": times, "elapsed": elapsed, "problems": problems,
            "server_cpu": server.cpu_seconds() - server_cpu,
            "client_cpu": time.process_time() - client_cpu,
            "database_cpu": database_cpu_since(database_before), **done}


def load_times(table: Table) -> dict:
    from games.models import Game, Snapshot
    from games.store.states import forget_recent, load_state, rebuild_snapshots

    game = Game.objects.get(pk=table.id)

    def median_of_runs(remembered: bool = False) -> float:
        runs = []
        load_state(game)
        for _ in range(LOAD_RUNS):
            if not remembered:
                forget_recent()  # from the database, not the process's recent states
            started = time.perf_counter()
            load_state(game)
            runs.append(time.perf_counter() - started)
        return statistics.median(runs)

    remembered = median_of_runs(remembered=True)
    with_snapshots = median_of_runs()
    snapshots = Snapshot.objects.filter(game=game).count()
    Snapshot.objects.filter(game=game).delete()
    without = median_of_runs()
    rebuild_snapshots(game)
    return {"with": with_snapshots, "without": without, "snapshots": snapshots,
            "remembered": remembered, "events": game.version}


def spare_tables(count: int) -> queue.Queue:
    from django.db import connections

    tables = queue.Queue()
    users = make_users(6, f"bot{time.monotonic_ns()}-")
    rnd = random.Random(count)
    for _ in range(count):
        tables.put(new_table(users, rnd.randint(2, 6), placement_batch=5))
    connections.close_all()
    return tables


def print_latency(figures: dict, record: bool = False) -> None:
    commands, floor = figures["commands"], figures["floor"]
    p50, p99 = percentile(commands, 0.5), percentile(commands, 0.99)
    f50, f99 = percentile(floor, 0.5), percentile(floor, 0.99)
    print(f"   POST /api/v1/games/{{id}}/commands/ p50 {ms(p50)}  p99 {ms(p99)}  "
          f"({len(commands)} commands)")
    print(f"   floor (bare view, one INSERT)    p50 {ms(f50)}  p99 {ms(f99)}")
    unexpected = {k: v for k, v in figures["statuses"].items() if k not in (201, "floor 201")}
    print(f"   target p50 within {P50_VS_FLOOR}x of the floor: {p50 / f50:.2f}x, "
          f"{'met' if p50 <= P50_VS_FLOOR * f50 else 'MISSED'}; target p99 under "
          f"{P99_MS} ms: {'met' if p99 * 1000 < P99_MS else 'MISSED'}"
          + (f"; unexpected answers: {unexpected}" if unexpected else ""))
    if record:
        printed.record("command_p50_vs_floor", p50 / f50, P50_VS_FLOOR)
        printed.record("command_p99_ms", p99 * 1000, P99_MS)


def print_floor_under_load(commands: dict, floor: dict, record: bool = False) -> None:
    accepted = commands["statuses"][201] / commands["elapsed"]
    floor_rate = floor["statuses"][201] / floor["elapsed"]
    p99 = percentile(commands["times"], 0.99)
    print(f"   floor under the same load ({LOAD_GAMES} clients posting the same bodies to the "
          f"bare view): {floor_rate:,.0f} requests/s, p50 {ms(percentile(floor['times'], 0.5))},"
          f" p99 {ms(percentile(floor['times'], 0.99))}")
    print(f"   CPU per request, command / floor: {cpu_per_request(commands)} / "
          f"{cpu_per_request(floor)}")
    print(f"   target commands/s at least {LOAD_VS_FLOOR} of the floor's: "
          f"{accepted / floor_rate:.2f} of it, "
          f"{'met' if accepted >= floor_rate * LOAD_VS_FLOOR else 'MISSED'}; target p99 under "
          f"load under {LOAD_P99_MS} ms: {'met' if p99 * 1000 < LOAD_P99_MS else 'MISSED'}")
    if record:
        printed.record("load_vs_floor", accepted / floor_rate, LOAD_VS_FLOOR, most=False)
        printed.record("load_p99_ms", p99 * 1000, LOAD_P99_MS)


def print_load(figures: dict) -> None:
    statuses = figures["statuses"]
    errors = {k: v for k, v in statuses.items() if k not in (201, 409)}
    print(f"   {statuses[201] / figures['elapsed']:,.0f} commands/s accepted "
          f"({statuses[201]:,} in {figures['elapsed']:.1f} s, "
          f"{figures['games_finished']} games finished); under load p50 "
          f"{ms(percentile(figures['times'], 0.5))}, p99 {ms(percentile(figures['times'], 0.99))}")
    print(f"   answers by status: {dict(sorted((str(k), v) for k, v in statuses.items()))}; "
          f"errors other than 409: {sum(errors.values())} "
          f"(target 0: {'met' if not errors else 'MISSED'})")
    for problem in figures["problems"]:
        print(f"   {problem}")


def cpu_per_request(figures: dict) -> str:
    """gunicorn's, PostgreSQL's (if it runs here) and the bench's clients' CPU per answer:
    on a machine this small they share the same cores, so each limits the rate."""
    answered = sum(v for k, v in figures["statuses"].items() if isinstance(k, int)) or 1
    database = ("" if figures["database_cpu"] is None
                else f", PostgreSQL {figures['database_cpu'] / answered * 1000:.2f} ms")
    return (f"gunicorn {figures['server_cpu'] / answered * 1000:.2f} ms{database}, "
            f"bench clients {figures['client_cpu'] / answered * 1000:.2f} ms")


def main(argv: list[str] | None = None) -> None:
    """All the figures; `python -m benchmarks.bench_service latency` only the latency one,
    `... load` the latency and load ones (both on the product's connection setting), for
    working on them."""

    argv = sys.argv[1:] if argv is None else argv
    url = bench_database_url()
    version = recreate_database(url)
    broker_dir = tempfile.mkdtemp(prefix="conquest-bench-broker-")
    try:
        run(url, version, broker_dir, only=argv[0] if argv else None)
    finally:
        shutil.rmtree(broker_dir, ignore_errors=True)


def run(url: str, version: str, broker_dir: str, only: str | None = None) -> None:
    for folder in ("queue", "control"):
        os.makedirs(os.path.join(broker_dir, folder), exist_ok=True)
    setup_django(url, broker_dir)
    from django.db import connections

    print(f"PostgreSQL {version}, database {BENCH_DATABASE} (dropped and made again); "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start")
    users = make_users(6, "player")
    table, build_seconds = long_game(users, LONG_GAME_EVENTS)
    print(f"long game: {table.state.version:,} events by 6 bots straight into the store "
          f"in {build_seconds:.1f} s")

    def renew() -> Table:
        return long_game(users, LONG_GAME_EVENTS)[0]

    if only == "latency":
        with Server(url, broker_dir) as server:
            print(server.describe())
            print_latency(latency(server.port, table, renew))
        return
    if only is None:
        print_load_times(load_times(table))
    connections.close_all()
    for conn_max_age in (None,) if only == "load" else (None, 0):
        with Server(url, broker_dir, conn_max_age) as server:
            print(server.describe())
            print(f"a. latency, one request at a time, into the long game from "
                  f"{table.state.version:,} events on (each command followed by one floor "
                  f"request of the same shape):")
            print_latency(latency(server.port, table, renew), record=conn_max_age is None)
            print(f"b. load: {LOAD_GAMES} games at once (2-6 players), one bot client each, "
                  f"for {LOAD_SECONDS} s, in {LOAD_SLICES} slices taken in turn with the "
                  f"floor's:")
            commands, floor = load_in_slices(server, LOAD_SECONDS, LOAD_MAX_COMMANDS)
            print_load(commands)
            print_floor_under_load(commands, floor, record=conn_max_age is None)
    print(f"load average {os.getloadavg()[0]:.1f} at the end (other work on the machine "
          f"shows in every figure)")


def print_load_times(figures: dict) -> None:
    print(f"c. load_state of the {figures['events']:,}-event game, median of {LOAD_RUNS} runs:")
    print(f"   with its snapshots ({figures['snapshots']}): {ms(figures['with'])}")
    print(f"   without snapshots:        {ms(figures['without'])} "
          f"({figures['without'] / figures['with']:.0f}x slower)")
    print(f"   remembered by the process:  {figures['remembered'] * 1000:.3f} ms (a copy of the newest "
          "state, when the game's row shows its version)")


if __name__ == "__main__":
    main()
