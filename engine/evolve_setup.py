"""evolve for setup: the table laid out, territories dealt or claimed, starting armies
placed, capitals chosen, the play order drawn."""

from __future__ import annotations

from . import events as ev
from .maps import CLASSIC_FIRST_HASH, board_by_hash
from .options import Rules
from .pieces import COLORS, NEUTRAL
from .state import (
    CAPITAL,
    CLAIM,
    SETUP_DONE,
    SETUP_PLACE,
    GameState,
    Player,
)


def _game_started(state, data):
    rules = Rules.from_dict(data["rules"])
    players = data["players"]
    # A game_started from before maps were data played the classic board's first version.
    board = board_by_hash(data.get("map_hash") or CLASSIC_FIRST_HASH)
    state = GameState(
        game_id=str(data["game_id"]),
        rules=rules,
        order=list(data["order"]),
        players=[
            Player(seat, COLORS[seat], setup_armies=board.starting_armies[players])
            for seat in range(players)
        ],
        owner=dict.fromkeys(board.territories),
        armies=dict.fromkeys(board.territories, 0),
        board=board,
    )
    state.engine = data.get("engine", state.engine)
    if rules.setup == "claim":
        state.phase, state.current = CLAIM, state.order[0]
    else:
        state.phase = SETUP_PLACE
    return state


def _begin_placement(state):
    state.phase = SETUP_PLACE
    state.current = None
    if state.rules.setup != "random" and state.rules.initial_placement == "turns":
        next_placement_turn(state, None)
    elif all(p.out or p.setup_armies <= 0 for p in state.players):
        # Nobody still in has armies left to place (claiming took them all, as when most
        # of a big map's table dropped out during the claim): nothing to wait for.
        setup_placed(state)


def next_placement_turn(state, after):
    """Hand the placement turn to the next seat, in order, that still has armies to place."""
    order = state.order
    start = -1 if after is None else order.index(after)
    for step in range(1, len(order) + 1):
        seat = order[(start + step) % len(order)]
        player = state.players[seat]
        if not player.out and player.setup_armies > 0:
            state.current = seat
            state.reinforcements = min(state.rules.placement_batch, player.setup_armies)
            return
    setup_placed(state)


def setup_placed(state):
    state.current = None
    state.reinforcements = 0
    for player in state.players:
        player.submitted = False
    state.phase = CAPITAL if state.rules.objective == "capitals" else SETUP_DONE


def _territories_dealt(state, data):
    neutral_armies = 2 if state.has_neutral else 1
    for territory, owner in data["owners"].items():
        state.owner[territory] = owner
        if owner == NEUTRAL:
            state.armies[territory] = neutral_armies
        else:
            state.armies[territory] = 1
            state.players[owner].setup_armies -= 1
    if state.phase != CLAIM:
        _begin_placement(state)
    return state


def _territory_claimed(state, data):
    seat, territory = data["seat"], data["territory"]
    state.owner[territory] = seat
    state.armies[territory] = 1
    state.players[seat].setup_armies -= 1
    if any(o is None for o in state.owner.values()):
        state.current = state.next_seat(seat)
    else:
        _begin_placement(state)
    return state


def _deck_shuffled(state, data):
    cards = data["cards"]
    state.deck = list(cards)
    shuffled = set(cards)
    state.discard = [c for c in state.discard if c not in shuffled]
    return state


def _missions_dealt(state, data):
    for seat, mission in enumerate(data["missions"]):
        state.players[seat].mission = mission
    return state


def _placement_submitted(state, data):
    player = state.players[data["seat"]]
    player.submitted = True
    player.hidden_placement = dict(data["placements"])
    return state


def _capital_chosen(state, data):
    player = state.players[data["seat"]]
    player.capital = data["territory"]
    player.submitted = True
    if all(p.out or p.submitted for p in state.players):
        capitals_chosen(state)
        for p in state.players:
            p.submitted = False
    return state


def capitals_chosen(state):
    """Every capital is in: setup is done. Under `capital_card_out` each capital's
    territory card leaves play (all cards are still in the deck then)."""
    state.phase = SETUP_DONE
    if not state.rules.capital_card_out:
        return
    for player in state.players:
        if player.capital is None:
            continue
        card = next(i for i, (territory, _) in enumerate(state.board.cards)
                    if territory == player.capital)
        for pile in (state.deck, state.discard):
            if card in pile:
                pile.remove(card)
        if card not in state.removed:
            state.removed.append(card)


def _play_order_drawn(state, data):
    state.order = list(data["order"])
    return state


# The event types this module applies, with their handlers.
HANDLERS = {
    ev.GAME_STARTED: _game_started,
    ev.TERRITORIES_DEALT: _territories_dealt,
    ev.TERRITORY_CLAIMED: _territory_claimed,
    ev.DECK_SHUFFLED: _deck_shuffled,
    ev.MISSIONS_DEALT: _missions_dealt,
    ev.PLACEMENT_SUBMITTED: _placement_submitted,
    ev.CAPITAL_CHOSEN: _capital_chosen,
    ev.PLAY_ORDER_DRAWN: _play_order_drawn,
}
