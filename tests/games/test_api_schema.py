"""GET /api/v1/schema/: a valid OpenAPI document a bot can be written from: the streams, one
schema per command type under a discriminator, the enumerations and every refusal's codes;
and a body made from the schema alone, for each command type, is played."""

from __future__ import annotations

import random
import re
from itertools import combinations
from pathlib import Path

import pytest
from openapi_spec_validator import validate
from rest_framework.test import APIClient

from engine.moves import legal
from tests.games.api_support import PHASES, game_url, play, send
from tests.games_in_states import new_game

ROOT = Path(__file__).resolve().parents[2]
# The command types and the error codes the public contract names.
CONTRACT_COMMANDS = {"claim", "place", "choose_capital", "trade", "attack", "occupy",
                     "end_attack", "fortify", "end_turn", "place_neutral", "set_defense",
                     "resign"}
CONTRACT_CODES = {"not_your_turn", "wrong_phase", "unknown_territory", "not_owner",
                  "not_adjacent", "not_enough_armies", "bad_dice", "bad_cards", "must_trade",
                  "reinforcements_left", "bad_placement", "game_not_active",
                  "version_conflict"}


@pytest.fixture(scope="module")
def schema():
    answer = APIClient().get("/api/v1/schema/?format=json")
    assert answer.status_code == 200
    return answer.json()


def operations(schema):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


def resolve(schema, node: dict) -> dict:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def test_it_is_a_valid_openapi_3_1_document(schema):
    assert schema["openapi"].startswith("3.1")
    validate(schema)


@pytest.mark.parametrize("path", ["/api/v1/stream/", "/api/v1/games/{game_id}/stream/"])
def test_it_describes_each_stream_with_its_formats_events_and_limits(schema, path):
    stream = schema["paths"][path]["get"]
    content = stream["responses"]["200"]["content"]

    assert {"text/event-stream", "application/x-ndjson"} <= set(content)
    assert "event: " in content["text/event-stream"]["example"]
    assert "Last-Event-ID" in {p["name"] for p in stream["parameters"]}
    assert "heartbeat" in stream["description"].lower()
    assert "too_many_streams" in stream["responses"]["429"]["x-error-codes"]


def test_each_command_type_has_a_schema_chosen_by_type_with_an_example(schema):
    command = schema["components"]["schemas"]["Command"]
    mapping = command["discriminator"]["mapping"]

    assert command["discriminator"]["propertyName"] == "type"
    assert set(mapping) == CONTRACT_COMMANDS
    assert {one["$ref"] for one in command["oneOf"]} == set(mapping.values())
    for kind, ref in mapping.items():
        one = resolve(schema, {"$ref": ref})
        assert one["properties"]["type"]["enum"] == [kind]
        assert one["additionalProperties"] is False
        assert one["examples"][0]["type"] == kind
    body = schema["paths"]["/api/v1/games/{game_id}/commands/"]["post"]["requestBody"]
    assert body["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Command"}


def test_it_says_what_an_attack_without_dice_rolls_and_that_the_version_is_optional(schema):
    attack = schema["components"]["schemas"]["CommandAttack"]

    assert "dice" not in attack["required"] and "3" in attack["properties"]["dice"]["description"]
    assert "expected_version" not in attack["required"]
    assert "Optional" in attack["properties"]["expected_version"]["description"]


def test_phase_and_status_list_their_values(schema):
    view = schema["components"]["schemas"]["GameView"]["properties"]
    phase = resolve(schema, view["phase"].get("oneOf", [view["phase"]])[0])

    assert set(phase["enum"]) == PHASES - {None}
    assert set(resolve(schema, view["status"])["enum"]) == {
        "open", "active", "paused", "finished", "aborted"}
    assert "turn_seat" in view and "neutral_place" in view["current_seat"]["description"]


def test_the_error_codes_are_an_enum(schema):
    codes = schema["components"]["schemas"]["Error"]["properties"]["error"]["enum"]

    assert CONTRACT_CODES <= set(codes)
    assert {"bad_command", "throttled", "too_many_streams", "not_found"} <= set(codes)


def test_every_code_the_source_answers_is_in_the_enum(schema):
    codes = set(schema["components"]["schemas"]["Error"]["properties"]["error"]["enum"])
    raised = set()
    for package in ("accounts", "conversations", "games", "lib", "live", "moderation",
                    "notifications", "ratings", "tournaments"):
        for source in (ROOT / package).rglob("*.py"):
            raised |= set(re.findall(r"(?:ServiceError|error|Refused)\(\s*\d{3},\s*\"([a-z_]+)\"",
                                     source.read_text()))
    assert raised and raised <= codes, raised - codes


def test_every_operation_lists_its_refusals_with_their_codes(schema):
    for path, method, operation in operations(schema):
        refusals = {s: r for s, r in operation["responses"].items() if s[0] in "45"}
        assert "401" in refusals and "503" in refusals, (method, path)
        for status, response in refusals.items():
            codes = response["x-error-codes"]
            assert codes and all(f"`{code}`" in response["description"] for code in codes)
            shown = response["content"]["application/json"]["schema"]["allOf"][1]
            assert shown["properties"]["error"]["enum"] == codes, (method, path, status)


def test_the_commands_operation_lists_the_rules_refusals(schema):
    responses = schema["paths"]["/api/v1/games/{game_id}/commands/"]["post"]["responses"]

    assert {"wrong_phase", "bad_command", "bad_dice", "bad_request"} <= set(
        responses["400"]["x-error-codes"])
    assert "bad_rules" not in responses["400"]["x-error-codes"]  # a new game's, not a move's
    assert responses["403"]["x-error-codes"] == ["not_seated", "not_your_turn", "played_by_bot"]
    assert responses["409"]["x-error-codes"] == ["version_conflict"]
    assert "Retry-After" in responses["429"]["headers"]


def module_names() -> set[str]:
    names = set()
    for source in ROOT.rglob("*.py"):
        if ".venv" not in source.parts and "var" not in source.parts:
            names |= {source.stem, source.parent.name}
    return names - {"__init__", ""}


# The name of one of the repository's documents (an upper-case Markdown file): a client reads
# the schema, not the repository, so a description says the thing itself.
DOCUMENT = re.compile(r"\b[A-Z][A-Z_]*\.md\b")


def test_each_operation_says_what_it_does_without_naming_a_module(schema):
    modules = module_names()
    for path, method, operation in operations(schema):
        description = operation.get("description", "")
        assert description.strip(), (method, path)
        assert not DOCUMENT.search(description), (method, path, description)
        for first, _ in re.findall(r"\b([a-z_]+)\.([a-z_]+)\b", description):
            assert first not in modules, (method, path, description)


def descriptions(node, where=""):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "description" and isinstance(value, str):
                yield where, value
            else:
                yield from descriptions(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from descriptions(value, f"{where}/{index}")


def test_no_description_sends_the_reader_to_a_document_of_the_repository(schema):
    named = [(where, text) for where, text in descriptions(schema) if DOCUMENT.search(text)]

    assert not named


# ---- a bot that knows the schema only --------------------------------------------------

# Each command type, and the rules of a game in which it comes up.
GAMES = {
    "claim": {"setup": "claim"},
    "place": {},
    "choose_capital": {"setup": "random", "objective": "capitals", "neutral": False},
    "trade": {"setup": "random", "initial_placement": "simultaneous"},
    "attack": {"setup": "random", "initial_placement": "simultaneous"},
    "occupy": {"setup": "random", "initial_placement": "simultaneous"},
    "end_attack": {"setup": "random", "initial_placement": "simultaneous"},
    "fortify": {"setup": "random", "initial_placement": "simultaneous"},
    "end_turn": {"setup": "random", "initial_placement": "simultaneous"},
    "place_neutral": {"setup": "random", "initial_placement": "simultaneous"},
    "set_defense": {},
    "resign": {},
}


def value_for(name: str, field: dict, view: dict, kind: str):
    """What a bot puts in a field the schema names, read from the seat's view: the schema
    says the field's shape, the view what there is."""
    seat, may = view["you"]["seat"], view["you"]["may"]
    territories = view["territories"]
    own = [t for t, held in territories.items() if held["owner"] == seat]
    if "enum" in field:
        return field["enum"][0]
    if field["type"] == "object":  # placements: armies on territories
        holder = "neutral" if kind == "place_neutral" else seat
        where = next(t for t, held in territories.items() if held["owner"] == holder)
        return {where: max(field["additionalProperties"]["minimum"],
                           view["pending"]["reinforcements"])}
    if field["type"] == "array":  # three cards of the hand that make a set
        return next([card["id"] for card in three]
                    for three in combinations(view["you"]["cards"], field["minItems"])
                    if a_set(card["symbol"] for card in three))
    if field["type"] == "integer":
        occupy = view["pending"]["occupy"]
        return occupy["min"] if occupy else field["minimum"]
    routes = may.get(kind, {})
    if name == "from":
        return next(iter(routes))
    if name == "to":
        return next(iter(routes.values()))[0]
    free = [t for t, held in territories.items() if held["owner"] is None]
    return free[0] if kind == "claim" else own[0]


def a_set(symbols) -> bool:
    """Three of a kind, one of each, or any two with a wild."""
    symbols = list(symbols)
    return "wild" in symbols or len(set(symbols)) in (1, 3)


def body_from_schema(schema, kind: str, view: dict) -> dict:
    mapping = schema["components"]["schemas"]["Command"]["discriminator"]["mapping"]
    one = resolve(schema, {"$ref": mapping[kind]})
    wanted = [n for n in one["required"] if n != "type"]
    if "oneOf" in one:
        wanted += one["oneOf"][0]["required"]
    body = {"type": kind, "expected_version": view["version"]}
    for name in wanted:
        body[name] = value_for(name, one["properties"][name], view, kind)
    return body


def due(kind: str):
    def comes_up(state) -> bool:
        return any(kind in legal(state, seat)["commands"] for seat in range(2))
    return comes_up


@pytest.mark.parametrize("kind", sorted(CONTRACT_COMMANDS))
def test_a_body_made_from_the_schema_alone_is_played(schema, person, kind):
    alice, bob = person("alice"), person("bob")
    game_id = new_game(alice, bob, **GAMES[kind])
    state = play(game_id, {0: alice, 1: bob}, random.Random(kind), until=due(kind))
    seat = next(s for s in range(2) if kind in legal(state, s)["commands"])
    client = (alice, bob)[seat]
    view = client.get(game_url(game_id)).json()

    answer = send(client, game_id, body_from_schema(schema, kind, view))

    assert answer.status_code == 201, (answer.json(), body_from_schema(schema, kind, view))
    assert answer.json()["version"] > view["version"]
