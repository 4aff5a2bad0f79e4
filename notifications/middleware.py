"""The notifications' middleware: the inbound-mail webhook closed until it has a secret, and
the presence on the site a signed-in browser's requests report (notifications.presence)."""

from __future__ import annotations

from django.conf import settings
from django.http import JsonResponse
from django.utils import timezone

from notifications import presence


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


class OnSite:
    """Every request of a signed-in browser (any page, a form, the game page's poll) says
    its user is on the site: their turn mail waits meanwhile. Written at most once a
    minute, the time of the last write kept in the session, so most requests cost no
    query. (An API client's token is read by the API's views, after this: it is no
    browser, and reports nothing.)"""

    SESSION_KEY = "on_site_at"

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            now = timezone.now()
            last = request.session.get(self.SESSION_KEY)
            if not isinstance(last, (int, float)) or not (
                    0 <= now.timestamp() - last < presence.ON_SITE_REFRESH.total_seconds()):
                presence.on_site(user.pk, now)
                request.session[self.SESSION_KEY] = now.timestamp()
        return self.get_response(request)
