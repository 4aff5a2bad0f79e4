"""What happens between commands: starting and ending turns, conquests, drops and wins.

Every function here takes the working state and an Emitter; emitting an event evolves the
working state at once, so each step sees what the previous one did.
"""

from __future__ import annotations

from .cards import best_set, set_value
from .events import (
    ARMIES_PLACED,
    CAPITAL_CAPTURED,
    CARD_DRAWN,
    CARDS_TRADED,
    DECK_SHUFFLED,
    GAME_FINISHED,
    OCCUPIED,
    PLAY_ORDER_DRAWN,
    PLAYER_DROPPED,
    PLAYER_ELIMINATED,
    TURN_ENDED,
    TURN_STARTED,
    Event,
)
from .evolve import evolve
from .fair import DrawStream
from .missions import fulfilled
from .options import capitals_needed
from .pieces import NEUTRAL
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
)


class Emitter:
    """Collects the events a command makes, evolving the working state as it goes."""

    def __init__(self, state: GameState | None, rng, actor):
        self.state = state
        self.rng = rng
        self.actor = actor
        self.events: list[Event] = []

    @property
    def next_seq(self) -> int:
        return (self.state.version if self.state else 0) + 1

    def draws(self) -> DrawStream:
        """The random stream of the next event to be emitted (docs/players/fair-dice.md: draws per seq)."""
        return self.rng.at(self.next_seq)

    def emit(self, event_type: str, data: dict) -> Event:
        event = Event(self.next_seq, event_type, data, self.actor)
        self.state = evolve(self.state, event)
        self.events.append(event)
        return event


# ---- reinforcements --------------------------------------------------------------------
def reinforcements_owed(state: GameState, seat: int) -> tuple[int, dict[str, int]]:
    """Base armies (territories // 3, at least 3) and the bonus of each continent held.

    `continent_bonus_after_round`: only continents also held when the seat's previous turn
    started (a seat gains territories only in its own turn and loses them only in others',
    so held then and now means held all along). `minimum_reinforcement: total`: the
    minimum of 3 counts the bonuses too; the base is then what tops them up to 3."""
    rules = state.rules
    base = state.territory_count(seat) // 3
    continents = state.continents_of(seat)
    if rules.continent_bonus_after_round:
        held = state.players[seat].held_continents
        continents = {c: bonus for c, bonus in continents.items() if c in held}
    if rules.minimum_reinforcement == "total":
        return max(base, 3 - sum(continents.values())), continents
    return max(3, base), continents


def spread(territories: list[str], count: int) -> dict[str, int]:
    """Round-robin `count` armies over `territories` in the order given."""
    placements: dict[str, int] = {}
    for i in range(count):
        territory = territories[i % len(territories)]
        placements[territory] = placements.get(territory, 0) + 1
    return placements


def spread_neutral(state: GameState, count: int) -> dict[str, int]:
    """Each army to the neutral territory with the fewest armies (board order breaks ties)."""
    neutral = [t for t in state.board.territories if state.owner[t] == NEUTRAL]
    armies = {t: state.armies[t] for t in neutral}
    placements: dict[str, int] = {}
    for _ in range(count):
        territory = min(neutral, key=lambda t: armies[t])
        armies[territory] += 1
        placements[territory] = placements.get(territory, 0) + 1
    return placements


def neutral_on_borders(state: GameState, count: int) -> dict[str, int]:
    """`neutral_reinforcement: borders`: each army to the neutral territory with the fewest
    armies among those bordering the player whose turn it is (board order breaks ties), so
    the neutral stands in the mover's way; among all neutral territories if none borders
    them. The players' standing choice (games.standing_orders) places by the same rule."""
    neutral = [t for t in state.board.territories if state.owner[t] == NEUTRAL]
    facing = [t for t in neutral if any(state.owner[n] == state.turn_seat
                                        for n in state.board.neighbours[t])]
    candidates = facing or neutral
    armies = {t: state.armies[t] for t in candidates}
    placements: dict[str, int] = {}
    for _ in range(count if candidates else 0):
        territory = min(candidates, key=lambda t: armies[t])
        armies[territory] += 1
        placements[territory] = placements.get(territory, 0) + 1
    return placements


def automatic_neutral(state: GameState, count: int) -> dict[str, int]:
    """Where the engine puts the neutral's half when nobody places it, as the rule says."""
    if state.rules.neutral_reinforcement == "borders":
        return neutral_on_borders(state, count)
    return spread_neutral(state, count)


def random_placement(state: GameState, seat: int, count: int, stream: DrawStream) -> dict:
    """Each army to a random own territory still under the setup cap (used for `random`
    setup and missed setup placements; verify() recomputes it)."""
    cap = state.rules.initial_max_per_territory
    own = state.territories_of(seat)
    placed: dict[str, int] = {}
    for _ in range(count):
        room = [t for t in own if cap is None or state.armies[t] + placed.get(t, 0) < cap]
        if not room:
            break
        territory = room[stream.randbelow(len(room))]
        placed[territory] = placed.get(territory, 0) + 1
    return placed


def trade_bonus(state: GameState, seat: int, cards, chosen: str | None) -> dict[str, int]:
    deck = state.board.cards
    matches = [deck[c][0] for c in cards if deck[c][0] and state.owner[deck[c][0]] == seat]
    if not matches:
        return {}
    if state.rules.card_territory_bonus == "each":
        return {t: 2 for t in matches}
    return {(chosen if chosen in matches else matches[0]): 2}



def auto_reinforce(em: Emitter, seat: int) -> None:
    """Complete a reinforce phase nobody attended: forced trades, armies on the borders
    (the neutral's half, if one is owed next, is not the absent player's to place)."""
    state = em.state
    while state.trade_owed(seat):
        trio = best_set(state.rules, state.players[seat].cards, state.sets_traded,
                        state.board.cards)
        em.emit(CARDS_TRADED, {
            "seat": seat, "cards": list(trio),
            "value": set_value(state.rules, trio, state.sets_traded, state.board.cards),
            "bonus": trade_bonus(state, seat, trio, None),
        })
        state = em.state
    if state.phase == REINFORCE and state.reinforcements > 0:
        em.emit(ARMIES_PLACED, {
            "seat": seat, "placements": spread(state.border_territories(seat), state.reinforcements),
            "auto": True,
        })


def auto_neutral(em: Emitter) -> None:
    state = em.state
    if state.phase == NEUTRAL_PLACE and state.reinforcements > 0:
        em.emit(ARMIES_PLACED, {
            "seat": NEUTRAL, "placements": automatic_neutral(state, state.reinforcements),
            "auto": True,
        })


# ---- turns -----------------------------------------------------------------------------
def round_leader(state: GameState) -> int:
    """Who leads when the round limit ends the game: most territories, then most armies,
    then the earlier in turn order."""
    living = state.living()
    return max(living, key=lambda s: (
        state.territory_count(s),
        sum(a for t, a in state.armies.items() if state.owner[t] == s),
        -living.index(s),
    ))


def resume_after_trade(em: Emitter) -> None:
    """After a mid-turn trade's armies are placed: the turn ends if the trade came with the
    card drawn at its end."""
    state = em.state
    if state.phase == FORTIFY and state.trade_resume == "end" and not state.finished:
        end_turn(em)


def start_turn(em: Emitter, seat: int) -> None:
    state = em.state
    limit = state.rules.round_limit
    if limit is not None and state.round >= limit and state.starts_a_round(seat):
        finish(em, round_leader(state), "round_limit")
        return
    base, continents = reinforcements_owed(state, seat)
    em.emit(TURN_STARTED, {
        "seat": seat, "turn": state.turn + 1, "base": base, "continents": continents,
        "total": base + sum(continents.values()),
    })
    check_win(em)


def redraw_order(state: GameState, stream: DrawStream) -> list[int]:
    """`play_order: redraw`: a fresh draw among the seats still in picks who plays first;
    the others follow in the order they sat in (verify() recomputes it)."""
    living = state.living()
    first = living[stream.randbelow(len(living))]
    at = state.order.index(first)
    return state.order[at:] + state.order[:at]


def start_first_turn(em: Emitter) -> None:
    if em.state.rules.play_order == "redraw":
        em.emit(PLAY_ORDER_DRAWN, {"order": redraw_order(em.state, em.draws())})
    start_turn(em, em.state.living()[0])


def draw_card(em: Emitter, seat: int) -> None:
    """The turn's card for a conquest. Above `max_cards` this leaves a trade owed (phase
    reinforce) before play goes on."""
    state = em.state
    if not state.rules.cards:
        return
    if not state.deck and state.discard:
        em.emit(DECK_SHUFFLED, {"cards": em.draws().shuffle(sorted(state.discard))})
        state = em.state
    if state.deck:
        em.emit(CARD_DRAWN, {"seat": seat, "card": state.deck[0]})


def end_turn(em: Emitter, absent: bool = False) -> None:
    """End the turn, drawing its card if one is due. A draw above the hand limit leaves a
    trade owed: a player who is there makes it (and the turn ends with the placement);
    for an absent one it is made the simplest way at once."""
    seat = em.state.turn_seat
    check_win(em)  # at the latest before the turn passes (docs/players/rules.md: won in one's own turn)
    if em.state.finished:
        return
    if em.state.conquered:
        draw_card(em, seat)
        if em.state.phase == REINFORCE:
            if not absent:
                return
            auto_reinforce(em, seat)
    em.emit(TURN_ENDED, {"seat": seat})
    start_turn(em, em.state.next_seat(seat))


def continue_setup(em: Emitter) -> None:
    """Move setup on when everyone it waited for is in: reveal a simultaneous placement,
    start the first turn."""
    state = em.state
    if state.phase == SETUP_PLACE and state.current is None and all(
        p.out or p.submitted or p.setup_armies <= 0 for p in state.players
    ):
        for seat in state.order:
            player = em.state.players[seat]
            if player.hidden_placement is not None and not player.out:
                em.emit(ARMIES_PLACED, {"seat": seat, "placements": player.hidden_placement})
    if em.state.phase == SETUP_DONE:
        start_first_turn(em)


# ---- conquest, elimination, drops ------------------------------------------------------
def conquer(em: Emitter, seat: int, source: str, target: str, loser) -> None:
    """After a battle that took `target` from `loser` (a seat or the neutral)."""
    state = em.state
    rules = state.rules
    capital_of = state.is_capital(target) if rules.objective == "capitals" else None
    if capital_of is not None and capital_of != seat and (
        target not in state.revealed_capitals or loser == capital_of
    ):
        own_loss = loser == capital_of
        collapsed = []
        if own_loss and rules.capital_collapse:
            collapsed = [
                t for t in state.board.territories
                if state.board.continent_of[t] == state.board.continent_of[target]
                and state.owner[t] == loser
            ]
        em.emit(CAPITAL_CAPTURED, {
            "seat": seat, "owner": capital_of, "territory": target,
            "cards": list(state.players[capital_of].cards) if own_loss else [],
            "collapsed": collapsed,
        })
    state = em.state
    if loser != NEUTRAL and not state.players[loser].out and state.territory_count(loser) == 0:
        em.emit(PLAYER_ELIMINATED, {
            "seat": loser, "by": seat, "cards": list(state.players[loser].cards),
        })
    if len(em.state.living_teams()) == 1:
        complete_occupation(em)
        finish(em, seat, "domination")


def complete_occupation(em: Emitter) -> None:
    """Move the minimum into a conquered territory when nobody will choose (a timeout,
    a drop, the game's end)."""
    occupation = em.state.occupation
    em.emit(OCCUPIED, {
        "from": occupation.source, "to": occupation.target, "armies": occupation.minimum,
    })


def drop(em: Emitter, seat: int, reason: str, note: dict | None = None) -> None:
    """A player leaves (resigned or missed too many turns): territories turn neutral."""
    state = em.state
    if state.phase == OCCUPY and state.turn_seat == seat:
        complete_occupation(em)
    was_turn = state.turn_seat == seat and em.state.phase in (
        REINFORCE, ATTACK, OCCUPY, FORTIFY, NEUTRAL_PLACE)
    em.emit(PLAYER_DROPPED, {"seat": seat, "reason": reason, "cards_to": "deck", **(note or {})})
    state = em.state
    living = state.living()
    if len(state.living_teams()) == 1:
        if state.phase == OCCUPY:
            complete_occupation(em)
        # The seat in turn wins for its team when it is still in; else the first left.
        finish(em, state.turn_seat if state.turn_seat in living else living[0], "domination")
        return
    if state.phase in (CLAIM, SETUP_PLACE, CAPITAL, SETUP_DONE):
        continue_setup(em)
    elif was_turn:
        em.emit(TURN_ENDED, {"seat": seat})
        start_turn(em, em.state.next_seat(seat))
    else:
        # Someone else's departure may fulfil the mission of the player whose turn it is.
        check_win(em)


# ---- winning ---------------------------------------------------------------------------
def capitals_to_win(state: GameState) -> int:
    """The capitals a win takes: the table's count or every one, but never more than the
    capitals in play (a player who left before choosing has none)."""
    in_play = len(state.capital_holders())
    return min(capitals_needed(state.rules, state.seats), in_play)


def holds_capitals(state: GameState, seat: int) -> bool:
    own = state.players[seat].capital
    if own is None or state.owner[own] != seat:
        return False
    held = sum(1 for territory, owner in state.capital_holders().items() if owner == seat)
    return held >= capitals_to_win(state)


def check_win(em: Emitter) -> None:
    """Missions and capitals are won only in the owner's own turn, on a settled board."""
    state = em.state
    if state.finished or state.phase in (OCCUPY, CLAIM, SETUP_PLACE, CAPITAL, SETUP_DONE):
        return
    seat = state.turn_seat
    objective = state.rules.objective
    if objective == "missions" and not state.has_neutral and fulfilled(state, seat):
        finish(em, seat, "mission")
    elif objective == "capitals" and holds_capitals(state, seat):
        finish(em, seat, "capitals")


def finish(em: Emitter, winner: int, reason: str) -> None:
    data = {"winner": winner, "reason": reason}
    if em.state.rules.team_size > 1:  # every member of the winner's team wins
        data["team"] = em.state.team_of(winner)
        data["winners"] = sorted(em.state.allies(winner))
    em.emit(GAME_FINISHED, data)

