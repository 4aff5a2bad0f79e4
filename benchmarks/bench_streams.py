"""Stream figures on PostgreSQL (+ Redis when reachable): the memory the streams processes of
one machine (gunicorn -k asgi config.asgi, one worker per core, as `make run` serves the
site) hold per idle stream with 10,000 open among them, and how long a command takes to
reach 1,000 listening streams after the API answered it.

Works in its own database, `conquest_bench_streams` (CONQUEST_BENCH_STREAMS_DATABASE),
dropped and made again on the server of DATABASE_URL (default: the local PostgreSQL), and
in a process of its own when another benchmark has already set Django up in this one. The
news goes over Redis pub/sub on CONQUEST_BENCH_REDIS_URL (default redis://127.0.0.1:6379/13;
only a channel of the bench's own is used) when it answers, else the embedded poll runs.
"""

from __future__ import annotations

import asyncio
import os
import random
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import benchdb, figures

IDLE_STREAMS = int(os.environ.get("CONQUEST_BENCH_IDLE_STREAMS", "10000"))
LISTENING = int(os.environ.get("CONQUEST_BENCH_LISTENING_STREAMS", "1000"))
COMMANDS = 40
WORKERS = os.cpu_count() or 1  # the streams processes of one machine: one per core
# The targets.
KIB_EACH, P99_MS = 50, 500
ROOT = Path(__file__).resolve().parent.parent
DATABASE = os.environ.get("CONQUEST_BENCH_STREAMS_DATABASE", "conquest_bench_streams")


def database_url() -> str:
    return benchdb.named_url(DATABASE, "bench_streams")


def redis_url() -> str:
    url = os.environ.get("CONQUEST_BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
        return url
    except Exception:  # noqa: BLE001 - no Redis: the embedded poll
        return ""


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise SystemExit(f"no RSS for {pid}")


async def open_stream(port: int, path: str, seen: dict | None = None):
    """A raw stream connection, read up to its view; with `seen`, a task records when each
    event id arrives (seen[seq] is a list of arrival times)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
                 .encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    if b" 200 " not in head.split(b"\r\n", 1)[0]:
        raise SystemExit(f"a stream was refused: {(head + await reader.read(2000)).decode()}")
    await reader.readuntil(b"event: view\n")
    task = None
    if seen is not None:
        async def follow():
            while True:
                line = await reader.readline()
                if not line:
                    return
                if line.startswith(b"id: "):
                    seen.setdefault(int(line[4:]), []).append(time.perf_counter())
        task = asyncio.get_running_loop().create_task(follow())
    return writer, task


def main(argv: list[str] | None = None) -> None:

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the server inherits it
    if hard < IDLE_STREAMS + 500:  # this process holds one end of each, a worker at most all
        raise SystemExit(f"open files limited to {hard}: too few for {IDLE_STREAMS} streams")
    from benchmarks import bench_service as service

    url = database_url()
    benchdb.admin(url, f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)",
                  f"CREATE DATABASE {DATABASE}")
    broker_dir = tempfile.mkdtemp(prefix="conquest-bench-streams-")
    redis = redis_url()
    channel = f"conquest-bench-streams:{os.getpid()}"
    os.environ.update(CONQUEST_STREAM_REDIS_URL=redis, CONQUEST_STREAM_CHANNEL=channel)
    try:
        service.setup_django(url, broker_dir)
        run(url, broker_dir, redis, channel, service)
    finally:
        shutil.rmtree(broker_dir, ignore_errors=True)


def run(url, broker_dir, redis, channel, service) -> None:
    users = service.make_users(2, "streamer")
    table = service.new_table(users, 2, initial_placement="simultaneous")
    env = dict(os.environ, DJANGO_SETTINGS_MODULE=service.SETTINGS_MODULE, DATABASE_URL=url,
               DEBUG="0", CONQUEST_BENCH_BROKER_DIR=broker_dir, SECRET_KEY="bench" * 10,
               SECURE_SSL_REDIRECT="0", CONQUEST_STREAMS_PER_USER="100000")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = tempfile.TemporaryFile()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.asgi:application", "-k", "asgi",
         "-c", "python:config.gunicorn_conf", "--workers", str(WORKERS), "--worker-connections",
         str(IDLE_STREAMS + 100), "--bind", f"127.0.0.1:{port}", "--graceful-timeout", "5",
         "--no-control-socket", "--access-logfile", "/dev/null"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        for _ in range(300):
            try:
                if service.request(port, "GET", "/healthz", None, None)[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        else:
            log.seek(0)
            raise SystemExit("the ASGI server did not come up:\n" + log.read().decode()[-3000:])
        workers = [int(pid) for pid in Path(f"/proc/{server.pid}/task/{server.pid}/children")
                   .read_text().split()]
        print(f"gunicorn -k asgi (config.asgi), {len(workers)} workers; news over "
              f"{'Redis pub/sub' if redis else 'the embedded poll (no Redis answered)'}")
        asyncio.run(measure(port, workers, table, service))
    finally:
        server.terminate()
        server.wait(30)


async def measure(port: int, workers: list[int], table, service) -> None:
    path = f"/api/v1/games/{table.id}/stream/"
    warm = [await open_stream(port, path) for _ in range(50 * len(workers))]
    await asyncio.sleep(1)
    before = sum(rss_kib(worker) for worker in workers)
    held = []
    for _ in range(0, IDLE_STREAMS, 100):
        held += await asyncio.gather(*[open_stream(port, path) for _ in range(100)])
    await asyncio.sleep(2)
    after = sum(rss_kib(worker) for worker in workers)
    per = (after - before) / IDLE_STREAMS
    print(f"a. {IDLE_STREAMS:,} idle game streams held by {len(workers)} processes: RSS "
          f"{before / 1024:.1f} -> {after / 1024:.1f} MiB in all, {per:.1f} KiB per stream "
          f"(target under {KIB_EACH} KiB: {'met' if per < KIB_EACH else 'MISSED'})")
    figures.record("stream_kib_each_10k", per, KIB_EACH)
    for writer, _ in held + warm:
        writer.close()
    await asyncio.sleep(1)

    seen: dict[int, list[float]] = {}
    listening = []
    for start in range(0, LISTENING, 100):
        listening += await asyncio.gather(*[open_stream(port, path, seen)
                                            for _ in range(min(100, LISTENING - start))])
    loop = asyncio.get_running_loop()
    rnd = random.Random(7)
    delays = []

    def command():
        status = service.play_over_http(port, table, rnd)[1]
        return status, time.perf_counter()

    for _ in range(COMMANDS):
        if table.state.finished:
            break
        status, answered = await loop.run_in_executor(None, command)
        if status != 201:
            continue
        seq = table.state.version
        for _ in range(500):
            if len(seen.get(seq, ())) >= LISTENING:
                break
            await asyncio.sleep(0.01)
        delays += [max(0.0, at - answered) for at in seen.get(seq, [])]
        if os.environ.get("CONQUEST_BENCH_DEBUG"):
            got = seen.get(seq, [])
            print(seq, len(got), f"{(max(got) - answered) * 1000:.0f}" if got else "-")
        delays += [5.0] * (LISTENING - len(seen.get(seq, [])))  # never came: counted as 5 s
    for writer, task in listening:
        task.cancel()
        writer.close()
    if not delays:
        print("b. no command was accepted: no figure")
        return
    p50, p99 = service.percentile(delays, 0.5), service.percentile(delays, 0.99)
    print(f"b. a command reaching {LISTENING} listening streams, from the API's answer "
          f"({len(delays) // LISTENING} commands): p50 {p50 * 1000:.1f} ms, p99 "
          f"{p99 * 1000:.1f} ms (target p99 under {P99_MS} ms: "
          f"{'met' if p99 * 1000 < P99_MS else 'MISSED'})")
    figures.record(f"stream_p99_ms_{LISTENING}", p99 * 1000, P99_MS)


if __name__ == "__main__":
    main()
