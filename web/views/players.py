"""The player pages, the leaderboard page, and the moderators' form that voids a game's
rating (shown on the moderation page of a finished game)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import visibility
from games.errors import ServiceError
from games.models import Game
from ratings import standings, voids
from web.forms.game_lists import PlayerGamesForm
from web.forms.invitations import ChallengeForm
from words.rules import RULE_CHOICES, RULE_LABELS
from words.vocabulary import STATUS_NAMES


def player_page(request, username):
    user = standings.find_player(username)
    if user is None:
        raise Http404(_("No player of that name."))
    shown = PlayerGamesForm(request.GET, auto_id="show-%s")
    problem = None
    try:
        games = standings.check_games_query(request.GET.get("games"))
    except standings.BadQuery:
        games, problem = "", _("There is no such list of games: showing them all.")
    try:
        before = standings.check_cursor(request.GET.get("before"))
    except standings.BadQuery:
        before, problem = None, _("There is no such page of games: showing the newest.")
    data = standings.profile(user, request.user, games, before)
    for favourite in data["favourite_options"]:
        favourite["label"] = RULE_LABELS.get(favourite["option"], favourite["option"])
        favourite["words"] = option_words(favourite["option"], favourite["value"])
    for game in data["current"]:
        game["status_name"] = STATUS_NAMES.get(game["status"], game["status"])
    viewer = request.user
    challenge = (ChallengeForm(auto_id="challenge-%s") if viewer.is_authenticated
                 and viewer.pk != user.pk and user.is_active else None)
    return render(request, "ratings/player.html", {
        "player": data, **standings.page_charts(data), "shown": shown, "games_shown": games,
        "games_problem": problem, "challenge": challenge}, status=400 if problem else 200)


def option_words(option: str, value) -> str:
    """A rule option's value in the reader's words ("all at once…", not "simultaneous")."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, str | int) and value in RULE_CHOICES.get(option, {}):
        return str(RULE_CHOICES[option][value])
    return str(value)


def leaderboard_page(request, bots=False):
    """People's leaderboard, or (`bots`) the bot accounts' one."""
    problem = None
    try:
        pool, page = standings.check_leaderboard_query(request.GET)
    except standings.BadQuery as bad:
        problem, pool, page = str(bad), 0, 1
    board = standings.leaderboard(pool, page, bots)
    if page > board["pages"]:
        problem = _("There is no such page.")
        board = standings.leaderboard(pool, 1, bots)
    return render(request, "ratings/leaderboard.html", {
        "board": board, "problem": problem, "sizes": range(2, 7), "pool": pool, "bots": bots,
    }, status=400 if problem else 200)


@require_POST
def void_rating(request, game_id):
    game = get_object_or_404(Game, pk=game_id)
    if not visibility.may_see(game, request.user):  # a private game: as a missing one
        raise Http404("No game matches the given query.")
    back = reverse("moderation-game", args=[game.pk])
    if not request.user.is_authenticated:
        return redirect_to_login(back)
    try:
        voids.void_rating(game, request.user, request.POST.get("reason", ""))
    except ServiceError as error:
        if error.code == "not_moderator":
            raise PermissionDenied from None
        messages.error(request, _("Nothing was done: %(why)s") % {"why": error.detail})
    else:
        messages.success(request, _("This game's rating is void: every rating was recomputed "
                                    "as if it had never counted."))
    return redirect(back)
