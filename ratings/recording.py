"""Recording finished games: placements and luck per player, and the ratings they move.

A projection of the event log. The worker records every finished game not recorded yet,
in the order the games finished (record_pending); `rebuild` throws everything away and
records every finished game again in that same order, through the same code, so it gives
the same numbers. A rated game, unless a moderator voided it (ratings.voids), moves the
rating of each human seat that played it (ratings.counting), if they are on two or more
sides, with openskill's Plackett-Luce model, once in the pool of every game and once in the
pool of its table size; each player's change is discounted by how often they met the same
opponent lately and by how new their opponents are (counted games so far, read from the
ratings the earlier games left, so recording and rebuilding agree).
"""

from __future__ import annotations

import logging
from collections import defaultdict

from django.conf import settings
from django.db import connection, transaction
from openskill.models import PlackettLuce

from games.models import Game
from ratings import counting
from ratings.finished import (
    WHY_COMPUTER_SEAT,
    WHY_NEWCOMERS,
    WHY_PROVISIONAL,
    Finished,
    read_finished,
)
from ratings.luck import Luck
from ratings.models import ALL_SIZES, GameResult, PlayerResult, Rating

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


def provisional_of(row: list) -> tuple[float, float]:
    """A ledger row's provisional estimate (mu, sigma): its own once a game moved it, else
    the rating it starts from."""
    return (row[5], row[6]) if row[5] is not None else (row[0], row[1])


def established_at() -> int:
    """Counted games after which a player's opponents get a full game from them."""
    return int(getattr(settings, "CONQUEST_RATING_ESTABLISHED_GAMES", 5))


class Ledger:
    """Ratings in memory: [mu, sigma, games, wins, placements] per (user, pool), and when
    each pair of players last met as opponents in counted games."""

    def __init__(self, rows: dict | None = None, met: dict | None = None):
        self.rows: dict[tuple[int, int], list] = rows or {}
        self.met: dict[tuple[int, int], list] = met or {}
        self.touched: set[tuple[int, int]] = set()
        self.established_at = established_at()

    @classmethod
    def of_users(cls, user_ids, since) -> Ledger:
        """Their ratings now, and their meetings in counted games finished since `since`."""
        user_ids = set(user_ids)
        return cls({(r.user_id, r.pool): [r.mu, r.sigma, r.games, r.wins, r.placements,
                                          r.provisional_mu, r.provisional_sigma]
                    for r in Rating.objects.filter(user_id__in=user_ids)},
                   _meetings_since(user_ids, since))

    def get(self, user_id: int, pool: int) -> list:
        row = self.rows.get((user_id, pool))
        if row is None:
            row = self.rows[(user_id, pool)] = [*new_rating(), 0, 0, 0, None, None]
        return row

    def provisional(self, row: list) -> bool:
        """Whether the player of this row is still a newcomer: fewer counted games than
        those after which their opponents get a full game from them."""
        return row[2] < self.established_at

    def apply(self, game: Finished) -> tuple[GameResult, list[PlayerResult]]:
        """Record one finished game: its players' results and, if it is rated, the
        ratings it moves."""
        rated = game.rated_seats
        rows = {seat: self.get(user, ALL_SIZES) for seat, user in game.humans.items()}
        fresh = {seat for seat in rated if self.provisional(rows[seat])}
        before = {seat: shown(*(provisional_of(row) if seat in fresh else row[:2]))
                  for seat, row in rows.items()}
        weights, newcomers, pairs = self._weights(game, rated)
        if rated:
            for pool in (ALL_SIZES, game.seats):
                self._rate(game, pool, rated, weights, pairs)
            self._meet(game, rated)
        results = []
        for seat, user in sorted(game.humans.items()):
            luck = game.luck.get(seat) or Luck()
            after = self.rows[(user, ALL_SIZES)]
            moves, fresh_seat = seat in rated, seat in fresh
            results.append(PlayerResult(
                game_id=game.game_id, user_id=user, seat=seat, seats=game.seats,
                placement=game.places[seat], won=seat in game.winners,
                finished_at=game.finished_at, rated=moves,
                weight=weights[seat] if moves else None,
                mu=after[0] if moves else None, sigma=after[1] if moves else None,
                rating=shown(*(provisional_of(after) if fresh_seat else after[:2]))
                if moves else None,
                rating_before=before[seat] if moves else None, provisional=fresh_seat,
                battles=luck.battles, lost=luck.lost, expected_lost=luck.expected_lost,
                taken=luck.taken, expected_taken=luck.expected_taken,
                why=(WHY_PROVISIONAL if fresh_seat else WHY_NEWCOMERS if seat in newcomers
                     else "") if moves
                else game.why_not_rated(seat, rated),
                map=game.map, rules_key=game.rules_key, private=game.private,
            ))
        # A computer player's account keeps its games too (its page counts them), unrated.
        for seat, user in sorted(game.computers.items()):
            luck = game.luck.get(seat) or Luck()
            results.append(PlayerResult(
                game_id=game.game_id, user_id=user, seat=seat, seats=game.seats,
                placement=game.places[seat], won=seat in game.winners,
                finished_at=game.finished_at, rated=False, why=WHY_COMPUTER_SEAT,
                battles=luck.battles, lost=luck.lost, expected_lost=luck.expected_lost,
                taken=luck.taken, expected_taken=luck.expected_taken,
                map=game.map, rules_key=game.rules_key, private=game.private))
        result = GameResult(game_id=game.game_id, finished_at=game.finished_at,
                            seats=game.seats, rated=bool(rated))
        return result, results

    def _weights(self, game: Finished,
                 seats: set[int]) -> tuple[dict[int, float], set[int], dict[int, float]]:
        """Each rated seat's share of a full change: discounted by the opponent of this
        game it met most often lately, and scaled by how established its opponents are
        (their counted games before this one: called before _rate counts it); and the
        seats whose share the opponents' newness cut; and each seat's pair discount alone
        (what a newcomer's provisional rating moves by)."""
        established = {seat: counting.establishment(self.get(game.humans[seat], ALL_SIZES)[2],
                                                  self.established_at)
                       for seat in seats}
        found, newcomers, pairs = {}, set(), {}
        for seat in seats:
            user = game.humans[seat]
            opponents = [other for other in sorted(seats)
                         if game.side(other) != game.side(seat)]
            most = max((counting.meetings(self.met.get(_pair(user, game.humans[other]), []),
                                        game.finished_at) for other in opponents),
                       default=0)
            share = counting.opponents_share([established[other] for other in opponents])
            pairs[seat] = counting.weight(most)
            found[seat] = pairs[seat] * share
            if share < 1:
                newcomers.add(seat)
        return found, newcomers, pairs

    def _meet(self, game: Finished, seats: set[int]) -> None:
        for seat in seats:
            for other in seats:
                if seat < other and game.side(seat) != game.side(other):
                    pair = _pair(game.humans[seat], game.humans[other])
                    self.met.setdefault(pair, []).append(game.finished_at)

    def _rate(self, game: Finished, pool: int, seats: set[int],
              weights: dict[int, float], pairs: dict[int, float]) -> None:
        sides: dict[int, list[int]] = defaultdict(list)
        for seat in sorted(seats):
            sides[game.side(seat)].append(seat)
        order = sorted(sides)
        rows = {seat: self.get(game.humans[seat], pool) for seat in seats}
        ranks = [game.places[sides[side][0]] for side in order]
        fresh = {seat for seat in seats if self.provisional(rows[seat])}
        if fresh:  # each newcomer's own estimate, against what the others show: in full
            held = {s: provisional_of(rows[s]) if s in fresh else rows[s][:2] for s in seats}
            rated = MODEL.rate([[MODEL.rating(mu=held[s][0], sigma=held[s][1])
                                 for s in sides[side]] for side in order], ranks=ranks)
            for side, new in zip(order, rated, strict=True):
                for seat, rating in zip(sides[side], new, strict=True):
                    if seat in fresh:
                        discount = pairs[seat]
                        rows[seat][5] = held[seat][0] + discount * (rating.mu - held[seat][0])
                        rows[seat][6] = held[seat][1] + discount * (
                            rating.sigma - held[seat][1])
        teams_in = [[MODEL.rating(mu=rows[s][0], sigma=rows[s][1]) for s in sides[side]]
                    for side in order]
        rated = MODEL.rate(teams_in, ranks=ranks)
        for side, new in zip(order, rated, strict=True):
            for seat, rating in zip(sides[side], new, strict=True):
                row, share = rows[seat], weights[seat]
                if share == 1:
                    row[0], row[1] = rating.mu, rating.sigma
                else:
                    row[0] += share * (rating.mu - row[0])
                    row[1] += share * (rating.sigma - row[1])
                row[2] += 1
                row[3] += seat in game.winners
                row[4] += game.places[seat]
                self.touched.add((game.humans[seat], pool))

    def rating_rows(self, keys=None) -> list[Rating]:
        keys = self.rows.keys() if keys is None else keys
        return [Rating(user_id=user, pool=pool, mu=row[0], sigma=row[1],
                       rating=shown(row[0], row[1]), games=row[2], wins=row[3],
                       placements=row[4], provisional_mu=row[5], provisional_sigma=row[6])
                for (user, pool), row in ((k, self.rows[k]) for k in keys) if row[2]]


def _pair(user: int, other: int) -> tuple[int, int]:
    return (user, other) if user < other else (other, user)


def _meetings_since(user_ids: set[int], since) -> dict[tuple[int, int], list]:
    """{pair of users: finishing moments, oldest first} of the counted games finished since
    `since` in which they were opponents, for every pair with one of `user_ids`."""
    games = PlayerResult.objects.filter(user_id__in=user_ids, rated=True,
                                        finished_at__gte=since).values("game_id")
    seated: dict[int, list[tuple[int, int]]] = defaultdict(list)
    moments = {}
    for game_id, user_id, seat, seats, team_size, finished_at in (
            PlayerResult.objects.filter(game_id__in=games, rated=True)
            .order_by("finished_at", "game_id", "seat")
            .values_list("game_id", "user_id", "seat", "seats", "game__rules__team_size",
                         "finished_at")):
        teams = seats // team_size if isinstance(team_size, int) and team_size > 1 else seats
        seated[game_id].append((user_id, seat % teams))
        moments[game_id] = finished_at
    met: dict[tuple[int, int], list] = {}
    for game_id, rows in seated.items():  # in finishing order
        for user, side in rows:
            for other, other_side in rows:
                if user < other and side != other_side:
                    met.setdefault((user, other), []).append(moments[game_id])
    return met


def finished_games():
    """Every finished game in the order ratings take them."""
    return (Game.objects.filter(status=Game.FINISHED, finished_at__isnull=False)
            .order_by("finished_at", "id"))


def serialise() -> None:
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
        update_fields=["mu", "sigma", "rating", "games", "wins", "placements", "provisional_mu",
                       "provisional_sigma"])


def record_pending(limit: int = BATCH) -> list[int]:
    """Record the finished games not recorded yet, oldest first; returns their ids. If one
    finished before a game already recorded (two games ending in the same instant, their
    commits the other way round), everything is rebuilt so the order stays the rebuild's."""
    with transaction.atomic():
        serialise()
        pending = list(finished_games().filter(result__isnull=True)[:limit])
        if not pending:
            return []
        last = GameResult.objects.order_by("-finished_at", "-game_id").first()
        first = pending[0]
        if last is not None and (first.finished_at, first.pk) < (last.finished_at,
                                                                   last.game_id):
            log.info("game %s finished before game %s, already rated: rebuilding", first.pk,
                     last.game_id)
            rebuild_locked()
            return [game.pk for game in pending]
        facts = read_finished(pending)
        ledger = Ledger.of_users((user for f in facts for user in f.humans.values()),
                                 first.finished_at - counting.PAIR_WINDOW)
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
        serialise()
        return rebuild_locked()


def rebuild_locked() -> int:
    """rebuild() inside the caller's transaction, which holds serialise()'s lock."""
    PlayerResult.objects.all().delete()
    GameResult.objects.all().delete()
    Rating.objects.all().delete()
    ledger = Ledger()
    ids = list(finished_games().values_list("pk", flat=True))
    fields = ("id", "players", "rules", "rated", "finished_at", "map", "private")
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
