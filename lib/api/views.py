"""What every endpoint of the API shares: JSON in and out, the permission "read: anyone,
write: signed in", and the request body read as an object or checked by a serializer."""

from __future__ import annotations

from rest_framework import permissions
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.views import APIView

from lib.api.errors import LimitHit, error
from lib.api.parsers import StrictJSONParser
from lib.api.renderers import FastJSONRenderer


class JsonAnswers(DefaultContentNegotiation):
    """Every answer of the API is JSON (docs/bots/contract.md) whatever Accept says, so no renderer
    is chosen per request (DRF's IgnoreClientContentNegotiation); a body still goes to the
    parser its Content-Type names."""

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


# Every call of the API: bodies are JSON (anything else is a 400, lib.api.errors.handle),
# and so are answers (Swagger UI at /api/v1/docs/ is for people). (A comment, not a
# docstring: the schema takes a view's docstring, inherited too, as what its operations do.)
class ApiView(APIView):

    parser_classes = [StrictJSONParser]
    renderer_classes = [FastJSONRenderer]
    content_negotiation_class = JsonAnswers

    def check_throttles(self, request):
        """As DRF's (every limit counted, the longest wait said), naming the limit hit."""
        refused = [(throttle, throttle.wait()) for throttle in self.get_throttles()
                   if not throttle.allow_request(request, self)]
        if refused:
            self.throttled_by(refused)

    def throttled_by(self, refused: list) -> None:
        """Refuse with 429 for these (throttle, wait) pairs: the one that waits longest."""
        throttle, wait = max(refused, key=lambda pair: pair[1] or 0)
        rate = throttle.get_rate() if hasattr(throttle, "get_rate") else None
        raise LimitHit(wait, getattr(throttle, "scope", "") or type(throttle).__name__, rate)


def body(request) -> dict:
    return request.data if isinstance(request.data, dict) else {}


def parsed(serializer_class, request):
    serializer = serializer_class(data=request.data if isinstance(request.data, dict) else {})
    if not serializer.is_valid():
        return None, error(400, "bad_request", _first_problem(serializer.errors))
    return serializer.validated_data, None


def _first_problem(errors) -> str:
    return "; ".join(f"{field}: {' '.join(str(m) for m in messages)}"
                     for field, messages in errors.items())


class ReadAnyoneWriteSignedIn(permissions.BasePermission):
    def has_permission(self, request, view):
        return request.method in permissions.SAFE_METHODS or request.user.is_authenticated
