"""decide(state, command, rng) -> events: check a command against the rules and say what
happens, drawing any dice from the game's fair stream. The state passed in is never changed.
"""

from __future__ import annotations

from . import setup, turn
from .commands import (
    MODERATOR_ACTIONS,
    PULL_BACK,
    STRETCH,
    Attack,
    ChooseCapital,
    Claim,
    EndAttack,
    EndTurn,
    Fortify,
    Moderate,
    MoveDeadline,
    Occupy,
    Place,
    PlaceNeutral,
    Resign,
    SetDefense,
    StartGame,
    TimeOut,
    Trade,
    check_territories,
)
from .errors import (
    BadCommand,
    GameNotActive,
    GamePaused,
    ModerationRefused,
    NotSeated,
    NotYourTurn,
    WrongPhase,
)
from .events import (
    CHAT_HIDDEN,
    DEADLINE_EXTENDED,
    DEADLINE_PULLED_BACK,
    DEADLINE_STRETCHED,
    DEFENSE_SET,
    GAME_ABORTED,
    GAME_PAUSED,
    GAME_RESUMED,
    MODERATOR_ENDED_TURN,
    PLAYER_REPLACED,
    SEAT_TO_BOT,
    TURN_TIMED_OUT,
    Event,
)
from .flow import (
    Emitter,
    auto_neutral,
    auto_reinforce,
    check_win,
    complete_occupation,
    drop,
    end_turn,
)
from .moves import seats_to_act
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

# From this ENGINE_VERSION on, a missed reinforcement leaves the neutral's half to the
# opponent, as docs/players/rules.md has it; games started before spread it as they always did.
OPPONENT_PLACES_AFTER_A_MISS = 3

# Commands played in the turn of the seat that sends them, and the phases that allow them.
_TURN_COMMANDS = {
    Trade: turn.trade,
    Attack: turn.attack,
    Occupy: turn.occupy,
    EndAttack: turn.end_attack,
    Fortify: turn.fortify,
    EndTurn: turn.end_turn_command,
}


def decide(state: GameState | None, command, rng) -> list[Event]:
    """The events `command` makes, or a RuleViolation; `state` is left as it was."""
    return _run(state, command, rng).events


def decide_and_apply(state: GameState | None, command, rng) -> tuple[list[Event], GameState]:
    """decide(), and the state after its events (a new one; `state` is left as it was).
    The engine evolves a working copy as it decides anyway: a caller that wants the state
    after takes that one instead of copying and evolving `state` a second time."""
    em = _run(state, command, rng)
    return em.events, em.state


def _run(state: GameState | None, command, rng) -> Emitter:
    if isinstance(command, StartGame):
        if state is not None:
            raise GameNotActive("the game has already started")
        em = Emitter(None, rng, None)
        setup.start_game(em, command)
        return em
    if isinstance(command, Moderate):
        if state is None:
            raise GameNotActive("the game has not started")
        em = Emitter(state.copy(), rng, None)
        moderate(em, command)
        return em
    if state is None or state.finished:
        raise GameNotActive("the game is not running")
    if state.paused:
        raise GamePaused("a moderator has paused the game")
    if isinstance(command, TimeOut):
        em = Emitter(state.copy(), rng, None)
        timeout(em)
        return em
    if isinstance(command, MoveDeadline):
        em = Emitter(state.copy(), rng, None)
        move_deadline(em, command)
        return em
    check_territories(command, state.board)
    seat = command.seat
    if not isinstance(seat, int) or not 0 <= seat < state.seats:
        raise NotSeated("that seat does not play in this game")
    if state.players[seat].out:
        raise NotYourTurn("you are out of this game")
    em = Emitter(state.copy(), rng, seat)
    kind = type(command)
    if kind is SetDefense and command.neutral:
        if not (state.rules.neutral_dice == "opponent" and state.has_neutral):
            raise BadCommand("the neutral defends with the most dice in this game")
        em.emit(DEFENSE_SET, {"seat": seat, "policy": command.policy, "neutral": True})
    elif kind is SetDefense:
        em.emit(DEFENSE_SET, {"seat": seat, "policy": command.policy})
    elif kind is Resign:
        drop(em, seat, "resigned")
    elif kind is ChooseCapital:
        setup.choose_capital(em, command)
    elif kind is Claim:
        setup.claim(em, command)
    elif kind is Place and state.phase == SETUP_PLACE:
        setup.setup_place(em, command)
    elif kind is PlaceNeutral:
        _require_current(state, seat, "place the neutral's armies")
        turn.place_neutral(em, command)
    elif kind is Place:
        _require_turn(state, seat)
        turn.place(em, command)
    elif kind in _TURN_COMMANDS:
        _require_turn(state, seat)
        _TURN_COMMANDS[kind](em, command)
    else:
        raise WrongPhase(f"{kind.__name__} is not a command")
    return em


def _require_turn(state: GameState, seat: int) -> None:
    if state.phase not in (REINFORCE, ATTACK, OCCUPY, FORTIFY, NEUTRAL_PLACE):
        raise WrongPhase("the game is still being set up")
    if state.turn_seat != seat:
        raise NotYourTurn("it is another player's turn")
    if state.current != seat:
        raise WrongPhase("wait for the neutral's reinforcements to be placed")


def _require_current(state: GameState, seat: int, what: str) -> None:
    if state.current != seat:
        if state.phase == NEUTRAL_PLACE or state.turn_seat != seat:
            raise NotYourTurn(f"it is not yours to {what} now")
        raise WrongPhase(f"you cannot {what} now")


def moderate(em: Emitter, command: Moderate) -> None:
    """A moderator's action: recorded with who did it and why, refused where senseless."""
    state, action = em.state, command.action
    note = {"by": command.by, "reason": command.reason}
    facts = command.facts or {}
    if action not in MODERATOR_ACTIONS:
        raise ModerationRefused(f"no moderator action '{action}'")
    if action == "hide_message":  # table talk may be moderated after the end as well
        hidden = {"message": facts["message"], "author_seat": facts.get("author_seat"), **note}
        if facts.get("team") is not None:  # a team's line: only that team reads of it
            hidden["team"] = facts["team"]
        em.emit(CHAT_HIDDEN, hidden)
        return
    if state.finished:
        raise ModerationRefused("the game is over")
    if action == "replace_player":
        seat = command.seat
        if not isinstance(seat, int) or not 0 <= seat < state.seats:
            raise ModerationRefused("name the seat to hand over")
        if state.players[seat].out:
            raise ModerationRefused("that player is already out of the game")
        em.emit(PLAYER_REPLACED, {**note, "seat": seat, "from": facts["from"],
                                  "to": facts["to"], "to_user_id": facts["to_user_id"]})
        return
    if action == "extend_deadline":
        if state.paused:
            raise ModerationRefused("only a running clock can be extended")
        em.emit(DEADLINE_EXTENDED, {**note, "until": facts["until"], "was": facts.get("was")})
        return
    if action == "pause":
        if state.paused:
            raise ModerationRefused("the game is already paused")
        em.emit(GAME_PAUSED, note)
    elif action == "resume":
        if not state.paused:
            raise ModerationRefused("the game is not paused")
        em.emit(GAME_RESUMED, note)
    elif action == "abort":
        em.emit(GAME_ABORTED, note)
    elif state.paused:
        raise ModerationRefused("resume the game first")
    elif action == "end_turn":
        em.emit(MODERATOR_ENDED_TURN, note)
        timeout(em, counted=False)
    else:
        seat = command.seat
        if not isinstance(seat, int) or not 0 <= seat < state.seats:
            raise ModerationRefused("name the seat to drop")
        if state.players[seat].out:
            raise ModerationRefused("that player is already out of the game")
        drop(em, seat, "moderator", note)


def move_deadline(em: Emitter, command: MoveDeadline) -> None:
    """The clock waits for owing seats on vacation, or runs again for one back early."""
    seats = list(command.seats)
    if not isinstance(command.until, str) or not seats or any(
            isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < em.state.seats
            for s in seats):
        raise BadCommand("a deadline moves for seats of the game, to a date and time")
    facts = {"until": command.until, "was": command.was}
    if command.action == STRETCH:
        if not set(seats) <= set(seats_to_act(em.state)):
            raise NotYourTurn("the clock waits only for seats that owe the decision")
        em.emit(DEADLINE_STRETCHED, {"seats": sorted(seats), **facts})
    elif command.action == PULL_BACK and len(seats) == 1:
        em.emit(DEADLINE_PULLED_BACK, {"seat": seats[0], **facts})
    else:
        raise BadCommand(f"no way to move a deadline '{command.action}'")


def timeout(em: Emitter, counted: bool = True) -> None:
    """Complete the owed decision the simplest legal way and count the miss (docs/players/rules.md "Time");
    uncounted when a moderator ends the turn of an absent player."""
    state = em.state
    missed: list[int] = []

    def miss(seat: int) -> None:
        if counted:
            count = em.state.players[seat].missed_turns + 1
            em.emit(TURN_TIMED_OUT, {"seat": seat, "missed": count})
        missed.append(seat)

    phase = state.phase
    # Read before the neutral's half is placed, which clears it.
    absent_turn = state.absent_turn
    if phase in (CLAIM, SETUP_PLACE, CAPITAL):
        setup.timeout_setup(em, miss)
    elif phase == NEUTRAL_PLACE:
        miss(state.current)
        auto_neutral(em)
        check_win(em)
    else:
        seat = state.turn_seat
        miss(seat)
        if em.state.phase == OCCUPY:
            complete_occupation(em)
            check_win(em)
        if em.state.phase == REINFORCE:
            # The absent player's decision only: the opponent places the neutral's half.
            auto_reinforce(em, seat)
            if state.engine < OPPONENT_PLACES_AFTER_A_MISS or turn.neutral_half_automatic(
                    em.state):
                auto_neutral(em)
            check_win(em)
    limit = em.state.rules.max_missed_turns
    for seat in missed:
        player = em.state.players[seat]
        if counted and not em.state.finished and not player.out and (
            player.missed_turns >= limit
        ):
            if em.state.rules.dropped_seat == "bot" and player.bot is None:
                # The seat keeps its territories and cards; a computer player plays on
                # (and if even it misses its deadlines, the seat is dropped after all).
                em.emit(SEAT_TO_BOT, {"seat": seat, "level": "normal", "reason": "timeout"})
            else:
                drop(em, seat, "timeout")
    state = em.state
    if state.finished:
        return
    if phase in (CLAIM, SETUP_PLACE, CAPITAL):
        setup.continue_setup(em)
    elif (phase != NEUTRAL_PLACE or absent_turn) and state.phase in (ATTACK, FORTIFY):
        # A missed neutral's half ends the turn too when the turn's player missed it.
        end_turn(em, absent=True)
