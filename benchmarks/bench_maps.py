"""Maps figures: loading and validating each shipped map file, and the rules engine's cost
per event on the largest shipped map against classic (target: no more than 3x slower).

The games are computer players' games (bots/, which play on any map) with a round limit;
only the engine's part (decide and evolve, then replay) is timed, never the bots'."""

from __future__ import annotations

import json
import random
import time

from benchmarks import figures
from bots import choose
from engine import (
    FairDice,
    StartGame,
    TimeOut,
    decide,
    evolve,
    parse_command,
    replay,
    validate_rules,
)
from engine import view as seat_view
from engine.maps import FOLDER, build, community, formats, shipped, shipped_boards
from engine.moves import seats_to_act

PLAYERS = 4
ROUNDS = 40  # a round limit: every game the same length in rounds, on any map


def load_times() -> None:
    """Reading a map file, validating it and building its board (nothing cached)."""
    for board in shipped_boards():
        path = FOLDER / f"{board.id}.json"
        best = float("inf")
        for _ in range(5):
            started = time.perf_counter()
            build(json.loads(path.read_text(encoding="utf-8")))
            best = min(best, time.perf_counter() - started)
        print(f"load + validate {board.id:<8} ({len(board.territories):>3} territories, "
              f"{len(board.borders):>3} borders, {path.stat().st_size / 1024:6.0f} KiB): "
              f"{best * 1000:7.1f} ms")


def engine_game(board, seed: int) -> tuple[list, float, int]:
    """A normal-bot game on `board`; its events, the seconds decide and evolve took, and
    the commands decided."""
    rules = validate_rules({"round_limit": ROUNDS}, PLAYERS, board)
    dice = FairDice(f"{seed:064x}", f"maps-{seed}")
    rnd = random.Random(seed)
    events = decide(None, StartGame(f"maps-{seed}", PLAYERS, rules, (), board), dice)
    state = replay(events)
    public, spent, commands = rules.to_dict(), 0.0, 0
    while not state.finished:
        owing = seats_to_act(state)
        if owing:
            seat = rnd.choice(owing)
            command = parse_command(
                choose(seat_view(state, seat), public, "normal", rnd), seat)
        else:
            command = TimeOut()
        started = time.perf_counter()
        new = decide(state, command, dice)
        for event in new:
            state = evolve(state, event)
        spent += time.perf_counter() - started
        commands += 1
        events.extend(new)
    return events, spent, commands


def engine_rates(board, games: int = 3) -> tuple[float, float]:
    """Microseconds per event: deciding and applying them while played, and replaying."""
    events_total, decided, replayed = 0, 0.0, 0.0
    for seed in range(games):
        events, spent, _ = engine_game(board, seed)
        events_total += len(events)
        decided += spent
        best = float("inf")
        for _ in range(5):
            started = time.perf_counter()
            replay(events)
            best = min(best, time.perf_counter() - started)
        replayed += best
    return decided / events_total * 1e6, replayed / events_total * 1e6


def community_file(points: list, neighbours: dict) -> bytes:
    """A Domination file: territories at `points` in six continents, `neighbours` each."""
    lines = ["[continents]", *(f"C{c} 1" for c in range(1, 7)), "[countries]"]
    lines += [f"{i} T{i} {i % 6 + 1} {x} {y}" for i, (x, y) in enumerate(points, 1)]
    lines += ["[borders]", *(" ".join(map(str, [i, *around])) for i, around in
                             neighbours.items())]
    return "\n".join(lines).encode()


def import_times() -> None:
    """Reading, checking and drawing the largest community files the import's limits let
    through (formats.MAX_TERRITORIES, MAX_NEIGHBOURS each), from ordinary to degenerate."""
    most, rnd = formats.MAX_TERRITORIES, random.Random(1)
    neighbours = {i: sorted(rnd.sample([n for n in range(1, most + 1) if n != i],
                                       formats.MAX_NEIGHBOURS)) for i in range(1, most + 1)}
    spread = [(rnd.uniform(0, 1000), rnd.uniform(0, 1000)) for _ in range(most)]
    files = {"spread out": spread, "all at one point": [(1, 1)] * most,
             "half in a speck, half spread": [(rnd.random(), rnd.random()) for _ in range(
                 most // 2)] + spread[most // 2:]}
    for kind, points in files.items():
        raw = community_file(points, neighbours)
        started = time.perf_counter()
        community.read(raw, "bench.map")
        print(f"import {most} territories, {formats.MAX_NEIGHBOURS} neighbours each, "
              f"{kind:<28} ({len(raw) / 1024:4.0f} KiB): "
              f"{time.perf_counter() - started:5.2f} s")


def main() -> None:
    load_times()
    import_times()
    largest = max(shipped_boards(), key=lambda b: len(b.territories))
    rates = {}
    for board in dict.fromkeys([shipped("classic"), largest]):
        rates[board.id] = engine_rates(board)
        decide_us, replay_us = rates[board.id]
        print(f"engine on {board.id:<8} ({PLAYERS} players, {ROUNDS} rounds, normal bots): "
              f"decide + apply {decide_us:6.1f} us/event ({1e6 / decide_us:>9,.0f}/s), "
              f"replay {replay_us:6.1f} us/event ({1e6 / replay_us:>9,.0f}/s)")
    if largest.id != "classic":
        base, big = rates["classic"], rates[largest.id]
        print(f"{largest.id} against classic per event: decide x{big[0] / base[0]:.2f}, "
              f"replay x{big[1] / base[1]:.2f} (target: no more than x3)")
        figures.record("map_largest_decide_vs_classic", big[0] / base[0], 3)
        figures.record("map_largest_replay_vs_classic", big[1] / base[1], 3)


if __name__ == "__main__":
    main()
