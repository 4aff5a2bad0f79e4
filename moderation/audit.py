"""A moderator's history across games: the events their actions wrote (`by` is their
username), the reports they closed and the game ratings they voided, newest first."""

from __future__ import annotations

from django.utils.translation import gettext as _

from engine.events import MODERATOR_EVENTS
from games.models import Event
from games.seat_views import spectator_event
from games.store.seats import seats_of_games
from moderation.access import handled
from moderation.models import Report
from ratings import voids
from words.narrator import line as describe


def history(username: str, viewer=None, limit: int = 200) -> list[dict]:
    """`username`'s actions and closings; only the closings of reports `viewer` handles
    (moderation.access: none about the viewer) when a viewer is named."""
    events = (Event.objects.filter(type__in=sorted(MODERATOR_EVENTS), data__by=username)
              .select_related("game").order_by("-created_at", "-id")[:limit])
    events = list(events)
    names = {pk: seats.usernames()
             for pk, seats in seats_of_games([stored.game_id for stored in events]).items()}
    entries = []
    for stored in events:
        game = stored.game
        event = spectator_event(stored, game)
        entries.append({
            "when": stored.created_at, "game": game, "kind": stored.type, "seq": stored.seq,
            "text": describe(event, names[game.pk]), "reason": event["data"].get("reason", ""),
        })
    closed = Report.objects.filter(closed_by__username=username, status=Report.CLOSED)
    if viewer is not None:
        closed = closed.filter(handled(viewer))
    closed = closed.select_related("game", "reporter").order_by("-closed_at", "-id")[:limit]
    for report in closed:
        entries.append({
            "when": report.closed_at, "game": report.game, "kind": "report_closed",
            "seq": None, "report": report,
            "text": _("Closed report #%(number)s from %(reporter)s.") % {
                "number": report.pk, "reporter": report.reporter.get_username()},
            "reason": report.note,
        })
    for voided in voids.history(username, limit):
        entries.append({
            "when": voided.created_at, "game": voided.game, "kind": "rating_voided",
            "seq": None,
            "text": _("Voided the game's rating.") + " " + _("Reason: %(reason)s") % {
                "reason": voided.reason},
            "reason": voided.reason,
        })
    entries.sort(key=lambda entry: entry["when"], reverse=True)
    return entries[:limit]
