"""Deciding the setup: starting the game, claiming, initial placement, choosing capitals."""

from __future__ import annotations

from .commands import ChooseCapital, Claim, Place, StartGame
from .errors import BadCommand, BadPlacement, NotOwner, NotYourTurn, WrongPhase
from .events import (
    ARMIES_PLACED,
    CAPITAL_CHOSEN,
    DECK_SHUFFLED,
    GAME_STARTED,
    MISSIONS_DEALT,
    PLACEMENT_SUBMITTED,
    TERRITORIES_DEALT,
    TERRITORY_CLAIMED,
)
from .fair import DrawStream, entropy_problem
from .flow import Emitter, continue_setup, random_placement
from .missions import missions_in_play
from .pieces import NEUTRAL
from .state import CAPITAL, CLAIM, ENGINE_VERSION, SETUP_PLACE, GameState


# ---- draws that verify() recomputes ----------------------------------------------------
def draw_order(players: int, stream: DrawStream) -> list[int]:
    return stream.shuffle(list(range(players)))


def draw_deal(state: GameState, stream: DrawStream) -> dict:
    """Shuffle the territory cards and deal them round-robin from the first seat (with the
    neutral as a third hand in a two-player game). Under `claim` only the neutral's share."""
    territories = stream.shuffle(list(state.board.territories))
    hands = list(state.order) + ([NEUTRAL] if state.has_neutral else [])
    owners = {t: hands[i % len(hands)] for i, t in enumerate(territories)}
    if state.rules.setup == "claim":
        owners = {t: o for t, o in owners.items() if o == NEUTRAL}
    return owners


def draw_deck(state: GameState, stream: DrawStream) -> list[int]:
    return stream.shuffle(list(state.board.card_ids))


def draw_missions(state: GameState, stream: DrawStream) -> list[str]:
    deck = stream.shuffle(missions_in_play(state.seats, state.board))
    missions = [None] * state.seats
    for i, seat in enumerate(state.order):
        missions[seat] = deck[i]
    return missions


def draw_claim(state: GameState, stream: DrawStream) -> str:
    free = [t for t in state.board.territories if state.owner[t] is None]
    return free[stream.randbelow(len(free))]


def draw_capital(state: GameState, seat: int, stream: DrawStream) -> str:
    own = state.territories_of(seat)
    return own[stream.randbelow(len(own))]


# ---- commands --------------------------------------------------------------------------
def entropy_listed(command: StartGame) -> dict:
    """game_started's list of the players' entropy (docs/players/fair-dice.md "The draws"): the texts in
    seat order and the seat of each; nothing at all when nobody sent any, as before."""
    seats = [seat for seat, _ in command.entropy]
    if any(isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < command.players
           for s in seats) or seats != sorted(set(seats)):
        raise BadCommand("entropy must come from the table's seats, once each, in seat order")
    for _, text in command.entropy:
        problem = entropy_problem(text)
        if problem:
            raise BadCommand(problem)
    if not seats:
        return {}
    return {"contributions": [text for _, text in command.entropy], "contributors": seats}


def start_game(em: Emitter, command: StartGame) -> None:
    rules = command.rules
    listed = entropy_listed(command)
    em.emit(GAME_STARTED, {
        "order": draw_order(command.players, em.draws()), "players": command.players,
        "rules": rules.to_dict(), "game_id": command.game_id, "engine": ENGINE_VERSION,
        "map": command.board.id, "map_hash": command.board.hash, **listed,
    })
    if rules.setup != "claim" or em.state.has_neutral:
        em.emit(TERRITORIES_DEALT, {"owners": draw_deal(em.state, em.draws())})
    em.emit(DECK_SHUFFLED, {"cards": draw_deck(em.state, em.draws())})
    # With two players and the neutral army missions are not used: destroy the other player.
    if rules.objective == "missions" and not em.state.has_neutral:
        em.emit(MISSIONS_DEALT, {"missions": draw_missions(em.state, em.draws())})
    if rules.setup == "random":
        for seat in em.state.order:
            armies = em.state.players[seat].setup_armies
            em.emit(ARMIES_PLACED, {
                "seat": seat, "placements": random_placement(em.state, seat, armies, em.draws()),
                "random": True,
            })
    continue_setup(em)


def claim(em: Emitter, command: Claim) -> None:
    state = em.state
    if state.phase != CLAIM:
        raise WrongPhase("territories are claimed only during the claim phase")
    if state.current != command.seat:
        raise NotYourTurn("another player claims now")
    if state.owner[command.territory] is not None:
        raise BadPlacement(f"{command.territory} is already taken")
    em.emit(TERRITORY_CLAIMED, {"seat": command.seat, "territory": command.territory})
    continue_setup(em)


def check_setup_placements(state: GameState, seat: int, placements: dict) -> int:
    cap = state.rules.initial_max_per_territory
    for territory, count in placements.items():
        if state.owner[territory] != seat:
            raise NotOwner(f"{territory} is not yours")
        if cap is not None and state.armies[territory] + count > cap:
            raise BadPlacement(f"at most {cap} armies on a territory during setup")
    return sum(placements.values())


def setup_place(em: Emitter, command: Place) -> None:
    state, seat = em.state, command.seat
    player = state.players[seat]
    if state.current is None:  # simultaneous
        if player.submitted or player.setup_armies == 0:
            raise NotYourTurn("your placement is already in")
        total = check_setup_placements(state, seat, command.placements)
        if total != player.setup_armies:
            raise BadPlacement(
                f"place all your remaining {player.setup_armies} armies at once (got {total})"
            )
        em.emit(PLACEMENT_SUBMITTED, {"seat": seat, "placements": command.placements})
    else:
        if state.current != seat:
            raise NotYourTurn("another player places now")
        total = check_setup_placements(state, seat, command.placements)
        if total > state.reinforcements:
            raise BadPlacement(f"only {state.reinforcements} to place this turn (got {total})")
        em.emit(ARMIES_PLACED, {"seat": seat, "placements": command.placements})
    continue_setup(em)


def choose_capital(em: Emitter, command: ChooseCapital) -> None:
    state, seat = em.state, command.seat
    if state.phase != CAPITAL:
        raise WrongPhase("capitals are chosen once setup is done")
    if state.players[seat].submitted:
        raise NotYourTurn("your capital is already chosen")
    if state.owner[command.territory] != seat:
        raise NotOwner(f"{command.territory} is not yours")
    em.emit(CAPITAL_CHOSEN, {"seat": seat, "territory": command.territory})
    continue_setup(em)


def timeout_setup(em: Emitter, miss) -> None:
    """A setup decision's deadline passed: make it at random for whoever owed it."""
    state = em.state
    if state.phase == CLAIM:
        seat = state.current
        miss(seat)
        em.emit(TERRITORY_CLAIMED, {
            "seat": seat, "territory": draw_claim(em.state, em.draws()), "random": True,
        })
    elif state.phase == SETUP_PLACE and state.current is not None:
        seat = state.current
        miss(seat)
        em.emit(ARMIES_PLACED, {
            "seat": seat, "random": True,
            "placements": random_placement(em.state, seat, em.state.reinforcements, em.draws()),
        })
    elif state.phase == SETUP_PLACE:
        # Who owes now, read before anything is emitted: the last one's event ends the
        # round and clears everyone's `submitted`, which must not make those who had
        # handed in look as if they owed too.
        owed = [seat for seat in state.order if not state.players[seat].out
                and not state.players[seat].submitted and state.players[seat].setup_armies > 0]
        for seat in owed:
            miss(seat)
            em.emit(ARMIES_PLACED, {
                "seat": seat, "random": True,
                "placements": random_placement(
                    em.state, seat, em.state.players[seat].setup_armies, em.draws()
                ),
            })
    elif state.phase == CAPITAL:
        owed = [seat for seat in state.order if not state.players[seat].out
                and not state.players[seat].submitted]
        for seat in owed:
            miss(seat)
            em.emit(CAPITAL_CHOSEN, {
                "seat": seat, "territory": draw_capital(em.state, seat, em.draws()),
                "random": True,
            })
