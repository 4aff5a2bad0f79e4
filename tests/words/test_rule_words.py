"""Every rule option engine.options declares has its words, and the create form, the rules
panel and the API's schema follow the declarations: a new option without its words, or a
form that still names the options by hand, fails here."""

from __future__ import annotations

import pytest

from engine.options import OPTIONS, validate_rules
from games.api.rules_schema import RULES_SCHEMA
from web.forms.game_settings import SHOWN, GameSettingsForm
from web.page.rules_panel import rules_in_words
from words.rules import FIELD_CHOICES, RULE_CHOICES, RULE_HELP, RULE_LABELS

NAMES = [option.name for option in OPTIONS]


@pytest.mark.parametrize("option", [o for o in OPTIONS if o.part != "preset"],
                         ids=lambda o: o.name)
def test_it_has_words_for_every_declared_option_and_choice(option):
    assert RULE_LABELS[option.name]
    if option.kind == "choice":
        assert set(RULE_CHOICES[option.name]) == set(option.choices)


def test_it_has_no_words_for_an_option_not_declared():
    declared = set(NAMES)
    assert set(RULE_LABELS) <= declared
    assert set(RULE_CHOICES) <= declared and set(RULE_HELP) <= declared
    assert set(FIELD_CHOICES) <= declared


def test_the_form_offers_every_shown_option_with_its_declared_bounds():
    form = GameSettingsForm()
    for option in SHOWN:
        if option.name == "fixed_values":
            continue
        field = form.fields[option.name]
        assert field.label == RULE_LABELS[option.name]
        if option.kind == "number" and option.name not in FIELD_CHOICES:
            assert (field.min_value, field.max_value) == (option.low, option.high), option
        if option.kind == "choice":
            assert [v for v, _ in field.choices] == list(option.choices)
    rows = [row["field"].name for row in form.rule_rows() + form.rulebook_rows()
            if "field" in row]
    assert rows == [o.name for o in SHOWN if o.name != "fixed_values"]


def test_a_custom_form_left_empty_asks_for_the_engines_defaults():
    # A checkbox left out is unticked: those a player sees ticked are sent ticked.
    ticked = {o.name: "on" for o in SHOWN if o.kind == "switch" and o.default is True
              and o.name not in FIELD_CHOICES}
    form = GameSettingsForm({"preset": "custom", "deadline_seconds": "86400", **ticked})
    assert form.is_valid(), form.errors
    assert validate_rules(form.chosen_rules(), 3) == validate_rules({}, 3)


def test_the_schema_describes_every_option_as_declared():
    properties = RULES_SCHEMA["properties"]
    assert list(properties) == NAMES
    assert properties["setup"]["enum"] == ["deal", "claim", "random"]
    assert (properties["max_cards"]["minimum"], properties["max_cards"]["maximum"]) == (5, 44)
    assert properties["round_limit"]["nullable"] is True


def test_the_panel_tells_every_option_that_applies_in_the_declared_order():
    lines = rules_in_words(validate_rules({"card_values": "fixed"}, 3).to_dict(), 3)
    keys = [line["key"] for line in lines]
    assert keys == [name for name in NAMES if name in keys]
    assert {"objective", "fixed_values", "deadline_seconds", "play_order"} <= set(keys)
