"""Secret missions, as the game's map declares them, and when one is fulfilled.

A map's missions are of three kinds: `conquer` (these continents, and `extra` more of the
player's choice), `occupy` (this many territories with at least `armies` each) and
`destroy` (one card per colour in play, `destroy_<colour>`, falling back to the mission
`fallback` when the target is its owner or left the game other than by the owner's hand).
The classic map's fourteen are the rulebooks'.
"""

from __future__ import annotations

from functools import cache

from .maps import Board, classic
from .pieces import COLORS, NEUTRAL

DESTROY = "destroy_"


@cache
def _definitions(board: Board) -> tuple[dict, dict | None]:
    """The map's missions by id, and its destroy mission (if any)."""
    by_id = {m["id"]: m for m in board.missions if m["kind"] != "destroy"}
    destroy = next((m for m in board.missions if m["kind"] == "destroy"), None)
    return by_id, destroy


def mission_ids(board: Board) -> tuple[str, ...]:
    by_id, destroy = _definitions(board)
    return (*by_id, *((f"{DESTROY}{c}" for c in COLORS) if destroy else ()))


MISSIONS: tuple[str, ...] = mission_ids(classic())


def missions_in_play(players: int, board: Board | None = None) -> list[str]:
    """The mission deck for a table: colour cards of colours not in play are removed."""
    present = set(COLORS[:players])
    return [m for m in mission_ids(board or classic())
            if not m.startswith(DESTROY) or m[len(DESTROY):] in present]


def effective_mission(state, seat: int) -> str:
    """The mission as it now stands: a 'destroy' card falls back to its fallback (classic:
    'occupy 24') when the target is the owner, or left the game other than by the owner's
    hand."""
    mission = state.players[seat].mission
    if mission and mission.startswith(DESTROY):
        target = COLORS.index(mission[len(DESTROY):])
        victim = state.players[target]
        if target == seat or victim.dropped or (
            victim.eliminated and victim.eliminated_by != seat
        ):
            return _definitions(state.board)[1]["fallback"]
    return mission


def describe(mission: str, board: Board | None = None) -> str:
    board = board or classic()
    by_id, _ = _definitions(board)
    definition = by_id.get(mission)
    if definition is None:
        return f"Destroy all armies of {mission[len(DESTROY):]}"
    if definition["kind"] == "conquer":
        text = "Conquer " + " and ".join(board.territory_name(c)
                                         for c in definition["continents"])
        return text + (" and one more continent of your choice"
                       if definition.get("extra") else "")
    if definition.get("armies", 1) > 1:
        return (f"Occupy {definition['territories']} territories with at least "
                f"{definition['armies']} armies on each")
    return f"Occupy {definition['territories']} territories"


def fulfilled(state, seat: int) -> bool:
    mission = effective_mission(state, seat)
    owner = state.owner
    definition = _definitions(state.board)[0].get(mission)
    if definition is None:  # destroy_<colour>
        target = COLORS.index(mission[len(DESTROY):])
        victim = state.players[target]
        return victim.eliminated and victim.eliminated_by == seat and target != NEUTRAL
    if definition["kind"] == "conquer":
        continents = definition["continents"]
        held = [c for c, ts in state.board.continent_territories.items()
                if all(owner[t] == seat for t in ts)]
        return (all(c in held for c in continents)
                and len(held) >= len(continents) + definition.get("extra", 0))
    least = definition.get("armies", 1)
    armies = state.armies
    return sum(1 for t, o in owner.items()
               if o == seat and armies[t] >= least) >= definition["territories"]
