"""API views of a game: its view, commands, events and record, and the maps; parse the
request, call games.service, answer with what the caller may see (the lobby's are lobby.api's)."""

from __future__ import annotations

from django.http import Http404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response

from accounts import throttles
from games import boards, seat_views, service, visibility
from games.api import auth
from games.api import serializers as s
from games.boards import UnknownMap, maps_for_new_games
from games.models import Game
from games.store.row import Loaded, load_game
from games.store.seats import Seats
from games.store.states import load_state
from lib.api.errors import ERRORS, error
from lib.api.views import ApiView, ReadAnyoneWriteSignedIn
from lib.inputs import WHOLE_NUMBER


def found(request, game_id: int, token=None) -> Loaded:
    """The game with its seats, or a 404 (as get_object_or_404, in one plain query, or
    none if the token's lookup read it). A private game the caller may not know of
    (games.visibility; `token`: its invitation link's) answers the same 404 as a game that
    does not exist."""
    read, loaded = auth.read_with_token(request, game_id)
    if not read:
        loaded = load_game(game_id)
    if loaded is None or not visibility.may_see(loaded.game, request.user, token,
                                                seats=loaded.seats):
        raise Http404("No game matches the given query.")
    return loaded


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
            board = boards.board_of_map(map_id)
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
            board = boards.board_of_version(map_id, map_hash)
        except UnknownMap:
            raise Http404("No version of this map has that hash.") from None
        return Response(board.data)


def game_view_for(game: Game, seats: Seats, user, at=None):
    """The game (seated as `seats`) as `user` may see it, as of version `at` if given."""
    seat = seats.seat_of(user)
    state = load_state(game, at) if game.status != Game.OPEN else None
    view = seat_views.game_view(game, seats, state, seat)
    view["private"] = game.private
    if game.private and user is not None and user.is_authenticated \
            and game.creator_id == user.pk:
        view["invitation_token"] = visibility.link_token(game)  # the creator's to share
    return view


class GameView(ApiView):
    permission_classes = [ReadAnyoneWriteSignedIn]

    @extend_schema(parameters=[OpenApiParameter("at", int)],
                   responses={200: s.GameView, **ERRORS})
    def get(self, request, game_id):
        """The game as you may see it (your seat's view, or a spectator's); `?at=N` as it
        was at version N."""
        game, seats, _ = found(request, game_id)
        at = request.query_params.get("at")
        if at is not None:
            if not WHOLE_NUMBER.fullmatch(at) or not 1 <= int(at) <= game.version:
                return error(400, "bad_request", f"at must be a version from 1 to {game.version}")
            at = int(at)
        return Response(game_view_for(game, seats, request.user, at))


class CommandsView(throttles.CountedTogether, ApiView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = throttles.COMMAND

    # The body's schema (one per command type) is games.api.schema's.
    @extend_schema(request=None, responses={201: s.CommandOut, **ERRORS})
    def post(self, request, game_id):
        """Send a command for your seat (its `type` says which; `you.may` in the game view
        lists those you may send now). Answers what it appended and your new view; a
        refused command appends nothing. Commands are limited per account and per address
        (429 throttled with Retry-After)."""
        loaded = found(request, game_id)
        payload = request.data if isinstance(request.data, dict) else None
        expected = payload.get("expected_version") if payload else None
        done = service.submit(service.player(request.user), loaded, payload, expected)
        return Response({
            "version": done.state.version,
            # As GET .../events/ shows them (with their times), redacted for the sender.
            "events": done.event_dicts(),
            "game": seat_views.game_view(done.game, done.seats, done.state, done.seat),
        }, status=status.HTTP_201_CREATED)


class EventsView(ApiView):
    permission_classes = [ReadAnyoneWriteSignedIn]

    @extend_schema(parameters=[OpenApiParameter("after", int)],
                   responses={200: s.EventsOut, **ERRORS})
    def get(self, request, game_id):
        """The game's events after version `after` (default 0), as you may see them."""
        game, seats, _ = found(request, game_id)
        after = request.query_params.get("after", "0")
        if not WHOLE_NUMBER.fullmatch(after):
            return error(400, "bad_request", "after must be a whole number (at most 18 digits)")
        seat = seats.seat_of(request.user)
        # Bounded by the version read, so `version` is the last seq even if a move lands now.
        return Response({"version": game.version,
                         "events": seat_views.event_dicts(game, seat, int(after), game.version)})


class RecordView(ApiView):
    permission_classes = [ReadAnyoneWriteSignedIn]

    @extend_schema(responses={200: s.RecordOut, **ERRORS})
    def get(self, request, game_id):
        """The game's record: seats, rules, the seed's hash and every event; the seed and
        what was hidden once the game is over, to check every roll."""
        game, seats, _ = found(request, game_id)
        return Response(seat_views.record(game, seats, seats.seat_of(request.user)))
