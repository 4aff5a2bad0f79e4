"""Refusals of the game service that are not rules of the game (those are
engine.errors'): each carries the HTTP status to answer."""

from __future__ import annotations


class ServiceError(Exception):
    """A refusal that is not a rule of the game: status is the HTTP status to answer."""

    def __init__(self, status: int, code: str, detail: str):
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail
