"""API views of tournaments: list, create, read, sign up, leave; moderators cancel,
replace and retry a held-up step. Every refusal is {"error", "detail"}."""

from __future__ import annotations

from django.db.models import Count
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response

from games.errors import ServiceError
from lib.api.errors import Error, error
from lib.api.schema import refuses
from lib.api.views import ApiView, ReadAnyoneWriteSignedIn, body
from tournaments import moderators, services
from tournaments.models import Tournament
from tournaments.views_data import detail, summary

ERRORS = {400: Error, 401: Error, 403: Error, 404: Error}


class TournamentIn(serializers.Serializer):
    name = serializers.CharField(max_length=60)
    format = serializers.ChoiceField(choices=["knockout", "round_robin"], required=False)
    seats = serializers.IntegerField(min_value=2, max_value=6, required=False)
    advance = serializers.IntegerField(min_value=1, max_value=5, required=False)
    rounds = serializers.IntegerField(min_value=1, max_value=20, required=False)
    rules = serializers.DictField(required=False)
    deadline_seconds = serializers.IntegerField(min_value=10, required=False)
    signup_opens = serializers.DateTimeField(required=False)
    signup_closes = serializers.DateTimeField(required=False)
    max_players = serializers.IntegerField(min_value=2, max_value=256, required=False)
    bots_allowed = serializers.BooleanField(
        required=False, help_text="Bot accounts may sign up (default false)")
    clock = serializers.DictField(
        required=False, help_text="Every game's clock, as POST /api/v1/games/ takes it: "
                                  "{time_zone, quiet_from, quiet_until (hours), weekends}")
    map = serializers.CharField(
        required=False, help_text="The map every game is played on (GET /api/v1/maps/); "
                                  "default classic")


class TournamentOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.CharField()
    status = serializers.CharField()
    standings = serializers.ListField(child=serializers.DictField())
    bracket = serializers.ListField(child=serializers.DictField())


class ReplaceIn(serializers.Serializer):
    leaving = serializers.CharField()
    joining = serializers.CharField()
    reason = serializers.CharField(required=False)


def found(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.filter(pk=tournament_id).first() if \
        0 < tournament_id < 2**63 else None
    if tournament is None:
        raise ServiceError(404, "not_found", "no such tournament")
    return tournament


class TournamentsView(ApiView):
    permission_classes = [ReadAnyoneWriteSignedIn]

    @extend_schema(parameters=[OpenApiParameter(
        "status", str, enum=[code for code, _ in Tournament.STATUSES])],
        responses={200: TournamentOut(many=True), **ERRORS})
    def get(self, request):
        """Tournaments, newest first."""
        listed = Tournament.objects.annotate(entered=Count("entries"))
        wanted = request.query_params.get("status")
        if wanted:
            if wanted not in dict(Tournament.STATUSES):
                return error(400, "bad_request", "status must be one of " + ", ".join(
                    code for code, _ in Tournament.STATUSES))
            listed = listed.filter(status=wanted)
        return Response([summary(t, t.entered) for t in listed[:200]])

    @extend_schema(request=TournamentIn, responses={201: TournamentOut, **ERRORS})
    @refuses({400: ["bad_rules", "bad_clock", "unknown_map"]})
    def post(self, request):
        """Create a tournament (201)."""
        tournament = services.create_tournament(request.user, body(request))
        return Response(detail(tournament), status=status.HTTP_201_CREATED)


class TournamentView(ApiView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: TournamentOut, **ERRORS})
    def get(self, request, tournament_id):
        """A tournament: its entrants, rounds and games."""
        return Response(detail(found(tournament_id)))


class JoinView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: TournamentOut, **ERRORS})
    @refuses({400: ["signup_closed", "signup_not_open", "already_entered", "tournament_full"],
              403: ["bots_not_allowed"]})
    def post(self, request, tournament_id):
        """Enter a tournament open for sign-up."""
        tournament = found(tournament_id)
        services.sign_up(tournament, request.user)
        return Response(detail(tournament))


class LeaveView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: TournamentOut, **ERRORS})
    @refuses({400: ["signup_closed", "not_entered"]})
    def post(self, request, tournament_id):
        """Leave a tournament before it starts."""
        tournament = found(tournament_id)
        services.withdraw(tournament, request.user)
        return Response(detail(tournament))


class CancelView(ApiView):
    """A moderator who did not enter calls the tournament off (its running games are
    aborted); an entrant gets 403 own_game."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: TournamentOut, **ERRORS})
    @refuses({400: ["bad_request", "tournament_over"], 403: ["not_moderator", "own_game"]})
    def post(self, request, tournament_id):
        tournament = moderators.cancel(found(tournament_id), request.user,
                                       body(request).get("reason", ""))
        return Response(detail(tournament))


class RetryView(ApiView):
    """A moderator who did not enter tries again the step that held the tournament up
    (400 not_held_up if none did); an entrant gets 403 own_game."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: TournamentOut, **ERRORS})
    @refuses({400: ["not_held_up"], 403: ["not_moderator", "own_game"]})
    def post(self, request, tournament_id):
        return Response(detail(moderators.retry(found(tournament_id), request.user)))


class ReplaceView(ApiView):
    """A moderator who did not enter puts one player in another's place (entry and current
    seat); an entrant gets 403 own_game."""
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ReplaceIn, responses={200: TournamentOut, **ERRORS})
    # (and what the game's own replace_player refuses, when the seat is in a running game)
    @refuses({400: ["tournament_over", "not_entered", "already_entered", "moderation_refused"],
              403: ["not_moderator", "own_game", "not_your_bot"]})
    def post(self, request, tournament_id):
        data = body(request)
        tournament = found(tournament_id)
        moderators.replace(tournament, request.user, data.get("leaving"),
                           data.get("joining"), data.get("reason", ""))
        tournament.refresh_from_db()
        return Response(detail(tournament))
