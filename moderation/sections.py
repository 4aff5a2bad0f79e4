"""What the other apps add to the moderators' queue: each registers, from its AppConfig's
ready(), a heading and a function of the moderator giving rows {url, name, note}, so that
moderation knows no app that uses it."""

from __future__ import annotations

from collections.abc import Callable

_SECTIONS: list[tuple[str, Callable]] = []


def register(heading, rows: Callable) -> None:
    if all(existing is not rows for _, existing in _SECTIONS):
        _SECTIONS.append((heading, rows))


def gathered(moderator) -> list[dict]:
    return [{"heading": heading, "rows": rows(moderator)} for heading, rows in _SECTIONS]
