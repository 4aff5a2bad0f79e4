"""The page of a long finished game (figure long_game_page_ms): a six-player game of some
50,000 events the engine played with its own dice, ended by resignations, written in bulk
with its snapshots (benchmarks.fill), then its page asked for anonymously through Django's
whole request handling: the first view (which builds what the page keeps of a finished
game, web/page/finished.py) timed on its own, then the p50 of the views after it; and the
same of a finished game of 300 events, printed beside it as the page's floor; and the first
view of a third game whose page was drawn ahead as the analysis worker does at its end.

Its own database (`conquest_bench_game_page`, CONQUEST_BENCH_GAME_PAGE_DATABASE; made on
the server of DATABASE_URL, migrated, dropped at the end). `python -m benchmarks
game_page` runs it alone; CONQUEST_BENCH_GAME_PAGE_EVENTS sets the game's length,
CONQUEST_BENCH_GAME_PAGE_VIEWS the views timed after the first (20)."""

from __future__ import annotations

import os
import random
import statistics
import time

from benchmarks import benchdb, figures

DATABASE = os.environ.get("CONQUEST_BENCH_GAME_PAGE_DATABASE", "conquest_bench_game_page")
EVENTS = int(os.environ.get("CONQUEST_BENCH_GAME_PAGE_EVENTS", "50000"))
VIEWS = int(os.environ.get("CONQUEST_BENCH_GAME_PAGE_VIEWS", "20"))
SHORT = 300  # events of the game whose page is measured beside, as a floor
TARGET_MS = 100


def main() -> None:
    url = benchdb.named_url(DATABASE, "bench_game_page")
    benchdb.admin(url, f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)",
                  f"CREATE DATABASE {DATABASE}")
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    try:
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)
        # The short game first: its first view also bears the process's own warming up.
        short, long = finished_game(SHORT), finished_game(EVENTS)
        floor = measure(short)
        p50 = measure(long)
        # As the game's end has the analysis worker do it: drawn ahead, the first view too
        # reads only what every later one does.
        again = finished_game(EVENTS, "ahead")
        from web.page.ahead import draw_finished_game

        began, cpu = time.perf_counter(), time.process_time()
        draw_finished_game(again)
        print(f"   drawn ahead (the analysis worker's work at the game's end): "
              f"{(time.perf_counter() - began) * 1000:.0f} ms, "
              f"{time.process_time() - cpu:.2f} CPU s")
        measure(again)
        print(f"   p50 {p50:.1f} ms against {floor:.1f} ms for the page of a game of {SHORT} "
              f"events (the same page's floor on this machine now)")
        figures.record("long_game_page_ms", p50, TARGET_MS)
    finally:
        from django.db import connections

        connections.close_all()
        benchdb.admin(url, f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


def finished_game(events_wanted: int, name: str = "") -> int:
    """A finished six-player game of `events_wanted` events or a few more (the engine's
    test bot plays it; the five seats after the first resign at the end), with a snapshot
    every snapshot_every() events as the append path leaves them; its id."""
    from datetime import timedelta

    from django.utils import timezone

    import engine as rules
    from benchmarks import fill
    from games.models import Event, Game, Seat, Snapshot
    from games.store.states import ENGINE_VERSION, snapshot_every

    seated = fill.users(6, f"seat{events_wanted}{name}_")
    started = time.perf_counter()
    for attempt in range(50):
        rnd = random.Random(attempt)
        options = rules.validate_rules({}, 6)
        pk = fill.reserve_ids(Game, 1)[0]
        game = fill._game(pk, 6, seated[0], options)
        log, state, snapshots = fill._play(game, options, rnd, most=events_wanted)
        if state.finished:
            continue
        dice = rules.FairDice(game.dice_seed, game.game_id)
        for seat in range(1, 6):
            if state.finished:
                break
            if state.players[seat].out:
                continue
            for event in rules.decide(state, rules.parse_command({"type": "resign"}, seat),
                                      dice):
                state = rules.evolve(state, event)
                log.append(event)
                if state.version % snapshot_every() == 0:
                    snapshots.append(state.copy())
        ended = timezone.now()
        fill.copy(Game, [fill.row_of(fill._game(
            pk, 6, seated[0], options, seed=game.seed, started_at=ended - timedelta(days=60),
            finished_at=ended, **fill._projection(state)))])
        fill.copy(Seat, [fill.row_of(Seat(game_id=pk, seat=s, user_id=u), with_pk=False)
                         for s, u in enumerate(seated)])
        fill.copy(Event, fill._event_rows(pk, log, seated, ended))
        fill.copy(Snapshot, [fill.row_of(Snapshot(game_id=pk, seq=s.version, state=s.to_dict(),
                                                  engine_version=ENGINE_VERSION), with_pk=False)
                             for s in snapshots])
        print(f"a finished game of {len(log):,} events ({state.turn} turns) played and "
              f"written in {time.perf_counter() - started:.1f} s")
        return pk
    raise SystemExit(f"no bot game lasted {events_wanted} events")


def measure(pk: int) -> float:
    """The p50 in ms of the views of game `pk`'s page after the first."""
    from django.conf import settings
    from django.test import Client

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    client = Client()
    times, cpus = [], []
    for n in range(VIEWS + 1):
        began, cpu = time.perf_counter(), time.process_time()
        answer = client.get(f"/games/{pk}/", secure=True)
        seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
        if answer.status_code != 200:
            raise SystemExit(f"the page answered {answer.status_code}")
        if n == 0:
            print(f"   first view {seconds * 1000:.0f} ms ({cpu:.2f} CPU s), "
                  f"{len(answer.content) / 1024:.0f} KiB")
        else:
            times.append(seconds)
            cpus.append(cpu)
    p50 = statistics.median(times) * 1000
    # The CPU time too: on a machine shared with other work the wall time waits for it.
    print(f"   the {VIEWS} views after it: p50 {p50:.1f} ms, slowest {max(times) * 1000:.1f} ms;"
          f" CPU p50 {statistics.median(cpus) * 1000:.1f} ms")
    return p50
