"""The pages mails link to: open a game signed in, and one-click unsubscribe."""

from __future__ import annotations

from django.contrib.auth import get_user_model, login
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt

from notifications.links import read_open_token, read_unsubscribe_token
from notifications.models import preferences_for


def open_game(request, token):
    found = read_open_token(token)
    if found is None:
        return HttpResponseBadRequest("This link has expired or is not valid; sign in instead.")
    user_id, game_id = found
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        return HttpResponseBadRequest("This link's account no longer exists.")
    if request.user != user:
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return redirect(f"/games/{game_id}/")


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
