"""The lobby: creating a game, taking and leaving seats, seating computer players,
cancelling, and starting (the start is a command through games.service like any other)."""

from __future__ import annotations

from django.db import transaction
from django.utils.timezone import now

import engine as rules
from games import boards, computer
from games.boards import board_for_new_game
from games.errors import ServiceError
from games.models import Game, Seat
from games.service import LOBBY, Actor, submit
from games.store.append import VersionConflict
from lobby import bot_accounts, invitations, seeds
from lobby.new_game import (
    SPEED_RULES,
    check_clock,
    check_entropy,
    check_game_name,
    check_rated,
)


def create_game(user, name, players, rules_raw=None, deadline_seconds=None, clock=None,
                bots=None, rated=None, entropy=None, private=False, map_id=None,
                bots_allowed=False, speed=False, seed_ahead=True, title=None) -> Game:
    """A new open game with its creator in seat 0 and `bots` (levels) in the next seats;
    it starts at once if they fill it. `rated` None: rated unless bots are seated.
    `entropy`: the creator's contribution to the seed. `private`: listed nowhere, joined
    only by invitation (lobby.invitations). `map_id`: a map's id (games.boards; default classic).
    `bots_allowed`: bot accounts may join it by themselves (lobby.bot_accounts).
    `speed`: a speed game (SPEED_RULES over the rules given; `deadline_seconds`, if
    given, still sets the deadline). `seed_ahead`: the game takes the seed drawn ahead
    for its creator (lobby.seeds), if they read one; false when the game is made for
    them (a tournament's table), which leaves it for a game they make themselves. `title`:
    what the service makes the game as (words.titles: a tournament's table, a game against
    the computer), `name` being its English words; none for a game its creator names."""
    entropy = check_entropy(entropy)
    if not isinstance(private, bool):
        raise ServiceError(400, "bad_request", "private must be true or false")
    if not isinstance(bots_allowed, bool):
        raise ServiceError(400, "bad_request", "bots_allowed must be true or false")
    if not isinstance(speed, bool):
        raise ServiceError(400, "bad_request", "speed must be true or false")
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
    if speed:
        if not isinstance(raw, dict):
            raise rules.errors.BadRules("rules must be an object")
        raw = {**raw, **{k: v for k, v in SPEED_RULES.items()
                         if k != "deadline_seconds" or deadline_seconds is None}}
    board = board_for_new_game(map_id)
    checked = rules.validate_rules(raw, players, board)
    if len(bots) >= players:
        raise ServiceError(400, "bad_request",
                           "bots take the seats after yours: at most players - 1 of them")
    with transaction.atomic():
        boards.hold_for_new_game(board)
        ahead = seeds.take(user) if seed_ahead else None
        game = Game.objects.create(
            **_seed_fields(*ahead) if ahead else {}, name=name, creator=user,
            players=players, rules=checked.to_dict(), map=board.id,
            deadline_seconds=checked.deadline_seconds, rated=rated, **clock_fields,
            private=private, invite_token=invitations.new_secret() if private else None,
            bots_allowed=bots_allowed, title=title or {},
        )
        Seat.objects.create(game=game, seat=0, user=user, entropy=entropy)
        for seat, level in enumerate(bots, start=1):
            computer.seat_bot(game, seat, level)
        if 1 + len(bots) == players:
            _start_locked(game, _locked(game), user)
    if bots:
        game.refresh_from_db()
    return game


def add_bot(game: Game, user, level=None, account=None) -> Game:
    """The creator seats a computer player of `level`, or the bot account named `account`
    if the creator owns it (lobby.bot_accounts), in the next free seat of an open game; the
    game starts by itself when that fills it."""
    if account is not None and level is not None:
        raise ServiceError(400, "bad_request", "send either level (a computer player) or "
                           "account (a bot account), not both")
    if account is None:
        computer.check_levels([level])
    if user is None or game.creator_id != user.pk:
        raise ServiceError(403, "not_creator", "only the game's creator can add a bot")
    bot_user = None if account is None else bot_accounts.bot_account_named(account)
    if bot_user is not None:
        bot_accounts.check_owner_seats(bot_user, user)
    with transaction.atomic():
        locked = _locked(game)
        if locked.status != Game.OPEN:
            raise ServiceError(400, "game_not_open", "the game is not open for joining")
        seated = dict(Seat.objects.filter(game=locked).values_list("user_id", "seat"))
        taken = set(seated.values())
        if len(taken) >= locked.players:
            raise ServiceError(400, "game_full", "every seat of this game is taken")
        seat = min(set(range(locked.players)) - taken)
        if bot_user is None:
            computer.seat_bot(locked, seat, level)
        elif bot_user.pk in seated:
            raise ServiceError(400, "already_seated", f"{bot_user.username} already plays "
                               "in this game")
        else:
            Seat.objects.create(game=locked, seat=seat, user=bot_user)
            invitations.joined(locked, bot_user)
        if len(taken) + 1 >= locked.players:
            _start_locked(game, locked, user)  # the creator starts it, seating the last
    game.refresh_from_db()
    return game


def team_count(game: Game) -> int:
    """How many teams an open game is being seated for (0: no teams)."""
    size = rules.Rules.from_dict(game.rules).team_size
    return 0 if size == 1 else game.players // size


def check_team(game: Game, team) -> int | None:
    """The team a joiner asked for (numbered from 0, as the view's `team`), or None."""
    if team is None:
        return None
    teams = team_count(game)
    if not teams:
        raise ServiceError(400, "bad_team", "this game is not played in teams")
    if isinstance(team, bool) or not isinstance(team, int) or not 0 <= team < teams:
        raise ServiceError(400, "bad_team", f"team must be a number from 0 to {teams - 1}")
    return team


def free_seat(game: Game, taken: set[int], team: int | None) -> int:
    """The lowest free seat, in `team` if one is asked for (seat s plays in team s % teams,
    docs/players/rules.md "Teams")."""
    teams = team_count(game)
    free = [s for s in range(game.players) if s not in taken
            and (team is None or s % teams == team)]
    if not free:
        raise ServiceError(400, "team_full", "that team has no free seat")
    return free[0]


def join_game(game: Game, user, entropy=None, team=None, token=None) -> Game:
    """Take the next free seat (in `team`, numbered from 0, in a team game if the player
    chose one), with `entropy` for the seed if the player sent any; the game starts by
    itself when the last one is taken. A private game seats only its invited players and
    holders of its link's `token`.

    The game's row is locked for the whole check-and-seat (SQLite's IMMEDIATE transactions
    serialise writers the same way), so racing joins can never seat more than `players`
    and a start can never miss a seat taken at the same moment."""
    entropy = check_entropy(entropy)
    with transaction.atomic():
        locked = _locked(game)
        invitations.check_may_join(locked, user, token)
        bot_accounts.check_bot_may_join(locked, user)
        if locked.status != Game.OPEN:
            raise ServiceError(400, "game_not_open", "the game is not open for joining")
        team = check_team(locked, team)
        seated = dict(Seat.objects.filter(game=locked).values_list("user_id", "seat"))
        if user.pk in seated:
            raise ServiceError(400, "already_seated", "you already play in this game")
        if len(seated) >= locked.players:
            raise ServiceError(400, "game_full", "every seat of this game is taken")
        seat = free_seat(locked, set(seated.values()), team)
        Seat.objects.create(game=locked, seat=seat, user=user, entropy=entropy)
        invitations.joined(locked, user)
        if len(seated) + 1 >= locked.players:
            _start_locked(game, locked, None)
    game.refresh_from_db()
    return game


def leave_game(game: Game, user) -> Game:
    """A player gives up their seat in a game that has not started; the seats after it move
    up one, so seats stay numbered from 0 in the order taken (in a team game the seat is
    left free instead: moving the others up would change their teams). The creator cancels
    instead."""
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
        later_seats = Seat.objects.filter(game=locked, seat__gt=seat.seat).order_by("seat")
        for later in [] if team_count(locked) else later_seats:
            Seat.objects.filter(pk=later.pk).update(seat=later.seat - 1)
    game.refresh_from_db()
    return game


def arrange_seats(game: Game, user, moves) -> Game:
    """The creator moves seated players to other seats (and so other teams and colours)
    before the start: `moves` maps usernames to seats (numbered from 0); whoever is not
    named stays put. The creator keeps seat 0 (the game's creator is its first seat)."""
    if user is None or game.creator_id != user.pk:
        raise ServiceError(403, "not_creator", "only the game's creator can arrange the seats")
    if not isinstance(moves, dict) or not moves:
        raise ServiceError(400, "bad_seats", "seats must map usernames to seat numbers")
    with transaction.atomic():
        locked = _locked(game)
        if locked.status != Game.OPEN:
            raise ServiceError(400, "game_not_open", "the game has started: seats are fixed")
        rows = {name.casefold(): (pk, seat, user_id) for pk, seat, user_id, name in
                Seat.objects.filter(game=locked)
                .values_list("pk", "seat", "user_id", "user__username")}
        wanted = {pk: seat for pk, seat, _ in rows.values()}
        named = set()
        for name, seat in moves.items():
            row = rows.get(str(name).casefold())
            if row is None:
                raise ServiceError(400, "bad_seats", f"{name} is not seated in this game")
            if row[0] in named:  # "bob" and "Bob": which seat is meant is anyone's guess
                raise ServiceError(400, "bad_seats", f"{name} is named twice")
            named.add(row[0])
            if isinstance(seat, bool) or not isinstance(seat, int) or not (
                    0 <= seat < locked.players):
                raise ServiceError(400, "bad_seats",
                                   f"a seat is a number from 0 to {locked.players - 1}")
            if (row[2] == locked.creator_id) != (seat == 0):
                raise ServiceError(400, "bad_seats", "the creator keeps seat 0")
            wanted[row[0]] = seat
        if len(set(wanted.values())) != len(wanted):
            raise ServiceError(400, "bad_seats", "two players cannot share a seat")
        _reseat(locked, wanted)
    game.refresh_from_db()
    return game


def _reseat(locked: Game, wanted: dict[int, int]) -> None:
    """Seat rows (by pk) to their new numbers, through numbers no seat holds, as each seat
    number is unique in its game at every step."""
    moving = {pk: seat for pk, seat in wanted.items()
              if Seat.objects.filter(pk=pk).values_list("seat", flat=True).get() != seat}
    for parked, pk in enumerate(moving, start=1000):
        Seat.objects.filter(pk=pk).update(seat=parked)
    for pk, seat in moving.items():
        Seat.objects.filter(pk=pk).update(seat=seat)


def starting_seats(seats: list[int], players: int, team_size: int) -> dict[int, int]:
    """Where each seated player sits when the game starts with the seats taken (`seats`, of
    `players` wanted): numbered from 0 with no gap, and in a team game the teams people
    chose kept together (a team that is not full is made up from the players of other
    teams that are not full, in seat order)."""
    if team_size == 1:
        return {seat: new for new, seat in enumerate(sorted(seats))}
    teams_then, teams_now = players // team_size, len(seats) // team_size
    chosen = [sorted(s for s in seats if s % teams_then == team) for team in range(teams_then)]
    full = [team for team in chosen if len(team) == team_size]
    rest = [seat for team in chosen if 0 < len(team) < team_size for seat in team]
    groups = full + [rest[i:i + team_size] for i in range(0, len(rest), team_size)]
    groups.sort(key=min)  # the creator's team first: the creator keeps seat 0
    return {seat: team + member * teams_now
            for team, group in enumerate(groups[:teams_now]) for member, seat in enumerate(group)}


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
    # Whoever joined since the game was read is dealt in too: the seats are read here, and
    # submit reads them again (as the reseating below leaves them) for the reactions.
    seats = dict(Seat.objects.filter(game=locked).values_list("pk", "seat"))
    if len(seats) >= 2:
        moved = starting_seats(list(seats.values()), locked.players,
                               rules.Rules.from_dict(locked.rules).team_size)
        if len(moved) == len(seats) and any(moved[s] != s for s in seats.values()):
            _reseat(locked, {pk: moved[seat] for pk, seat in seats.items()})
    # Seat order is the seats as they stand now: a seat that left took its entropy along,
    # and computer players send none.
    entropy = tuple(Seat.objects.filter(game=locked, entropy__isnull=False)
                    .order_by("seat").values_list("seat", "entropy"))
    seated = Seat.objects.filter(game=locked).count()
    if seated < 2:
        raise ServiceError(400, "not_enough_players", "at least two players must be seated")
    board = boards.board_of_map(locked.map)  # a map disabled since still starts its games
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


def _seed_fields(seed: str, committed_at) -> dict:
    """A game's server seed committed before the game was made, and when."""
    return {"seed": seed, "seed_committed_at": committed_at}


def create_full_game(creator, like: Game, name: str, humans: dict, bots: dict,
                     seed: str | None = None, committed_at=None) -> Game:
    """A game played as `like` is (its rules, deadline, clock and rating choice) with a new
    seed, every seat taken at once (`humans`: seat -> (user, entropy); `bots`: seat ->
    level), and started: a rematch (lobby.rematch). `seed`: the server seed committed at
    `committed_at`, before the entropy in `humans` was taken (none: one drawn now). Inside
    the caller's transaction."""
    checked = rules.validate_rules(like.rules, like.players, boards.board_of_map(like.map))
    game = Game.objects.create(
        **_seed_fields(seed, committed_at) if seed else {}, name=check_game_name(name),
        creator=creator, players=like.players, map=like.map,
        rules=checked.to_dict(), deadline_seconds=checked.deadline_seconds, rated=like.rated,
        clock_time_zone=like.clock_time_zone, quiet_from=like.quiet_from,
        quiet_until=like.quiet_until, pause_weekends=like.pause_weekends,
        # A private game's rematch stays private (its seats are all taken: no link needed).
        private=like.private,
        invite_token=invitations.new_secret() if like.private else None)
    for seat, (user, entropy) in sorted(humans.items()):
        Seat.objects.create(game=game, seat=seat, user=user, entropy=entropy)
    for seat, level in sorted(bots.items()):
        computer.seat_bot(game, seat, level)
    _start_locked(game, _locked(game), creator)
    game.refresh_from_db()
    return game
