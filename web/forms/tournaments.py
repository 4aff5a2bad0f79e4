"""The form that creates a tournament on the site, and the moderators' form."""

from __future__ import annotations

from datetime import UTC, timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.boards import maps_for_new_games
from web.forms.game_settings import PRESETS, GameSettingsForm
from words.vocabulary import map_name


def _in_a_week():
    return (timezone.now() + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M")


class UTCDateTimeField(forms.DateTimeField):
    """A date and time read and shown as UTC, as its label says, whatever the viewer's time
    zone (Django would read it in theirs)."""

    def to_python(self, value):
        with timezone.override(UTC):
            return super().to_python(value)

    def prepare_value(self, value):
        with timezone.override(UTC):
            return super().prepare_value(value)


def map_choices() -> list[tuple[str, str]]:
    """Every map a tournament may be played on, named in the reader's language, with its
    size (the classic map's name is in the catalogues)."""
    return [(board.id, ngettext("%(map)s (%(count)s territory)", "%(map)s (%(count)s territories)",
                                len(board.territories)) % {
        "map": _("Classic") if board.id == "classic" else map_name(board),
        "count": len(board.territories)}) for board in maps_for_new_games()]


# The lobby's presets but those a tournament cannot play: teams (tournaments have none) and
# the two-player neutral, which is Classic at two seats.
TOURNAMENT_PRESETS = [key for key in PRESETS if key not in ("teams", "two_neutral")]


class TournamentForm(GameSettingsForm):
    """The tournament's own settings, then its games' deadline, clock and rules chosen as
    the lobby chooses them (web.forms.game_settings.GameSettingsForm; Classic, the fast setup, first)."""

    name = forms.CharField(label=_("Name of the tournament"), max_length=60)
    format = forms.ChoiceField(label=_("Format"), initial="knockout", widget=forms.RadioSelect,
                               choices=[("knockout", _("Knockout: the best of each game go "
                                                       "through to the next round")),
                                        ("round_robin", _("Round robin in groups: points for "
                                                          "each place, every round"))])
    seats = forms.TypedChoiceField(label=_("Players per game"), coerce=int, initial=4,
                                   choices=[(n, str(n)) for n in range(2, 7)])
    advance = forms.IntegerField(label=_("Knockout: players going through from each game"),
                                 min_value=1, max_value=5, initial=1)
    rounds = forms.IntegerField(label=_("Round robin: rounds"), min_value=1, max_value=20,
                                initial=3)
    max_players = forms.IntegerField(label=_("Player limit"), min_value=2, max_value=256,
                                     initial=16)
    map = forms.ChoiceField(label=_("Map"), initial="classic", choices=map_choices,
                            required=False)  # left out: classic
    signup_closes = UTCDateTimeField(
        label=_("Sign-up closes (UTC)"), initial=_in_a_week,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"])

    bots_allowed = forms.BooleanField(
        label=_("Bot accounts may sign up"), required=False,
        help_text=_("Programs playing through the API; they are rated apart from people."))

    OWN_FIELDS = ("name", "format", "seats", "map", "advance", "rounds", "max_players",
                  "signup_closes", "bots_allowed")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = [(key, PRESETS[key]["label"])
                                         for key in TOURNAMENT_PRESETS]
        self.fields["preset"].required = False  # left out: Classic, its initial
        del self.fields["team_size"]  # tournaments are played without teams

    def own_fields(self):
        return [self[name] for name in self.OWN_FIELDS]

    def payload(self) -> dict:
        data = self.cleaned_data
        closes = data["signup_closes"]
        if timezone.is_naive(closes):
            closes = timezone.make_aware(closes, UTC)
        return {"name": data["name"], "format": data["format"], "seats": data["seats"],
                "advance": data["advance"], "rounds": data["rounds"],
                "max_players": data["max_players"],
                "deadline_seconds": data["deadline_seconds"],
                "signup_closes": closes.isoformat(), "rules": self.chosen_rules(),
                "clock": self.clock(), "bots_allowed": data["bots_allowed"],
                "map": data.get("map") or "classic"}


class ModerateForm(forms.Form):
    action = forms.ChoiceField(choices=[("cancel", _("Cancel the tournament")),
                                        ("replace", _("Replace a player")),
                                        ("retry", _("Try the held-up step again"))])
    leaving = forms.CharField(label=_("Player leaving"), required=False, max_length=150)
    joining = forms.CharField(label=_("Player joining"), required=False, max_length=150)
    reason = forms.CharField(label=_("Reason"), required=False, max_length=500)
