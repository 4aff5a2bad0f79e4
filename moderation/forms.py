"""The moderators' forms (one per action, each with a reason) and the players' report form."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from engine.commands import MODERATOR_ACTIONS
from games.moderation import ACTIONS


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=500, strip=True,
                             widget=forms.Textarea(attrs={"rows": 2}))


class ModerateForm(ReasonForm):
    """One moderator action on one game; the fields an action needs are checked in clean()."""

    action = forms.ChoiceField(choices=[(a, a) for a in ACTIONS], widget=forms.HiddenInput)
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    seat = forms.TypedChoiceField(label=_("Seat"), coerce=int, required=False, empty_value=None)
    until = forms.DateTimeField(
        label=_("New deadline"), required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    username = forms.CharField(label=_("New player (username)"), max_length=150,
                               required=False)
    confirm = forms.BooleanField(label=_("Yes, end this game without a winner"),
                                 required=False)

    def __init__(self, *args, seats=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [("", "—"), *seats]
        self.fields["until"].help_text = _("In your time zone, %(zone)s.") % {
            "zone": timezone.get_current_timezone_name()}

    def clean(self):
        data = super().clean()
        action = data.get("action")
        declared = MODERATOR_ACTIONS.get(action)
        if declared is not None and declared.seat and data.get("seat") is None:
            self.add_error("seat", _("Choose the seat."))
        if action == "replace_player" and not data.get("username"):
            self.add_error("username", _("Name the user who takes the seat."))
        if action == "extend_deadline" and data.get("until") is None:
            self.add_error("until", _("Give the new deadline."))
        if action == "abort" and not data.get("confirm"):
            self.add_error("confirm", _("Tick the box to confirm."))
        return data


class CloseReportForm(forms.Form):
    note = forms.CharField(label=_("Note"), max_length=1000, strip=True,
                           widget=forms.Textarea(attrs={"rows": 2}))


class ReportForm(forms.Form):
    game = forms.IntegerField(min_value=1, max_value=2**63 - 1, widget=forms.HiddenInput)
    message = forms.IntegerField(min_value=1, max_value=2**63 - 1, required=False,
                                 widget=forms.HiddenInput)
    reason = forms.CharField(label=_("What is wrong?"), max_length=1000, strip=True,
                             widget=forms.Textarea(attrs={"rows": 4}))
