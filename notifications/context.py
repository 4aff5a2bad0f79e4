"""The unread count in every page's header (a template context processor)."""

from __future__ import annotations

from django.utils.functional import SimpleLazyObject

from notifications import inbox


def unread(request) -> dict:
    # Lazy: a page that does not show the header (a fragment, an error) pays no query.
    user = getattr(request, "user", None)
    return {"unread_notifications": SimpleLazyObject(
        lambda: inbox.unread_count(user) if user is not None else 0)}
