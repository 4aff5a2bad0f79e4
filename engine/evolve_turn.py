"""evolve for a turn: reinforcements and trades, battles and conquests, cards drawn,
fortifying, the turn's end."""

from __future__ import annotations

from . import events as ev
from .evolve_setup import next_placement_turn, setup_placed
from .pieces import NEUTRAL
from .state import (
    ATTACK,
    FORTIFY,
    NEUTRAL_PLACE,
    OCCUPY,
    REINFORCE,
    SETUP_PLACE,
    Occupation,
)


def _leave_reinforce(state):
    """All owed armies placed and no trade owed: on to attacking (via the neutral's share)."""
    if state.trade_down:
        # Back to where the mid-turn trade interrupted play; after a draw at the end of the
        # turn ("end"), decide ends the turn at once.
        state.trade_down = False
        state.phase = ATTACK if state.trade_resume == ATTACK else FORTIFY
        return
    share = state.reinforce_value // 2 if state.has_neutral else 0
    if share and any(o == NEUTRAL for o in state.owner.values()):
        state.phase = NEUTRAL_PLACE
        state.current = state.opponent_of(state.turn_seat)
        state.reinforcements = share
    else:
        state.phase = ATTACK


def _armies_placed(state, data):
    seat, placements = data["seat"], data["placements"]
    armies = state.armies
    total = 0
    for territory, count in placements.items():
        armies[territory] += count
        total += count
    phase = state.phase
    if phase == REINFORCE:
        state.reinforcements -= total
        if state.reinforcements <= 0 and not state.trade_owed(seat):
            _leave_reinforce(state)
            # Placed for an absent player: the turn waits only for the neutral's half.
            state.absent_turn = state.phase == NEUTRAL_PLACE and bool(data.get("auto"))
    elif phase == NEUTRAL_PLACE:
        state.reinforcements -= total
        if state.reinforcements <= 0:
            state.phase = ATTACK
            state.current = state.turn_seat
            state.absent_turn = False
    elif phase == SETUP_PLACE:
        player = state.players[seat]
        player.setup_armies -= total
        player.hidden_placement = None
        if state.current is not None:  # placement turns
            state.reinforcements -= total
            if state.reinforcements <= 0:
                next_placement_turn(state, seat)
        elif all(p.setup_armies == 0 or p.out for p in state.players):
            setup_placed(state)
    return state


def _turn_started(state, data):
    seat = data["seat"]
    if state.starts_a_round(seat):
        state.round += 1
    state.turn = data["turn"]
    state.turn_seat = state.current = seat
    state.phase = REINFORCE
    state.reinforcements = state.reinforce_value = data["total"]
    state.conquered = False
    state.trade_down = False
    state.trade_limit = 4
    state.trade_resume = ATTACK
    state.phase_trades = 0
    # Remembered for `continent_bonus_after_round`: held now, paid next turn if still held
    # (kept only under that rule, so that other games' states stay what they were).
    if state.rules.continent_bonus_after_round:
        state.players[seat].held_continents = sorted(state.continents_of(seat))
    state.occupation = None
    return state


def _cards_traded(state, data):
    hand = state.players[data["seat"]].cards
    # Polish rulebook: straight under the draw pile, in the order traded.
    pile = state.deck if state.rules.traded_cards == "bottom" else state.discard
    for card in data["cards"]:
        hand.remove(card)
        pile.append(card)
    state.sets_traded += 1
    if state.rules.forced_trade == "one_set":  # counted only where a rule reads it
        state.phase_trades += 1
    state.reinforcements += data["value"]
    state.reinforce_value += data["value"]
    for territory, extra in data["bonus"].items():
        state.armies[territory] += extra
    return state


def _battle(state, data):
    armies = state.armies
    armies[data["from"]] -= data["attacker_losses"]
    armies[data["to"]] -= data["defender_losses"]
    if data["conquered"]:
        state.owner[data["to"]] = data["seat"]
        minimum = len(data["attacker_dice"]) if state.rules.occupy_minimum == "dice" else 1
        state.occupation = Occupation(data["from"], data["to"], minimum)
        state.phase = OCCUPY
        state.conquered = True
    return state


def _capital_captured(state, data):
    captor, loser = data["seat"], data["owner"]
    if data["territory"] not in state.revealed_capitals:
        state.revealed_capitals.append(data["territory"])
    _take_cards(state, loser, captor, data["cards"])
    _check_hand_limit(state, captor)
    for territory in data["collapsed"]:
        state.owner[territory] = captor
        state.armies[territory] = 1
    return state


def _take_cards(state, loser, taker, cards):
    from_hand = state.players[loser].cards
    to_hand = state.players[taker].cards
    for card in cards:
        from_hand.remove(card)
        to_hand.append(card)


def _player_eliminated(state, data):
    seat, by = data["seat"], data["by"]
    _take_cards(state, seat, by, data["cards"])
    player = state.players[seat]
    player.eliminated, player.eliminated_by = True, by
    rules = state.rules
    # Under `next_reinforce` the cards wait for the conqueror's next reinforce phase.
    if rules.elimination_trade_when == "immediately" and (
            len(state.players[by].cards) >= rules.elimination_trade_at):
        _owe_trade(state, 4, ATTACK)
    else:
        _check_hand_limit(state, by)
    return state


def _owe_trade(state, limit: int, resume: str) -> None:
    """A mid-turn trade is owed: down to `limit` cards (the lower of two limits owed at once)."""
    if state.trade_down:
        limit = min(limit, state.trade_limit)
    state.trade_down = True
    state.trade_limit = limit
    state.trade_resume = resume


def _check_hand_limit(state, seat) -> None:
    """Cards taken in a conquest: above `max_cards` the conqueror trades at once (when the
    conquered territory is occupied)."""
    limit = state.rules.max_cards
    if limit is not None and len(state.players[seat].cards) > limit:
        _owe_trade(state, limit, ATTACK)


def _occupied(state, data):
    state.armies[data["from"]] -= data["armies"]
    state.armies[data["to"]] += data["armies"]
    state.occupation = None
    if state.trade_down:
        state.phase = REINFORCE
        state.reinforcements = 0
    else:
        state.phase = ATTACK
    return state


def _attack_ended(state, data):
    state.phase = FORTIFY
    return state


def _fortified(state, data):
    state.armies[data["from"]] -= data["armies"]
    state.armies[data["to"]] += data["armies"]
    state.phase = FORTIFY
    return state


def _card_drawn(state, data):
    seat = data["seat"]
    state.deck.remove(data["card"])
    hand = state.players[seat].cards
    hand.append(data["card"])
    state.conquered = False  # the turn's card is in
    limit = state.rules.max_cards
    if limit is not None and len(hand) > limit:
        # Over the hand limit: trade at once, then on to fortifying or the turn's end.
        _owe_trade(state, limit, FORTIFY if state.rules.card_draw == "before_fortify" else "end")
        state.phase = REINFORCE
        state.current = seat
        state.reinforcements = 0
    return state


def _turn_ended(state, data):
    state.phase = None
    state.current = None
    state.conquered = False
    return state


# The event types this module applies, with their handlers.
HANDLERS = {
    ev.ARMIES_PLACED: _armies_placed,
    ev.TURN_STARTED: _turn_started,
    ev.CARDS_TRADED: _cards_traded,
    ev.BATTLE: _battle,
    ev.CAPITAL_CAPTURED: _capital_captured,
    ev.PLAYER_ELIMINATED: _player_eliminated,
    ev.OCCUPIED: _occupied,
    ev.ATTACK_ENDED: _attack_ended,
    ev.FORTIFIED: _fortified,
    ev.CARD_DRAWN: _card_drawn,
    ev.TURN_ENDED: _turn_ended,
}
