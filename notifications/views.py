"""The pages mails link to: open a game signed in, one-click unsubscribe, and the answer to
the one-time question about the neutral's armies."""

from __future__ import annotations

from django.contrib.auth import get_user_model, login
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt

from accounts.models import Preferences, preferences_for
from games import standing_orders
from notifications.links import (
    account_state,
    read_neutral_answer_token,
    read_open_token,
    read_unsubscribe_token,
)


def open_game(request, token):
    """Sign in with a mailed link: once (signing in changes what it is bound to), within
    CONQUEST_OPEN_LINK_HOURS, never as staff (a moderator signs in with a password), and
    only while the player wants mailed links to sign them in (they may have turned it off
    since the mail went out)."""
    found = read_open_token(token)
    if found is None:
        return HttpResponseBadRequest("This link has expired or is not valid; sign in instead.")
    user_id, game_id, state = found
    game_page = f"/games/{game_id}/"
    if request.user.is_authenticated and request.user.pk == user_id:
        return redirect(game_page)
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None or user.is_staff or user.is_superuser or state != account_state(user) \
            or not preferences_for(user).mail_link_sign_in:
        return redirect(f"{reverse('login')}?next={game_page}")
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return redirect(game_page)


def game(request, game_id):
    """A mailed link that signs nobody in: the game page for a signed-in reader, else the
    sign-in page, which then opens it."""
    game_page = reverse("game", args=[game_id])
    if request.user.is_authenticated:
        return redirect(game_page)
    return redirect(f"{reverse('login')}?next={game_page}")


@csrf_exempt  # RFC 8058 one-click: the mail client POSTs without a session
def unsubscribe(request, token):
    user_id = read_unsubscribe_token(token)
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    if user is None:
        return HttpResponseBadRequest("This unsubscribe link is not valid.")
    if request.method == "POST":
        preferences = preferences_for(user)
        preferences.unsubscribed = True
        preferences.save(update_fields=["unsubscribed"])
        if request.headers.get("Content-Type", "").startswith("application/x-www-form-urlencoded") \
                and request.POST.get("List-Unsubscribe") == "One-Click":
            return HttpResponse("unsubscribed")
        return render(request, "mail/unsubscribed.html", {"done": True})
    return render(request, "mail/unsubscribed.html", {"done": False, "token": token})


def neutral_answer(request, token):
    """The turn mail's answer to "place the neutral's armies yourself, or automatically from
    now on?": the page names the answer and takes it with one button (signed in or not: the
    link is signed for the player)."""
    found = read_neutral_answer_token(token)
    user = get_user_model().objects.filter(pk=found[0]).first() if found else None
    if user is None or found[1] not in (Preferences.ASK_ME, Preferences.BORDERS):
        return HttpResponseBadRequest("This link is not valid.")
    choice = found[1]
    placed = 0
    if request.method == "POST":
        placed = standing_orders.answer_neutral_question(user, choice)
    return render(request, "mail/neutral_answer.html", {
        "done": request.method == "POST", "token": token, "placed": placed,
        "automatic": choice == Preferences.BORDERS})
