"""The forms of private messages: writing one, naming a player to write to, reporting one."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from conversations.messaging import MAX_LENGTH


class MessageForm(forms.Form):
    # Not required and not limited here: conversations.messaging refuses an empty or long
    # message in the same words for the page and the API.
    text = forms.CharField(label=_("Your message"), required=False, strip=False,
                           widget=forms.Textarea(attrs={"rows": 3, "maxlength": MAX_LENGTH}))


class ReportForm(forms.Form):
    reason = forms.CharField(label=_("What is wrong?"), max_length=1000, strip=True,
                             widget=forms.Textarea(attrs={"rows": 4}))
