"""/api/v1/games/{id}/chat/ and /api/v1/reports/: table talk and reports over the JSON API,
with the API's token auth and {"error", "detail"} errors (lib.api.errors)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response

from accounts import throttles
from games import visibility
from games.api.views import found
from games.store.row import load_game
from lib.api.errors import Error, error
from lib.api.schema import refuses
from lib.api.views import ApiView, ReadAnyoneWriteSignedIn
from lib.inputs import WHOLE_NUMBER
from moderation import access
from moderation import chat as chat_service
from moderation.models import Report
from moderation.reports import file_report, report_dict

ERRORS = {400: Error, 401: Error, 403: Error, 404: Error, 429: Error}
BIGGEST_ID = 2**63 - 1


class ChatIn(serializers.Serializer):
    text = serializers.CharField(max_length=chat_service.MAX_LENGTH)
    team = serializers.BooleanField(required=False, default=False,
                                    help_text="true: only your team reads it (team games)")


class ChatMessageOut(serializers.Serializer):
    id = serializers.IntegerField()
    seat = serializers.IntegerField()
    username = serializers.CharField()
    color = serializers.CharField()
    text = serializers.CharField(allow_null=True, help_text="null once a moderator hid it")
    hidden = serializers.BooleanField()
    team = serializers.IntegerField(allow_null=True,
                                    help_text="the team whose chat it is; null for table talk")
    created_at = serializers.DateTimeField()


class ChatOut(serializers.Serializer):
    open = serializers.BooleanField()
    messages = ChatMessageOut(many=True)


class ReportIn(serializers.Serializer):
    game = serializers.IntegerField(min_value=1)
    message = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    reason = serializers.CharField(max_length=1000)


class ReportOut(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField()
    message = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField()
    status = serializers.CharField()
    created_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)


def _body(request) -> dict:
    return request.data if isinstance(request.data, dict) else {}


def _id(value) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= BIGGEST_ID:
        return None
    return value


class ChatView(ApiView):
    """Anyone may read a game's table talk; only its seated players write. In a team game
    a player also reads and writes their team's chat (`team: true`), which nobody else
    reads here, moderators included."""

    permission_classes = [ReadAnyoneWriteSignedIn]

    @extend_schema(parameters=[OpenApiParameter("after", int, description="only messages "
                                                "with a larger id")],
                   responses={200: ChatOut, **ERRORS})
    def get(self, request, game_id):
        game, seats, _ = found(request, game_id)
        after = request.query_params.get("after")
        if after is not None:
            if not WHOLE_NUMBER.fullmatch(after):
                return error(400, "bad_request", "after must be a message id")
            after = min(int(after), BIGGEST_ID)
        reading = access.reading(game, seats, request.user)
        rows = chat_service.recent_messages(game, reading, 100, after)
        return Response({"open": chat_service.chat_open(game),
                         "messages": [chat_service.message_dict(m, reading) for m in rows]})

    @extend_schema(request=ChatIn, responses={201: ChatMessageOut, **ERRORS})
    @refuses({400: ["chat_closed"], 403: ["not_seated"], 429: ["rate_limited"]})
    def post(self, request, game_id):
        game, seats, _ = found(request, game_id)
        data = _body(request)
        message = chat_service.post_message(game, request.user, data.get("text"),
                                            team=data.get("team", False), seats=seats)
        return Response(chat_service.message_dict(message,
                                                   access.reading(game, seats, request.user)),
                        status=status.HTTP_201_CREATED)


class ReportsView(ApiView):
    """Report a game or one of its chat messages to the moderators; list your own reports."""

    permission_classes = [permissions.IsAuthenticated]

    def get_throttles(self):
        return [t() for t in throttles.REPORT] if self.request.method == "POST" else []

    @extend_schema(responses={200: ReportOut(many=True), **ERRORS})
    def get(self, request):
        return Response([report_dict(r) for r in
                         Report.objects.filter(reporter=request.user).order_by("-id")[:100]])

    @extend_schema(request=ReportIn, responses={201: ReportOut, **ERRORS})
    @refuses({400: ["already_reported"], 404: ["not_found"], 429: ["rate_limited"]})
    def post(self, request):
        data = _body(request)
        game_id = _id(data.get("game"))
        if game_id is None:
            return error(400, "bad_request", "game must be a game id")
        loaded = load_game(game_id)
        if loaded is None or not visibility.may_see(loaded.game, request.user,
                                                    seats=loaded.seats):
            return error(404, "not_found", "no such game")
        game = loaded.game
        message = None
        if data.get("message") is not None:
            message_id = _id(data.get("message"))
            if message_id is None:
                return error(400, "bad_request", "message must be a chat message id")
            message = access.readable_message(game, loaded.seats, request.user, message_id)
            if message is None:
                return error(404, "not_found", "no such message in this game")
        report = file_report(request.user, game, data.get("reason"), message, loaded.seats)
        return Response(report_dict(report), status=status.HTTP_201_CREATED)
