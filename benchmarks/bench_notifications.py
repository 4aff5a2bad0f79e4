"""Deadline sweep and mail rendering figures, on PostgreSQL."""

from __future__ import annotations

import statistics
import time
from datetime import timedelta

from benchmarks import benchdb


def make_games(count: int, users) -> list[int]:
    """`count` started two-player games, written in bulk (each with its own deal)."""
    from django.utils import timezone

    from games import rules
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
    from notifications.deadlines import sweep_deadlines

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


def main() -> None:
    benchdb.setup()
    from django.contrib.auth.models import User
    from django.db import connection

    from notifications.models import Notification

    users = [User.objects.create_user(name, f"{name}@example.com", "x") for name in ("ann", "ben")]
    started = time.perf_counter()
    game_ids = make_games(10_000, users)
    print(f"made 10,000 active games in {time.perf_counter() - started:.1f} s")

    empty, _ = timed_sweep()
    print(f"sweep, 10,000 active games, none overdue:  {empty * 1000:8.1f} ms")
    overdue(game_ids[:1000])
    seconds, counts = timed_sweep()
    print(f"sweep, 10,000 active games, 1,000 overdue: {seconds:8.2f} s "
          f"({counts['timed_out']} timeouts applied, {counts['timed_out'] / seconds:,.0f}/s)")
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

    from notifications import mail

    rows = list(Notification.objects.filter(kind="timed_out").select_related(
        "user", "game")[:300])
    timings = []
    from django.core.mail import get_connection

    backend = get_connection("django.core.mail.backends.locmem.EmailBackend")
    started = time.perf_counter()
    for row in rows:
        one = time.perf_counter()
        message = mail.render(row)
        message.connection = backend
        message.send()
        timings.append(time.perf_counter() - one)
    elapsed = time.perf_counter() - started
    print(f"mails rendered and handed to the backend by one worker: {len(rows) / elapsed:,.0f}/s "
          f"(median {statistics.median(timings) * 1000:.1f} ms per mail)")


if __name__ == "__main__":
    main()
