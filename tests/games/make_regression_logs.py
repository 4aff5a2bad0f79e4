"""Records the complete game logs of tests/games/regression/ (run once, then committed).

    .venv/bin/python -m tests.games.make_regression_logs [name ...]
    .venv/bin/python -m tests.games.make_regression_logs --redigest

Each log is a whole bot game played by the pure engine, picked as the shortest of a few
candidates that shows what its case is about. test_regression.py replays the committed
files. Old games are never played again: when a change to the engine is *meant* to change
the final state of old games, `--redigest` keeps every recorded event and records the new
final state (bump games.store.states.ENGINE_VERSION too). Never do it to quiet a failing test.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections import Counter
from pathlib import Path

from engine import (
    Event,
    FairDice,
    RuleViolation,
    StartGame,
    TimeOut,
    decide,
    evolve,
    parse_command,
    replay,
    validate_rules,
)
from engine.moves import seats_to_act
from tests.engine.players import bot_command

FOLDER = Path(__file__).resolve().parent / "regression"
MAX_BYTES = 300_000


def state_digest(state) -> str:
    """What the regression test compares: the whole final state, hidden parts included."""
    return hashlib.sha256(json.dumps(state.to_dict(), sort_keys=True).encode()).hexdigest()


def play(game_id: int, seed: str, players: int, rules: dict, bot_seed: int,
         timeouts: float = 0.0, aggression: float = 0.9):
    """A whole game by bots and the clock, which runs out on a decision at rate `timeouts`
    (five times as often during setup, so that setup timeouts happen at all); returns its
    final state and events. Refused commands (a bot's unconnected fortify) are skipped."""
    rnd = random.Random(bot_seed)
    dice = FairDice(seed, str(game_id))
    checked = validate_rules(rules, players)
    events = decide(None, StartGame(str(game_id), players, checked), dice)
    state = replay(events)
    for _ in range(20_000):
        if state.finished:
            break
        owing = seats_to_act(state)
        rate = timeouts * 5 if state.phase in ("claim", "setup_place", "capital") else timeouts
        if not owing or rnd.random() < rate:
            command = TimeOut()
        else:
            seat = rnd.choice(owing)
            command = parse_command(bot_command(state, seat, rnd, aggression), seat)
        try:
            new_events = decide(state, command, dice)
        except RuleViolation:
            continue
        for event in new_events:
            state = evolve(state, event)
        events.extend(new_events)
    return state, events


def shows_missions(state, events) -> bool:
    return state.finish_reason == "mission"


def shows_capital_collapse(state, events) -> bool:
    collapses = [e for e in events if e.type == "capital_captured" and e.data["collapsed"]]
    return bool(collapses) and state.finish_reason == "capitals"


def shows_neutral(state, events) -> bool:
    placed_by_opponent = [e for e in events if e.type == "armies_placed"
                          and e.data["seat"] == "neutral" and "by" in e.data]
    neutral_battles = [e for e in events if e.type == "battle"
                       and any(d.type == "territories_dealt" and d.data["owners"].get(e.data["to"])
                               == "neutral" for d in events[:5])]
    return bool(placed_by_opponent) and bool(neutral_battles)


def shows_claim_and_simultaneous_timeouts(state, events) -> bool:
    kinds = Counter(e.type for e in events)
    random_claims = [e for e in events if e.type == "territory_claimed" and e.data.get("random")]
    random_setup = [e for e in events if e.type == "armies_placed" and e.data.get("random")
                    and e.seq < first_turn(events)]
    in_turn = [e for e in events if e.type == "turn_timed_out" and e.seq > first_turn(events)]
    return (kinds["placement_submitted"] > 0 and random_claims and random_setup and in_turn
            and state.winner is not None)


def first_turn(events) -> int:
    return next((e.seq for e in events if e.type == "turn_started"), 10**9)


CASES = [
    # name, game id, players, rules, bot aggression, timeout rate, what it must show
    ("missions_3p", 900_001, 3,
     {"objective": "missions", "placement_batch": 5}, 0.9, 0.0, shows_missions),
    ("capitals_collapse_4p", 900_002, 4,
     {"objective": "capitals", "capital_collapse": True, "capitals_to_win": "table",
      "placement_batch": 5}, 0.9, 0.0, shows_capital_collapse),
    ("two_player_neutral", 900_003, 2,
     {"neutral": True, "neutral_reinforcement": "opponent", "placement_batch": 5,
      "fortify": "spread"}, 0.9, 0.0, shows_neutral),
    ("claim_simultaneous_timeouts_3p", 900_004, 3,
     {"setup": "claim", "initial_placement": "simultaneous", "max_missed_turns": 3,
      "card_values": "fixed", "occupy_minimum": "one"}, 0.9, 0.04,
     shows_claim_and_simultaneous_timeouts),
]


def record(name, game_id, players, rules, aggression, timeouts, shows, candidates=40) -> dict:
    seed = hashlib.sha256(f"conquest regression {name}".encode()).hexdigest()
    best = None
    for bot_seed in range(candidates):
        state, events = play(game_id, seed, players, rules, bot_seed, timeouts, aggression)
        if not state.finished or not shows(state, events):
            continue
        if best is None or len(events) < len(best[1]):
            best = (state, events, bot_seed)
    if best is None:
        raise SystemExit(f"{name}: no candidate game shows what it should")
    state, events, bot_seed = best
    return {
        "id": game_id,
        "name": name,
        "seed": seed,
        "players": players,
        "rules": validate_rules(rules, players).to_dict(),
        "bot_seed": bot_seed,
        "events": [e.to_dict() for e in events],
        **final_of(state),
    }


def final_of(state) -> dict:
    return {
        "final": {"version": state.version, "winner": state.winner,
                  "reason": state.finish_reason, "turn": state.turn},
        "final_state": json.loads(json.dumps(state.to_dict())),
        "final_state_digest": state_digest(state),
    }


def write(name: str, log: dict) -> None:
    text = json.dumps(log, indent=None, separators=(",", ":"), sort_keys=True)
    if len(text) > MAX_BYTES:
        raise SystemExit(f"{name}: {len(text):,} bytes, more than {MAX_BYTES:,}")
    (FOLDER / f"{name}.json").write_text(text + "\n")
    print(f"{name}: {len(log['events'])} events, {len(text):,} bytes, "
          f"winner {log['final']['winner']} by {log['final']['reason']}")


def redigest() -> None:
    for path in sorted(FOLDER.glob("*.json")):
        log = json.loads(path.read_text())
        state = replay(Event.from_dict(raw) for raw in log["events"])
        write(path.stem, log | final_of(state))


def main(names: list[str]) -> None:
    if names == ["--redigest"]:
        redigest()
        return
    FOLDER.mkdir(exist_ok=True)
    for case in CASES:
        if not names or case[0] in names:
            write(case[0], record(*case))


if __name__ == "__main__":
    main(sys.argv[1:])
