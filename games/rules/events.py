"""What happened: the event record, its JSON form, and the event types."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class EventType:
    """One kind of event, declared once: its wire name (CONTRACT.md), what it records, and
    its redaction rule: what a seat sees of its data before the game is over (None: all of
    it). After the end every seat sees everything."""

    name: str
    records: str
    redact: Callable[[dict, int | None], dict] | None = None


EVENT_TYPES: dict[str, EventType] = {}


def declare(name: str, records: str, redact=None) -> str:
    EVENT_TYPES[name] = EventType(name, records, redact)
    return name


def _only_for_owner(field: str, owner: str = "seat"):
    """`field` is seen only by the seat named in `owner`."""
    def rule(data: dict, seat: int | None) -> dict:
        if data.get(owner) == seat:
            return data
        return {k: v for k, v in data.items() if k != field}
    return rule


def _cards_counted_for_others(taker: str, giver: str):
    """Cards changing hands: the two seats involved see them, the others only how many."""
    def rule(data: dict, seat: int | None) -> dict:
        if seat is not None and seat in (data.get(taker), data.get(giver)):
            return data
        return dict(data, cards=len(data["cards"]))
    return rule


def _deck_counted(data: dict, seat: int | None) -> dict:
    return {"count": len(data["cards"])}


def _own_mission_only(data: dict, seat: int | None) -> dict:
    return {"missions": [m if s == seat else None for s, m in enumerate(data["missions"])]}


GAME_STARTED = declare("game_started", "the table: seats, rules, turn order")
TERRITORIES_DEALT = declare("territories_dealt", "random setup: owner of each territory")
TERRITORY_CLAIMED = declare("territory_claimed", "claim setup: a seat takes a territory")
DECK_SHUFFLED = declare("deck_shuffled", "the draw pile's order", _deck_counted)
MISSIONS_DEALT = declare("missions_dealt", "each seat's secret mission", _own_mission_only)
ARMIES_PLACED = declare("armies_placed", "armies put on territories")
PLACEMENT_SUBMITTED = declare(
    "placement_submitted", "simultaneous setup: one seat's placement, secret until all are in",
    _only_for_owner("placements"))
CAPITAL_CHOSEN = declare("capital_chosen", "a seat's secret capital",
                         _only_for_owner("territory"))
TURN_STARTED = declare("turn_started", "a seat's turn and its reinforcements")
CARDS_TRADED = declare("cards_traded", "a set traded for armies")
BATTLE = declare("battle", "one roll of the dice and its losses")
OCCUPIED = declare("occupied", "armies moved into a conquered territory")
CAPITAL_CAPTURED = declare("capital_captured", "a capital taken, with its cards",
                           _cards_counted_for_others("seat", "owner"))
FORTIFIED = declare("fortified", "armies moved between own territories")
CARD_DRAWN = declare("card_drawn", "a card for a conquest", _only_for_owner("card"))
PLAYER_ELIMINATED = declare("player_eliminated", "a seat out, its cards to the taker",
                            _cards_counted_for_others("by", "seat"))
PLAYER_DROPPED = declare("player_dropped", "a seat resigned, timed out or was dropped")
SEAT_TO_BOT = declare("seat_to_bot", "a seat dropped for missed turns, played on by a bot")
TURN_TIMED_OUT = declare("turn_timed_out", "a deadline passed and the decision was made")
TURN_ENDED = declare("turn_ended", "a seat ended its turn")
ATTACK_ENDED = declare("attack_ended", "a seat stopped attacking")
DEFENSE_SET = declare("defense_set", "a seat's defence dice policy")
GAME_FINISHED = declare("game_finished", "the winner and why")
# A moderator's actions carry {by, reason}.
GAME_PAUSED = declare("game_paused", "a moderator stopped play and the clock")
GAME_RESUMED = declare("game_resumed", "a moderator restarted play")
GAME_ABORTED = declare("game_aborted", "a moderator ended the game without a winner")
MODERATOR_ENDED_TURN = declare("moderator_ended_turn",
                               "a moderator completed an absent player's turn")
# Moderator actions that change no board: the log keeps them, the layer above projects
# them (the deadline column, the seat's holder, the chat message's flag).
DEADLINE_EXTENDED = declare("deadline_extended", "{by, reason, until, was}")
PLAYER_REPLACED = declare("player_replaced", "{by, reason, seat, from, to, to_user_id}")
CHAT_HIDDEN = declare("chat_hidden", "{by, reason, message, author_seat}")


def redact(event_type: str, data: dict, seat: int | None) -> dict:
    """The data of an event as `seat` may see it before the game is over."""
    declared = EVENT_TYPES.get(event_type)
    if declared is None:  # never made by this engine: nothing of it is shown
        return {}
    return data if declared.redact is None else declared.redact(data, seat)


@dataclass(slots=True)
class Event:
    seq: int
    type: str
    data: dict
    actor: int | None = None  # the seat whose command made it; None for the system

    def to_dict(self) -> dict:
        return {"seq": self.seq, "type": self.type, "actor": self.actor, "data": self.data}

    @classmethod
    def from_dict(cls, raw: dict) -> Event:
        return cls(raw["seq"], raw["type"], raw["data"], raw.get("actor"))
