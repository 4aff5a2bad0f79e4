"""An independent referee of hidden information (fog of war, teams, secrets): what each seat
and a spectator may see of a game, worked out from docs/bots/contract.md with the board of
tests/contract.py, never with the engine's own sight or redaction code.

It has a rule for every field of the game view and of every event type that
engine/events.py declares, and fails on a field it has no rule for: a field added to
the engine is refereed only once someone decides here who may see it.

check_view() and check_event() raise AssertionError on anything a reader sees that it may
not, and on what it may see but is not shown.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from tests import contract

FOGGED = {"owner": None, "armies": None, "fog": True}


def neighbours_of(borders) -> dict[str, set[str]]:
    """Each territory's neighbours from a list of borders (pairs)."""
    neighbours: dict[str, set[str]] = {}
    for pair in borders:
        a, b = tuple(pair)
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    return neighbours


# The classic board of docs/players/maps.md; any other map's from its own file (map_neighbours).
NEIGHBOURS = neighbours_of(contract.BORDERS)


_MAP_NEIGHBOURS: dict[str, dict[str, set[str]]] = {}


def map_neighbours(board) -> dict[str, set[str]]:
    """A map's neighbours read from its file's borders (not from the engine's Board), once
    per map version (its content hash)."""
    if board.hash not in _MAP_NEIGHBOURS:
        _MAP_NEIGHBOURS[board.hash] = neighbours_of(board.data["borders"])
    return _MAP_NEIGHBOURS[board.hash]


def team(seat: int, players: int, team_size: int) -> set[int]:
    """docs/players/rules.md "Teams": seat s plays in team s % (players / team_size)."""
    teams = players // team_size
    return {s for s in range(players) if s % teams == seat % teams}


def allowed(owner: dict, seat: int | None, players: int, team_size: int,
            neighbours: dict | None = None) -> set[str]:
    """docs/players/rules.md "Fog of war": own territories, those adjacent to them, and teammates'."""
    neighbours = NEIGHBOURS if neighbours is None else neighbours
    if seat is None:
        return set()
    mates = team(seat, players, team_size)
    seen = set()
    for territory, holder in owner.items():
        if holder == seat:
            seen.add(territory)
            seen |= neighbours[territory]
        elif holder in mates:
            seen.add(territory)
    return seen


def territories_named(value, neighbours: dict | None = None) -> set[str]:
    """Every territory id (of the map `neighbours` lists) anywhere in a value, as a key or
    a value."""
    neighbours = NEIGHBOURS if neighbours is None else neighbours
    found: set[str] = set()
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            if item in neighbours:
                found.add(item)
        elif isinstance(item, dict):
            todo.extend(item)
            todo.extend(item.values())
        elif isinstance(item, list | tuple):
            todo.extend(item)
    return found


@dataclass(frozen=True)
class Reader:
    """Who reads: a seat (None: a spectator), its team (itself included; nobody for a
    spectator) and, under fog, the territories in its sight (None: no fog)."""

    seat: int | None
    mates: frozenset
    sees: frozenset | None
    # The map's neighbours (default classic's), to find territory ids in what is shown.
    neighbours: dict = dataclasses.field(default_factory=lambda: NEIGHBOURS, compare=False,
                                         repr=False)

    def sight(self, territory) -> bool:
        return self.sees is None or territory in self.sees

    def in_team(self, seat) -> bool:
        return seat in self.mates


# ---- the events: for each type, a rule per field ---------------------------------------
# A rule takes (field, data, reader) and returns what the reader is shown of that field:
# {field: value}, nothing ({}), or a stand-in ({"count": n}).
def shown(field, data, reader):
    return {field: data[field]}


def seen_at(*ends: str):
    """Shown if any of the territories in the fields `ends` is in sight: under fog a seat
    sees what happens where it can see."""
    def rule(field, data, reader):
        for end in ends:
            if reader.sight(data.get(end)):
                return {field: data[field]}
        return {}
    return rule


def for_team_of(owner: str = "seat"):
    """A secret of the seat in `owner`: its team sees it, nobody else."""
    def rule(field, data, reader):
        return shown(field, data, reader) if reader.in_team(data.get(owner)) else {}
    return rule


def fogged_for_others(field, data, reader):
    """Public without fog; under fog only the seat's team sees it (another team's
    reinforcements and trades)."""
    if reader.sees is None or reader.in_team(data.get("seat")):
        return shown(field, data, reader)
    return {}


def in_sight_only(field, data, reader):
    """A mapping or list of territories, cut down to those in sight."""
    value = data[field]
    if isinstance(value, dict):
        return {field: {t: v for t, v in value.items() if reader.sight(t)}}
    return {field: [t for t in value if reader.sight(t)]}


def bonus(field, data, reader):
    return shown(field, data, reader) if reader.in_team(data.get("seat")) else in_sight_only(
        field, data, reader)


def counted_unless_between(*seats: str):
    """Cards changing hands: the teams of the two seats see them, others how many."""
    def rule(field, data, reader):
        if any(reader.in_team(data.get(s)) for s in seats):
            return shown(field, data, reader)
        return {field: len(data[field])}
    return rule


def own_only(field, data, reader):
    return {field: [m if s == reader.seat else None for s, m in enumerate(data[field])]}


def pile_counted(field, data, reader):
    return {"count": len(data[field])}


def placement(field, data, reader):
    """A simultaneous placement: the seat's team sees it (what is in sight of it)."""
    return in_sight_only(field, data, reader) if reader.in_team(data.get("seat")) else {}


def team_line_for_team(field, data, reader):
    if data.get("team") is None or reader.in_team(data.get("author_seat")):
        return shown(field, data, reader)
    return {}


MODERATION = {"by": shown, "reason": shown}
EVENT_RULES: dict[str, dict] = {
    # The players' entropy carries no secret: public from the start, like the turn order.
    "game_started": dict.fromkeys(("order", "players", "rules", "game_id", "engine",
                                   "contributions", "contributors", "map", "map_hash"),
                                  shown),
    "territories_dealt": {"owners": in_sight_only},
    "territory_claimed": dict.fromkeys(("seat", "territory", "random"), seen_at("territory")),
    "deck_shuffled": {"cards": pile_counted},
    "missions_dealt": {"missions": own_only},
    "armies_placed": {"seat": shown, "placements": in_sight_only, "random": shown,
                      "auto": shown, "by": shown},
    "placement_submitted": {"seat": shown, "placements": placement},
    "capital_chosen": {"seat": shown, "territory": for_team_of(), "random": shown},
    "turn_started": {"seat": shown, "turn": shown, "base": fogged_for_others,
                     "continents": fogged_for_others, "total": fogged_for_others},
    "cards_traded": {"seat": shown, "cards": fogged_for_others, "value": fogged_for_others,
                     "bonus": bonus},
    # A battle is fought over its target: who sees it (a battle against it or next to it)
    # sees the dice and the losses; who sees only the source sees it attack and lose
    # armies, as its board shows, nothing of the target's strength or fate.
    "battle": {"seat": seen_at("from", "to"), "from": seen_at("from"), "to": seen_at("to"),
               "defender": seen_at("to"), "conquered": seen_at("to"),
               "attacker_dice": seen_at("to"), "defender_dice": seen_at("to"),
               "defender_losses": seen_at("to"), "attacker_losses": seen_at("from", "to")},
    # Armies leaving or entering a territory in sight: the board shows how many.
    "occupied": {"from": seen_at("from"), "to": seen_at("to"), "armies": seen_at("from", "to")},
    "fortified": {"from": seen_at("from"), "to": seen_at("to"),
                  "armies": seen_at("from", "to")},
    "capital_captured": {"seat": shown, "owner": shown, "territory": seen_at("territory"),
                         "cards": counted_unless_between("seat", "owner"),
                         "collapsed": in_sight_only},
    "card_drawn": {"seat": shown, "card": for_team_of()},
    "player_eliminated": {"seat": shown, "by": shown,
                          "cards": counted_unless_between("seat", "by")},
    "player_dropped": dict.fromkeys(("seat", "reason", "cards_to", "by"), shown),
    "seat_to_bot": dict.fromkeys(("seat", "level", "reason"), shown),
    "turn_timed_out": {"seat": shown, "missed": shown},
    "turn_ended": {"seat": shown},
    "attack_ended": {"seat": shown},
    # Every seat's defence policy is public in the view's players as well.
    "defense_set": dict.fromkeys(("seat", "policy", "neutral"), shown),
    "play_order_drawn": {"order": shown},
    "game_finished": dict.fromkeys(("winner", "reason", "team", "winners"), shown),
    "game_paused": MODERATION, "game_resumed": MODERATION, "game_aborted": MODERATION,
    "moderator_ended_turn": MODERATION,
    "deadline_extended": {**MODERATION, "until": shown, "was": shown},
    # The clock's own deadline changes: who owes the decision and the deadline are public.
    "deadline_stretched": dict.fromkeys(("seats", "until", "was"), shown),
    "deadline_pulled_back": dict.fromkeys(("seat", "until", "was"), shown),
    "player_replaced": {**MODERATION, "seat": shown, "from": shown, "to": shown,
                        "to_user_id": shown},
    # A team's chat line, and a moderator hiding it, are that team's business.
    "chat_hidden": dict.fromkeys(("by", "reason", "message", "author_seat", "team"),
                                 team_line_for_team),
}


def expected_data(event_type: str, data: dict, reader: Reader) -> dict:
    """What `reader` may be shown of an event's data before the end, field by field."""
    rules = EVENT_RULES.get(event_type)
    assert rules is not None, f"the referee has no rule for events of type {event_type}"
    unruled = set(data) - set(rules)
    assert not unruled, f"the referee has no rule for {event_type}.{sorted(unruled)}"
    out: dict = {}
    for field in data:
        out.update(rules[field](field, data, reader))
    return out


def check_event(shown_event: dict, event, reader: Reader) -> None:
    """`shown_event` is the engine's redacted event for the reader, who may see the
    territories `reader.sees` (what it saw before the event or after it)."""
    assert shown_event["seq"] == event.seq and shown_event["type"] == event.type
    assert shown_event.get("actor") == event.actor
    expected = expected_data(event.type, event.data, reader)
    assert shown_event["data"] == expected, (reader, event.type, shown_event["data"], expected)
    if reader.sees is not None:
        leaked = territories_named(shown_event["data"], reader.neighbours) - reader.sees
        assert not leaked, (reader, event.type, leaked)


# ---- the game view: a rule per field ----------------------------------------------------
# Public: the same for every reader (the table's state, the service's facts about the game).
PUBLIC_VIEW = {
    "phase", "turn", "round", "turn_seat", "current_seat", "conquered", "order", "winner",
    "winners", "winning_team", "paused", "finish_reason", "fog", "sets_traded",
    "next_set_value", "deck_size", "discard_size", "trade_limit", "map", "map_hash",
    # added by the service (games.seat_views.game_view)
    "id", "name", "status", "version", "rules", "deadline_seconds", "deadline", "seed_hash",
    "seats_wanted", "clock", "creator", "rated", "private", "bots_allowed",
}
PUBLIC_PLAYER = {"seat", "color", "eliminated", "dropped", "missed_turns", "defense",
                 "unplaced", "ready", "bot", "owner", "team", "username"}


def check_view(view: dict, truth, reader: Reader) -> None:
    """The engine's (or the API's) view for `reader` against the true state `truth` (a
    engine.GameState read as data): every field, none unruled."""
    fogged = reader.sees is not None
    unruled = set(view) - PUBLIC_VIEW - {"players", "territories", "pending", "capitals", "you"}
    assert not unruled, f"the referee has no rule for the view's {sorted(unruled)}"
    assert view["fog"] == fogged
    for territory, holder in view["territories"].items():
        if reader.sight(territory):
            assert len(holder) == 2 and holder["owner"] == truth.owner[territory] and (
                holder["armies"] == truth.armies[territory]), (territory, holder)
        else:
            assert holder == FOGGED, (territory, holder)
    assert set(view["territories"]) == set(truth.owner)
    held: dict = {}
    for territory, holder in truth.owner.items():
        count, armies = held.get(holder, (0, 0))
        held[holder] = (count + 1, armies + truth.armies[territory])
    for entry in view["players"]:
        check_player(entry, truth, reader, held.get(entry["seat"], (0, 0)))
    for capital, holder in view["capitals"].items():
        # A capital shows once it is taken (docs/players/rules.md), and under fog only in sight.
        assert truth.players[holder].capital == capital, capital
        assert capital in truth.revealed_capitals and reader.sight(capital), capital
    check_pending(view["pending"], truth, reader)
    if reader.seat is None:
        assert view["you"] is None
    else:
        check_you(view["you"], truth, reader)


def check_player(entry: dict, truth, reader: Reader, held: tuple[int, int]) -> None:
    """One seat's entry; `held`: how many territories and armies it truly holds."""
    seat = entry["seat"]
    player = truth.players[seat]
    unruled = set(entry) - PUBLIC_PLAYER - {"territories", "armies", "cards", "hand"}
    assert not unruled, f"the referee has no rule for players' {sorted(unruled)}"
    if reader.sees is not None and not reader.in_team(seat):  # others' totals are fogged
        assert entry["territories"] is None and entry["armies"] is None, entry
    else:
        assert (entry["territories"], entry["armies"]) == held, entry
    assert entry["cards"] == len(player.cards), entry  # a count, public
    if "hand" in entry:  # teammates see each other's cards
        assert reader.in_team(seat) and seat != reader.seat, entry
        assert [card["id"] for card in entry["hand"]] == list(player.cards), entry
    else:
        assert not reader.in_team(seat) or seat == reader.seat, entry


def check_pending(pending: dict, truth, reader: Reader) -> None:
    """docs/bots/contract.md: what the caller must do now; another seat's decisions never show."""
    assert set(pending) == {"reinforcements", "must_trade", "occupy"}, pending
    seat = reader.seat
    acting = seat is not None and truth.current == seat and not truth.finished
    if not acting:
        assert pending["occupy"] is None and pending["must_trade"] is False, pending
        simultaneous = (seat is not None and truth.phase == "setup_place"
                        and truth.current is None and not truth.finished)
        own = 0
        if simultaneous and not truth.players[seat].submitted:
            own = truth.players[seat].setup_armies
        assert pending["reinforcements"] == own, pending
        return
    assert pending["reinforcements"] == truth.reinforcements, pending
    if truth.phase == "occupy":
        move = truth.occupation
        assert pending["occupy"] == {"from": move.source, "to": move.target,
                                     "min": move.minimum,
                                     "max": truth.armies[move.source] - 1}, pending
        assert reader.sight(move.source) and reader.sight(move.target), pending
    else:
        assert pending["occupy"] is None, pending


def check_you(you: dict, truth, reader: Reader) -> None:
    """The caller's own hand, mission, capital, placement and choices: nobody else's."""
    me = truth.players[reader.seat]
    assert you["seat"] == reader.seat
    assert [card["id"] for card in you["cards"]] == list(me.cards)
    for trio in you.get("tradeable_sets", []):
        assert set(trio) <= set(me.cards), trio
    mission = you.get("mission")
    assert (mission or {}).get("id") == me.mission
    assert you.get("capital") == me.capital
    if "hidden_placement" in you:
        assert you["hidden_placement"] == me.hidden_placement
    if reader.sees is not None:
        named = territories_named(you.get("may"), reader.neighbours)
        assert named <= reader.sees, named - reader.sees
    unruled = set(you) - {"seat", "color", "cards", "mission", "capital", "defense",
                          "neutral_defense", "hidden_placement", "tradeable_sets", "may",
                          "team"}
    assert not unruled, f"the referee has no rule for you.{sorted(unruled)}"


class Sights:
    """allowed() per seat, remembered while the owners stay the same."""

    def __init__(self, players: int, team_size: int, fog: bool = True,
                 neighbours: dict | None = None):
        self.players, self.team_size, self.fog = players, team_size, fog
        self.neighbours = NEIGHBOURS if neighbours is None else neighbours
        self.known: dict = {}

    def team(self, seat: int | None) -> frozenset:
        return frozenset() if seat is None else frozenset(
            team(seat, self.players, self.team_size))

    def of(self, owner: dict, seat: int | None) -> set[str]:
        key = (tuple(owner.values()), seat)
        if key not in self.known:
            if len(self.known) > 64:
                self.known.clear()
            self.known[key] = allowed(owner, seat, self.players, self.team_size,
                                      self.neighbours)
        return self.known[key]

    def reader(self, seat: int | None, *owners: dict) -> Reader:
        """The reader at a moment: under fog, what it sees where the board is any of
        `owners` (before an event and after it)."""
        sees = None
        if self.fog:
            sees = frozenset().union(*(self.of(owner, seat) for owner in owners))
        return Reader(seat, self.team(seat), sees, self.neighbours)
