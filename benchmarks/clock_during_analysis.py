"""The clock while a burst of finished games is analysed, with the embedded default as `make
run` serves it (SQLite, the filesystem broker, the workers and beat as scripts/run.sh starts
them): 20 two-player games that ended after a round each wait for their analysis; then a
game with a 10-second deadline starts, and a computer player is owed a move. The figures:
how long after its deadline the timeout was applied (`deadline_delay_during_analysis_s`) and
how long the computer player took to move (`bot_move_delay_during_analysis_s`), each target
at most 5 s. The deadline sweep runs every 2 s here (CONQUEST_DEADLINE_SWEEP_SECONDS), so
that the figure is mostly the wait behind other work, not the sweep's own interval (15 s by
default, which a deadline may wait whatever the load).

Run by bench_clock in a process of its own (`python -m benchmarks.clock_during_analysis`).
`--before`: the analysis on the clock's worker, as before it had a queue of its own.
`--redis URL`: with Redis as the broker (an empty database of its own, emptied after)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.lateness import empty_redis, stop

ROOT = Path(__file__).resolve().parent.parent
BURST = 20
DEADLINE_SECONDS = 10
GIVE_UP_SECONDS = 120
# The deadline sweep's interval here (a sweep not started within it is dropped, and the
# embedded broker is polled every second: one second would drop most of them).
SWEEP_SECONDS = 2


def workers(before: bool) -> dict[str, list[str]]:
    """The worker command lines of scripts/run.sh (`before`: analysis on the clock's)."""
    common = ["--loglevel", "INFO", "--without-gossip", "--without-mingle",
              "--without-heartbeat"]
    pid = os.getpid()
    clock = "deadlines,celery,analysis" if before else "deadlines,celery"
    found = {
        "deadlines": ["worker", *common, "--concurrency", "1", "--queues", clock,
                      "--hostname", f"bench-deadlines-{pid}@%h"],
        "mail": ["worker", *common, "--concurrency", "1", "--queues", "mail",
                 "--hostname", f"bench-mail-{pid}@%h"],
    }
    if not before:
        found["analysis"] = ["worker", *common, "--queues", "analysis",
                             "--hostname", f"analysis@bench-{pid}"]
    return found


def main() -> None:
    before = "--before" in sys.argv
    broker = sys.argv[sys.argv.index("--redis") + 1] if "--redis" in sys.argv else None
    if broker is not None and not empty_redis(broker):
        print(f"deadline=-2\nbot=-2\nwith Redis: skipped, {broker} is not an empty database")
        return
    var = Path(tempfile.mkdtemp(prefix="conquest-clock-"))
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "benchmarks.embedded_settings",
        "CONQUEST_BENCH_VAR": str(var),
        "DATABASE_URL": f"sqlite:///{var / 'conquest.sqlite3'}",
        "PYTHONUNBUFFERED": "1",
        "CONQUEST_BENCH_BROKER_URL": broker or "",
        "CONQUEST_DEADLINE_SWEEP_SECONDS": str(SWEEP_SECONDS),
    })
    for name in ("CELERY_BROKER_URL", "EMAIL_HOST", "ANYMAIL_ESP"):
        os.environ.pop(name, None)
    try:
        run(var, before)
    finally:
        shutil.rmtree(var, ignore_errors=True)
        if broker is not None:
            import redis

            redis.Redis.from_url(broker).flushdb()


def first_after(query, field: str = "created_at"):
    give_up = time.monotonic() + GIVE_UP_SECONDS
    while time.monotonic() < give_up:
        found = query().values_list(field, flat=True).first()
        if found is not None:
            return found
        time.sleep(0.2)
    return None


def run(var: Path, before: bool) -> None:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from games.models import Event, Game
    from lib import publish
    from ratings.models import GameAnalysis
    from tests.ratings.support import finished_game, hand_to_the_bot, players, started_game

    people = players(*(f"p{i}" for i in range(2 * BURST)))
    for i in range(0, 2 * BURST, 2):
        finished_game(people[i:i + 2], turns=1, seed=i)  # its analysis queued on commit
    publish.wait_for_publishing(60)

    processes, logs = {}, {}
    commands = {**workers(before), "beat": ["beat", "--loglevel", "INFO"]}
    for name, args in commands.items():
        logs[name] = open(var / f"{name}.log", "ab")
        processes[name] = subprocess.Popen(
            [sys.executable, "-m", "celery", "--app", "config", *args], cwd=ROOT,
            env=os.environ.copy(), stdout=logs[name], stderr=subprocess.STDOUT,
            start_new_session=True)
    try:
        first_after(lambda: GameAnalysis.objects.filter(turns_done__gt=0), "game_id")
        alice, bob, carol = players("alice", "bob", "carol")
        clocked = started_game([alice, bob], deadline_seconds=DEADLINE_SECONDS)
        deadline = Game.objects.get(pk=clocked.pk).deadline
        versus_bot = started_game([carol], bots=["easy"])
        hand_to_the_bot(versus_bot, carol)  # its move queued as the human's commits
        owed_at = Event.objects.filter(game=versus_bot).order_by("-seq").values_list(
            "created_at", flat=True).first()
        timed_out = first_after(lambda: Event.objects.filter(game=clocked,
                                                             type="turn_timed_out"))
        moved = first_after(lambda: Event.objects.filter(game=versus_bot, actor=1))
        analysed = GameAnalysis.objects.filter(done_at__isnull=False).count()
    finally:
        stop(processes, logs)
    busy = re.findall(r"Task (\S+)\[\S+\] succeeded in ([0-9.]+)s",
                      (var / "deadlines.log").read_text(errors="replace"))
    spent: dict[str, list[float]] = {}
    for name, seconds in busy:
        spent.setdefault(name.rsplit(".", 1)[-1], []).append(float(seconds))
    for line in (var / "deadlines.log").read_text(errors="replace").splitlines():
        if re.search(r"ERROR|WARNING|failed|locked", line):
            print(f"  the clock's worker said: {line[:300]}")
    print("the clock's worker did: " + "; ".join(
        f"{name} {len(times)}x, {sum(times):.1f} s" for name, times in sorted(spent.items())))
    late = (timed_out - deadline).total_seconds() if timed_out else -1
    bot = (moved - owed_at).total_seconds() if moved else -1
    print(f"deadline={late:.1f}\nbot={bot:.1f}")
    where = "on the clock's worker (before)" if before else "on a worker of its own"
    print(f"analysis {where}: {BURST} finished games queued, {analysed} analysed by the time "
          f"the clock was measured; a {DEADLINE_SECONDS}-s deadline applied "
          f"{late:.1f} s after it, a computer player's move {bot:.1f} s after it was owed "
          f"(-1: not within {GIVE_UP_SECONDS} s)")


if __name__ == "__main__":
    main()
