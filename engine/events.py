"""What happened: the event record, its JSON form, and the event types."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .sight import Sight


@dataclass(frozen=True)
class EventType:
    """One kind of event, declared once: its wire name (docs/bots/contract.md), what it records, and
    its redaction rules: what a seat sees of its data before the game is over (None: all
    of it), and under fog of war what is left of that outside the seat's sight (None: the
    event says nothing about the board). After the end every seat sees everything.

    A rule takes the data and the seat's Sight (engine.sight).

    `moderator`: a moderator's action writes it, and it then carries {by, reason} (the
    narrator tells it as the moderator's, the table is mailed of it, the moderator's
    history lists it)."""

    name: str
    records: str
    redact: Callable[[dict, Sight], dict] | None = None
    fog: Callable[[dict, Sight], dict] | None = None
    moderator: bool = False


EVENT_TYPES: dict[str, EventType] = {}


def declare(name: str, records: str, redact=None, fog=None, moderator: bool = False) -> str:
    EVENT_TYPES[name] = EventType(name, records, redact, fog, moderator)
    return name


# ---- what only some seats see ------------------------------------------------------------
def _only_for_owner(field: str, owner: str = "seat"):
    """`field` is seen only by the seat named in `owner` (and its teammates)."""
    def rule(data: dict, sight: Sight) -> dict:
        if data.get(owner) in sight.allies:
            return data
        return {k: v for k, v in data.items() if k != field}
    return rule


def _cards_counted_for_others(taker: str, giver: str):
    """Cards changing hands: the two seats involved (and their teams) see them, the others
    only how many."""
    def rule(data: dict, sight: Sight) -> dict:
        if data.get(taker) in sight.allies or data.get(giver) in sight.allies:
            return data
        return dict(data, cards=len(data["cards"]))
    return rule


def _deck_counted(data: dict, sight: Sight) -> dict:
    return {"count": len(data["cards"])}


def _own_mission_only(data: dict, sight: Sight) -> dict:
    return {"missions": [m if s == sight.seat else None for s, m in enumerate(data["missions"])]}


def _team_line_for_team(data: dict, sight: Sight) -> dict:
    """A team's chat line is that team's business: so is a moderator hiding it (which line,
    why), and the other seats learn nothing but that a moderator acted."""
    if data.get("team") is None or data.get("author_seat") in sight.allies:
        return data
    return {}


# ---- what fog of war leaves (the seat's sight is what it saw before or after) -----------
def _fog_owners(data: dict, sight: Sight) -> dict:
    return dict(data, owners={t: o for t, o in data["owners"].items() if sight.sees(t)})


def _fog_territory(data: dict, sight: Sight) -> dict:
    return data if sight.sees(data.get("territory")) else {}


def _fog_placements(data: dict, sight: Sight) -> dict:
    if "placements" not in data:
        return data
    return dict(data, placements={t: n for t, n in data["placements"].items() if sight.sees(t)})


def _fog_totals(data: dict, sight: Sight) -> dict:
    """Another team's reinforcements are out of sight: whose turn it is, no more."""
    if data.get("seat") in sight.allies:
        return data
    return {"seat": data["seat"], "turn": data["turn"]}


def _fog_trade(data: dict, sight: Sight) -> dict:
    """Another team's trade: that a set went (its count of cards stays public) and a
    territory bonus only where it is in sight."""
    if data.get("seat") in sight.allies:
        return data
    return {"seat": data["seat"],
            "bonus": {t: n for t, n in data.get("bonus", {}).items() if sight.sees(t)}}


def _fog_battle(data: dict, sight: Sight) -> dict:
    """A battle is fought over its target. Who sees the target (a battle against it or next
    to it) sees the dice and the losses, and where the attack came from only if that is in
    sight too; who sees only the source sees it attack and what it lost, as the board shows,
    nothing of the target's strength or fate. Fields are kept by name: a new one stays
    hidden until it is given a place here."""
    if sight.sees(data.get("to")):
        kept = ("seat", "to", "defender", "attacker_dice", "defender_dice", "attacker_losses",
                "defender_losses", "conquered")
        if sight.sees(data.get("from")):
            kept += ("from",)
    elif sight.sees(data.get("from")):
        kept = ("seat", "from", "attacker_losses")
    else:
        return {}
    return {key: value for key, value in data.items() if key in kept}


def _fog_move(data: dict, sight: Sight) -> dict:
    """Armies moving between two territories (an occupation, a fortification): each end in
    sight, and how many if either is; nothing if neither is."""
    source, target = sight.sees(data.get("from")), sight.sees(data.get("to"))
    if not source and not target:
        return {}
    kept = {"armies"} | ({"from"} if source else set()) | ({"to"} if target else set())
    return {key: value for key, value in data.items() if key in kept}


def _fog_capital(data: dict, sight: Sight) -> dict:
    out = dict(data, collapsed=[t for t in data.get("collapsed", []) if sight.sees(t)])
    if not sight.sees(data.get("territory")):
        out.pop("territory", None)
    return out


GAME_STARTED = declare("game_started", "the table: seats, rules, turn order, and the "
                       "players' entropy mixed into the seed (public from here on)")
TERRITORIES_DEALT = declare("territories_dealt", "random setup: owner of each territory",
                            fog=_fog_owners)
TERRITORY_CLAIMED = declare("territory_claimed", "claim setup: a seat takes a territory",
                            fog=_fog_territory)
DECK_SHUFFLED = declare("deck_shuffled", "the draw pile's order", _deck_counted)
MISSIONS_DEALT = declare("missions_dealt", "each seat's secret mission", _own_mission_only)
ARMIES_PLACED = declare("armies_placed", "armies put on territories", fog=_fog_placements)
PLACEMENT_SUBMITTED = declare(
    "placement_submitted", "simultaneous setup: one seat's placement, secret until all are in",
    _only_for_owner("placements"), _fog_placements)
CAPITAL_CHOSEN = declare("capital_chosen", "a seat's secret capital",
                         _only_for_owner("territory"))
TURN_STARTED = declare("turn_started", "a seat's turn and its reinforcements",
                       fog=_fog_totals)
CARDS_TRADED = declare("cards_traded", "a set traded for armies", fog=_fog_trade)
BATTLE = declare("battle", "one roll of the dice and its losses", fog=_fog_battle)
OCCUPIED = declare("occupied", "armies moved into a conquered territory", fog=_fog_move)
CAPITAL_CAPTURED = declare("capital_captured", "a capital taken, with its cards",
                           _cards_counted_for_others("seat", "owner"), _fog_capital)
FORTIFIED = declare("fortified", "armies moved between own territories", fog=_fog_move)
CARD_DRAWN = declare("card_drawn", "a card for a conquest", _only_for_owner("card"))
PLAYER_ELIMINATED = declare("player_eliminated", "a seat out, its cards to the taker",
                            _cards_counted_for_others("by", "seat"))
# A moderator's drop is one of theirs (it carries {by, reason}); a resignation or a
# timeout is not.
PLAYER_DROPPED = declare("player_dropped", "a seat resigned, timed out or was dropped",
                         moderator=True)
SEAT_TO_BOT = declare("seat_to_bot", "a seat dropped for missed turns, played on by a bot")
TURN_TIMED_OUT = declare("turn_timed_out", "a deadline passed and the decision was made")
TURN_ENDED = declare("turn_ended", "a seat ended its turn")
ATTACK_ENDED = declare("attack_ended", "a seat stopped attacking")
DEFENSE_SET = declare("defense_set", "a seat's defence dice policy (`neutral`: for the neutral)")
PLAY_ORDER_DRAWN = declare("play_order_drawn",
                           "`play_order: redraw`: the turn order after setup, first player drawn")
GAME_FINISHED = declare("game_finished", "the winner and why")
# A moderator's actions carry {by, reason}.
GAME_PAUSED = declare("game_paused", "a moderator stopped play and the clock",
                      moderator=True)
GAME_RESUMED = declare("game_resumed", "a moderator restarted play", moderator=True)
GAME_ABORTED = declare("game_aborted", "a moderator ended the game without a winner",
                       moderator=True)
MODERATOR_ENDED_TURN = declare("moderator_ended_turn",
                               "a moderator completed an absent player's turn", moderator=True)
# Moderator actions that change no board: the log keeps them, the layer above projects
# them (the deadline column, the seat's holder, the chat message's flag).
DEADLINE_EXTENDED = declare("deadline_extended", "{by, reason, until, was}", moderator=True)
PLAYER_REPLACED = declare("player_replaced", "{by, reason, seat, from, to, to_user_id}",
                          moderator=True)
CHAT_HIDDEN = declare("chat_hidden", "{by, reason, message, author_seat, team?}",
                      redact=_team_line_for_team, moderator=True)
# The clock's own changes of a deadline (the deadline sweep, a vacation called off): like an
# extension they change no board and carry the new deadline (`until`, and the one it
# replaced, `was`), so replaying the log gives the deadline column (games.clock). Public:
# the deadline itself is shown to every seat, and who owes the decision is known to all;
# the vacation's own dates never go in.
DEADLINE_STRETCHED = declare("deadline_stretched", "the seats owing the decision are on "
                             "vacation: the clock waits until they are back {seats, until, "
                             "was}")
DEADLINE_PULLED_BACK = declare("deadline_pulled_back", "a seat back from vacation early: the "
                               "deadline runs again from then {seat, until, was}")


# The data fields each type may carry. Before the end a field not named here is never
# shown, so a new one stays hidden until it is named (and the fog referee of the tests,
# tests/engine/fog_referee.py, is given a rule for it).
FIELDS: dict[str, frozenset] = {name: frozenset(names.split()) for name, names in {
    GAME_STARTED: "order players rules game_id engine contributions contributors map map_hash",
    TERRITORIES_DEALT: "owners",
    TERRITORY_CLAIMED: "seat territory random",
    DECK_SHUFFLED: "cards",
    MISSIONS_DEALT: "missions",
    ARMIES_PLACED: "seat placements random auto by",
    PLACEMENT_SUBMITTED: "seat placements",
    CAPITAL_CHOSEN: "seat territory random",
    TURN_STARTED: "seat turn base continents total",
    CARDS_TRADED: "seat cards value bonus",
    BATTLE: "seat from to defender attacker_dice defender_dice attacker_losses "
            "defender_losses conquered",
    OCCUPIED: "from to armies",
    CAPITAL_CAPTURED: "seat owner territory cards collapsed",
    FORTIFIED: "from to armies",
    CARD_DRAWN: "seat card",
    PLAYER_ELIMINATED: "seat by cards",
    PLAYER_DROPPED: "seat reason cards_to by",
    SEAT_TO_BOT: "seat level reason",
    TURN_TIMED_OUT: "seat missed",
    TURN_ENDED: "seat",
    ATTACK_ENDED: "seat",
    DEFENSE_SET: "seat policy neutral",
    PLAY_ORDER_DRAWN: "order",
    GAME_FINISHED: "winner reason team winners",
    GAME_PAUSED: "by reason",
    GAME_RESUMED: "by reason",
    GAME_ABORTED: "by reason",
    MODERATOR_ENDED_TURN: "by reason",
    DEADLINE_EXTENDED: "by reason until was",
    PLAYER_REPLACED: "by reason seat from to to_user_id",
    CHAT_HIDDEN: "by reason message author_seat team",
    DEADLINE_STRETCHED: "seats until was",
    DEADLINE_PULLED_BACK: "seat until was",
}.items()}

# The event types a moderator's action may write, as their declarations say (read after
# every declaration above).
MODERATOR_EVENTS = frozenset(name for name, declared in EVENT_TYPES.items()
                             if declared.moderator)


def redact(event_type: str, data: dict, sight: Sight) -> dict:
    """The data of an event as a seat with this sight may see it before the game is over."""
    declared = EVENT_TYPES.get(event_type)
    if declared is None:  # never made by this engine: nothing of it is shown
        return {}
    fields = FIELDS.get(event_type, frozenset())
    if not fields.issuperset(data):
        data = {key: value for key, value in data.items() if key in fields}
    if declared.redact is not None:
        data = declared.redact(data, sight)
    if sight.fogged and declared.fog is not None and data:
        data = declared.fog(data, sight)
    return data


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
