"""Players' reports on a game or a chat message, and moderators closing them with a note."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games.errors import ServiceError
from games.models import Game
from games.store.seats import Seats, read_seats
from moderation.access import about, reading
from moderation.models import ChatMessage, Report
from moderation.text import clean_text


def per_day() -> int:
    return getattr(settings, "CONQUEST_REPORTS_PER_DAY", 20)


def file_report(user, game: Game, reason, message: ChatMessage | None = None,
                seats: Seats | None = None) -> Report:
    """A report by any signed-in user on a game, or on a line they read (moderation.access:
    spectators read the table talk too); `seats`: the game's, if the caller read them."""
    reason = clean_text(reason, "reason", 1000)
    if user is None or not user.is_authenticated:
        raise ServiceError(401, "not_authenticated", "sign in to report")
    if message is not None and (message.game_id != game.pk
                                or not reading(game, seats if seats is not None
                                               else read_seats(game), user).reads(message)):
        # The same answer as for a line that does not exist: ids are sequential.
        raise ServiceError(404, "not_found", "no such message in this game")
    if Report.objects.filter(reporter=user, game=game, message=message,
                             status=Report.OPEN).exists():
        raise ServiceError(400, "already_reported",
                           "you have reported this already; a moderator will look at it")
    since = timezone.now() - timedelta(days=1)
    if Report.objects.filter(reporter=user, created_at__gt=since).count() >= per_day():
        raise ServiceError(429, "rate_limited", "you have sent many reports today: "
                           "wait until tomorrow")
    return Report.objects.create(reporter=user, game=game, message=message, reason=reason)


def check_closer(user) -> None:
    if (user is None or not user.is_authenticated or not user.is_staff
            or not user.has_perm("moderation.change_report")):
        raise ServiceError(403, "not_moderator", "only moderators may close reports")


def close_report(report: Report, moderator, note) -> Report:
    """Close `report` with a note, as a moderator it is not about (moderation.access)."""
    check_closer(moderator)
    if about(moderator, report):
        raise ServiceError(403, "own_game", "the report is about you or a game you have a "
                           "stake in: another moderator must close it")
    note = clean_text(note, "note", 1000)
    closed = Report.objects.filter(pk=report.pk, status=Report.OPEN).update(
        status=Report.CLOSED, closed_by=moderator, closed_at=timezone.now(), note=note)
    if not closed:
        raise ServiceError(400, "moderation_refused", "the report is already closed")
    report.refresh_from_db()
    return report


def report_dict(report: Report) -> dict:
    return {"id": report.pk, "game": report.game_id, "message": report.message_id,
            "reason": report.reason, "status": report.status,
            "created_at": report.created_at.isoformat(),
            "closed_at": report.closed_at.isoformat() if report.closed_at else None}
