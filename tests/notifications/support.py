"""Games for the notification tests, made and played in-process through games.service, the
one write path (people: tests/people.py; games: tests/games_in_states.py)."""

from __future__ import annotations

from collections import deque
from datetime import datetime, timedelta

from django.core import mail as outbox

from engine.cards import best_set
from engine.moves import seats_to_act
from games import service
from games.models import Game, Seat
from games.store.states import load_state
from notifications import delivery
from notifications.models import Notification
from ratings import recording
from tests import games_in_states

SEED = "5eed" * 16  # every game of these tests deals and rolls from this seed


def started(*users, **rules_and_options) -> Game:
    """A game of `users` (seat order as given) that has started, dealt from SEED
    (tests/games_in_states.py: `map_id`, `clock` and the like go to create_game)."""
    return games_in_states.started_game(list(users), name="Moscow 1812", seed=SEED,
                                        **rules_and_options)


def at_first_reinforce(*users, **rules_and_options) -> Game:
    """`started`, with the initial placement done (`place_setup`): the first turn's
    reinforce phase."""
    game = started(*users, **rules_and_options)
    place_setup(game)
    game.refresh_from_db()
    assert game.phase == "reinforce"
    return game


def user_at(game: Game, seat: int):
    return Seat.objects.select_related("user").get(game=game, seat=seat).user


def seat_of(game: Game, user) -> int:
    return Seat.objects.get(game=game, user=user).seat


def act(game: Game, user, payload: dict):
    """One command through the one write path, as the player `user`."""
    return service.submit(service.player(user), game, payload)


def front_for_stack(state, seat: int, stacks=()) -> str:
    """The seat's first border territory next to no stack of armies (none on the board,
    none in `stacks`), so that every seat's setup stack faces a one-army enemy."""
    def clear(t):
        return all(state.armies[n] <= 1 and n not in stacks for n in state.board.neighbours[t])

    border = state.border_territories(seat)
    return next((t for t in border if clear(t)), border[0])


def place_setup(game: Game) -> None:
    """Finish the initial placement: every owed army on one territory of the seat that
    borders an enemy and no other stack (`front_for_stack`)."""
    while True:
        game.refresh_from_db()
        state = load_state(game)
        if state.phase != "setup_place":
            return
        stacks = set()  # placed this round, which `state` does not show yet
        for seat in seats_to_act(state):
            owed = (state.reinforcements if state.current is not None
                    else state.players[seat].setup_armies)
            stack = front_for_stack(state, seat, stacks)
            stacks.add(stack)
            act(game, user_at(game, seat), {"type": "place", "placements": {stack: owed}})


def _passive_move(state, seat: int) -> dict:
    """Place everything owed on the first own territory; never attack."""
    own = state.territories_of(seat)
    if state.phase == "claim":
        return {"type": "claim", "territory": state.territories_of(None)[0]}
    if state.phase == "setup_place":
        owed = (state.reinforcements if state.current is not None
                else state.players[seat].setup_armies)
        return {"type": "place", "placements": {own[0]: owed}}
    if state.phase == "capital":
        return {"type": "choose_capital", "territory": own[0]}
    if state.phase == "neutral_place":
        return {"type": "place_neutral", "placements": {
            state.territories_of("neutral")[0]: state.reinforcements}}
    if state.phase == "reinforce":
        if len(state.players[seat].cards) >= 5:
            return {"type": "trade", "cards": list(
                best_set(state.rules, state.players[seat].cards, state.sets_traded))}
        return {"type": "place", "placements": {own[0]: state.reinforcements}}
    if state.phase == "occupy":
        return {"type": "occupy", "armies": state.occupation.minimum}
    return {"type": "end_turn"}


def _toward_the_enemy(state, seat: int, stack: str) -> str | None:
    """The first step from `stack`, through own territories, to one next to an enemy."""
    came_from, queue = {stack: None}, deque([stack])
    while queue:
        here = queue.popleft()
        if any(state.owner[n] != seat for n in state.board.neighbours[here]):
            while came_from[here] != stack and came_from[here] is not None:
                here = came_from[here]
            return here if here != stack else None
        for there in state.board.neighbours[here]:
            if state.owner[there] == seat and there not in came_from:
                came_from[there] = here
                queue.append(there)
    return None


def _conquering_move(state, seat: int) -> dict:
    """One stack that rolls over every enemy territory it can reach."""
    if state.phase not in ("reinforce", "attack", "occupy", "fortify"):
        return _passive_move(state, seat)
    own = state.territories_of(seat)
    armies = state.armies

    def enemies(t):
        return [n for n in state.board.neighbours[t] if state.owner[n] != seat]

    def edge(t):  # how much the stack on t outnumbers its weakest enemy neighbour
        return armies[t] - min(armies[n] for n in enemies(t))

    front = [t for t in own if enemies(t)]
    if state.phase == "reinforce":
        if len(state.players[seat].cards) >= 5:
            return _passive_move(state, seat)
        stack = max(front, key=edge) if front else max(own, key=lambda t: armies[t])
        return {"type": "place", "placements": {stack: state.reinforcements}}
    if state.phase == "occupy":
        return {"type": "occupy", "armies": armies[state.occupation.source] - 1}
    # Only attacks it should win: a stack that cannot beat any neighbour waits and grows
    # (throwing it at a far bigger one every turn could go on for ever).
    ready = [t for t in front if armies[t] >= 2 and edge(t) > 0]
    if state.phase == "attack" and ready:
        stack = max(ready, key=edge)
        return {"type": "attack", "from": stack, "to": min(enemies(stack),
                                                           key=lambda t: armies[t]),
                "repeat": True}
    stack = max(own, key=lambda t: armies[t])
    step = _toward_the_enemy(state, seat, stack) if armies[stack] >= 2 else None
    if step is not None:
        return {"type": "fortify", "from": stack, "to": step, "armies": armies[stack] - 1}
    return {"type": "end_turn"}


def conquering(game: Game, winner, state) -> tuple:
    """(user, command): `winner` rolls over the board with one stack while everyone else
    only places and ends their turns."""
    seat = seats_to_act(state)[0]
    user = user_at(game, seat)
    move = _conquering_move if user == winner else _passive_move
    return user, move(state, seat)


def conquer(game: Game, winner, until=lambda state: state.finished, limit: int = 600,
            once_a_turn: bool = False):
    """Play `conquering` moves until `until(state)`: a short, sure way to cards in hand,
    eliminations and a finished game. Returns that state. `once_a_turn`: the winner stops
    attacking after a turn's first conquest (a card a turn, and the game lasts until the
    winner holds a set: one stack could otherwise take everything first)."""
    for _ in range(limit):
        game.refresh_from_db()
        state = load_state(game)
        if until(state):
            return state
        assert not state.finished, "the game ended before the wanted moment"
        user, command = conquering(game, winner, state)
        if once_a_turn and user == winner and state.phase == "attack" and state.conquered:
            command = {"type": "end_attack"}
        act(game, user, command)
    raise AssertionError("the conquest took too long")


def rows(game: Game | None = None, **filters) -> list[Notification]:
    found = Notification.objects.filter(**filters)
    if game is not None:
        found = found.filter(game=game)
    return list(found.select_related("user").order_by("id"))


def send_everything() -> list:
    """Deliver every row that is not waiting for a digest, once the finished games'
    ratings are recorded (as the worker does at once: the end mail waits for them);
    returns the mails sent."""
    recording.record_pending()
    before = len(outbox.outbox)
    for pk in Notification.objects.filter(sent_at__isnull=True, digest=False).order_by("id") \
            .values_list("pk", flat=True):
        delivery.send_one(pk)
    return outbox.outbox[before:]


def mails_to(mails, user) -> list:
    return [m for m in mails if m.to == [user.email]]


class Clock:
    """What django.utils.timezone.now() answers while the fixture is in use."""

    def __init__(self, now: datetime):
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def set(self, now: datetime) -> datetime:
        self.now = now
        return now

    def advance(self, **delta) -> datetime:
        self.now += timedelta(**delta)
        return self.now
