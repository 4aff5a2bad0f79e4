"""The rules' OpenAPI schema, made from the declared options (engine.options.OPTIONS): each
option's type, default, choices and bounds. Checking them stays the engine's
(validate_rules), so a refusal reads the same from every door."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engine.options import DEFAULT_FIXED_VALUES, OPTIONS, PRESETS, Option


def option_schema(option: Option) -> dict:
    """One option as OpenAPI 3.0 describes a value."""
    if option.kind == "choice":
        schema = {"type": "string", "enum": list(option.choices)}
    elif option.kind == "switch":
        schema = {"type": "boolean"}
    elif option.kind == "number":
        schema = {"type": "integer", "minimum": option.low, "maximum": option.high}
    elif option.name == "fixed_values":
        schema = {"type": "object", "additionalProperties": False, "properties": {
            kind: {"type": "integer", "minimum": 1, "maximum": 1000, "default": value}
            for kind, value in DEFAULT_FIXED_VALUES.items()}}
    else:  # preset
        schema = {"type": "string", "enum": list(PRESETS)}
    if option.default is None:
        return {**schema, "nullable": True}
    return {**schema, "default": option.default}


RULES_SCHEMA = {
    "type": "object", "additionalProperties": False,
    "properties": {option.name: option_schema(option) for option in OPTIONS},
}


@extend_schema_field(RULES_SCHEMA)
class RulesField(serializers.DictField):
    """A game's rule options by name, each described in the schema as declared."""
