"""Events told in words for people: the game log, turn mails, replies to mailed moves.

Works on events already redacted for the reader, so it can only tell what they may know.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.rules.board import COLORS, territory_name
from games.web.names import FINISH_REASONS


def seat_name(seat, names: dict) -> str:
    if seat == "neutral" or seat is None:
        return _("Neutral")
    colour = _(COLORS[seat].capitalize())
    username = names.get(seat)
    return f"{colour} ({username})" if username else colour


def _places(placements: dict) -> str:
    return ", ".join(f"{n} {territory_name(t)}" for t, n in placements.items())


def describe(event: dict, names: dict) -> str | None:
    """One line for an event as its reader may see it, or None for bookkeeping events."""
    data, kind = event["data"], event["type"]
    who = seat_name(data.get("seat"), names) if "seat" in data else None
    if kind == "game_started":
        order = ", ".join(seat_name(s, names) for s in data["order"])
        return _("The game started. Turn order: %(order)s.") % {"order": order}
    if kind == "territory_claimed":
        return _("%(who)s claimed %(t)s.") % {"who": who, "t": territory_name(data["territory"])}
    if kind == "armies_placed":
        return _("%(who)s placed %(what)s.") % {"who": who, "what": _places(data["placements"])}
    if kind == "placement_submitted":
        return _("%(who)s handed in their placement.") % {"who": who}
    if kind == "capital_chosen":
        return _("%(who)s chose a capital.") % {"who": who}
    if kind == "turn_started":
        return _("Turn %(turn)s: %(who)s receives %(n)s armies.") % {
            "turn": data["turn"], "who": who, "n": data["total"]}
    if kind == "cards_traded":
        return _("%(who)s traded a set for %(n)s armies.") % {"who": who, "n": data["value"]}
    if kind == "battle":
        defender = seat_name(data.get("defender"), names)
        line = _("%(who)s attacked %(to)s from %(frm)s: %(a)s against %(d)s") % {
            "who": who, "to": territory_name(data["to"]), "frm": territory_name(data["from"]),
            "a": " ".join(map(str, data["attacker_dice"])),
            "d": " ".join(map(str, data["defender_dice"])),
        }
        losses = []
        if data["attacker_losses"]:
            losses.append(ngettext("%(who)s lost %(n)s", "%(who)s lost %(n)s",
                                   data["attacker_losses"]) % {
                "who": who, "n": data["attacker_losses"]})
        if data["defender_losses"]:
            losses.append(ngettext("%(who)s lost %(n)s", "%(who)s lost %(n)s",
                                   data["defender_losses"]) % {
                "who": defender, "n": data["defender_losses"]})
        line += ", " + ", ".join(losses)
        if data["conquered"]:
            line += ". " + _("%(t)s fell.") % {"t": territory_name(data["to"])}
        return line + ("" if data["conquered"] else ".")
    if kind == "occupied":
        return _("%(n)s armies moved into %(t)s.") % {
            "n": data["armies"], "t": territory_name(data["to"])}
    if kind == "fortified":
        return _("%(n)s armies moved from %(frm)s to %(to)s.") % {
            "n": data["armies"], "frm": territory_name(data["from"]),
            "to": territory_name(data["to"])}
    if kind == "card_drawn":
        return _("%(who)s drew a card.") % {"who": who}
    if kind == "capital_captured":
        return _("%(who)s captured the capital of %(owner)s, %(t)s.") % {
            "who": who, "owner": seat_name(data["owner"], names),
            "t": territory_name(data["territory"])}
    if kind == "player_eliminated":
        return _("%(who)s was eliminated by %(by)s.") % {
            "who": who, "by": seat_name(data["by"], names)}
    if kind == "player_dropped":
        if data.get("reason") == "resigned":
            return _("%(who)s resigned; their territories turn neutral.") % {"who": who}
        if "by" in data:  # a moderator's drop carries their note {by, reason}
            return _("A moderator removed %(who)s from the game; their territories turn "
                     "neutral.") % {"who": who}
        return _("%(who)s missed too many turns and was dropped; their territories turn "
                 "neutral.") % {"who": who}
    if kind == "turn_timed_out":
        return _("%(who)s missed the deadline (missed %(n)s in a row); the move was made "
                 "for them.") % {"who": who, "n": data["missed"]}
    if kind == "turn_ended":
        return None
    if kind == "attack_ended":
        return _("%(who)s stopped attacking.") % {"who": who}
    if kind == "defense_set":
        return None
    if kind == "game_finished":
        return _("The game is over: %(who)s wins (%(reason)s).") % {
            "who": seat_name(data["winner"], names), "reason": FINISH_REASONS.get(data["reason"], data["reason"])}
    return None


def happened_to(events: list[dict], seat: int, names: dict) -> list[str]:
    """What others did to `seat`: attacks on them, their eliminations, drops, timeouts."""
    lines = []
    for event in events:
        data = event["data"]
        touched = (
            (event["type"] == "battle" and data.get("defender") == seat)
            or event["type"] in ("player_eliminated", "player_dropped", "capital_captured",
                                 "game_finished")
            or (event["type"] == "turn_timed_out" and data["seat"] == seat)
        )
        if touched:
            line = describe(event, names)
            if line:
                lines.append(line)
    return lines
