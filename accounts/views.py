"""Pages of the address confirmation (the mailed link, asking for a new one), of asking for a
password reset, which mails only a confirmed address, and of changing the password, whose
old one is counted as a sign-in."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from accounts import email as addresses
from accounts import signin, throttles


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


class ConfirmedResetForm(auth_forms.PasswordResetForm):
    """Mails a reset link only to a confirmed address (accounts.email.confirmed, which counts
    an address the operator set as confirmed): a link to an address its owner never proved
    would hand the account to whoever reads that mailbox, and make the site a mail cannon."""

    def get_users(self, email):
        return (user for user in super().get_users(email) if addresses.confirmed(user))


class PasswordResetView(auth_views.PasswordResetView):
    """Django's, with a limit per client (refused with 429) and per address asked for
    (answered as if mailed). Every address, known, confirmed or not, gets the same answer."""

    form_class = ConfirmedResetForm

    def post(self, request, *args, **kwargs):
        wait = throttles.refused(request, throttles.PASSWORD_RESET)
        if wait:
            form = self.get_form()
            form.is_valid()
            form.add_error(None, ngettext(
                "Many resets were asked from your address just now: try again in %(seconds)s "
                "second.",
                "Many resets were asked from your address just now: try again in %(seconds)s "
                "seconds.", wait) % {"seconds": wait})
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        if throttles.refused(self.request, throttles.PASSWORD_RESET_ADDRESS):
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)


class CountedPasswordChangeForm(auth_forms.PasswordChangeForm):
    """The old password is checked as a sign-in (accounts.signin): a stolen session cannot
    guess it without end."""

    def __init__(self, user, *args, request=None, **kwargs):
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self):
        old_password = self.cleaned_data["old_password"]
        try:
            right = signin.password_is_right(self.request, self.user, old_password)
        except signin.Locked:
            right = False  # axes' middleware answers with its lockout page
        if not right:
            raise ValidationError(self.error_messages["password_incorrect"],
                                  code="password_incorrect")
        return old_password


class PasswordChangeView(auth_views.PasswordChangeView):
    form_class = CountedPasswordChangeForm

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "request": self.request}


class CountedAdminPasswordChangeForm(CountedPasswordChangeForm):
    required_css_class = "required"  # as the admin's own form marks its fields


def admin_password_change(request):
    """The admin's password change (AdminSite.password_change, routed ahead of it), with the
    old password counted as on the site's own page."""
    return PasswordChangeView.as_view(
        form_class=CountedAdminPasswordChangeForm,
        success_url=reverse("admin:password_change_done"),
        extra_context=admin.site.each_context(request),
    )(request)
