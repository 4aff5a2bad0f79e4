"""evolve(state, event) -> state and replay(events): apply what happened, never check or draw.

`evolve` changes the state it is given and returns it: replay must be fast, and `decide`
only ever evolves its own working copy. Copy a state first to keep the old one.

Every declared event type has its handler here (setup's and a turn's in evolve_setup and
evolve_turn, the table's below) or is declared to change no state; an event of a type this
engine does not know is an error, never silently skipped.
"""

from __future__ import annotations

from . import events as ev
from . import evolve_setup, evolve_turn
from .events import Event
from .evolve_setup import capitals_chosen, next_placement_turn, setup_placed
from .pieces import NEUTRAL
from .state import CAPITAL, CLAIM, SETUP_PLACE, GameState


class UnknownEventType(LookupError):
    """An event of a type this engine never declared: replaying past it would be a guess."""


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
    # docs/players/rules.md: the cards go back to the deck (under the draw pile). Drops recorded before
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
        next_placement_turn(state, seat)
    elif phase == SETUP_PLACE and state.current is None and all(
        p.out or (p.setup_armies == 0) for p in state.players
    ):
        setup_placed(state)
    elif phase == CAPITAL and all(p.out or p.submitted for p in state.players):
        capitals_chosen(state)
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


# Moderators' actions that change no board: the log keeps them, the layer above projects
# them (engine.events). Each with why there is nothing to apply.
NO_STATE_CHANGE = {
    ev.MODERATOR_ENDED_TURN: "the timeout's events that follow it complete the turn",
    ev.DEADLINE_EXTENDED: "the deadline is the service's column, not the rules' state",
    ev.PLAYER_REPLACED: "who holds a seat is the service's; the seat plays on as it was",
    ev.CHAT_HIDDEN: "table talk is not part of the game's state",
    # The clock's changes of a deadline change no board: the deadline is the layer above's
    # projection of them (games.clock.next_deadline).
    ev.DEADLINE_STRETCHED: "the deadline is the service's column, not the rules' state",
    ev.DEADLINE_PULLED_BACK: "the deadline is the service's column, not the rules' state",
}


def _no_change(state, data):
    return state


HANDLERS = {
    **evolve_setup.HANDLERS,
    **evolve_turn.HANDLERS,
    ev.TURN_TIMED_OUT: _turn_timed_out,
    ev.PLAYER_DROPPED: _player_dropped,
    ev.SEAT_TO_BOT: _seat_to_bot,
    ev.DEFENSE_SET: _defense_set,
    ev.GAME_FINISHED: _game_finished,
    ev.GAME_PAUSED: _game_paused,
    ev.GAME_RESUMED: _game_resumed,
    ev.GAME_ABORTED: _game_aborted,
    **dict.fromkeys(NO_STATE_CHANGE, _no_change),
}


def evolve(state: GameState | None, event: Event) -> GameState:
    try:
        handler = HANDLERS[event.type]
    except KeyError:
        raise UnknownEventType(f"no event type '{event.type}' in this engine") from None
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
        try:
            handler = handlers[event.type]
        except KeyError:
            raise UnknownEventType(f"no event type '{event.type}' in this engine") from None
        state = handler(state, event.data)
        state.version = event.seq
        actor = event.actor
        if actor is not None and actor.__class__ is int:
            state.players[actor].missed_turns = 0
    return state
