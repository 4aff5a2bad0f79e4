"""What the other apps add to the moderators' queue: the wiring (config/reactions.py,
MODERATION_SECTIONS) lists each app's heading and function of the moderator giving rows
{url, name, note}, so that moderation knows no app that uses it."""

from __future__ import annotations

from lib.reactions import wired


def gathered(moderator) -> list[dict]:
    return [{"heading": heading, "rows": rows(moderator)}
            for heading, rows in wired("MODERATION_SECTIONS")]
