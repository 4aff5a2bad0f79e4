"""The write path: submit(), the front door every change to a game comes through, and the
commit step behind it, which returns what happened (Committed) and hands it to the
reactions declared once, in the wiring's REACTIONS (config/reactions.py).

Every door calls submit(actor, game, command, expected_version): the API and the web form
(a player), the mail reply (a player), the deadline sweep (the clock), the bots' task (a
computer player), moderators' actions and chat hiding (a moderator), the game's start
(the lobby) and a player's standing choice placing the decisions already waiting for them
(games.standing_orders.place_waiting). `game` is the store's Loaded value (games.store.row: the
row, its seats with their flags, the state if loaded), or a bare row whose seats submit
reads; the seats go on explicitly, in the Committed value, to the reactions.
It checks in boardgame.io's order: well-formed, authenticated, game live, your seat, not
stale, then the engine's own checks (your turn, phase, rules); docs/bots/contract.md puts
staleness before turn and phase. A standing order (the wiring's STANDING_ORDERS: a
decision a player chose, once for all games, to have made for them the moment it falls to
them) is made inside the commit that leaves the decision to them: one transaction, one
Committed, one set of mail rows.
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass

import engine as rules
from engine import events as ev
from engine.errors import GameNotActive
from games.errors import ServiceError
from games.models import Game
from games.seat_views import redacted
from games.store.append import VersionConflict, append
from games.store.log import stored_events
from games.store.row import Loaded, dice_for
from games.store.seats import Seats, read_seats
from games.store.states import load_state
from lib.reactions import reactions, wired

log = logging.getLogger(__name__)

MAX_RETRIES = 5

# Who a change comes from (Actor.kind).
PLAYER, LOBBY, CLOCK, COMPUTER, MODERATOR = "player", "lobby", "clock", "computer", "moderator"
# A player's standing order, made for them at their seat (user_id and seat given).
STANDING = "standing"


@dataclass(frozen=True)
class Actor:
    """Who a change to a game comes from: a player (a user at their seat), the lobby (the
    game starting as its last seat is taken), the clock (the deadline sweep), a computer
    player at its seat, a moderator, or a player's standing order at their seat. `user_id`
    is stored with the events it makes."""

    kind: str
    user_id: int | None = None
    seat: int | None = None


@dataclass
class Committed:
    """What one commit step did: the game (its projection updated), the events appended
    (the command's, then those of the standing orders made in the same commit), the state
    before and after them all, who acted (the command's actor), and the game's seats as the
    commit left them (with their flags: the reactions read them here, never from the
    Game)."""

    game: Game
    events: list
    before: rules.GameState | None
    after: rules.GameState
    actor: Actor
    seats: Seats
    # When each event was stored (the game's appended_at as this commit left it).
    appended_at: list = dataclasses.field(default_factory=list)

    @property
    def state(self) -> rules.GameState:
        """The state after the change: what the caller is shown."""
        return self.after

    @property
    def seat(self) -> int | None:
        """The seat whose sight the caller's answer takes (None: a spectator's)."""
        return self.actor.seat

    @property
    def finished_game(self) -> bool:
        """Whether this change ended the game with a result (an abort has none)."""
        return (self.after.finished and self.after.finish_reason != "aborted"
                and (self.before is None or not self.before.finished))

    def event_dicts(self) -> list[dict]:
        """The new events as GET .../events/ shows them to the sender, with their times."""
        seen = redacted(self.game, self.events, self.seat, self.before)
        return [{**e, "at": at.isoformat()}
                for e, at in zip(seen, self.appended_at, strict=True)]


def player(user) -> Actor:
    """The actor of a person's command: `user` at their seat (found by submit), or nobody
    signed in."""
    signed_in = user is not None and user.is_authenticated
    return Actor(PLAYER, user.pk if signed_in else None)


def submit(actor: Actor, game: Loaded | Game, command, expected_version=None, *, state=None,
           others_policies_pass: bool = False) -> Committed:
    """The front door: play `command` (a rules command, or a player's JSON payload) for
    `actor` in `game`, in boardgame.io's order with docs/bots/contract.md's staleness before the
    engine's checks. `game`: the store's Loaded value (games.store.row.load_game), or a bare row
    whose seats are read here. Without `expected_version` a command that loses a race is
    tried again on the new state (the row and seats read again), up to MAX_RETRIES times;
    with it, a version that moved on is refused (VersionConflict), unless
    `others_policies_pass` (the web form) and all that moved it were other players' policy
    changes. `state`: the game's state if the caller has just loaded it (else the Loaded
    value's)."""
    if expected_version is not None and (
        isinstance(expected_version, bool) or not isinstance(expected_version, int)
        or expected_version < 0
    ):
        raise rules.errors.BadCommand("expected_version must be a whole number")
    if command is None or isinstance(command, dict):
        command = rules.parse_command(command, None)  # well-formed
    if actor.kind == PLAYER and actor.user_id is None:  # authenticated
        raise ServiceError(401, "not_authenticated", "sign in to play")
    seats = None
    if isinstance(game, Loaded):
        game, seats, state = game.game, game.seats, game.state if state is None else state
    for attempt in range(MAX_RETRIES):
        if attempt:
            game.refresh_from_db()
            seats = state = None  # a seat may have changed hands meanwhile
        _check_live(actor, game)
        if seats is None:
            seats = read_seats(game)
        if actor.kind == PLAYER:
            actor = dataclasses.replace(actor, seat=_seat_of(seats, actor.user_id))
            command = dataclasses.replace(command, seat=actor.seat)
        if state is None and actor.kind != LOBBY:
            state = load_state(game)
        if actor.kind == PLAYER and state is not None and state.players[actor.seat].bot \
                and not state.players[actor.seat].out:
            raise ServiceError(403, "played_by_bot", "you missed too many turns: a computer "
                               "player plays your seat to the end of the game")
        version = state.version if state is not None else 0
        if others_policies_pass and expected_version is not None and \
                only_others_policies(game, expected_version, version, actor.seat):
            expected_version = version
        # docs/bots/contract.md: a client that saw an older version gets 409 whatever else is wrong,
        # so staleness is checked before turn and phase (STYLE.md's boardgame.io order puts
        # it after; the contract wins: a racing loser must learn the game moved on).
        if expected_version is not None and expected_version != version:
            raise VersionConflict(version)
        try:
            done = commit(Loaded(game, seats, state), command, actor)
        except VersionConflict:
            if expected_version is not None:
                raise
            continue
        return done
    raise VersionConflict(game.version)


def _check_live(actor: Actor, game: Game) -> None:
    """Game live: moves, timeouts and bots need a running game; a moderator any game that
    has started (a paused one too); the lobby's start checks its own row, locked."""
    if actor.kind == MODERATOR:
        if game.status == Game.OPEN:
            raise ServiceError(400, "game_not_active", "the game has not started")
    elif actor.kind != LOBBY and game.status != Game.ACTIVE:
        raise GameNotActive(f"the game is {game.status}")


def _seat_of(seats: Seats, user_id: int) -> int:
    seat = seats.seat_of_user(user_id)
    if seat is None:
        raise ServiceError(403, "not_seated", "you do not play in this game")
    return seat


def submit_timeout(game: Loaded | Game, expected_version: int, state=None) -> Committed:
    """The deadline sweep's command: complete the owed decision, if nobody moved since.
    `state` may be passed if the caller has just loaded it."""
    return submit(Actor(CLOCK), game, rules.TimeOut(), expected_version, state=state)


# How many events a stale form may have missed and still be let through, if each was another
# seat's decision that cannot change this seat's.
POLICY_SLACK = 20
# Decisions a seat makes on its own that leave every other seat's pending decision as it
# was: a defence policy, and a hand-in of a simultaneous setup placement or capital choice
# (the round's end, when the last one is in, appends more and so stays a conflict).
OTHERS_INDEPENDENT = {ev.DEFENSE_SET, ev.PLACEMENT_SUBMITTED, ev.CAPITAL_CHOSEN}


def only_others_policies(game: Game, seen: int, current: int, seat) -> bool:
    """Whether everything appended since version `seen` is another seat's own decision
    (OTHERS_INDEPENDENT), which cannot change this seat's: an opponent's policy change must
    not bounce a reinforcement half filled in, nor another seat's hand-in a simultaneous
    placement or capital choice being made."""
    if seat is None or not 0 <= seen < current or current - seen > POLICY_SLACK:
        return False
    return all(e.type in OTHERS_INDEPENDENT and e.data.get("seat") != seat
               for e in stored_events(game, after=seen, upto=current))


def commit(loaded: Loaded, command, actor: Actor) -> Committed:
    """The one commit step every change to a game takes, called only by submit(): the
    engine decides the events of `command` against the loaded state, then those of the standing
    orders its decisions leave to players who gave one (with_standing_orders); all are
    appended with the game's projection and the writes of the in-transaction reactions in
    one transaction, against one version; then the after-commit reactions are told (they
    only schedule work for when the transaction commits). The deadline follows from the
    events (games.clock.next_deadline)."""
    game, state = loaded.game, loaded.state
    events, after = rules.decide_and_apply(state, command, dice_for(game))
    done, user_ids = with_standing_orders(
        Committed(game, events, state, after, actor, loaded.seats))
    append(game, done.events, state, done.after, user_ids=user_ids,
           writes=[react(done) for react in reactions("in_transaction")])
    done.appended_at = game.appended_at
    if any(event.type == ev.PLAYER_REPLACED for event in done.events):
        # The seat changed hands in the append's transaction (games.reactions.hand_over_seat):
        # the after-commit reactions see its new holder.
        done.seats = read_seats(game)
    for react in reactions("after_commit"):
        react(done)
    return done


# Rounds of standing orders one commit makes at most: an order's decision might leave
# another decision to an order (the one declared today never does).
ORDER_ROUNDS = 4


def with_standing_orders(done: Committed) -> tuple[Committed, list]:
    """`done` (decided, not yet appended) with the decisions it leaves to players who gave
    a standing order for them made in it: each order (the wiring's STANDING_ORDERS, a
    function of the Committed so far giving (actor, command) or None) is asked of the
    state after the events so far, and the engine decides what it gives on that state as
    it would the player's own command; again while one applies, up to ORDER_ROUNDS rounds.
    Returns the whole change (from the state before the first command to the state after
    the last order, told to the first command's actor) and each event's user id (the
    order-giver's for an order's). An order the engine refuses is logged and left to the
    player; what came before it stands."""
    user_ids = [done.actor.user_id] * len(done.events)
    orders = list(wired("STANDING_ORDERS"))  # a copy
    for _ in range(ORDER_ROUNDS):
        made_one = False
        for order in list(orders):
            made = order(done)
            if made is None:
                continue
            actor, command = made
            try:
                events, after = rules.decide_and_apply(done.after, command, dice_for(done.game))
            except rules.RuleViolation:
                log.warning("standing order %s of user %s in game %s not made", command,
                            actor.user_id, done.game.pk, exc_info=True)
                orders.remove(order)  # not asked again in this commit
                continue
            done = dataclasses.replace(done, events=[*done.events, *events], after=after)
            user_ids += [actor.user_id] * len(events)
            made_one = True
        if not made_one:
            break
    return done, user_ids
