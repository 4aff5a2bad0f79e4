"""What one seat (or a spectator, seat None) may see of a game and of its events."""

from __future__ import annotations

from .cards import find_sets, next_set_value
from .events import Event, redact
from .evolve import evolve
from .missions import describe, effective_mission
from .moves import legal
from .options import Rules
from .sight import NOTHING, Sight, in_sight, sight_of
from .state import OCCUPY, SETUP_DONE, SETUP_PLACE, GameState

FOGGED = {"owner": None, "armies": None, "fog": True}


def card_view(card: int, deck: tuple) -> dict:
    territory, symbol = deck[card]
    return {"id": card, "territory": territory, "symbol": symbol}


def mission_view(state: GameState, seat: int) -> dict | None:
    mission = state.players[seat].mission
    if mission is None:
        return None
    effective = effective_mission(state, seat)
    return {"id": mission, "description": describe(mission, state.board), "effective": effective,
            "effective_description": describe(effective, state.board)}


def pending_for(state: GameState, seat: int | None) -> dict:
    """What `seat` must do now: armies to place, a forced trade, an occupation. Only the
    caller's own decisions: another seat's (a conquest waiting to be moved into) would tell
    where it fought and, under fog, what it holds out of sight (docs/bots/contract.md "The game view")."""
    reinforcements = 0
    acting = seat is not None and not state.finished and state.current == seat
    if seat is not None and not state.finished:
        player = state.players[seat]
        if state.phase == SETUP_PLACE and state.current is None:
            reinforcements = 0 if player.submitted else player.setup_armies
        elif acting:
            reinforcements = state.reinforcements
    occupation = state.occupation
    return {
        "reinforcements": reinforcements,
        "must_trade": bool(acting and state.trade_owed(seat)),
        "occupy": None if not acting or state.phase != OCCUPY else {
            "from": occupation.source, "to": occupation.target, "min": occupation.minimum,
            "max": state.armies[occupation.source] - 1,
        },
    }


def view(state: GameState, seat: int | None) -> dict:
    """The game as `seat` may see it: other seats' cards, missions, capitals and undisclosed
    placements removed until the game is finished; under fog of war, the territories out of
    the seat's sight and other teams' totals as well. Teammates see each other's cards."""
    revealed = state.finished
    sight = sight_of(state, seat)
    owner, armies = state.owner, state.armies
    deck = state.board.cards
    counts: dict = {}
    totals: dict = {}
    for territory in state.board.territories:
        o = owner[territory]
        counts[o] = counts.get(o, 0) + 1
        totals[o] = totals.get(o, 0) + armies[territory]
    teams = state.rules.team_size > 1
    players = []
    for p in state.players:
        ally = p.seat in sight.allies
        entry = {
            "seat": p.seat, "color": p.color, "territories": counts.get(p.seat, 0),
            "armies": totals.get(p.seat, 0), "cards": len(p.cards), "eliminated": p.eliminated,
            "dropped": p.dropped, "missed_turns": p.missed_turns, "defense": p.defense,
            "unplaced": p.setup_armies, "ready": p.submitted,
            # A computer player took the seat over (the service adds the seats it made).
            "bot": p.bot,
            "team": state.team_of(p.seat) if teams else None,
        }
        if sight.fogged and not ally:
            entry["territories"] = entry["armies"] = None
        if revealed:
            entry["mission"] = mission_view(state, p.seat)
            entry["capital"] = p.capital
            entry["hand"] = [card_view(c, deck) for c in p.cards]
        elif ally and p.seat != seat:  # a teammate's hand is open to the team
            entry["hand"] = [card_view(c, deck) for c in p.cards]
        players.append(entry)
    phase = state.phase
    you = None
    if seat is not None:
        me = state.players[seat]
        you = {
            "seat": seat, "color": me.color, "cards": [card_view(c, deck) for c in me.cards],
            "mission": mission_view(state, seat), "capital": me.capital, "defense": me.defense,
            "neutral_defense": me.neutral_defense,
            "hidden_placement": me.hidden_placement,
            "tradeable_sets": [list(s) for s in find_sets(me.cards, deck)],
            # The engine's answer to "what may I do now" (engine.moves.legal).
            "may": legal(state, seat),
            "team": state.team_of(seat) if teams else None,
        }
    capitals = {
        p.capital: p.seat for p in state.players
        if p.capital and (revealed or p.capital in state.revealed_capitals)
        and sight.sees(p.capital)
    }
    if sight.fogged:
        territories = {
            t: {"owner": owner[t], "armies": armies[t]} if sight.sees(t) else dict(FOGGED)
            for t in state.board.territories
        }
    else:
        territories = {t: {"owner": owner[t], "armies": armies[t]}
                       for t in state.board.territories}
    winners = None
    if state.winner is not None:
        winners = sorted(state.allies(state.winner)) if teams else [state.winner]
    return {
        "map": state.board.id,
        "map_hash": state.board.hash,
        "phase": None if phase == SETUP_DONE else phase,
        "turn": state.turn,
        "round": state.round,
        "turn_seat": state.turn_seat,
        "current_seat": state.current,
        # The player whose turn it is has conquered a territory in it: a card is due.
        "conquered": state.conquered,
        "order": list(state.order),
        "winner": state.winner,
        # Every seat that won: the winner's whole team in a team game.
        "winners": winners,
        "winning_team": state.team_of(state.winner) if teams and state.winner is not None
        else None,
        "paused": state.paused,
        "finish_reason": state.finish_reason,
        "fog": sight.fogged,
        "players": players,
        "territories": territories,
        "pending": pending_for(state, seat),
        "sets_traded": state.sets_traded,
        "next_set_value": next_set_value(state.rules, state.sets_traded),
        "deck_size": len(state.deck),
        "discard_size": len(state.discard),
        # Mid-turn trade owed (an elimination, the hand limit): trade down to this many.
        "trade_limit": state.trade_limit if state.trade_down else None,
        "capitals": capitals,
        "you": you,
    }


def redact_event(event: Event, seat: int | None, finished: bool,
                 sight: Sight | None = None) -> dict:
    """An event as `seat` may see it (everything once the game is finished): the rules are
    its declaration's (engine.events). `sight` is the seat's (redact_events works it
    out, fog included); without it the seat is taken to play alone, with no fog."""
    out = event.to_dict()
    if not finished:
        out["data"] = redact(event.type, event.data, sight or Sight(seat, frozenset(
            [] if seat is None else [seat])))
    return out


def redact_events(events: list[Event], seat: int | None, finished: bool, rules: Rules,
                  players: int, before: GameState | None = None) -> list[dict]:
    """Consecutive events as `seat` may see them. Under fog a seated player's sight changes
    with the board: `before`, the state the first event applies to (left unchanged), is
    needed then, unless the events start the game. A seat sees an event where it saw the
    board before it or after it."""
    if finished:
        return [e.to_dict() for e in events]
    allies = rules.allies(players, seat)
    if not rules.fog or seat is None:
        sight = Sight(seat, allies, NOTHING if rules.fog else None)
        return [redact_event(e, seat, False, sight) for e in events]
    state = before.copy() if before is not None else None
    out = []
    seen = in_sight(state, seat) if state is not None else NOTHING
    board = None if state is None else tuple(state.owner.values())
    for event in events:
        state = evolve(state, event)
        if state.finished:  # the end lifts the fog
            out.append(event.to_dict())
            continue
        now = tuple(state.owner.values())
        after = seen if now == board else in_sight(state, seat)
        out.append(redact_event(event, seat, False, Sight(seat, allies, seen | after)))
        seen, board = after, now
    return out
