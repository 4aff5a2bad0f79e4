"""Reports of private messages: a recipient reports a message to the moderators, whose queue
lists it (moderation.sections); a moderator reads the reported message (never the rest of
the conversation), hides it and closes the report with a note. Moderators who wrote or
received the message do not handle its report."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from conversations.models import Message, MessageReport
from games.errors import ServiceError
from moderation.models import Report
from moderation.permissions import can_moderate
from moderation.reports import per_day
from moderation.text import clean_text


def reportable(user, message_id) -> Message | None:
    """The message `message_id` if `user` received it (only a recipient reports), else
    None, whether it does not exist, is someone else's or was withheld from them."""
    if isinstance(message_id, bool) or not isinstance(message_id, int) \
            or not 0 < message_id < 2**63:
        return None
    return (Message.objects.select_related("sender", "recipient")
            .filter(pk=message_id, recipient=user, delivered=True).first())


def report_message(user, message: Message, reason) -> MessageReport:
    """`user`'s report of a message they received, counted with their chat reports
    against CONQUEST_REPORTS_PER_DAY."""
    reason = clean_text(reason, "reason", 1000)
    if message.recipient_id != user.pk:
        raise ServiceError(404, "not_found", _("There is no such message for you."))
    if MessageReport.objects.filter(reporter=user, message=message,
                                    status=MessageReport.OPEN).exists():
        raise ServiceError(400, "already_reported", _(
            "You have reported this message already; a moderator will look at it."))
    since = timezone.now() - timedelta(days=1)
    filed = (MessageReport.objects.filter(reporter=user, created_at__gt=since).count()
             + Report.objects.filter(reporter=user, created_at__gt=since).count())
    if filed >= per_day():
        raise ServiceError(429, "rate_limited", _(
            "You have sent many reports today: wait until tomorrow."))
    return MessageReport.objects.create(reporter=user, message=message, reason=reason)


def report_dict(report: MessageReport) -> dict:
    return {"id": report.pk, "message": report.message_id, "reason": report.reason,
            "status": report.status, "created_at": report.created_at.isoformat()}


# ---- moderators ------------------------------------------------------------------------
def may_handle_reports(user) -> bool:
    return can_moderate(user) and user.has_perm("moderation.change_report")


def handles(user, report: MessageReport) -> bool:
    """Whether `user` reads the reported message and acts on the report: a moderator who
    neither wrote nor received it."""
    return may_handle_reports(user) and user.pk not in (report.message.sender_id,
                                                        report.message.recipient_id)


def handled(user) -> Q:
    """handles() as a filter of reports."""
    if not may_handle_reports(user):
        return Q(pk__in=[])
    return ~Q(message__sender_id=user.pk) & ~Q(message__recipient_id=user.pk)


def queue_rows(moderator) -> list[dict]:
    """The open reports `moderator` handles, for the moderators' queue."""
    rows = (MessageReport.objects.filter(handled(moderator), status=MessageReport.OPEN)
            .select_related("reporter", "message__sender").order_by("created_at", "id")[:200])
    return [{"url": reverse("message-report", args=[report.pk]),
             "name": _("Report #%(id)s: a message from %(sender)s") % {
                 "id": report.pk, "sender": report.message.sender.username},
             "note": report.reason[:200]} for report in rows]


def _check(report: MessageReport, moderator) -> None:
    if not handles(moderator, report):
        raise ServiceError(403, "not_moderator", _(
            "Only a moderator who neither wrote nor received the message handles it."))


def close(report: MessageReport, moderator, note) -> MessageReport:
    _check(report, moderator)
    note = clean_text(note, "note", 1000)
    closed = MessageReport.objects.filter(pk=report.pk, status=MessageReport.OPEN).update(
        status=MessageReport.CLOSED, closed_by=moderator, closed_at=timezone.now(), note=note)
    if not closed:
        raise ServiceError(400, "moderation_refused", _("The report is already closed."))
    report.refresh_from_db()
    return report


def hide(report: MessageReport, moderator, reason) -> Message:
    """Hide the reported message from both players: its place stays, its text goes."""
    _check(report, moderator)
    reason = clean_text(reason, "reason", 500)
    hidden = Message.objects.filter(pk=report.message_id, hidden=False).update(
        hidden=True, hidden_by=moderator, hidden_reason=reason)
    if not hidden:
        raise ServiceError(400, "moderation_refused", _("The message is already hidden."))
    report.message.refresh_from_db()
    return report.message
