"""The rule options and the events in the OpenAPI schema, each field typed, made from their
declarations (engine.options, engine.events), and the JSON Schema pieces the game view's schema
(games.api.view_schema) is built of."""

from __future__ import annotations

import dataclasses

from bots import LEVELS
from engine import commands as c
from engine import events as ev
from engine import options
from engine.pieces import COLORS, NEUTRAL

REF = "#/components/schemas/"


def ref(name: str) -> dict:
    return {"$ref": REF + name}


def nullable(schema: dict) -> dict:
    """The schema, or null (OpenAPI 3.1: a list of types; an enumeration or a reference as
    object or a reference as one of two schemas, which the client generators turn into one
    class, or None)."""
    if "$ref" in schema or "anyOf" in schema or "enum" in schema or \
            schema.get("type") == "object":
        return {"anyOf": [schema, {"type": "null"}]}
    return {**schema, "type": [schema["type"], "null"]}


def obj(properties: dict, required=(), description: str = "", example=None, **extra) -> dict:
    schema = {"type": "object", "properties": properties, "required": list(required), **extra}
    if description:
        schema["description"] = description
    if example is not None:
        schema["examples"] = [example]
    return schema


INT = {"type": "integer"}
COUNT = {"type": "integer", "minimum": 0}
BOOL = {"type": "boolean"}
TEXT = {"type": "string"}
WHEN = {"type": "string", "format": "date-time"}
SEAT = {"type": "integer", "minimum": 0, "maximum": len(COLORS) - 1,
        "description": "A seat, numbered from 0 in join order"}
TERRITORY = {"type": "string", "description": "A territory id of the game's map"}
TERRITORIES = {"type": "array", "items": TERRITORY}
SEATS = {"type": "array", "items": SEAT}
CARD_IDS = {"type": "array", "items": {"type": "integer", "minimum": 0}}
POLICY = {"type": "string", "enum": list(c.POLICIES)}
# What holds a territory or plays a battle: a seat, or the two-player game's neutral army.
# Enumerations named in the schema, so that a generated client names their classes.
ENUMS = {
    "Neutral": {"type": "string", "enum": [NEUTRAL],
                "description": "The neutral army of a two-player game"},
    "FinishReason": {"type": "string", "enum": ["domination", "mission", "capitals",
                                                "round_limit", "aborted"]},
    "SeatBot": {"type": "string", "enum": [*LEVELS, "account"],
                "description": "A computer player's level, or `account`: a bot account"},
}
HOLDER = {"anyOf": [SEAT, ref("Neutral")],
          "description": "A seat, or \"neutral\": the neutral army of a two-player game"}
ARMIES_BY_TERRITORY = {"type": "object", "additionalProperties": COUNT,
                       "description": "territory id: armies"}


# ---- the rule options, from engine.options' declaration ---------------------------------

def rule_schema(name: str, default) -> dict:
    if name in options.CHOICES:
        schema = {"type": "string", "enum": list(options.CHOICES[name])}
    elif name in options.SWITCHES:
        schema = dict(BOOL)
    elif name == "preset":
        return {**nullable({"type": "string", "enum": list(options.PRESETS)}), "default": None}
    elif name == "fixed_values":
        return obj({kind: {"type": "integer", "minimum": 1} for kind in default},
                   required=list(default), default=dict(default),
                   description="Under card_values fixed: what each kind of set is worth")
    else:  # the whole numbers; those without a default are off unless given
        schema = {"type": "integer", "minimum": 1}
        if default is None:
            schema = nullable(schema)
    return {**schema, "default": default}


def rules_schema() -> dict:
    defaults = options.Rules()
    names = [f.name for f in dataclasses.fields(options.Rules)]
    return obj({name: rule_schema(name, getattr(defaults, name)) for name in names},
               required=names, description="Every rule option of the game, its defaults "
               "filled in (a new game's `rules` takes any of them, or a `preset`).")


# ---- the events, from engine.events' declaration ----------------------------------------

# What each field of an event's data holds, by its name (engine.events.FIELDS names them per
# type). `count`: what a seat that may not see a shuffled deck's order sees instead.
EVENT_FIELDS = {
    "order": SEATS, "players": {"type": "integer", "minimum": 2},
    "rules": ref("Rules"), "game_id": TEXT, "engine": INT,
    "contributions": {"type": "array", "items": TEXT}, "contributors": SEATS,
    "map": TEXT, "map_hash": TEXT,
    "owners": {"type": "object", "additionalProperties": HOLDER,
               "description": "territory id: who holds it"},
    "seat": HOLDER, "territory": TERRITORY, "random": BOOL,
    "cards": {"anyOf": [CARD_IDS, COUNT], "description": "Card ids, or only how many for a "
              "seat that may not see them"},
    "count": COUNT, "missions": {"type": "array", "items": nullable(TEXT)},
    "placements": ARMIES_BY_TERRITORY, "auto": BOOL,
    "by": {"anyOf": [HOLDER, TEXT], "description": "The seat that did it, or the moderator"},
    "turn": COUNT, "base": COUNT, "total": COUNT,
    "continents": {"type": "object", "additionalProperties": COUNT,
                   "description": "continent id: its bonus"},
    "value": COUNT, "bonus": ARMIES_BY_TERRITORY,
    "from": TERRITORY, "to": TERRITORY, "defender": nullable(HOLDER),
    "attacker_dice": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6},
                      "description": "In the order drawn"},
    "defender_dice": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6}},
    "attacker_losses": COUNT, "defender_losses": COUNT, "conquered": BOOL, "armies": COUNT,
    "owner": HOLDER, "collapsed": TERRITORIES, "card": COUNT, "reason": TEXT,
    "cards_to": {"anyOf": [{"type": "string", "enum": ["deck"]}, SEAT]},
    "level": {"type": "string", "enum": list(LEVELS)}, "missed": COUNT,
    "policy": POLICY, "neutral": BOOL,
    "winner": nullable(SEAT), "team": nullable(COUNT), "winners": SEATS,
    "until": nullable(WHEN), "was": nullable(WHEN), "seats": SEATS,
    "message": INT, "author_seat": SEAT, "to_user_id": INT,
}


def event_data_schema() -> dict:
    by_type = {name: sorted(fields) for name, fields in ev.FIELDS.items()}
    by_type[ev.DECK_SHUFFLED] = [*by_type[ev.DECK_SHUFFLED], "count"]
    names = sorted({name for fields in by_type.values() for name in fields})
    return obj(
        {name: EVENT_FIELDS[name] for name in names},
        description="An event's data: the fields its type records (`x-fields-by-type`), "
        "reduced to what the caller may see: before the end another seat's cards and "
        "mission are left out or counted, and under fog what was out of the caller's sight "
        "(an event it could not see at all has `{}`). After the end nothing is hidden.",
        example={"seat": 1, "from": "alaska", "to": "kamchatka", "defender": 0,
                 "attacker_dice": [6, 3, 2], "defender_dice": [4, 4], "attacker_losses": 1,
                 "defender_losses": 1, "conquered": False},
        **{"x-fields-by-type": by_type})


def event_schema() -> dict:
    types = sorted(ev.EVENT_TYPES)
    return obj(
        {"seq": {"type": "integer", "minimum": 1,
                 "description": "From 1 in each game, with no gap"},
         "type": {"type": "string", "enum": types, "description": "; ".join(
             f"`{name}`: {ev.EVENT_TYPES[name].records}" for name in types)},
         "actor": nullable({**SEAT, "description": "The seat whose command made it"}),
         "at": WHEN, "data": ref("EventData")},
        required=["seq", "type", "actor", "data"],
        description="One event of a game's log, as the caller may see it.",
        example={"seq": 58, "type": ev.BATTLE, "actor": 1, "at": "2026-05-01T10:00:00+00:00",
                 "data": {"seat": 1, "from": "alaska", "to": "kamchatka", "defender": 0,
                          "attacker_dice": [6, 3, 2], "defender_dice": [4, 4],
                          "attacker_losses": 1, "defender_losses": 1, "conquered": False}})


