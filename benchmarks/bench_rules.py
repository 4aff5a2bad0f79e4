"""Rules engine figures: replay throughput of a long 6-player game, random games per second."""

from __future__ import annotations

import json
import random
import time

from games.rules import (
    Event,
    FairDice,
    StartGame,
    decide,
    evolve,
    parse_command,
    replay,
    validate_rules,
)
from games.rules.bots import bot_command
from games.rules.moves import seats_to_act


def play(game_number: int, players: int, aggression: float, raw: dict | None = None):
    """A whole bot game; returns its events."""
    rnd = random.Random(game_number)
    game_id = f"bench-{game_number}"
    dice = FairDice(f"{game_number:064x}", game_id)
    rules = validate_rules(raw or {}, players)
    events = decide(None, StartGame(game_id, players, rules), dice)
    state = replay(events)
    while not state.finished:
        seat = rnd.choice(seats_to_act(state))
        command = parse_command(bot_command(state, seat, rnd, aggression), seat)
        for event in decide(state, command, dice):
            state = evolve(state, event)
            events.append(event)
    return events


def long_game() -> list[dict]:
    """A recorded 6-player game of some 7,800 events (223 turns), as stored JSON."""
    return json.loads(json.dumps([e.to_dict() for e in play(0, 6, aggression=0.9)]))


def best_of(runs: int, work) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    stored = long_game()
    events = [Event.from_dict(raw) for raw in stored]
    seconds = best_of(20, lambda: replay(events))
    print(f"long 6-player game: {len(events)} events")
    print(f"replay (events in memory):      {len(events) / seconds:>10,.0f} events/s "
          f"(target 100,000)")
    seconds = best_of(10, lambda: replay(Event.from_dict(raw) for raw in stored))
    print(f"replay (from stored JSON dicts): {len(events) / seconds:>10,.0f} events/s")

    started, games, played = time.perf_counter(), 0, 0
    while time.perf_counter() - started < 10:
        played += len(play(1000 + games, random.Random(games).randint(2, 6), aggression=0.9))
        games += 1
    elapsed = time.perf_counter() - started
    print(f"random full games (2-6 players, bots): {games / elapsed:.1f} games/s, "
          f"{played / elapsed:,.0f} events/s decided and applied")


if __name__ == "__main__":
    main()
