"""What other apps add to a mail as it is rendered, declared in the wiring's MAIL_PARTS
(config/reactions.py): the notifications app renders the mail and knows none of them."""

from __future__ import annotations

from lib.reactions import wired
from notifications.models import Notification


def mail_parts(notifications: list[Notification], seats: dict) -> dict[int, dict]:
    """What the apps declared in the wiring's MAIL_PARTS add to these mails' context:
    each part is a function of (notifications, {(game id, user id): seat}) giving {mail id:
    {name: value}} for the mails it adds to; a mail takes every part's additions."""
    found: dict[int, dict] = {}
    for part in wired("MAIL_PARTS"):
        for pk, added in part(notifications, seats).items():
            found.setdefault(pk, {}).update(added)
    return found
