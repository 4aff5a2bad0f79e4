"""API views: parse the request, call games.write, answer with what the caller may see."""

from __future__ import annotations

from django.db.models import Count, Q
from django.http import Http404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response

from accounts import throttles
from games import bot_accounts, filters, invitations, lobby, reading, write
from games import maps as game_maps
from games.api import auth
from games.api import serializers as s
from games.maps import UnknownMap, maps_for_new_games
from games.models import Game
from games.store import fetch_game, load_state
from lib.api.errors import ERRORS, error
from lib.api.views import ApiView, ReadAnyoneWriteSignedIn, body
from lib.inputs import WHOLE_NUMBER


def found(request, game_id: int, token=None) -> Game:
    """The game, or a 404 (as get_object_or_404, in one plain query, or none if the
    token's lookup read it). A private game the caller may not know of (games.invitations;
    `token`: its invitation link's) answers the same 404 as a game that does not exist."""
    read, game = auth.read_with_token(request, game_id)
    if not read:
        game = fetch_game(game_id)
    if game is None or not invitations.may_see(game, request.user, token):
        raise Http404("No game matches the given query.")
    return game


class MapsView(ApiView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: s.MapSummary(many=True)})
    def get(self, request):
        """The maps a new game may be played on, with their sizes and table sizes."""
        return Response([{**board.summary(), "thumbnail": request.build_absolute_uri(
            reverse("map-thumbnail", args=[board.id]))} for board in maps_for_new_games()])


class MapView(ApiView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: s.MapOut, **ERRORS})
    def get(self, request, map_id: str):
        """A map: its territories, continents with their bonus, borders, card deck and
        starting armies per table size."""
        try:
            board = game_maps.board_of_map(map_id)
        except UnknownMap:
            raise Http404("No map matches the given id.") from None
        data = board.data
        return Response({
            **board.summary(),
            "territories": [dict(t) for t in data["territories"]],
            "continents": [dict(c) for c in data["continents"]],
            "borders": [list(pair) for pair in board.borders],
            "deck": [{"territory": t, "symbol": symbol} for t, symbol in board.cards],
            "starting_armies": {str(k): v for k, v in board.starting_armies.items()},
            "drawing": data.get("drawing"),
        })


class MapVersionView(ApiView):
    """One version of a map exactly as kept, the file whose content hash (SHA-256 of its
    canonical JSON: sorted keys, no spaces, UTF-8) is `map_hash`: the board a game played,
    as its record's `map_hash` names it, to check a record against the board it was
    played on."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **ERRORS})
    def get(self, request, map_id: str, map_hash: str):
        try:
            board = game_maps.board_of_version(map_id, map_hash)
        except UnknownMap:
            raise Http404("No version of this map has that hash.") from None
        return Response(board.data)


def game_view_for(game, user, at=None):
    seat = reading.seat_of(game, user)
    state = load_state(game, at) if game.status != Game.OPEN else None
    view = reading.game_view(game, state, seat)
    view["private"] = game.private
    if game.private and user is not None and user.is_authenticated \
            and game.creator_id == user.pk:
        view["invitation_token"] = invitations.link_token(game)  # the creator's to share
    return view


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
        game = lobby.create_game(
            request.user, data.get("name"), players, data.get("rules"),
            data.get("deadline_seconds"), data.get("clock"), data.get("bots"),
            data.get("rated"), data.get("entropy"), data.get("private", False),
            data.get("map"), data.get("bots_allowed", False), speed=data.get("speed", False),
        )
        return Response(game_view_for(game, request.user), status=status.HTTP_201_CREATED)


class GameView(ApiView):
    permission_classes = [ReadAnyoneWriteSignedIn]

    @extend_schema(parameters=[OpenApiParameter("at", int)],
                   responses={200: s.GameView, **ERRORS})
    def get(self, request, game_id):
        """The game as you may see it (your seat's view, or a spectator's); `?at=N` as it
        was at version N."""
        game = found(request, game_id)
        at = request.query_params.get("at")
        if at is not None:
            if not WHOLE_NUMBER.fullmatch(at) or not 1 <= int(at) <= game.version:
                return error(400, "bad_request", f"at must be a version from 1 to {game.version}")
            at = int(at)
        return Response(game_view_for(game, request.user, at))


class JoinView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=s.JoinIn, responses={200: s.GameView, **ERRORS})
    def post(self, request, game_id):
        """Take a free seat of an open game (of a team with `team`); it starts when full."""
        data = body(request)
        token = data.get("token")
        if token is not None and not isinstance(token, str):
            return error(400, "bad_request", "token must be the invitation link's token")
        game = lobby.join_game(found(request, game_id, token), request.user,
                               data.get("entropy"), data.get("team"), token)
        return Response(game_view_for(game, request.user))


class SeatsView(ApiView):
    """The creator of an open game moves seated players to other seats (and teams)."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=s.SeatsIn, responses={200: s.GameView, **ERRORS})
    def post(self, request, game_id):
        game = lobby.arrange_seats(found(request, game_id), request.user,
                                   body(request).get("seats"))
        return Response(game_view_for(game, request.user))


class BotsView(ApiView):
    """The creator of an open game seats a computer player (`level`: easy, normal or hard)
    or a bot account they own (`account`: its username); another owner's bot account is
    refused, 403 `not_your_bot`, and nothing is seated."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=s.BotIn, responses={200: s.GameView, **ERRORS})
    def post(self, request, game_id):
        data = body(request)
        game = lobby.add_bot(found(request, game_id), request.user, data.get("level"),
                             data.get("account"))
        return Response(game_view_for(game, request.user))


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
        game = lobby.leave_game(found(request, game_id), request.user)
        return Response(game_view_for(game, request.user))


class CancelView(ApiView):
    """The creator cancels a game that has not started (it ends as aborted)."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: s.GameView, **ERRORS})
    def post(self, request, game_id):
        game = lobby.cancel_game(found(request, game_id), request.user)
        return Response(game_view_for(game, request.user))


class StartView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: s.GameView, **ERRORS})
    def post(self, request, game_id):
        """The creator starts an open game with the players seated (two or more)."""
        game = lobby.start_game(found(request, game_id), request.user)
        return Response(game_view_for(game, request.user))


class CommandsView(ApiView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = throttles.COMMAND

    # The body's schema (one per command type) is games.api.schema's.
    @extend_schema(request=None, responses={201: s.CommandOut, **ERRORS})
    def post(self, request, game_id):
        """Send a command for your seat (its `type` says which; `you.may` in the game view
        lists those you may send now). Answers what it appended and your new view; a
        refused command appends nothing. Commands are limited per account and per address
        (429 throttled with Retry-After)."""
        game = found(request, game_id)
        payload = request.data if isinstance(request.data, dict) else None
        expected = payload.get("expected_version") if payload else None
        done = write.submit(write.player(request.user), game, payload, expected)
        return Response({
            "version": done.state.version,
            # As GET .../events/ shows them (with their times), redacted for the sender.
            "events": done.event_dicts(),
            "game": reading.game_view(done.game, done.state, done.seat),
        }, status=status.HTTP_201_CREATED)


class EventsView(ApiView):
    permission_classes = [ReadAnyoneWriteSignedIn]

    @extend_schema(parameters=[OpenApiParameter("after", int)],
                   responses={200: s.EventsOut, **ERRORS})
    def get(self, request, game_id):
        """The game's events after version `after` (default 0), as you may see them."""
        game = found(request, game_id)
        after = request.query_params.get("after", "0")
        if not WHOLE_NUMBER.fullmatch(after):
            return error(400, "bad_request", "after must be a whole number (at most 18 digits)")
        seat = reading.seat_of(game, request.user)
        # Bounded by the version read, so `version` is the last seq even if a move lands now.
        return Response({"version": game.version,
                         "events": reading.event_dicts(game, seat, int(after), game.version)})


class RecordView(ApiView):
    permission_classes = [ReadAnyoneWriteSignedIn]

    @extend_schema(responses={200: s.RecordOut, **ERRORS})
    def get(self, request, game_id):
        """The game's record: seats, rules, the seed's hash and every event; the seed and
        what was hidden once the game is over, to check every roll."""
        game = found(request, game_id)
        return Response(reading.record(game, reading.seat_of(game, request.user)))
