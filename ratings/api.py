"""API views of players and the leaderboard: read-only, open to anyone."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response

from games.api.views import found
from games.models import Game
from games.store.row import rules_of
from lib.api.errors import Error, error
from lib.api.schema import refuses
from lib.api.views import ApiView, body
from ratings import analysis, standings, story_words, voids


class PlayerOut(serializers.Serializer):
    username = serializers.CharField()
    bot = serializers.BooleanField(help_text="A bot account: an account a program plays through the API")
    owner = serializers.CharField(allow_null=True, help_text="A bot account's owner")
    rating = serializers.IntegerField(
        allow_null=True, help_text="Counts every rated game, private ones included")
    uncertainty = serializers.IntegerField(allow_null=True)
    provisional = serializers.BooleanField(help_text=(
        "A newcomer's provisional rating (pages show it with \"?\"): fewer rated games than "
        "CONQUEST_RATING_ESTABLISHED_GAMES; it moves with every rated game, against other "
        "newcomers too, and never stands on the leaderboard"))
    games = serializers.IntegerField(
        help_text="Finished games the reader may know of: this and every statistic below "
                  "leaves out the private games the reader may not see")
    wins = serializers.IntegerField()
    average_placement = serializers.FloatField(allow_null=True)
    favourite_options = serializers.ListField(child=serializers.DictField())
    favourite_maps = serializers.ListField(
        child=serializers.DictField(), help_text="[{map, name, games}]: the maps of the most "
                                                 "finished games, named in the reader's language")
    history = serializers.ListField(
        child=serializers.DictField(),
        help_text=f"[{{game, finished_at, rating}}], oldest first: the newest "
                  f"{standings.HISTORY} rated games")
    history_complete = serializers.BooleanField(
        help_text="Whether history reaches back to the first rated game")
    luck = serializers.DictField(
        help_text=f"Totals, and per_game: the newest {standings.HISTORY} games with battles, "
                  f"oldest first (per_game_complete: whether they reach back to the first)")
    current = serializers.ListField(child=serializers.DictField())
    recent = serializers.ListField(
        child=serializers.DictField(),
        help_text=f"The newest {standings.RECENT} finished games (before the cursor `before`, "
                  f"if given), newest first")
    recent_next = serializers.CharField(
        allow_null=True, help_text="The cursor of the next (older) page of finished games, "
                                   "for ?before=; null on the last page")


class LeaderboardOut(serializers.Serializer):
    bots = serializers.BooleanField()
    players = serializers.IntegerField(allow_null=True)
    min_games = serializers.IntegerField()
    count = serializers.IntegerField()
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    next = serializers.IntegerField(allow_null=True)
    previous = serializers.IntegerField(allow_null=True)
    results = serializers.ListField(
        child=serializers.DictField(),
        help_text="games, wins and average_placement count rated public games only")


class PlayerView(ApiView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[
        OpenApiParameter("games", str, enum=list(standings.GAME_LISTS)),
        OpenApiParameter("before", str, description="recent_next of the page before: the "
                                                    "finished games older than those")],
                   responses={200: PlayerOut, 400: Error, 404: Error})
    @refuses({400: ["bad_filter"]})
    def get(self, request, username):
        """A player's rating, games, wins and recent games."""
        user = standings.find_player(username)
        if user is None:
            return error(404, "not_found", "no player of that name")
        try:
            games = standings.check_games_query(request.query_params.get("games"))
            before = standings.check_cursor(request.query_params.get("before"))
        except standings.BadQuery as problem:
            return error(400, "bad_filter", str(problem))
        return Response(standings.profile(user, request.user, games, before))


class LeaderboardView(ApiView):
    """The best ratings of people, paginated."""

    permission_classes = [permissions.AllowAny]
    bots = False  # people's board; bot accounts have their own

    @extend_schema(parameters=[OpenApiParameter("players", int, description="game size 2-6"),
                               OpenApiParameter("page", int)],
                   responses={200: LeaderboardOut, 400: Error})
    @refuses({404: ["not_found"]})  # a page past the last
    def get(self, request):
        try:
            pool, page = standings.check_leaderboard_query(request.query_params)
        except standings.BadQuery as problem:
            return error(400, "bad_request", str(problem))
        board = standings.leaderboard(pool, page, self.bots)
        if page > board["pages"]:
            return error(404, "not_found", f"there are {board['pages']} page(s)")
        return Response(board)


class BotLeaderboardView(LeaderboardView):
    """The bot accounts' leaderboard: bot accounts are rated as anyone, but listed here
    only, apart from people's (`GET /api/v1/leaderboard/`)."""
    bots = True


class VoidIn(serializers.Serializer):
    reason = serializers.CharField(max_length=voids.MAX_REASON)


class VoidOut(serializers.Serializer):
    game = serializers.IntegerField()
    voided_by = serializers.CharField()
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()


class VoidRatingView(ApiView):
    """A moderator voids a finished game's rating (not in a game they played in)."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=VoidIn, responses={200: VoidOut, 400: Error, 401: Error,
                                              403: Error, 404: Error})
    @refuses({400: ["game_not_finished", "already_voided"],
              403: ["not_moderator", "own_game"]})
    def post(self, request, game_id):
        voided = voids.void_rating(found(request, game_id).game, request.user,
                                   body(request).get("reason"))
        return Response({"game": voided.game_id, "voided_by": request.user.get_username(),
                         "reason": voided.reason, "created_at": voided.created_at.isoformat()})


class AnalysisOut(serializers.Serializer):
    game = serializers.IntegerField()
    status = serializers.ChoiceField(
        ["done", "pending", "in_play", "aborted"],
        help_text="done: the win chance is computed; pending (202): the game is over and "
                  "a worker computes it within minutes; in_play: a game without fog of war "
                  "still being played (its charts so far); aborted: no result to estimate")
    seats = serializers.IntegerField()
    teams = serializers.IntegerField()
    sides = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()),
                                  help_text="The seats of each side (a team, or one seat)")
    names = serializers.DictField(child=serializers.CharField(), help_text="seat -> username")
    turns = serializers.ListField(child=serializers.DictField(), help_text=(
        "The board after 0, 1, 2, ... turns: {turn, seat (whose turn it was; null for the "
        "start), territories, armies, income (each a number per seat; income: the "
        "reinforcements of the seat's latest turn, cards included, null before its first), "
        "chances (each side's estimated chance of winning, 0 to 1, once done; the last is "
        "the result)}"))
    playouts = serializers.IntegerField(allow_null=True,
                                        help_text="Play-outs of each turn's position")
    margin = serializers.FloatField(allow_null=True, help_text=(
        "The estimate's 95 % margin, in points, at its widest: 1.96 standard errors of a "
        "chance of one half over that many play-outs"))
    turning_points = serializers.ListField(child=serializers.DictField(), help_text=(
        "The three turns that moved the chances most: {turn, index (in turns), seat, side, "
        "before, after (that side's chance in `turns` at index - 1 and at index, as the "
        "chart and its table show them), swing, kind "
        "(eliminated, left, continent, broke, took, quiet) and its facts, lost (armies the "
        "turn's player lost attacking), luck (the turn's "
        "player's dice luck in armies), text (in the request's language)}"))


class AnalysisView(ApiView):
    """A game's story: each seat's territories, armies and income per turn and, once a
    finished game is analysed, each side's chance of winning after every turn."""
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: AnalysisOut, 202: AnalysisOut, 404: Error, 409: Error})
    @refuses({409: ["game_not_finished"]})
    def get(self, request, game_id):
        """A game's charts and win chance: a finished game's (202 while a worker computes
        it), or one played without fog of war as it goes; 409 `game_not_finished` for a
        game under fog of war before its end (nothing of it is shown) or not started."""
        game, seats, _ = found(request, game_id)
        if game.status == Game.OPEN or (rules_of(game).fog and not game.is_over):
            return error(409, "game_not_finished", "the analysis of a game under fog of war "
                         "is shown once it is over" if game.status != Game.OPEN
                         else "the game has not started")
        names = seats.usernames()
        code, body = analysis.report(game, names, lambda point, story:
                                     story_words.turning_point_text(point, story, names))
        return Response(body, status=code)
