"""Each command a player sends is declared once (engine/commands.py), with how its JSON
is read; each moderator action once, with the event it writes."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.commands import (
    COMMAND_FIELDS,
    COMMAND_TYPES,
    MODERATOR_ACTION_LIST,
    MODERATOR_ACTIONS,
    PLAYER_COMMANDS,
    parse_command,
)
from engine.errors import BadCommand

# One well-formed JSON command of each declared type (a new command needs one here).
SAMPLES = {
    "claim": {"territory": "peru"},
    "place": {"placements": {"peru": 2}},
    "choose_capital": {"territory": "peru"},
    "trade": {"cards": [1, 2, 3]},
    "attack": {"from": "peru", "to": "brazil"},
    "occupy": {"armies": 3},
    "end_attack": {},
    "fortify": {"from": "peru", "to": "brazil", "armies": 1},
    "end_turn": {},
    "place_neutral": {"placements": {"peru": 1}},
    "set_defense": {"policy": "one"},
    "resign": {},
}


def test_the_commands_are_those_of_the_contract_in_the_api_s_order():
    assert COMMAND_TYPES == (
        "claim", "place", "choose_capital", "trade", "attack", "occupy", "end_attack",
        "fortify", "end_turn", "place_neutral", "set_defense", "resign")


@pytest.mark.parametrize("name", COMMAND_TYPES)
def test_each_declared_command_is_read_into_its_declared_command(name):
    declared_class, _ = PLAYER_COMMANDS[name]
    command = parse_command({"type": name, **SAMPLES[name]}, 2)
    assert type(command) is declared_class
    assert command.seat == 2


@pytest.mark.parametrize("payload, detail", [
    ({"type": "moderate"}, "unknown command type 'moderate'"),
    ({"type": ["claim"]}, "a command needs a 'type'"),
    ({}, "a command needs a 'type'"),
    ([], "a command must be a JSON object"),
])
def test_anything_else_is_refused(payload, detail):
    with pytest.raises(BadCommand, match=detail):
        parse_command(payload, 0)


def test_each_moderator_action_writes_a_moderator_event_and_each_such_event_has_its_action():
    assert {action.writes for action in MODERATOR_ACTION_LIST} == ev.MODERATOR_EVENTS
    assert list(MODERATOR_ACTIONS) == [action.name for action in MODERATOR_ACTION_LIST]


@pytest.mark.parametrize("name", COMMAND_TYPES)
def test_each_command_declares_its_fields_and_its_sample_uses_only_them(name):
    declared = {field.name for field in COMMAND_FIELDS[name].fields}
    assert set(SAMPLES[name]) <= declared


@pytest.mark.parametrize("payload, field", [
    ({"type": "end_turn", "foo": 1}, "foo"),
    ({"type": "attack", "from": "peru", "to": "brazil", "armies": 3}, "armies"),
    ({"type": "place", "placements": {"peru": 1}, "territory": "peru"}, "territory"),
])
def test_a_field_the_command_does_not_take_is_refused_by_name(payload, field):
    with pytest.raises(BadCommand, match=f"'{field}'"):
        parse_command(payload, 0)


def test_the_version_the_client_saw_goes_with_any_command():
    assert parse_command({"type": "end_turn", "expected_version": 4}, 0).seat == 0
