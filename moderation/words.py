"""Events told in words for the moderators' pages and the admin: the moderation events
(which games.narrate leaves out) and, for everything else, games.narrate.describe.

Works on events already redacted for a spectator, so it can only tell what anyone may know.
"""

from __future__ import annotations

from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _

from games import narrate, rules
from games.upcasters import current_version, upcast

# The event types a moderator's action writes; each carries {by, reason}.
MODERATOR_EVENTS = ("game_paused", "game_resumed", "game_aborted", "moderator_ended_turn",
                    "player_dropped", "deadline_extended", "player_replaced", "chat_hidden")


def _when(text) -> str:
    moment = parse_datetime(text) if isinstance(text, str) else None
    return date_format(localtime(moment), "j M Y, H:i T") if moment else "?"


def moderator_sentence(kind: str, data: dict, names: dict) -> str | None:
    """The sentence for an event a moderator wrote, or None for any other event."""
    values = {"by": data.get("by", "?")}
    if kind == "game_paused":
        return _("Moderator %(by)s paused the game.") % values
    if kind == "game_resumed":
        return _("Moderator %(by)s resumed the game.") % values
    if kind == "game_aborted":
        return _("Moderator %(by)s ended the game without a winner.") % values
    if kind == "moderator_ended_turn":
        return _("Moderator %(by)s ended the turn of an absent player.") % values
    # A moderator's drop carries their note {by, reason} in place of the reason "moderator".
    if kind == "player_dropped" and "by" in data:
        return _("Moderator %(by)s removed %(who)s from the game; their territories turn "
                 "neutral.") % {**values, "who": narrate.seat_name(data.get("seat"), names)}
    if kind == "deadline_extended":
        return _("Moderator %(by)s extended the deadline to %(until)s.") % {
            **values, "until": _when(data.get("until"))}
    if kind == "player_replaced":
        return _("Moderator %(by)s handed seat %(seat)s from %(old)s to %(new)s.") % {
            **values, "seat": narrate.seat_name(data.get("seat"), {}),
            "old": data.get("from", "?"), "new": data.get("to", "?")}
    if kind == "chat_hidden":
        return _("Moderator %(by)s hid chat message #%(message)s by %(who)s.") % {
            **values, "message": data.get("message"),
            "who": narrate.seat_name(data.get("author_seat"), names)}
    return None


def describe(event: dict, names: dict) -> str:
    """One line for a redacted event dict ({seq, type, actor, data}), never empty."""
    kind, data = event["type"], event["data"]
    line = moderator_sentence(kind, data, names)
    if line is None:
        try:
            line = narrate.describe(event, names)
        except (KeyError, TypeError, IndexError):  # an event shape narrate does not know
            line = None
    if line is None:
        return kind.replace("_", " ").capitalize()
    if kind in MODERATOR_EVENTS and data.get("reason"):
        line += " " + _("Reason: %(reason)s") % {"reason": data["reason"]}
    return line


def spectator_event(stored, game) -> dict:
    """A stored games.models.Event as a spectator may see it (everything once it is over)."""
    data = stored.data
    if stored.schema_version != current_version(stored.type):
        data = upcast(stored.type, stored.schema_version, data)
    event = rules.Event(stored.seq, stored.type, data, stored.actor)
    return rules.redact_event(event, None, game.is_over)
