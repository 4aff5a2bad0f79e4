"""The unread count in every page's header, and the newest notice the page was drawn after
(where the page's user stream takes up: static/js/counters.js), as template context."""

from __future__ import annotations

from django.db.models import Max
from django.utils.functional import SimpleLazyObject

from notifications import notices
from notifications.models import Notification


def _newest_notice(user) -> int:
    if user is None or not user.is_authenticated:
        return 0
    return Notification.objects.filter(user=user).aggregate(m=Max("pk"))["m"] or 0


def unread(request) -> dict:
    # Lazy: a page that does not show the header (a fragment, an error) pays no query.
    user = getattr(request, "user", None)
    return {"unread_notifications": SimpleLazyObject(
                lambda: notices.unread_count(user) if user is not None else 0),
            "newest_notice": SimpleLazyObject(lambda: _newest_notice(user))}
