"""Deadline sweep, deadline lateness and mail figures; on PostgreSQL, but the lateness on
the embedded default (benchmarks/lateness.py, in a process of its own).

The summary at the end puts each figure beside the one this same bench measured on this
machine before the work of issue 15 (commit 84fadea) and beside its target.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

from benchmarks import benchdb, figures

ROOT = Path(__file__).resolve().parent.parent
# Measured by this bench at commit 84fadea (before issue 15), on this shared 2-core machine
# when it was quiet; with a load average of 4 the same code gave 20.3 s, 78/s and 37/s
# (and this code 5.9 s, 572/s and 163/s right after). Compare runs under the same load.
BEFORE = {
    "sweep": "9.14 s",
    "lateness": "not within 150 s",
    "lateness_redis": "",  # not measured before
    "render": "95/s",
    "smtp": "91/s",
}


def make_games(count: int, users) -> list[int]:
    """`count` started two-player games, written in bulk (each with its own deal)."""
    from django.utils import timezone

    import engine as rules
    from games.models import Event, Game, Seat

    now = timezone.now()
    games = Game.objects.bulk_create([
        Game(name=f"bench {i}", creator=users[0], players=2,
             rules=rules.Rules(placement_batch=5).to_dict(), deadline_seconds=86400,
             status=Game.ACTIVE, started_at=now)
        for i in range(count)
    ])
    seats, events, projections = [], [], []
    for game in games:
        seats += [Seat(game=game, seat=0, user=users[0]), Seat(game=game, seat=1, user=users[1])]
        made = rules.decide(None, rules.StartGame(str(game.pk), 2, rules.Rules(placement_batch=5)),
                            rules.FairDice(game.seed, str(game.pk)))
        state = rules.replay(made)
        events += [Event(game=game, seq=e.seq, type=e.type, data=e.data, actor=e.actor)
                   for e in made]
        game.version, game.phase, game.current_seat = state.version, state.phase, state.current
        game.deadline = now + timedelta(days=1)
        projections.append(game)
    Seat.objects.bulk_create(seats)
    Event.objects.bulk_create(events, batch_size=5000)
    Game.objects.bulk_update(projections, ["version", "phase", "current_seat", "deadline"],
                             batch_size=2000)
    return [g.pk for g in games]


def timed_sweep() -> tuple[float, dict]:
    from games.deadlines import sweep_deadlines

    started = time.perf_counter()
    counts = {"timed_out": 0, "moved_on": 0, "stretched": 0}
    while True:
        done = sweep_deadlines(limit=1000)
        for key in counts:
            counts[key] += done[key]
        if not any(done[key] for key in counts):
            break
    return time.perf_counter() - started, counts


def overdue(game_ids) -> None:
    from django.utils import timezone

    from games.models import Game

    Game.objects.filter(pk__in=game_ids).update(deadline=timezone.now() - timedelta(seconds=5))


# The targets, each against a floor measured in the same run.
SWEEP_VS_FLOOR = 1.5
MAIL_VS_FLOOR = 0.5

# The Redis database the lateness figure may use (it must be empty; it is emptied after).
REDIS_URL = os.environ.get("CONQUEST_BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")


def lateness(*args: str) -> str:
    """The deadline-lateness figure, from benchmarks/lateness.py in a process of its own
    (`--redis URL`: with Redis as the broker)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    done = subprocess.run([sys.executable, "-m", "benchmarks.lateness", *args], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=900)
    lines = [line for line in done.stdout.splitlines() if not line.startswith("lateness=")]
    print("\n".join(lines) or done.stderr[-2000:])
    found = re.search(r"^lateness=(-?[0-9.]+)", done.stdout, re.M)
    late = float(found.group(1)) if found else -1.0
    if late == -2.0:
        return "skipped"
    return f"{late:.1f} s" if late >= 0 else "not within 150 s"


def render_all(ids) -> list:
    """Render the mails of these rows as a worker does (a deliver_many task's batch at a
    time); the mails that came out."""
    from notifications import mail
    from notifications.outbox import DELIVERY_BATCH

    return [message for start in range(0, len(ids), DELIVERY_BATCH)
            for message in mail.render_many(ids[start:start + DELIVERY_BATCH])
            if message is not None]


def sweep_floor(count: int) -> float:
    """Seconds for `count` floor commands in this process: the bare view of the service
    bench (benchmarks.server_urls: parse a JSON body, one INSERT, its own transaction,
    answer) through Django's whole request handling, as the sweep's timeouts are compared
    with (the sweep makes no HTTP requests, so neither does its floor)."""
    from django.conf import settings
    from django.db import connection
    from django.test import Client

    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS bench_floor (id bigserial PRIMARY KEY, "
                       "game_id bigint, body jsonb, at timestamptz DEFAULT now())")
    settings.ROOT_URLCONF = "benchmarks.server_urls"
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    client = Client()
    body = {"type": "end_turn", "expected_version": 12}

    def post(game_id: int) -> None:
        answer = client.post(f"/bench/floor/{game_id}/", body, content_type="application/json",
                             secure=True)
        if answer.status_code != 201:
            raise SystemExit(f"the floor view answered {answer.status_code}")

    for n in range(20):
        post(n)  # warm
    started = time.perf_counter()
    for n in range(count):
        post(n)
    return time.perf_counter() - started


def template_floor(messages: list, rounds: int) -> float:
    """Mails per CPU second of a bare Django template as large as these mails (a loop over
    lines of plain values, no database): the floor mail rendering is compared with. Each
    floor mail renders two templates, of the text part's and the HTML part's mean size."""
    from django.template import engines

    text_size = statistics.mean(len(message.body) for message in messages)
    html_size = statistics.mean(len(message.alternatives[0][0]) for message in messages)
    engine = engines["django"]
    text = engine.from_string(
        "{% for line in lines %}{{ line.who }} took {{ line.where }} with {{ line.armies }} "
        "armies\n{% endfor %}")
    html = engine.from_string(
        "<html><body>{% for line in lines %}<p><b>{{ line.who }}</b> took "
        "<a href=\"/t/{{ line.where }}\">{{ line.where }}</a> with {{ line.armies }} "
        "armies</p>\n{% endfor %}</body></html>")

    def lines_for(template, size: float) -> list[dict]:
        one = len(template.render({"lines": [{"who": "alice", "where": "kamchatka",
                                              "armies": 12}]}))
        return [{"who": f"player {n % 6}", "where": f"territory {n % 42}", "armies": n % 30}
                for n in range(max(1, round(size / one)))]

    text_lines, html_lines = lines_for(text, text_size), lines_for(html, html_size)
    cpu = time.process_time()
    for _ in range(rounds):
        text.render({"lines": text_lines})
        html.render({"lines": html_lines})
    return rounds / (time.process_time() - cpu)


def send_all(ids) -> None:
    from notifications import delivery

    if hasattr(delivery, "send_many"):
        delivery.send_many(ids)
    else:
        for pk in ids:
            delivery.send_one(pk)


def main() -> None:
    from django.conf import settings

    if settings.configured:  # by an earlier benchmark, on its database: run on PostgreSQL
        sys.stdout.flush()
        subprocess.run([sys.executable, "-m", "benchmarks.bench_notifications"], cwd=ROOT,
                       check=True)
        return
    benchdb.setup()
    from django.contrib.auth.models import User
    from django.db import connection

    from benchmarks import mailbench
    from notifications.models import Notification

    shown = {}
    users = [User.objects.create_user(name, f"{name}@example.com", "x") for name in ("ann", "ben")]
    started = time.perf_counter()
    game_ids = make_games(10_000, users)
    print(f"made 10,000 active games in {time.perf_counter() - started:.1f} s")

    empty, _ = timed_sweep()
    print(f"sweep, 10,000 active games, none overdue:  {empty * 1000:8.1f} ms")
    overdue(game_ids[:1000])
    seconds, counts = timed_sweep()
    shown["sweep"] = f"{seconds:.2f} s"
    print(f"sweep, 10,000 active games, 1,000 overdue: {seconds:8.2f} s "
          f"({counts['timed_out']} timeouts applied, {counts['timed_out'] / seconds:,.0f}/s)")
    floor = sweep_floor(1000)
    print(f"floor: 1,000 floor commands (the bare view's one INSERT each, through Django's "
          f"request handling, no HTTP): {floor:.2f} s; the sweep costs {seconds / floor:.2f}x "
          f"(target {SWEEP_VS_FLOOR}x)")
    figures.record("sweep_vs_floor", seconds / floor, SWEEP_VS_FLOOR)
    more = make_games(10_000, users)
    overdue(more[:1000])
    seconds_20k, counts = timed_sweep()
    print(f"sweep, 20,000 active games, 1,000 overdue: {seconds_20k:8.2f} s "
          f"({counts['timed_out']} timeouts applied): grows with the overdue, not all games")
    with connection.cursor() as cursor:
        cursor.execute(
            "EXPLAIN SELECT id, version FROM games_game WHERE status = 'active' "
            "AND deadline <= now() ORDER BY deadline LIMIT 1000")
        plan = " / ".join(row[0].strip() for row in cursor.fetchall()[:3])
    print(f"due-games query plan: {plan}")

    # Turn mails of games some 300 events in: the state, the events since the player's
    # last turn, the table talk, the board, in the recipient's language.
    turn_ids = mailbench.games_with_turn_mails(users)
    render_all(turn_ids[:20])  # warm: templates, catalogues, connection
    cpu, started = time.process_time(), time.perf_counter()
    messages = render_all(turn_ids)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    rendered = len(messages)
    shown["render"] = f"{rendered / cpu:,.0f}/s"
    print(f"turn mails rendered by one worker: {rendered:,} in {elapsed:.2f} s, "
          f"{rendered / cpu:,.0f} per CPU second ({rendered / elapsed:,.0f}/s by the clock)")
    floor_rate = template_floor(messages, rendered)
    text_kib = statistics.mean(len(m.body) for m in messages) / 1024
    html_kib = statistics.mean(len(m.alternatives[0][0]) for m in messages) / 1024
    print(f"floor: a bare Django template of the same size (text {text_kib:.1f} KiB + HTML "
          f"{html_kib:.1f} KiB): {floor_rate:,.0f} per CPU second; turn mails at "
          f"{rendered / cpu / floor_rate:.2f} of it (target {MAIL_VS_FLOOR})")
    figures.record("mail_vs_floor", rendered / cpu / floor_rate, MAIL_VS_FLOOR, most=False)

    # Sending over SMTP to a sink on loopback: rendering, claiming and the SMTP exchange.
    rows = Notification.objects.bulk_create([
        Notification(user=users[n % 2], kind=Notification.STARTED,
                     game_id=game_ids[n // 2], key=f"smtp:{n}") for n in range(600)])
    smtp_ids = [row.pk for row in rows] if rows[0].pk else list(
        Notification.objects.filter(key__startswith="smtp:").values_list("pk", flat=True))
    with mailbench.SmtpSink() as sink:
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", sink.port
        settings.EMAIL_USE_TLS = False
        send_all(smtp_ids[:20])
        started = time.perf_counter()
        send_all(smtp_ids[20:])
        mailbench.wait_for(lambda: sink.count >= len(smtp_ids), 10)
        elapsed = time.perf_counter() - started
    shown["smtp"] = f"{(len(smtp_ids) - 20) / elapsed:,.0f}/s"
    print(f"game mails sent over SMTP to a local sink by one worker: "
          f"{(len(smtp_ids) - 20) / elapsed:,.0f}/s ({sink.count} received)")

    shown["lateness"] = lateness()
    shown["lateness_redis"] = lateness("--redis", REDIS_URL)

    print()
    print(f"{'figure':<52} {'before':>24} {'now':>12}   target")
    for key, name, target in (
        ("sweep", "deadline sweep, 1,000 overdue of 10,000 games", "under 2 s"),
        ("lateness", "10-s deadline applied after it, 10,000 mails queued",
         "within 15 s sweep interval + 5 s"),
        ("lateness_redis", "the same with Redis as the broker",
         "within 15 s sweep interval + 5 s"),
        ("render", "turn mails rendered per CPU second, one worker", "at least 500/s"),
        ("smtp", "mails sent per second over SMTP to a local sink", "(shown, no target)"),
    ):
        print(f"{name:<52} {BEFORE[key] or 'n/a':>24} {shown[key]:>12}   {target}")


if __name__ == "__main__":
    main()
