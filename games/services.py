"""The one write path, submit(), and the lobby: every page, API call, mail and deadline
sweep changes a game only through here.

submit() checks in boardgame.io's order: well-formed, authenticated, game live, your turn,
not stale, your turn, phase, rules (CONTRACT.md puts staleness before turn and phase);
then appends the events decide() made.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from dataclasses import dataclass

from django.db import transaction
from django.utils.timezone import now

from games import computer, rules
from games.clock import zone
from games.models import Game, Seat
from games.rules import events as ev
from games.rules.errors import GameNotActive
from games.rules.fair import entropy_problem
from games.store import (
    VersionConflict,
    append,
    load_state,
    read_seats,
    status_of,
    stored_events,
    stored_events_with_times,
)
from games.upcasters import current_version, upcast

MAX_RETRIES = 5


class ServiceError(Exception):
    """A refusal that is not a rule of the game: status is the HTTP status to answer."""

    def __init__(self, status: int, code: str, detail: str):
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail


@dataclass
class Submitted:
    game: Game
    events: list
    state: rules.GameState
    seat: int | None
    before: rules.GameState | None = None

    def event_dicts(self) -> list[dict]:
        """The new events as GET .../events/ shows them to the sender, with their times."""
        seen = redacted(self.game, self.events, self.seat, self.before)
        return [{**e, "at": at.isoformat()}
                for e, at in zip(seen, self.game.appended_at, strict=True)]


def rules_of(game: Game) -> rules.Rules:
    """The game's options (defaults filled in), parsed once per read of its row."""
    parsed = game.__dict__.get("_parsed_rules")
    if parsed is None or parsed[0] is not game.rules:
        parsed = game._parsed_rules = (game.rules, rules.Rules.from_dict(game.rules))
    return parsed[1]


def redacted(game: Game, events: list, seat: int | None,
             before: rules.GameState | None = None) -> list[dict]:
    """Consecutive events of `game` as `seat` may see them (games.rules.sight decides):
    under fog a seated player's sight needs the state before the first one, read here when
    the caller has none."""
    game_rules = rules_of(game)
    if (before is None and events and events[0].seq > 1 and game_rules.fog
            and seat is not None and not game.is_over):
        before = load_state(game, upto=events[0].seq - 1)
    return rules.redact_events(events, seat, game.is_over, game_rules, game.players, before)


def dice_for(game: Game) -> rules.FairDice:
    return rules.FairDice(game.dice_seed, game.game_id)


def seat_rows(game: Game) -> list[tuple[int, int, str, str | None]]:
    """(seat, user id, username, bot level or None) of everyone seated, read once per Game object: a command
    asks for them several times. Whatever changes the seats calls forget_seats()."""
    rows = getattr(game, "_seat_rows", None)
    if rows is None:
        rows = game._seat_rows = read_seats(game)
    return rows


def forget_seats(game: Game) -> None:
    game.__dict__.pop("_seat_rows", None)
    game.__dict__.pop("_digest_takers", None)  # read with the seats (games.store.fetch_game)


def seat_of(game: Game, user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return next((row[0] for row in seat_rows(game) if row[1] == user.pk), None)


# ---- lobby -----------------------------------------------------------------------------
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
                bots=None, rated=None, entropy=None) -> Game:
    """A new open game with its creator in seat 0 and `bots` (levels) in the next seats;
    it starts at once if they fill it. `rated` None: rated unless bots are seated.
    `entropy`: the creator's contribution to the seed."""
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
    checked = rules.validate_rules(raw, players)
    if len(bots) >= players:
        raise ServiceError(400, "bad_request",
                           "bots take the seats after yours: at most players - 1 of them")
    with transaction.atomic():
        game = Game.objects.create(
            name=name, creator=user, players=players, rules=checked.to_dict(),
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
    checked = rules.validate_rules(locked.rules, seated)
    contributions = [text for _, text in entropy] or None
    if seated != locked.players or contributions:
        Game.objects.filter(pk=game.pk, status=Game.OPEN).update(
            players=seated, contributions=contributions)
    game.players, game.contributions = seated, contributions
    game.version = locked.version
    try:
        commit(game, None, rules.StartGame(game.game_id, seated, checked, entropy),
               user_id=getattr(user, "pk", None))
    except VersionConflict:
        raise ServiceError(400, "game_not_open", "the game has already started") from None


# ---- the write path --------------------------------------------------------------------
def submit(game: Game, user, payload, expected_version=None,
           others_policies_pass: bool = False) -> Submitted:
    """Play one command for `user` in `game`. With `others_policies_pass` (the web form), a
    version that only other players' policy changes moved past still counts as current;
    the API keeps CONTRACT.md's strict expected_version."""
    if expected_version is not None and (
        isinstance(expected_version, bool) or not isinstance(expected_version, int)
        or expected_version < 0
    ):
        raise rules.errors.BadCommand("expected_version must be a whole number")
    command = rules.parse_command(payload, None)  # well-formed
    if user is None or not user.is_authenticated:  # authenticated
        raise ServiceError(401, "not_authenticated", "sign in to play")
    for attempt in range(MAX_RETRIES):
        if attempt:
            game.refresh_from_db()
            forget_seats(game)  # a seat may have changed hands meanwhile
        if game.status != Game.ACTIVE:  # game live
            raise GameNotActive(f"the game is {game.status}")
        seat = seat_of(game, user)
        if seat is None:
            raise ServiceError(403, "not_seated", "you do not play in this game")
        command = dataclasses.replace(command, seat=seat)
        state = load_state(game)
        if state is not None and state.players[seat].bot and not state.players[seat].out:
            raise ServiceError(403, "played_by_bot", "you missed too many turns: a computer "
                               "player plays your seat to the end of the game")
        try:
            if others_policies_pass and expected_version is not None and state is not None \
                    and only_others_policies(game, expected_version, state.version, seat):
                expected_version = state.version
            return _decide_and_append(game, command, expected_version, user.pk, seat, state)
        except VersionConflict:
            if expected_version is not None:
                raise
    raise VersionConflict(game.version)


def submit_timeout(game: Game, expected_version: int, state=None) -> Submitted:
    """The deadline sweep's command: complete the owed decision, if nobody moved since.
    `state` may be passed if the caller has just loaded it."""
    if game.status != Game.ACTIVE:
        raise GameNotActive(f"the game is {game.status}")
    return _decide_and_append(game, rules.TimeOut(), expected_version, None, None, state)


def _decide_and_append(game, command, expected_version, user_id, seat, state=None) -> Submitted:
    if state is None:
        state = load_state(game)
    # CONTRACT.md: a client that saw an older version gets 409 whatever else is wrong, so
    # staleness is checked before turn and phase (STYLE.md's boardgame.io order puts it
    # after; the contract wins: a racing loser must learn the game moved on).
    if expected_version is not None and expected_version != state.version:
        raise VersionConflict(state.version)
    return commit(game, state, command, user_id=user_id, seat=seat)


# How many events a stale client may have missed and still be let through, if they were all
# other players' standing policies.
POLICY_SLACK = 20


def only_others_policies(game: Game, seen: int, current: int, seat) -> bool:
    """Whether everything appended since version `seen` is another player's change of a
    standing policy (their defence dice), which cannot change this seat's decision: an
    opponent's policy change must not bounce a reinforcement half filled in."""
    if seat is None or not 0 <= seen < current or current - seen > POLICY_SLACK:
        return False
    return all(e.type == ev.DEFENSE_SET and e.data.get("seat") != seat
               for e in stored_events(game, after=seen, upto=current))


def commit(game: Game, state, command, user_id=None, seat=None,
           also=None, queue_bots=True) -> Submitted:
    """The one commit step every change to a game takes: the engine decides the events of
    `command` against `state`, they are applied, and appended with the game's projection,
    its mail and `also` (the caller's own projection of them, e.g. a hidden chat message)
    in one transaction. The deadline follows from the events (games.clock.next_deadline)."""
    events, after = rules.decide_and_apply(state, command, dice_for(game))
    from notifications.outbox import outbox_writer  # the app above: mail is its concern

    append(game, events, state, after, user_id=user_id, writes=(
        outbox_writer(game, events, state, after),
        None if also is None else (lambda: also(events))))
    if queue_bots:  # (the bots' own runner plays on without queueing itself again)
        computer.queue_if_owed(game, after)
    if after.finished and after.finish_reason != "aborted" and (
            state is None or not state.finished):
        # The apps above: ratings and tournaments are their concern, done by the worker.
        from ratings.record import queue_recording
        from tournaments.queue import queue_advance

        queue_recording()
        queue_advance(game.pk)
    return Submitted(game, events, after, seat, state)


# ---- what a caller may see -------------------------------------------------------------
def usernames(game: Game) -> dict[int, str]:
    return {row[0]: row[2] for row in seat_rows(game)}


def bot_levels(game: Game, state: rules.GameState | None = None) -> dict[int, str]:
    """The seats computer players play, with their levels: seats made for a bot, and (with
    `state`) seats a bot took over under the dropped_seat rule."""
    levels = {row[0]: row[3] for row in seat_rows(game) if row[3]}
    if state is not None:
        for player in state.players:
            if player.bot and not player.out:
                levels.setdefault(player.seat, player.bot)
    return levels


def rated(game: Game) -> bool:
    """Whether the game moves ratings: the creator's choice, else true unless a computer
    player was seated (a dropped seat a bot plays on does not change it)."""
    if game.rated is not None:
        return game.rated
    return not any(row[3] for row in seat_rows(game))


def team_of(game: Game, seat: int) -> int | None:
    """A seat's team in a team game (CONTRACT.md: seat s in team s % teams), else None."""
    game_rules = rules_of(game)
    return None if game_rules.team_size == 1 else seat % game_rules.team_count(game.players)


def game_view(game: Game, state: rules.GameState | None, seat: int | None) -> dict:
    names = usernames(game)
    bots = bot_levels(game, state)
    view = {
        "id": game.pk, "name": game.name, "status": game.status, "version": game.version,
        # Every option, defaults filled in for games made before an option existed.
        "rules": rules_of(game).to_dict(),
        "deadline_seconds": game.deadline_seconds,
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "seed_hash": game.seed_hash, "seats_wanted": game.players,
        "clock": {"time_zone": game.clock_time_zone, "quiet_from": game.quiet_from,
                  "quiet_until": game.quiet_until, "weekends": game.pause_weekends},
        "creator": names.get(0),
        "rated": rated(game),
    }
    if state is None:
        view.update({
            "phase": None, "turn": 0, "current_seat": None, "winner": None,
            "players": [
                {"seat": s, "username": name, "color": rules.board.COLORS[s], "territories": 0,
                 "armies": 0, "cards": 0, "eliminated": False, "dropped": False,
                 "missed_turns": 0, "bot": bots.get(s), "team": team_of(game, s)}
                for s, name in sorted(names.items())
            ],
            "territories": {t: {"owner": None, "armies": 0} for t in rules.TERRITORIES},
            "pending": {"reinforcements": 0, "must_trade": False, "occupy": None},
            "sets_traded": 0,
            "next_set_value": rules.cards.next_set_value(rules_of(game), 0),
            "you": None if seat is None else {
                "seat": seat, "color": rules.board.COLORS[seat], "cards": [], "mission": None,
                "capital": None, "defense": "max",
            },
        })
        return view
    engine_view = rules.view(state, seat)
    for player in engine_view["players"]:
        player["username"] = names.get(player["seat"])
        player["bot"] = bots.get(player["seat"])
    view.update(engine_view)
    if state.version != game.version:  # ?at=N: the status as of that version, too
        view["status"] = status_of(state)
    view["version"] = state.version
    return view


def event_dicts(game: Game, seat: int | None, after: int = 0,
                upto: int | None = None) -> list[dict]:
    """The game's events after `after` (up to `upto`), as `seat` may see them, with their
    times."""
    # One read: a second one for the times could see an event the first did not.
    rows = stored_events_with_times(game, after, upto)
    seen = redacted(game, [e for e, _ in rows], seat)
    return [{**e, "at": at.isoformat()} for e, (_, at) in zip(seen, rows, strict=True)]


def spectator_event(stored, game: Game) -> dict:
    """A stored games.models.Event as a spectator may see it (everything once it is over)."""
    data = stored.data
    if stored.schema_version != current_version(stored.type):
        data = upcast(stored.type, stored.schema_version, data)
    event = rules.Event(stored.seq, stored.type, data, stored.actor)
    return redacted(game, [event], None)[0]


def record(game: Game, seat: int | None) -> dict:
    """The game's whole log as `seat` may see it, with what checks its draws: the players'
    entropy once the game has started, the server's seed and the seed once it is over."""
    revealed = game.is_over
    names = usernames(game)
    bots = bot_levels(game)
    return {
        "id": game.pk, "name": game.name, "status": game.status, "rules": game.rules,
        "seats": [
            {"seat": s, "username": name, "color": rules.board.COLORS[s], "bot": bots.get(s)}
            for s, name in sorted(names.items())
        ],
        "seed_hash": game.seed_hash,
        "server_seed": game.seed if revealed else None,
        "contributions": None if game.version == 0 else list(game.contributions or []),
        "seed": game.dice_seed if revealed else None,
        "events": event_dicts(game, seat),
    }
