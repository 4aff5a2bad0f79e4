"""The challenge form of a player's page: the rules (a preset), the table size and the
time per move of the private game it makes."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .game_settings import DEADLINES, PRESETS, apply_preset_deadline

CHALLENGE_PRESETS = [key for key in PRESETS if key != "custom"]


class ChallengeForm(forms.Form):
    preset = forms.ChoiceField(
        label=_("Rules"), initial="classic",
        choices=[(key, PRESETS[key]["label"]) for key in CHALLENGE_PRESETS])
    players = forms.TypedChoiceField(
        label=_("Players"), coerce=int, initial=2, choices=[(n, str(n)) for n in range(2, 7)],
        help_text=_("More than two: share the game's invitation link for the other seats."))
    deadline_seconds = forms.TypedChoiceField(
        label=_("Time per move"), coerce=int, initial=86400, choices=DEADLINES)

    def clean(self):
        return apply_preset_deadline(super().clean())

    def game_arguments(self) -> tuple[int, dict]:
        """(players, rules) for lobby.challenges.challenge."""
        preset = PRESETS[self.cleaned_data["preset"]]
        return preset.get("players", self.cleaned_data["players"]), dict(preset["rules"])
