"""The game page: everything it shows, gathered from one game view by game_context. Its
parts live beside it: the players' table and your hand (players), the forms the viewer may
use now (decisions), the pause, a finished game's summary and proof (history) and the rules
in words (rules_panel); the board drawn is web/game_drawing.py, the log's lines web/game_log.py."""

from __future__ import annotations

from django.utils import timezone

from accounts.bots import is_bot_account
from accounts.bots import refusal as bot_refusal
from accounts.models import Preferences, neutral_placed_for
from games import seat_views, standing_orders
from games.boards import board_of_view
from games.models import Game
from games.store.seats import Seats
from games.store.states import load_state
from lobby import bot_accounts
from words.vocabulary import (
    BOT_LEVELS,
    STATUS_NAMES,
    color_name,
    level_name,
    mission_text,
    phase_name,
    seat_color,
    territory_name,
)

from .. import game_log
from ..game_drawing import board_context, neighbours_json
from .decisions import actions
from .finished import finished_parts
from .history import pause_reason, steps
from .log_page import entries as log_entries
from .log_page import log_context
from .players import card_rows, players_panel, waiting_for
from .result import result_context, result_stamp, still_changing
from .rules_panel import clock_in_words, map_in_words, rules_in_words
from .seat_forms import seat_choices, team_choices
from .story import story_context


def occupy_default_of(user) -> str:
    """The player's stated default for the "Move in" form (profile), "all" if none."""
    if not user.is_authenticated:
        return Preferences.OCCUPY_ALL
    chosen = Preferences.objects.filter(user=user).values_list("occupy_default", flat=True)
    return chosen.first() or Preferences.OCCUPY_ALL


def neutral_question_of(user) -> dict | None:
    """Whether the page asks this player, once, how the neutral's armies are to be placed,
    and whether, until they answer, they are placed for them (`automatic`)."""
    if not user.is_authenticated:
        return None
    if not standing_orders.neutral_question_open(
            Preferences.objects.filter(user=user).first()):
        return None
    return {"automatic": user.pk in neutral_placed_for([user.pk])}


def neutral_half_falls_to_players(view: dict) -> bool:
    """A two-player game with the neutral whose rule leaves its half to the player not
    moving: the game page offers the standing choice from its start."""
    rules = view.get("rules") or {}
    return bool(rules.get("neutral")) and rules.get("neutral_reinforcement") == "opponent" \
        and len(view.get("players") or []) == 2


def stamp(game: Game) -> str:
    """What the page's poll compares: moves, status and seats taken (joins change no
    version), and a finished game's ratings and rematch answers."""
    return f"{game.version}.{game.status}.{game.seats.count()}{result_stamp(game)}"


def deadline_context(game: Game) -> dict | None:
    if game.deadline is None or game.status != Game.ACTIVE:
        return None
    return {"at": game.deadline, "iso": game.deadline.isoformat(),
            "past": game.deadline <= timezone.now()}


def game_context(game: Game, seats: Seats, user, *, at: int | None = None,
                 selected: str | None = None, log_page: str | None = None,
                 posted=None) -> dict:
    """Everything the page shows of `game` (seated as `seats`) to `user` (`log_page`: the
    ?log= the address carries, the page of the log shown). What it reads of the log is
    bounded: a page or two of events (log_page), and a finished game's parts from what was
    kept of it (finished)."""
    seat = seats.seat_of(user)
    # A bot account reads its games here but plays only through the API: no forms.
    bot_account = is_bot_account(user)
    live = at is None or at >= game.version
    if live:
        at = None
    state = None if game.status == Game.OPEN else load_state(game, at)
    view = seat_views.game_view(game, seats, state, seat)
    board = board_of_view(view)
    if selected not in board.neighbours:
        selected = None
    you = view.get("you")
    last = 0 if state is None else state.version
    # The newest events the board shows: its last move and the roll just made.
    recent = log_entries(game, seat, board, last) if last else []
    log = log_context(game, seat, board, last, log_page, recent)
    seated_users = dict(game.seats.values_list("user_id", "seat"))
    finished = game.status == Game.FINISHED
    panel = players_panel(view, game)
    waiting = game.status == Game.OPEN
    names = seats.usernames()
    ended = finished_parts(game, seats, names)
    return {
        "game": game, "seats": seats, "view": view, "seat": seat, "you": you, "live": live,
        "at": at,
        "version": game.version, "shown_version": view["version"],
        "steps": steps(at, game.version),
        "stamp": stamp(game),
        "phase_name": phase_name(view.get("phase")),
        "status_name": STATUS_NAMES.get(game.status, game.status),
        "current_name": color_name(seat_color(view.get("current_seat")))
        if view.get("current_seat") is not None else "",
        "current_color": seat_color(view.get("current_seat")),
        "current_username": next((p["username"] for p in view["players"]
                                  if p["seat"] == view.get("current_seat")), ""),
        "board": {**board_context(view, seat if live else None, selected if live else None),
                  "last_move": game_log.last_move(recent)},
        "players": panel,
        "waiting_for": waiting_for(panel, seat) if live else "",
        "cards": card_rows(view) if you else [],
        "mission": mission_text((you.get("mission") or {}).get("effective")) if you else "",
        "mission_card": mission_text((you.get("mission") or {}).get("id")) if you else "",
        "capital_name": territory_name(you.get("capital"), board) if you else "",
        "actions": actions(view, seat, game, selected, posted,
                           occupy_default=occupy_default_of(user), names=names)
        if live and not bot_account else {},
        "neutral_question": live and not bot_account and seat is not None
        and game.status == Game.ACTIVE and neutral_half_falls_to_players(view)
        and neutral_question_of(user),
        "bot_account_note": bot_refusal() if bot_account else "",
        "deadline": deadline_context(game) if live else None,
        **log,
        "last_roll": game_log.last_battles(recent) if live and not finished else [],
        "rules_words": map_in_words(board) + rules_in_words(view["rules"], game.players)
        + clock_in_words(game),
        "next_set_value": view.get("next_set_value"),
        "can_join": game.status == Game.OPEN and user.is_authenticated and not bot_account
        and user.pk not in seated_users,
        "can_start": game.status == Game.OPEN and user.is_authenticated and not bot_account
        and game.creator_id == user.pk and len(seated_users) >= 2,
        "can_add_bot": game.status == Game.OPEN and user.is_authenticated and not bot_account
        and game.creator_id == user.pk and len(seated_users) < game.players,
        "can_leave": game.status == Game.OPEN and user.is_authenticated and not bot_account
        and game.creator_id != user.pk and user.pk in seated_users,
        "can_cancel": game.status == Game.OPEN and user.is_authenticated and not bot_account
        and game.creator_id == user.pk,
        "bot_levels": [(level, level_name(level)) for level in BOT_LEVELS],
        # Only the creator's own bot accounts: nobody else's is seated without its owner.
        "own_bot_accounts": bot_accounts.seatable_by(user) if game.status == Game.OPEN
        and user.is_authenticated and not bot_account and game.creator_id == user.pk else [],
        "team_choices": team_choices(game, names) if waiting else [],
        "seating": seat_choices(game, names) if waiting and user.is_authenticated
        and game.creator_id == user.pk and len(seated_users) >= 2 else None,
        "seats_taken": len(seated_users),
        "outcome": ended["outcome"] if ended else None,
        "seats_open": max(0, game.players - len(seated_users)),
        "proof": ended["proof"] if ended else None,
        "summary": ended["summary"] if ended else [],
        "story": story_context(game, at, names),
        "pause_reason": pause_reason(game) if game.status == Game.PAUSED else "",
        "playing": live and you is not None and game.status == Game.ACTIVE
        and not next((p for p in view["players"] if p["seat"] == seat and
                      (p["eliminated"] or p["dropped"])), None),
        "neighbours": neighbours_json(board),
        "result": result_context(game, view, ended["places"], seat, user, names)
        if ended and live else None,
        "polling": live and (game.status in Game.NOT_OVER
                             or still_changing(game)),
    }
