"""A finished game's analysis as the analysis worker works it out (ratings.analysis, chunk by
chunk, a read of the log in each, at the settings' defaults) on PostgreSQL: the CPU it costs
a game of about 50 turns (three `normal` computer players) and one of some 750 turns (five
`easy` ones, about 46,000 events): `analysis_cpu_s_per_game_50_turns` and `_700_turns`
(target at most 10 each); then what the API costs to read the long one back, GET
/api/v1/games/{id}/analysis/, p50 of 20 after a first (`long_game_analysis_api_ms`, target
under 50), beside what a read cost when it replayed the log (before).

The bench's own database (benchmarks.benchdb: CONQUEST_BENCH_DATABASE names it)."""

from __future__ import annotations

import statistics
import time

from benchmarks import benchdb, figures

# Three normal players' games from this seed on, until one lasts about 50 turns.
SHORT = (("normal", "normal", "normal"), 20_000, range(40, 66))
LONG = (("easy",) * 5, 1)
READS = 20


def stored_game(levels: tuple, seed: int, user_ids: list[int]):
    """A finished game the computer players played, stored with its whole log."""
    from django.utils import timezone

    import engine as rules
    from benchmarks import fill
    from bots.arena import play
    from games.models import Event, Game, Seat

    _, events = play(levels, seed=seed, record=True)
    state = rules.replay(events)
    players, pk, now = len(levels), fill.reserve_ids(Game, 1)[0], timezone.now()
    options = rules.validate_rules({}, players)
    seated = user_ids[:players]
    fill.copy(Game, [fill.row_of(fill._game(pk, players, seated[0], options, started_at=now,
                                            finished_at=now, **fill._projection(state)))])
    fill.copy(Seat, [fill.row_of(Seat(game_id=pk, seat=s, user_id=u), with_pk=False)
                     for s, u in enumerate(seated)])
    fill.copy(Event, fill._event_rows(pk, events, seated, now))
    return Game.objects.get(pk=pk), len(events)


def short_seed() -> int:
    from bots.arena import play
    from engine.story import read_story

    levels, seed, wanted = SHORT
    while len(read_story(play(levels, seed=seed, record=True)[1]).turns) not in wanted:
        seed += 1
    return seed


def analysed(game) -> tuple[float, int]:
    """CPU seconds and chunks of the game's analysis, done here as the worker does it."""
    from ratings import analysis

    started, chunks = time.process_time(), 1
    while analysis.do_analyse(game.pk):
        chunks += 1
    return time.process_time() - started, chunks


def main() -> None:
    benchdb.setup()
    from django.conf import settings
    from django.test import Client

    from benchmarks import fill
    from ratings import analysis
    from ratings.models import GameAnalysis

    user_ids = fill.users(5, "analysed")
    print(f"defaults: at most {settings.CONQUEST_ANALYSIS_POINTS} positions, "
          f"{settings.CONQUEST_ANALYSIS_PLAYOUTS} play-outs each (fewer once within "
          f"±{settings.CONQUEST_ANALYSIS_MARGIN:g} points), a ceiling of "
          f"{settings.CONQUEST_ANALYSIS_CPU_SECONDS:g} CPU-s a game, chunks of "
          f"{settings.CONQUEST_ANALYSIS_CHUNK_SECONDS:g} CPU-s")
    long_game = None
    for name, (levels, seed) in (("50_turns", (SHORT[0], short_seed())), ("700_turns", LONG)):
        game, events = stored_game(levels, seed, user_ids)
        spent, chunks = analysed(game)
        row = GameAnalysis.objects.get(game=game)
        turns = len(row.chances) - 1
        figures.record(f"analysis_cpu_s_per_game_{name}", round(spent, 1), 10)
        print(f"-- {turns} turns ({events:,} events, {','.join(levels)}): {spent:.1f} CPU-s in "
              f"{chunks} chunks; {len(row.estimates)} positions played out, "
              f"{sum(n for _, _, n in row.estimates)} play-outs "
              f"({min(n for _, _, n in row.estimates)} to "
              f"{max(n for _, _, n in row.estimates)} each); ±{analysis.margin(row.playouts)} "
              f"points at 95 % at the widest; turning points at turns "
              f"{', '.join(str(p['turn']) for p in row.turning_points)}")
        long_game = game

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    client = Client()
    path = f"/api/v1/games/{long_game.pk}/analysis/"
    assert client.get(path).status_code == 200
    times = []
    for _ in range(READS):
        started = time.perf_counter()
        answer = client.get(path)
        times.append((time.perf_counter() - started) * 1000)
        assert answer.status_code == 200, answer.status_code
    started = time.perf_counter()
    analysis.charts(analysis.story_of(long_game))
    replayed = (time.perf_counter() - started) * 1000
    p50 = statistics.median(times)
    figures.record("long_game_analysis_api_ms", round(p50, 1), 50)
    print(f"-- GET {path}: p50 {p50:.1f} ms, slowest {max(times):.1f} ms of {READS} "
          f"({len(answer.content):,} bytes); before (the log replayed on every read): "
          f"{replayed:.0f} ms for its charts' numbers alone")
