"""The lists of games the lobby and the home page show a player: their own games (every one
not over, the newest of the rest) and the games under way to watch, each row with what
the page says of it."""

from __future__ import annotations

from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from engine.moves import seats_to_act
from games.models import Game, Seat
from games.store.row import team_of
from games.store.states import load_state
from words.vocabulary import color_name, phase_name, seat_color


def names_of(game_ids) -> dict:
    """(game id, seat) -> username, for every seat of these games, in one query."""
    return {(game_id, seat): username for game_id, seat, username in
            Seat.objects.filter(game_id__in=game_ids)
            .values_list("game_id", "seat", "user__username")}


def _winning_seats(game: Game) -> list[int]:
    """The seats that won a finished game: every member of a winning team."""
    if game.status != Game.FINISHED or game.winner is None:
        return []
    team = team_of(game, game.winner)  # the one place the team rule is written
    if team is None:
        return [game.winner]
    return [s for s in range(game.players) if team_of(game, s) == team]


def _winner_words(game: Game, names: dict) -> str:
    return ", ".join(f"{color_name(seat_color(s))} ({names.get((game.pk, s), '')})"
                     for s in _winning_seats(game))


# The lobby lists a player's games in the order they need attention: their move first,
# then the others under way by deadline, then the ones still filling, then the finished.
_STATUS_ORDER = {Game.ACTIVE: 1, Game.PAUSED: 1, Game.OPEN: 2}


# Of a player's games the lobby lists every one not over (up to UNFINISHED_SHOWN) and the
# newest FINISHED_SHOWN of the others; their page lists all (a link says so).
UNFINISHED_SHOWN, FINISHED_SHOWN = 200, 10


def my_games(user, finished: int = FINISHED_SHOWN) -> list[dict]:
    """The player's games in the order they need them (_STATUS_ORDER), each a row."""
    if not user.is_authenticated:
        return []
    # Two lists from the player's seats, neither reading all of a player of 10,000 games:
    # those not over (the partial index game_unfinished), then the newest of the rest.
    mine = Seat.objects.filter(user=user).order_by("-game_id")
    seats = dict(mine.filter(game__status__in=Game.NOT_OVER)
                 .values_list("game_id", "seat")[:UNFINISHED_SHOWN])
    if finished:
        seats.update(mine.exclude(game__status__in=Game.NOT_OVER)
                     .values_list("game_id", "seat")[:finished])
    games = list(Game.objects.filter(pk__in=seats).annotate(seats_taken=Count("seats")))
    names = names_of([g.pk for g in games])
    rows = []
    for game in games:
        seat = seats[game.pk]
        current = game.current_seat
        if game.status == Game.ACTIVE and current is None:
            turn = _("everyone at once")
        elif game.status == Game.ACTIVE:
            turn = f"{color_name(seat_color(current))} ({names.get((game.pk, current), '')})"
        else:
            turn = ""
        rows.append({
            "game": game, "seat": seat, "color": seat_color(seat),
            "color_name": color_name(seat_color(seat)), "turn": turn,
            "your_turn": game.status == Game.ACTIVE and (
                current == seat or current is None and _owes_at_once(game, seat)),
            "phase": phase_name(game.phase) if game.status == Game.ACTIVE else "",
            "winner": _winner_words(game, names),
            "you_won": seat in _winning_seats(game),
            "open": game.players - game.seats_taken if game.status == Game.OPEN else 0,
        })
    far = timezone.now() + timezone.timedelta(days=36500)
    rows.sort(key=lambda row: (
        0 if row["your_turn"] else _STATUS_ORDER.get(row["game"].status, 3),
        row["game"].deadline or far if row["game"].status == Game.ACTIVE else far,
        -row["game"].pk))
    return rows


def _owes_at_once(game: Game, seat: int) -> bool:
    """Whether the seat still owes its part of a decision every seat makes at once (a
    simultaneous placement, capitals): read from the state, for those few games only."""
    return seat in seats_to_act(load_state(game))


# Games under way the lobby offers to watch: the newest.
RUNNING_SHOWN = 20


def running_games(user) -> list[dict]:
    """Games under way that the viewer does not play in: to watch (what spectators may see)."""
    games = Game.objects.filter(status__in=(Game.ACTIVE, Game.PAUSED),
                                private=False).order_by("-started_at", "-id")
    if user.is_authenticated:
        games = games.exclude(seats__user=user)
    games = list(games.only("pk", "name", "title", "status", "turn", "phase", "players",
                            "started_at")[:RUNNING_SHOWN])
    names = names_of([g.pk for g in games])
    # "Turn", as the game page and the contract's turn_started say it.
    return [{"game": game, "turn": game.turn, "phase": phase_name(game.phase),
             "players": ", ".join(names.get((game.pk, s), "") for s in range(game.players)
                                  if (game.pk, s) in names)}
            for game in games]
