"""Computer players in the service: their seats and accounts, and playing their moves.

A bot is an ordinary seat. Its moves go through the one write path (games.service), by a
Celery task (games.tasks) queued when a commit leaves a decision to a bot (after
CONQUEST_BOT_DELAY_SECONDS, games.reactions.queue_bots), and by a sweep that catches what the queue missed. Playing is
idempotent: it reads the game afresh, plays only what a bot owes now, and a second run
that races the first loses on the version and stops. A bot that fails is logged and left:
its seat's deadline applies as to anyone's, so the game never stalls.

What a bot is given is its seat's view (engine.view) and the public rules, nothing
else: the bots package never sees the seed, the deck or another seat's hand.
"""

from __future__ import annotations

import logging
import random

from django.contrib.auth import get_user_model
from django.db.models import Q

import bots
import engine as rules
from accounts.models import BOT_USERNAME_PREFIX
from engine.moves import seats_to_act
from games.errors import ServiceError
from games.models import Game, Seat
from games.service import COMPUTER, Actor, submit
from games.store.append import VersionConflict
from games.store.row import load_game
from games.store.seats import Seats
from games.store.states import load_state
from words.titles import COMPUTER_GAME

log = logging.getLogger(__name__)

LEVELS = bots.LEVELS
# Commands one run plays at most before it hands over to a fresh task (a long turn of
# single battles is a few dozen).
MOVES_PER_RUN = 400


def check_levels(levels) -> list[str]:

    if levels is None:
        return []
    if not isinstance(levels, list) or any(level not in LEVELS for level in levels):
        raise ServiceError(400, "bad_request",
                           f"bots must be a list of levels: {', '.join(LEVELS)}")
    return levels


def games_against_the_computer(user) -> int:
    """How many numbered games against the computer `user` started in one click (their
    title says so: words.titles.computer_game): the next one's number is one more."""
    return Game.objects.filter(creator=user, title__kind=COMPUTER_GAME,
                               title__has_key="number").count()


def bot_user(level: str, taken: set[int]):
    """An inactive account for a bot of `level` not already seated (ids in `taken`)."""
    from accounts.models import Account

    User = get_user_model()
    for n in range(1, 7):
        user, made = User.objects.get_or_create(
            username=f"{BOT_USERNAME_PREFIX}{level}-{n}", defaults={"is_active": False})
        if made:
            user.set_unusable_password()
            user.save(update_fields=["password"])
            # Never confirmed: no mail can go to a bot.
            Account.objects.get_or_create(user=user, defaults={"email_confirmed": False})
        if user.pk not in taken:
            return user
    raise AssertionError("a game has at most six seats")


def seat_bot(game: Game, seat: int, level: str) -> None:
    """Seat a bot of `level` at `seat` (inside the caller's transaction)."""
    taken = set(Seat.objects.filter(game=game).values_list("user_id", flat=True))
    Seat.objects.create(game=game, seat=seat, user=bot_user(level, taken), bot=level)


# ---- playing ------------------------------------------------------------------------
def owed(game: Game, seats: Seats, state) -> list[tuple[int, str]]:
    """(seat, level) of the bots the game (seated as `seats`) waits for now."""

    if state is None or state.paused or state.finished or game.status != Game.ACTIVE:
        return []
    levels = seats.bot_levels(state)
    return [(seat, levels[seat]) for seat in seats_to_act(state) if seat in levels]


def command_for(game: Game, state, seat: int, level: str) -> dict:
    """The JSON command the bot plays: a function of its seat's view and the rules only."""
    # Reproducible for the same game, version and seat; the secret seed is not used.
    rnd = random.Random(f"{game.pk}:{state.version}:{seat}")
    return bots.choose(rules.view(state, seat), game.rules, level, rnd)


def play(game_id: int) -> int:
    """Play every move bots owe in the game now, up to MOVES_PER_RUN (games.tasks queues a
    fresh run for more); returns how many were played."""
    played = 0
    while played < MOVES_PER_RUN:
        loaded = load_game(game_id)
        if loaded is None:
            return played
        game = loaded.game
        state = load_state(game)
        due = owed(game, loaded.seats, state)
        if not due:
            return played
        seat, level = due[0]
        try:
            payload = command_for(game, state, seat, level)
            command = rules.parse_command(payload, seat)
            submit(Actor(COMPUTER, None, seat), loaded, command, state.version, state=state)
        except VersionConflict:
            # Someone else moved (another run, a human, the clock): whoever it was queued
            # the bots again if they owe the next decision.
            log.info("game %s moved on under bot %s at seat %s", game_id, level, seat)
            return played
        except Exception:  # noqa: BLE001 - a failing bot must not stop the game: its deadline applies
            log.exception("bot %s at seat %s of game %s failed; its deadline applies",
                          level, seat, game_id)
            return played
        played += 1
    return played


def games_waiting_for_bots() -> list[int]:
    """Ids of the running games that may wait for a bot (the sweep's: what the queue
    missed, a broker that was down, a worker that died)."""
    with_bots = Q(seats__bot__isnull=False) | Q(rules__dropped_seat="bot")
    return list(Game.objects.filter(status=Game.ACTIVE).filter(with_bots)
                .values_list("pk", flat=True).distinct())
