"""Rules engine figures: replay throughput of a long 6-player game, random games per second."""

from __future__ import annotations

import json
import random
import time

from benchmarks import figures
from engine import (
    Event,
    FairDice,
    StartGame,
    decide,
    evolve,
    parse_command,
    replay,
    validate_rules,
)
from engine.moves import seats_to_act
from tests.engine.players import bot_command


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


# The engine's test bot can stall a 6-player game for millions of events (it attacks at
# random and never holds anything); a round limit keeps each game to a real game's length.
ROUND_LIMIT = {"round_limit": 60}


def long_game() -> list[dict]:
    """A recorded 6-player game of some 7,300 events (60 rounds), as stored JSON."""
    return json.loads(json.dumps([e.to_dict() for e in play(0, 6, 0.9, ROUND_LIMIT)]))


def simple_commands(count: int = 50) -> list[tuple]:
    """(state, command, dice) for `count` place-one-army commands in reinforce phases and
    `count` end_attack commands in attack phases, met in 3-player bot games."""
    found: dict[str, list] = {"reinforce": [], "attack": []}
    for number in range(10_000):
        if all(len(states) >= count for states in found.values()):
            break
        rnd = random.Random(number)
        dice = FairDice(f"{number:064x}", f"simple-{number}")
        state = replay(decide(None, StartGame(f"simple-{number}", 3, validate_rules({}, 3)),
                              dice))
        wanted = "reinforce" if len(found["reinforce"]) < count else "attack"
        for _ in range(2000):
            if state.finished:
                break
            if state.phase == wanted and state.turn > 3:
                found[wanted].append((state, dice))
                break
            seat = rnd.choice(seats_to_act(state))
            try:
                command = parse_command(bot_command(state, seat, rnd, 0.9), seat)
                for event in decide(state, command, dice):
                    state = evolve(state, event)
            except ValueError:
                pass
    commands = [(s, parse_command({"type": "place", "placements": {
        s.territories_of(s.current)[0]: 1}}, s.current), d) for s, d in found["reinforce"]]
    commands += [(s, parse_command({"type": "end_attack"}, s.current), d)
                 for s, d in found["attack"]]
    return commands


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
    figures.record("replay_events_per_s", len(events) / seconds, 100_000, most=False)
    seconds = best_of(10, lambda: replay(Event.from_dict(raw) for raw in stored))
    print(f"replay (from stored JSON dicts): {len(events) / seconds:>10,.0f} events/s")

    commands = simple_commands()

    def decide_all(rounds: int = 200) -> None:
        for _ in range(rounds):
            for state, command, dice in commands:
                decide(state, command, dice)

    seconds = best_of(5, decide_all)
    figures.record("decide_simple_per_s", 200 * len(commands) / seconds, 100_000, most=False)
    print(f"simple commands decided (place one army, end_attack): "
          f"{200 * len(commands) / seconds:>10,.0f}/s (target 100,000; 150,000/s at 84fadea)")

    started, games, played = time.perf_counter(), 0, 0
    while time.perf_counter() - started < 10:
        played += len(play(1000 + games, random.Random(games).randint(2, 6), 0.9, ROUND_LIMIT))
        games += 1
    elapsed = time.perf_counter() - started
    print(f"random full games (2-6 players, bots, round limit 60): {games / elapsed:.1f} games/s, "
          f"{played / elapsed:,.0f} events/s decided and applied")


if __name__ == "__main__":
    main()
