"""The pages of private messages: the list of conversations, one conversation with its
form, blocking, reporting a message, and the moderators' page of a reported message.
Thin: parse, call conversations.messaging, blocking or reports, render."""

from __future__ import annotations

from django.contrib import messages as flash
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from accounts import throttles
from conversations import blocking, messaging, reports
from conversations.forms import MessageForm, ReportForm
from conversations.models import MessageReport
from games.errors import ServiceError
from lib.inputs import whole_number
from moderation.forms import CloseReportForm, ReasonForm
from moderation.views import file_from_form, moderator_required


def _other(username):
    try:
        return messaging.correspondent(username)
    except ServiceError as error:
        raise Http404(error.detail) from None


def _unknown(request, username, problem):
    """The list of conversations, saying that there is no such player."""
    return render(request, "conversations/list.html", {
        "entries": messaging.listing(request.user), "wanted": username[:150],
        "problem": problem, "blocked": blocking.blocked_names(request.user)}, status=404)


@login_required
def conversations_page(request):
    """The conversations, newest first, with their unread counts; `?to=name` opens one."""
    wanted = request.GET.get("to", "").strip()
    problem = ""
    if wanted:
        try:
            other = messaging.correspondent(wanted)
        except ServiceError as error:
            problem = error.detail
        else:
            return redirect("conversation", username=other.username)
    if problem:
        return _unknown(request, wanted, problem)
    return render(request, "conversations/list.html", {
        "entries": messaging.listing(request.user), "wanted": "", "problem": "",
        "blocked": blocking.blocked_names(request.user)})


def _page(request, other, *, form=None, error="", status=200):
    user = request.user
    conversation = messaging.conversation_of(user, other)
    before = whole_number(request.GET.get("before", ""))
    rows = messaging.messages_of(conversation, user, before)
    if conversation is not None and before is None:
        messaging.mark_read(user, conversation)
    i_block = messaging.blocks(user, other)
    # The sender is never told they are blocked: their page looks like anyone's.
    notice = ""
    if other.pk == user.pk:
        notice = _("You cannot send a message to yourself.")
    elif i_block:
        notice = _("You have blocked %(name)s: what they write or invite you to never "
                   "reaches you, and you cannot write to them until you unblock them.") % {
            "name": other.username}
    else:
        notice = messaging.why_not_start(user, other) or ""
    template = ("conversations/_messages.html" if request.GET.get("part") == "messages"
                else "conversations/conversation.html")
    return render(request, template, {
        "other": other, "messages_shown": [
            {**messaging.message_dict(m), "own": m.sender_id == user.pk, "at": m.created_at}
            for m in rows],
        "earlier": rows[0].pk if len(rows) == messaging.PAGE else None,
        "form": form or MessageForm(), "error": error, "notice": notice,
        "can_write": not notice, "i_block": i_block, "self": other.pk == user.pk,
        "max_length": messaging.MAX_LENGTH,
        # The newest messages page redraws its list (htmx), so answers come in by themselves.
        "polling": before is None and other.pk != user.pk,
    }, status=status)


@login_required
def conversation_page(request, username):
    try:
        other = messaging.correspondent(username)
    except ServiceError as error:
        return _unknown(request, username, error.detail)
    if request.method != "POST":
        if other.username != username:
            return redirect("conversation", username=other.username)
        return _page(request, other)
    # The service judges the text (a form would drop one with a NUL as if empty).
    text = request.POST.get("text", "")
    form = MessageForm(initial={"text": text[:2 * messaging.MAX_LENGTH]})
    wait = throttles.refused(request, messaging.THROTTLES)
    if wait:
        return _page(request, other, form=form, status=429, error=ngettext(
            "You sent many messages just now: try again in %(seconds)s second.",
            "You sent many messages just now: try again in %(seconds)s seconds.", wait) % {
            "seconds": wait})
    try:
        messaging.send_message(request.user, other, text)
    except ServiceError as error:
        return _page(request, other, form=form, error=error.detail, status=error.status)
    return redirect(reverse("conversation", args=[other.username]) + "#latest")


@require_POST
@login_required
def block_page(request, username):
    other = _other(username)
    try:
        blocking.block(request.user, other)
    except ServiceError as error:
        flash.error(request, error.detail)
    else:
        flash.success(request, _("You have blocked %(name)s. They are not told: their "
                                 "messages, invitations and challenges are taken as anyone's "
                                 "and never reach you.") % {"name": other.username})
    return redirect("conversation", username=other.username)


@require_POST
@login_required
def unblock_page(request, username):
    other = _other(username)
    try:
        blocking.unblock(request.user, other)
    except ServiceError as error:
        flash.error(request, error.detail)
    else:
        flash.success(request, _("You have unblocked %(name)s.") % {"name": other.username})
    return redirect("conversation", username=other.username)


@login_required
def report_page(request, username, message_id):
    other = _other(username)
    message = reports.reportable(request.user, message_id)
    if message is None or message.sender_id != other.pk:
        raise Http404(_("There is no such message for you."))
    form = ReportForm(request.POST or None)
    filed, status = file_from_form(
        request, form, lambda reason: reports.report_message(request.user, message, reason))
    if filed:
        return redirect("conversation", username=other.username)
    return render(request, "conversations/report.html",
                  {"other": other, "message": message, "form": form}, status=status)


@moderator_required
def moderate_report(request, report_id):
    """A reported message, alone, for a moderator who neither wrote nor received it: close
    the report with a note, or hide the message."""
    report = get_object_or_404(MessageReport.objects.select_related(
        "reporter", "message__sender", "message__recipient", "closed_by"), pk=report_id)
    if not reports.handles(request.user, report):
        raise PermissionDenied
    close_form, hide_form, status = CloseReportForm(), ReasonForm(), 200
    if request.method == "POST":
        action = request.POST.get("action")
        form = CloseReportForm(request.POST) if action == "close" else ReasonForm(request.POST)
        if action not in ("close", "hide"):
            flash.error(request, _("No such moderator action."))
        elif not form.is_valid():
            flash.error(request, _("Nothing was done: give a reason."))
            close_form, hide_form = (form, hide_form) if action == "close" \
                else (close_form, form)
            status = 400
        else:
            try:
                if action == "close":
                    reports.close(report, request.user, form.cleaned_data["note"])
                    flash.success(request, _("Report #%(id)s is closed.") % {"id": report.pk})
                else:
                    reports.hide(report, request.user, form.cleaned_data["reason"])
                    flash.success(request, _("The message is hidden."))
            except ServiceError as error:
                flash.error(request, _("Nothing was done: %(why)s") % {"why": error.detail})
            return redirect("message-report", report_id=report.pk)
    report.refresh_from_db()
    return render(request, "conversations/moderate.html", {
        "report": report, "message": report.message, "close_form": close_form,
        "hide_form": hide_form}, status=status)
