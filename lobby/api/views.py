"""API views of the lobby: listing and creating games, joining, seating, leaving, starting
and cancelling them, and bot accounts. Thin: parse, call lobby, answer the game's view."""

from __future__ import annotations

from django.db.models import Count, Q
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response

from accounts import throttles
from games.api import serializers as s
from games.api.views import found, game_view_for
from games.models import Game
from games.store.seats import read_seats
from lib.api.errors import ERRORS, error
from lib.api.views import ApiView, ReadAnyoneWriteSignedIn, body
from lobby import bot_accounts, filters, open_games


class GamesView(ApiView):
    permission_classes = [ReadAnyoneWriteSignedIn]

    def get_throttles(self):
        return [t() for t in throttles.CREATE_GAME] if self.request.method == "POST" else []

    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=["open", "active", "paused", "finished", "aborted"]),
            OpenApiParameter("mine", int, enum=[0, 1]),
            *[OpenApiParameter(name, str, enum=list(values))
              for name, values in filters.FILTERS.items()],
        ],
        responses={200: s.GameListItem(many=True), **ERRORS},
    )
    def get(self, request):
        """Games to join or watch (at most 200): by status, your own (`mine=1`), and the
        lobby's filters."""
        games = Game.objects.annotate(seats_taken=Count("seats"))
        wanted = request.query_params.get("status")
        if wanted:
            if wanted not in dict(Game.STATUSES):
                return error(400, "bad_request", "status must be open, active, paused, "
                             "finished or aborted")
            games = games.filter(status=wanted)
        mine = request.query_params.get("mine", "0")
        if mine not in ("0", "1"):
            return error(400, "bad_request", "mine must be 0 or 1")
        if mine == "1":
            if not request.user.is_authenticated:
                return error(401, "not_authenticated", "sign in to list your games")
            games = games.filter(Q(seats__user=request.user)).distinct()
        else:  # a private game is listed only to its own players
            games = games.filter(private=False)
        games = games.filter(filters.where(filters.parse(request.query_params)))
        return Response([
            {"id": g.pk, "name": g.name, "map": g.map, "status": g.status, "players": g.players,
             "seats_taken": g.seats_taken, "current_seat": g.current_seat,
             "deadline": g.deadline.isoformat() if g.deadline else None,
             "private": g.private, "bots_allowed": g.bots_allowed}
            for g in games[:200]
        ])

    @extend_schema(request=s.GameIn, responses={201: s.GameView, **ERRORS})
    def post(self, request):
        """Create a game; you hold seat 0. Answers its view (201)."""
        data = body(request)
        players = data.get("players")
        game = open_games.create_game(
            request.user, data.get("name"), players, data.get("rules"),
            data.get("deadline_seconds"), data.get("clock"), data.get("bots"),
            data.get("rated"), data.get("entropy"), data.get("private", False),
            data.get("map"), data.get("bots_allowed", False), speed=data.get("speed", False),
        )
        return Response(game_view_for(game, read_seats(game), request.user),
                        status=status.HTTP_201_CREATED)


class JoinView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=s.JoinIn, responses={200: s.GameView, **ERRORS})
    def post(self, request, game_id):
        """Take a free seat of an open game (of a team with `team`); it starts when full."""
        data = body(request)
        token = data.get("token")
        if token is not None and not isinstance(token, str):
            return error(400, "bad_request", "token must be the invitation link's token")
        game = open_games.join_game(found(request, game_id, token).game, request.user,
                               data.get("entropy"), data.get("team"), token)
        return Response(game_view_for(game, read_seats(game), request.user))


class SeatsView(ApiView):
    """The creator of an open game moves seated players to other seats (and teams)."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=s.SeatsIn, responses={200: s.GameView, **ERRORS})
    def post(self, request, game_id):
        game = open_games.arrange_seats(found(request, game_id).game, request.user,
                                   body(request).get("seats"))
        return Response(game_view_for(game, read_seats(game), request.user))


class BotsView(ApiView):
    """The creator of an open game seats a computer player (`level`: easy, normal or hard)
    or a bot account they own (`account`: its username); another owner's bot account is
    refused, 403 `not_your_bot`, and nothing is seated."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=s.BotIn, responses={200: s.GameView, **ERRORS})
    def post(self, request, game_id):
        data = body(request)
        game = open_games.add_bot(found(request, game_id).game, request.user, data.get("level"),
                             data.get("account"))
        return Response(game_view_for(game, read_seats(game), request.user))


class BotAccountView(ApiView):
    """POST turns the caller's account, before it has taken any seat, into a bot account
    for good: a program plays it through the API, shown everywhere as a bot with its owner
    (the account itself, or another that proves it runs it with `owner` and one of its API
    tokens as `owner_token`), seated only where that owner allows. GET says whether the
    caller's account is one (404 `not_a_bot_account` if not)."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: s.BotAccountOut, **ERRORS})
    def get(self, request):
        made = bot_accounts.of(request.user)
        if made is None:
            return error(404, "not_a_bot_account", "this account is not a bot account")
        return Response(bot_accounts.as_dict(made))

    @extend_schema(request=s.BotAccountIn, responses={200: s.BotAccountOut, **ERRORS})
    def post(self, request):
        data = request.data
        # Irreversible: a body that is not what this call takes (another account's name, as
        # if it made a new one) is refused rather than read as "no owner".
        if not isinstance(data, dict) or set(data) - {"owner", "owner_token"}:
            return error(400, "bad_request", "send nothing, or {owner, owner_token}: this "
                         "turns the account of the token sent into a bot account")
        made = bot_accounts.convert(request.user, data.get("owner"), data.get("owner_token"))
        return Response(bot_accounts.as_dict(made))


class LeaveView(ApiView):
    """A seated player (not the creator) leaves a game that has not started."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: s.GameView, **ERRORS})
    def post(self, request, game_id):
        game = open_games.leave_game(found(request, game_id).game, request.user)
        return Response(game_view_for(game, read_seats(game), request.user))


class CancelView(ApiView):
    """The creator cancels a game that has not started (it ends as aborted)."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: s.GameView, **ERRORS})
    def post(self, request, game_id):
        game = open_games.cancel_game(found(request, game_id).game, request.user)
        return Response(game_view_for(game, read_seats(game), request.user))


class StartView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: s.GameView, **ERRORS})
    def post(self, request, game_id):
        """The creator starts an open game with the players seated (two or more)."""
        game = open_games.start_game(found(request, game_id).game, request.user)
        return Response(game_view_for(game, read_seats(game), request.user))
