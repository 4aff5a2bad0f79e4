"""The lobby: creating a game, taking and leaving seats, seating computer players,
cancelling, and starting (the start is a command through games.write like any other)."""

from __future__ import annotations

import unicodedata

from django.db import transaction
from django.utils.timezone import now

from games import computer, rules
from games.clock import zone
from games.errors import ServiceError
from games.models import Game, Seat
from games.reading import forget_seats
from games.rules.fair import entropy_problem
from games.store import VersionConflict
from games.write import LOBBY, Actor, submit


def check_clock(clock) -> dict:
    """Clock options of a game: {time_zone, quiet_from, quiet_until, weekends}."""
    if clock is None:
        return {}
    if not isinstance(clock, dict) or set(clock) - {"time_zone", "quiet_from", "quiet_until",
                                                    "weekends"}:
        raise ServiceError(400, "bad_clock", "clock takes time_zone, quiet_from, quiet_until "
                           "and weekends")
    checked = {}
    if "time_zone" in clock:
        name = clock["time_zone"]
        if not isinstance(name, str) or zone(name).key != name:
            raise ServiceError(400, "bad_clock", "clock.time_zone must be an IANA zone name")
        checked["clock_time_zone"] = name
    quiet = [clock.get("quiet_from"), clock.get("quiet_until")]
    if any(hour is not None for hour in quiet):
        if any(isinstance(h, bool) or not isinstance(h, int) or not 0 <= h <= 23 for h in quiet):
            raise ServiceError(400, "bad_clock", "clock.quiet_from and quiet_until must both "
                               "be hours from 0 to 23")
        if quiet[0] == quiet[1]:
            raise ServiceError(400, "bad_clock", "clock.quiet_until must be another hour "
                               "than quiet_from")
        checked["quiet_from"], checked["quiet_until"] = quiet
    if "weekends" in clock:
        if not isinstance(clock["weekends"], bool):
            raise ServiceError(400, "bad_clock", "clock.weekends must be true or false")
        checked["pause_weekends"] = clock["weekends"]
    return checked


def check_game_name(name) -> str:
    """The name as stored: 1 to 100 characters, no control characters (it goes into pages
    and mail subjects, and PostgreSQL refuses NUL)."""
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        raise ServiceError(400, "bad_request", "name must be 1 to 100 characters")
    if any(unicodedata.category(char) in ("Cc", "Cs") for char in name):
        raise ServiceError(400, "bad_request", "name must not hold control characters")
    return name.strip()


def check_rated(rated) -> bool | None:
    """The creator's choice of whether the game is rated: true, false, or none (the default)."""
    if rated is not None and not isinstance(rated, bool):
        raise ServiceError(400, "bad_request", "rated must be true or false")
    return rated


def check_entropy(entropy) -> str | None:
    """A player's contribution to the game's seed (CONTRACT.md "Fair dice"), or None."""
    problem = None if entropy is None else entropy_problem(entropy)
    if problem:
        raise ServiceError(400, "bad_entropy", problem)
    return entropy


def create_game(user, name, players, rules_raw=None, deadline_seconds=None, clock=None,
                bots=None, rated=None, entropy=None, map_id=None) -> Game:
    """A new open game with its creator in seat 0 and `bots` (levels) in the next seats;
    it starts at once if they fill it. `rated` None: rated unless bots are seated.
    `entropy`: the creator's contribution to the seed; `map_id`: a shipped map (default
    classic)."""
    entropy = check_entropy(entropy)
    name = check_game_name(name)
    rated = check_rated(rated)
    clock_fields = check_clock(clock)
    bots = computer.check_levels(bots)
    # No rules (or null) means every default; deadline_seconds may come without them.
    raw = dict(rules_raw) if isinstance(rules_raw, dict) else (
        {} if rules_raw is None else rules_raw)
    if deadline_seconds is not None:
        if not isinstance(raw, dict):
            raise rules.errors.BadRules("rules must be an object")
        raw["deadline_seconds"] = deadline_seconds
    board = rules.maps.shipped(rules.maps.DEFAULT_MAP if map_id is None else map_id)
    checked = rules.validate_rules(raw, players, board)
    if len(bots) >= players:
        raise ServiceError(400, "bad_request",
                           "bots take the seats after yours: at most players - 1 of them")
    with transaction.atomic():
        game = Game.objects.create(
            name=name, creator=user, players=players, rules=checked.to_dict(), map=board.id,
            deadline_seconds=checked.deadline_seconds, rated=rated, **clock_fields,
        )
        Seat.objects.create(game=game, seat=0, user=user, entropy=entropy)
        for seat, level in enumerate(bots, start=1):
            computer.seat_bot(game, seat, level)
        if 1 + len(bots) == players:
            _start_locked(game, _locked(game), user)
    if bots:
        game.refresh_from_db()
        forget_seats(game)
    return game


def add_bot(game: Game, user, level) -> Game:
    """The creator seats a computer player in the next free seat of an open game; the game
    starts by itself when that fills it."""
    computer.check_levels([level])
    if user is None or game.creator_id != user.pk:
        raise ServiceError(403, "not_creator", "only the game's creator can add a bot")
    with transaction.atomic():
        locked = _locked(game)
        if locked.status != Game.OPEN:
            raise ServiceError(400, "game_not_open", "the game is not open for joining")
        seated = Seat.objects.filter(game=locked).count()
        if seated >= locked.players:
            raise ServiceError(400, "game_full", "every seat of this game is taken")
        computer.seat_bot(locked, seated, level)
        forget_seats(game)
        if seated + 1 >= locked.players:
            _start_locked(game, locked, None)
    game.refresh_from_db()
    forget_seats(game)
    return game


def join_game(game: Game, user, entropy=None) -> Game:
    """Take the next free seat, with `entropy` for the seed if the player sent any; the
    game starts by itself when the last one is taken.

    The game's row is locked for the whole check-and-seat (SQLite's IMMEDIATE transactions
    serialise writers the same way), so racing joins can never seat more than `players`
    and a start can never miss a seat taken at the same moment."""
    entropy = check_entropy(entropy)
    with transaction.atomic():
        locked = _locked(game)
        if locked.status != Game.OPEN:
            raise ServiceError(400, "game_not_open", "the game is not open for joining")
        seated = list(Seat.objects.filter(game=locked).values_list("user_id", flat=True))
        if user.pk in seated:
            raise ServiceError(400, "already_seated", "you already play in this game")
        if len(seated) >= locked.players:
            raise ServiceError(400, "game_full", "every seat of this game is taken")
        Seat.objects.create(game=locked, seat=len(seated), user=user, entropy=entropy)
        forget_seats(game)
        if len(seated) + 1 >= locked.players:
            _start_locked(game, locked, None)
    game.refresh_from_db()
    forget_seats(game)
    return game


def leave_game(game: Game, user) -> Game:
    """A player gives up their seat in a game that has not started; the seats after it move
    up one, so seats stay numbered from 0 in the order taken. The creator cancels instead."""
    with transaction.atomic():
        locked = _locked(game)
        if locked.status != Game.OPEN:
            raise ServiceError(400, "game_not_open",
                               "the game has started: resign to leave it")
        seat = Seat.objects.filter(game=locked, user=user).first()
        if seat is None:
            raise ServiceError(400, "not_seated", "you do not play in this game")
        if locked.creator_id == user.pk:
            raise ServiceError(400, "creator_cannot_leave",
                               "you created this game: cancel it instead")
        seat.delete()
        for later in Seat.objects.filter(game=locked, seat__gt=seat.seat).order_by("seat"):
            Seat.objects.filter(pk=later.pk).update(seat=later.seat - 1)
        forget_seats(game)
    game.refresh_from_db()
    forget_seats(game)
    return game


def cancel_game(game: Game, user) -> Game:
    """The creator calls off a game before it starts: it is aborted with no move played,
    and leaves the lobby (its seats and any table talk stay on record)."""
    if user is None or game.creator_id != user.pk:
        raise ServiceError(403, "not_creator", "only the game's creator can cancel it")
    with transaction.atomic():
        locked = _locked(game)
        if locked.status != Game.OPEN:
            raise ServiceError(400, "game_not_open",
                               "the game has started: it can no longer be cancelled")
        Game.objects.filter(pk=game.pk).update(status=Game.ABORTED, finished_at=now())
    game.refresh_from_db()
    return game


def _locked(game: Game) -> Game:
    """The game's row, locked until the transaction ends."""
    return Game.objects.select_for_update().get(pk=game.pk)


def start_game(game: Game, user=None) -> Game:
    """Deal and begin with whoever is seated (the creator may start before it is full)."""
    if user is not None and game.creator_id != user.pk:
        raise ServiceError(403, "not_creator", "only the game's creator can start it")
    with transaction.atomic():
        _start_locked(game, _locked(game), user)
    return game


def _start_locked(game: Game, locked: Game, user) -> None:
    if locked.status != Game.OPEN:
        raise ServiceError(400, "game_not_open", "the game has already started")
    forget_seats(game)  # whoever joined since the game was read is dealt in too
    # Seat order is the seats as they stand now: a seat that left took its entropy along,
    # and computer players send none.
    entropy = tuple(Seat.objects.filter(game=locked, entropy__isnull=False)
                    .order_by("seat").values_list("seat", "entropy"))
    seated = Seat.objects.filter(game=locked).count()
    if seated < 2:
        raise ServiceError(400, "not_enough_players", "at least two players must be seated")
    board = rules.maps.shipped(locked.map)
    checked = rules.validate_rules(locked.rules, seated, board)
    contributions = [text for _, text in entropy] or None
    if seated != locked.players or contributions:
        Game.objects.filter(pk=game.pk, status=Game.OPEN).update(
            players=seated, contributions=contributions)
    game.players, game.contributions = seated, contributions
    game.version = locked.version
    try:
        submit(Actor(LOBBY, getattr(user, "pk", None)), game,
               rules.StartGame(game.game_id, seated, checked, entropy, board), locked.version)
    except VersionConflict:
        raise ServiceError(400, "game_not_open", "the game has already started") from None
