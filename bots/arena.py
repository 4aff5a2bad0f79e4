"""Bots against bots through the rules engine alone: no database, no service.

play() is one game; the bot_arena command runs many in a process pool and reports.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from engine import FairDice, StartGame, TimeOut, decide, evolve, parse_command, validate_rules
from engine import view as seat_view
from engine.errors import RuleViolation
from engine.maps import Board, classic, remember
from engine.moves import seats_to_act

from . import choose

MAX_DECISIONS = 30_000


@dataclass
class Result:
    levels: tuple[str, ...]
    winner: int | None           # a seat, or None when the game hit MAX_DECISIONS
    reason: str | None
    turns: int
    times: dict[str, list[float]] = field(default_factory=dict)  # level -> seconds each
    refused: list[str] = field(default_factory=list)            # should stay empty


def play(levels, rules: dict | None = None, seed: int = 0, record: bool = False,
         board: Board | None = None):
    """Play one game of `levels` (one per seat, in seat order) on `board` (default
    classic); return a Result (and the events, with record=True)."""
    levels = tuple(levels)
    players = len(levels)
    board = remember(board) if board is not None else classic()  # views name it by hash
    parsed = validate_rules(rules or {}, players, board)
    game_id = f"arena-{seed}"
    dice = FairDice(f"{seed:064x}", game_id)
    rnd = random.Random(seed)
    events = decide(None, StartGame(game_id, players, parsed, (), board), dice)
    state = None
    for event in events:
        state = evolve(state, event)
    result = Result(levels, None, None, 0, {level: [] for level in set(levels)})
    state = play_on(state, levels, dice, rnd, result, events if record else None)
    result.winner = state.winner if state.finished else None
    result.reason = state.finish_reason
    result.turns = state.turn
    return (result, events) if record else result


def play_on(state, levels, dice: FairDice, rnd: random.Random, result: Result | None = None,
            record: list | None = None, max_decisions: int = MAX_DECISIONS):
    """Play `state` (changed) on with `levels` (one per seat) until it is over or
    `max_decisions` were made; return it. A Result gathers decision times and refusals; a
    list `record` gets the events."""
    public_rules = state.rules.to_dict()
    for _ in range(max_decisions):
        if state.finished:
            break
        owing = seats_to_act(state)
        if not owing:
            command = TimeOut()
        else:
            seat = owing[0] if len(owing) == 1 else rnd.choice(owing)
            started = time.perf_counter()
            payload = choose(seat_view(state, seat), public_rules, levels[seat], rnd)
            if result is not None:
                result.times[levels[seat]].append(time.perf_counter() - started)
            command = parse_command(payload, seat)
        try:
            new = decide(state, command, dice)
        except RuleViolation as refused:
            if result is not None:
                result.refused.append(f"{levels[seat]} seat {seat}: {payload} -> {refused}")
            new = decide(state, TimeOut(), dice)
        for event in new:
            state = evolve(state, event)
        if record is not None:
            record.extend(new)
    return state


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 0.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
