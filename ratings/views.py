"""The player pages and the leaderboard page."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _

from games.names import RULE_LABELS
from ratings import players


def player_page(request, username):
    user = players.find_player(username)
    if user is None:
        raise Http404(_("No player of that name."))
    data = players.profile(user)
    for favourite in data["favourite_options"]:
        favourite["label"] = RULE_LABELS.get(favourite["option"], favourite["option"])
    return render(request, "ratings/player.html", {
        "player": data, **players.page_charts(data)})


def leaderboard_page(request):
    problem = None
    try:
        pool, page = players.check_leaderboard_query(request.GET)
    except players.BadQuery as bad:
        problem, pool, page = str(bad), 0, 1
    board = players.leaderboard(pool, page)
    if page > board["pages"]:
        problem = _("There is no such page.")
        board = players.leaderboard(pool, 1)
    return render(request, "ratings/leaderboard.html", {
        "board": board, "problem": problem, "sizes": range(2, 7), "pool": pool,
    }, status=400 if problem else 200)
