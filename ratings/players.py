"""A player's record and the leaderboard, as the API and the pages show them.

Only public facts: finished games (whose logs are open to all once over) and, of running
games, what the lobby lists anyway (name, status, size). Nothing is read from a running
game's state, so fog of war and hidden cards cannot leak through here.

A private game gives a reader who may not know of it (games.visibility.visible) its
rating change alone: the rating (and its count of rated games) is the whole rating, while
every other statistic (games, wins, placements, favourites, rating history, luck) and the
leaderboards' columns count the games that reader may know of, public ones on the boards.
"""

from __future__ import annotations

from collections import Counter

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Count, Q, Sum
from django.urls import reverse

from accounts.bots import bot_account_ids, owners
from engine.options import Rules
from games.boards import UnknownMap, board_of_map
from games.models import Game, Seat
from games.visibility import visible
from lib.inputs import whole_number
from ratings import charts
from ratings.models import ALL_SIZES, PlayerResult, Rating
from ratings.recording import BASE, uncertainty
from words.vocabulary import map_name

RECENT = 20
PAGE_SIZE = 50
# Options that describe a table, not a taste: left out of "favourite options".
NOT_A_CHOICE = {"deadline_seconds", "max_missed_turns", "fixed_values", "placement_batch"}


def min_games() -> int:
    """Rated games a player needs to appear on the leaderboard."""
    return getattr(settings, "CONQUEST_LEADERBOARD_MIN_GAMES", 5)


def find_player(username: str):
    """The account of that name (any case), or None."""
    # (PostgreSQL refuses a NUL in a query: no name holds a control character anyway)
    if not isinstance(username, str) or not 0 < len(username) <= 150 \
            or not username.isprintable():
        return None
    return get_user_model().objects.filter(username__iexact=username).first()


def rating_of(rating: Rating | None) -> dict:
    if rating is None:
        return {"rating": None, "uncertainty": None, "mu": None, "sigma": None,
                "rated_games": 0}
    return {"rating": rating.rating, "uncertainty": uncertainty(rating.sigma),
            "mu": round(rating.mu, 3), "sigma": round(rating.sigma, 3),
            "rated_games": rating.games}


def favourite_options(rules_lists) -> list[dict]:
    """The options a player's games most often set away from their defaults."""
    defaults = Rules().to_dict()
    counted: Counter = Counter()
    values = {}
    for game_rules in rules_lists:
        for option, value in (game_rules or {}).items():
            if option in defaults and option not in NOT_A_CHOICE and value != defaults[option]:
                key = (option, repr(value))
                counted[key] += 1
                values[key] = value
    return [{"option": key[0], "value": values[key], "games": count}
            for key, count in counted.most_common(3)]


def favourite_maps(map_ids) -> list[dict]:
    """The maps a player's games were most often played on (the three first), each named in
    the reader's language; a map no longer kept by its id."""
    counted = Counter(map_ids)
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


def _listed(result: PlayerResult, listing: str) -> bool:
    if listing == "current":
        return False
    if listing in ("won", "lost"):
        return result.won == (listing == "won")
    return True


def _hidden(game_ids, viewer) -> set[int]:
    """The private games among `game_ids` that `viewer` may not know of."""
    return set(Game.objects.filter(pk__in=set(game_ids), private=True)
               .exclude(visible(viewer)).values_list("pk", flat=True))


def profile(user, viewer=None, listing: str = "") -> dict:
    """Everything the player page and GET /api/v1/players/{username}/ show to `viewer`: a
    private game they may not know of counts in the rating and nowhere else (the module's
    docstring). `listing` (check_games_query) narrows the lists of games."""
    results = list(PlayerResult.objects.filter(user=user).select_related("game")
                   .order_by("finished_at", "game_id"))
    hidden = _hidden([r.game_id for r in results], viewer)
    results = [r for r in results if r.game_id not in hidden]
    overall = Rating.objects.filter(user=user, pool=ALL_SIZES).first()
    by_size = {r.pool: r for r in Rating.objects.filter(user=user).exclude(pool=ALL_SIZES)}
    games, wins = len(results), sum(r.won for r in results)
    rated = [r for r in results if r.rated and r.rating is not None]
    history = [{"game": r.game_id, "finished_at": r.finished_at.isoformat(),
                "rating": r.rating} for r in rated]
    luck = {
        "battles": sum(r.battles for r in results),
        "lost": sum(r.lost for r in results),
        "expected_lost": round(sum(r.expected_lost for r in results), 1),
        "taken": sum(r.taken for r in results),
        "expected_taken": round(sum(r.expected_taken for r in results), 1),
    }
    luck["net"] = round((luck["expected_lost"] - luck["lost"])
                        + (luck["taken"] - luck["expected_taken"]), 1)
    luck["per_game"] = [
        {"game": r.game_id, "net": round((r.expected_lost - r.lost)
                                         + (r.taken - r.expected_taken), 1)}
        for r in results if r.battles
    ]
    current = (Game.objects.filter(
        pk__in=Seat.objects.filter(user=user).values("game_id"),
        status__in=(Game.OPEN, Game.ACTIVE, Game.PAUSED)).filter(visible(viewer))
        .order_by("-id")[:50])
    listed = [r for r in results if _listed(r, listing)]
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
        "wins": wins,
        "average_placement": round(sum(r.placement for r in results) / games, 2)
        if games else None,
        "favourite_options": favourite_options([r.game.rules for r in results]),
        "favourite_maps": favourite_maps([r.game.map for r in results]),
        "history": history,
        "luck": luck,
        "current": [{"id": g.pk, "name": g.name, "status": g.status, "players": g.players,
                     "url": reverse("game", args=[g.pk])} for g in current],
        "recent": [_finished(r) for r in reversed(listed[-RECENT:])],
    }


def _finished(result: PlayerResult) -> dict:
    return {
        "id": result.game_id, "name": result.game.name,
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
    ratings = [BASE] + [point["rating"] for point in data["history"]] if data["history"] \
        else []
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
    rows = PlayerResult.objects.filter(user_id__in=user_ids, rated=True, game__private=False)
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

