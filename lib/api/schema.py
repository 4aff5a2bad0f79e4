"""The refusals in the OpenAPI schema: `Error` with every code as an enum, and each operation
with the codes it can answer by status (a spectacular postprocessing hook). What every
operation shares is found here; what a view answers besides, it declares with @refuses."""

from __future__ import annotations

from rest_framework import permissions

from lib.api.errors import _CODES

# Every code the API answers besides the rules' own (the games' hook adds those), by status.
# A test reads the source for the codes it raises and finds each here.
CODES: dict[int, tuple[str, ...]] = {
    400: (
        "already_bot", "already_entered", "already_invited", "already_reported",
        "already_seated", "already_voided", "bad_clock", "bad_credentials", "bad_entropy",
        "bad_filter", "bad_owner", "bad_request", "bad_rules", "bad_seats", "bad_team",
        "bad_vacation", "cannot_invite_yourself", "chat_closed", "creator_cannot_leave",
        "email_taken", "game_full", "game_not_active", "game_not_finished", "game_not_open",
        "has_played", "invitation_declined", "moderation_refused", "no_rematch",
        "not_a_bot_account", "not_enough_players", "not_entered", "not_held_up",
        "not_invited", "not_private", "not_seated", "push_service_refused",
        "rematch_declined", "rematch_started", "signup_closed", "signup_not_open",
        "staff_account", "team_full", "too_many_invitations", "tournament_full",
        "tournament_over", "unknown_player", "username_taken",
    ),
    401: ("authentication_failed", "not_authenticated"),
    403: ("blocked", "bots_not_allowed", "forbidden", "not_creator", "not_delivered",
          "not_eligible", "not_moderator", "not_seated", "not_your_bot", "own_game",
          "played_by_bot"),
    404: ("no_rematch", "not_a_bot_account", "not_found"),
    405: ("method_not_allowed",),
    409: ("game_not_finished", "push_off", "version_conflict"),
    429: ("rate_limited", "throttled", "too_many_attempts", "too_many_streams"),
    503: ("unavailable",),
}

WHY = {400: "Refused: a malformed request, or one the game's state does not allow",
       401: "Not signed in, or a token or session that is not valid",
       403: "Not yours to do", 404: "No such resource (or not one you may see)",
       405: "Not a method of this path", 409: "Conflict with the current state",
       429: "Too many requests: wait the seconds Retry-After says",
       503: "The service is unavailable for now (the database is unreachable): wait the "
            "seconds Retry-After says"}

RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait before trying again",
                               "schema": {"type": "integer"}}}


def all_codes(result) -> list[str]:
    return result["components"]["schemas"]["Error"]["properties"]["error"].get("enum", [])


def add_codes(result, more) -> None:
    """Add codes to the Error schema's enum."""
    error = result["components"]["schemas"]["Error"]["properties"]["error"]
    error["enum"] = sorted(set(error.get("enum", ())) | set(more))


def refuse(operation: dict, status: int, codes) -> None:
    """Say that `operation` answers `status` with these codes (besides those it had)."""
    response = operation.setdefault("responses", {}).setdefault(str(status), {})
    codes = sorted(set(response.get("x-error-codes", ())) | set(codes))
    response["description"] = f"{WHY.get(status, 'Refused')}: " + ", ".join(
        f"`{code}`" for code in codes)
    response["x-error-codes"] = codes
    response["content"] = {"application/json": {"schema": {"allOf": [
        {"$ref": "#/components/schemas/Error"},
        {"type": "object", "properties": {"error": {"type": "string", "enum": codes}}},
    ]}}}
    if status in (429, 503):
        response["headers"] = RETRY_AFTER


def refuses(refusals: dict[int, tuple[str, ...] | list[str]]):
    """Declare beside a view's method the refusals it (or a service it calls) answers
    besides those every operation shares, by status: describe_errors puts them on its
    operation. A test reads each app's source for the codes it raises and finds each on one
    of the app's operations."""
    def declare(method):
        method.refusals = {status: tuple(codes) for status, codes in refusals.items()}
        return method
    return declare


def declared(view_class, method: str) -> dict[int, tuple[str, ...]]:
    """What the view's method declares with @refuses."""
    return getattr(getattr(view_class, method.lower(), None), "refusals", {})


def _view_class(callback):
    return getattr(callback, "cls", None)


def _signed_in_only(view_class, method: str) -> bool:
    if view_class is None:
        return False
    for permission in view_class.permission_classes:
        if issubclass(permission, permissions.IsAuthenticated):
            return True
        if permission.__name__ == "ReadAnyoneWriteSignedIn" and method not in (
                "GET", "HEAD", "OPTIONS"):
            return True
    return False


def _throttled(view_class, method: str) -> bool:
    if view_class is None:
        return False
    return bool(view_class.throttle_classes) or (
        "get_throttles" in vars(view_class) and method == "POST")


def describe_errors(result, generator, request, public):
    """Spectacular postprocessing hook: what every operation may be refused with."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["Error"] = {
        "type": "object", "required": ["error", "detail"],
        "description": "Every refusal: a code a program can act on and a sentence for people.",
        "properties": {"error": {"type": "string"}, "detail": {"type": "string"}},
    }
    add_codes(result, [code for codes in CODES.values() for code in codes])
    add_codes(result, _CODES.values())
    views = {(path, method): _view_class(callback)
             for path, _, method, callback in getattr(generator, "endpoints", None) or ()}
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            view_class = views.get((path, method.upper()))
            for status in [s for s in operation["responses"] if s.startswith(("4", "5"))]:
                del operation["responses"][status]  # said again below, with its codes
            wants_body = "requestBody" in operation or any(
                p.get("in") == "query" for p in operation.get("parameters", ()))
            if wants_body:
                refuse(operation, 400, ["bad_request"])
            refuse(operation, 401, ["authentication_failed"])
            if _signed_in_only(view_class, method.upper()):
                refuse(operation, 401, ["not_authenticated"])
            if "{" in path:
                refuse(operation, 404, ["not_found"])
            if _throttled(view_class, method.upper()):
                refuse(operation, 429, ["throttled"])
            refuse(operation, 503, ["unavailable"])
            for status, codes in declared(view_class, method).items():
                refuse(operation, status, codes)
    return result
