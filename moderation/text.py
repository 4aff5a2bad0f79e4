"""Checking the free text people type (chat lines, reasons, notes) before it is stored."""

from __future__ import annotations

import unicodedata

from games.errors import ServiceError


def clean_text(value, what: str, limit: int, *, lines: bool = True,
               required: bool = True) -> str:
    """The text as stored: trimmed, at most `limit` characters, no control characters but
    line breaks and tabs (PostgreSQL refuses NUL; the rest only hide things in pages)."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise ServiceError(400, "bad_request", f"the {what} must be text")
    value = value.replace("\r\n", "\n").replace("\r", "\n").strip()
    if required and not value:
        raise ServiceError(400, "bad_request", f"write a {what}")
    if len(value) > limit:
        raise ServiceError(400, "bad_request",
                           f"the {what} must be at most {limit} characters")
    allowed = "\n\t" if lines else "\t"
    if any(unicodedata.category(char) in ("Cc", "Cs") and char not in allowed
           for char in value):
        raise ServiceError(400, "bad_request", f"the {what} must not hold control characters")
    return value
