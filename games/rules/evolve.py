"""evolve(state, event) -> state and replay(events): apply what happened, never check or draw.

`evolve` changes the state it is given and returns it: replay must be fast, and `decide`
only ever evolves its own working copy. Copy a state first to keep the old one.
"""

from __future__ import annotations

from . import events as ev
from .board import CARDS, COLORS, NEUTRAL, STARTING_ARMIES, TERRITORIES
from .events import Event
from .options import Rules
from .state import (
    ATTACK,
    CAPITAL,
    CLAIM,
    FORTIFY,
    NEUTRAL_PLACE,
    OCCUPY,
    REINFORCE,
    SETUP_DONE,
    SETUP_PLACE,
    GameState,
    Occupation,
    Player,
)


def _game_started(state, data):
    rules = Rules.from_dict(data["rules"])
    players = data["players"]
    state = GameState(
        game_id=str(data["game_id"]),
        rules=rules,
        order=list(data["order"]),
        players=[
            Player(seat, COLORS[seat], setup_armies=STARTING_ARMIES[players])
            for seat in range(players)
        ],
        owner=dict.fromkeys(TERRITORIES),
        armies=dict.fromkeys(TERRITORIES, 0),
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
        _next_placement_turn(state, None)
    elif all(p.setup_armies == 0 for p in state.players):
        _setup_placed(state)


def _next_placement_turn(state, after):
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
    _setup_placed(state)


def _setup_placed(state):
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
                _next_placement_turn(state, seat)
        elif all(p.setup_armies == 0 or p.out for p in state.players):
            _setup_placed(state)
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
        _capitals_chosen(state)
        for p in state.players:
            p.submitted = False
    return state


def _capitals_chosen(state):
    """Every capital is in: setup is done. Under `capital_card_out` each capital's
    territory card leaves play (all cards are still in the deck then)."""
    state.phase = SETUP_DONE
    if not state.rules.capital_card_out:
        return
    for player in state.players:
        if player.capital is None:
            continue
        card = next(i for i, (territory, _) in enumerate(CARDS) if territory == player.capital)
        for pile in (state.deck, state.discard):
            if card in pile:
                pile.remove(card)
        if card not in state.removed:
            state.removed.append(card)


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


def _turn_timed_out(state, data):
    state.players[data["seat"]].missed_turns = data["missed"]
    return state


def _seat_to_bot(state, data):
    player = state.players[data["seat"]]
    player.bot = data["level"]
    player.missed_turns = 0
    return state


def _player_dropped(state, data):
    seat = data["seat"]
    player = state.players[seat]
    player.dropped = True
    player.drop_reason = data.get("reason")
    player.hidden_placement = None
    player.setup_armies = 0
    # RULES.md: the cards go back to the deck (under the draw pile). Drops recorded before
    # `cards_to` existed put them on the traded pile, and must replay as they were played.
    pile = state.deck if data.get("cards_to") == "deck" else state.discard
    pile.extend(player.cards)
    player.cards = []
    for territory, owner in state.owner.items():
        if owner == seat:
            state.owner[territory] = NEUTRAL
    phase = state.phase
    if phase == CLAIM and state.current == seat:
        state.current = state.next_seat(seat)
    elif phase == SETUP_PLACE and state.current == seat:
        _next_placement_turn(state, seat)
    elif phase == SETUP_PLACE and state.current is None and all(
        p.out or (p.setup_armies == 0) for p in state.players
    ):
        _setup_placed(state)
    elif phase == CAPITAL and all(p.out or p.submitted for p in state.players):
        _capitals_chosen(state)
    return state


def _defense_set(state, data):
    player = state.players[data["seat"]]
    if data.get("neutral"):
        player.neutral_defense = data["policy"]
    else:
        player.defense = data["policy"]
    return state


def _play_order_drawn(state, data):
    state.order = list(data["order"])
    return state


def _game_finished(state, data):
    state.finished = True
    state.winner = data["winner"]
    state.finish_reason = data["reason"]
    state.phase = None
    state.current = None
    state.occupation = None
    state.reinforcements = 0
    return state


def _game_paused(state, data):
    state.paused = True
    return state


def _game_resumed(state, data):
    state.paused = False
    return state


def _game_aborted(state, data):
    state.finished = True
    state.paused = False
    state.winner = None
    state.finish_reason = "aborted"
    state.phase = None
    state.current = None
    state.occupation = None
    state.reinforcements = 0
    return state


def _no_change(state, data):
    return state


HANDLERS = {
    ev.GAME_STARTED: _game_started,
    ev.TERRITORIES_DEALT: _territories_dealt,
    ev.TERRITORY_CLAIMED: _territory_claimed,
    ev.DECK_SHUFFLED: _deck_shuffled,
    ev.MISSIONS_DEALT: _missions_dealt,
    ev.ARMIES_PLACED: _armies_placed,
    ev.PLACEMENT_SUBMITTED: _placement_submitted,
    ev.CAPITAL_CHOSEN: _capital_chosen,
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
    ev.TURN_TIMED_OUT: _turn_timed_out,
    ev.PLAYER_DROPPED: _player_dropped,
    ev.SEAT_TO_BOT: _seat_to_bot,
    ev.DEFENSE_SET: _defense_set,
    ev.PLAY_ORDER_DRAWN: _play_order_drawn,
    ev.GAME_FINISHED: _game_finished,
    ev.GAME_PAUSED: _game_paused,
    ev.GAME_RESUMED: _game_resumed,
    ev.GAME_ABORTED: _game_aborted,
    # The clock's changes of a deadline change no board: the deadline is the layer
    # above's projection of them (games.clock.deadline_after_commit).
    ev.DEADLINE_STRETCHED: _no_change,
    ev.DEADLINE_PULLED_BACK: _no_change,
}


def evolve(state: GameState | None, event: Event) -> GameState:
    handler = HANDLERS.get(event.type, _no_change)
    state = handler(state, event.data)
    state.version = event.seq
    actor = event.actor
    if actor is not None and actor.__class__ is int:
        state.players[actor].missed_turns = 0
    return state


def replay(events, state: GameState | None = None) -> GameState | None:
    """The state after `events`, starting from nothing or from a snapshot `state` (changed)."""
    handlers = HANDLERS
    for event in events:
        state = handlers.get(event.type, _no_change)(state, event.data)
        state.version = event.seq
        actor = event.actor
        if actor is not None and actor.__class__ is int:
            state.players[actor].missed_turns = 0
    return state
