"""The inbound-mail webhook is closed until it has a secret."""

from __future__ import annotations

from django.conf import settings
from django.http import JsonResponse


class InboundWebhookNeedsSecret:
    """Without ANYMAIL_WEBHOOK_SECRET anymail would accept any caller (with a warning), and
    anyone who learned a reply address could move for its player: answer 403 instead."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith("/anymail/") and not (
            getattr(settings, "ANYMAIL", {}) or {}
        ).get("WEBHOOK_SECRET"):
            return JsonResponse({"error": "webhook_disabled",
                                 "detail": "set ANYMAIL_WEBHOOK_SECRET to receive mail here"},
                                status=403)
        return self.get_response(request)
