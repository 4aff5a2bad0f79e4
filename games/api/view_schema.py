"""The game view in the OpenAPI schema, typed to the last field: each part's JSON Schema with an
example, the 409 and 429 bodies, and the event lists' items (a spectacular hook). The rules and
the events are games.api.event_schema's. tests/games/test_api_view_schema.py holds live views
of every phase to it, every object closed."""

from __future__ import annotations

from django.conf import settings

from engine import commands as c
from engine.pieces import COLORS, SYMBOLS, WILD
from games.api.event_schema import (
    ARMIES_BY_TERRITORY,
    BOOL,
    CARD_IDS,
    COUNT,
    ENUMS,
    HOLDER,
    POLICY,
    SEAT,
    SEATS,
    TERRITORIES,
    TERRITORY,
    TEXT,
    WHEN,
    event_data_schema,
    event_schema,
    nullable,
    obj,
    ref,
    rules_schema,
)

# ---- the view's parts --------------------------------------------------------------------

CARD = obj({"id": COUNT, "territory": nullable(TERRITORY),
            "symbol": {"type": "string", "enum": [*SYMBOLS, WILD]}},
           required=["id", "territory", "symbol"], description="A territory card (a wild "
           "card has no territory)", example={"id": 4, "territory": "alaska",
                                               "symbol": "infantry"})

MISSION = obj({"id": TEXT, "description": TEXT,
               "effective": {"type": "string", "description": "The mission as it now stands "
                             "(a destroy mission whose target is gone falls back)"},
               "effective_description": TEXT},
              required=["id", "description", "effective", "effective_description"],
              example={"id": "europe_australia_plus_one", "description": "Conquer Europe and "
                       "Australia and one more continent of your choice",
                       "effective": "europe_australia_plus_one", "effective_description":
                       "Conquer Europe and Australia and one more continent of your choice"})

ROUTES = {"type": "object", "additionalProperties": TERRITORIES,
          "description": "source territory id: the territories it may reach"}
LEGAL = obj({"commands": {"type": "array", "items": {"type": "string",
                                                      "enum": list(c.COMMAND_TYPES)}},
             "attack": ROUTES, "fortify": ROUTES},
            required=["commands", "attack", "fortify"],
            description="What the caller may send now: the command types (set_defense and "
            "resign always, while seated and in), and for attack and fortify each source "
            "with its targets.",
            example={"commands": ["attack", "end_attack", "fortify", "end_turn",
                                  "set_defense", "resign"],
                     "attack": {"alaska": ["kamchatka"]}, "fortify": {"alaska": ["alberta"]}})

OCCUPATION = obj({"from": TERRITORY, "to": TERRITORY, "min": COUNT, "max": COUNT},
                 required=["from", "to", "min", "max"],
                 example={"from": "alaska", "to": "kamchatka", "min": 3, "max": 7})

PENDING = obj(
    {"reinforcements": {**COUNT, "description": "Armies the caller must place now (in setup "
                        "this placement's batch, or all of them under simultaneous placement; "
                        "under neutral_place the neutral's)"},
     "must_trade": {**BOOL, "description": "A set must be traded before placing"},
     "occupy": {**nullable(ref("Occupation")), "description": "After the caller's conquest: "
                "how many armies may move in"}},
    required=["reinforcements", "must_trade", "occupy"],
    description="What the caller owes now, whatever the phase (0, false, null: nothing).",
    example={"reinforcements": 0, "must_trade": False, "occupy": None})

YOU = obj(
    {"seat": SEAT, "color": {"type": "string", "enum": list(COLORS)},
     "cards": {"type": "array", "items": ref("Card")},
     "mission": nullable(ref("Mission")), "capital": nullable(TERRITORY),
     "defense": {**POLICY, "description": "Your standing order for defence dice"},
     "neutral_defense": {**POLICY, "description": "The neutral's, where you choose it"},
     "hidden_placement": {**nullable(ARMIES_BY_TERRITORY), "description": "Simultaneous "
                          "placement: yours, handed in and not yet disclosed"},
     "tradeable_sets": {"type": "array", "items": {**CARD_IDS, "minItems": 3, "maxItems": 3},
                        "description": "The sets your hand holds (card ids), each a trade"},
     "may": ref("Legal"), "team": nullable(COUNT)},
    required=["seat", "color", "cards", "mission", "capital", "defense"],
    description="The caller's own seat (only for a seated caller): its hand, mission, capital "
    "and what it may do; before the game starts only the first six fields.",
    example={"seat": 1, "color": "blue", "cards": [{"id": 4, "territory": "alaska",
                                                      "symbol": "infantry"}],
             "mission": None, "capital": None, "defense": "max", "neutral_defense": "max",
             "hidden_placement": None, "tradeable_sets": [], "team": None,
             "may": {"commands": ["end_turn", "set_defense", "resign"], "attack": {},
                     "fortify": {}}})

PLAYER = obj(
    {"seat": SEAT, "username": nullable(TEXT), "color": {"type": "string", "enum": list(COLORS)},
     "territories": {**nullable(COUNT), "description": "null under fog for another team"},
     "armies": {**nullable(COUNT), "description": "null under fog for another team"},
     "cards": {**COUNT, "description": "How many cards the seat holds"},
     "eliminated": BOOL, "dropped": BOOL, "missed_turns": COUNT,
     "bot": {**nullable(ref("SeatBot")),
             "description": "A computer player's level, `account` for a bot account, null "
             "for a person"},
     "owner": {**TEXT, "description": "A bot account's owner"},
     "team": nullable(COUNT), "defense": POLICY,
     "unplaced": {**COUNT, "description": "Starting armies not placed yet"},
     "ready": {**BOOL, "description": "Has handed in this simultaneous setup step"},
     "hand": {"type": "array", "items": ref("Card"), "description": "A teammate's cards, "
              "or everyone's once the game is over"},
     "mission": {**nullable(ref("Mission")), "description": "Once the game is over"},
     "capital": {**nullable(TERRITORY), "description": "Once the game is over"}},
    required=["seat", "username", "color", "territories", "armies", "cards", "eliminated",
              "dropped", "missed_turns", "bot", "team"],
    example={"seat": 0, "username": "ada", "color": "red", "territories": 14, "armies": 30,
             "cards": 2, "eliminated": False, "dropped": False, "missed_turns": 0,
             "bot": None, "team": None, "defense": "max", "unplaced": 0, "ready": False})

HOLDING = obj(
    {"owner": nullable(HOLDER), "armies": nullable(COUNT),
     "fog": {"type": "boolean", "enum": [True], "description": "Out of the caller's sight"}},
    required=["owner", "armies"], description="A territory: who holds it and with how many "
    "armies (null, null and fog true under fog of war; null owner before the deal)",
    example={"owner": 0, "armies": 3})

CLOCK = obj({"time_zone": TEXT, "quiet_from": nullable({"type": "integer", "minimum": 0,
                                                         "maximum": 23}),
             "quiet_until": nullable({"type": "integer", "minimum": 0, "maximum": 23}),
             "weekends": BOOL}, required=["time_zone", "quiet_from", "quiet_until", "weekends"],
            description="When the clock rests: quiet hours in its time zone, and weekends",
            example={"time_zone": "Europe/Prague", "quiet_from": 22, "quiet_until": 7,
                     "weekends": False})

DESCRIBED_BY_SERIALIZER = ("id", "name", "map", "status", "version", "phase", "turn",
                           "turn_seat", "current_seat")


def game_view_schema(declared: dict) -> dict:
    """The game view: the serializer's fields (`declared`, their descriptions) and the rest."""
    kept = {name: declared["properties"][name] for name in DESCRIBED_BY_SERIALIZER}
    properties = {
        **kept,
        "turn_seat": {**nullable(SEAT), "description": kept["turn_seat"]["description"]},
        "current_seat": {**nullable(SEAT), "description": kept["current_seat"]["description"]},
        "rules": ref("Rules"),
        "map_hash": {**TEXT, "description": "The version of the map played (its content's "
                     "SHA-256): GET /api/v1/maps/{id}/versions/{hash}/"},
        "deadline_seconds": {"type": "integer", "minimum": 10},
        "deadline": {**nullable(WHEN), "description": "When the decision owed now falls due"},
        "seed_hash": {**TEXT, "description": "SHA-256 hex of the server seed"},
        "seats_wanted": {"type": "integer", "minimum": 2, "maximum": 6},
        "clock": ref("Clock"),
        "creator": nullable(TEXT),
        "rated": {**BOOL, "description": "Whether the game moves ratings"},
        "bots_allowed": {**BOOL, "description": "Bot accounts may join by themselves"},
        "private": {**BOOL, "description": "Joined only by invitation"},
        "invitation_token": {**TEXT, "description": "A private game's link token, shown to "
                             "its creator only"},
        "round": {**COUNT, "description": "Rounds of play begun"},
        "conquered": {**BOOL, "description": "The player whose turn it is has conquered a "
                      "territory in it: a card is due"},
        "order": {**SEATS, "description": "The turn order"},
        "winner": nullable(SEAT),
        "winners": {**nullable(SEATS), "description": "Every seat that won: a whole team in "
                    "a team game"},
        "winning_team": nullable(COUNT),
        "paused": {**BOOL, "description": "A moderator stopped play and the clock"},
        "finish_reason": {**nullable(ref("FinishReason")),
                          "description": "Why the game ended"},
        "fog": {**BOOL, "description": "The caller's view is fogged"},
        "players": {"type": "array", "items": ref("Player")},
        "territories": {"type": "object", "additionalProperties": ref("Holding"),
                        "description": "territory id: who holds it, with how many armies"},
        "pending": ref("Pending"),
        "sets_traded": COUNT,
        "next_set_value": nullable(COUNT),
        "deck_size": {**COUNT, "description": "Cards left in the draw pile"},
        "discard_size": COUNT,
        "trade_limit": {**nullable(COUNT), "description": "A trade owed mid-turn (an "
                        "elimination, the hand limit): trade down to this many cards"},
        "capitals": {"type": "object", "additionalProperties": HOLDER,
                     "description": "territory id: whose capital it is, for the capitals "
                     "the caller may know of"},
        "you": nullable(ref("You")),
    }
    required = ["id", "name", "map", "status", "version", "rules", "phase", "turn",
                "current_seat", "deadline", "winner", "players", "territories", "pending",
                "sets_traded", "next_set_value", "seed_hash", "you", "deadline_seconds",
                "seats_wanted", "clock", "creator", "rated", "bots_allowed"]
    return obj(properties, required, description=declared.get("description", ""),
               example=VIEW_EXAMPLE)


VIEW_EXAMPLE = {
    "id": 12, "name": "Friday game", "map": "classic", "status": "active", "version": 57,
    "rules": {"setup": "deal", "fog": False}, "phase": "attack", "turn": 9, "round": 3,
    "turn_seat": 1, "current_seat": 1, "deadline": "2026-05-02T10:00:00+00:00",
    "deadline_seconds": 86400, "seats_wanted": 3, "creator": "ada", "rated": True,
    "winner": None, "players": [], "territories": {"alaska": {"owner": 1, "armies": 4}},
    "pending": {"reinforcements": 0, "must_trade": False, "occupy": None},
    "sets_traded": 2, "next_set_value": 8, "seed_hash": "9f86d08188…", "you": None,
}

VERSION_CONFLICT = obj(
    {"error": {"type": "string", "enum": ["version_conflict"]}, "detail": TEXT,
     "current_version": {**COUNT, "description": "The game's version now: read the game "
                         "again and decide afresh"}},
    required=["error", "detail", "current_version"],
    description="A command's expected_version is not the game's: nothing was applied.",
    example={"error": "version_conflict", "detail": "the game is at version 58, not 57",
             "current_version": 58})

def rate_limited() -> dict:
    limits = ", ".join([*settings.CONQUEST_THROTTLE_RATES, "streams_per_user"])
    return obj(
        {"error": {"type": "string"}, "detail": TEXT,
         "limit": {"type": "string", "description": f"The limit that was hit: one of {limits} "
                   "(a rate's setting is CONQUEST_THROTTLE_ and its name in capitals, the "
                   "password resets' CONQUEST_THROTTLE_RESET_IP and _RESET_EMAIL; the "
                   "streams' CONQUEST_STREAMS_PER_USER)"},
         "rate": {"type": "string", "description": "Its rate, as `300/minute` (streams: how "
                  "many may be open at once)"},
         "retry_after": {**COUNT, "description": "Seconds to wait, as Retry-After says"}},
        required=["error", "detail"],
        description="Too many requests: `limit` names the limit hit (a throttled request, too "
        "many streams); wait the seconds Retry-After says.",
        example={"error": "throttled", "detail": "too many requests: the limit command_user "
                 "(300/minute) was reached; try again in 12 seconds", "limit": "command_user",
                 "rate": "300/minute", "retry_after": 12})


def schemas(declared_view: dict) -> dict:
    return {
        **ENUMS, "GameView": game_view_schema(declared_view), "Player": PLAYER, "Holding": HOLDING,
        "Pending": PENDING, "Occupation": OCCUPATION, "You": YOU, "Card": CARD,
        "Mission": MISSION, "Legal": LEGAL, "Clock": CLOCK, "Rules": rules_schema(),
        "Event": event_schema(), "EventData": event_data_schema(),
        "VersionConflict": VERSION_CONFLICT, "RateLimited": rate_limited(),
    }


RECORD_SEAT = ["seat", "username", "color", "bot", "owner"]
EVENT_LISTS = ("CommandOut", "EventsOut", "RecordOut")


def describe_view(result, generator, request, public):
    """Spectacular postprocessing hook: the game view, its rules and events typed, and the
    409 and 429 answers with their own bodies."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    if "GameView" not in components:
        return result
    components.update(schemas(components["GameView"]))
    for name in EVENT_LISTS:
        if name in components:
            components[name]["properties"]["events"] = {"type": "array", "items": ref("Event")}
    if "RecordOut" in components:
        components["RecordOut"]["properties"]["rules"] = {
            "type": "object", "description": "The rules as the game was created with them "
            "(the events' game_started has them all, defaults filled in)"}
        components["RecordOut"]["properties"]["seats"] = {"type": "array", "items": obj(
            {name: PLAYER["properties"][name] for name in RECORD_SEAT},
            required=RECORD_SEAT[:-1])}
    for item in result.get("paths", {}).values():
        for operation in item.values():
            responses = operation.get("responses", {}) if isinstance(operation, dict) else {}
            if "x-error-codes" in responses.get("409", {}) and \
                    "version_conflict" in responses["409"]["x-error-codes"]:
                _body(responses["409"], "VersionConflict")
            if "429" in responses:
                _body(responses["429"], "RateLimited")
    return result


def _body(response: dict, name: str) -> None:
    """The answer's body: `name`'s schema, its codes as the refusal listed them."""
    schema = response["content"]["application/json"]["schema"]
    schema["allOf"][0] = ref(name)

