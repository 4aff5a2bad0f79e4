"""Where players stand: a player's record and the leaderboard, as the API and the pages show
them.

Only public facts: finished games (whose logs are open to all once over) and, of running
games, what the lobby lists anyway (name, status, size). Nothing is read from a running
game's state, so fog of war and hidden cards cannot leak through here.

A private game gives a reader who may not know of it (games.visibility.visible) its
rating change alone: the rating (and its count of rated games) is the whole rating, while
every other statistic (games, wins, placements, favourites, rating history, luck) and the
leaderboards' columns count the games that reader may know of, public ones on the boards.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Count, Min, Q, Sum, Value
from django.db.models.functions import Lower
from django.urls import reverse

from accounts.bots import bot_account_ids, owners
from engine.options import OPTIONS, Rules
from games.boards import UnknownMap, board_of_map
from games.models import Game, Seat
from games.visibility import visible, visible_by
from lib.inputs import whole_number
from ratings import charts
from ratings.luck import Luck
from ratings.models import ALL_SIZES, PlayerResult, Rating
from ratings.recording import BASE, established_at, shown, uncertainty
from words.vocabulary import map_name

RECENT = 20
CURRENT_READ = 500  # a player's games not over read, of which the 50 newest visible are shown
PAGE_SIZE = 50
# The options a player's choice of tells their taste (engine.options: Option.taste).
TASTES = frozenset(option.name for option in OPTIONS if option.taste)


def min_games() -> int:
    """Rated games a player needs to appear on the leaderboard."""
    return getattr(settings, "CONQUEST_LEADERBOARD_MIN_GAMES", 5)


def find_player(username: str):
    """The account of that name (any case), or None."""
    # (PostgreSQL refuses a NUL in a query: no name holds a control character anyway)
    if not isinstance(username, str) or not 0 < len(username) <= 150 \
            or not username.isprintable():
        return None
    # lower() on both sides: the unique index on lower(username) (games migration 0006)
    # finds it, where iexact's UPPER() read every account (35 ms among 100,000).
    return get_user_model().objects.alias(lowered=Lower("username")).filter(
        lowered=Lower(Value(username))).first()


def rating_of(rating: Rating | None) -> dict:
    if rating is None:
        return {"rating": None, "uncertainty": None, "mu": None, "sigma": None,
                "rated_games": 0, "provisional": False}
    if rating.games < established_at() and rating.provisional_mu is not None:
        # A newcomer: their provisional rating, shown with "?" (never on the leaderboard).
        return {"rating": shown(rating.provisional_mu, rating.provisional_sigma),
                "uncertainty": uncertainty(rating.provisional_sigma),
                "mu": round(rating.provisional_mu, 3),
                "sigma": round(rating.provisional_sigma, 3),
                "rated_games": rating.games, "provisional": True}
    return {"rating": rating.rating, "uncertainty": uncertainty(rating.sigma),
            "mu": round(rating.mu, 3), "sigma": round(rating.sigma, 3),
            "rated_games": rating.games, "provisional": False}


def favourite_options(rules_counted) -> list[dict]:
    """The options a player's games most often set away from their defaults, of (rules,
    games played with them) pairs, oldest first: those whose choice is a taste (the
    options' declarations say which), not how a table is set up."""
    defaults = {option: value for option, value in Rules().to_dict().items()
                if option in TASTES}
    counted: Counter = Counter()
    values = {}
    for game_rules, games in rules_counted:
        for option, value in (game_rules or {}).items():
            if option in defaults and value != defaults[option]:
                key = (option, repr(value))
                counted[key] += games
                values[key] = value
    return [{"option": key[0], "value": values[key], "games": count}
            for key, count in counted.most_common(3)]


def favourite_maps(counted: Counter) -> list[dict]:
    """The maps a player's games were most often played on (the three first), of {map:
    games}, each named in the reader's language; a map no longer kept by its id."""
    favourites = sorted(counted.items(), key=lambda item: (-item[1], item[0]))[:3]
    return [{"map": map_id, "name": _map_title(map_id), "games": count}
            for map_id, count in favourites]


def _map_title(map_id: str) -> str:
    try:
        return map_name(board_of_map(map_id))
    except (UnknownMap, LookupError):
        return map_id


# Which of a player's games their page lists (?games=): all, or one of these.
GAME_LISTS = ("current", "finished", "won", "lost")


def check_games_query(value) -> str:
    """?games= of a player's page: empty (all) or one of GAME_LISTS, or BadQuery."""
    if value in (None, ""):
        return ""
    if value not in GAME_LISTS:
        raise BadQuery(f"games must be one of: {', '.join(GAME_LISTS)}")
    return value


def _listed(results, listing: str):
    """Of a player's finished results, those the list `listing` shows."""
    if listing == "current":
        return results.none()
    if listing in ("won", "lost"):
        return results.filter(won=listing == "won")
    return results


# A page of finished games ends at a cursor: "<finished_at in µs since 1970>.<game id>" of
# its oldest game; ?before= that cursor shows the games finished before it (keyset paging:
# as fast on the hundredth page as on the first).
CURSOR = re.compile(r"([0-9]{1,18})\.([0-9]{1,18})")
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# The rating history and the luck per game hold a player's newest points, enough for their
# charts; `history_complete` says whether they reach back to the first.
HISTORY = 500


def cursor_of(result: PlayerResult) -> str:
    return f"{(result.finished_at - EPOCH) // timedelta(microseconds=1)}.{result.game_id}"


def check_cursor(value) -> tuple[datetime, int] | None:
    """?before= of a player's page: empty (the newest games) or a cursor, or BadQuery."""
    if value in (None, ""):
        return None
    found = CURSOR.fullmatch(value) if isinstance(value, str) else None
    try:
        at = EPOCH + timedelta(microseconds=int(found[1])) if found else None
    except OverflowError:
        at = None
    if at is None:
        raise BadQuery("before must be a cursor a player's page gave (recent_next)")
    return at, int(found[2])


def _before(results, cursor: tuple[datetime, int] | None):
    if cursor is None:
        return results
    at, game_id = cursor
    return results.filter(Q(finished_at__lt=at) | Q(finished_at=at, game_id__lt=game_id))


def _newest(results, count: int) -> tuple[list, bool]:
    """The newest `count` of `results` (newest first), and whether there are more."""
    rows = list(results.order_by("-finished_at", "-game_id")[:count + 1])
    return rows[:count], len(rows) > count


def _record(results) -> dict:
    """Games, wins, placements, dice luck and favourites of `results` in two queries: grouped
    by map and rules (the results keep both), which a player's games share in a handful of
    kinds, then the rules of one game of each kind."""
    groups = list(results.values("map", "rules_key").annotate(
        games=Count("id"), wins=Count("id", filter=Q(won=True)), placements=Sum("placement"),
        battles=Sum("battles"), lost=Sum("lost"), expected_lost=Sum("expected_lost"),
        taken=Sum("taken"), expected_taken=Sum("expected_taken"), first=Min("finished_at"),
        example=Min("game_id"))
        .order_by("first"))
    rules = dict(Game.objects.filter(pk__in=[group["example"] for group in groups])
                 .values_list("pk", "rules"))
    total = {key: sum(group[key] for group in groups) for key in (
        "games", "wins", "placements", "battles", "lost", "expected_lost", "taken",
        "expected_taken")}
    maps: Counter = Counter()
    for group in groups:
        maps[group["map"]] += group["games"]
    total["favourite_options"] = favourite_options(
        [(rules.get(group["example"]), group["games"]) for group in groups])
    total["favourite_maps"] = favourite_maps(maps)
    return total


def profile(user, viewer=None, listing: str = "", before=None) -> dict:
    """Everything the player page and GET /api/v1/players/{username}/ show to `viewer`: a
    private game they may not know of counts in the rating and nowhere else (the module's
    docstring). `listing` (check_games_query) narrows the lists of games; `before`
    (check_cursor) pages the finished ones."""
    results = PlayerResult.objects.filter(visible_by(viewer, "private", "game_id"), user=user)
    overall = Rating.objects.filter(user=user, pool=ALL_SIZES).first()
    by_size = {r.pool: r for r in Rating.objects.filter(user=user).exclude(pool=ALL_SIZES)}
    record = _record(results)
    games = record["games"]
    rated, more_rated = _newest(results.filter(rated=True, rating__isnull=False)
                                .only("game_id", "finished_at", "rating"), HISTORY)
    history = [{"game": r.game_id, "finished_at": r.finished_at.isoformat(),
                "rating": r.rating} for r in reversed(rated)]
    luck = {
        "battles": record["battles"],
        "lost": record["lost"],
        "expected_lost": round(record["expected_lost"], 1),
        "taken": record["taken"],
        "expected_taken": round(record["expected_taken"], 1),
    }
    # The net from the exact sums, rounded once, as the game page rounds a game's (the
    # rounded expectations above would round it twice: -1.8 here, -1.9 there).
    luck["net"] = round(Luck(**{key: record[key] for key in (
        "battles", "lost", "expected_lost", "taken", "expected_taken")}).net, 1)
    fought, more_fought = _newest(results.filter(battles__gt=0).only(
        "game_id", "finished_at", "lost", "expected_lost", "taken", "expected_taken"), HISTORY)
    luck["per_game"] = [
        {"game": r.game_id, "net": round(Luck(1, r.lost, r.expected_lost, r.taken,
                                              r.expected_taken).net, 1)}
        for r in reversed(fought)
    ]
    luck["per_game_complete"] = not more_fought
    # From their seats newest first beside the games not over (the indexes seat_by_user and
    # game_unfinished), then those the viewer may know of: a player of 10,000 finished
    # games and none running, among 100,000 running games, took 220 ms walking the running
    # games newest first, 23 ms looking each seat's game up.
    not_over = list(Seat.objects.filter(user=user, game__status__in=Game.NOT_OVER)
                    .order_by("-game_id").values_list("game_id", flat=True)[:CURRENT_READ])
    current = (Game.objects.filter(pk__in=not_over).filter(visible(viewer))
               .only("pk", "name", "title", "status", "players").order_by("-id")[:50])
    recent, more_recent = _newest(_before(_listed(results, listing), before)
                                  .select_related("game").only(*FINISHED_FIELDS), RECENT)
    if listing in ("finished", "won", "lost"):
        current = []
    owner = owners([user.pk]).get(user.pk)
    return {
        "username": user.username,
        # A bot account (docs/bots/contract.md "Bot accounts"): rated on the bots' leaderboard.
        "bot": owner is not None,
        "owner": owner,
        **rating_of(overall),
        "ratings_by_size": {str(size): rating_of(r) for size, r in sorted(by_size.items())},
        "games": games,
        "wins": record["wins"],
        "average_placement": round(record["placements"] / games, 2) if games else None,
        "favourite_options": record["favourite_options"],
        "favourite_maps": record["favourite_maps"],
        "history": history,
        "history_complete": not more_rated,
        "luck": luck,
        "current": [{"id": g.pk, "name": g.name, "title": g.title, "status": g.status,
                     "players": g.players, "url": reverse("game", args=[g.pk])}
                    for g in current],
        "recent": [_finished(r) for r in recent],
        "recent_next": cursor_of(recent[-1]) if more_recent else None,
    }


# What a finished game's line reads of its result and game.
FINISHED_FIELDS = ("game_id", "game__name", "game__title", "finished_at", "seats", "placement",
                   "won", "rated", "weight", "rating", "rating_before")


def _finished(result: PlayerResult) -> dict:
    return {
        "id": result.game_id, "name": result.game.name, "title": result.game.title,
        "finished_at": result.finished_at.isoformat(), "players": result.seats,
        "placement": result.placement, "won": result.won, "rated": result.rated,
        "weight": result.weight, "rating": result.rating,
        "rating_change": (result.rating - result.rating_before)
        if result.rating is not None and result.rating_before is not None else None,
        "replay": reverse("game", args=[result.game_id]) + "?at=1",
        "record": reverse("api-record", args=[result.game_id]),
    }


def page_charts(data: dict) -> dict:
    """The player page's two small charts: rating history and luck per game."""
    ratings = [point["rating"] for point in data["history"]]
    if ratings and data["history_complete"]:
        ratings.insert(0, BASE)
    return {"rating_chart": charts.line(ratings),
            "luck_chart": charts.bars([g["net"] for g in data["luck"]["per_game"][-40:]])}


class BadQuery(ValueError):
    """A leaderboard query the caller got wrong: the text says how."""


def check_leaderboard_query(params) -> tuple[int, int]:
    """(pool, page) from ?players=2..6 and ?page=1.., or BadQuery."""
    players, page = params.get("players", ""), params.get("page", "1")
    pool = ALL_SIZES if players in ("", None) else whole_number(players, 2, 6)
    if pool is None:
        raise BadQuery("players must be a game size from 2 to 6")
    page = whole_number(page, 1, 10**9)
    if page is None:
        raise BadQuery("page must be a whole number from 1")
    return pool, page


def public_records(user_ids, pool: int) -> dict[int, dict]:
    """{user id: {games, wins, placements}} of their rated public games in `pool`: the
    Rating rows' counts without private games."""
    rows = PlayerResult.objects.filter(user_id__in=user_ids, rated=True, private=False)
    if pool != ALL_SIZES:
        rows = rows.filter(seats=pool)
    return {row.pop("user_id"): row for row in rows.values("user_id").annotate(
        games=Count("id"), wins=Count("id", filter=Q(won=True)), placements=Sum("placement"))}


def leaderboard(pool: int, page: int, bots: bool = False) -> dict:
    """One page of the best ratings in a pool, of players with enough rated games: people's,
    or (`bots`) bot accounts', each board without the others (as lichess keeps its BOT
    ratings apart). The ratings and who is listed count private games; the games, wins and
    average placement shown count public games only."""
    needed = min_games()
    board = (Rating.objects.filter(pool=pool, games__gte=needed)
             .select_related("user").order_by("-rating", "user_id"))
    accounts = bot_account_ids()
    board = (board.filter(user_id__in=accounts) if bots
             else board.exclude(user_id__in=accounts))
    count = board.count()
    pages = max(1, -(-count // PAGE_SIZE))
    start = (page - 1) * PAGE_SIZE
    rows = list(board[start:start + PAGE_SIZE])
    owned_by = owners([r.user_id for r in rows]) if bots else {}
    nothing = {"games": 0, "wins": 0, "placements": 0}
    public = public_records([r.user_id for r in rows], pool)
    return {
        "bots": bots,
        "players": pool or None, "min_games": needed, "count": count, "page": page,
        "pages": pages, "next": page + 1 if page < pages else None,
        "previous": page - 1 if page > 1 else None,
        "results": [
            {"rank": start + i + 1, "username": r.user.username, "rating": r.rating,
             "uncertainty": uncertainty(r.sigma),
             **_record_columns(public.get(r.user_id, nothing)),
             "url": reverse("player", args=[r.user.username]),
             **({"owner": owned_by.get(r.user_id)} if bots else {})}
            for i, r in enumerate(rows)
        ],
    }


def _record_columns(record: dict) -> dict:
    games = record["games"]
    return {"games": games, "wins": record["wins"],
            "average_placement": round(record["placements"] / games, 2) if games else None}

