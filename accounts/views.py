"""Pages of the address confirmation: the mailed link, and asking for a new one."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import email as addresses


def confirm_email(request, token):
    """GET shows what the link confirms (mail scanners follow links: they must not
    confirm); the button POSTs."""
    found = addresses.read_confirmation(token)
    if found is None:
        return render(request, "accounts/confirm_email.html", {"invalid": True}, status=400)
    user, email = found
    if request.method == "POST":
        try:
            addresses.confirm(user, email)
        except addresses.AddressTaken:
            return render(request, "accounts/confirm_email.html",
                          {"taken": True, "email": email}, status=400)
        messages.success(request, _("Your address %(email)s is confirmed: mail from the game "
                                    "goes there now.") % {"email": email})
        return redirect("profile" if request.user.is_authenticated else "login")
    return render(request, "accounts/confirm_email.html", {"email": email, "account": user})


@require_POST
@login_required
def resend_confirmation(request):
    if addresses.confirmed(request.user):
        messages.info(request, _("Your address is confirmed already."))
    else:
        addresses.ask_to_confirm(request.user, request.user.email)
        messages.success(request, _("We mailed a new link to %(email)s.") % {
            "email": request.user.email})
    return redirect("profile")
