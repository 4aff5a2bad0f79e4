"""A game's settings as the pages offer them: the presets, every rule option in plain words
and the clock (deadline, quiet hours, time zone). The lobby's create form and the
tournaments' form build on GameSettingsForm."""

from __future__ import annotations

import functools
import zoneinfo

from django import forms
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from engine.options import DEFAULT_FIXED_VALUES, OPTIONS, Option, validate_rules
from lobby.new_game import SPEED_RULES
from words.rules import (
    FIELD_CHOICES,
    FIXED_VALUE_LABELS,
    RULE_CHOICES,
    RULE_HELP,
    RULE_LABELS,
    RULEBOOKS,
)

# Presets fill in the rules; "custom" takes them from the fields below.
# The lobby's presets are made for play by the day: every starting army is placed at once,
# in secret, by everyone together (one decision and one mail per player instead of a
# placement turn per army: 63 turns for three players under the rulebooks' one at a time).
# The rulebooks' one-by-one placement stays a choice under Custom. The API's defaults stay
# docs/players/rules.md's, as docs/bots/contract.md promises.
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
    "speed": {"label": _("Speed: 3-minute turns"),
              "help": _("The classic game played in one sitting: 3 minutes a turn, and a "
                        "computer player takes over from a player who misses two turns. "
                        "Add computer players so as not to wait for people to join."),
              "rules": {**ASYNC_SETUP, **SPEED_RULES}},
    "rulebook": {"label": _("Rulebook setup: one army per turn"),
                 "help": _("The classic game with the rulebooks' setup: starting armies "
                           "placed one per turn, in turn. Slow by mail: dozens of turns "
                           "before the first attack."),
                 "rules": {"initial_placement": "turns", "placement_batch": 1}},
    # One per rulebook (docs/players/rulebooks.md), resolved by rules.preset.
    **{name: {"label": label, "help": help_text, "rules": {"preset": name}}
       for name, (label, help_text) in RULEBOOKS.items()},
    "custom": {"label": _("Custom"), "help": _("Use the rules chosen below."), "rules": None},
}


def preset_fields(rules: dict | None) -> dict | None:
    """A preset's rules as the lobby's fields hold them, for the page's script to fill in:
    a rulebook preset resolved to every option it sets."""
    if rules is None or "preset" not in rules:
        return rules
    return _as_fields(validate_rules(rules, 3).to_dict())


def _as_fields(resolved: dict) -> dict:
    fields = {k: v for k, v in resolved.items() if k not in ("preset", "fixed_values")}
    fields.update({f"fixed_{kind}": value for kind, value in resolved["fixed_values"].items()})
    fields["cards"] = "yes" if resolved["cards"] else "no"
    return fields


def rule_defaults() -> dict:
    """The engine's default of every rule field a preset fills in (what a preset does not
    name), for the page's script: the deadline and the round limit are left as the player
    set them."""
    fields = _as_fields(validate_rules({}, 3).to_dict())
    return {k: v for k, v in fields.items() if k not in ("deadline_seconds", "round_limit")}


def preset_context(keys=None) -> dict:
    """What templates/games/_game_settings.html shows of the presets `keys` (all if None)."""
    offered = {k: p for k, p in PRESETS.items() if keys is None or k in keys}
    return {"presets": offered, "rule_defaults": rule_defaults(),
            "preset_rules": {k: preset_fields(p["rules"]) for k, p in offered.items()},
            "preset_players": {k: p.get("players") for k, p in offered.items()}}


def apply_preset_deadline(cleaned: dict) -> dict:
    """A preset that sets the deadline (Speed) decides it; the form's field is for the
    others."""
    rules = (PRESETS.get(cleaned.get("preset") or "") or {}).get("rules") or {}
    if "deadline_seconds" in rules:
        cleaned["deadline_seconds"] = rules["deadline_seconds"]
    return cleaned


DEADLINES = [
    (180, _("3 minutes")), (600, _("10 minutes")), (3600, _("1 hour")), (4 * 3600, _("4 hours")),
    (12 * 3600, _("12 hours")), (86400, _("1 day")), (2 * 86400, _("2 days")),
    (3 * 86400, _("3 days")), (7 * 86400, _("1 week")),
]


HOURS = [("", "—")] + [(h, f"{h:02d}:00") for h in range(24)]

# Where the form starts otherwise than the engine's default: async-friendly, as the presets
# (the API's default stays docs/players/rules.md's).
FORM_INITIAL = {"initial_placement": "simultaneous"}
# The options the form offers, each as its declaration says (engine.options.OPTIONS), in
# its order: the rules, then where the rulebooks differ.
SHOWN = tuple(o for o in OPTIONS if o.part in ("rules", "rulebooks"))
FIXED_FIELDS = tuple(f"fixed_{kind}" for kind in DEFAULT_FIXED_VALUES)


def rule_field(option: Option) -> forms.Field:
    """An option's field, made from its declaration and its words. None is required: left
    out, the option's default."""
    key, initial = option.name, FORM_INITIAL.get(option.name, option.default)
    words = {"label": RULE_LABELS[key], "help_text": RULE_HELP.get(key, ""), "required": False}
    if option.kind == "choice":
        return forms.ChoiceField(choices=[(v, RULE_CHOICES[key][v]) for v in option.choices],
                                 initial=initial, widget=forms.RadioSelect, **words)
    if option.kind == "switch" and key in FIELD_CHOICES:
        return forms.TypedChoiceField(
            choices=[("yes" if v else "no", text) for v, text in FIELD_CHOICES[key].items()],
            coerce=lambda value: value == "yes", empty_value=option.default,
            initial="yes" if initial else "no", widget=forms.RadioSelect, **words)
    if option.kind == "switch":
        return forms.BooleanField(initial=initial or None, **words)
    if key in FIELD_CHOICES:
        return forms.TypedChoiceField(choices=list(FIELD_CHOICES[key].items()), coerce=int,
                                      empty_value=option.default, initial=initial, **words)
    return forms.IntegerField(min_value=option.low, max_value=option.high, initial=initial,
                              **words)


def _fixed_field(kind: str) -> forms.IntegerField:
    return forms.IntegerField(label=FIXED_VALUE_LABELS[kind], min_value=1, max_value=1000,
                              initial=DEFAULT_FIXED_VALUES[kind], required=False)


# Every shown option's field (and the fixed values' four), declared for GameSettingsForm.
RuleFields = type("RuleFields", (forms.Form,), {
    **{o.name: rule_field(o) for o in SHOWN if o.name != "fixed_values"},
    **{f"fixed_{kind}": _fixed_field(kind) for kind in DEFAULT_FIXED_VALUES}})


@functools.cache
def time_zone_choices() -> tuple[tuple[str, str], ...]:
    """Once per process: available_timezones() opens every file of the zone database."""
    names = {n for n in zoneinfo.available_timezones() if "/" in n} | {"UTC"}
    return tuple((name, name.replace("_", " ")) for name in sorted(names))


class WrittenSelect(forms.Select):
    """A select written out in Python: the same HTML as Django's, which renders a template
    per option (the time zones' hundreds took a tenth of a second a page; the lobby's filters
    4 ms). The options of plain-text choices are written once per process for each chosen
    value (Django still built a dict per option: 13 ms for the time zones); labels in the
    reader's language are written afresh each time."""

    def render(self, name, value, attrs=None, renderer=None):
        choices = tuple(self.choices)
        if any(isinstance(label, list | tuple) for _value, label in choices):
            # Grouped choices: Django's own templates write the <optgroup>s.
            return super().render(name, value, attrs, renderer)
        widget = forms.Widget.get_context(self, name, value, attrs)["widget"]
        selected = frozenset(self.format_value(value))
        plain = all(type(label) is str for _value, label in choices)
        return format_html("<select name=\"{}\"{}>{}</select>", widget["name"],
                           flatatt(widget["attrs"]), _options(choices, selected) if plain
                           else _write_options(choices, selected))


@functools.lru_cache(maxsize=64)
def _options(choices: tuple[tuple[str, str], ...], selected: frozenset):
    """_write_options of plain-text choices, kept."""
    return _write_options(choices, selected)


def _write_options(choices, selected: frozenset):
    """The <option>s of a WrittenSelect, the first of `selected` chosen."""
    chosen = next((str(value) for value, _label in choices if str(value) in selected), None)
    return format_html_join("", "<option value=\"{}\"{}>{}</option>", (
        (str(value), flatatt({"selected": True}) if str(value) == chosen else "", label)
        for value, label in choices))


class GameSettingsForm(RuleFields):
    """A game's rules (a preset or every option) and its clock, as the lobby offers them;
    the tournaments' form offers the same for its games."""

    deadline_seconds = forms.TypedChoiceField(
        label=RULE_LABELS["deadline_seconds"], coerce=int, initial=86400, choices=DEADLINES,
        help_text=_("A player who misses it has the simplest legal move made for them."),
    )
    clock_time_zone = forms.ChoiceField(
        label=_("The game's time zone"), initial="UTC", required=False,
        choices=time_zone_choices, widget=WrittenSelect,
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
    # The two-player preset's one choice: the rulebooks' wait for the opponent in the middle
    # of every turn, or the neutral's half placed at once (rules.neutral_reinforcement).
    neutral_choice = forms.ChoiceField(
        label=_("Two players with neutral: the neutral's armies"), required=False,
        initial="opponent", widget=forms.RadioSelect,
        choices=[(v, RULE_CHOICES["neutral_reinforcement"][v]) for v in ("opponent", "borders")],
        help_text=_("Placed by the other player, each turn stops in the middle until they "
                    "have placed them (a day at a daily deadline), as the rulebooks have it; "
                    "automatically, nobody waits."))

    def rule_rows(self, part: str = "rules") -> list[dict]:
        """The shown options of `part` (rules, rulebooks) in their declared order, for the
        template: {"field": a bound field}, or {"fixed": the four fixed values' fields}."""
        rows = []
        for option in SHOWN:
            if option.part != part:
                continue
            if option.name == "fixed_values":
                rows.append({"fixed": [self[name] for name in FIXED_FIELDS]})
            elif option.name in self.fields:
                rows.append({"field": self[option.name]})
        return rows

    def rulebook_rows(self) -> list[dict]:
        return self.rule_rows("rulebooks")

    def clean(self):
        return apply_preset_deadline(super().clean())

    def clock(self) -> dict:
        """The clock options for lobby.open_games.create_game (which checks that they make sense)."""
        data = self.cleaned_data
        clock = {"time_zone": data.get("clock_time_zone") or "UTC", "weekends": data["pause_weekends"]}
        if data.get("quiet_from") is not None or data.get("quiet_until") is not None:
            clock |= {"quiet_from": data.get("quiet_from"), "quiet_until": data.get("quiet_until")}
        return clock

    def chosen_rules(self) -> dict:
        """The rules for lobby.open_games.create_game, from the preset or the fields."""
        data = self.cleaned_data
        preset = PRESETS[data["preset"] or self.fields["preset"].initial]
        if preset["rules"] is not None:
            rules = dict(preset["rules"])
            if "neutral_reinforcement" in rules and data.get("neutral_choice"):
                rules["neutral_reinforcement"] = data["neutral_choice"]
            return rules
        rules = {}
        for option in SHOWN:
            value = data.get(option.name)
            if option.name != "fixed_values" and option.name in self.fields:
                rules[option.name] = option.default if value in (None, "") else value
        rules["fixed_values"] = {kind: data.get(f"fixed_{kind}") or value
                                 for kind, value in DEFAULT_FIXED_VALUES.items()}
        return rules
