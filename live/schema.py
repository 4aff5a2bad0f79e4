"""The streams in the OpenAPI schema (plain async views, which spectacular does not see): their
paths, formats, events with an example each, resuming and heartbeats (a spectacular hook)."""

from __future__ import annotations

import json

from django.conf import settings

from engine import events as ev
from lib.api import schema as api_schema
from live.views import CLOSE_REASONS, NDJSON, SSE

GAME_STREAM, USER_STREAM = "/api/v1/games/{game_id}/stream/", "/api/v1/stream/"

# Each event of the streams: its name, where it comes, what its data holds, and an example.
EVENTS = {
    "view": (GAME_STREAM, "First, once: the caller's game view (as GET /api/v1/games/{id}/).",
             {"id": 12, "version": 57, "phase": "attack", "current_seat": 1, "turn": 9}),
    "game_event": (GAME_STREAM, "Each new event of the game, as GET events/ shows it to the "
                   "caller; its id is the event's seq.",
                   {"seq": 58, "type": ev.BATTLE, "actor": 1, "at": "2026-05-01T10:00:00Z",
                    "data": {"seat": 1, "from": "alaska", "to": "kamchatka",
                             "attacker_dice": [6, 3, 2], "defender_dice": [4, 4],
                             "attacker_losses": 1, "defender_losses": 1,
                             "conquered": False}}),
    "chat": (GAME_STREAM, "A new line of the game's chat the caller may read (its id; read "
             "it with GET chat/).", {"line": 311}),
    "notice": (USER_STREAM, "Something for the caller: `kind` is your_move, game_started or "
               "game_finished (and others); `game` the game's id. Its id is the notice's id.",
               {"kind": "your_move", "game": 12, "deadline": "2026-05-02T10:00:00Z"}),
    "moves": (USER_STREAM, "Only with `?moves=1` (the site's pages ask so): the games "
              "waiting for the caller's move, and the caller's unread notifications "
              "(`unread`) and messages (`messages`), whenever one of them changes either "
              "way (a move of theirs in another tab, a clock's, a notice read elsewhere); "
              "never sent otherwise.",
              {"count": 2, "games": [12, 31], "unread": 3, "messages": 0}),
    "close": ("both", "The stream's last event; its `reason` says why: " + "; ".join(
        f"`{reason}`: {what}" for reason, what in CLOSE_REASONS.items()) + ".",
        {"reason": "max_lifetime"}),
}
# What each event's data is, in the schema (the others' are objects as their examples show).
DATA = {"view": "GameView", "game_event": "Event", "close": "StreamClose"}


def _sse(name: str, data: dict, seq=None) -> str:
    head = "" if seq is None else f"id: {seq}\n"
    return f"{head}event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def _ndjson(name: str, data: dict, seq=None) -> str:
    line = {"event": name, **({} if seq is None else {"id": seq}), "data": data}
    return json.dumps(line, separators=(",", ":"))


def _events_of(path: str) -> list[str]:
    return [name for name, (where, _, _) in EVENTS.items() if where in (path, "both")]


def _ids(name: str):
    return {"game_event": 58, "notice": 9051}.get(name)


def stream_operation(path: str) -> dict:
    names = _events_of(path)
    game = path == GAME_STREAM
    heartbeat = settings.CONQUEST_STREAM_HEARTBEAT_SECONDS
    about = "\n".join(f"- `{name}`: {EVENTS[name][1]}" for name in names)
    description = (
        ("Follow one game: first its view as the caller may see it, then every new event "
         "within a second of its move, and its chat lines. " if game else
         "Follow the caller's notices: whose move it is in which game, games started and "
         "finished; a fresh connection first sends a notice for each decision owed now. ")
        + f"Server-Sent Events (`{SSE}`, the default) or, with `Accept: {NDJSON}`, one JSON "
        "object a line, `{\"event\", \"id\"?, \"data\"}`.\n\nEvents:\n" + about +
        "\n\nResuming: send `Last-Event-ID` (EventSource does on reconnecting) or "
        "`?last_event_id=` with the last id received (" +
        ("a game event's seq" if game else "a notice id") + "); the stream sends what came "
        "after it and nothing twice. An id beyond " +
        ("the game's version" if game else "the caller's newest notice") + " is refused with "
        "400 (its events would be skipped): open the stream again without one.\n\n"
        f"Heartbeats: while nothing happens, at least every {heartbeat:g} s (setting "
        "CONQUEST_STREAM_HEARTBEAT_SECONDS): an SSE comment line `: heartbeat` (EventSource "
        "ignores it), and in NDJSON an empty line, which a client skips (do not parse it as "
        "JSON).\n\nLimits: at most CONQUEST_STREAMS_PER_USER "
        f"({settings.CONQUEST_STREAMS_PER_USER}) streams open at once per account (signed "
        "out: per address) on the whole site; one more is refused with 429 "
        "too_many_streams. A stream ends within seconds of its token being revoked or its "
        "session ending.")
    sse = "".join(_sse(name, EVENTS[name][2], _ids(name)) for name in names)
    ndjson = "\n".join([_ndjson(names[0], EVENTS[names[0]][2], _ids(names[0])), "",
                        *(_ndjson(n, EVENTS[n][2], _ids(n)) for n in names[1:])]) + "\n"
    line_schema = {"type": "object", "required": ["event", "data"], "properties": {
        "event": {"type": "string", "enum": names},
        "id": {"type": "integer", "description": "The id to resume after"},
        "data": {"anyOf": [{"$ref": f"#/components/schemas/{DATA[n]}"} for n in names
                           if n in DATA] + [{"type": "object"}],
                 "description": "; ".join(f"{n}: {DATA.get(n, 'an object')}" for n in names)}}}
    operation = {
        "operationId": "api_v1_games_stream" if game else "api_v1_stream",
        "summary": "Follow a game as it is played" if game else "Follow your notices",
        "description": description,
        "tags": ["streams"],
        "security": [{"tokenAuth": []}, {"cookieAuth": []}, {}] if game else
        [{"tokenAuth": []}, {"cookieAuth": []}],
        "parameters": [
            *([{"name": "game_id", "in": "path", "required": True,
                "schema": {"type": "integer"}}] if game else []),
            {"name": "Last-Event-ID", "in": "header", "required": False,
             "schema": {"type": "integer", "minimum": 0},
             "description": "Resume after this id"},
            {"name": "last_event_id", "in": "query", "required": False,
             "schema": {"type": "integer", "minimum": 0},
             "description": "The same, for a new EventSource"},
            *([] if game else [{"name": "moves", "in": "query", "required": False,
                                "schema": {"type": "string", "enum": ["1"]},
                                "description": "1: also `event: moves` (the site's pages)"}]),
            {"name": "Accept", "in": "header", "required": False,
             "schema": {"type": "string", "enum": [SSE, NDJSON], "default": SSE}},
        ],
        "responses": {"200": {
            "description": "The stream, open until the client or the server closes it",
            "headers": {"Cache-Control": {"schema": {"type": "string",
                                                     "example": "no-cache, no-store"}}},
            "content": {
                SSE: {"schema": {"type": "string"}, "example": sse},
                NDJSON: {"schema": {"type": "string", "description": "One JSON object a "
                                    "line (StreamEvent), or an empty line: a heartbeat"},
                         "example": ndjson},
            }}},
    }
    # Last-Event-ID not a whole number, or beyond what the stream has sent
    api_schema.refuse(operation, 400, ["bad_request"])
    api_schema.refuse(operation, 401, ["authentication_failed"] +
                      ([] if game else ["not_authenticated"]))
    if game:
        api_schema.refuse(operation, 404, ["not_found"])
    api_schema.refuse(operation, 429, ["too_many_streams"])
    api_schema.refuse(operation, 503, ["unavailable"])  # a server that does not stream
    return operation, line_schema


def describe_streams(result, generator, request, public):
    """Spectacular postprocessing hook: the two streams' paths."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["StreamClose"] = {
        "type": "object", "required": ["reason"], "description": "The data of `event: close`",
        "properties": {"reason": {"type": "string", "enum": list(CLOSE_REASONS),
                                  "description": "; ".join(f"`{reason}`: {what}" for reason,
                                                           what in CLOSE_REASONS.items())}}}
    for path in (USER_STREAM, GAME_STREAM):
        operation, line = stream_operation(path)
        result.setdefault("paths", {})[path] = {"get": operation}
        schemas["StreamEvent" if path == GAME_STREAM else "StreamNotice"] = line
    return result
