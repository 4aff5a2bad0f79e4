"""The notification list's page (/notifications/) and API (/api/v1/notifications/)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response

from lib.api.errors import Error, error
from lib.api.views import ApiView
from notifications import notices


@login_required
def notices_page(request):
    entries = [{**notices.entry(row), "created": row.created_at}
               for row in notices.listed(request.user)[:notices.PAGE_SIZE]]
    return render(request, "notifications/notices.html", {"entries": entries})


@require_POST
@login_required
def notices_read(request):
    """Mark one entry (`id`) or every entry read, then back to the list."""
    raw = request.POST.get("id", "")
    notices.mark_read(request.user, [int(raw)] if raw.isdigit() and len(raw) < 19 else None)
    return redirect("notices")


class EntryOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    text = serializers.CharField()
    url = serializers.CharField()
    game = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    read = serializers.BooleanField()


class ListOut(serializers.Serializer):
    unread = serializers.IntegerField()
    results = EntryOut(many=True)


class ReadIn(serializers.Serializer):
    ids = serializers.ListField(child=serializers.IntegerField(), required=False)


class NotificationsView(ApiView):
    """The signed-in user's notifications, newest first (at most 50), and the unread count."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: ListOut, 401: Error})
    def get(self, request):
        return Response({"unread": notices.unread_count(request.user),
                         "results": notices.entries(request.user)})


class NotificationsReadView(ApiView):
    """Mark `ids` read, or every notification if the body has no `ids`."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ReadIn, responses={200: ListOut, 400: Error, 401: Error})
    def post(self, request):
        data = request.data if isinstance(request.data, dict) else None
        if data is None:
            return error(400, "bad_request", "the body must be a JSON object")
        ids = data.get("ids")
        if ids is not None and not (isinstance(ids, list) and len(ids) <= 1000 and all(
                isinstance(i, int) and not isinstance(i, bool) and 0 < i < 2**63
                for i in ids)):
            return error(400, "bad_request", "ids must be a list of notification ids")
        notices.mark_read(request.user, ids)
        return Response({"unread": notices.unread_count(request.user),
                         "results": notices.entries(request.user)})
