"""Deadline lateness under a mail backlog, with the embedded default as `make run` serves
it: SQLite, the filesystem broker, mail written as files, beat and the workers as
scripts/run.sh starts them (one for deadlines and bots, one for mail).

10,000 mails wait in the mail queue; then a game with a 10-second deadline starts, and the
figure is how long after its deadline the timeout was applied. Run by bench_notifications
in a process of its own (`python -m benchmarks.lateness`), since Django is set up here on
SQLite, in a temporary folder.

`--redis URL`: the same with Redis as the broker (`make run` with CELERY_BROKER_URL set).
The URL names a database of its own, which must be empty; it is emptied again at the end.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BACKLOG = 10_000
DEADLINE_SECONDS = 10
GIVE_UP_SECONDS = 150


def workers(single: bool) -> dict[str, list[str]]:
    """The worker command lines of scripts/run.sh (or, `single`, the one worker of
    before the queues were split)."""
    common = ["--loglevel", "INFO", "--concurrency", "1", "--without-gossip",
              "--without-mingle", "--without-heartbeat"]
    if single:
        return {"worker": ["worker", *common, "--hostname", f"bench-{os.getpid()}@%h"]}
    return {
        "deadlines": ["worker", *common, "--queues", "deadlines,celery",
                      "--hostname", f"bench-deadlines-{os.getpid()}@%h"],
        "mail": ["worker", *common, "--queues", "mail",
                 "--hostname", f"bench-mail-{os.getpid()}@%h"],
    }


def empty_redis(url: str) -> bool:
    """Whether the Redis database of `url` answers and holds nothing (so the bench may
    use it and empty it afterwards without touching anyone's data)."""
    import redis

    try:
        return redis.Redis.from_url(url, socket_connect_timeout=2).dbsize() == 0
    except redis.RedisError:
        return False


def main() -> None:
    single = "--single-worker" in sys.argv
    broker = sys.argv[sys.argv.index("--redis") + 1] if "--redis" in sys.argv else None
    if broker is not None and not empty_redis(broker):
        print(f"lateness=-2\nwith Redis: skipped, {broker} is not an empty database that "
              f"answers (CONQUEST_BENCH_REDIS_URL names another)")
        return
    var = Path(tempfile.mkdtemp(prefix="conquest-lateness-"))
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "benchmarks.embedded_settings",
        "CONQUEST_BENCH_VAR": str(var),
        "DATABASE_URL": f"sqlite:///{var / 'conquest.sqlite3'}",
        "PYTHONUNBUFFERED": "1",
        "CONQUEST_BENCH_BROKER_URL": broker or "",
    })
    for name in ("CELERY_BROKER_URL", "EMAIL_HOST", "ANYMAIL_ESP"):
        os.environ.pop(name, None)
    try:
        run(var, single)
    finally:
        shutil.rmtree(var, ignore_errors=True)
        if broker is not None:
            import redis

            redis.Redis.from_url(broker).flushdb()


def run(var: Path, single: bool) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from games.models import Event, Game
    from lib import publish
    from lobby import open_games
    from notifications import outbox
    from notifications.models import Notification

    people = [User.objects.create_user(f"p{i}", f"p{i}@example.com", "x") for i in range(20)]
    tables = [open_games.create_game(people[i], f"backlog {i}", 2) for i in range(0, 20, 2)]
    for i, table in enumerate(tables):
        open_games.join_game(table, people[2 * i + 1])
    rows = Notification.objects.bulk_create([
        Notification(user=people[n % 20], game=tables[(n % 20) // 2],
                     kind=Notification.STARTED, key=f"bench:{n}")
        for n in range(BACKLOG)])
    outbox.queue_delivery([row.pk for row in Notification.objects.filter(
        key__startswith="bench:").values_list("pk", flat=True)]
        if rows[0].pk is None else [row.pk for row in rows])
    publish.wait_for_publishing(600)

    processes, logs = {}, {}
    commands = {**workers(single), "beat": ["beat", "--loglevel", "INFO"]}
    for name, args in commands.items():
        logs[name] = open(var / f"{name}.log", "ab")
        processes[name] = subprocess.Popen(
            [sys.executable, "-m", "celery", "--app", "config", *args], cwd=ROOT,
            env=os.environ.copy(), stdout=logs[name], stderr=subprocess.STDOUT,
            start_new_session=True)
    try:
        ready_by = time.monotonic() + 60
        while time.monotonic() < ready_by and not all(
                "ready" in (var / f"{name}.log").read_text(errors="replace")
                for name in commands if name != "beat"):
            time.sleep(0.2)
        alice, bob = (User.objects.create_user(name, f"{name}@example.com", "x")
                      for name in ("alice", "bob"))
        game = open_games.create_game(alice, "on the clock", 2,
                                    deadline_seconds=DEADLINE_SECONDS)
        open_games.join_game(game, bob)
        game.refresh_from_db()
        deadline = game.deadline
        timed_out = None
        give_up = time.monotonic() + GIVE_UP_SECONDS
        while time.monotonic() < give_up:
            timed_out = Event.objects.filter(game=game, type="turn_timed_out").values_list(
                "created_at", flat=True).first()
            if timed_out is not None:
                break
            time.sleep(0.25)
        waiting = Notification.objects.filter(sent_at__isnull=True).count()
        behind = sum((var / f"{name}.log").read_text(errors="replace").count(
            "the deadline sweep is behind") for name in commands)
    finally:
        stop(processes, logs)
    interval = float(getattr(settings, "CONQUEST_DEADLINE_SWEEP_SECONDS", 15))
    late = (timed_out - deadline).total_seconds() if timed_out else None
    shown = f"{late:5.1f} s" if late is not None else f"not within {GIVE_UP_SECONDS} s"
    print(f"lateness={late if late is not None else -1:.1f}")
    broker = "Redis" if settings.CELERY_BROKER_URL.startswith("redis") else "the embedded broker"
    print(f"{broker}: a {DEADLINE_SECONDS}-second deadline with {BACKLOG:,} mails queued ahead: "
          f"applied {shown} after it (target within the sweep interval {interval:.0f} s + 5 s; "
          f"{waiting:,} mails still unsent then; {behind} sweep-behind warnings)")
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED)


if __name__ == "__main__":
    main()


def stop(processes: dict, logs: dict) -> None:
    """Stop the bench's processes (SIGTERM to each group, SIGKILL after 15 s) and close
    their logs."""
    for process in processes.values():
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes.values():
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)
    for log in logs.values():
        log.close()
