"""The account forms: signing up, preferences (address, language, time zone, mail) and a
vacation."""

from __future__ import annotations

import zoneinfo
from datetime import date, datetime, time, timedelta

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts import email as addresses
from accounts import signin
from accounts.models import BOT_USERNAME_PREFIX, Preferences, neutral_placed_for
from lib.inputs import whole_number
from notifications.vacations import MAX_DAYS_AHEAD

from .game_settings import WrittenSelect, time_zone_choices


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email"), help_text=_("For turn mail and for resetting your password."))

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_username(self) -> str:
        username = super().clean_username()
        if username and username.lower().startswith(BOT_USERNAME_PREFIX):
            raise forms.ValidationError(_("Names starting with “bot-” are kept for computer "
                                          "players."))
        return username


class PreferencesForm(forms.ModelForm):
    email = forms.EmailField(
        label=_("Email"), help_text=_("A new address takes effect when you follow the link "
                                      "we mail to it."))
    current_password = forms.CharField(
        label=_("Your password"), required=False, strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=_("Needed only to change your email address."))
    time_zone = forms.ChoiceField(label=_("Time zone"), choices=time_zone_choices,
                                  widget=WrittenSelect)
    reminder_hours = forms.CharField(
        label=_("Reminders"), required=False,
        help_text=_("Hours before a deadline to remind you, separated by commas "
                    "(e.g. 12, 1); empty for none."))

    class Meta:
        model = Preferences
        fields = ("time_zone", "language", "turn_mail", "reminder_hours", "game_mail",
                  "digest_hour", "message_mail", "unsubscribed", "mail_link_sign_in",
                  "occupy_default", "neutral_placement")
        labels = {
            "language": _("Language"),
            "turn_mail": _("Turn mail"),
            "game_mail": _("Mail when a game starts, a player is eliminated or a game ends"),
            "digest_hour": _("Hour of the daily digest (your time)"),
            "message_mail": _("Mail when a player sends me a private message"),
            "unsubscribed": _("No mail at all"),
            "mail_link_sign_in": _("Sign me in from mail links"),
            "occupy_default": _("After a conquest, the “Move in” form suggests"),
            "neutral_placement": _("The neutral's reinforcements"),
        }
        widgets = {"neutral_placement": forms.RadioSelect}
        help_texts = {"game_mail": _(
            "Held while you are on the site, and not sent at all if you saw it there."),
            "message_mail": _("The mail says who wrote, never what: the message waits on "
                              "the site."),
            "unsubscribed": _("One-click unsubscribe: no mail at all."),
            "digest_hour": _("0 to 23."), "mail_link_sign_in": _(
            "Anyone you forward a mail to could then play as you. Off: the link asks you "
            "to sign in."), "occupy_default": _(
            "All but what the border needs: the attacking territory keeps as many armies as its "
            "strongest remaining enemy neighbour has (at least one), and the rest move in."),
            "neutral_placement": _(
            "In a two-player game the neutral gets half of each reinforcement, and the player "
            "who is not moving places it. Automatic: each army goes, one at a time, to the "
            "neutral territory with the fewest armies among those bordering the player who "
            "is moving (any neutral territory if none does; under fog only those you see). "
            "It is placed the moment it falls to you, and you get no mail for it.")}

    def __init__(self, *args, user=None, request=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.request = request  # the password check counts failures per client address
        self.new_email = None
        if user is not None:
            self.fields["email"].initial = user.email
        hours = self.instance.reminder_hours or []
        self.initial["reminder_hours"] = ", ".join(str(h) for h in hours)
        self.fields["turn_mail"].choices = [
            ("each", _("A mail on every turn")),
            ("digest", _("One daily digest of all my games")),
            ("none", _("No turn mail")),
        ]
        self.fields["occupy_default"].choices = [
            ("all", _("all the armies you may move")),
            ("border", _("all but what the border needs")),
            ("minimum", _("the minimum")),
        ]
        self.fields["occupy_default"].required = False  # a form without it keeps the choice
        self.fields["neutral_placement"].choices = [
            ("ask", _("I place them myself")),
            ("borders", _("Place them for me automatically on the borders of the player "
                          "moving")),
        ]
        # A form posted without it (an older page) keeps the choice as it was.
        self.fields["neutral_placement"].required = False
        if user is not None and not self.instance.neutral_question_answered:
            # Never chosen: shown as it is applied (accounts.models.takes_borders).
            self.initial["neutral_placement"] = (
                Preferences.BORDERS if user.pk in neutral_placed_for([user.pk])
                else Preferences.ASK_ME)
        self.fields["digest_hour"].widget.attrs.update({"min": 0, "max": 23})

    def clean_occupy_default(self) -> str:
        return self.cleaned_data.get("occupy_default") or self.instance.occupy_default

    def clean_reminder_hours(self) -> list[int]:
        raw = self.cleaned_data.get("reminder_hours") or ""
        hours = []
        for part in raw.replace(";", ",").split(","):
            part = part.strip()
            if not part:
                continue
            hour = whole_number(part, 1, 168)
            if hour is None:
                raise forms.ValidationError(
                    _("Each reminder is a whole number of hours from 1 to 168."))
            hours.append(hour)
        return sorted(set(hours), reverse=True)

    def clean(self):
        cleaned = super().clean()
        email = cleaned.get("email")
        self.new_email = None
        if self.user is None or not email or email.lower() == (self.user.email or "").lower():
            return cleaned
        if not self._password_is_right(cleaned.get("current_password") or ""):
            self.add_error("current_password",
                           _("Type your password to change your email address."))
        else:  # another account's address too: its owner is told (accounts.email)
            self.new_email = email
        return cleaned

    def _password_is_right(self, password: str) -> bool:
        # Counted as a sign-in (accounts.signin), so that it cannot be guessed without end.
        if not password or self.request is None:
            return False
        try:
            return signin.password_is_right(self.request, self.user, password)
        except signin.Locked:
            return False

    def clean_neutral_placement(self) -> str:
        return self.cleaned_data.get("neutral_placement") or self.instance.neutral_placement

    def clean_digest_hour(self) -> int:
        hour = self.cleaned_data["digest_hour"]
        if not 0 <= hour <= 23:
            raise forms.ValidationError(_("Choose an hour from 0 to 23."))
        return hour

    def save(self, commit=True):
        preferences = super().save(commit=commit)
        if self.user is not None and commit and self.new_email:
            # Only a confirmed address replaces the current one (accounts.email).
            addresses.ask_to_confirm(self.user, self.new_email)
        return preferences


class VacationForm(forms.Form):
    """Days away, counted in the player's own time zone, both days included."""

    first_day = forms.DateField(label=_("First day away"),
                                widget=forms.DateInput(attrs={"type": "date"}))
    last_day = forms.DateField(label=_("Last day away"),
                               widget=forms.DateInput(attrs={"type": "date"}))

    def clean(self):
        data = super().clean()
        first, last = data.get("first_day"), data.get("last_day")
        if first and last and last < first:
            self.add_error("last_day", _("The last day cannot come before the first."))
        if last and last > date.today() + timedelta(days=MAX_DAYS_AHEAD):
            self.add_error("last_day", _("A vacation must end within a year from today."))
        return data

    def span(self, time_zone: str):
        """(starts, ends): midnight of the first day to midnight after the last, there."""
        zone = zoneinfo.ZoneInfo(time_zone)
        first, last = self.cleaned_data["first_day"], self.cleaned_data["last_day"]
        starts = datetime.combine(first, time.min, tzinfo=zone)
        ends = datetime.combine(last + timedelta(days=1), time.min, tzinfo=zone)
        return starts, ends
