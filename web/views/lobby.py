"""The lobby's pages: home (the viewer's games, a game against the computer in one click),
the lobby (open games, the viewer's, the running ones, the create form) and the buttons on
an open game (join, add a computer player, start, leave, cancel). Thin: parse the form, call
lobby.open_games, render."""

from __future__ import annotations

import hashlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import throttles
from accounts.bots import is_bot_account
from accounts.models import preferences_for
from engine.errors import RuleViolation
from engine.maps import DEFAULT_MAP, UnknownMap
from games import computer, visibility
from games.boards import board_for_new_game
from games.errors import ServiceError
from games.models import Game, Seat
from lib.inputs import whole_number
from lobby import filters as games_filters
from lobby import invitations, seeds
from lobby import open_games as games_lobby
from words import titles
from words.vocabulary import (
    BOT_LEVELS,
    level_name,
)

from ..forms.game_lists import GameFilterForm
from ..forms.game_settings import ASYNC_SETUP, PRESETS, preset_fields, rule_defaults
from ..forms.lobby import CreateGameForm, created_too_many, played_by
from ..page.game_lists import my_games, running_games
from ..page.map_page import map_options
from ..page.rules_panel import open_game_words
from ..page.seat_forms import team_choices
from .invitations import visible_game
from .refusals import people_only, refusal_text


def _computer_choices(maps: list[dict] | None = None) -> dict:
    """What the "play against the computer" form offers (templates/games/_computer_form),
    of `maps` (map_options(), read here if not given)."""
    return {"opponent_counts": range(1, 6),
            "bot_levels": [(level, level_name(level)) for level in BOT_LEVELS],
            "computer_maps": [(m["id"], m["name"]) for m in maps or map_options()]}


def home(request):
    mine = [row for row in my_games(request.user, finished=0)
            if row["game"].status == Game.ACTIVE]
    return render(request, "home.html", {
        "games": mine, "your_moves": sum(row["your_turn"] for row in mine),
        **_computer_choices()})


# Open games a page of the lobby lists, newest first; "More open games" shows the next
# ones (?before= the last one's id: keyset paging, as fast on the tenth page as the first).
OPEN_GAMES_SHOWN = 25


def _lobby(request, form, status=200):
    # The open games, filtered as the query asks (a bookmarkable link; a bad value is
    # said and filters nothing). Private games are listed to nobody here.
    filters = GameFilterForm(request.GET, auto_id="filter-%s")
    open_games = Game.objects.filter(status=Game.OPEN, private=False)
    if filters.is_valid():
        open_games = open_games.filter(games_filters.where(filters.chosen()))
    elif status == 200:
        status = 400
    raw_before = request.GET.get("before")
    before = whole_number(raw_before, 1, 2**63 - 1) if raw_before not in (None, "") else None
    no_such_page = raw_before not in (None, "") and before is None
    if no_such_page and status == 200:
        status = 400
    if before is not None:
        open_games = open_games.filter(pk__lt=before)
    listed = list(open_games.annotate(seats_taken=Count("seats"))
                  .select_related("creator").order_by("-id")[:OPEN_GAMES_SHOWN + 1])
    more = len(listed) > OPEN_GAMES_SHOWN
    listed = listed[:OPEN_GAMES_SHOWN]
    open_games = [g for g in listed if g.seats_taken < g.players]
    query = request.GET.copy()
    query.pop("before", None)
    # Who sits where in the games listed, the viewer among them, in one query.
    seated = list(Seat.objects.filter(game_id__in=[g.pk for g in open_games]).order_by()
                  .values_list("game_id", "seat", "user_id", "user__username"))
    names = {(game_id, seat): username for game_id, seat, _user, username in seated}
    mine = {game_id for game_id, _seat, user_id, _name in seated if user_id == request.user.pk}
    rows = [{"game": g, "mine": g.pk in mine, "rules": open_game_words(g),
             "open": g.players - g.seats_taken,
             "teams": team_choices(g, {seat: name for (game_id, seat), name in names.items()
                                       if game_id == g.pk})}
            for g in open_games]
    mine = my_games(request.user)
    maps, defaults = map_options(), rule_defaults()
    return render(request, "games/lobby.html", {
        "open_games": rows, "my_games": mine, "form": form, "filters": filters,
        "filtered": filters.is_valid() and bool(filters.chosen()),
        "no_such_page": no_such_page,
        "more_open": f"?{_with(query, before=listed[-1].pk)}" if more else None,
        "newest_open": f"?{query.urlencode()}" if before is not None else None,
        "invitations": invitations.pending_for(request.user),
        "running_games": running_games(request.user),
        "your_moves": sum(row["your_turn"] for row in mine),
        "presets": PRESETS, "maps": maps,
        "preset_rules": {k: preset_fields(p["rules"]) for k, p in PRESETS.items()},
        "preset_players": {k: p.get("players") for k, p in PRESETS.items()},
        # The seed the game created here will take, shown before the creator's entropy.
        "next_seed_hash": seeds.next_for(request.user).seed_hash if form is not None
        and not is_bot_account(request.user) else None,
        "rule_defaults": defaults,
        "create_form_key": _create_form_key(form, maps),
        **_computer_choices(maps),
    }, status=status)


def _with(query, **values) -> str:
    """The query string `query` (a QueryDict) with `values` set."""
    query = query.copy()
    for key, value in values.items():
        query[key] = str(value)
    return query.urlencode()


def _create_form_key(form, maps: list[dict]) -> str | None:
    """What the create form's fields (templates/games/_create_fields.html) are made of while
    it is unsent, besides the code (the presets, the rules' defaults: a process starts with
    the fragments empty): the language, its initial values (the viewer's time zone, a
    chosen map) and the maps offered. Two viewers alike in these see the same HTML,
    which the lobby keeps rendered (the "fragments" cache of each process): the fields are
    most of the page's cost (60 of 110 ms among 100,000 running games). A sent form (its
    values and errors) is rendered afresh; so is the rest of the page."""
    if form is None or form.is_bound:
        return None
    made_of = repr((get_language(), sorted(form.initial.items()), maps))
    return hashlib.sha256(made_of.encode()).hexdigest()


def lobby(request):
    form = None
    if request.user.is_authenticated:
        # ?map=<id> (a map page's "Start a game on this map"): that map chosen.
        try:
            chosen = board_for_new_game(request.GET.get("map")).id
        except UnknownMap:
            chosen = DEFAULT_MAP
        form = CreateGameForm(initial={
            "clock_time_zone": preferences_for(request.user).time_zone, "map": chosen})
    return _lobby(request, form)


@login_required
@people_only
def create_game(request):
    if request.method != "POST":
        return redirect("lobby")
    form = CreateGameForm(request.POST)
    wait = throttles.refused(request, throttles.CREATE_GAME)
    if wait:
        form.is_valid()
        form.add_error(None, created_too_many(wait))
        return _lobby(request, form, status=429)
    if not form.is_valid():
        return _lobby(request, form, status=400)
    players, rules_raw = form.game_arguments()
    try:
        entropy = form.cleaned_data["entropy"]
        game = games_lobby.create_game(request.user, form.cleaned_data["name"], players,
                                    rules_raw, form.cleaned_data["deadline_seconds"],
                                    form.clock(), bots=form.bot_levels(),
                                    rated=form.rated_choice(), entropy=entropy,
                                    private=form.cleaned_data.get("private", False),
                                    map_id=form.cleaned_data["map"],
                                    bots_allowed=form.cleaned_data.get("bots_allowed", False))
    except (RuleViolation, ServiceError) as error:
        form.add_error(None, refusal_text(error))
        return _lobby(request, form, status=400)
    messages.success(request, _("Game created. Share its page; it starts when all seats "
                                "are taken, or when you start it.") + _entropy_kept(entropy))
    return redirect("game", game_id=game.pk)


def _game_action(request, game_id, act, done: str, leaves: bool = False):
    """A button on an open game (join, add a computer player, start, leave, cancel): `act`
    on the game through lobby.open_games, then back to its page saying `done` or why not (to
    the lobby once the player has left it or it is gone)."""
    game = visible_game(request, game_id).game
    try:
        act(game)
    except (ServiceError, RuleViolation) as error:
        messages.error(request, refusal_text(error))
        return redirect("game", game_id=game.pk)
    messages.success(request, done)
    return redirect("lobby") if leaves else redirect("game", game_id=game.pk)


def _entropy_kept(entropy: str | None) -> str:
    """The player's entropy, said back so it can be kept to check the game at the end."""
    if not entropy:
        return ""
    return " " + _("Your random characters for the dice, to keep: %(entropy)s") % {"entropy": entropy}


def _team(raw: str | None):
    """The team chosen on a join form (shown from 1, sent from 0): none for "any team", and
    what cannot be a team passes on as it is, for lobby.open_games to refuse in words."""
    if not raw:
        return None
    number = whole_number(raw)
    return raw if number is None else number


@require_POST
@login_required
@people_only
def join_game(request, game_id):
    entropy = request.POST.get("entropy") or None  # an empty field (no script) sends none
    team = _team(request.POST.get("team"))
    token = visibility.session_token(request.session, game_id)  # a followed invitation link
    return _game_action(request, game_id,
                        lambda game: games_lobby.join_game(game, request.user, entropy, team,
                                                           token),
                        _("You joined the game.") + _entropy_kept(entropy))


@require_POST
@login_required
@people_only
def arrange_seats(request, game_id):
    """The creator's seating form: one seat field per player (`seat-<username>`)."""
    moves = {}
    for key, raw in request.POST.items():
        if key.startswith("seat-"):
            number = whole_number(raw)
            moves[key.removeprefix("seat-")] = raw if number is None else number
    return _game_action(request, game_id,
                        lambda game: games_lobby.arrange_seats(game, request.user, moves),
                        _("The seats are arranged."))


@require_POST
@login_required
@people_only
def add_bot(request, game_id):
    """A computer player of the level chosen, or the bot account named (`account`)."""
    account = (request.POST.get("account") or "").strip() or None
    level = None if account else request.POST.get("level")
    return _game_action(request, game_id,
                        lambda game: games_lobby.add_bot(game, request.user, level, account),
                        _("A bot account took a seat.") if account
                        else _("A computer player took a seat."))


@require_POST
@login_required
@people_only
def play_the_computer(request):
    """One click from the home page or the lobby: a game of the viewer and computer
    players, started at once, with the lobby's fast setup (every starting army at once)."""
    back = "lobby" if request.POST.get("back") == "lobby" else "home"
    level = request.POST.get("level", "normal")
    opponents = whole_number(request.POST.get("opponents", "2"))
    try:
        board = board_for_new_game(request.POST.get("map") or DEFAULT_MAP)
    except UnknownMap:
        board = None
    if level not in BOT_LEVELS or opponents is None or not 1 <= opponents <= 5 or board is None:
        messages.error(request, _("Choose a level and one to five computer opponents."))
        return redirect(back)
    if not board.min_players <= opponents + 1 <= board.max_players:
        messages.error(request, played_by(board))
        return redirect(back)
    wait = throttles.refused(request, throttles.CREATE_GAME)
    if wait:
        messages.error(request, created_too_many(wait))
        return redirect(back)
    # Kept as data, shown in each reader's language (words.titles.game_title).
    title = titles.computer_game(request.user.get_username(), board, [level] * opponents,
                                 computer.games_against_the_computer(request.user) + 1)
    rules = {**ASYNC_SETUP, "deadline_seconds": 7 * 86400}
    game = games_lobby.create_game(request.user, titles.plain_name(title)[:100], opponents + 1,
                                   rules, bots=[level] * opponents, map_id=board.id, title=title)
    messages.success(request, _("Your game has started: the computer players move within "
                                "seconds of their turn."))
    return redirect("game", game_id=game.pk)


@require_POST
@login_required
@people_only
def start_game(request, game_id):
    return _game_action(request, game_id, lambda game: games_lobby.start_game(game, request.user),
                        _("The game has started."))


@require_POST
@login_required
@people_only
def leave_game(request, game_id):
    return _game_action(request, game_id, lambda game: games_lobby.leave_game(game, request.user),
                        _("You left the game."), leaves=True)


@require_POST
@login_required
@people_only
def cancel_game(request, game_id):
    return _game_action(request, game_id,
                        lambda game: games_lobby.cancel_game(game, request.user),
                        _("The game was cancelled."), leaves=True)
