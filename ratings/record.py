"""Recording finished games: placements and luck per player, and the ratings they move.

A projection of the event log. The worker records every finished game not recorded yet,
in the order the games finished (record_pending); `rebuild` throws everything away and
records every finished game again in that same order, through the same code, so it gives
the same numbers. A rated game with two or more human seats (on two or more sides) moves
each human's rating with openskill's Plackett-Luce model, once in the pool of every game
and once in the pool of its table size.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, field

from django.db import connection, transaction
from openskill.models import PlackettLuce

from games.models import Event, Game, Seat
from games.rules import events as ev
from ratings.luck import Luck, luck_by_seat
from ratings.models import ALL_SIZES, GameResult, PlayerResult, Rating
from ratings.placement import PLACEMENT_EVENTS, placements

log = logging.getLogger(__name__)

MODEL = PlackettLuce()
# The shown rating: the ordinal (mu - 3 sigma, which starts at 0) scaled, from 1500.
BASE, SCALE = 1500, 20
BATCH = 500


def shown(mu: float, sigma: float) -> int:
    return round(BASE + SCALE * (mu - 3 * sigma))


def uncertainty(sigma: float) -> int:
    """One standard deviation of the skill estimate, in shown points."""
    return round(SCALE * sigma)


def new_rating() -> tuple[float, float]:
    return MODEL.mu, MODEL.sigma


@dataclass
class Finished:
    """What recording one finished game needs, read from its row, seats and log."""

    game_id: int
    finished_at: object
    seats: int
    team_size: int
    rated: bool
    humans: dict[int, int]  # seat -> user id
    places: dict[int, int]
    winners: set[int]
    luck: dict[int, Luck] = field(default_factory=dict)

    @property
    def moves_ratings(self) -> bool:
        teams = self.seats // self.team_size if self.team_size > 1 else self.seats
        sides = {seat % teams for seat in self.humans}
        return self.rated and len(self.humans) >= 2 and len(sides) >= 2


def read_finished(games: list[Game]) -> list[Finished]:
    """The facts of these finished games, in the order given, in three queries."""
    ids = [game.pk for game in games]
    seated: dict[int, list[tuple[int, int, str | None]]] = defaultdict(list)
    for game_id, seat, user_id, bot in Seat.objects.filter(game_id__in=ids).values_list(
            "game_id", "seat", "user_id", "bot"):
        seated[game_id].append((seat, user_id, bot))
    logged: dict[int, list[tuple[str, dict]]] = defaultdict(list)
    for game_id, kind, data in (Event.objects.filter(
            game_id__in=ids, type__in=(*PLACEMENT_EVENTS, ev.BATTLE))
            .order_by("game_id", "seq").values_list("game_id", "type", "data")):
        logged[game_id].append((kind, data))
    found = []
    for game in games:
        rows = seated[game.pk]
        team_size = int((game.rules or {}).get("team_size") or 1)
        events = logged[game.pk]
        places = placements([e for e in events if e[0] != ev.BATTLE], game.players, team_size)
        winners = set()
        for kind, data in events:
            if kind == ev.GAME_FINISHED:
                named = data.get("winners")
                if named is None:
                    named = [] if data.get("winner") is None else [data["winner"]]
                winners = {seat for seat in named if places.get(seat) == 1}
        rated = game.rated if game.rated is not None else not any(bot for _, _, bot in rows)
        found.append(Finished(
            game_id=game.pk, finished_at=game.finished_at, seats=game.players,
            team_size=team_size, rated=rated,
            humans={seat: user_id for seat, user_id, bot in rows if not bot},
            places=places, winners=winners,
            luck=luck_by_seat([data for kind, data in events if kind == ev.BATTLE],
                              game.players),
        ))
    return found


class Ledger:
    """Ratings in memory: [mu, sigma, games, wins, placements] per (user, pool)."""

    def __init__(self, rows: dict | None = None):
        self.rows: dict[tuple[int, int], list] = rows or {}
        self.touched: set[tuple[int, int]] = set()

    @classmethod
    def of_users(cls, user_ids) -> Ledger:
        return cls({(r.user_id, r.pool): [r.mu, r.sigma, r.games, r.wins, r.placements]
                    for r in Rating.objects.filter(user_id__in=set(user_ids))})

    def get(self, user_id: int, pool: int) -> list:
        row = self.rows.get((user_id, pool))
        if row is None:
            row = self.rows[(user_id, pool)] = [*new_rating(), 0, 0, 0]
        return row

    def apply(self, game: Finished) -> tuple[GameResult, list[PlayerResult]]:
        """Record one finished game: its players' results and, if it is rated, the
        ratings it moves."""
        moves = game.moves_ratings
        before = {seat: self.get(user, ALL_SIZES)[:2] for seat, user in game.humans.items()}
        if moves:
            for pool in (ALL_SIZES, game.seats):
                self._rate(game, pool)
        results = []
        for seat, user in sorted(game.humans.items()):
            luck = game.luck.get(seat) or Luck()
            after = self.rows[(user, ALL_SIZES)]
            results.append(PlayerResult(
                game_id=game.game_id, user_id=user, seat=seat, seats=game.seats,
                placement=game.places[seat], won=seat in game.winners,
                finished_at=game.finished_at, rated=moves,
                mu=after[0] if moves else None, sigma=after[1] if moves else None,
                rating=shown(*after[:2]) if moves else None,
                rating_before=shown(*before[seat]) if moves else None,
                battles=luck.battles, lost=luck.lost, expected_lost=luck.expected_lost,
                taken=luck.taken, expected_taken=luck.expected_taken,
            ))
        result = GameResult(game_id=game.game_id, finished_at=game.finished_at,
                            seats=game.seats, rated=moves)
        return result, results

    def _rate(self, game: Finished, pool: int) -> None:
        teams = game.seats // game.team_size if game.team_size > 1 else game.seats
        sides: dict[int, list[int]] = defaultdict(list)
        for seat in sorted(game.humans):
            sides[seat % teams].append(seat)
        order = sorted(sides)
        rows = {seat: self.get(game.humans[seat], pool) for seat in game.humans}
        teams_in = [[MODEL.rating(mu=rows[s][0], sigma=rows[s][1]) for s in sides[side]]
                    for side in order]
        ranks = [game.places[sides[side][0]] for side in order]
        rated = MODEL.rate(teams_in, ranks=ranks)
        for side, new in zip(order, rated, strict=True):
            for seat, rating in zip(sides[side], new, strict=True):
                row = rows[seat]
                row[0], row[1] = rating.mu, rating.sigma
                row[2] += 1
                row[3] += seat in game.winners
                row[4] += game.places[seat]
                self.touched.add((game.humans[seat], pool))

    def rating_rows(self, keys=None) -> list[Rating]:
        keys = self.rows.keys() if keys is None else keys
        return [Rating(user_id=user, pool=pool, mu=row[0], sigma=row[1],
                       rating=shown(row[0], row[1]), games=row[2], wins=row[3],
                       placements=row[4])
                for (user, pool), row in ((k, self.rows[k]) for k in keys) if row[2]]


def finished_games():
    """Every finished game in the order ratings take them."""
    return (Game.objects.filter(status=Game.FINISHED, finished_at__isnull=False)
            .order_by("finished_at", "id"))


def _serialise() -> None:
    """One recorder at a time (SQLite's IMMEDIATE transactions already serialise writers)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [0x7261746E])  # "ratn"


def _save(ledger: Ledger, results: list[GameResult], players: list[PlayerResult],
          keys=None) -> None:
    GameResult.objects.bulk_create(results, batch_size=BATCH)
    PlayerResult.objects.bulk_create(players, batch_size=BATCH)
    Rating.objects.bulk_create(
        ledger.rating_rows(keys), batch_size=BATCH, update_conflicts=True,
        unique_fields=["user", "pool"],
        update_fields=["mu", "sigma", "rating", "games", "wins", "placements"])


def record_pending(limit: int = BATCH) -> list[int]:
    """Record the finished games not recorded yet, oldest first; returns their ids. If one
    finished before a game already recorded (two games ending in the same instant, their
    commits the other way round), everything is rebuilt so the order stays the rebuild's."""
    with transaction.atomic():
        _serialise()
        pending = list(finished_games().filter(result__isnull=True)[:limit])
        if not pending:
            return []
        last = GameResult.objects.order_by("-finished_at", "-game_id").first()
        first = pending[0]
        if last is not None and (first.finished_at, first.pk) < (last.finished_at,
                                                                   last.game_id):
            log.info("game %s finished before game %s, already rated: rebuilding", first.pk,
                     last.game_id)
            _rebuild_locked()
            return [game.pk for game in pending]
        facts = read_finished(pending)
        ledger = Ledger.of_users(user for f in facts for user in f.humans.values())
        results, players = [], []
        for finished in facts:
            result, rows = ledger.apply(finished)
            results.append(result)
            players.extend(rows)
        _save(ledger, results, players, ledger.touched)
    return [game.pk for game in pending]


def rebuild() -> int:
    """Forget every result and rating, and record every finished game again in order;
    returns how many games."""
    with transaction.atomic():
        _serialise()
        return _rebuild_locked()


def _rebuild_locked() -> int:
    PlayerResult.objects.all().delete()
    GameResult.objects.all().delete()
    Rating.objects.all().delete()
    ledger = Ledger()
    ids = list(finished_games().values_list("pk", flat=True))
    fields = ("id", "players", "rules", "rated", "finished_at")
    for start in range(0, len(ids), BATCH):
        chunk = {game.pk: game for game in
                 Game.objects.filter(pk__in=ids[start:start + BATCH]).only(*fields)}
        results, players = [], []
        for finished in read_finished([chunk[pk] for pk in ids[start:start + BATCH]]):
            result, rows = ledger.apply(finished)
            results.append(result)
            players.extend(rows)
        GameResult.objects.bulk_create(results, batch_size=BATCH)
        PlayerResult.objects.bulk_create(players, batch_size=BATCH)
    Rating.objects.bulk_create(ledger.rating_rows(), batch_size=BATCH)
    return len(ids)


def queue_recording() -> None:
    """Called by the commit step that finishes a game: after commit, ask a worker to record
    it (the command that ended the game does not wait for ratings)."""
    from notifications.outbox import publish_later

    transaction.on_commit(lambda: publish_later("ratings.tasks.record_results", ()))
