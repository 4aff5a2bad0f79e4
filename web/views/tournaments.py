"""The tournaments' pages: the list and the creation form, one tournament's standings and
bracket with sign-up, and the moderators' cancel, replace and retry forms."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.bots import is_bot_account
from accounts.bots import refusal as bot_refusal
from engine.errors import RuleViolation
from games.errors import ServiceError
from moderation.permissions import can_moderate
from tournaments import moderators, services
from tournaments.models import Entry, Tournament
from tournaments.views_data import detail
from web.forms.game_settings import preset_context
from web.forms.tournaments import TOURNAMENT_PRESETS, ModerateForm, TournamentForm
from words.vocabulary import detail_words


def tournaments(request):
    form = TournamentForm(request.POST or None) if request.user.is_authenticated else None
    status = 200
    if request.method == "POST":
        if form is None:
            return redirect("login")
        if form.is_valid():
            try:
                made = services.create_tournament(request.user, form.payload())
            except ServiceError as refused:
                form.add_error(None, refused.detail)
            else:
                messages.success(request, _("The tournament is open for sign-up."))
                return redirect("tournament", made.pk)
        status = 400
    listed = Tournament.objects.annotate(entered=Count("entries")).order_by("-id")[:100]
    return render(request, "tournaments/list.html", {
        "tournaments": listed, "form": form, **preset_context(TOURNAMENT_PRESETS)},
        status=status)


def tournament_page(request, tournament_id, moderate_form=None, status=200):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    entered = request.user.is_authenticated and Entry.objects.filter(
        tournament=tournament, user=request.user).exists()
    # An entrant who moderates is not offered what they may not do (moderators.py).
    moderator = can_moderate(request.user) and not entered
    return render(request, "tournaments/tournament.html", {
        "t": detail(tournament), "entered": entered, "moderator": moderator,
        "moderate_form": moderate_form or (ModerateForm() if moderator else None),
    }, status=status)


def _refused(request, error: Exception) -> None:
    # The game pages' rule (web.views.refusals.refusal_text): territories by name, not their ids.
    messages.error(request, detail_words(getattr(error, "detail", str(error))))


@login_required
@require_POST
def join(request, tournament_id):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if is_bot_account(request.user):  # it plays only through the API, as the lobby's forms say
        messages.error(request, bot_refusal())
        return redirect("tournament", tournament.pk)
    try:
        services.sign_up(tournament, request.user)
        messages.success(request, _("You are signed up."))
    except ServiceError as refused:
        _refused(request, refused)
    return redirect("tournament", tournament.pk)


@login_required
@require_POST
def leave(request, tournament_id):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        services.withdraw(tournament, request.user)
        messages.success(request, _("You have left the tournament."))
    except ServiceError as refused:
        _refused(request, refused)
    return redirect("tournament", tournament.pk)


@login_required
@require_POST
def moderate(request, tournament_id):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not can_moderate(request.user):
        return render(request, "403.html", status=403)
    form = ModerateForm(request.POST)
    if not form.is_valid():
        return tournament_page(request, tournament_id, form, status=400)
    data = form.cleaned_data
    try:
        if data["action"] == "cancel":
            moderators.cancel(tournament, request.user, data["reason"])
            messages.success(request, _("The tournament is cancelled."))
        elif data["action"] == "retry":
            tried = moderators.retry(tournament, request.user)
            if tried.status == Tournament.STALLED:
                messages.error(request, _("It is held up again: %(reason)s")
                               % {"reason": tried.reason})
            else:
                messages.success(request, _("The tournament runs again."))
        else:
            moderators.replace(tournament, request.user, data["leaving"], data["joining"],
                               data["reason"])
            messages.success(request, _("The player is replaced."))
    except (ServiceError, RuleViolation) as refused:
        if getattr(refused, "code", "") == "own_game":
            _refused(request, refused)  # an entrant is shown no form to carry the refusal
            return tournament_page(request, tournament_id, status=refused.status)
        form.add_error(None, getattr(refused, "detail", str(refused)))
        return tournament_page(request, tournament_id, form, status=400)
    return redirect("tournament", tournament.pk)
