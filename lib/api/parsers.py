"""Request bodies of the JSON API: JSON only, and only JSON every part of the service can store."""

from __future__ import annotations

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils import json


def _has_surrogate(text: str) -> bool:
    return any("\ud800" <= char <= "\udfff" for char in text)


def _check_text(value) -> None:
    """Refuse lone surrogates (JSON's "\\ud800" escapes): no database stores them and no answer
    that echoes them could be encoded."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if _has_surrogate(item):
                raise ParseError("JSON parse error - the body holds a lone surrogate (\\ud800-\\udfff)")
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)


class StrictJSONParser(JSONParser):
    """DRF's JSON parser, refusing what would otherwise end in a 500: nesting too deep for
    Python's parser and text that is not valid Unicode."""

    def parse(self, stream, media_type=None, parser_context=None):
        # As JSONParser.parse, reading the body whole (its stream reader decoded it piece
        # by piece, five times the cost of parsing a command).
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            data = json.loads(stream.read().decode(encoding),
                              parse_constant=json.strict_constant if self.strict else None)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply") from None
        except ValueError as error:
            raise ParseError(f"JSON parse error - {error}") from None
        _check_text(data)
        return data
