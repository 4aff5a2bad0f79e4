"""API views: parse the request, call games.services, answer with what the caller may see."""

from __future__ import annotations

from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth import authenticate, get_user_model, password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import email as addresses
from accounts import throttles, tokens
from games import computer, services
from games.api import auth
from games.api import serializers as s
from games.api.errors import error
from games.api.parsers import StrictJSONParser
from games.api.renderers import FastJSONRenderer
from games.inputs import WHOLE_NUMBER
from games.models import Game
from games.rules.board import BORDERS, CONTINENT_OF, CONTINENTS, TERRITORIES, territory_name
from games.store import fetch_game, load_state

ERRORS = {400: s.Error, 401: s.Error, 403: s.Error, 404: s.Error, 409: s.Error}


class JsonAnswers(DefaultContentNegotiation):
    """Every answer of the API is JSON (CONTRACT.md) whatever Accept says, so no renderer
    is chosen per request (DRF's IgnoreClientContentNegotiation); a body still goes to the
    parser its Content-Type names."""

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


class ApiView(APIView):
    """Every call of the API: bodies are JSON (anything else is a 400, see errors.handle),
    and so are answers (Swagger UI at /api/v1/docs/ is for people). A token's lookup reads
    the game the URL names with it (games.api.auth; found() takes it from there)."""

    parser_classes = [StrictJSONParser]
    renderer_classes = [FastJSONRenderer]
    content_negotiation_class = JsonAnswers


def body(request) -> dict:
    return request.data if isinstance(request.data, dict) else {}


def parsed(serializer_class, request):
    serializer = serializer_class(data=request.data if isinstance(request.data, dict) else {})
    if not serializer.is_valid():
        return None, error(400, "bad_request", _first_problem(serializer.errors))
    return serializer.validated_data, None


def _first_problem(errors) -> str:
    return "; ".join(f"{field}: {' '.join(str(m) for m in messages)}"
                     for field, messages in errors.items())


def found(request, game_id: int) -> Game:
    """The game, or a 404 (as get_object_or_404, in one plain query, or none if the
    token's lookup read it)."""
    read, game = auth.read_with_token(request, game_id)
    if not read:
        game = fetch_game(game_id)
    if game is None:
        raise Http404("No game matches the given query.")
    return game


class ReadAnyoneWriteSignedIn(permissions.BasePermission):
    def has_permission(self, request, view):
        return request.method in permissions.SAFE_METHODS or request.user.is_authenticated


class AccountsView(ApiView):
    permission_classes = [permissions.AllowAny]
    authentication_classes = []
    throttle_classes = throttles.SIGNUP

    @extend_schema(request=s.AccountIn, responses={201: s.AccountOut, **ERRORS})
    def post(self, request):
        data, refusal = parsed(s.AccountIn, request)
        if refusal:
            return refusal
        User = get_user_model()
        candidate = User(username=data["username"], email=data["email"])
        if data["username"].lower().startswith(computer.ACCOUNT_PREFIX):
            return error(400, "username_taken", "names starting with 'bot-' are kept for "
                         "computer players")
        try:
            User.username_validator(data["username"])
            # The same password rules as the sign-up page (length, common words, likeness).
            password_validation.validate_password(data["password"], candidate)
        except DjangoValidationError as problem:
            return error(400, "bad_request", " ".join(problem.messages))
        if User.objects.filter(email__iexact=data["email"]).exists():
            return error(400, "email_taken", "an account with that email address exists; "
                         "reset its password if it is yours")
        try:
            with transaction.atomic():
                if User.objects.filter(username__iexact=data["username"]).exists():
                    raise IntegrityError
                # The database's unique index on lower(username) settles a race.
                user = User.objects.create_user(data["username"], data["email"], data["password"])
                # Mail waits until the address is confirmed through the link mailed to it.
                addresses.start_unconfirmed(user)
        except IntegrityError:
            return error(400, "username_taken", "that username is taken")
        return Response({"id": user.pk, "username": user.username, "token": tokens.issue(user)},
                        status=status.HTTP_201_CREATED)


class TokenView(ApiView):
    """POST: a new token for a username and password (each call issues one; earlier ones
    keep working until revoked, a password change, or CONQUEST_API_TOKEN_IDLE_DAYS unused).
    DELETE: revoke the token the call is made with, or with `?all=1` every token of the
    account."""

    permission_classes = [permissions.AllowAny]

    def get_authenticators(self):
        # A POST signs in with a password: a stale token sent along must not refuse it.
        method = getattr(getattr(self, "request", None), "method", None)
        return [] if method == "POST" else super().get_authenticators()

    def get_throttles(self):
        return [t() for t in throttles.TOKEN] if self.request.method == "POST" else []

    @extend_schema(request=s.TokenIn, responses={200: s.TokenOut, **ERRORS, 429: s.Error})
    def post(self, request):
        data, refusal = parsed(s.TokenIn, request)
        if refusal:
            return refusal
        # django-axes counts failures per account and client address (settings.AXES_*).
        user = authenticate(request, username=data["username"], password=data["password"])
        if getattr(request, "axes_locked_out", False):
            return error(429, "too_many_attempts", "too many wrong passwords for this account "
                         "from your address: wait a few minutes, or reset the password")
        if user is None:
            return error(400, "bad_credentials", "wrong username or password")
        # As a sign-in through a form does: a success clears the failures counted so far.
        AxesProxyHandler.user_logged_in(type(self), request, user)
        return Response({"token": tokens.issue(user)})

    @extend_schema(parameters=[OpenApiParameter("all", int, description="1: every token")],
                   request=None, responses={204: None, **ERRORS})
    def delete(self, request):
        if not request.user.is_authenticated or not isinstance(request.auth, str):
            return error(401, "not_authenticated", "call this with the token to revoke")
        revoke_all = request.query_params.get("all", "0")
        if revoke_all not in ("0", "1"):
            return error(400, "bad_request", "all: 0 or 1")
        tokens.revoke(request.user, None if revoke_all == "1" else request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClassicMapView(ApiView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: s.MapOut})
    def get(self, request):
        return Response({
            "territories": [
                {"id": t, "name": territory_name(t), "continent": CONTINENT_OF[t]}
                for t in TERRITORIES
            ],
            "continents": [
                {"id": c, "name": territory_name(c), "bonus": bonus, "territories": list(ts)}
                for c, (bonus, ts) in CONTINENTS.items()
            ],
            "borders": [list(pair) for pair in BORDERS],
        })


def _game_view(game, user, at=None):
    seat = services.seat_of(game, user)
    state = load_state(game, at) if game.status != Game.OPEN else None
    return services.game_view(game, state, seat)


class GamesView(ApiView):
    permission_classes = [ReadAnyoneWriteSignedIn]

    def get_throttles(self):
        return [t() for t in throttles.CREATE_GAME] if self.request.method == "POST" else []

    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=["open", "active", "paused", "finished", "aborted"]),
            OpenApiParameter("mine", int, enum=[0, 1]),
        ],
        responses={200: s.GameListItem(many=True), **ERRORS},
    )
    def get(self, request):
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
        return Response([
            {"id": g.pk, "name": g.name, "status": g.status, "players": g.players,
             "seats_taken": g.seats_taken, "current_seat": g.current_seat,
             "deadline": g.deadline.isoformat() if g.deadline else None}
            for g in games[:200]
        ])

    @extend_schema(request=s.GameIn, responses={201: s.GameView, **ERRORS})
    def post(self, request):
        data = body(request)
        players = data.get("players")
        game = services.create_game(
            request.user, data.get("name"), players, data.get("rules"),
            data.get("deadline_seconds"), data.get("clock"), data.get("bots"),
            data.get("rated"), data.get("entropy"),
        )
        return Response(_game_view(game, request.user), status=status.HTTP_201_CREATED)


class GameView(ApiView):
    permission_classes = [ReadAnyoneWriteSignedIn]

    @extend_schema(parameters=[OpenApiParameter("at", int)],
                   responses={200: s.GameView, **ERRORS})
    def get(self, request, game_id):
        game = found(request, game_id)
        at = request.query_params.get("at")
        if at is not None:
            if not WHOLE_NUMBER.fullmatch(at) or not 1 <= int(at) <= game.version:
                return error(400, "bad_request", f"at must be a version from 1 to {game.version}")
            at = int(at)
        return Response(_game_view(game, request.user, at))


class JoinView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=s.JoinIn, responses={200: s.GameView, **ERRORS})
    def post(self, request, game_id):
        game = services.join_game(found(request, game_id), request.user,
                                  body(request).get("entropy"))
        return Response(_game_view(game, request.user))


class BotsView(ApiView):
    """The creator of an open game seats a computer player (CONTRACT.md)."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=s.BotIn, responses={200: s.GameView, **ERRORS})
    def post(self, request, game_id):
        game = services.add_bot(found(request, game_id), request.user, body(request).get("level"))
        return Response(_game_view(game, request.user))


class LeaveView(ApiView):
    """A seated player (not the creator) leaves a game that has not started."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: s.GameView, **ERRORS})
    def post(self, request, game_id):
        game = services.leave_game(found(request, game_id), request.user)
        return Response(_game_view(game, request.user))


class CancelView(ApiView):
    """The creator cancels a game that has not started (it ends as aborted)."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: s.GameView, **ERRORS})
    def post(self, request, game_id):
        game = services.cancel_game(found(request, game_id), request.user)
        return Response(_game_view(game, request.user))


class StartView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: s.GameView, **ERRORS})
    def post(self, request, game_id):
        game = services.start_game(found(request, game_id), request.user)
        return Response(_game_view(game, request.user))


class CommandsView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=s.CommandIn, responses={201: s.CommandOut, **ERRORS})
    def post(self, request, game_id):
        game = found(request, game_id)
        payload = request.data if isinstance(request.data, dict) else None
        expected = payload.get("expected_version") if payload else None
        done = services.submit(game, request.user, payload, expected)
        return Response({
            "version": done.state.version,
            # As GET .../events/ shows them (with their times), redacted for the sender.
            "events": done.event_dicts(),
            "game": services.game_view(done.game, done.state, done.seat),
        }, status=status.HTTP_201_CREATED)


class EventsView(ApiView):
    permission_classes = [ReadAnyoneWriteSignedIn]

    @extend_schema(parameters=[OpenApiParameter("after", int)],
                   responses={200: s.EventsOut, **ERRORS})
    def get(self, request, game_id):
        game = found(request, game_id)
        after = request.query_params.get("after", "0")
        if not WHOLE_NUMBER.fullmatch(after):
            return error(400, "bad_request", "after must be a whole number (at most 18 digits)")
        seat = services.seat_of(game, request.user)
        # Bounded by the version read, so `version` is the last seq even if a move lands now.
        return Response({"version": game.version,
                         "events": services.event_dicts(game, seat, int(after), game.version)})


class RecordView(ApiView):
    permission_classes = [ReadAnyoneWriteSignedIn]

    @extend_schema(responses={200: s.RecordOut, **ERRORS})
    def get(self, request, game_id):
        game = found(request, game_id)
        return Response(services.record(game, services.seat_of(game, request.user)))
