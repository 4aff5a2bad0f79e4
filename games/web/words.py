"""The game's log in words: one sentence per (already redacted) event of
services.event_dicts, e.g. "Red attacked Ukraine from Scandinavia: 6 5 2 against 4 1, Blue
lost 2"."""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.rules.board import CARDS, NEUTRAL, TERRITORIES

from .names import (
    DEFENSE_NAMES,
    FINISH_REASONS,
    continent_name,
    seat_color,
    seat_name,
    symbol_name,
    territory_name,
)


def _armies(n: int) -> str:
    return ngettext("%(count)d army", "%(count)d armies", n) % {"count": n}


def _placements(placements: dict) -> str:
    return ", ".join(f"{territory_name(t)} {n}" for t, n in placements.items())


def _dice(values) -> str:
    return " ".join(str(v) for v in values)


def card_text(card: int) -> str:
    territory, symbol = CARDS[card]
    if territory is None:
        return symbol_name(symbol)
    return f"{territory_name(territory)} ({symbol_name(symbol)})"


class OwnerTracker:
    """Who holds each territory as the log is read in order, to name the defender of a
    battle without replaying the whole game."""

    def __init__(self):
        self.owner = dict.fromkeys(TERRITORIES)

    def see(self, event: dict) -> None:
        kind, data = event["type"], event["data"]
        if kind == "territories_dealt":
            self.owner.update(data["owners"])
        elif kind == "territory_claimed":
            self.owner[data["territory"]] = data["seat"]
        elif kind == "battle" and data["conquered"]:
            self.owner[data["to"]] = data["seat"]
        elif kind == "capital_captured":
            for territory in data.get("collapsed", []):
                self.owner[territory] = data["seat"]
        elif kind == "player_dropped":
            for territory, owner in self.owner.items():
                if owner == data["seat"]:
                    self.owner[territory] = NEUTRAL


def describe(event: dict, owners: OwnerTracker | None = None) -> str:
    """One event as a sentence in the active language."""
    kind, data = event["type"], event["data"]
    if "by" in data:  # an action of a moderator (pause, drop, replace, hide a message...)
        from moderation.words import moderator_sentence

        sentence = moderator_sentence(kind, data, {})
        if sentence:
            return sentence
    who = seat_name(data.get("seat", event.get("actor")))
    if kind == "game_started":
        order = ", ".join(seat_name(s) for s in data["order"])
        return _("The game started. Turn order: %(order)s.") % {"order": order}
    if kind == "territories_dealt":
        return _("The territories were dealt out.")
    if kind == "territory_claimed":
        values = {"player": who, "territory": territory_name(data["territory"])}
        if data.get("random"):
            return _("%(player)s ran out of time and was given %(territory)s.") % values
        return _("%(player)s claimed %(territory)s.") % values
    if kind == "deck_shuffled":
        return _("The cards were shuffled.")
    if kind == "missions_dealt":
        return _("Secret missions were dealt.")
    if kind == "armies_placed":
        total = sum(data["placements"].values())
        values = {"player": who, "armies": _armies(total),
                  "where": _placements(data["placements"])}
        if data.get("seat") == NEUTRAL:
            if data.get("auto"):
                return _("The neutral's %(armies)s were spread: %(where)s.") % values
            values["player"] = seat_name(data.get("by"))
            return _("%(player)s placed %(armies)s for the neutral: %(where)s.") % values
        if data.get("random"):
            return _("%(player)s's %(armies)s were placed at random: %(where)s.") % values
        if data.get("auto"):
            return _("%(player)s's %(armies)s were placed automatically: %(where)s.") % values
        return _("%(player)s placed %(armies)s: %(where)s.") % values
    if kind == "placement_submitted":
        return _("%(player)s handed in their starting placement.") % {"player": who}
    if kind == "capital_chosen":
        if "territory" in data:
            return _("%(player)s chose %(territory)s as capital.") % {
                "player": who, "territory": territory_name(data["territory"])}
        return _("%(player)s chose a capital in secret.") % {"player": who}
    if kind == "turn_started":
        bonus = ", ".join(f"{continent_name(c)} +{b}" for c, b in data["continents"].items())
        values = {"turn": data["turn"], "player": who, "armies": _armies(data["total"]),
                  "base": data["base"]}
        text = _("Turn %(turn)s: %(player)s receives %(armies)s (%(base)s for territories") % values
        return text + (f", {bonus})." if bonus else ").")
    if kind == "cards_traded":
        text = _("%(player)s traded %(cards)s for %(armies)s.") % {
            "player": who, "armies": _armies(data["value"]),
            "cards": ", ".join(card_text(c) for c in data["cards"])}
        for territory, extra in data.get("bonus", {}).items():
            text += " " + _("%(armies)s more on %(territory)s.") % {
                "armies": _armies(extra), "territory": territory_name(territory)}
        return text
    if kind == "battle":
        defender = owners.owner.get(data["to"]) if owners else None
        values = {"player": who, "to": territory_name(data["to"]),
                  "from": territory_name(data["from"]),
                  "attack": _dice(data["attacker_dice"]), "defence": _dice(data["defender_dice"])}
        text = _("%(player)s attacked %(to)s from %(from)s: %(attack)s against %(defence)s") % values
        losses = []
        if data["attacker_losses"]:
            losses.append(_("%(player)s lost %(count)s") % {
                "player": who, "count": data["attacker_losses"]})
        if data["defender_losses"]:
            losses.append(_("%(player)s lost %(count)s") % {
                "player": seat_name(defender) if defender is not None else _("the defender"),
                "count": data["defender_losses"]})
        text += ", " + ", ".join(losses)
        if data["conquered"]:
            text += " — " + _("%(territory)s conquered!") % {"territory": values["to"]}
        return text
    if kind == "occupied":
        return _("%(player)s moved %(armies)s from %(from)s into %(to)s.") % {
            "player": who, "armies": _armies(data["armies"]), "from": territory_name(data["from"]),
            "to": territory_name(data["to"])}
    if kind == "capital_captured":
        return _("%(player)s captured the capital of %(owner)s: %(territory)s.") % {
            "player": who, "owner": seat_name(data["owner"]),
            "territory": territory_name(data["territory"])}
    if kind == "fortified":
        return _("%(player)s fortified: %(armies)s from %(from)s to %(to)s.") % {
            "player": who, "armies": _armies(data["armies"]), "from": territory_name(data["from"]),
            "to": territory_name(data["to"])}
    if kind == "card_drawn":
        if "card" in data:
            return _("%(player)s drew a card: %(card)s.") % {
                "player": who, "card": card_text(data["card"])}
        return _("%(player)s drew a card.") % {"player": who}
    if kind == "player_eliminated":
        return _("%(by)s eliminated %(player)s.") % {
            "by": seat_name(data["by"]), "player": who}
    if kind == "player_dropped":
        if data.get("reason") == "resigned":
            return _("%(player)s resigned; their territories turn neutral.") % {"player": who}
        return _("%(player)s missed too many turns and was dropped; their territories turn "
                 "neutral.") % {"player": who}
    if kind == "turn_timed_out":
        return _("%(player)s ran out of time (missed turns in a row: %(missed)s).") % {
            "player": who, "missed": data["missed"]}
    if kind == "turn_ended":
        return _("%(player)s ended the turn.") % {"player": who}
    if kind == "attack_ended":
        return _("%(player)s stopped attacking.") % {"player": who}
    if kind == "defense_set":
        return _("%(player)s will now %(policy)s.") % {
            "player": who, "policy": DEFENSE_NAMES.get(data["policy"], data["policy"])}
    if kind == "game_finished":
        return _("%(player)s won the game: %(reason)s.") % {
            "player": seat_name(data["winner"]),
            "reason": FINISH_REASONS.get(data["reason"], data["reason"])}
    return kind.replace("_", " ")


def log_entries(events: list[dict]) -> list[dict]:
    """Every event with its sentence and the colour of whoever it is about."""
    owners = OwnerTracker()
    entries = []
    for event in events:
        text = describe(event, owners)
        owners.see(event)
        data = event["data"]
        seat = data.get("seat", data.get("winner", event.get("actor")))
        entries.append({
            "seq": event["seq"], "type": event["type"], "text": text,
            "at": datetime.fromisoformat(event["at"]) if event.get("at") else None,
            "color": seat_color(seat),
        })
    return entries
