"""Standing choices a player makes once, for all their games, that the service applies for
them the moment the decision falls to them: today, the two-player neutral's reinforcement.

docs/players/rules.md leaves the neutral's half to the player who is not moving (`neutral_reinforcement:
opponent`); in a game by mail that is a second wait of up to a day in every turn. A player
who chose "borders" in their preferences (the profile page, `PATCH /api/v1/preferences/`),
or who never chose and plays on the site (no API token: accounts.models.takes_borders), has
it placed for them at once, by the rule `neutral_on_borders` states, as an ordinary
`place_neutral` command the engine decides inside the commit that leaves it to them
(games.service.with_standing_orders, declared in the wiring's STANDING_ORDERS): one
transaction, one change told to the mover, one set of mail rows. The halves already
waiting when a player makes the choice go through the one front door (place_waiting).
Placement draws no dice, and the rule reads only the placer's own view (under fog, what
they see), so it knows nothing the player would not.
"""

from __future__ import annotations

import engine as rules
from accounts.models import ApiToken, Preferences, neutral_placed_for
from engine.pieces import NEUTRAL
from games.boards import board_of_view
from games.errors import ServiceError
from games.models import Game, Seat
from games.service import STANDING, Actor, submit
from games.store.append import VersionConflict
from games.store.row import load_game
from games.store.seats import Seats
from games.store.states import load_state
from lib import sql

NEUTRAL_PLACE = "neutral_place"


def neutral_on_borders(view: dict) -> dict[str, int]:
    """The "borders" rule, from the placer's view: each of the neutral's armies, one at a
    time, goes to the neutral territory with the fewest armies among those bordering a
    territory of the player whose turn it is (board order breaks ties), so the neutral
    stands in the mover's way; if no neutral territory borders them, among all neutral
    territories. Under fog, only the neutral territories the placer sees count."""
    count = (view.get("pending") or {}).get("reinforcements") or 0
    spots = view.get("territories") or {}
    mover = view.get("turn_seat")
    if count <= 0 or not spots:
        return {}
    board = board_of_view(view)  # the game's map: its order breaks ties
    neutral = [t for t in board.territories if spots[t].get("owner") == NEUTRAL]
    facing = [t for t in neutral
              if any(spots[n].get("owner") == mover for n in board.neighbours[t])]
    candidates = facing or neutral
    if count <= 0 or not candidates:
        return {}
    armies = {t: spots[t].get("armies") or 0 for t in candidates}
    placements: dict[str, int] = {}
    for _ in range(count):
        territory = min(candidates, key=lambda t: armies[t])
        armies[territory] += 1
        placements[territory] = placements.get(territory, 0) + 1
    return placements


def placer_with_standing_order(seats: Seats, state) -> int | None:
    """The seat whose player chose to have the neutral's half placed for them, if the game
    (seated as `seats`) now waits for exactly that (a person at the seat, not a computer
    player), else None."""
    if state is None or state.finished or state.paused or state.phase != NEUTRAL_PLACE:
        return None
    seat = state.current
    if seat is None or state.players[seat].out or seat in seats.bot_levels(state):
        return None
    user_id = seats.user_at(seat)
    if user_id is None:
        return None
    return seat if user_id in borders_takers(seats, [user_id]) else None


def borders_takers(seats: Seats, user_ids) -> set[int]:
    """Which of the users have the neutral's half placed for them (accounts.models.
    takes_borders): as read with the seats (a seat flag, config.reactions.SEAT_FLAGS), else
    now."""
    known = seats.flagged("neutral_borders")
    if known is not None:
        return known & set(user_ids)
    return neutral_placed_for(user_ids)


def borders_flag_sql(user_column: str) -> str:
    """Whether the user `user_column` names has the neutral's half placed for them
    (accounts.models.takes_borders), as SQL (a seat flag the store reads with the seats)."""
    q = sql.quote
    chose = (f"SELECT 1 FROM {sql.table(Preferences)} p WHERE p.{q('user_id')} = {user_column}")
    return (f"(EXISTS ({chose} AND p.{q('neutral_placement')} = '{Preferences.BORDERS}') "
            f"OR (NOT EXISTS ({chose} AND p.{q('neutral_question_answered')}) "
            f"AND NOT EXISTS (SELECT 1 FROM {sql.table(ApiToken)} t "
            f"WHERE t.{q('user_id')} = {user_column})))")


def neutral_placement(done):
    """A standing order (the wiring's STANDING_ORDERS): when the events of a commit
    so far (`done`, not yet appended) leave the neutral's half to a player who chose
    "borders", their placement, as (actor, command) for the engine to decide in the same
    commit (games.service.with_standing_orders); else None."""
    return _placement(done.seats, done.after)


def _placement(seats: Seats, state):
    seat = placer_with_standing_order(seats, state)
    if seat is None:
        return None
    placements = neutral_on_borders(rules.view(state, seat))
    if not placements:
        return None
    user_id = seats.user_at(seat)
    return (Actor(STANDING, user_id, seat),
            rules.parse_command({"type": "place_neutral", "placements": placements}, seat))


def place_waiting(user) -> int:
    """The neutral's halves already waiting for `user` when they choose "borders": placed
    now, as the choice says, through the front door; returns how many. One that cannot be
    placed now (someone moved first) is left to them."""
    if user.pk not in neutral_placed_for([user.pk]):
        return 0
    placed = 0
    waiting = Seat.objects.filter(user=user, game__status=Game.ACTIVE,
                                  game__phase=NEUTRAL_PLACE).values_list("game_id", "seat")
    for game_id, seat in waiting:
        loaded = load_game(game_id)
        if loaded is None or loaded.game.current_seat != seat:
            continue
        state = load_state(loaded.game)
        made = _placement(loaded.seats, state)
        if made is None or made[0].seat != seat:
            continue
        try:
            submit(made[0], loaded, made[1], state.version, state=state)
        except (VersionConflict, rules.RuleViolation, ServiceError):
            continue
        placed += 1
    return placed


def answer_neutral_question(user, choice: str) -> int:
    """The one-time question "place the neutral's armies yourself, or automatically from now
    on?" answered (on the game page or by a mailed link): "borders" sets the standing
    choice and places the halves already waiting (how many it placed); anything else keeps
    the rule. Either way the question is not asked again."""
    preferences, _ = Preferences.objects.get_or_create(user=user)
    preferences.neutral_question_answered = True
    if choice != Preferences.BORDERS:
        preferences.save(update_fields=["neutral_question_answered"])
        return 0
    preferences.neutral_placement = Preferences.BORDERS
    preferences.save(update_fields=["neutral_question_answered", "neutral_placement"])
    return place_waiting(user)


def neutral_question_open(preferences) -> bool:
    """Whether the player is still to be asked: neither answered nor chose "borders"."""
    return (preferences is None or preferences.neutral_placement == Preferences.ASK_ME
            and not preferences.neutral_question_answered)
