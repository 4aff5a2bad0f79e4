"""What one seat (or a spectator, seat None) may see of a game and of its events."""

from __future__ import annotations

from .board import CARDS, TERRITORIES
from .cards import find_sets, next_set_value
from .events import Event, redact
from .missions import describe, effective_mission
from .moves import legal
from .state import OCCUPY, REINFORCE, SETUP_DONE, SETUP_PLACE, GameState


def card_view(card: int) -> dict:
    territory, symbol = CARDS[card]
    return {"id": card, "territory": territory, "symbol": symbol}


def mission_view(state: GameState, seat: int) -> dict | None:
    mission = state.players[seat].mission
    if mission is None:
        return None
    effective = effective_mission(state, seat)
    return {"id": mission, "description": describe(mission), "effective": effective,
            "effective_description": describe(effective)}


def pending_for(state: GameState, seat: int | None) -> dict:
    """What `seat` must do now: armies to place, a forced trade, an occupation."""
    reinforcements = 0
    if seat is not None and not state.finished:
        player = state.players[seat]
        if state.phase == SETUP_PLACE and state.current is None:
            reinforcements = 0 if player.submitted else player.setup_armies
        elif state.current == seat:
            reinforcements = state.reinforcements
    occupation = state.occupation
    return {
        "reinforcements": reinforcements,
        "must_trade": bool(
            seat is not None and state.phase == REINFORCE and state.current == seat
            and len(state.players[seat].cards) >= 5
        ),
        "occupy": None if state.phase != OCCUPY else {
            "from": occupation.source, "to": occupation.target, "min": occupation.minimum,
            "max": state.armies[occupation.source] - 1,
        },
    }


def view(state: GameState, seat: int | None) -> dict:
    """The game as `seat` may see it: other seats' cards, missions, capitals and undisclosed
    placements removed until the game is finished."""
    revealed = state.finished
    owner, armies = state.owner, state.armies
    counts: dict = {}
    totals: dict = {}
    for territory in TERRITORIES:
        o = owner[territory]
        counts[o] = counts.get(o, 0) + 1
        totals[o] = totals.get(o, 0) + armies[territory]
    players = []
    for p in state.players:
        entry = {
            "seat": p.seat, "color": p.color, "territories": counts.get(p.seat, 0),
            "armies": totals.get(p.seat, 0), "cards": len(p.cards), "eliminated": p.eliminated,
            "dropped": p.dropped, "missed_turns": p.missed_turns, "defense": p.defense,
            "unplaced": p.setup_armies, "ready": p.submitted,
            # A computer player took the seat over (the service adds the seats it made).
            "bot": p.bot,
        }
        if revealed:
            entry["mission"] = mission_view(state, p.seat)
            entry["capital"] = p.capital
            entry["hand"] = [card_view(c) for c in p.cards]
        players.append(entry)
    phase = state.phase
    you = None
    if seat is not None:
        me = state.players[seat]
        you = {
            "seat": seat, "color": me.color, "cards": [card_view(c) for c in me.cards],
            "mission": mission_view(state, seat), "capital": me.capital, "defense": me.defense,
            "hidden_placement": me.hidden_placement,
            "tradeable_sets": [list(s) for s in find_sets(me.cards)],
            # The engine's answer to "what may I do now" (games.rules.moves.legal).
            "may": legal(state, seat),
        }
    capitals = {
        p.capital: p.seat for p in state.players
        if p.capital and (revealed or p.capital in state.revealed_capitals)
    }
    return {
        "phase": None if phase == SETUP_DONE else phase,
        "turn": state.turn,
        "round": state.round,
        "turn_seat": state.turn_seat,
        "current_seat": state.current,
        # The player whose turn it is has conquered a territory in it: a card is due.
        "conquered": state.conquered,
        "order": list(state.order),
        "winner": state.winner,
        "paused": state.paused,
        "finish_reason": state.finish_reason,
        "players": players,
        "territories": {t: {"owner": owner[t], "armies": armies[t]} for t in TERRITORIES},
        "pending": pending_for(state, seat),
        "sets_traded": state.sets_traded,
        "next_set_value": next_set_value(state.rules, state.sets_traded),
        "deck_size": len(state.deck),
        "discard_size": len(state.discard),
        "capitals": capitals,
        "you": you,
    }


def redact_event(event: Event, seat: int | None, finished: bool) -> dict:
    """An event as `seat` may see it (everything once the game is finished): the rule is
    its declaration's (games.rules.events)."""
    out = event.to_dict()
    if not finished:
        out["data"] = redact(event.type, event.data, seat)
    return out
