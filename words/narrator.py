"""The one narrator: events told in words for people, on the game page and its log, in
mail (turn mails, replies to mailed moves), on the moderators' pages and in the admin.

Works on events already redacted for the reader, so it can only tell what they may know;
names territories, continents, cards and colours in the active language, on the game's map
(`board`: the game's engine.maps.Board; an OwnerTracker that has read the game's start
knows it; classic when nothing says otherwise).
"""

from __future__ import annotations

from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine import events as ev
from engine.maps import Board, board_by_hash, classic
from engine.pieces import NEUTRAL
from words.vocabulary import (
    DEFENSE_NAMES,
    FINISH_REASONS,
    color_name,
    continent_name,
    level_name,
    mission_text,
    seat_color,
    symbol_name,
    territory_name,
)


def seat_name(seat, names: dict | None = None) -> str:
    """A seat as people read it: its colour (Red, Blue ... Neutral), with the player's
    username when `names` knows it."""
    if seat is None:
        return ""
    colour = color_name(seat_color(seat))
    username = (names or {}).get(seat)
    return f"{colour} ({username})" if username else colour


def team_words(team: int, seats, names: dict | None = None) -> str:
    """A team as people read it: "Team 1 (Red, Yellow)"."""
    return _("Team %(number)s (%(members)s)") % {
        "number": team + 1, "members": ", ".join(seat_name(s, names) for s in seats)}


def _armies(n: int) -> str:
    return ngettext("%(count)d army", "%(count)d armies", n) % {"count": n}


def _placements(placements: dict, board: Board) -> str:
    return ", ".join(f"{territory_name(t, board)} {n}" for t, n in placements.items())


def _dice(values) -> str:
    # High to low: the order in which the rules compare them, pair by pair.
    return " ".join(str(v) for v in sorted(values, reverse=True))


def card_text(card: int, board: Board | None = None) -> str:
    """A card of the game's deck in words: its territory and symbol, or the wild card."""
    board = board or classic()
    territory, symbol = board.cards[card]
    if territory is None:
        return symbol_name(symbol)
    return f"{territory_name(territory, board)} ({symbol_name(symbol)})"


class OwnerTracker:
    """Who holds each territory as the log is read in order, to name the defender of a
    battle without replaying the whole game; and the game's map, once it has read the
    game's start (or as given)."""

    def __init__(self, board: Board | None = None):
        self.board = board
        self.owner: dict = dict.fromkeys(board.territories) if board else {}

    def see(self, event: dict) -> None:
        kind, data = event["type"], event["data"]
        if kind == ev.GAME_STARTED and data.get("map_hash") and self.board is None:
            self.board = board_by_hash(data["map_hash"])
            self.owner = dict.fromkeys(self.board.territories) | self.owner
        elif kind == ev.TERRITORIES_DEALT:
            self.owner.update(data["owners"])
        elif kind == ev.TERRITORY_CLAIMED and "territory" in data:
            self.owner[data["territory"]] = data["seat"]
        elif kind == ev.BATTLE and data.get("conquered") and "to" in data:
            self.owner[data["to"]] = data["seat"]
        elif kind == ev.CAPITAL_CAPTURED:
            for territory in data.get("collapsed", []):
                self.owner[territory] = data["seat"]
        elif kind == ev.PLAYER_DROPPED:
            for territory, owner in self.owner.items():
                if owner == data["seat"]:
                    self.owner[territory] = NEUTRAL


def describe(event: dict, names: dict | None = None, owners: OwnerTracker | None = None,
             reasons: bool = False, board: Board | None = None) -> str:
    """One (already redacted) event as a sentence in the active language: territories,
    continents, cards and colours in that language, counts with their plural forms.
    `names` adds each seat's username to its colour; `owners` names the defender of a
    battle recorded before battles carried it; `reasons` adds a moderator's reason;
    `board` is the game's map (else the one `owners` knows, else classic)."""
    board = board or (owners.board if owners is not None else None) or classic()
    kind, data = event["type"], event["data"]
    sentence = moderator_sentence(kind, data, names)
    if sentence is not None:
        if reasons and data.get("reason"):
            sentence += " " + _("Reason: %(reason)s") % {"reason": data["reason"]}
        return sentence
    who = seat_name(data.get("seat", event.get("actor")), names)
    if kind == ev.GAME_STARTED:
        order = ", ".join(seat_name(s, names) for s in data["order"])
        return _("The game started. Turn order: %(order)s.") % {"order": order}
    if kind == ev.PLAY_ORDER_DRAWN:
        order = ", ".join(seat_name(s, names) for s in data["order"])
        return _("Who plays first was drawn afresh. Turn order: %(order)s.") % {"order": order}
    if kind == ev.TERRITORIES_DEALT:
        return _("The territories were dealt out.")
    if kind == ev.TERRITORY_CLAIMED:
        if "territory" not in data:
            return _("%(player)s claimed a territory out of sight.") % {"player": who}
        values = {"player": who, "territory": territory_name(data["territory"], board)}
        if data.get("random"):
            return _("%(player)s ran out of time and was given %(territory)s.") % values
        return _("%(player)s claimed %(territory)s.") % values
    if kind == ev.DECK_SHUFFLED:
        return _("The cards were shuffled.")
    if kind == ev.MISSIONS_DEALT:
        missions = data.get("missions") or []
        if missions and all(missions):  # the game is over: every mission is revealed
            return _("Secret missions were dealt: %(missions)s.") % {"missions": "; ".join(
                f"{seat_name(seat, names)}: {mission_text(m, board)}"
                for seat, m in enumerate(missions))}
        return _("Secret missions were dealt.")
    if kind == ev.ARMIES_PLACED:
        if not data.get("placements"):
            # under fog of war: placed where the reader cannot see
            return _("%(player)s placed armies out of sight.") % {"player": who}
        total = sum(data["placements"].values())
        values = {"player": who, "armies": _armies(total),
                  "where": _placements(data["placements"], board)}
        if data.get("seat") == NEUTRAL:
            if data.get("auto"):
                return _("Spread over the neutral's territories: %(where)s (%(armies)s).") % values
            values["player"] = seat_name(data.get("by"), names)
            return _("%(player)s placed %(armies)s for the neutral: %(where)s.") % values
        if data.get("random"):
            return _("Placed at random for %(player)s: %(where)s (%(armies)s).") % values
        if data.get("auto"):
            return _("Placed automatically for %(player)s: %(where)s (%(armies)s).") % values
        return _("%(player)s placed %(armies)s: %(where)s.") % values
    if kind == ev.PLACEMENT_SUBMITTED:
        return _("%(player)s handed in their starting placement.") % {"player": who}
    if kind == ev.CAPITAL_CHOSEN:
        if "territory" in data:
            return _("%(player)s chose %(territory)s as capital.") % {
                "player": who, "territory": territory_name(data["territory"], board)}
        return _("%(player)s chose a capital in secret.") % {"player": who}
    if kind == ev.TURN_STARTED:
        if "total" not in data:  # another team's reinforcements, under fog of war
            return _("Turn %(turn)s: %(player)s's turn.") % {"turn": data["turn"], "player": who}
        bonus = ", ".join(f"{continent_name(c, board)} +{b}"
                          for c, b in data["continents"].items())
        values = {"turn": data["turn"], "player": who, "armies": _armies(data["total"]),
                  "base": data["base"]}
        text = _("Turn %(turn)s: %(player)s receives %(armies)s (%(base)s for territories") % values
        return text + (f", {bonus})." if bonus else ").")
    if kind == ev.CARDS_TRADED:
        if "cards" not in data:  # another team's trade, under fog of war
            text = _("%(player)s traded a set of cards.") % {"player": who}
            for territory, extra in data.get("bonus", {}).items():
                text += " " + _("%(armies)s more on %(territory)s.") % {
                    "armies": _armies(extra), "territory": territory_name(territory, board)}
            return text
        text = _("%(player)s traded %(cards)s for %(armies)s.") % {
            "player": who, "armies": _armies(data["value"]),
            "cards": ", ".join(card_text(c, board) for c in data["cards"])}
        for territory, extra in data.get("bonus", {}).items():
            text += " " + _("%(armies)s more on %(territory)s.") % {
                "armies": _armies(extra), "territory": territory_name(territory, board)}
        return text
    if kind == ev.BATTLE:
        if not data:
            return _("A battle out of sight.")
        if "attacker_dice" not in data:  # under fog of war, seen from the attacking side only
            text = _("%(player)s attacked out of sight from %(from)s") % {
                "player": who, "from": territory_name(data["from"], board)}
            if data.get("attacker_losses"):
                text += ", " + _("%(player)s lost %(count)s") % {
                    "player": who, "count": data["attacker_losses"]}
            return text + "."
        defender = data.get("defender")
        if defender is None and owners is not None and "to" in data:
            defender = owners.owner.get(data["to"])
        values = {"player": who, "to": territory_name(data["to"], board) if "to" in data else "",
                  "from": territory_name(data["from"], board) if "from" in data else "",
                  "attack": _dice(data["attacker_dice"]), "defence": _dice(data["defender_dice"])}
        # Under fog of war one end of a battle may be out of the reader's sight.
        if "from" not in data:
            text = _("%(player)s attacked %(to)s from out of sight: %(attack)s against "
                     "%(defence)s") % values
        else:
            text = _("%(player)s attacked %(to)s from %(from)s: %(attack)s against "
                     "%(defence)s") % values
        losses = []
        if data["attacker_losses"]:
            losses.append(_("%(player)s lost %(count)s") % {
                "player": who, "count": data["attacker_losses"]})
        if data["defender_losses"]:
            losses.append(_("%(player)s lost %(count)s") % {
                "player": seat_name(defender, names) if defender is not None else _("the defender"),
                "count": data["defender_losses"]})
        text += ", " + ", ".join(losses)
        if data.get("conquered") and "to" in data:
            text += " — " + _("%(territory)s conquered!") % {"territory": values["to"]}
        return text
    if kind in (ev.OCCUPIED, ev.FORTIFIED) and not ("from" in data and "to" in data):
        return _fogged_move(kind, data, who, board)
    if kind == ev.OCCUPIED:
        return _("%(player)s moved %(armies)s from %(from)s into %(to)s.") % {
            "player": who, "armies": _armies(data["armies"]),
            "from": territory_name(data["from"], board), "to": territory_name(data["to"], board)}
    if kind == ev.CAPITAL_CAPTURED:
        if "territory" not in data:
            return _("%(player)s captured the capital of %(owner)s.") % {
                "player": who, "owner": seat_name(data["owner"], names)}
        return _("%(player)s captured the capital of %(owner)s: %(territory)s.") % {
            "player": who, "owner": seat_name(data["owner"], names),
            "territory": territory_name(data["territory"], board)}
    if kind == ev.FORTIFIED:
        return _("%(player)s fortified: %(armies)s from %(from)s to %(to)s.") % {
            "player": who, "armies": _armies(data["armies"]),
            "from": territory_name(data["from"], board), "to": territory_name(data["to"], board)}
    if kind == ev.CARD_DRAWN:
        if "card" in data:
            return _("%(player)s drew a card: %(card)s.") % {
                "player": who, "card": card_text(data["card"], board)}
        return _("%(player)s drew a card.") % {"player": who}
    if kind == ev.PLAYER_ELIMINATED:
        values = {"by": seat_name(data["by"], names), "player": who}
        if "cards" not in data:
            return _("%(by)s eliminated %(player)s.") % values
        cards = data["cards"]
        count = values["count"] = cards if isinstance(cards, int) else len(cards)
        if not count:
            return _("%(by)s eliminated %(player)s, who held no cards.") % values
        return ngettext("%(by)s eliminated %(player)s and took their %(count)d card.",
                        "%(by)s eliminated %(player)s and took their %(count)d cards.",
                        count) % values
    if kind == ev.PLAYER_DROPPED:
        if data.get("reason") == "resigned":
            return _("%(player)s resigned; their territories turn neutral.") % {"player": who}
        return _("%(player)s missed too many turns and was dropped; their territories turn "
                 "neutral.") % {"player": who}
    if kind == ev.SEAT_TO_BOT:
        return _("%(player)s missed too many turns; a computer player (%(level)s) plays the "
                 "seat on with its territories and cards.") % {
            "player": who, "level": level_name(data.get("level"))}
    if kind == ev.TURN_TIMED_OUT:
        return _("%(player)s ran out of time (missed turns in a row: %(missed)s).") % {
            "player": who, "missed": data["missed"]}
    if kind == ev.DEADLINE_STRETCHED:
        return _("Away on vacation: %(players)s. The deadline moves to %(until)s.") % {
            "players": ", ".join(seat_name(s, names) for s in data.get("seats", ())),
            "until": _when(data.get("until"))}
    if kind == ev.DEADLINE_PULLED_BACK:
        return _("%(player)s is back from vacation: the deadline is now %(until)s.") % {
            "player": who, "until": _when(data.get("until"))}
    if kind == ev.TURN_ENDED:
        return _("%(player)s ended the turn.") % {"player": who}
    if kind == ev.ATTACK_ENDED:
        return _("%(player)s stopped attacking.") % {"player": who}
    if kind == ev.DEFENSE_SET and data.get("neutral"):
        return _("%(player)s will now have the neutral %(policy)s when not attacking.") % {
            "player": who, "policy": DEFENSE_NAMES.get(data["policy"], data["policy"])}
    if kind == ev.DEFENSE_SET:
        return _("%(player)s will now %(policy)s.") % {
            "player": who, "policy": DEFENSE_NAMES.get(data["policy"], data["policy"])}
    if kind == ev.GAME_FINISHED:
        values = {"player": seat_name(data["winner"], names),
                  "reason": FINISH_REASONS.get(data["reason"], data["reason"])}
        if data.get("team") is not None:
            values["team"] = team_words(data["team"], data.get("winners") or [data["winner"]],
                                        names)
            return _("%(team)s won the game: %(reason)s.") % values
        return _("%(player)s won the game: %(reason)s.") % values
    return kind.replace("_", " ")


def _fogged_move(kind: str, data: dict, who: str, board: Board) -> str:
    """An occupation or fortification with one end (or both) out of the reader's sight."""
    if not data:
        return _("Armies moved out of sight.")
    values = {"player": who, "armies": _armies(data["armies"])}
    if "to" in data:
        values["to"] = territory_name(data["to"], board)
        return _("%(player)s moved %(armies)s into %(to)s from out of sight.") % values
    values["from"] = territory_name(data["from"], board)
    return _("%(player)s moved %(armies)s from %(from)s out of sight.") % values


def _when(text) -> str:
    moment = parse_datetime(text) if isinstance(text, str) else None
    return date_format(localtime(moment), "j M Y, H:i T") if moment else "?"


def moderator_sentence(kind: str, data: dict, names: dict | None = None) -> str | None:
    """The sentence for an event a moderator wrote, or None for any other event."""
    values = {"by": data.get("by", "?")}
    if kind == ev.GAME_PAUSED:
        return _("Moderator %(by)s paused the game.") % values
    if kind == ev.GAME_RESUMED:
        return _("Moderator %(by)s resumed the game.") % values
    if kind == ev.GAME_ABORTED:
        return _("Moderator %(by)s ended the game without a winner.") % values
    if kind == ev.MODERATOR_ENDED_TURN:
        return _("Moderator %(by)s ended the turn of an absent player.") % values
    # A moderator's drop carries their note {by, reason} in place of the reason "moderator".
    if kind == ev.PLAYER_DROPPED and "by" in data:
        return _("Moderator %(by)s removed %(who)s from the game; their territories turn "
                 "neutral.") % {**values, "who": seat_name(data.get("seat"), names)}
    if kind == ev.DEADLINE_EXTENDED:
        return _("Moderator %(by)s extended the deadline to %(until)s.") % {
            **values, "until": _when(data.get("until"))}
    if kind == ev.PLAYER_REPLACED:
        return _("Moderator %(by)s handed seat %(seat)s from %(old)s to %(new)s.") % {
            **values, "seat": seat_name(data.get("seat")),  # the seat, not its new holder
            "old": data.get("from", "?"), "new": data.get("to", "?")}
    if kind == ev.CHAT_HIDDEN and "message" not in data:  # another team's line
        return _("A moderator hid a line of another team's chat.")
    if kind == ev.CHAT_HIDDEN:
        return _("Moderator %(by)s hid chat message #%(message)s by %(who)s.") % {
            **values, "message": data.get("message"),
            "who": seat_name(data.get("author_seat"), names)}
    return None


def happened_to(events: list[dict], seat: int, names: dict,
                board: Board | None = None) -> list[str]:
    """What others did to `seat`: attacks on them, their eliminations, drops, timeouts
    (on the game's map, `board`)."""
    lines = []
    for event in events:
        data = event["data"]
        touched = (
            (event["type"] == ev.BATTLE and data.get("defender") == seat)
            or event["type"] in (ev.PLAYER_ELIMINATED, ev.PLAYER_DROPPED, ev.CAPITAL_CAPTURED,
                                 ev.GAME_FINISHED)
            or (event["type"] == ev.TURN_TIMED_OUT and data["seat"] == seat)
        )
        if touched:
            line = describe(event, names, board=board)
            if line:
                lines.append(line)
    return lines


def line(event: dict, names: dict, board: Board | None = None) -> str:
    """One line for a redacted event dict, never empty, with a moderator's reason (the
    moderators' pages and the admin): an event shape the narrator does not know is named
    by its type."""
    try:
        told = describe(event, names, reasons=True, board=board)
    except (KeyError, TypeError, IndexError):
        told = None
    return told or event["type"].replace("_", " ").capitalize()
