"""Synthetic but valid data in bulk for the growth bench (PostgreSQL COPY): accounts and
ratings, finished games the engine played with each game's own seed and id (so replay and
verify both hold), games ended by a resignation, games just started, and a long running
game with its snapshots as the append path would have taken them.

Every row goes in by COPY with ids reserved from the table's own sequence, and the events
through the table's triggers (the gapless guard checks every one).
"""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta

from django.db import connection
from django.utils import timezone

import engine as rules
from engine.moves import seats_to_act
from games.models import Event, Game, Seat, Snapshot
from games.store.states import ENGINE_VERSION, snapshot_every
from games.upcasters import current_version
from tests.engine.players import bot_command

PLAYED_ROUNDS = 20  # a round limit: every played game ends, some 1,400 events long


def reserve_ids(model, count: int) -> list[int]:
    """`count` new primary keys of `model`, taken from its sequence (nobody else writes
    to the bench's database meanwhile)."""
    table = model._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", [table, model._meta.pk.column])
        sequence = cursor.fetchone()[0]
        cursor.execute("SELECT nextval(%s)", [sequence])
        first = cursor.fetchone()[0]
        cursor.execute("SELECT setval(%s, %s)", [sequence, first + count - 1])
    return list(range(first, first + count))


def _value(value):
    if isinstance(value, dict | list):
        return json.dumps(value)
    return value


def copy(model, rows: list[dict]) -> int:
    """COPY `rows` ({column: value}, the same columns in each) into `model`'s table."""
    if not rows:
        return 0
    columns = list(rows[0])
    quoted = ", ".join(connection.ops.quote_name(column) for column in columns)
    connection.ensure_connection()
    with connection.cursor() as cursor, cursor.cursor.copy(
            f"COPY {connection.ops.quote_name(model._meta.db_table)} ({quoted}) FROM STDIN"
    ) as out:
        for row in rows:
            out.write_row([_value(row[column]) for column in columns])
    return len(rows)


def row_of(instance, with_pk: bool = True) -> dict:
    """{column: value} of a new model instance, its defaults filled in as save() would."""
    meta = instance._meta
    return {field.column: field.pre_save(instance, True) for field in meta.concrete_fields
            if with_pk or field is not meta.pk}


def users(count: int, prefix: str) -> list[int]:
    """`count` accounts that cannot sign in by password; their ids."""
    from django.contrib.auth import get_user_model

    User = get_user_model()
    ids = reserve_ids(User, count)
    now = timezone.now()
    copy(User, [row_of(User(id=pk, username=f"{prefix}{n}", email=f"{prefix}{n}@example.com",
                            password="!", date_joined=now)) for n, pk in enumerate(ids)])
    return ids


def ratings(user_ids: list[int], games: int = 20) -> None:
    """A rating in the pool of every game for each of these players, as after `games`
    rated games (enough for the leaderboard)."""
    from ratings.models import ALL_SIZES, Rating

    rnd = random.Random(len(user_ids))
    rows = []
    for user_id in user_ids:
        mu = rnd.gauss(25, 4)
        rows.append(row_of(Rating(user_id=user_id, pool=ALL_SIZES, mu=mu, sigma=3.0,
                                  rating=round((mu - 9) * 60), games=games,
                                  wins=rnd.randint(0, games), placements=games * 2),
                           with_pk=False))
    copy(Rating, rows)


def _game(pk: int, players: int, creator: int, options: rules.Rules, **fields) -> Game:
    game = Game(id=pk, name=f"filled {pk}", creator_id=creator, players=players,
                rules=options.to_dict(), deadline_seconds=86400, **fields)
    game.seed_hash = rules.seed_hash(game.seed)
    return game


def _event_rows(game_id: int, events, seated: list[int], at: datetime) -> list[dict]:
    return [{"game_id": game_id, "seq": e.seq, "type": e.type, "data": e.data,
             "actor": e.actor, "user_id": seated[e.actor] if e.actor is not None and
             0 <= e.actor < len(seated) else None,
             "schema_version": current_version(e.type), "created_at": at} for e in events]


def _play(game: Game, options: rules.Rules, rnd: random.Random, most: int | None = None):
    """The events of a game the engine's test bot plays with the game's own dice, to its
    end or `most` events; and the state after them (and the states at each snapshot)."""
    dice = rules.FairDice(game.dice_seed, game.game_id)
    log = rules.decide(None, rules.StartGame(game.game_id, game.players, options), dice)
    state, snapshots, every = rules.replay(log), [], snapshot_every()
    while not state.finished and (most is None or len(log) < most):
        seat = rnd.choice(seats_to_act(state))
        command = rules.parse_command(bot_command(state, seat, rnd, 0.9), seat)
        for event in rules.decide(state, command, dice):
            state = rules.evolve(state, event)
            log.append(event)
            if most is not None and state.version % every == 0:
                snapshots.append(state.copy())
    return log, state, snapshots


def _projection(state) -> dict:
    from games.store.states import status_of

    return {"version": state.version, "status": status_of(state),
            "phase": "setup" if state.phase == "setup_done" else state.phase,
            "turn": state.turn, "current_seat": state.current, "winner": state.winner}


def played_games(events_wanted: int, user_ids: list[int], seed: int) -> tuple[int, int]:
    """Finished games of 2-6 players the engine played (round limit PLAYED_ROUNDS) until
    `events_wanted` events are stored; (games, events) written. Written in batches."""
    rnd, games, written = random.Random(seed), 0, 0
    while written < events_wanted:
        batch = min(200, max(1, (events_wanted - written) // 1000))
        ids = reserve_ids(Game, batch)
        game_rows, seat_rows, event_rows = [], [], []
        for pk in ids:
            players = rnd.randint(2, 6)
            seated = rnd.sample(user_ids, players)
            options = rules.validate_rules({"round_limit": PLAYED_ROUNDS}, players)
            game = _game(pk, players, seated[0], options)
            log, state, _ = _play(game, options, rnd)
            ended = timezone.now() - timedelta(days=rnd.randint(1, 900))
            game_rows.append(row_of(_game(pk, players, seated[0], options, seed=game.seed,
                                          started_at=ended - timedelta(days=30),
                                          finished_at=ended, **_projection(state))))
            seat_rows += [row_of(Seat(game_id=pk, seat=s, user_id=u), with_pk=False)
                          for s, u in enumerate(seated)]
            event_rows += _event_rows(pk, log, seated, ended)
        copy(Game, game_rows)
        copy(Seat, seat_rows)
        written += copy(Event, event_rows)
        games += batch
    return games, written


def resigned_games(count: int, player: int, opponents: list[int]) -> int:
    """`count` finished two-player games of `player`, each ended by the opponent resigning
    at once, with their results recorded as the ratings worker would (unrated); events
    written."""
    from ratings.finished import rules_key
    from ratings.models import GameResult, PlayerResult

    rnd, written = random.Random(count), 0
    options = rules.validate_rules({}, 2)
    for start in range(0, count, 2000):
        ids = reserve_ids(Game, min(2000, count - start))
        rows: dict = {Game: [], Seat: [], Event: [], GameResult: [], PlayerResult: []}
        for pk in ids:
            seated = [player, rnd.choice(opponents)]
            game = _game(pk, 2, player, options)
            dice = rules.FairDice(game.dice_seed, game.game_id)
            log = rules.decide(None, rules.StartGame(game.game_id, 2, options), dice)
            state = rules.replay(log)
            for event in rules.decide(state, rules.parse_command({"type": "resign"}, 1), dice):
                state = rules.evolve(state, event)
                log.append(event)
            ended = timezone.now() - timedelta(minutes=pk)
            rows[Game].append(row_of(_game(pk, 2, player, options, seed=game.seed, rated=False,
                                           started_at=ended, finished_at=ended,
                                           **_projection(state))))
            rows[Seat] += [row_of(Seat(game_id=pk, seat=s, user_id=u), with_pk=False)
                           for s, u in enumerate(seated)]
            rows[Event] += _event_rows(pk, log, seated, ended)
            rows[GameResult].append(row_of(GameResult(game_id=pk, finished_at=ended, seats=2,
                                                      rated=False)))
            rows[PlayerResult] += [row_of(PlayerResult(
                game_id=pk, user_id=u, seat=s, seats=2, placement=1 + (state.winner != s),
                won=state.winner == s, finished_at=ended, rated=False, map=game.map,
                rules_key=rules_key(game.rules), private=False), with_pk=False)
                for s, u in enumerate(seated)]
        for model, found in rows.items():
            copy(model, found)
        written += len(rows[Event])
    return written


def active_games(count: int, user_ids: list[int]) -> list[int]:
    """`count` two-player games just started (placement in batches of 5), their deadlines
    a day ahead; their ids."""
    rnd, made = random.Random(count), []
    options = rules.validate_rules({"placement_batch": 5}, 2)
    now = timezone.now()
    for start in range(0, count, 5000):
        ids = reserve_ids(Game, min(5000, count - start))
        rows: dict = {Game: [], Seat: [], Event: []}
        for pk in ids:
            seated = rnd.sample(user_ids, 2)
            game = _game(pk, 2, seated[0], options)
            log = rules.decide(None, rules.StartGame(game.game_id, 2, options),
                               rules.FairDice(game.dice_seed, game.game_id))
            state = rules.replay(log)
            rows[Game].append(row_of(_game(pk, 2, seated[0], options, seed=game.seed,
                                           started_at=now, deadline=now + timedelta(days=1),
                                           **_projection(state))))
            rows[Seat] += [row_of(Seat(game_id=pk, seat=s, user_id=u), with_pk=False)
                           for s, u in enumerate(seated)]
            rows[Event] += _event_rows(pk, log, seated, now)
        for model, found in rows.items():
            copy(model, found)
        made += ids
    return made


def long_game(events_wanted: int, user_ids: list[int], seed: int = 0) -> int:
    """A running six-player game of `events_wanted` events with a snapshot every
    snapshot_every() events, as the append path leaves one; its id."""
    for attempt in range(50):
        rnd = random.Random(seed * 100 + attempt)
        seated = rnd.sample(user_ids, 6)
        options = rules.validate_rules({}, 6)
        pk = reserve_ids(Game, 1)[0]
        game = _game(pk, 6, seated[0], options)
        log, state, snapshots = _play(game, options, rnd, most=events_wanted)
        if state.finished:
            continue
        now = timezone.now()
        copy(Game, [row_of(_game(pk, 6, seated[0], options, seed=game.seed, started_at=now,
                                 deadline=now + timedelta(days=1), **_projection(state)))])
        copy(Seat, [row_of(Seat(game_id=pk, seat=s, user_id=u), with_pk=False)
                    for s, u in enumerate(seated)])
        copy(Event, _event_rows(pk, log, seated, now))
        copy(Snapshot, [row_of(Snapshot(game_id=pk, seq=s.version, state=s.to_dict(),
                                        engine_version=ENGINE_VERSION), with_pk=False)
                        for s in snapshots])
        return pk
    raise SystemExit(f"no bot game lasted {events_wanted} events")
