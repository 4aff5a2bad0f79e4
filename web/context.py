"""What every signed-in page's title says: how many games wait for the viewer's move, as
"(N) Your move · …" (templates/base.html); static/js/counters.js keeps it up to date from the
user stream's `moves`."""

from __future__ import annotations

from django.utils.functional import SimpleLazyObject

from games.waiting import games_waiting_for


def your_moves(request) -> dict:
    # Lazy: a page that draws no title (a fragment) pays no query; a view that counts its
    # own (the lobby's and home's lists) passes `your_moves` and wins.
    user = getattr(request, "user", None)
    return {"your_moves": SimpleLazyObject(
        lambda: len(games_waiting_for(user.pk)) if user is not None and user.is_authenticated
        else 0)}
