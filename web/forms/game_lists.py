"""The filters of the lobby's open games and of a player's games, as GET forms: every
choice is a query parameter, so a filtered list is a link to bookmark, and they work
without JavaScript. The lobby's values are lobby.filters', which the API takes too."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from lobby.filters import FILTERS
from words.rules import RULE_CHOICES, RULEBOOKS

from .game_settings import WrittenSelect

ANY = ("", _("any"))
YES_NO = [ANY, ("yes", _("yes")), ("no", _("no"))]


def _choice(label, choices) -> forms.ChoiceField:
    return forms.ChoiceField(label=label, choices=choices, required=False,
                             widget=WrittenSelect)


class GameFilterForm(forms.Form):
    """The lobby's open games by size, rules, time per move and rated or not (a map
    filter joins them when games are played on more than one map)."""

    seats = _choice(_("Players"), [ANY, *[(n, n) for n in FILTERS["seats"]]])
    objective = _choice(_("Objective"), [ANY, *[(v, RULE_CHOICES["objective"][v])
                                                for v in FILTERS["objective"]]])
    preset = _choice(_("Rulebook"), [ANY, *[(v, RULEBOOKS[v][0]) for v in FILTERS["preset"]]])
    fog = _choice(_("Fog of war"), YES_NO)
    teams = _choice(_("Teams"), YES_NO)
    deadline = _choice(_("Time per move"), [
        ANY, ("fast", _("up to an hour")), ("day", _("up to a day")),
        ("slow", _("more than a day"))])
    rated = _choice(_("Rated"), YES_NO)

    def chosen(self) -> dict[str, str]:
        """The filters asked for (valid form only), as lobby.filters takes them."""
        return {name: value for name, value in self.cleaned_data.items() if value}


class PlayerGamesForm(forms.Form):
    """Which of a player's games their page lists."""

    games = _choice(_("Games"), [("", _("all games")), ("current", _("in progress")),
                                ("finished", _("finished")),
                                ("won", pgettext_lazy("games of a player", "won")),
                                ("lost", pgettext_lazy("games of a player", "lost"))])
