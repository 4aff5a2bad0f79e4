"""The unread private messages in every page's header (a template context processor)."""

from __future__ import annotations

from django.utils.functional import SimpleLazyObject

from conversations import messaging


def unread(request) -> dict:
    # Lazy: a page that does not show the header (a fragment, an error) pays no query.
    user = getattr(request, "user", None)
    return {"unread_messages": SimpleLazyObject(
        lambda: messaging.unread_count(user) if user is not None else 0)}
