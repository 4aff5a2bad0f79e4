"""The lobby's form: creating a game (its map, settings, name, players, computer players,
rated or not) with the creator's entropy for the dice."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from engine.fair import ENTROPY_MAX_LENGTH, entropy_problem
from engine.maps import DEFAULT_MAP, UnknownMap
from games.boards import board_for_new_game, maps_for_new_games
from words.vocabulary import BOT_LEVELS, map_name

from .game_settings import PRESETS, GameSettingsForm

# The join form's words too (templates/games/_join_entropy.html): one msgid.
ENTROPY_HELP = _("The dice are drawn from the server's secret number mixed with a few random "
                 "characters from each player, so that nobody, not even the server, can "
                 "choose them alone. Your browser has filled yours in: there is nothing to "
                 "do. Note them down to check the game's dice when it ends; leave the field "
                 "empty to add none.")


def entropy_input() -> forms.TextInput:
    """The entropy field: filled in by static/js/entropy.js from the browser's crypto, kept
    visible so the player can keep it, and optional when no script runs."""
    return forms.TextInput(attrs={"data-entropy": "", "autocomplete": "off",
                                  "spellcheck": "false", "size": 34})


def player_entropy(value: str) -> str | None:
    """A player's entropy as typed (spaces and all: it is hashed as it is), or None."""
    if value in (None, ""):
        return None
    problem = entropy_problem(value)
    if problem:
        raise forms.ValidationError(
            _("Up to 64 printable ASCII characters: letters, digits, spaces and signs, "
              "no accents or line breaks."))
    return value


def map_choices() -> list[tuple[str, str]]:
    return [(board.id, map_name(board)) for board in maps_for_new_games()]


def created_too_many(wait: int) -> str:
    """The refusal of a game created too soon after many others."""
    return ngettext("You created many games just now: try again in %(seconds)s second.",
                    "You created many games just now: try again in %(seconds)s seconds.",
                    wait) % {"seconds": wait}


def played_by(board) -> str:
    """How many players a map is played by, in words."""
    return ngettext("%(map)s is played by %(low)s to %(high)s player.",
                    "%(map)s is played by %(low)s to %(high)s players.", board.max_players) % {
        "map": map_name(board), "low": board.min_players, "high": board.max_players}


class CreateGameForm(GameSettingsForm):
    map = forms.ChoiceField(  # noqa: A003 (the API's and the game's word for it)
        label=_("Map"), initial=DEFAULT_MAP, required=False, choices=map_choices,
        widget=forms.RadioSelect)
    name = forms.CharField(label=_("Name of the game"), max_length=100)
    players = forms.TypedChoiceField(
        label=_("Players"), coerce=int, initial=3,
        choices=[(n, str(n)) for n in range(2, 7)],
    )
    bots = forms.IntegerField(
        label=_("Computer players"), min_value=0, max_value=5, initial=0, required=False,
        help_text=_("They join after you; the game starts once all its players have joined."))
    bot_level = forms.ChoiceField(
        label=_("Their level"), required=False, initial="normal",
        choices=[(level, name) for level, name in BOT_LEVELS.items()])
    rated = forms.ChoiceField(
        label=_("Rated"), initial="auto", widget=forms.RadioSelect, required=False,
        choices=[("auto", _("yes, unless computer players take part")),
                 ("yes", _("yes, even with computer players")), ("no", _("no: a friendly game"))],
        help_text=_("A rated game moves its human players' ratings when it ends."))
    bots_allowed = forms.BooleanField(
        label=_("Bot accounts may join"), required=False,
        help_text=_("Programs playing through the API may join by themselves."))
    private = forms.BooleanField(
        label=_("Private: only the players I invite can see and join it"), required=False,
        help_text=_("A private game is not listed; you invite players by name or share its "
                    "invitation link from its page."))
    entropy = forms.CharField(
        label=_("Your random characters"), required=False, strip=False,
        max_length=ENTROPY_MAX_LENGTH, widget=entropy_input(), help_text=ENTROPY_HELP)

    def clean_map(self) -> str:
        return self.cleaned_data.get("map") or DEFAULT_MAP

    def clean(self):
        data = super().clean()
        try:
            board = board_for_new_game(data.get("map"))
        except UnknownMap:
            board = None  # the map field's own choices refuse it
        preset = PRESETS.get(data.get("preset") or "classic", {})
        players = preset.get("players", data.get("players"))
        if board is not None and players and not (
                board.min_players <= players <= board.max_players):
            self.add_error("players", played_by(board))
        return data

    def clean_entropy(self) -> str | None:
        return player_entropy(self.cleaned_data.get("entropy"))

    def bot_levels(self) -> list[str]:
        data = self.cleaned_data
        return [data.get("bot_level") or "normal"] * (data.get("bots") or 0)

    def rated_choice(self) -> bool | None:
        """For lobby.open_games.create_game: None leaves it to whether computer players are seated."""
        return {"yes": True, "no": False}.get(self.cleaned_data.get("rated"))

    def game_arguments(self) -> tuple[int, dict]:
        """(players, rules) for lobby.open_games.create_game, from the preset or the fields."""
        players = PRESETS[self.cleaned_data["preset"]].get("players",
                                                           self.cleaned_data["players"])
        return players, self.chosen_rules()
