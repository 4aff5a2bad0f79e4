"""Every API error is {"error": code, "detail": text} with the status docs/bots/contract.md gives: the
answer, its schema, and DRF's own exceptions translated (games.api.errors adds the game's)."""

from __future__ import annotations

from django.http import Http404, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

_CODES = {
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "forbidden",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.ParseError: "bad_request",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.Throttled: "throttled",
    exceptions.ValidationError: "bad_request",
}


class Error(serializers.Serializer):
    """The schema of every error answer."""
    error = serializers.CharField()
    detail = serializers.CharField()


class LimitHit(exceptions.Throttled):
    """A rate limit refused the request: its name (`limit`, a throttle's scope) and `rate`
    ("300/minute") go in the 429's body beside the wait, so a client knows which it hit."""

    def __init__(self, wait: float | None, limit: str, rate: str | None):
        super().__init__(wait)
        self.limit, self.rate = limit, rate


# The refusals most endpoints document in their schema.
ERRORS = {400: Error, 401: Error, 403: Error, 404: Error, 409: Error}


def error(status_code: int, code: str, detail: str, **extra) -> Response:
    return Response({"error": code, "detail": detail, **extra}, status=status_code)


def _flatten(detail) -> str:
    if isinstance(detail, dict):
        return "; ".join(f"{key}: {_flatten(value)}" for key, value in detail.items())
    if isinstance(detail, list):
        return " ".join(_flatten(item) for item in detail)
    return str(detail)


def handle(exc, context):
    """DRF's exceptions (and Django's 404) as {"error", "detail"}; None for the rest."""
    if isinstance(exc, Http404):
        exc = exceptions.NotFound("no such game")
    if isinstance(exc, exceptions.UnsupportedMediaType):
        # A body that is not JSON is a malformed request like any other (docs/bots/contract.md: 400).
        return error(400, "bad_request", f"the body must be JSON (application/json): {exc.detail}")
    response = exception_handler(exc, context)
    if response is None:
        return None
    code = next((c for kind, c in _CODES.items() if isinstance(exc, kind)), "error")
    response.data = {"error": code, "detail": _flatten(getattr(exc, "detail", str(exc)))}
    if isinstance(exc, LimitHit):
        wait = int(response.get("Retry-After", 1))
        response.data.update(
            detail=_("too many requests: the limit %(limit)s (%(rate)s) was reached; try "
                     "again in %(wait)s seconds") % {"limit": exc.limit, "rate": exc.rate,
                                                     "wait": wait},
            limit=exc.limit, rate=exc.rate, retry_after=wait)
    return response


@csrf_exempt  # like the API's own views: a POST to an unknown path is a 404, not a CSRF 403
def not_found(request, *args, **kwargs):
    return JsonResponse({"error": "not_found", "detail": "no such API resource"},
                        status=status.HTTP_404_NOT_FOUND)
