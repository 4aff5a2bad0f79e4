"""The pages' forms: creating a game with every rule option, signing up, preferences."""

from __future__ import annotations

import zoneinfo
from datetime import date, datetime, time, timedelta

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts import email as addresses
from accounts import signin
from accounts.models import Preferences
from games.computer import ACCOUNT_PREFIX
from games.inputs import whole_number
from games.rules.fair import ENTROPY_MAX_LENGTH, entropy_problem
from games.rules.options import CHOICES, DEFAULT_FIXED_VALUES, Rules, validate_rules
from games.vocabulary import BOT_LEVELS, RULE_CHOICES, RULE_LABELS, RULEBOOKS
from notifications.vacations import MAX_DAYS_AHEAD

# Presets fill in the rules; "custom" takes them from the fields below.
# The lobby's presets are made for play by the day: every starting army is placed at once,
# in secret, by everyone together (one decision and one mail per player instead of a
# placement turn per army: 63 turns for three players under the rulebooks' one at a time).
# The rulebooks' one-by-one placement stays a choice under Custom. The API's defaults stay
# RULES.md's, as CONTRACT.md promises.
ASYNC_SETUP = {"initial_placement": "simultaneous"}
PRESETS = {
    "classic": {"label": _("Classic"),
                "help": _("Territories dealt, starting armies placed all at once, conquer "
                          "the world."),
                "rules": {**ASYNC_SETUP}},
    "missions": {"label": _("Secret missions"),
                 "help": _("Each player gets a secret mission; the first to fulfil it wins."),
                 "rules": {**ASYNC_SETUP, "objective": "missions", "neutral": False}},
    "capitals": {"label": _("Capitals"),
                 "help": _("Each player picks a secret capital; hold enough capitals to win."),
                 "rules": {**ASYNC_SETUP, "objective": "capitals"}},
    "two_neutral": {"label": _("Two players with neutral"),
                    "help": _("Two players and a neutral army that only defends."),
                    "rules": {**ASYNC_SETUP, "neutral": True,
                              "neutral_reinforcement": "opponent"},
                    "players": 2},
    "fog": {"label": _("Fog of war"),
            "help": _("You see only your territories and their neighbours; the rest is "
                      "fog until the end."),
            "rules": {**ASYNC_SETUP, "fog": True}},
    "teams": {"label": _("Two against two"),
              "help": _("Four players in two teams: teammates never attack each other, "
                        "see each other's cards and win together."),
              "rules": {**ASYNC_SETUP, "team_size": 2}, "players": 4},
    "rulebook": {"label": _("Rulebook setup: one army per turn"),
                 "help": _("The classic game with the rulebooks' setup: starting armies "
                           "placed one per turn, in turn. Slow by mail: dozens of turns "
                           "before the first attack."),
                 "rules": {"initial_placement": "turns", "placement_batch": 1}},
    # One per rulebook (RULES.md "Each rulebook as written"), resolved by rules.preset.
    **{name: {"label": label, "help": help_text, "rules": {"preset": name}}
       for name, (label, help_text) in RULEBOOKS.items()},
    "custom": {"label": _("Custom"), "help": _("Use the rules chosen below."), "rules": None},
}

def preset_fields(rules: dict | None) -> dict | None:
    """A preset's rules as the lobby's fields hold them, for the page's script to fill in:
    a rulebook preset resolved to every option it sets."""
    if rules is None or "preset" not in rules:
        return rules
    resolved = validate_rules(rules, 3).to_dict()
    fields = {k: v for k, v in resolved.items() if k not in ("preset", "fixed_values")}
    fields.update({f"fixed_{kind}": value for kind, value in resolved["fixed_values"].items()})
    fields["cards"] = "yes" if resolved["cards"] else "no"
    return fields


def preset_context(keys=None) -> dict:
    """What templates/games/_game_settings.html shows of the presets `keys` (all if None)."""
    offered = {k: p for k, p in PRESETS.items() if keys is None or k in keys}
    return {"presets": offered,
            "preset_rules": {k: preset_fields(p["rules"]) for k, p in offered.items()},
            "preset_players": {k: p.get("players") for k, p in offered.items()}}


DEADLINES = [
    (600, _("10 minutes")), (3600, _("1 hour")), (4 * 3600, _("4 hours")),
    (12 * 3600, _("12 hours")), (86400, _("1 day")), (2 * 86400, _("2 days")),
    (3 * 86400, _("3 days")), (7 * 86400, _("1 week")),
]

DEFAULTS = Rules()
HOURS = [("", "—")] + [(h, f"{h:02d}:00") for h in range(24)]


def _choice(key: str, required: bool = True, initial=None) -> forms.ChoiceField:
    """A rule's choices in plain words, `initial` or else the rule's default chosen. Not
    required: left out, the rule's default."""
    return forms.ChoiceField(
        label=RULE_LABELS[key], choices=[(v, RULE_CHOICES[key][v]) for v in CHOICES[key]],
        initial=getattr(DEFAULTS, key) if initial is None else initial,
        widget=forms.RadioSelect, required=required,
    )


ENTROPY_HELP = _("Mixed into the game's secret seed with the other players' entropy, so "
                 "that nobody, not even the server, picks the dice alone. Your browser "
                 "fills in a random one; keep it to check the game at the end. Up to 64 "
                 "letters, digits, spaces or signs; leave empty to send none.")


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


class GameSettingsForm(forms.Form):
    """A game's rules (a preset or every option) and its clock, as the lobby offers them;
    the tournaments' form offers the same for its games."""

    deadline_seconds = forms.TypedChoiceField(
        label=RULE_LABELS["deadline_seconds"], coerce=int, initial=86400, choices=DEADLINES,
        help_text=_("A player who misses it has the simplest legal move made for them."),
    )
    clock_time_zone = forms.ChoiceField(
        label=_("The game's time zone"), initial="UTC", required=False,
        choices=lambda: time_zone_choices(),
        help_text=_("Quiet hours and weekends below are counted in this zone."))
    quiet_from = forms.TypedChoiceField(
        label=_("Clock rests from"), coerce=int, empty_value=None, required=False,
        choices=lambda: HOURS,
        help_text=_("With the next field: no deadline runs out at night, the clock stops."))
    quiet_until = forms.TypedChoiceField(
        label=_("Clock runs again at"), coerce=int, empty_value=None, required=False,
        choices=lambda: HOURS)
    pause_weekends = forms.BooleanField(
        label=_("The clock rests on Saturdays and Sundays"), required=False)
    preset = forms.ChoiceField(
        label=_("Rules"), initial="classic", widget=forms.RadioSelect,
        choices=[(k, p["label"]) for k, p in PRESETS.items()],
        help_text=_("A preset fills in the rules below; choose Custom to use your own."),
    )
    setup = _choice("setup")
    # Async-friendly, as the presets (the API's default stays RULES.md's).
    initial_placement = _choice("initial_placement", initial="simultaneous")
    placement_batch = forms.IntegerField(
        label=RULE_LABELS["placement_batch"], min_value=1, max_value=100, initial=1)
    initial_max_per_territory = forms.IntegerField(
        label=RULE_LABELS["initial_max_per_territory"], min_value=1, max_value=1000,
        required=False, help_text=_("Leave empty for no limit (the Czech rulebook says 4)."))
    card_values = _choice("card_values")
    fixed_infantry = forms.IntegerField(label=_("Three infantry"), min_value=1, max_value=1000,
                                        initial=DEFAULT_FIXED_VALUES["infantry"])
    fixed_cavalry = forms.IntegerField(label=_("Three cavalry"), min_value=1, max_value=1000,
                                       initial=DEFAULT_FIXED_VALUES["cavalry"])
    fixed_artillery = forms.IntegerField(label=_("Three artillery"), min_value=1,
                                         max_value=1000,
                                         initial=DEFAULT_FIXED_VALUES["artillery"])
    fixed_mixed = forms.IntegerField(label=_("One of each"), min_value=1, max_value=1000,
                                     initial=DEFAULT_FIXED_VALUES["mixed"])
    card_territory_bonus = _choice("card_territory_bonus")
    occupy_minimum = _choice("occupy_minimum")
    fortify = _choice("fortify")
    objective = _choice("objective")
    capitals_to_win = _choice("capitals_to_win")
    capital_collapse = forms.BooleanField(
        label=RULE_LABELS["capital_collapse"], required=False,
        help_text=_("The loser's armies on that continent are removed; the captor takes "
                    "each emptied territory with 1 army."))
    neutral = forms.BooleanField(label=RULE_LABELS["neutral"], required=False, initial=True)
    neutral_reinforcement = _choice("neutral_reinforcement")
    max_missed_turns = forms.IntegerField(
        label=RULE_LABELS["max_missed_turns"], min_value=1, max_value=100, initial=3)
    dropped_seat = forms.ChoiceField(
        label=RULE_LABELS["dropped_seat"], required=False, widget=forms.RadioSelect,
        choices=[(v, RULE_CHOICES["dropped_seat"][v]) for v in CHOICES["dropped_seat"]],
        initial=DEFAULTS.dropped_seat)
    fog = forms.BooleanField(
        label=RULE_LABELS["fog"], required=False,
        help_text=_("Each player sees only their own territories, their neighbours and "
                    "their teammates'; everything is revealed at the end."))
    team_size = forms.TypedChoiceField(
        label=RULE_LABELS["team_size"], coerce=int, initial=1, required=False,
        empty_value=1,
        choices=[(1, _("no teams")), (2, _("teams of 2 (2 against 2, or 2v2v2)")),
                 (3, _("teams of 3 (3 against 3)"))],
        help_text=_("Seats form teams in join order: with 4 players, seats 1 and 3 play "
                    "seats 2 and 4. Not played with missions or capitals."))
    round_limit = forms.IntegerField(
        label=RULE_LABELS["round_limit"], min_value=1, max_value=10_000, required=False,
        help_text=_("Leave empty to play until someone wins. After this many rounds the "
                    "player holding the most territories wins."))

    # Each rulebook as written (RULES.md): the options the rulebook presets set.
    continent_bonus_after_round = forms.BooleanField(
        label=RULE_LABELS["continent_bonus_after_round"], required=False,
        help_text=_("A continent's bonus is paid only if you have held all of it since "
                    "the start of your previous turn (the Czech rulebook)."))
    max_cards = forms.IntegerField(
        label=RULE_LABELS["max_cards"], min_value=5, max_value=44, required=False,
        help_text=_("Leave empty for no limit (the Czech rulebook says 5). A card that "
                    "would go above it is traded at once."))
    elimination_trade_at = forms.IntegerField(
        label=RULE_LABELS["elimination_trade_at"], min_value=5, max_value=44, required=False,
        initial=DEFAULTS.elimination_trade_at,
        help_text=_("Holding this many cards after taking a player's, the conqueror trades "
                    "at once until fewer than five remain (6; the encyclopedia says 5)."))
    elimination_trade_when = _choice("elimination_trade_when", required=False)
    forced_trade = _choice("forced_trade", required=False)
    traded_cards = _choice("traded_cards", required=False)
    card_draw = _choice("card_draw", required=False)
    cards = forms.TypedChoiceField(
        label=RULE_LABELS["cards"], required=False, initial="yes", empty_value=True,
        coerce=lambda value: value == "yes", widget=forms.RadioSelect,
        choices=[("yes", _("played: a card for each turn with a conquest, sets for armies")),
                 ("no", _("not played at all (the online game)"))])
    minimum_reinforcement = _choice("minimum_reinforcement", required=False)
    neutral_dice = _choice("neutral_dice", required=False)
    capital_card_out = forms.BooleanField(
        label=RULE_LABELS["capital_card_out"], required=False,
        help_text=_("Each capital's territory card is taken out of the deck (the Polish "
                    "rulebook)."))
    play_order = _choice("play_order", required=False)

    RULE_FIELDS = (
        "setup", "initial_placement", "placement_batch", "initial_max_per_territory",
        "card_values", "card_territory_bonus", "occupy_minimum", "fortify", "objective",
        "capitals_to_win", "capital_collapse", "neutral", "neutral_reinforcement",
        "max_missed_turns", "round_limit", "dropped_seat", "fog", "team_size",
        "continent_bonus_after_round", "max_cards", "elimination_trade_at",
        "elimination_trade_when", "forced_trade", "traded_cards", "card_draw", "cards",
        "minimum_reinforcement", "neutral_dice", "capital_card_out", "play_order",
    )
    # Fields a form may leave out: the rule's default then.
    OPTIONAL_CHOICES = ("dropped_seat", "elimination_trade_when", "forced_trade",
                        "traded_cards", "card_draw", "minimum_reinforcement", "neutral_dice",
                        "play_order")

    FIXED_FIELDS = ("fixed_infantry", "fixed_cavalry", "fixed_artillery", "fixed_mixed")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A preset decides every rule: the fields are read only under Custom, so a form
        # sent without them (a script, a test) is not refused for leaving them out.
        preset = self.data.get("preset") or self.fields["preset"].initial
        if self.is_bound and preset != "custom":
            for key in (*self.RULE_FIELDS, *self.FIXED_FIELDS):
                if key in self.fields:
                    self.fields[key].required = False

    def clock(self) -> dict:
        """The clock options for services.create_game (which checks that they make sense)."""
        data = self.cleaned_data
        clock = {"time_zone": data.get("clock_time_zone") or "UTC", "weekends": data["pause_weekends"]}
        if data.get("quiet_from") is not None or data.get("quiet_until") is not None:
            clock |= {"quiet_from": data.get("quiet_from"), "quiet_until": data.get("quiet_until")}
        return clock

    def chosen_rules(self) -> dict:
        """The rules for services.create_game, from the preset or the fields."""
        data = self.cleaned_data
        preset = PRESETS[data["preset"] or self.fields["preset"].initial]
        if preset["rules"] is not None:
            return dict(preset["rules"])
        rules = {key: data.get(key) for key in self.RULE_FIELDS}
        for key in self.OPTIONAL_CHOICES:
            rules[key] = rules[key] or getattr(DEFAULTS, key)
        rules["team_size"] = rules["team_size"] or 1
        if rules["elimination_trade_at"] is None:
            rules["elimination_trade_at"] = DEFAULTS.elimination_trade_at
        if rules["cards"] in (None, ""):
            rules["cards"] = True
        rules["fixed_values"] = {name[len("fixed_"):]: data[name] for name in self.FIXED_FIELDS}
        return rules


class CreateGameForm(GameSettingsForm):
    name = forms.CharField(label=_("Name of the game"), max_length=100)
    players = forms.TypedChoiceField(
        label=_("Players"), coerce=int, initial=3,
        choices=[(n, str(n)) for n in range(2, 7)],
    )
    bots = forms.IntegerField(
        label=_("Computer players"), min_value=0, max_value=5, initial=0, required=False,
        help_text=_("They take the seats after yours; the game starts when every seat is "
                    "taken."))
    bot_level = forms.ChoiceField(
        label=_("Their level"), required=False, initial="normal",
        choices=[(level, name) for level, name in BOT_LEVELS.items()])
    rated = forms.ChoiceField(
        label=_("Rated"), initial="auto", widget=forms.RadioSelect, required=False,
        choices=[("auto", _("yes, unless computer players take seats")),
                 ("yes", _("yes, even with computer players")), ("no", _("no: a friendly game"))],
        help_text=_("A rated game moves its human players' ratings when it ends."))
    entropy = forms.CharField(
        label=_("Your entropy for the dice"), required=False, strip=False,
        max_length=ENTROPY_MAX_LENGTH, widget=entropy_input(), help_text=ENTROPY_HELP)

    def clean_entropy(self) -> str | None:
        return player_entropy(self.cleaned_data.get("entropy"))

    def bot_levels(self) -> list[str]:
        data = self.cleaned_data
        return [data.get("bot_level") or "normal"] * (data.get("bots") or 0)

    def rated_choice(self) -> bool | None:
        """For services.create_game: None leaves it to whether computer players are seated."""
        return {"yes": True, "no": False}.get(self.cleaned_data.get("rated"))

    def game_arguments(self) -> tuple[int, dict]:
        """(players, rules) for services.create_game, from the preset or the fields."""
        players = PRESETS[self.cleaned_data["preset"]].get("players",
                                                           self.cleaned_data["players"])
        return players, self.chosen_rules()


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email"), help_text=_("For turn mail and for resetting your password."))

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_email(self) -> str:
        email = self.cleaned_data["email"]
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("An account with this email address exists already; "
                                          "reset its password if it is yours."))
        return email

    def clean_username(self) -> str:
        username = super().clean_username()
        if username and username.lower().startswith(ACCOUNT_PREFIX):
            raise forms.ValidationError(_("Names starting with “bot-” are kept for computer "
                                          "players."))
        return username


def time_zone_choices() -> list[tuple[str, str]]:
    names = {n for n in zoneinfo.available_timezones() if "/" in n} | {"UTC"}
    return [(name, name.replace("_", " ")) for name in sorted(names)]


class PreferencesForm(forms.ModelForm):
    email = forms.EmailField(
        label=_("Email"), help_text=_("A new address takes effect when you follow the link "
                                      "we mail to it."))
    current_password = forms.CharField(
        label=_("Your password"), required=False, strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=_("Needed only to change your email address."))
    time_zone = forms.ChoiceField(label=_("Time zone"), choices=time_zone_choices)
    reminder_hours = forms.CharField(
        label=_("Reminders"), required=False,
        help_text=_("Hours before a deadline to remind you, separated by commas "
                    "(e.g. 12, 1); empty for none."))

    class Meta:
        model = Preferences
        fields = ("time_zone", "language", "turn_mail", "reminder_hours", "game_mail",
                  "digest_hour", "unsubscribed")
        labels = {
            "language": _("Language"),
            "turn_mail": _("Turn mail"),
            "game_mail": _("Mail when a game starts, a player is eliminated or a game ends"),
            "digest_hour": _("Hour of the daily digest (your time)"),
            "unsubscribed": _("No mail at all"),
        }
        help_texts = {"digest_hour": _("0 to 23.")}

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
        self.fields["digest_hour"].widget.attrs.update({"min": 0, "max": 23})

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
        elif get_user_model().objects.filter(email__iexact=email).exclude(
                pk=self.user.pk).exists():
            self.add_error("email", _("Another account uses this address."))
        else:
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
