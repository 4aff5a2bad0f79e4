"""What the game waits for, and what a seat may do now: the engine's one answer, used by
the pages and the board, the API's view, the mail outbox, the deadline sweep and the
computer players.

Everything here reads a state and changes nothing; decide() stays the judge of a command
(it may refuse a move listed here only for what a listing cannot know, e.g. too many dice).
"""

from __future__ import annotations

from collections import deque

from .cards import find_sets
from .state import (
    ATTACK,
    CAPITAL,
    CLAIM,
    FORTIFY,
    NEUTRAL_PLACE,
    OCCUPY,
    REINFORCE,
    SETUP_PLACE,
    GameState,
)

TURN_PHASES = (REINFORCE, ATTACK, OCCUPY, FORTIFY)


def seats_to_act(state: GameState | None) -> list[int]:
    """Seats the game is waiting for now (several during simultaneous setup phases)."""
    if state is None or state.finished:
        return []
    if state.current is not None:
        return [state.current]
    if state.phase == SETUP_PLACE:
        return [s for s in state.order
                if not state.players[s].out and not state.players[s].submitted
                and state.players[s].setup_armies > 0]
    if state.phase == CAPITAL:
        return [s for s in state.order
                if not state.players[s].out and not state.players[s].submitted]
    return []


def decision(state: GameState | None):
    """Which decision the game waits for: the same key means the same decision is still
    owed. A player's turn (reinforce, attack, occupy, fortify) is one decision; each setup
    step and the neutral's placement are their own; a simultaneous phase is one, however
    many have handed in already."""
    if state is None or state.finished:
        return None
    if state.phase in TURN_PHASES:
        return ("turn", state.turn)
    return (state.phase, state.turn, state.current)


def clock_key(state: GameState | None):
    """The decision a deadline runs for; None while no clock runs (over, or paused)."""
    if state is None or state.paused:
        return None
    return decision(state)


def reachable(state: GameState, seat: int, source: str) -> list[str]:
    """Territories of the seat's team that a chain of them links to `source` (in board
    order): its own, and its teammates' in a team game."""
    owner, allies = state.owner, state.allies(seat)
    neighbours = state.board.neighbours
    seen, queue = {source}, deque([source])
    while queue:
        here = queue.popleft()
        for there in neighbours[here]:
            if there not in seen and owner[there] in allies:
                seen.add(there)
                queue.append(there)
    return [t for t in state.board.territories if t in seen and t != source]


def attack_targets(state: GameState, seat: int, source: str) -> list[str]:
    if state.owner[source] != seat or state.armies[source] < 2:
        return []
    allies = state.allies(seat)
    return [t for t in state.board.neighbours[source] if state.owner[t] not in allies]


def fortify_targets(state: GameState, seat: int, source: str) -> list[str]:
    if state.owner[source] != seat or state.armies[source] < 2:
        return []
    if state.rules.fortify == "connected":
        return reachable(state, seat, source)
    allies = state.allies(seat)
    return [t for t in state.board.neighbours[source] if state.owner[t] in allies]


def legal(state: GameState | None, seat: int | None) -> dict:
    """What `seat` may do now: the command types, and for attack and fortify each source
    with its targets. Nothing for a spectator, a seat that is out, or a finished game."""
    none = {"commands": [], "attack": {}, "fortify": {}}
    if state is None or seat is None or state.finished or state.players[seat].out:
        return none
    commands = ["set_defense", "resign"]
    may = {"commands": commands, "attack": {}, "fortify": {}}
    if state.paused or seat not in seats_to_act(state):
        return may
    phase = state.phase
    own = [t for t in state.board.territories if state.owner[t] == seat]
    if phase == CLAIM:
        commands.append("claim")
    elif phase == SETUP_PLACE:
        commands.append("place")
    elif phase == CAPITAL:
        commands.append("choose_capital")
    elif phase == NEUTRAL_PLACE:
        commands.append("place_neutral")
    elif phase == REINFORCE:
        hand = state.players[seat].cards
        must_trade = state.trade_owed(seat)
        if find_sets(hand, state.board.cards) and state.may_trade(seat):
            commands.append("trade")
        if not must_trade and state.reinforcements > 0:
            commands.append("place")
    elif phase == OCCUPY:
        commands.append("occupy")
    elif phase in (ATTACK, FORTIFY):
        if phase == ATTACK:
            may["attack"] = {t: targets for t in own
                             if (targets := attack_targets(state, seat, t))}
            if may["attack"]:
                commands.append("attack")
            commands.append("end_attack")
        may["fortify"] = {t: targets for t in own
                          if (targets := fortify_targets(state, seat, t))}
        if may["fortify"]:
            commands.append("fortify")
        commands.append("end_turn")
    return may
