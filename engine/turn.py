"""Deciding a turn: trading and placing reinforcements, attacking, occupying, fortifying."""

from __future__ import annotations

from .cards import is_set, set_value
from .commands import Attack, EndAttack, EndTurn, Fortify, Occupy, Place, PlaceNeutral, Trade
from .errors import (
    BadCards,
    BadCommand,
    BadDice,
    BadPlacement,
    BadTarget,
    MustTrade,
    NotAdjacent,
    NotEnoughArmies,
    NotOwner,
    ReinforcementsLeft,
    WrongPhase,
)
from .events import ARMIES_PLACED, ATTACK_ENDED, BATTLE, CARDS_TRADED, FORTIFIED, OCCUPIED
from .fair import DrawStream
from .flow import (
    Emitter,
    auto_neutral,
    check_win,
    conquer,
    draw_card,
    end_turn,
    resume_after_trade,
    trade_bonus,
)
from .moves import reachable
from .pieces import ATTACK_DICE, DEFENCE_DICE, NEUTRAL
from .sight import fogged, in_sight
from .state import ATTACK, FORTIFY, NEUTRAL_PLACE, OCCUPY, REINFORCE, GameState


def must_trade(state: GameState, seat: int) -> bool:
    return state.trade_owed(seat)


def _must_trade_text(state: GameState, seat: int) -> str:
    if state.trade_down:
        return f"you hold more than {state.trade_limit} cards: trade a set first"
    return "you hold five or more cards: trade a set first"


def _require_attack_phase(state: GameState, seat: int, what: str) -> None:
    """Attacking, ending the attack and fortifying all need the reinforce phase finished."""
    if state.phase == REINFORCE:
        if must_trade(state, seat):
            raise MustTrade(_must_trade_text(state, seat))
        raise ReinforcementsLeft(f"place your {state.reinforcements} armies before you {what}")
    if state.phase == OCCUPY:
        raise WrongPhase("move armies into the conquered territory first (occupy)")
    if state.phase == NEUTRAL_PLACE:
        raise WrongPhase("the neutral's reinforcements are being placed")


# ---- reinforce -------------------------------------------------------------------------
def place(em: Emitter, command: Place) -> None:
    state, seat = em.state, command.seat
    if state.phase != REINFORCE:
        raise WrongPhase("there are no reinforcements to place now")
    if must_trade(state, seat):
        raise MustTrade(_must_trade_text(state, seat))
    for territory in command.placements:
        if state.owner[territory] != seat:
            raise NotOwner(f"{territory} is not yours")
    total = sum(command.placements.values())
    if total > state.reinforcements:
        raise BadPlacement(f"only {state.reinforcements} armies to place (got {total})")
    em.emit(ARMIES_PLACED, {"seat": seat, "placements": command.placements})
    if neutral_half_automatic(em.state):
        auto_neutral(em)
    check_win(em)
    resume_after_trade(em)


def trade(em: Emitter, command: Trade) -> None:
    state, seat = em.state, command.seat
    if state.phase != REINFORCE:
        raise WrongPhase("cards are traded only in the reinforce phase")
    hand = state.players[seat].cards
    if not state.may_trade(seat):
        # Mid-turn (an elimination, the hand limit): trade only down to the limit.
        raise WrongPhase(
            f"in the middle of a turn you trade only while you hold more than "
            f"{state.trade_limit} cards")
    cards = list(command.cards)
    if len(set(cards)) != 3 or any(c not in hand for c in cards):
        raise BadCards("trade three different cards from your hand")
    if not is_set(cards, state.board.cards):
        raise BadCards("those cards are not a set: three of a kind or one of each")
    if command.bonus_territory is not None:
        shown = {state.board.cards[c][0] for c in cards}
        if command.bonus_territory not in shown or state.owner[command.bonus_territory] != seat:
            raise BadCards(f"{command.bonus_territory} is not one of your traded territories")
    em.emit(CARDS_TRADED, {
        "seat": seat, "cards": cards,
        "value": set_value(state.rules, cards, state.sets_traded, state.board.cards),
        "bonus": trade_bonus(state, seat, cards, command.bonus_territory),
    })
    check_win(em)


def neutral_half_automatic(state) -> bool:
    """Whether the neutral's half now owed is spread by the engine, not the opponent."""
    return state.rules.neutral_reinforcement in ("auto", "borders") or neutral_out_of_sight(state)


def neutral_out_of_sight(state) -> bool:
    """Under fog the opponent places the neutral's share only where they see the neutral;
    when they see none of its territories it is spread automatically."""
    if state.phase != NEUTRAL_PLACE or not fogged(state):
        return False
    return not any(state.owner[t] == NEUTRAL for t in in_sight(state, state.current))


def place_neutral(em: Emitter, command: PlaceNeutral) -> None:
    state = em.state
    if state.phase != NEUTRAL_PLACE:
        raise WrongPhase("the neutral has no reinforcements to place now")
    seen = in_sight(state, command.seat) if fogged(state) else None
    for territory in command.placements:
        # Under fog a territory out of sight is refused as such, whoever holds it: the
        # refusal must not tell whether it is neutral.
        if seen is not None and territory not in seen:
            raise NotOwner(f"{territory} is out of your sight")
        if state.owner[territory] != NEUTRAL:
            raise NotOwner(f"{territory} is not neutral")
    total = sum(command.placements.values())
    if total > state.reinforcements:
        raise BadPlacement(f"only {state.reinforcements} neutral armies to place (got {total})")
    absent = state.absent_turn
    em.emit(ARMIES_PLACED, {"seat": NEUTRAL, "placements": command.placements, "by": command.seat})
    if absent and em.state.phase == ATTACK:
        # The turn's player missed it: nothing else of the turn is owed.
        end_turn(em, absent=True)


# ---- attack ----------------------------------------------------------------------------
def defender_dice(state: GameState, territory: str) -> int:
    owner = state.owner[territory]
    if owner != NEUTRAL:
        policy = state.players[owner].defense
    elif state.rules.neutral_dice == "opponent" and state.has_neutral:
        # Polish two-player game: the player not attacking decides, as a standing policy.
        policy = state.players[state.opponent_of(state.turn_seat)].neutral_defense
    else:
        policy = "max"
    return 1 if policy == "one" else min(DEFENCE_DICE, state.armies[territory])


def roll(stream: DrawStream, attacker: int, defender: int) -> tuple[list[int], list[int]]:
    """All attacker dice are drawn before the defender's (docs/players/fair-dice.md)."""
    return stream.dice(attacker), stream.dice(defender)


def losses(attacker_dice, defender_dice) -> tuple[int, int]:
    """Highest against highest, second against second; ties go to the defender."""
    attacker_losses = defender_losses = 0
    pairs = zip(sorted(attacker_dice, reverse=True), sorted(defender_dice, reverse=True), strict=False)
    for a, d in pairs:
        if a > d:
            defender_losses += 1
        else:
            attacker_losses += 1
    return attacker_losses, defender_losses


def attack(em: Emitter, command: Attack) -> None:
    state, seat = em.state, command.seat
    source, target = command.source, command.target
    _require_attack_phase(state, seat, "attack")
    if state.phase != ATTACK:
        raise WrongPhase("the attack phase is over")
    if state.owner[source] != seat:
        raise NotOwner(f"{source} is not yours")
    if state.owner[target] == seat:
        raise BadTarget(f"{target} is yours")
    if state.allied(seat, state.owner[target]):
        raise BadTarget(f"{target} belongs to your teammate")
    if target not in state.board.neighbours[source]:
        raise NotAdjacent(f"{source} does not border {target}")
    if state.armies[source] < 2:
        raise NotEnoughArmies(f"{source} needs at least 2 armies to attack")
    most = min(ATTACK_DICE, state.armies[source] - 1)
    if command.dice is not None and not 1 <= command.dice <= most:
        raise BadDice(f"roll 1 to {most} dice from {source}")
    wanted = command.dice or ATTACK_DICE
    while True:
        state = em.state
        loser = state.owner[target]
        attacker_count = min(wanted, ATTACK_DICE, state.armies[source] - 1)
        attacker_dice, defending = roll(em.draws(), attacker_count, defender_dice(state, target))
        attacker_losses, defender_losses = losses(attacker_dice, defending)
        conquered = state.armies[target] == defender_losses
        em.emit(BATTLE, {
            "seat": seat, "from": source, "to": target, "defender": loser,
            "attacker_dice": attacker_dice, "defender_dice": defending,
            "attacker_losses": attacker_losses, "defender_losses": defender_losses,
            "conquered": conquered,
        })
        if conquered:
            conquer(em, seat, source, target, loser)
            return
        if not command.repeat or em.state.armies[source] < 2:
            return


def occupy(em: Emitter, command: Occupy) -> None:
    state = em.state
    if state.phase != OCCUPY:
        raise WrongPhase("there is no conquered territory to occupy")
    occupation = state.occupation
    most = state.armies[occupation.source] - 1
    if command.armies < occupation.minimum:
        raise NotEnoughArmies(f"move at least {occupation.minimum} armies")
    if command.armies > most:
        raise NotEnoughArmies(f"move at most {most} armies: one must stay behind")
    em.emit(OCCUPIED, {
        "from": occupation.source, "to": occupation.target, "armies": command.armies,
    })
    check_win(em)


def end_attack(em: Emitter, command: EndAttack) -> None:
    _require_attack_phase(em.state, command.seat, "end the attack")
    if em.state.phase != ATTACK:
        raise WrongPhase("the attack phase is already over")
    em.emit(ATTACK_ENDED, {"seat": command.seat})
    draw_before_fortify(em)


def draw_before_fortify(em: Emitter) -> None:
    """`card_draw: before_fortify` (Polish): the turn's card as the attack ends."""
    state = em.state
    if state.rules.card_draw == "before_fortify" and state.conquered:
        draw_card(em, state.turn_seat)


# ---- fortify ---------------------------------------------------------------------------
def connected(state: GameState, seat: int, source: str, target: str) -> bool:
    """Whether a chain of the player's (and teammates') territories links source and target."""
    return target in reachable(state, seat, source)


def fortify(em: Emitter, command: Fortify) -> None:
    state, seat, source = em.state, command.seat, command.source
    _require_attack_phase(state, seat, "fortify")
    mode = state.rules.fortify
    if state.owner[source] != seat:
        raise NotOwner(f"{source} is not yours")
    if mode != "spread" and len(command.moves) != 1:
        raise BadCommand("fortify moves armies to one territory ('to', 'armies')")
    targets = [to for to, _ in command.moves]
    if len(set(targets)) != len(targets):
        raise BadCommand("each territory may appear once in 'moves'")
    for to in targets:
        if to == source or not state.allied(seat, state.owner[to]):
            whose = "yours or a teammate's" if state.rules.team_size > 1 else "yours"
            raise NotOwner(f"{to} is not another territory of {whose}")
        if mode == "connected":
            if not connected(state, seat, source, to):
                raise NotAdjacent(f"no chain of your territories links {source} and {to}")
        elif to not in state.board.neighbours[source]:
            raise NotAdjacent(f"{source} does not border {to}")
    total = sum(armies for _, armies in command.moves)
    if total > state.armies[source] - 1:
        raise NotEnoughArmies(f"move at most {state.armies[source] - 1}: one must stay")
    if state.phase == ATTACK:
        draw_before_fortify(em)
        if em.state.phase == REINFORCE:
            return  # the card took the hand over its limit: trade, place, then fortify
    for to, armies in command.moves:
        em.emit(FORTIFIED, {"from": source, "to": to, "armies": armies})
    # Still the player's turn: a fortification can complete a mission (18 with 2 armies).
    check_win(em)
    if not em.state.finished:
        end_turn(em)


def end_turn_command(em: Emitter, command: EndTurn) -> None:
    _require_attack_phase(em.state, command.seat, "end the turn")
    if em.state.phase not in (ATTACK, FORTIFY):
        raise WrongPhase("the turn cannot end now")
    end_turn(em)
