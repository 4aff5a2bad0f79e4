"""The game's refusals as API errors with docs/bots/contract.md's statuses; the rest is
lib.api.errors.handle's (settings.REST_FRAMEWORK's EXCEPTION_HANDLER is this one)."""

from __future__ import annotations

from engine.errors import NotSeated, NotYourTurn, RuleViolation
from games.errors import ServiceError
from games.store.append import VersionConflict
from lib.api import errors
from lib.api.errors import error


def handle(exc, context):
    if isinstance(exc, VersionConflict):
        return error(409, "version_conflict", str(exc), current_version=exc.current_version)
    if isinstance(exc, RuleViolation):
        forbidden = isinstance(exc, (NotYourTurn, NotSeated))
        return error(403 if forbidden else 400, exc.code, exc.detail)
    if isinstance(exc, ServiceError):
        return error(exc.status, exc.code, exc.detail)
    return errors.handle(exc, context)
