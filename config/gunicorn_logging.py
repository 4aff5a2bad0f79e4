"""Gunicorn's access log without the secrets that mailed links carry in their paths."""

from __future__ import annotations

import re

from gunicorn.glogging import Logger

_SIGNED_PATH = re.compile(r"(/mail/(?:open|unsubscribe)/)[^/\s?\"]+")


def redact(text: str) -> str:
    return _SIGNED_PATH.sub(r"\1…", text)


class RedactingLogger(Logger):
    """Every access-log atom that holds the request's path shows a mail link's token as …"""

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for key, value in atoms.items():
            if isinstance(value, str) and "/mail/" in value:
                atoms[key] = redact(value)
        return atoms
