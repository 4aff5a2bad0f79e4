"""An independent referee of fog of war and teams: what each seat may see, worked out from
CONTRACT.md with the board of tests/contract.py, never with the engine's own sight code.

check_view() and check_events() raise AssertionError on anything a seat sees that it may not.
"""

from __future__ import annotations

from tests import contract

NEIGHBOURS: dict[str, set[str]] = {}
for pair in contract.BORDERS:
    a, b = tuple(pair)
    NEIGHBOURS.setdefault(a, set()).add(b)
    NEIGHBOURS.setdefault(b, set()).add(a)

# Event fields that tell another team's secrets (CONTRACT.md, the issue): reinforcement
# totals, traded cards and their value, a drawn card.
SECRET_FIELDS = {
    "turn_started": {"base", "continents", "total"},
    "cards_traded": {"cards", "value"},
    "card_drawn": {"card"},
}


def team(seat: int, players: int, team_size: int) -> set[int]:
    teams = players // team_size
    return {s for s in range(players) if s % teams == seat % teams}


def allowed(owner: dict, seat: int | None, players: int, team_size: int) -> set[str]:
    """CONTRACT.md: own territories, those adjacent to them, and teammates'."""
    if seat is None:
        return set()
    mates = team(seat, players, team_size)
    seen = set()
    for territory, holder in owner.items():
        if holder == seat:
            seen.add(territory)
            seen |= NEIGHBOURS[territory]
        elif holder in mates:
            seen.add(territory)
    return seen


def territories_named(value) -> set[str]:
    """Every territory id anywhere in an event's data, as a key or a value."""
    found = set()
    if isinstance(value, str):
        if value in NEIGHBOURS:
            found.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            found |= territories_named(key) | territories_named(item)
    elif isinstance(value, list | tuple):
        for item in value:
            found |= territories_named(item)
    return found


def check_view(view: dict, owner: dict, armies: dict, seat: int | None, players: int,
               team_size: int) -> None:
    sees = allowed(owner, seat, players, team_size)
    mates = team(seat, players, team_size) if seat is not None else set()
    for territory, shown in view["territories"].items():
        if territory in sees:
            assert shown == {"owner": owner[territory], "armies": armies[territory]}, territory
        else:
            assert shown == {"owner": None, "armies": None, "fog": True}, territory
    for player in view["players"]:
        if player["seat"] in mates:
            continue
        assert player["territories"] is None and player["armies"] is None, player
        assert "hand" not in player and "mission" not in player, player
    for capital in view["capitals"]:
        assert capital in sees, capital


class Sights:
    """allowed() per seat, remembered while the owners stay the same."""

    def __init__(self, players: int, team_size: int):
        self.players, self.team_size = players, team_size
        self.known: dict = {}

    def team(self, seat: int | None) -> set[int]:
        return set() if seat is None else team(seat, self.players, self.team_size)

    def of(self, owner: dict, seat: int | None) -> set[str]:
        key = (tuple(owner.values()), seat)
        if key not in self.known:
            if len(self.known) > 64:
                self.known.clear()
            self.known[key] = allowed(owner, seat, self.players, self.team_size)
        return self.known[key]


def check_event(shown: dict, event, sees: set[str], seat: int | None, mates: set[int]) -> None:
    """`shown` is the engine's redacted event for `seat`, which may see the territories
    `sees` (what it saw before or after the event); `mates`: its team."""
    assert shown["seq"] == event.seq and shown["type"] == event.type
    leaked = territories_named(shown["data"]) - sees
    assert not leaked, (seat, event.type, leaked, shown["data"])
    if event.data.get("seat") not in mates:
        secret = SECRET_FIELDS.get(event.type, set()) & set(shown["data"])
        assert not secret, (seat, event.type, secret)
