"""The command section of the OpenAPI schema: one schema per command type, chosen by `type`,
each built from the engine's declaration of the command's fields (a spectacular hook)."""

from __future__ import annotations

from engine import commands as c
from engine.errors import (
    BadRules,
    ModerationRefused,
    NotSeated,
    NotYourTurn,
    RuleViolation,
)
from lib.api import schema as api_schema

COMMANDS_PATH = "/api/v1/games/{game_id}/commands/"

# What each kind of field holds, in JSON Schema.
_TERRITORY = {"type": "string", "maxLength": 100,
              "description": "A territory id of the game's map (GET /api/v1/maps/{id}/)"}
_ARMIES = {"type": "integer", "minimum": 1}
KINDS = {
    c.TERRITORY: _TERRITORY,
    c.ARMIES: _ARMIES,
    c.PLACEMENTS: {"type": "object", "minProperties": 1,
                   "additionalProperties": _ARMIES,
                   "description": "territory id: armies"},
    c.CARDS: {"type": "array", "items": {"type": "integer"}, "minItems": 3, "maxItems": 3},
    c.DICE: {"type": "integer", "minimum": 1, "maximum": 3},
    c.FLAG: {"type": "boolean", "default": False},
    c.POLICY: {"type": "string", "enum": list(c.POLICIES)},
    c.MOVES: {"type": "array", "minItems": 1, "items": {
        "type": "object", "required": ["to", "armies"], "additionalProperties": False,
        "properties": {"to": _TERRITORY, "armies": _ARMIES}}},
}

# A value of each field for the examples, by field name (a classic-board move).
EXAMPLE_VALUES = {
    "territory": "alaska", "from": "alaska", "to": "kamchatka",
    "placements": {"alaska": 3, "alberta": 2}, "cards": [4, 17, 30], "armies": 3,
    "policy": "one",
    "moves": [{"to": "alberta", "armies": 2}, {"to": "kamchatka", "armies": 1}],
}

EXPECTED_VERSION = {
    "type": "integer", "minimum": 0,
    "description": "Optional. The game's version the client saw (the view's `version`): if "
                   "the game has moved on, 409 version_conflict with `current_version` and "
                   "nothing is applied. Without it the command applies to the game as it is "
                   "now.",
}


def schema_name(kind: str) -> str:
    return "Command" + "".join(part.title() for part in kind.split("_"))


def example(kind: str) -> dict:
    """A command of this type as a client sends it (only what it needs: one alternative of
    fortify's, no optional field)."""
    shape = c.COMMAND_FIELDS[kind]
    wanted = [f.name for f in shape.fields if f.required]
    if shape.one_of:
        wanted += list(shape.one_of[0])
    return {"type": kind, **{name: EXAMPLE_VALUES[name] for name in wanted},
            "expected_version": 57}


def command_schema(kind: str) -> dict:
    shape = c.COMMAND_FIELDS[kind]
    properties = {"type": {"type": "string", "enum": [kind]},
                  "expected_version": EXPECTED_VERSION}
    for field in shape.fields:
        properties[field.name] = {**KINDS[field.kind], "description": field.about}
    schema = {
        "type": "object", "title": kind, "description": shape.about,
        "properties": properties,
        "required": ["type", *(f.name for f in shape.fields if f.required)],
        # A field the command does not take is refused (400 bad_command), not ignored.
        "additionalProperties": False,
        "examples": [example(kind)],
    }
    if shape.one_of:
        schema["oneOf"] = [{"required": list(group)} for group in shape.one_of]
    return schema


def command_schemas() -> dict:
    """Every command's schema and `Command`, the one of them its `type` names."""
    schemas = {schema_name(kind): command_schema(kind) for kind in c.COMMAND_TYPES}
    refs = {kind: f"#/components/schemas/{schema_name(kind)}" for kind in c.COMMAND_TYPES}
    schemas["Command"] = {
        "description": "One command; its `type` says which, and so which fields it takes. "
                       "A field its type does not take is refused (400 bad_command naming "
                       "it). Every command may carry `expected_version`.",
        "oneOf": [{"$ref": ref} for ref in refs.values()],
        "discriminator": {"propertyName": "type", "mapping": refs},
    }
    return schemas


def codes_of(family: type[RuleViolation]) -> set[str]:
    """The codes of a kind of refusal and of every kind under it."""
    found, pending = set(), [family]
    while pending:
        kind = pending.pop()
        found.add(kind.code)
        pending.extend(kind.__subclasses__())
    return found


def rule_codes(leave_out: set[str] = frozenset()) -> dict[int, list[str]]:
    """The error codes of the rules' refusals by HTTP status (games.api.errors answers
    someone else's turn and a seat not in the game with 403, the rest with 400)."""
    found = codes_of(RuleViolation) - leave_out
    forbidden = {NotYourTurn.code, NotSeated.code}
    return {400: sorted(found - forbidden), 403: sorted(forbidden)}


# What a command cannot be refused with: the rules of a new game, moderators' actions.
NOT_FROM_COMMANDS = codes_of(BadRules) | codes_of(ModerationRefused)


GAMES = "/api/v1/games/"
_GAME = GAMES + "{game_id}/"
# The refusals of the game operations besides every operation's (lib.api.schema's), by
# status: what the lobby and the rules answer.
GAME_ERRORS = {
    (COMMANDS_PATH, "post"): {
        **rule_codes(NOT_FROM_COMMANDS), 409: ["version_conflict"],
        # played_by_bot: a computer player took the seat over after too many missed turns.
        403: [*rule_codes()[403], "played_by_bot"]},
    (GAMES, "post"): {400: [*sorted(codes_of(BadRules)), "bad_clock", "bad_entropy"]},
    (GAMES, "get"): {400: ["bad_filter"], 401: ["not_authenticated"]},  # mine=1 signed out
    (_GAME + "join/", "post"): {
        400: ["game_not_open", "already_seated", "game_full", "bad_team", "team_full",
              "bad_entropy"],
        403: ["bots_not_allowed"]},
    (_GAME + "start/", "post"): {400: ["game_not_open", "not_enough_players"],
                                 403: ["not_creator"]},
    (_GAME + "bots/", "post"): {
        400: ["bad_request", "game_not_open", "game_full", "already_seated",
              "not_a_bot_account"],
        403: ["not_creator", "not_your_bot"]},
    (_GAME + "seats/", "post"): {400: ["bad_seats", "game_not_open"], 403: ["not_creator"]},
    (_GAME + "leave/", "post"): {400: ["game_not_open", "not_seated", "creator_cannot_leave"]},
    (_GAME + "cancel/", "post"): {400: ["game_not_open"], 403: ["not_creator"]},
    (_GAME + "invite/", "post"): {
        400: ["bad_request", "unknown_player", "game_not_open", "cannot_invite_yourself",
              "already_seated", "game_full", "already_invited", "invitation_declined",
              "too_many_invitations"],
        403: ["not_creator"]},
    (_GAME + "invite/", "get"): {403: ["not_creator"]},
    (_GAME + "withdraw/", "post"): {
        400: ["bad_request", "unknown_player", "not_invited"],
        403: ["not_creator"]},
    (_GAME + "decline/", "post"): {400: ["not_invited"]},
    (_GAME + "invite-link/", "post"): {400: ["not_private", "game_not_open"],
                                       403: ["not_creator"]},
    (_GAME + "rematch/", "get"): {404: ["no_rematch"]},
    (_GAME + "rematch/", "post"): {400: ["game_not_finished", "rematch_declined",
                                         "bad_entropy"], 403: ["not_seated"]},
    (_GAME + "rematch/decline/", "post"): {
        400: ["game_not_finished", "no_rematch", "rematch_started", "rematch_declined"],
        403: ["not_seated"]},
    ("/api/v1/account/bot/", "post"): {
        400: ["bad_request", "bad_owner", "already_bot", "staff_account", "has_played"]},
    ("/api/v1/account/bot/", "get"): {404: ["not_a_bot_account"]},
}


def describe_commands(result, generator, request, public):
    """Spectacular postprocessing hook (after lib.api.schema's): the command schemas, the
    commands operation, and what the game operations may be refused with."""
    result.setdefault("components", {}).setdefault("schemas", {}).update(command_schemas())
    result["components"]["schemas"].pop("CommandIn", None)
    api_schema.add_codes(result, [code for codes in rule_codes().values() for code in codes])
    paths = result.get("paths", {})
    for (path, method), refusals in GAME_ERRORS.items():
        operation = paths.get(path, {}).get(method)
        for status, codes in refusals.items() if operation else ():
            api_schema.refuse(operation, status, codes)
    operation = paths.get(COMMANDS_PATH, {}).get("post")
    if operation is not None:
        api_schema.refuse(operation, 400, ["bad_request"])  # a body that is not JSON
        operation["requestBody"] = {"required": True, "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Command"},
            "examples": {kind: {"value": example(kind), "summary": c.COMMAND_FIELDS[kind].about}
                         for kind in c.COMMAND_TYPES},
        }}}
    return result
