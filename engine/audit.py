"""audit(state, event): would the rules have produced this event from this state?

verify() replays a record event by event; before applying each one it asks here whether the
rules allow it (whose turn, which phase, what the board and the hand permit, what the
derived figures must be). Draws themselves are recomputed in verify; this checks their use.
Each check returns the first reason the event is impossible, or None.
"""

from __future__ import annotations

from datetime import datetime

from . import events as ev
from .cards import is_set, set_value
from .flow import automatic_neutral, holds_capitals, reinforcements_owed, round_leader, spread
from .missions import fulfilled
from .moves import seats_to_act
from .pieces import ATTACK_DICE, NEUTRAL
from .sight import fogged, in_sight
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
from .turn import connected, defender_dice


def _placements(state: GameState, placements) -> str | None:
    if not isinstance(placements, dict) or not placements:
        return "places no armies"
    for territory, count in placements.items():
        if territory not in state.board.neighbours:
            return f"names no territory ({territory})"
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            return f"places {count!r} armies on {territory}"
    return None


def _owned_by(state: GameState, who, territories) -> str | None:
    for territory in territories:
        if state.owner[territory] != who:
            return f"{territory} does not belong to {state.colour(who)}"
    return None


def _armies_placed(state: GameState, data: dict) -> str | None:
    seat, placements = data.get("seat"), data.get("placements")
    problem = _placements(state, placements)
    if problem:
        return problem
    total = sum(placements.values())
    if seat == NEUTRAL:
        if state.phase != NEUTRAL_PLACE:
            return "places neutral armies outside the neutral's reinforcement"
        if total > state.reinforcements:
            return f"places {total} neutral armies of {state.reinforcements}"
        if data.get("auto") and placements != automatic_neutral(state, state.reinforcements):
            return "is not the neutral's automatic spread"
        if not data.get("auto") and fogged(state) and not set(placements) <= in_sight(
                state, state.current):
            return "places neutral armies out of the placing player's sight"
        return _owned_by(state, NEUTRAL, placements)
    problem = _owned_by(state, seat, placements)
    if problem:
        return problem
    player = state.players[seat]
    if state.phase == SETUP_PLACE:
        if state.rules.setup == "random" and not data.get("random"):
            return "a starting placement of a random setup is not random"
        if state.current is None and player.hidden_placement is not None:
            return None if placements == player.hidden_placement else (
                "is not the placement handed in")
        owed = state.reinforcements if state.current is not None else player.setup_armies
        if state.current is not None and state.current != seat:
            return "places out of turn"
        if total > owed:
            return f"places {total} armies of {owed}"
        cap = state.rules.initial_max_per_territory
        if cap is not None and any(state.armies[t] + n > cap for t, n in placements.items()):
            return f"puts more than {cap} armies on a territory during setup"
        return None
    if state.phase != REINFORCE or state.turn_seat != seat:
        return "places armies outside the player's reinforce phase"
    if total > state.reinforcements:
        return f"places {total} armies of {state.reinforcements}"
    if state.trade_owed(seat) and not data.get("auto"):
        return "places armies while a trade is owed"
    if data.get("auto") and placements != spread(state.border_territories(seat),
                                                 state.reinforcements):
        return "is not the automatic spread over the borders"
    return None


def _placement_submitted(state: GameState, data: dict) -> str | None:
    seat, placements = data.get("seat"), data.get("placements")
    if state.phase != SETUP_PLACE or state.current is not None:
        return "hands in a placement outside simultaneous placement"
    problem = _placements(state, placements) or _owned_by(state, seat, placements)
    if problem:
        return problem
    if sum(placements.values()) != state.players[seat].setup_armies:
        return "does not place every remaining starting army"
    return None


def _territory_claimed(state: GameState, data: dict) -> str | None:
    if state.phase != CLAIM or state.current != data.get("seat"):
        return "claims out of turn"
    if state.owner.get(data.get("territory"), "") is not None:
        return f"{data.get('territory')} is not free"
    return None


def _capital_chosen(state: GameState, data: dict) -> str | None:
    seat = data.get("seat")
    if state.phase != CAPITAL or state.players[seat].submitted:
        return "chooses a capital outside the capital choice"
    return _owned_by(state, seat, [data.get("territory")])


def _turn_started(state: GameState, data: dict) -> str | None:
    if state.phase not in (None, SETUP_DONE):
        return "starts a turn while another is under way"
    seat = data.get("seat")
    expected = state.living()[0] if state.turn == 0 else state.next_seat(state.turn_seat)
    if seat != expected:
        return f"starts {state.colour(seat)}'s turn, but it is {state.colour(expected)}'s"
    base, continents = reinforcements_owed(state, seat)
    owed = {"turn": state.turn + 1, "base": base, "continents": continents,
            "total": base + sum(continents.values())}
    if {key: data.get(key) for key in owed} != owed:
        return "does not owe the reinforcements the board gives"
    return None


def _cards_traded(state: GameState, data: dict) -> str | None:
    seat, cards = data.get("seat"), list(data.get("cards") or [])
    if state.phase != REINFORCE or state.turn_seat != seat:
        return "trades outside the player's reinforce phase"
    hand, deck = state.players[seat].cards, state.board.cards
    if len(set(cards)) != 3 or any(c not in hand for c in cards) or not is_set(cards, deck):
        return "trades cards that are not a set from the player's hand"
    if not state.may_trade(seat):
        return f"trades past {state.trade_limit} cards in the middle of a turn"
    if data.get("value") != set_value(state.rules, cards, state.sets_traded, deck):
        return "claims a set value the rules do not give"
    matches = [deck[c][0] for c in cards if deck[c][0] and state.owner[deck[c][0]] == seat]
    bonus = data.get("bonus") or {}
    if state.rules.card_territory_bonus == "each":
        allowed = {t: 2 for t in matches}
        ok = bonus == allowed
    else:
        ok = (not matches and not bonus) or (
            len(bonus) == 1 and next(iter(bonus)) in matches and list(bonus.values()) == [2])
    return None if ok else "claims a territory bonus the cards do not give"


def _battle(state: GameState, data: dict) -> str | None:
    seat, source, target = data.get("seat"), data.get("from"), data.get("to")
    if state.phase != ATTACK or state.turn_seat != seat or state.current != seat:
        return "attacks outside the attacker's attack phase"
    if target not in state.board.neighbours.get(source, ()):
        return f"{source} does not border {target}"
    if state.owner[source] != seat or state.allied(seat, state.owner[target]):
        return "attacks from a territory not the attacker's, or into its own or a teammate's"
    rolled = len(data.get("attacker_dice") or [])
    if not 1 <= rolled <= min(ATTACK_DICE, state.armies[source] - 1):
        return f"rolls {rolled} dice from {source} with {state.armies[source]} armies"
    if len(data.get("defender_dice") or []) != defender_dice(state, target):
        return "the defender rolls a number of dice the rules do not give"
    if "defender" in data and data["defender"] != state.owner[target]:
        return "names the wrong defender"
    conquered = state.armies[target] == data.get("defender_losses")
    if bool(data.get("conquered")) != conquered:
        return "says the territory fell when it did not, or the other way round"
    return None


def _occupied(state: GameState, data: dict) -> str | None:
    occupation = state.occupation
    if state.phase != OCCUPY or occupation is None:
        return "occupies with no conquest waiting"
    if (data.get("from"), data.get("to")) != (occupation.source, occupation.target):
        return "occupies another territory than the one conquered"
    armies = data.get("armies")
    if not isinstance(armies, int) or not (
        occupation.minimum <= armies <= state.armies[occupation.source] - 1
    ):
        return f"moves {armies} armies in, outside what the rules allow"
    return None


def _fortified(state: GameState, data: dict) -> str | None:
    seat, source, target = state.turn_seat, data.get("from"), data.get("to")
    if state.phase not in (ATTACK, FORTIFY) or seat is None:
        return "fortifies outside the fortify phase"
    if source not in state.board.index or target not in state.board.index or source == target:
        return "fortifies between unknown territories"
    if state.owner[source] != seat or not state.allied(seat, state.owner[target]):
        return "fortifies between territories not the player's (or a teammate's)"
    if state.rules.fortify == "connected":
        if not connected(state, seat, source, target):
            return f"no chain of own territories links {source} and {target}"
    elif target not in state.board.neighbours[source]:
        return f"{source} does not border {target}"
    armies = data.get("armies")
    if not isinstance(armies, int) or not 1 <= armies <= state.armies[source] - 1:
        return f"moves {armies} armies from {source}, outside what the rules allow"
    return None


def _capital_captured(state: GameState, data: dict) -> str | None:
    """Just after the battle that took it: the attacker holds the territory now."""
    seat, owner, territory = data.get("seat"), data.get("owner"), data.get("territory")
    if state.rules.objective != "capitals" or owner == seat or (
            state.is_capital(territory) != owner):
        return "captures a territory that is not another player's capital"
    if seat != state.turn_seat or state.owner[territory] != seat:
        return "captures a capital the attacker did not just conquer"
    cards = sorted(data.get("cards") or [])
    if cards and cards != sorted(state.players[owner].cards):
        return "takes other cards than the capital's owner's hand"
    if any(state.board.continent_of.get(t) != state.board.continent_of[territory]
           or state.owner.get(t) != owner
           for t in data.get("collapsed") or []):
        return "collapses territories outside the owner's hold on the capital's continent"
    return None


def _card_drawn(state: GameState, data: dict) -> str | None:
    if not state.rules.cards:
        return "draws a card in a game played without cards"
    if data.get("seat") != state.turn_seat or not state.conquered:
        return "draws a card for a player who conquered nothing this turn"
    if data.get("card") != (state.deck or [None])[0]:
        return "the card drawn is not the top of the pile"
    return None


def _player_eliminated(state: GameState, data: dict) -> str | None:
    seat = data.get("seat")
    if state.players[seat].out or state.territory_count(seat) != 0:
        return "eliminates a player who still holds territories"
    if data.get("by") != state.turn_seat:
        return "names someone other than the attacker as the conqueror"
    if sorted(data.get("cards") or []) != sorted(state.players[seat].cards):
        return "hands over other cards than the loser's hand"
    return None


def _player_dropped(state: GameState, data: dict) -> str | None:
    return "drops a player who is already out" if state.players[data["seat"]].out else None


def _seat_to_bot(state: GameState, data: dict) -> str | None:
    player = state.players[data["seat"]]
    if player.out or player.bot is not None:
        return "hands a seat to a bot that is out or a bot's already"
    if state.rules.dropped_seat != "bot" or player.missed_turns < state.rules.max_missed_turns:
        return "hands a seat to a bot that the rules keep with its player"
    return None


def _turn_timed_out(state: GameState, data: dict) -> str | None:
    if data.get("missed") != state.players[data["seat"]].missed_turns + 1:
        return "counts the missed turns wrongly"
    return None


def _turn_ended(state: GameState, data: dict) -> str | None:
    return None if data.get("seat") == state.turn_seat else "ends another player's turn"


def _attack_ended(state: GameState, data: dict) -> str | None:
    if state.phase != ATTACK or data.get("seat") != state.turn_seat:
        return "ends an attack phase that is not under way"
    return None


def _play_order_drawn(state: GameState, data: dict) -> str | None:
    if state.rules.play_order != "redraw" or state.phase != SETUP_DONE or state.turn != 0:
        return "draws the play order outside the end of a redraw game's setup"
    if sorted(data.get("order") or []) != sorted(state.order):
        return "draws a play order of other seats"
    return None


def _game_finished(state: GameState, data: dict) -> str | None:
    winner, reason = data.get("winner"), data.get("reason")
    if reason == "domination":
        if not isinstance(winner, int) or state.living_teams() != [state.team_of(winner)]:
            return "declares a winner with rivals left"
        if state.rules.team_size > 1 and data.get("team") != state.team_of(winner):
            return "names a team other than the winner's"
        return None
    if reason == "round_limit":
        limit = state.rules.round_limit
        if limit is None or state.round < limit or state.phase is not None:
            return "ends the game on a round limit not reached"
        return None if winner == round_leader(state) else "names someone other than the leader"
    if winner != state.turn_seat:
        return "wins outside the winner's own turn"
    if reason == "mission" and not fulfilled(state, winner):
        return "declares a mission fulfilled that is not"
    if reason == "capitals" and not holds_capitals(state, winner):
        return "declares a capitals win without the capitals"
    return None


def _moved_deadline(state: GameState, until) -> str | None:
    """What a clock's change of a deadline needs: a running clock and a date and time."""
    if state.paused:
        return "moves the deadline of a paused game"
    try:
        moment = datetime.fromisoformat(until)
    except (TypeError, ValueError):
        return "moves the deadline to no date and time"
    return None if moment.tzinfo is not None else "moves the deadline to a time without a zone"


def _deadline_stretched(state: GameState, data: dict) -> str | None:
    seats = data.get("seats")
    if not isinstance(seats, list) or not seats or not set(seats) <= set(seats_to_act(state)):
        return "waits for a seat that owes no decision"
    return _moved_deadline(state, data.get("until"))


def _deadline_pulled_back(state: GameState, data: dict) -> str | None:
    seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
        return "names no seat of the game"
    return _moved_deadline(state, data.get("until"))


CHECKS = {
    ev.ARMIES_PLACED: _armies_placed,
    ev.PLACEMENT_SUBMITTED: _placement_submitted,
    ev.TERRITORY_CLAIMED: _territory_claimed,
    ev.CAPITAL_CHOSEN: _capital_chosen,
    ev.TURN_STARTED: _turn_started,
    ev.CARDS_TRADED: _cards_traded,
    ev.BATTLE: _battle,
    ev.OCCUPIED: _occupied,
    ev.FORTIFIED: _fortified,
    ev.CARD_DRAWN: _card_drawn,
    ev.CAPITAL_CAPTURED: _capital_captured,
    ev.PLAYER_ELIMINATED: _player_eliminated,
    ev.PLAYER_DROPPED: _player_dropped,
    ev.SEAT_TO_BOT: _seat_to_bot,
    ev.TURN_TIMED_OUT: _turn_timed_out,
    ev.TURN_ENDED: _turn_ended,
    ev.ATTACK_ENDED: _attack_ended,
    ev.GAME_FINISHED: _game_finished,
    ev.PLAY_ORDER_DRAWN: _play_order_drawn,
    ev.DEADLINE_STRETCHED: _deadline_stretched,
    ev.DEADLINE_PULLED_BACK: _deadline_pulled_back,
}

# The event types the rules have nothing to check of, each with why (they are not events
# of play, so they may come after the end of the game as well).
NOTHING_TO_CHECK = {
    ev.GAME_STARTED: "the record's first event; audit asks only that it is there",
    ev.TERRITORIES_DEALT: "a draw: verify recomputes it from the seed",
    ev.DECK_SHUFFLED: "a draw: verify recomputes it from the seed",
    ev.MISSIONS_DEALT: "a draw: verify recomputes it from the seed",
    ev.DEFENSE_SET: "a seat may change its defence dice policy at any time",
    ev.GAME_PAUSED: "a moderator's action, checked by the service that took it",
    ev.GAME_RESUMED: "a moderator's action, checked by the service that took it",
    ev.GAME_ABORTED: "a moderator's action, checked by the service that took it",
    ev.MODERATOR_ENDED_TURN: "a moderator's action; the timeout's events after it are checked",
    ev.DEADLINE_EXTENDED: "a moderator's action; the deadline is not the rules' state",
    ev.PLAYER_REPLACED: "a moderator's action; who holds a seat is not the rules' state",
    ev.CHAT_HIDDEN: "a moderator's action on table talk, which is not the rules' state",
}


def audit(state: GameState | None, event) -> str | None:
    """Why the rules could not have produced `event` from `state`, or None if they could."""
    if state is None:
        return None if event.type == ev.GAME_STARTED else "the record does not start the game"
    check = CHECKS.get(event.type)
    if check is None:
        if event.type in NOTHING_TO_CHECK:
            return None
        return f"an event of a type the rules do not know ({str(event.type)[:40]})"
    if state.finished:
        return "an event of play after the end of the game"
    try:
        return check(state, event.data)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
        return f"malformed {event.type} ({error.__class__.__name__})"

