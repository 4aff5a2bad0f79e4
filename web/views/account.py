"""The account pages: signing up, the profile (preferences, vacations) and the language
switch that also remembers the choice."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import check_for_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts import email as addresses
from accounts import throttles
from accounts.models import Preferences, preferences_for
from games import standing_orders
from notifications import push_views, vacations
from notifications.models import Vacation

from ..forms.account import PreferencesForm, SignUpForm, VacationForm


def signup(request):
    if request.user.is_authenticated:
        return redirect("lobby")
    form = SignUpForm(request.POST or None)
    status = 400 if request.method == "POST" else 200
    wait = throttles.refused(request, throttles.SIGNUP) if request.method == "POST" else None
    if wait:
        form.is_valid()
        form.add_error(None, ngettext(
            "Many accounts were made from your address just now: try again in %(seconds)s "
            "second.",
            "Many accounts were made from your address just now: try again in %(seconds)s "
            "seconds.", wait) % {"seconds": wait})
        status = 429
    elif request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = form.save(commit=False)
            user.email = form.cleaned_data["email"]
            user.save()
            language = getattr(request, "LANGUAGE_CODE", "en")
            Preferences.objects.create(
                user=user, language=language if language in ("en", "cs", "pl") else "en")
            # Mail waits until the address is confirmed through the link mailed to it.
            addresses.start_unconfirmed(user)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _(
            "Welcome, %(name)s! Join a game or create one. We mailed a link to %(email)s: "
            "follow it to get turn mail.") % {"name": user.username, "email": user.email})
        return redirect("lobby")
    return render(request, "registration/signup.html", {"form": form}, status=status)


@login_required
def profile(request):
    preferences = preferences_for(request.user)
    form = PreferencesForm(request.POST or None, instance=preferences, user=request.user,
                           request=request)
    if request.method == "POST":
        if form.is_valid():
            if request.POST.get("neutral_placement"):
                # Chosen here: the game page's one-time question is answered too.
                form.instance.neutral_question_answered = True
            form.save()
            messages.success(request, _("Your preferences are saved."))
            if preferences.neutral_placement == Preferences.BORDERS and \
                    standing_orders.place_waiting(request.user):
                messages.info(request, _("The neutral's armies waiting for you are placed."))
            if form.new_email:
                messages.info(request, _(
                    "We mailed a link to %(email)s: your address changes when you follow it. "
                    "Until then mail goes to %(old)s.") % {
                    "email": form.new_email, "old": request.user.email})
            response = redirect("profile")
            response.set_cookie("django_language", preferences.language, samesite="Lax")
            return response
        return _profile(request, form, VacationForm(), status=400)
    return _profile(request, form, VacationForm())


def _profile(request, form, vacation_form, status=200):
    year = timezone.now().year
    return render(request, "accounts/profile.html", {
        "form": form, "vacation_form": vacation_form,
        "email_confirmed": addresses.confirmed(request.user),
        "vacations": vacations.current_and_coming(request.user),
        "vacation_days_used": round(vacations.days_in_year(request.user, year), 1),
        "vacation_allowance": settings.CONQUEST_VACATION_DAYS_PER_YEAR, "year": year,
        "push": push_views.state(request.user),
    }, status=status)


@require_POST
@login_required
def declare_vacation(request):
    preferences = preferences_for(request.user)
    vacation_form = VacationForm(request.POST)
    if vacation_form.is_valid():
        try:
            vacations.declare(request.user, *vacation_form.span(preferences.time_zone))
        except vacations.VacationError as problem:
            vacation_form.add_error(None, str(problem))
        else:
            messages.success(request, _("Your vacation is noted: your deadlines stretch "
                                        "while you are away."))
            return redirect("profile")
    form = PreferencesForm(instance=preferences, user=request.user)
    return _profile(request, form, vacation_form, status=400)


@require_POST
@login_required
def cancel_vacation(request, vacation_id):
    vacation = get_object_or_404(Vacation, pk=vacation_id, user=request.user,
                                 ends__gt=timezone.now())
    vacations.cancel(vacation)
    messages.success(request, _("Your vacation is called off."))
    return redirect("profile")


def set_language(request):
    """Django's set_language, which also remembers the choice in a player's preferences."""
    response = django_set_language(request)
    language = request.POST.get("language")
    if (request.method == "POST" and request.user.is_authenticated and language
            and check_for_language(language)
            and language in dict(Preferences._meta.get_field("language").choices)):
        Preferences.objects.update_or_create(user=request.user, defaults={"language": language})
    return response


@login_required
@require_POST
def neutral_question(request, game_id):
    """The game page's one-time question about the neutral's armies, answered: "myself"
    keeps the rule, "borders" sets the standing choice and places what already waits."""
    if request.POST.get("choice") == Preferences.BORDERS:
        if standing_orders.answer_neutral_question(request.user, Preferences.BORDERS):
            messages.info(request, _("The neutral's armies waiting for you are placed."))
        messages.success(request, _(
            "From now on the neutral's armies are placed for you on the borders of the player "
            "moving. Your profile can change it."))
    else:
        standing_orders.answer_neutral_question(request.user, Preferences.ASK_ME)
        messages.success(request, _(
            "You place the neutral's armies yourself. Your profile can change it."))
    return redirect("game", game_id)
