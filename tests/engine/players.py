"""A seeded random player that only asks for legal things, and now and then for an illegal
one the engine must refuse: for property tests, benchmarks and load tests, never for a game
(the computer players are bots/). It speaks the JSON commands of docs/bots/contract.md, as a client
would, and reads the whole engine state, hidden parts included."""

from __future__ import annotations

import random

from engine.cards import find_sets
from engine.pieces import NEUTRAL
from engine.sight import fogged, in_sight
from engine.state import (
    ATTACK,
    CAPITAL,
    CLAIM,
    FORTIFY,
    NEUTRAL_PLACE,
    OCCUPY,
    REINFORCE,
    SETUP_PLACE,
)


def _split(rnd: random.Random, territories: list[str], count: int, cap=None, armies=None):
    placements: dict[str, int] = {}
    for _ in range(count):
        room = [t for t in territories
                if cap is None or armies[t] + placements.get(t, 0) < cap]
        territory = rnd.choice(room)
        placements[territory] = placements.get(territory, 0) + 1
    return placements


def bot_command(state, seat: int, rnd: random.Random, aggression: float = 0.9) -> dict:
    """A legal command for `seat`, which must be one of seats_to_act(state)."""
    phase, owner, armies = state.phase, state.owner, state.armies
    own = state.territories_of(seat)
    if phase == CLAIM:
        return {"type": "claim", "territory": rnd.choice(state.territories_of(None))}
    if phase == SETUP_PLACE:
        count = state.reinforcements if state.current is not None else (
            state.players[seat].setup_armies)
        cap = state.rules.initial_max_per_territory
        return {"type": "place", "placements": _split(rnd, own, count, cap, armies)}
    if phase == CAPITAL:
        return {"type": "choose_capital", "territory": rnd.choice(own)}
    if phase == NEUTRAL_PLACE:
        neutral = state.territories_of(NEUTRAL)
        if fogged(state):  # only where the placing player sees the neutral
            seen = in_sight(state, seat)
            neutral = [t for t in neutral if t in seen] or neutral
        count = rnd.randint(1, state.reinforcements)
        return {"type": "place_neutral", "placements": _split(rnd, neutral, count)}
    if phase == REINFORCE:
        hand = state.players[seat].cards
        sets = find_sets(hand, state.board.cards)
        # Mid-turn (an elimination, the hand limit) a hand is traded only down to the limit.
        may_trade = sets and state.may_trade(seat)
        if may_trade and (state.trade_owed(seat) or rnd.random() < 0.5):
            return {"type": "trade", "cards": list(rnd.choice(sets))}
        border = state.border_territories(seat)
        count = rnd.randint(1, state.reinforcements)
        return {"type": "place", "placements": _split(rnd, rnd.sample(border, min(2, len(border))), count)}
    if phase == OCCUPY:
        occupation = state.occupation
        most = armies[occupation.source] - 1
        return {"type": "occupy", "armies": rnd.randint(occupation.minimum, most)}
    if phase == ATTACK:
        allies = state.allies(seat)
        options = [
            (a, b) for a in own if armies[a] >= 2
            # now and then a teammate's territory: the engine must refuse that attack
            for b in state.board.neighbours[a] if (owner[b] not in allies or rnd.random() < 0.01)
            and owner[b] != seat and (armies[a] > armies[b] + 1 or rnd.random() < 0.05)
        ]
        if options and rnd.random() < aggression:
            source, target = rnd.choice(options)
            command = {"type": "attack", "from": source, "to": target,
                       "repeat": rnd.random() < 0.7}
            if rnd.random() < 0.2:
                command["dice"] = rnd.randint(1, min(3, armies[source] - 1))
            return command
        if rnd.random() < 0.3:
            return {"type": "end_attack"}
    if phase in (ATTACK, FORTIFY):
        move = _fortify_move(state, seat, own, rnd)
        if move and rnd.random() < 0.7:
            return move
        return {"type": "end_turn"}
    raise AssertionError(f"no move for seat {seat} in phase {phase}")


def _fortify_move(state, seat, own, rnd):
    armies, owner, allies = state.armies, state.owner, state.allies(seat)
    sources = [t for t in own if armies[t] >= 2]
    rnd.shuffle(sources)
    for source in sources:
        # its own territories, and in a team game its teammates'
        friends = [n for n in state.board.neighbours[source] if owner[n] in allies]
        if not friends:
            continue
        if state.rules.fortify == "spread":
            targets = rnd.sample(friends, min(len(friends), rnd.randint(1, 3)))
            budget = armies[source] - 1
            moves = []
            for target in targets:
                if budget <= 0:
                    break
                armies_moved = rnd.randint(1, budget)
                budget -= armies_moved
                moves.append({"to": target, "armies": armies_moved})
            return {"type": "fortify", "from": source, "moves": moves}
        target = rnd.choice(friends)
        if state.rules.fortify == "connected" and rnd.random() < 0.5:
            reachable = [t for t, holder in owner.items() if holder in allies and t != source]
            target = rnd.choice(reachable)  # may be unconnected: the engine must refuse it
        return {"type": "fortify", "from": source, "to": target,
                "armies": rnd.randint(1, armies[source] - 1)}
    return None
