"""/api/v1/messages/…: private messages over the JSON API, with the API's token auth,
{"error", "detail"} errors (lib.api.errors) and the pages' rules (conversations.messaging)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response

from accounts import throttles
from conversations import blocking, messaging, reports
from lib.api.errors import Error, error
from lib.api.schema import refuses
from lib.api.views import ApiView, body
from lib.inputs import WHOLE_NUMBER

ERRORS = {400: Error, 401: Error, 403: Error, 404: Error, 429: Error}


class PrivateMessageOut(serializers.Serializer):
    id = serializers.IntegerField()
    sender = serializers.CharField(help_text="the sender's username")
    recipient = serializers.CharField()
    text = serializers.CharField(allow_null=True, help_text="null once a moderator hid it")
    hidden = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class ConversationEntryOut(serializers.Serializer):
    username = serializers.CharField()
    unread = serializers.IntegerField()
    blocked = serializers.BooleanField(help_text="you block this player")
    last_message_at = serializers.DateTimeField()
    last = PrivateMessageOut(allow_null=True)


class ConversationListOut(serializers.Serializer):
    unread = serializers.IntegerField()
    blocked = serializers.ListField(child=serializers.CharField())
    results = ConversationEntryOut(many=True)


class ConversationOut(serializers.Serializer):
    username = serializers.CharField()
    blocked = serializers.BooleanField(help_text="you block this player")
    can_start = serializers.BooleanField(
        help_text="false until you finish a game, unless this player wrote to you")
    messages = PrivateMessageOut(many=True)


class PrivateMessageIn(serializers.Serializer):
    text = serializers.CharField(max_length=messaging.MAX_LENGTH)


class MessageReportIn(serializers.Serializer):
    message = serializers.IntegerField(min_value=1, help_text="a message this player sent you")
    reason = serializers.CharField(max_length=1000)


class MessageReportOut(serializers.Serializer):
    id = serializers.IntegerField()
    message = serializers.IntegerField()
    reason = serializers.CharField()
    status = serializers.CharField()
    created_at = serializers.DateTimeField()


class MessageBlockOut(serializers.Serializer):
    username = serializers.CharField()
    blocked = serializers.BooleanField()


class ConversationsView(ApiView):
    """Your conversations, newest first, with their unread counts; the players you block."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="messages_list", responses={200: ConversationListOut, 401: Error})
    def get(self, request):
        entries = [{**e, "last_message_at": e["last_message_at"].isoformat()}
                   for e in messaging.listing(request.user)]
        return Response({"unread": messaging.unread_count(request.user),
                         "blocked": blocking.blocked_names(request.user),
                         "results": entries})


class ConversationView(ApiView):
    """GET: your conversation with `username`, the last 100 messages oldest first
    (`?before=<id>`: the 100 before that message), marked read. POST `{text}`: send one."""

    permission_classes = [permissions.IsAuthenticated]

    def get_throttles(self):
        return [t() for t in messaging.THROTTLES] if self.request.method == "POST" else []

    @extend_schema(parameters=[OpenApiParameter("before", int, description="only messages "
                                                "with a smaller id")],
                   responses={200: ConversationOut, **ERRORS})
    def get(self, request, username):
        other = messaging.correspondent(username)
        before = request.query_params.get("before")
        if before is not None:
            if not WHOLE_NUMBER.fullmatch(before):
                return error(400, "bad_request", "before must be a message id")
            before = min(int(before), 2**63 - 1)
        conversation = messaging.conversation_of(request.user, other)
        rows = messaging.messages_of(conversation, request.user, before)
        if conversation is not None and before is None:
            messaging.mark_read(request.user, conversation)
        return Response({
            "username": other.username, "blocked": messaging.blocks(request.user, other),
            "can_start": messaging.why_not_start(request.user, other) is None,
            "messages": [messaging.message_dict(m) for m in rows]})

    @extend_schema(request=PrivateMessageIn, responses={201: PrivateMessageOut, **ERRORS})
    @refuses({403: ["blocked", "not_delivered", "not_eligible"], 429: ["rate_limited"]})
    def post(self, request, username):
        other = messaging.correspondent(username)
        message = messaging.send_message(request.user, other, body(request).get("text"))
        return Response(messaging.message_dict(message), status=status.HTTP_201_CREATED)


class BlockView(ApiView):
    """Block `username`: what they write or invite you to never reaches you, and they are
    not told (it is taken as anyone's)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: MessageBlockOut, **ERRORS})
    @refuses({400: ["bad_request"]})  # yourself
    def post(self, request, username):
        other = messaging.correspondent(username)
        blocking.block(request.user, other)
        return Response({"username": other.username, "blocked": True})


class UnblockView(ApiView):
    """Unblock `username` (nothing changes if you did not block them)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: MessageBlockOut, **ERRORS})
    @refuses({400: ["bad_request"]})  # yourself
    def post(self, request, username):
        other = messaging.correspondent(username)
        blocking.unblock(request.user, other)
        return Response({"username": other.username, "blocked": False})


class ReportView(ApiView):
    """Report a message `username` sent you to the moderators (`{message, reason}`)."""

    permission_classes = [permissions.IsAuthenticated]

    def get_throttles(self):
        return [t() for t in throttles.REPORT]

    @extend_schema(request=MessageReportIn, responses={201: MessageReportOut, **ERRORS})
    @refuses({400: ["already_reported"], 429: ["rate_limited"]})
    def post(self, request, username):
        other = messaging.correspondent(username)
        data = body(request)
        message = reports.reportable(request.user, data.get("message"))
        if message is None or message.sender_id != other.pk:
            return error(404, "not_found", "no such message from this player to you")
        report = reports.report_message(request.user, message, data.get("reason"))
        return Response(reports.report_dict(report), status=status.HTTP_201_CREATED)
